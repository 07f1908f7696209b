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

#include "tools/fstest.h"
#include "tools/fstest_vfs.h"
#include "vfs/vfs.h"

#define CTX(c) ((struct fstest_vfs *)(c))
#define T(c) (CTX(c)->cur)

/* Where Linux's getname() would fault on pjdfstest's DEADCODE pointer. */
#define BADP(p)                                          \
	do {                                             \
		if ((const char *)(p) == FSTEST_BAD_PTR) \
			return -EFAULT;                  \
	} while (0)

int fstest_vfs_init(struct fstest_vfs *fv, struct vfs *vfs)
{
	memset(fv, 0, sizeof(*fv));
	fv->vfs = vfs;
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
	if (fv->cur && fv->cur != fv->shell)
		task_exit(fv->cur);
	if (fv->shell)
		task_exit(fv->shell);
	fv->cur = fv->shell = NULL;
}

struct task *fstest_vfs_task(struct fstest_vfs *fv)
{
	return fv->cur ? fv->cur : fv->shell;
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
		fv->cur = t;
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
		fv->cur = NULL;
		return err;
	}
	if (!fv->persistent || cred->has_umask)
		fv->saved.umask = sys_umask(t, cred->umask);
	fv->saved.creds_set = true;
	fv->cur = t;
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
		fv->cur = NULL;
		return;
	}
	if (fv->cur)
		task_exit(fv->cur);
	fv->cur = NULL;
}

static int vb_cd(void *ctx, const char *path)
{
	BADP(path);
	return sys_chdir(CTX(ctx)->shell, path);
}

static long vb_openat(void *c, int dfd, const char *p, int flags, mode_t mode)
{
	BADP(p);
	return sys_openat(T(c), dfd, p, flags, mode);
}

static long vb_unlinkat(void *c, int dfd, const char *p, int flags)
{
	BADP(p);
	return sys_unlinkat(T(c), dfd, p, flags);
}

static long vb_mkdirat(void *c, int dfd, const char *p, mode_t mode)
{
	BADP(p);
	return sys_mkdirat(T(c), dfd, p, mode);
}

static long vb_linkat(void *c, int od, const char *op, int nd, const char *np, int flags)
{
	BADP(op);
	BADP(np);
	return sys_linkat(T(c), od, op, nd, np, flags);
}

static long vb_symlinkat(void *c, const char *target, int nd, const char *np)
{
	BADP(target);
	BADP(np);
	return sys_symlinkat(T(c), target, nd, np);
}

static long vb_renameat2(void *c, int od, const char *op, int nd, const char *np,
			 unsigned int flags)
{
	BADP(op);
	BADP(np);
	return sys_renameat2(T(c), od, op, nd, np, flags);
}

static long vb_mknodat(void *c, int dfd, const char *p, mode_t mode, dev_t dev)
{
	BADP(p);
	return sys_mknodat(T(c), dfd, p, mode, dev);
}

static long vb_fchmod(void *c, int fd, mode_t mode)
{
	return sys_fchmod(T(c), fd, mode);
}

static long vb_fchmodat(void *c, int dfd, const char *p, mode_t mode, int flags)
{
	BADP(p);
	return sys_fchmodat(T(c), dfd, p, mode, flags);
}

static long vb_fchown(void *c, int fd, uid_t u, gid_t g)
{
	return sys_fchown(T(c), fd, u, g);
}

static long vb_fchownat(void *c, int dfd, const char *p, uid_t u, gid_t g, int flags)
{
	BADP(p);
	return sys_fchownat(T(c), dfd, p, u, g, flags);
}

static long vb_truncate(void *c, const char *p, off_t len)
{
	BADP(p);
	return sys_truncate(T(c), p, len);
}

static long vb_ftruncate(void *c, int fd, off_t len)
{
	return sys_ftruncate(T(c), fd, len);
}

static long vb_fallocate(void *c, int fd, int mode, off_t off, off_t len)
{
	return sys_fallocate(T(c), fd, mode, off, len);
}

static long vb_fstat(void *c, int fd, struct stat *st)
{
	return sys_fstat(T(c), fd, st);
}

static long vb_fstatat(void *c, int dfd, const char *p, struct stat *st, int flags)
{
	BADP(p);
	return sys_fstatat(T(c), dfd, p, st, flags);
}

