/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A 4-byte test-and-test-and-set spinlock whose unlocked value is 0, so that
 * it fits in the low half of a lockref word and "unlocked" can be tested on a
 * copy of that word.  Models the kernel's spinlock_t API (include/linux/
 * spinlock.h) as it is on x86-64 without lock debugging: 4 bytes.
 */
#ifndef VFSLAB_LIB_SPINLOCK_H
#define VFSLAB_LIB_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/atomic.h"
#include "lib/bug.h"
#include "lib/compiler.h"

typedef struct {
	uint32_t val; /* 0: unlocked, 1: locked */
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED \
	{                    \
		.val = 0     \
	}
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED

/* Out of line: spin reading (no writes) until free, then retry the CAS. */
void spin_lock_slowpath(spinlock_t *lock);

static inline void spin_lock_init(spinlock_t *lock)
{
	WRITE_ONCE(lock->val, 0);
}

/** spin_trylock - take @lock if it is free; true on success. */
static inline bool spin_trylock(spinlock_t *lock)
{
	uint32_t old = 0;

	/* Reading first avoids a pointless exclusive line grab when held. */
	if (READ_ONCE(lock->val) != 0)
		return false;
	return __atomic_compare_exchange_n(&lock->val, &old, 1, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

/**
 * spin_lock - take @lock, spinning while it is held
 *
 * Models queued_spin_lock(): one acquire CAS 0 -> 1 inline, the rest out of line.
 */
static inline void spin_lock(spinlock_t *lock)
{
	uint32_t old = 0;

	if (likely(__atomic_compare_exchange_n(&lock->val, &old, 1, false, __ATOMIC_ACQUIRE,
					       __ATOMIC_RELAXED)))
		return;
	spin_lock_slowpath(lock);
}

/** spin_unlock - release @lock (a release store of 0). */
static inline void spin_unlock(spinlock_t *lock)
{
	__atomic_store_n(&lock->val, 0, __ATOMIC_RELEASE);
}

static inline bool spin_is_locked(const spinlock_t *lock)
{
	return READ_ONCE(lock->val) != 0;
}

/**
 * spin_value_unlocked - is this copy of a lock unlocked?
 * @lock: the lock, by value (for instance the low half of a lockref copy)
 *
 * Models arch_spin_value_unlocked().
 */
static inline bool spin_value_unlocked(spinlock_t lock)
{
	return lock.val == 0;
}

/* Only checks that somebody holds it; the lock has no owner field. */
#define assert_spin_locked(lock) BUG_ON(!spin_is_locked(lock))

#endif /* VFSLAB_LIB_SPINLOCK_H */
