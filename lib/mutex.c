// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Contended mutex acquisition.  Models __mutex_lock_slowpath()
 * (kernel/locking/mutex.c): optimistic spinning first, then giving the CPU
 * away; here "sleeping" is sched_yield() so no futex is involved.
 */
#include <sched.h>

#include "lib/atomic.h"
#include "lib/mutex.h"

void mutex_lock_slowpath(struct mutex *lock)
{
	unsigned int spins = 0;

	for (;;) {
		if (mutex_trylock(lock))
			return;
		if (spins < MUTEX_SPIN_LIMIT) {
			spins++;
			cpu_relax();
		} else {
			cpu_yield();
		}
	}
}
