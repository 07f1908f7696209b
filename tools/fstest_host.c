// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fstest's host backend: every member is the real syscall, made with
 * syscall(2) so that the answer is the kernel's own (no glibc emulation,
 * no sanitizer interceptor reading a DEADCODE path).  Only the *at forms
 * are provided; the interpreter maps open, mkdir, stat, ... onto them,
 * exactly as the kernel does.  Each invocation runs in a forked child,
 * which begin() turns into what pjdfstest's process would be.
 */
/* Before any libc header: O_PATH, AT_*, RENAME_*, asprintf. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "tools/fstest.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/* How long one line may run before its child is killed. */
#define HOST_TIMEOUT 10

static long sysret(long r)
{
	return r < 0 ? -errno : r;
}

#define SYS(...) sysret(syscall(__VA_ARGS__))

static void close_from(unsigned int first)
{
	if (syscall(SYS_close_range, first, ~0U, 0) < 0) {
		for (int fd = (int)first; fd < FSTEST_NOFILE; fd++)
			close(fd);
	}
}

/* Runs in the child: make it the process pjdfstest would be. */
static int host_begin(void *ctx, const struct fstest_cred *cred)
{
	struct fstest_host *h = ctx;
	struct rlimit rl;

	/* Exactly 0, 1 and 2 open, whatever the parent had. */
	for (int fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd)
			return -EBADF;
	}
	close_from(3);

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;
	rl.rlim_cur = FSTEST_NOFILE;
	if (rl.rlim_max < FSTEST_NOFILE)
		rl.rlim_max = FSTEST_NOFILE;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;

	if (h->root && chroot(h->root) < 0)
		return -errno;

	/* pjdfstest's order: groups, then egid, then setuid. */
	if (cred->has_groups) {
		if (setgroups((size_t)cred->ngroups, cred->groups) < 0)
			return -errno;
		if (setegid(cred->gid) < 0)
			return -errno;
	}
	if (cred->has_uid && setuid(cred->uid) < 0)
		return -errno;
	umask(cred->umask);
	if (h->timeout)
		alarm(h->timeout);
	return 0;
}

static void host_end(void *ctx)
{
	(void)ctx;
	close_from(3);
}

static int host_cd(void *ctx, const char *path)
{
	struct fstest_host *h = ctx;
	char *full;
	int rc;

	if (!h->root || path[0] != '/')
		return chdir(path) < 0 ? -errno : 0;
	/* The children see h->root as "/". */
	if (asprintf(&full, "%s%s", h->root, path) < 0)
		return -ENOMEM;
	rc = chdir(full) < 0 ? -errno : 0;
	free(full);
	return rc;
}

static long host_openat(void *ctx, int dirfd, const char *path, int flags, mode_t mode)
{
	(void)ctx;
	return SYS(SYS_openat, dirfd, path, flags, mode);
}

static long host_unlinkat(void *ctx, int dirfd, const char *path, int flags)
{
	(void)ctx;
	return SYS(SYS_unlinkat, dirfd, path, flags);
}

static long host_mkdirat(void *ctx, int dirfd, const char *path, mode_t mode)
{
	(void)ctx;
	return SYS(SYS_mkdirat, dirfd, path, mode);
}

static long host_linkat(void *ctx, int olddirfd, const char *oldpath, int newdirfd,
			const char *newpath, int flags)
{
	(void)ctx;
	return SYS(SYS_linkat, olddirfd, oldpath, newdirfd, newpath, flags);
}

static long host_symlinkat(void *ctx, const char *target, int newdirfd, const char *linkpath)
{
	(void)ctx;
	return SYS(SYS_symlinkat, target, newdirfd, linkpath);
}

static long host_renameat2(void *ctx, int olddirfd, const char *oldpath, int newdirfd,
			   const char *newpath, unsigned int flags)
{
	(void)ctx;
	return SYS(SYS_renameat2, olddirfd, oldpath, newdirfd, newpath, flags);
}

static long host_mknodat(void *ctx, int dirfd, const char *path, mode_t mode, dev_t dev)
{
	(void)ctx;
	/* The syscall takes the device as the kernel's 32-bit encoding. */
	return SYS(SYS_mknodat, dirfd, path, mode, (unsigned int)dev);
}

