/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One syscall interface for every tool: struct sys_ops has one member per
 * call of tools/sys/syscalls.def, with the Linux signature plus a context,
 * returning what Linux returns (>= 0, or -errno). Three implementations:
 * vfslab (vfs/'s sys_*() on a task), the host kernel (real syscalls) and
 * the simulator's (vfslab's calls on a virtual CPU, tools/sim). bench,
 * fstest, replay and torture all make their calls through it.
 */
#ifndef VFSLAB_TOOLS_SYS_SYS_H
#define VFSLAB_TOOLS_SYS_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

struct task;
struct statfs;

/* The C type of each argument kind. */
#define SYS_T_PATH const char *
#define SYS_T_STR const char *
#define SYS_T_FD int
#define SYS_T_INT int
#define SYS_T_UINT unsigned int
#define SYS_T_ULONG unsigned long
#define SYS_T_MODE mode_t
#define SYS_T_OFF off_t
#define SYS_T_SIZE size_t
#define SYS_T_BUF void *
#define SYS_T_CBUF const void *
#define SYS_T_CHARS char *
#define SYS_T_STAT struct stat *
#define SYS_T_UID uid_t
#define SYS_T_GID gid_t
#define SYS_T_DEV dev_t
#define SYS_T_TIMES const struct timespec *
#define SYS_T_LONGP long *
#define SYS_T_STATFS struct statfs *

/* ", type arg" for each (kind, arg) pair: a parameter list after the ctx. */
#define SYS_PARAMS(n, ...) SYS_PARAMS##n(__VA_ARGS__)
#define SYS_PARAMS0()
#define SYS_PARAMS1(k, a) , SYS_T_##k a
#define SYS_PARAMS2(k, a, ...) , SYS_T_##k a SYS_PARAMS1(__VA_ARGS__)
#define SYS_PARAMS3(k, a, ...) , SYS_T_##k a SYS_PARAMS2(__VA_ARGS__)
#define SYS_PARAMS4(k, a, ...) , SYS_T_##k a SYS_PARAMS3(__VA_ARGS__)
#define SYS_PARAMS5(k, a, ...) , SYS_T_##k a SYS_PARAMS4(__VA_ARGS__)

/* ", arg" for each pair: the arguments passed on. */
#define SYS_ARGS(n, ...) SYS_ARGS##n(__VA_ARGS__)
#define SYS_ARGS0()
#define SYS_ARGS1(k, a) , a
#define SYS_ARGS2(k, a, ...) , a SYS_ARGS1(__VA_ARGS__)
#define SYS_ARGS3(k, a, ...) , a SYS_ARGS2(__VA_ARGS__)
#define SYS_ARGS4(k, a, ...) , a SYS_ARGS3(__VA_ARGS__)
#define SYS_ARGS5(k, a, ...) , a SYS_ARGS4(__VA_ARGS__)

/* SYS_EACH_<kind>(arg) for each pair, for per-kind work (a check, a cast). */
#define SYS_EACH(m, n, ...) SYS_EACH##n(m, __VA_ARGS__)
#define SYS_EACH0(m, ...)
#define SYS_EACH1(m, k, a) m##k(a)
#define SYS_EACH2(m, k, a, ...) m##k(a) SYS_EACH1(m, __VA_ARGS__)
#define SYS_EACH3(m, k, a, ...) m##k(a) SYS_EACH2(m, __VA_ARGS__)
#define SYS_EACH4(m, k, a, ...) m##k(a) SYS_EACH3(m, __VA_ARGS__)
#define SYS_EACH5(m, k, a, ...) m##k(a) SYS_EACH4(m, __VA_ARGS__)

/*
 * For a backend over vfs/: with SYSCALL defined as SYS_IF_VFS, the table
 * expands SYS_VFS_DEF(name, n, kind, arg, ...) for each call vfslab has;
 * SYS_MEMBER_<vfslab column> makes its struct sys_ops initializer.
 */
#define SYS_IF_VFS(name, vfs, host, n, ...) SYS_IF_VFS_##vfs(name, n, __VA_ARGS__)
#define SYS_IF_VFS_VFS(name, n, ...) SYS_VFS_DEF(name, n, __VA_ARGS__)
#define SYS_IF_VFS_NONE(name, n, ...)
#define SYS_MEMBER_VFS(m, fn) .m = fn,
#define SYS_MEMBER_NONE(m, fn)

struct sys_ops {
	const char *name;
#define SYSCALL(name, vfs, host, n, ...) long (*name)(void *ctx SYS_PARAMS(n, __VA_ARGS__));
#include "tools/sys/syscalls.def"
#undef SYSCALL
};

/* One number per call, for asking whether a backend has it. */
enum sys_nr {
#define SYSCALL(name, vfs, host, n, ...) SYS_NR_##name,
#include "tools/sys/syscalls.def"
#undef SYSCALL
	SYS_NR_COUNT
};

/* Does ops implement call nr (vfslab has no xattrs)? */
bool sys_ops_has(const struct sys_ops *ops, enum sys_nr nr);

/*
 * vfslab's ctx: the task that makes the calls, and the options that model
 * what a real syscall entry does before the VFS runs.
 */
struct sys_vfs {
	struct task *task;
	/* Spin this many loops of task-local work at each entry (--entry-ns). */
	unsigned long entry_loops;
	/*
	 * A user address that is not mapped (fstest's DEADCODE): a path
	 * argument equal to it gives -EFAULT, as the kernel's getname() does.
	 */
	const char *bad_ptr;
};

extern const struct sys_ops sys_ops_vfslab;
/* The host kernel, through syscall(2) so the answer is its own; ctx unused. */
extern const struct sys_ops sys_ops_host;

/* Spin n iterations of work no other CPU sees. */
void sys_spin(unsigned long n);

#endif /* VFSLAB_TOOLS_SYS_SYS_H */