static long vb_write(void *c, int fd, const void *buf, size_t n)
{
	return sys_write(T(c), fd, buf, n);
}

static long vb_utimensat(void *c, int dfd, const char *p, const struct timespec ts[2], int flags)
{
	BADP(p);
	return sys_utimensat(T(c), dfd, p, ts, flags);
}

static long vb_close(void *c, int fd)
{
	return sys_close(T(c), fd);
}

static long vb_close_range(void *c, unsigned int first, unsigned int last, unsigned int flags)
{
	return sys_close_range(T(c), first, last, flags);
}

static long vb_read(void *c, int fd, void *buf, size_t n)
{
	return sys_read(T(c), fd, buf, n);
}

static long vb_pread(void *c, int fd, void *buf, size_t n, off_t off)
{
	return sys_pread64(T(c), fd, buf, n, off);
}

static long vb_pwrite(void *c, int fd, const void *buf, size_t n, off_t off)
{
	return sys_pwrite64(T(c), fd, buf, n, off);
}

static long vb_lseek(void *c, int fd, off_t off, int whence)
{
	return sys_lseek(T(c), fd, off, whence);
}

static long vb_dup(void *c, int fd)
{
	return sys_dup(T(c), fd);
}

static long vb_dup2(void *c, int o, int n)
{
	return sys_dup2(T(c), o, n);
}

static long vb_dup3(void *c, int o, int n, int flags)
{
	return sys_dup3(T(c), o, n, flags);
}

static long vb_fcntl(void *c, int fd, int cmd, unsigned long arg)
{
	return sys_fcntl(T(c), fd, cmd, arg);
}

static long vb_faccessat(void *c, int dfd, const char *p, int mode, int flags)
{
	BADP(p);
	return sys_faccessat(T(c), dfd, p, mode, flags);
}

static long vb_readlinkat(void *c, int dfd, const char *p, char *buf, size_t n)
{
	BADP(p);
	return sys_readlinkat(T(c), dfd, p, buf, n);
}

static long vb_getcwd(void *c, char *buf, size_t n)
{
	return sys_getcwd(T(c), buf, n);
}

static long vb_chdir(void *c, const char *p)
{
	BADP(p);
	return sys_chdir(T(c), p);
}

static long vb_fchdir(void *c, int fd)
{
	return sys_fchdir(T(c), fd);
}

static long vb_umask(void *c, mode_t mask)
{
	return sys_umask(T(c), mask);
}

static long vb_getdents64(void *c, int fd, void *dirp, size_t n)
{
	return sys_getdents64(T(c), fd, dirp, n);
}

/* The *at forms cover open, mkdir, unlink, ... (see fstest.h). */
const struct fstest_backend fstest_vfs_backend = {
	.name = "vfslab",
	.fork_per_line = false,
	.begin = vb_begin,
	.end = vb_end,
	.cd = vb_cd,
	.openat = vb_openat,
	.unlinkat = vb_unlinkat,
	.mkdirat = vb_mkdirat,
	.linkat = vb_linkat,
	.symlinkat = vb_symlinkat,
	.renameat2 = vb_renameat2,
	.mknodat = vb_mknodat,
	.fchmod = vb_fchmod,
	.fchmodat = vb_fchmodat,
	.fchown = vb_fchown,
	.fchownat = vb_fchownat,
	.truncate = vb_truncate,
	.ftruncate = vb_ftruncate,
	.fallocate = vb_fallocate,
	.fstat = vb_fstat,
	.fstatat = vb_fstatat,
	.write = vb_write,
	.utimensat = vb_utimensat,
	.close = vb_close,
	.close_range = vb_close_range,
	.read = vb_read,
	.pread = vb_pread,
	.pwrite = vb_pwrite,
	.lseek = vb_lseek,
	.dup = vb_dup,
	.dup2 = vb_dup2,
	.dup3 = vb_dup3,
	.fcntl = vb_fcntl,
	.faccessat = vb_faccessat,
	.readlinkat = vb_readlinkat,
	.getcwd = vb_getcwd,
	.chdir = vb_chdir,
	.fchdir = vb_fchdir,
	.umask = vb_umask,
	.getdents64 = vb_getdents64,
};
