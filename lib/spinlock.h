/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A 4-byte queued spinlock whose unlocked value is 0, so that it fits in the
 * low half of a lockref word and "unlocked" can be tested on a copy of that
 * word.  Models the kernel's spinlock_t as it is on x86-64 and arm64 without
 * lock debugging: a qspinlock (include/asm-generic/qspinlock.h,
 * include/asm-generic/qspinlock_types.h, kernel/locking/qspinlock.c).
 *
 * The 32-bit word, from the least significant bit up:
 *   bits  0-7   locked: 1 while somebody holds the lock
 *   bits  8-15  pending: 1 while the first waiter spins on the word itself
 *   bits 16-17  tail index: which of the tail thread's nodes is queued
 *   bits 18-31  tail thread: 1 + the CPU number (lib/arch.h) of the
 *               thread that queued last (0: no queue)
 * Uncontended, taking the lock is one compare-and-swap 0 -> 1 and releasing
 * it is a release store of 0 to the locked byte.  The first waiter sets
 * pending and spins on the word; later ones join an MCS queue and each spins
 * on its own node, so a release wakes one waiter, not all of them.
 */
#ifndef VFSLAB_LIB_SPINLOCK_H
#define VFSLAB_LIB_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/atomic.h"
#include "lib/bug.h"
#include "lib/compiler.h"

typedef struct {
	union {
		uint32_t val; /* 0: unlocked, no waiter */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		struct {
			uint8_t locked;
			uint8_t pending;
		};
		struct {
			uint16_t locked_pending;
			uint16_t tail;
		};
#else
		struct {
			uint8_t be_pad[2];
			uint8_t pending;
			uint8_t locked;
		};
		struct {
			uint16_t tail;
			uint16_t locked_pending;
		};
#endif
	};
} spinlock_t;

#define SPIN_Q_LOCKED_VAL 0x1u
#define SPIN_Q_LOCKED_MASK 0xffu
#define SPIN_Q_PENDING_VAL 0x100u
#define SPIN_Q_PENDING_MASK 0xff00u
#define SPIN_Q_LOCKED_PENDING_MASK 0xffffu
#define SPIN_Q_TAIL_IDX_SHIFT 16
#define SPIN_Q_TAIL_IDX_BITS 2
#define SPIN_Q_TAIL_THREAD_SHIFT 18
#define SPIN_Q_TAIL_THREAD_BITS 14
#define SPIN_Q_TAIL_MASK 0xffff0000u

/* MCS nodes per thread: how many slow paths one thread can be in at once. */
#define SPIN_Q_NODES 4u
/*
 * Slots of queue nodes, one per CPU number (arch_cpu_id(), lib/arch.h); a
 * CPU without a number waits unqueued, retrying the lock.
 */
#define SPIN_Q_THREADS 1024u

#define __SPIN_LOCK_UNLOCKED     \
	{                        \
		{                \
			.val = 0 \
		}                \
	}
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED

/*
 * Natively, a thread arriving at the slow path takes the lock when its locked
 * byte reads free, even ahead of a pending or queued waiter: a waiter that
 * the host has preempted would otherwise hold every thread up (a fair lock's
 * convoy).  The kernel makes the same trade on CPUs a hypervisor preempts
 * (virt_spin_lock() and the paravirt qspinlock's unfair trylock).  True by
 * default; tests clear it to check the bare-metal order.  Where CPUs are
 * never preempted (lib/arch.h) it is always false, as on bare metal.
 */
#if ARCH_CPUS_PREEMPTED
extern bool spin_lock_steal;
#else
#define spin_lock_steal false
#endif

/*
 * Out of line: the pending bit, then the MCS queue.  @val is what the fast
 * path's compare-and-swap found.  Models queued_spin_lock_slowpath().
 */
void spin_lock_slowpath(spinlock_t *lock, uint32_t val);

static inline void spin_lock_init(spinlock_t *lock)
{
	WRITE_ONCE(lock->val, 0);
}

/**
 * spin_trylock - take @lock if it is free; true on success.
 *
 * Free means the whole word is 0: no holder, no waiter.  Models
 * queued_spin_trylock().
 */
static inline bool spin_trylock(spinlock_t *lock)
{
	uint32_t old = READ_ONCE(lock->val);

	/* Reading first avoids a pointless exclusive line grab when held. */
	if (old != 0)
		return false;
	return __atomic_compare_exchange_n(&lock->val, &old, SPIN_Q_LOCKED_VAL, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/**
 * spin_lock - take @lock, spinning while it is held
 *
 * Models queued_spin_lock(): one acquire CAS 0 -> locked inline, the rest
 * out of line.
 */
static inline void spin_lock(spinlock_t *lock)
{
	uint32_t old = 0;

	if (likely(__atomic_compare_exchange_n(&lock->val, &old, SPIN_Q_LOCKED_VAL, false,
					       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)))
		return;
	spin_lock_slowpath(lock, old);
}

/**
 * spin_unlock - release @lock
 *
 * A release store of 0 to the locked byte only: pending and the tail belong
 * to the waiters.  Models queued_spin_unlock().
 */
static inline void spin_unlock(spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

/* Held, or about to be: any of locked, pending or a queue.  Models queued_spin_is_locked(). */
static inline bool spin_is_locked(const spinlock_t *lock)
{
	return READ_ONCE(lock->val) != 0;
}

/**
 * spin_value_unlocked - is this copy of a lock unlocked?
 * @lock: the lock, by value (for instance the low half of a lockref copy)
 *
 * Only a word of 0 (no holder, no waiter) counts.  Models
 * queued_spin_value_unlocked().
 */
static inline bool spin_value_unlocked(spinlock_t lock)
{
	return lock.val == 0;
}

/* Only checks that somebody holds it; the lock has no owner field. */
#define assert_spin_locked(lock) BUG_ON(!spin_is_locked(lock))

#endif /* VFSLAB_LIB_SPINLOCK_H */