/* pjdfstest's bind/connect: the socket stays open, as it does there. */
static long host_socket_op(const char *path, bool do_bind)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	long fd;

	strncpy(sun.sun_path, path, sizeof(sun.sun_path) - 1);
	fd = SYS(SYS_socket, AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return fd;
	return SYS(do_bind ? SYS_bind : SYS_connect, fd, &sun, sizeof(sun));
}

static long host_bind(void *ctx, const char *path)
{
	(void)ctx;
	return host_socket_op(path, true);
}

static long host_connect(void *ctx, const char *path)
{
	(void)ctx;
	return host_socket_op(path, false);
}

static long host_fchmod(void *ctx, int fd, mode_t mode)
{
	(void)ctx;
	return SYS(SYS_fchmod, fd, mode);
}

static long host_fchmodat(void *ctx, int dirfd, const char *path, mode_t mode, int flags)
{
	long r;

	(void)ctx;
	if (!flags)
		return SYS(SYS_fchmodat, dirfd, path, mode);
	r = SYS(SYS_fchmodat2, dirfd, path, mode, flags);
	/* Kernels before 6.6: glibc's emulation is the best there is. */
	if (r == -ENOSYS)
		r = sysret(fchmodat(dirfd, path, mode, flags));
	return r;
}

static long host_fchown(void *ctx, int fd, uid_t owner, gid_t group)
{
	(void)ctx;
	return SYS(SYS_fchown, fd, owner, group);
}

static long host_fchownat(void *ctx, int dirfd, const char *path, uid_t owner, gid_t group,
			  int flags)
{
	(void)ctx;
	return SYS(SYS_fchownat, dirfd, path, owner, group, flags);
}

static long host_truncate(void *ctx, const char *path, off_t length)
{
	(void)ctx;
	return SYS(SYS_truncate, path, length);
}

static long host_ftruncate(void *ctx, int fd, off_t length)
{
	(void)ctx;
	return SYS(SYS_ftruncate, fd, length);
}

static long host_fallocate(void *ctx, int fd, int mode, off_t offset, off_t len)
{
	(void)ctx;
	return SYS(SYS_fallocate, fd, mode, offset, len);
}

static long host_fstat(void *ctx, int fd, struct stat *st)
{
	(void)ctx;
	return SYS(SYS_fstat, fd, st);
}

static long host_fstatat(void *ctx, int dirfd, const char *path, struct stat *st, int flags)
{
	(void)ctx;
	return SYS(SYS_newfstatat, dirfd, path, st, flags);
}

/* These are glibc's answers by definition (it computes them). */
static long host_pathconf(void *ctx, const char *path, int name, long *value)
{
	(void)ctx;
	errno = 0;
	*value = pathconf(path, name);
	return *value == -1 && errno ? -errno : 0;
}

static long host_fpathconf(void *ctx, int fd, int name, long *value)
{
	(void)ctx;
	errno = 0;
	*value = fpathconf(fd, name);
	return *value == -1 && errno ? -errno : 0;
}

static long host_write(void *ctx, int fd, const void *buf, size_t count)
{
	(void)ctx;
	return SYS(SYS_write, fd, buf, count);
}

static long host_utimensat(void *ctx, int dirfd, const char *path, const struct timespec times[2],
			   int flags)
{
	(void)ctx;
	return SYS(SYS_utimensat, dirfd, path, times, flags);
}

static long host_close(void *ctx, int fd)
{
	(void)ctx;
	return SYS(SYS_close, fd);
}

static long host_close_range(void *ctx, unsigned int first, unsigned int last, unsigned int flags)
{
	(void)ctx;
	return SYS(SYS_close_range, first, last, flags);
}

static long host_read(void *ctx, int fd, void *buf, size_t count)
{
	(void)ctx;
	return SYS(SYS_read, fd, buf, count);
}

static long host_pread(void *ctx, int fd, void *buf, size_t count, off_t offset)
{
	(void)ctx;
	return SYS(SYS_pread64, fd, buf, count, offset);
}

static long host_pwrite(void *ctx, int fd, const void *buf, size_t count, off_t offset)
{
	(void)ctx;
	return SYS(SYS_pwrite64, fd, buf, count, offset);
}

static long host_lseek(void *ctx, int fd, off_t offset, int whence)
{
	(void)ctx;
	return SYS(SYS_lseek, fd, offset, whence);
}

