// SPDX-License-Identifier: LGPL-2.1-or-later
/* What every backend of struct sys_ops shares. */
#include "tools/sys/sys.h"

void sys_spin(unsigned long n)
{
	/* A dependent chain the compiler cannot drop. */
	unsigned long x = n;

	for (unsigned long i = 0; i < n; i++)
		__asm__ __volatile__("" : "+r"(x));
}

bool sys_ops_has(const struct sys_ops *ops, enum sys_nr nr)
{
	switch (nr) {
#define SYSCALL(name, vfs, host, n, ...) \
	case SYS_NR_##name:              \
		return ops->name != NULL;
#include "tools/sys/syscalls.def"
#undef SYSCALL
	default:
		return false;
	}
}
