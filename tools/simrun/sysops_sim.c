// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The benchmark syscall table on a virtual CPU: bench_sys_vfslab's calls,
 * with the profile's syscall entry and exit cost charged around each, and
 * the exit a quiescent point where the vCPU's released RCU callbacks run.
 */
#include "tools/simrun/simrun.h"
#include "vfs/vfs.h"

#define T(c) (((struct sim_ctx *)(c))->task)

#define SYS(call)                \
	({                       \
		long __r;        \
		sim_sys_enter(); \
		__r = (call);    \
		sim_sys_exit();  \
		__r;             \
	})

static long s_open(void *c, const char *p, int flags, mode_t mode)
{
	return SYS(sys_open(T(c), p, flags, mode));
}

static long s_close(void *c, int fd)
{
	return SYS(sys_close(T(c), fd));
}

static long s_stat(void *c, const char *p, struct stat *st)
{
	return SYS(sys_stat(T(c), p, st));
}

static long s_fstat(void *c, int fd, struct stat *st)
{
	return SYS(sys_fstat(T(c), fd, st));
}

static long s_access(void *c, const char *p, int mode)
{
	return SYS(sys_access(T(c), p, mode));
}

static long s_read(void *c, int fd, void *buf, size_t n)
{
	return SYS(sys_read(T(c), fd, buf, n));
}

static long s_write(void *c, int fd, const void *buf, size_t n)
{
	return SYS(sys_write(T(c), fd, buf, n));
}

static long s_pread(void *c, int fd, void *buf, size_t n, off_t off)
{
	return SYS(sys_pread64(T(c), fd, buf, n, off));
}

static long s_lseek(void *c, int fd, off_t off, int whence)
{
	return SYS(sys_lseek(T(c), fd, off, whence));
}

static long s_dup(void *c, int fd)
{
	return SYS(sys_dup(T(c), fd));
}

static long s_unlink(void *c, const char *p)
{
	return SYS(sys_unlink(T(c), p));
}

static long s_mkdir(void *c, const char *p, mode_t mode)
{
	return SYS(sys_mkdir(T(c), p, mode));
}

static long s_rmdir(void *c, const char *p)
{
	return SYS(sys_rmdir(T(c), p));
}

static long s_rename(void *c, const char *from, const char *to)
{
	return SYS(sys_rename(T(c), from, to));
}

static long s_getpid(void *c)
{
	return SYS(sys_getpid(T(c)));
}

static long s_getuid(void *c)
{
	return SYS(sys_getuid(T(c)));
}

static long s_umask(void *c, mode_t mask)
{
	return SYS(sys_umask(T(c), mask));
}

const struct bench_sys bench_sys_sim = {
	.name = "vfslab-sim",
	.open = s_open,
	.close = s_close,
	.stat = s_stat,
	.fstat = s_fstat,
	.access = s_access,
	.read = s_read,
	.write = s_write,
	.pread = s_pread,
	.lseek = s_lseek,
	.dup = s_dup,
	.unlink = s_unlink,
	.mkdir = s_mkdir,
	.rmdir = s_rmdir,
	.rename = s_rename,
	.getpid = s_getpid,
	.getuid = s_getuid,
	.umask = s_umask,
};
