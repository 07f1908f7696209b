// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Signals as far as the VFS sends them (kernel/signal.c's send_sig()):
 * pipe_write() sends SIGPIPE with EPIPE. vfslab delivers nothing; a task's
 * pending set records what it was sent, for the caller to report.
 */
#include <signal.h>

#include "vfs/internal.h"

void task_send_sig(struct task *t, int sig)
{
	if (sig > 0 && sig <= (int)BITS_PER_LONG)
		__atomic_or_fetch(&t->sigpending, 1UL << (sig - 1), __ATOMIC_RELAXED);
}

unsigned long task_sigpending(struct task *t)
{
	return __atomic_exchange_n(&t->sigpending, 0, __ATOMIC_RELAXED);
}
