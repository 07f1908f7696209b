// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The syscall table on a virtual CPU: vfslab's calls, with the profile's
 * syscall entry and exit cost charged around each, and the exit a
 * quiescent point where the vCPU's released RCU callbacks run.
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

#define SYS_VFS_DEF(name, n, ...)                                      \
	static long s_##name(void *c SYS_PARAMS(n, __VA_ARGS__))       \
	{                                                              \
		return SYS(sys_##name(T(c) SYS_ARGS(n, __VA_ARGS__))); \
	}
#define SYSCALL SYS_IF_VFS
#include "tools/sys/syscalls.def"
#undef SYSCALL

const struct sys_ops sys_ops_sim = {
#define SYSCALL(name, vfs, host, n, ...) SYS_MEMBER_##vfs(name, s_##name)
#include "tools/sys/syscalls.def"
#undef SYSCALL
	.name = "vfslab-sim",
};
