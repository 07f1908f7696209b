/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A 4-byte sleeping-style lock for f_pos_lock and friends.  It never blocks in
 * the kernel (no futex): a waiter spins with cpu_relax() for a while, then
 * calls sched_yield() between attempts, so a simulator can run it by hooking
 * cpu_relax() alone.  Models the API of include/linux/mutex.h; the kernel's
 * optimistic spinning followed by sleeping is approximated by spin-then-yield.
 */
#ifndef VFSLAB_LIB_MUTEX_H
#define VFSLAB_LIB_MUTEX_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/compiler.h"

struct mutex {
	uint32_t val; /* 0: unlocked, 1: locked */
};

#define __MUTEX_INITIALIZER \
	{                   \
		.val = 0    \
	}
#define DEFINE_MUTEX(name) struct mutex name = __MUTEX_INITIALIZER

/* Spins before the first sched_yield() of a contended mutex_lock(). */
#define MUTEX_SPIN_LIMIT 256u

void mutex_lock_slowpath(struct mutex *lock);

static inline void mutex_init(struct mutex *lock)
{
	WRITE_ONCE(lock->val, 0);
}

/** mutex_trylock - take @lock if free; true on success. */
static inline bool mutex_trylock(struct mutex *lock)
{
	uint32_t old = 0;

	if (READ_ONCE(lock->val) != 0)
		return false;
	return __atomic_compare_exchange_n(&lock->val, &old, 1, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

/** mutex_lock - take @lock; models mutex_lock()'s fast path (one acquire CAS). */
static inline void mutex_lock(struct mutex *lock)
{
	uint32_t old = 0;

	if (likely(__atomic_compare_exchange_n(&lock->val, &old, 1, false, __ATOMIC_ACQUIRE,
					       __ATOMIC_RELAXED)))
		return;
	mutex_lock_slowpath(lock);
}

/** mutex_unlock - release @lock. */
static inline void mutex_unlock(struct mutex *lock)
{
	__atomic_store_n(&lock->val, 0, __ATOMIC_RELEASE);
}

static inline bool mutex_is_locked(const struct mutex *lock)
{
	return READ_ONCE(lock->val) != 0;
}

#endif /* VFSLAB_LIB_MUTEX_H */
