/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The syscalls a benchmark workload makes, behind one small table, so the
 * same loop runs against a vfslab VFS and against the host kernel in the
 * same run. Every op returns what the syscall returns (>= 0 or -errno).
 */
#ifndef VFSLAB_TOOLS_BENCH_SYSOPS_H
#define VFSLAB_TOOLS_BENCH_SYSOPS_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

struct task;

struct bench_sys {
	const char *name;
	long (*open)(void *ctx, const char *path, int flags, mode_t mode);
	long (*close)(void *ctx, int fd);
	long (*stat)(void *ctx, const char *path, struct stat *st);
	long (*fstat)(void *ctx, int fd, struct stat *st);
	long (*access)(void *ctx, const char *path, int mode);
	long (*read)(void *ctx, int fd, void *buf, size_t n);
	long (*write)(void *ctx, int fd, const void *buf, size_t n);
	long (*pread)(void *ctx, int fd, void *buf, size_t n, off_t off);
	long (*lseek)(void *ctx, int fd, off_t off, int whence);
	long (*dup)(void *ctx, int fd);
	long (*unlink)(void *ctx, const char *path);
	long (*mkdir)(void *ctx, const char *path, mode_t mode);
	long (*rmdir)(void *ctx, const char *path);
	long (*rename)(void *ctx, const char *from, const char *to);
	long (*getpid)(void *ctx);
	long (*getuid)(void *ctx);
	long (*umask)(void *ctx, mode_t mask);
};

/*
 * vfslab's side: ctx is a struct bench_vctx. entry_loops spins that many
 * iterations of task-local work at each syscall entry (--entry-ns), to
 * model what a kernel syscall costs before the VFS does anything.
 */
struct bench_vctx {
	struct task *task;
	unsigned long entry_loops;
};

extern const struct bench_sys bench_sys_vfslab;
/* The host kernel's side: ctx is unused. */
extern const struct bench_sys bench_sys_kernel;

/* Spin n iterations of work no other CPU sees. */
void bench_spin(unsigned long n);

#endif /* VFSLAB_TOOLS_BENCH_SYSOPS_H */
