/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The path-walk tracer: vfslab walk's engine (run.c) and the printer it
 * and the shell's `walk` use (trace.c).
 */
#ifndef VFSLAB_TOOLS_WALK_WALK_H
#define VFSLAB_TOOLS_WALK_WALK_H

#include <stdbool.h>

struct task;
struct vfs;

#define WALK_MAX_LINES 64

struct walk_opts {
	const char *path;
	const char *variant; /* NULL: the defaults */
	const char *lines[WALK_MAX_LINES]; /* fstest lines run before the walk */
	int nlines;
	bool create; /* build the path first */
	bool follow; /* stat(), not lstat() */
	bool steps; /* every step, not just the result */
	unsigned int resolve; /* openat2's RESOLVE_* flags */
	unsigned long uid, gid;
};

/* Walk path in t, printing the result (and each step with steps); 0 or -errno. */
int walk_print_trace(struct vfs *vfs, struct task *t, const char *path, bool follow,
		     unsigned int resolve, bool steps);
/* A fresh VFS, the path and the lines in it, the walk printed; the exit status. */
int walk_run(const struct walk_opts *o);

#endif /* VFSLAB_TOOLS_WALK_WALK_H */
