/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The single-threaded replay's shared state (engine.c), and what its
 * parts give each other: repair.c creates what a call needed, compare.c
 * tells field mismatches, prescan.c finds descriptors no traced call made.
 */
#ifndef VFSLAB_TOOLS_REPLAY_ENGINE_H
#define VFSLAB_TOOLS_REPLAY_ENGINE_H

#include <stdbool.h>
#include <sys/types.h>

#include "tools/replay/replay.h"

struct proc {
	int pid;
	struct task *task;
	struct rp_fdmap *map;
	size_t info; /* index in res->pids */
	char cwd[4096];
	mode_t umask;
};

struct engine {
	struct vfs *vfs;
	const struct rp_log *log;
	struct rp_tree *tree;
	struct rp_result *res;
	bool discover, listings, verbose;
	struct task *base;
	struct proc *procs;
	size_t nr_procs, cap_procs;
	bool root_started;
	struct rp_exec x;
	size_t cur;
	size_t inj_next, fdinj_next;
	struct task **holders;
	size_t nr_holders, cap_holders;
	unsigned int filler_seq;
};

/* What a missing object must be made as. */
struct want {
	mode_t mode;
	long long size;
	char *target; /* owned */
	bool guessed;
};

/* The paths a call walks: which must exist, which only need a parent. */
struct pspec {
	long dfd;
	const char *path;
	bool follow;
	bool need_final;
};

/* The paths c walks into s; how many. */
int rp_path_specs(const struct rp_call *c, struct pspec s[2]);

/* engine.c */
struct proc *rp_proc_find(struct engine *e, int pid);
/* The pid's process, started if the log showed no clone for it. */
struct proc *rp_proc_get(struct engine *e, int pid);
/* The absolute path a (dfd, path) pair names, when the log lets us know. */
bool rp_abs_path(const struct proc *p, long dfd, const char *path, char *out, size_t len);
/* Open a placeholder at the log's number fd in p. */
void rp_placeholder_at(struct engine *e, struct proc *p, int fd);

/* repair.c */
void rp_add_holder(struct engine *e, struct task *h);
/* Create an object at (dfdr, path) in t; a holder keeps regular files open. */
long rp_create_live(struct engine *e, struct task *t, int dfdr, const char *path, mode_t mode,
		    long long size, const char *target, struct task **holder, int *hfd);
/* One repair for a call that did not end as the log says; true to retry. */
bool rp_repair(struct engine *e, struct proc *p, const struct rp_call *c, long r);
/* The call matched but rp_fields_differ(): repair those; true to rerun. */
bool rp_repair_fields(struct engine *e, struct proc *p, const struct rp_call *c);

/* compare.c */
/* Fields beyond the return value: stat output, readlink and getcwd bodies. */
bool rp_fields_differ(struct engine *e, const struct rp_call *c, long r, char *what, size_t len);
void rp_add_mismatch(struct engine *e, long r, const char *what);

#endif /* VFSLAB_TOOLS_REPLAY_ENGINE_H */
