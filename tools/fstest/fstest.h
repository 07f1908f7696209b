/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fstest - an interpreter for pjdfstest's command language.
 *
 * One input line is one pjdfstest invocation:
 *
 *	[-U umask] [-u uid] [-g gid[,gid...]] [--] syscall args
 *		[: syscall args ...]
 *
 * and what it writes to stdout is, line for line, what pjdfstest's own
 * binary prints on Linux for the same arguments.  The syscalls themselves
 * go through a backend (struct fstest_backend), so one script can run
 * against the host kernel and against vfslab's VFS and the two outputs can
 * be diffed.  The language, the output of every command and the vfslab
 * extensions are described in tests/fstest/README.
 */
#ifndef VFSLAB_TOOLS_FSTEST_FSTEST_H
#define VFSLAB_TOOLS_FSTEST_FSTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "tools/sys/sys.h"

/* Supplementary groups one -g option may list. */
#define FSTEST_MAX_GROUPS 64

/*
 * RLIMIT_NOFILE of every invocation.  Both backends use the same limit so
 * that F_DUPFD / dup2 boundary cases give the same answer.
 */
#define FSTEST_NOFILE 1024

/*
 * The pointer a path argument written as DEADCODE becomes (pjdfstest passes
 * 0xdeadc0de).  A backend must treat it as an unreadable user address: the
 * host hands it to the kernel, which answers EFAULT; a VFS backend must
 * answer -EFAULT wherever the kernel would copy the string in (getname).
 * NULL is passed as NULL and needs the same care.
 */
#define FSTEST_BAD_PTR ((const char *)0xdeadc0deUL)

/*
 * The credentials of one invocation, as pjdfstest sets them.  pjdfstest
 * (running as root) does, in this order:
 *
 *	-g: setgroups(ngroups, groups); setegid(groups[0]);
 *	-u: setuid(uid);
 *	always: umask(umask), 0 without -U.
 *
 * so with -u the real, effective, saved and fs uids all become uid, and
 * with -g the supplementary list is groups[] and the effective (and fs)
 * gid is groups[0] while the real and saved gids keep the caller's value
 * (0 when run as root).  access() checks the real ids, so this matters.
 * Without -u or -g those ids stay the caller's: root with gid 0 for the
 * scripts in tests/fstest, which always give -u and -g together.
 */
struct fstest_cred {
	bool has_uid; /* -u given (and not -1) */
	uid_t uid;
	bool has_groups; /* -g given */
	gid_t gid; /* groups[0]: the new effective gid */
	int ngroups; /* 1..FSTEST_MAX_GROUPS when has_groups */
	gid_t groups[FSTEST_MAX_GROUPS];
	bool has_umask; /* -U given; informational, umask is always set */
	mode_t umask; /* 0 unless -U */
};

/*
 * A backend: where the calls go (a struct sys_ops and its ctx: what Linux
 * returns for the same call on tmpfs, with host types and O_* / AT_*
 * values) and how one invocation starts and ends around them. Descriptors
 * are the invocation's own fd numbers; the interpreter maps pjdfstest's
 * descriptor indexes onto them. A command whose call the sys_ops lacks is
 * reported as unsupported by the backend, and its line counts as an error.
 */
struct fstest_backend {
	const char *name;
	/*
	 * Run every invocation in a forked child: begin(), the calls and
	 * end() happen there, cd() in the parent.  The host backend needs
	 * it (credentials cannot be taken back); an in-process VFS does not.
	 */
	bool fork_per_line;

	/*
	 * Start one invocation, as a freshly started process would: a new fd
	 * table holding exactly 0, 1 and 2 (what they refer to is the
	 * backend's business), RLIMIT_NOFILE = FSTEST_NOFILE, the working
	 * directory left by the last cd(), @cred applied as described above.
	 * Returns 0 or a negative errno (the line is then not run).
	 */
	int (*begin)(void *ctx, const struct fstest_cred *cred);
	/* End the invocation: close every fd it left open, drop its creds. */
	void (*end)(void *ctx);
	/*
	 * The `cd PATH` line (a vfslab extension): change the working
	 * directory of all later invocations, with the caller's (root's)
	 * credentials.  Returns 0 or a negative errno.
	 */
	int (*cd)(void *ctx, const char *path);

