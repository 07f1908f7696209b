// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The two sides of a benchmark: vfslab's sys_*() on a task, and the host
 * kernel's syscalls (raw, through syscall(2) where glibc would add work or
 * cache the answer, as UnixBench does for getpid since 2020).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/compiler.h"
#include "tools/bench/sysops.h"
#include "vfs/vfs.h"

void bench_spin(unsigned long n)
{
	/* A dependent chain the compiler cannot drop. */
	unsigned long x = n;

	for (unsigned long i = 0; i < n; i++)
		__asm__ __volatile__("" : "+r"(x));
}

#define VT(c) (((struct bench_vctx *)(c))->task)

static inline void *entry(void *ctx)
{
	unsigned long n = ((struct bench_vctx *)ctx)->entry_loops;

	if (n)
		bench_spin(n);
	return ctx;
}

static long v_open(void *c, const char *p, int flags, mode_t mode)
{
	return sys_open(VT(entry(c)), p, flags, mode);
}

static long v_close(void *c, int fd)
{
	return sys_close(VT(entry(c)), fd);
}

static long v_stat(void *c, const char *p, struct stat *st)
{
	return sys_stat(VT(entry(c)), p, st);
}

static long v_fstat(void *c, int fd, struct stat *st)
{
	return sys_fstat(VT(entry(c)), fd, st);
}

static long v_access(void *c, const char *p, int mode)
{
	return sys_access(VT(entry(c)), p, mode);
}

static long v_read(void *c, int fd, void *buf, size_t n)
{
	return sys_read(VT(entry(c)), fd, buf, n);
}

static long v_write(void *c, int fd, const void *buf, size_t n)
{
	return sys_write(VT(entry(c)), fd, buf, n);
}

static long v_pread(void *c, int fd, void *buf, size_t n, off_t off)
{
	return sys_pread64(VT(entry(c)), fd, buf, n, off);
}

static long v_lseek(void *c, int fd, off_t off, int whence)
{
	return sys_lseek(VT(entry(c)), fd, off, whence);
}

static long v_dup(void *c, int fd)
{
	return sys_dup(VT(entry(c)), fd);
}

static long v_unlink(void *c, const char *p)
{
	return sys_unlink(VT(entry(c)), p);
}

static long v_mkdir(void *c, const char *p, mode_t mode)
{
	return sys_mkdir(VT(entry(c)), p, mode);
}

static long v_rmdir(void *c, const char *p)
{
	return sys_rmdir(VT(entry(c)), p);
}

static long v_rename(void *c, const char *from, const char *to)
{
	return sys_rename(VT(entry(c)), from, to);
}

static long v_getpid(void *c)
{
	return sys_getpid(VT(entry(c)));
}

static long v_getuid(void *c)
{
	return sys_getuid(VT(entry(c)));
}

static long v_umask(void *c, mode_t mask)
{
	return sys_umask(VT(entry(c)), mask);
}

const struct bench_sys bench_sys_vfslab = {
	.name = "vfslab",
	.open = v_open,
	.close = v_close,
	.stat = v_stat,
	.fstat = v_fstat,
	.access = v_access,
	.read = v_read,
	.write = v_write,
	.pread = v_pread,
	.lseek = v_lseek,
	.dup = v_dup,
	.unlink = v_unlink,
	.mkdir = v_mkdir,
	.rmdir = v_rmdir,
	.rename = v_rename,
	.getpid = v_getpid,
	.getuid = v_getuid,
	.umask = v_umask,
};

static inline long kret(long r)
{
	return r < 0 ? -errno : r;
}

static long k_open(void *c, const char *p, int flags, mode_t mode)
{
	(void)c;
	return kret(open(p, flags, mode));
}

static long k_close(void *c, int fd)
{
	(void)c;
	return kret(close(fd));
}

static long k_stat(void *c, const char *p, struct stat *st)
{
	(void)c;
	return kret(stat(p, st));
}

static long k_fstat(void *c, int fd, struct stat *st)
{
	(void)c;
	return kret(fstat(fd, st));
}

static long k_access(void *c, const char *p, int mode)
{
	(void)c;
	return kret(access(p, mode));
}

static long k_read(void *c, int fd, void *buf, size_t n)
{
	(void)c;
	return kret(read(fd, buf, n));
}

static long k_write(void *c, int fd, const void *buf, size_t n)
{
	(void)c;
	return kret(write(fd, buf, n));
}

static long k_pread(void *c, int fd, void *buf, size_t n, off_t off)
{
	(void)c;
	return kret(pread(fd, buf, n, off));
}

static long k_lseek(void *c, int fd, off_t off, int whence)
{
	(void)c;
	return kret(lseek(fd, off, whence));
}

static long k_dup(void *c, int fd)
{
	(void)c;
	return kret(dup(fd));
}

static long k_unlink(void *c, const char *p)
{
	(void)c;
	return kret(unlink(p));
}

static long k_mkdir(void *c, const char *p, mode_t mode)
{
	(void)c;
	return kret(mkdir(p, mode));
}

static long k_rmdir(void *c, const char *p)
{
	(void)c;
	return kret(rmdir(p));
}

static long k_rename(void *c, const char *from, const char *to)
{
	(void)c;
	return kret(rename(from, to));
}

static long k_getpid(void *c)
{
	(void)c;
	return syscall(SYS_getpid);
}

static long k_getuid(void *c)
{
	(void)c;
	return syscall(SYS_getuid);
}

static long k_umask(void *c, mode_t mask)
{
	(void)c;
	return umask(mask);
}

const struct bench_sys bench_sys_kernel = {
	.name = "kernel",
	.open = k_open,
	.close = k_close,
	.stat = k_stat,
	.fstat = k_fstat,
	.access = k_access,
	.read = k_read,
	.write = k_write,
	.pread = k_pread,
	.lseek = k_lseek,
	.dup = k_dup,
	.unlink = k_unlink,
	.mkdir = k_mkdir,
	.rmdir = k_rmdir,
	.rename = k_rename,
	.getpid = k_getpid,
	.getuid = k_getuid,
	.umask = k_umask,
};