static long host_dup(void *ctx, int fd)
{
	(void)ctx;
	return SYS(SYS_dup, fd);
}

/* glibc's dup2 is the syscall where there is one (not on arm64). */
static long host_dup2(void *ctx, int oldfd, int newfd)
{
	(void)ctx;
	return sysret(dup2(oldfd, newfd));
}

static long host_dup3(void *ctx, int oldfd, int newfd, int flags)
{
	(void)ctx;
	return SYS(SYS_dup3, oldfd, newfd, flags);
}

static long host_fcntl(void *ctx, int fd, int cmd, unsigned long arg)
{
	(void)ctx;
	return SYS(SYS_fcntl, fd, cmd, arg);
}

static long host_faccessat(void *ctx, int dirfd, const char *path, int mode, int flags)
{
	(void)ctx;
	if (!flags)
		return SYS(SYS_faccessat, dirfd, path, mode);
	return SYS(SYS_faccessat2, dirfd, path, mode, flags);
}

static long host_readlinkat(void *ctx, int dirfd, const char *path, char *buf, size_t bufsiz)
{
	(void)ctx;
	return SYS(SYS_readlinkat, dirfd, path, buf, bufsiz);
}

static long host_getcwd(void *ctx, char *buf, size_t size)
{
	(void)ctx;
	return SYS(SYS_getcwd, buf, size);
}

static long host_chdir(void *ctx, const char *path)
{
	(void)ctx;
	return SYS(SYS_chdir, path);
}

static long host_fchdir(void *ctx, int fd)
{
	(void)ctx;
	return SYS(SYS_fchdir, fd);
}

static long host_umask(void *ctx, mode_t mask)
{
	(void)ctx;
	return SYS(SYS_umask, mask);
}

static long host_getdents64(void *ctx, int fd, void *dirp, size_t count)
{
	(void)ctx;
	return SYS(SYS_getdents64, fd, dirp, count);
}

const struct fstest_backend fstest_host_backend = {
	.name = "host",
	.fork_per_line = true,
	.begin = host_begin,
	.end = host_end,
	.cd = host_cd,
	.openat = host_openat,
	.unlinkat = host_unlinkat,
	.mkdirat = host_mkdirat,
	.linkat = host_linkat,
	.symlinkat = host_symlinkat,
	.renameat2 = host_renameat2,
	.mknodat = host_mknodat,
	.bind = host_bind,
	.connect = host_connect,
	.fchmod = host_fchmod,
	.fchmodat = host_fchmodat,
	.fchown = host_fchown,
	.fchownat = host_fchownat,
	.truncate = host_truncate,
	.ftruncate = host_ftruncate,
	.fallocate = host_fallocate,
	.fstat = host_fstat,
	.fstatat = host_fstatat,
	.pathconf = host_pathconf,
	.fpathconf = host_fpathconf,
	.write = host_write,
	.utimensat = host_utimensat,
	.close = host_close,
	.close_range = host_close_range,
	.read = host_read,
	.pread = host_pread,
	.pwrite = host_pwrite,
	.lseek = host_lseek,
	.dup = host_dup,
	.dup2 = host_dup2,
	.dup3 = host_dup3,
	.fcntl = host_fcntl,
	.faccessat = host_faccessat,
	.readlinkat = host_readlinkat,
	.getcwd = host_getcwd,
	.chdir = host_chdir,
	.fchdir = host_fchdir,
	.umask = host_umask,
	.getdents64 = host_getdents64,
};

int fstest_host_init(struct fstest_host *host, bool chroot_cwd, FILE *err)
{
	host->root = NULL;
	host->timeout = HOST_TIMEOUT;
	if (!chroot_cwd)
		return 0;
	if (geteuid() != 0) {
		fprintf(err, "fstest: not root, running without chroot: "
			     "absolute paths and getcwd see the real root\n");
		return 0;
	}
	host->root = getcwd(NULL, 0);
	if (!host->root)
		return -errno;
	/* Already "/": nothing to confine. */
	if (strcmp(host->root, "/") == 0) {
		free(host->root);
		host->root = NULL;
	}
	return 0;
}

void fstest_host_fini(struct fstest_host *host)
{
	free(host->root);
	host->root = NULL;
}
