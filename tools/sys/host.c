// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The host kernel's side of struct sys_ops: every call is the real
 * syscall, made with syscall(2) so that the answer is the kernel's own (no
 * glibc emulation, no sanitizer interceptor reading a bad path pointer).
 */
/* Before any libc header: AT_*, RENAME_*. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "tools/sys/sys.h"

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

static long sysret(long r)
{
	return r < 0 ? -errno : r;
}

#define SYS(...) sysret(syscall(__VA_ARGS__))

/* Each argument as the long syscall(2) reads; dev_t is the kernel's u32. */
#define L_PATH(a) , (long)(a)
#define L_STR(a) , (long)(a)
#define L_FD(a) , (long)(a)
#define L_INT(a) , (long)(a)
#define L_UINT(a) , (long)(a)
#define L_ULONG(a) , (long)(a)
#define L_MODE(a) , (long)(a)
#define L_OFF(a) , (long)(a)
#define L_SIZE(a) , (long)(a)
#define L_BUF(a) , (long)(a)
#define L_CBUF(a) , (long)(a)
#define L_CHARS(a) , (long)(a)
#define L_STAT(a) , (long)(a)
#define L_UID(a) , (long)(a)
#define L_GID(a) , (long)(a)
#define L_DEV(a) , (long)(unsigned int)(a)
#define L_TIMES(a) , (long)(a)
#define L_LONGP(a) , (long)(a)
#define L_STATFS(a) , (long)(a)

#define SYSCALL_RAW(name, n, ...)                                    \
	static long h_##name(void *ctx SYS_PARAMS(n, __VA_ARGS__))   \
	{                                                            \
		(void)ctx;                                           \
		return SYS(SYS_##name SYS_EACH(L_, n, __VA_ARGS__)); \
	}
#define SYSCALL_OWN(name, n, ...)
#define SYSCALL(name, vfs, host, n, ...) SYSCALL_##host(name, n, __VA_ARGS__)
#include "tools/sys/syscalls.def"
#undef SYSCALL

/* The x86_64 name of fstatat. */
static long h_fstatat(void *ctx, int dfd, const char *path, struct stat *st, int flags)
{
	(void)ctx;
	return SYS(SYS_newfstatat, dfd, path, st, flags);
}

/* faccessat2() only where there are flags: older kernels lack it. */
static long h_faccessat(void *ctx, int dfd, const char *path, int mode, int flags)
{
	(void)ctx;
	if (!flags)
		return SYS(SYS_faccessat, dfd, path, mode);
	return SYS(SYS_faccessat2, dfd, path, mode, flags);
}

static long h_fchmodat(void *ctx, int dfd, const char *path, mode_t mode, int flags)
{
	long r;

	(void)ctx;
	if (!flags)
		return SYS(SYS_fchmodat, dfd, path, mode);
	r = SYS(SYS_fchmodat2, dfd, path, mode, flags);
	/* Kernels before 6.6: glibc's emulation is the best there is. */
	if (r == -ENOSYS)
		r = sysret(fchmodat(dfd, path, mode, flags));
	return r;
}

/* glibc's dup2 is the syscall where there is one (not on arm64). */
static long h_dup2(void *ctx, int oldfd, int newfd)
{
	(void)ctx;
	return sysret(dup2(oldfd, newfd));
}

static long socket_op(const char *path, bool do_bind)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	long fd;

	strncpy(sun.sun_path, path, sizeof(sun.sun_path) - 1);
	fd = SYS(SYS_socket, AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return fd;
	return SYS(do_bind ? SYS_bind : SYS_connect, fd, &sun, sizeof(sun));
}

static long h_bind(void *ctx, const char *path)
{
	(void)ctx;
	return socket_op(path, true);
}

static long h_connect(void *ctx, const char *path)
{
	(void)ctx;
	return socket_op(path, false);
}

/* These are glibc's answers by definition (it computes them). */
static long h_pathconf(void *ctx, const char *path, int name, long *value)
{
	(void)ctx;
	errno = 0;
	*value = pathconf(path, name);
	return *value == -1 && errno ? -errno : 0;
}

static long h_fpathconf(void *ctx, int fd, int name, long *value)
{
	(void)ctx;
	errno = 0;
	*value = fpathconf(fd, name);
	return *value == -1 && errno ? -errno : 0;
}

const struct sys_ops sys_ops_host = {
	.name = "kernel",
#define SYSCALL(name, vfs, host, n, ...) .name = h_##name,
#include "tools/sys/syscalls.def"
#undef SYSCALL
};
