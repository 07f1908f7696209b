// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Contended rwsem acquisition.  Models rwsem_down_read_slowpath() and
 * rwsem_down_write_slowpath() (kernel/locking/rwsem.c) with spin-then-yield
 * instead of a wait queue.  A waiting writer sets RWSEM_WRITER_WAITING so a
 * stream of readers cannot starve it (the kernel uses hand-off for that).
 */
#include <sched.h>

#include "lib/mutex.h"
#include "lib/rwsem.h"

static void rwsem_wait(unsigned int *spins)
{
	if (*spins < MUTEX_SPIN_LIMIT) {
		(*spins)++;
		cpu_relax();
	} else {
		cpu_yield();
	}
}

void rwsem_down_read_slowpath(struct rw_semaphore *sem)
{
	unsigned int spins = 0;

	while (!down_read_trylock(sem))
		rwsem_wait(&spins);
}

void rwsem_down_write_slowpath(struct rw_semaphore *sem)
{
	unsigned int spins = 0;

	for (;;) {
		uint32_t c = READ_ONCE(sem->count);

		if (down_write_trylock(sem))
			return;
		/*
		 * Every waiter re-asserts WAITING on each round, because the
		 * writer that gets the lock clears it.  A writer only ever sets
		 * it before it acquires, so the last acquirer leaves it clear.
		 */
		if (!(c & RWSEM_WRITER_WAITING))
			__atomic_fetch_or(&sem->count, RWSEM_WRITER_WAITING, __ATOMIC_RELAXED);
		rwsem_wait(&spins);
	}
}
