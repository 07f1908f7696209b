// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The vfslab side of struct sys_ops: each call is vfs/'s sys_<name>() on
 * the ctx's task, after the entry options of struct sys_vfs.
 */
#include <errno.h>

#include "tools/sys/sys.h"
#include "vfs/vfs.h"

/* Where getname() would fault on the unmapped address. */
#define FAULT_PATH(a)                                      \
	if (v->bad_ptr && (const char *)(a) == v->bad_ptr) \
		return -EFAULT;
#define FAULT_STR(a)
#define FAULT_FD(a)
#define FAULT_INT(a)
#define FAULT_UINT(a)
#define FAULT_ULONG(a)
#define FAULT_MODE(a)
#define FAULT_OFF(a)
#define FAULT_SIZE(a)
#define FAULT_BUF(a)
#define FAULT_CBUF(a)
#define FAULT_CHARS(a)
#define FAULT_STAT(a)
#define FAULT_UID(a)
#define FAULT_GID(a)
#define FAULT_DEV(a)
#define FAULT_TIMES(a)
#define FAULT_LONGP(a)
#define FAULT_STATFS(a)

#define SYS_VFS_DEF(name, n, ...)                                    \
	static long v_##name(void *ctx SYS_PARAMS(n, __VA_ARGS__))   \
	{                                                            \
		const struct sys_vfs *v = ctx;                       \
                                                                     \
		if (v->entry_loops)                                  \
			sys_spin(v->entry_loops);                    \
		SYS_EACH(FAULT_, n, __VA_ARGS__)                     \
		return sys_##name(v->task SYS_ARGS(n, __VA_ARGS__)); \
	}
#define SYSCALL SYS_IF_VFS
#include "tools/sys/syscalls.def"
#undef SYSCALL
#undef SYS_VFS_DEF

const struct sys_ops sys_ops_vfslab = {
	.name = "vfslab",
#define SYSCALL(name, vfs, host, n, ...) SYS_MEMBER_##vfs(name, v_##name)
#include "tools/sys/syscalls.def"
#undef SYSCALL
};
