// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Contended spinlock acquisition.  Models queued_spin_lock_slowpath()
 * (kernel/locking/qspinlock.c) in its simplest form, test-and-test-and-set:
 * no queue, so it is unfair, but waiters only read the line while it is held.
 */
#include "lib/spinlock.h"

void spin_lock_slowpath(spinlock_t *lock)
{
	for (;;) {
		uint32_t old = 0;

		while (READ_ONCE(lock->val) != 0)
			cpu_relax();
		if (__atomic_compare_exchange_n(&lock->val, &old, 1, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
	}
}

/* The native cpu_yield() (lib/atomic.h): the simulator build replaces it. */
#ifndef VFSLAB_SIM
#include <sched.h>

void cpu_yield(void)
{
	sched_yield();
}
#endif