	/* The calls, made on sys_ctx(ctx) between begin() and end(). */
	const struct sys_ops *sys;
	void *(*sys_ctx)(void *ctx);

	/*
	 * Background lines (`LINE &`) without fork_per_line: a context for
	 * one line run on a thread of its own beside @ctx (NULL: not here),
	 * what that thread does first and last, and a kill of every call
	 * blocked in the backend (they return EINTR).
	 */
	void *(*job_ctx_new)(void *ctx);
	void (*job_ctx_free)(void *job_ctx);
	void (*thread_enter)(void);
	void (*thread_exit)(void);
	void (*kill_blocked)(void *ctx);
};

/*
 * Run a script: one invocation per line.  Blank lines and lines whose first
 * word starts with '#' are skipped; `cd PATH` changes the directory later
 * lines start in.  Results go to @out; diagnostics about the script (a
 * malformed line, an unsupported command, a child that died) go to @err as
 * "NAME:LINE: message", and the line produces no output.
 * Returns the number of lines that got such a diagnostic (0: clean run),
 * or -1 if @in could not be read.
 */
int fstest_run(const struct fstest_backend *be, void *ctx, FILE *in, FILE *out, FILE *err,
	       const char *name);

/*
 * Run one line of a script (same syntax, @line need not end in '\n').
 * Returns 0, or 1 if it got a diagnostic on @err.
 */
int fstest_run_line(const struct fstest_backend *be, void *ctx, const char *line, FILE *out,
		    FILE *err, const char *name, unsigned long lineno);

/*
 * Run one invocation given as pjdfstest's own argv (options first, then
 * the chain with ":" as separate words), e.g. from a command line.
 * Returns 0, or 1 after a diagnostic on @err.
 */
int fstest_run_argv(const struct fstest_backend *be, void *ctx, int argc, char *const argv[],
		    FILE *out, FILE *err);

/*
 * What fstest prints for @err (a positive errno): pjdfstest's name for it,
 * or its decimal value for the errnos pjdfstest has no name for (ENODATA,
 * EUCLEAN, ...).  Points to static storage for the decimal case.
 */
const char *fstest_strerror(int err);

/*
 * Set where the VFS runs on simulated CPUs (vfslab-sim): a background line
 * would need a thread the simulator does not know, so the vfslab backend
 * refuses them.
 */
extern bool fstest_one_cpu;

/* Background lines (`LINE &`) started and not yet waited for? */
bool fstest_jobs_pending(void);
/*
 * The end of a run of lines given one by one: wait for the background
 * lines as `wait` does, discarding what they print (fstest_run does this
 * itself, printing it).
 */
void fstest_jobs_end(const struct fstest_backend *be, void *ctx);

/* What vfslab fstest was asked to do (tools/cmd_fstest.c parses it). */
struct fstest_opts {
	bool host; /* the host kernel, not a vfslab VFS */
	bool chroot_cwd; /* host: confine each child to the current directory */
	const char *variant; /* vfslab: the VFS's variant keys, or NULL */
	bool one_invocation; /* argv is one invocation (after "--"), not scripts */
	int argc;
	char **argv;
};

/* Run it: 0, 1 if a line got a diagnostic or a script failed, 2 on misuse. */
int fstest_main(const struct fstest_opts *o);

/* The host backend (tools/fstest/host.c): the host kernel, fork per line. */
struct fstest_host {
	/*
	 * Directory each child chroot()s into before running (absolute), or
	 * NULL.  With it absolute paths and getcwd stay inside the run's
	 * directory, as they do in a VFS of its own.
	 */
	char *root;
	/* Seconds a line may run before its child is killed (0: none). */
	unsigned int timeout;
};

extern const struct fstest_backend fstest_host_backend;

/*
 * Set @host up.  With @chroot_cwd, each child is confined to the current
 * directory (needs root; ignored with a warning on @err otherwise).
 * Returns 0 or a negative errno.
 */
int fstest_host_init(struct fstest_host *host, bool chroot_cwd, FILE *err);
void fstest_host_fini(struct fstest_host *host);

#endif /* VFSLAB_TOOLS_FSTEST_FSTEST_H */
