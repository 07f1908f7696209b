// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fstest backend that runs each invocation against a vfslab VFS: a
 * task forked (without CLONE_FILES) from a long-lived "shell" task, so it
 * starts with the shell's cwd and fds 0-2, gets the invocation's
 * credentials, and exits at the end of the line, closing what it left open.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/fstest/fstest.h"
#include "tools/fstest/vfs.h"
#include "vfs/vfs.h"

#define CTX(c) ((struct fstest_vfs *)(c))

int fstest_vfs_init(struct fstest_vfs *fv, struct vfs *vfs)
{
	memset(fv, 0, sizeof(*fv));
	fv->vfs = vfs;
	fv->sys.bad_ptr = FSTEST_BAD_PTR;
	fv->shell = task_create_init(vfs);
	if (!fv->shell)
		return -ENOMEM;
	/* fds 0, 1 and 2, as a started process has them: the root, O_PATH. */
	for (int i = 0; i < 3; i++) {
		long fd = sys_open(fv->shell, "/", O_PATH, 0);

		if (fd != i) {
			task_exit(fv->shell);
			return fd < 0 ? (int)fd : -EBADF;
		}
	}
	sys_umask(fv->shell, 0);
	return 0;
}

void fstest_vfs_fini(struct fstest_vfs *fv)
{
	if (fv->sys.task && fv->sys.task != fv->shell)
		task_exit(fv->sys.task);
	if (fv->shell)
		task_exit(fv->shell);
	fv->sys.task = fv->shell = NULL;
}

struct task *fstest_vfs_task(struct fstest_vfs *fv)
{
	return fv->sys.task ? fv->sys.task : fv->shell;
}

static int vb_begin(void *ctx, const struct fstest_cred *cred)
{
	struct fstest_vfs *fv = CTX(ctx);
	struct task *t = fv->persistent ? fv->shell : task_fork(fv->shell, 0);
	uid_t ruid = 0, euid = 0;
	gid_t rgid = 0, egid = 0;
	int err;

	if (!t)
		return -ENOMEM;
	if (fv->persistent) {
		fv->sys.task = t;
		/* Only a line that asks for other credentials changes them. */
		if (!cred->has_uid && !cred->has_groups && !cred->has_umask)
			return 0;
		fv->saved.umask_set = cred->has_umask;
	}
	if (cred->has_uid)
		ruid = euid = cred->uid; /* setuid() as root: every uid */
	if (cred->has_groups)
		egid = cred->gid; /* setegid(): the real gid stays */
	err = task_set_creds(t, ruid, euid, rgid, egid, cred->has_groups ? cred->groups : NULL,
			     cred->has_groups ? cred->ngroups : 0);
	if (!err && !fv->persistent)
		err = task_set_nofile(t, FSTEST_NOFILE, FSTEST_NOFILE);
	if (err) {
		if (!fv->persistent)
			task_exit(t);
		fv->sys.task = NULL;
		return err;
	}
	if (!fv->persistent || cred->has_umask)
		fv->saved.umask = sys_umask(t, cred->umask);
	fv->saved.creds_set = true;
	fv->sys.task = t;
	return 0;
}

static void vb_end(void *ctx)
{
	struct fstest_vfs *fv = CTX(ctx);

	if (fv->persistent) {
		/* Back to root, and the umask the shell had. */
		if (fv->saved.creds_set)
			task_set_creds(fv->shell, 0, 0, 0, 0, NULL, 0);
		if (fv->saved.umask_set)
			sys_umask(fv->shell, fv->saved.umask);
		fv->saved.creds_set = fv->saved.umask_set = false;
		fv->sys.task = NULL;
		return;
	}
	if (fv->sys.task)
		task_exit(fv->sys.task);
	fv->sys.task = NULL;
}

static int vb_cd(void *ctx, const char *path)
{
	struct sys_vfs shell = CTX(ctx)->sys;

	shell.task = CTX(ctx)->shell;
	return (int)sys_ops_vfslab.chdir(&shell, path);
}

static void *vb_sys_ctx(void *ctx)
{
	return &CTX(ctx)->sys;
}

/* A background line's own: the same VFS and shell, a task of its own. */
static void *vb_job_ctx_new(void *ctx)
{
	struct fstest_vfs *fv = CTX(ctx), *job;

	/* The shell's lines share one task: nothing to run beside it. */
	if (fv->persistent || fstest_one_cpu)
		return NULL;
	job = calloc(1, sizeof(*job));
	if (!job)
		return NULL;
	job->vfs = fv->vfs;
	job->shell = fv->shell;
	job->sys = fv->sys;
	job->sys.task = NULL;
	return job;
}

static void vb_job_ctx_free(void *job)
{
	free(job);
}

static void vb_kill_blocked(void *ctx)
{
	vfs_kill_waiters(CTX(ctx)->vfs);
}

const struct fstest_backend fstest_vfs_backend = {
	.name = "vfslab",
	.fork_per_line = false,
	.begin = vb_begin,
	.end = vb_end,
	.cd = vb_cd,
	.sys = &sys_ops_vfslab,
	.sys_ctx = vb_sys_ctx,
	.job_ctx_new = vb_job_ctx_new,
	.job_ctx_free = vb_job_ctx_free,
	.thread_enter = vfs_thread_enter,
	.thread_exit = vfs_thread_exit,
	.kill_blocked = vb_kill_blocked,
};
