/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lockref: a spinlock and a reference count packed in one 64-bit word, so a
 * get or put can be a single cmpxchg on the whole word as long as the lock
 * half reads unlocked, and falls back to taking the lock otherwise.  The
 * dentry's d_lockref (and so d_lock) is one of these.
 * Models include/linux/lockref.h and lib/lockref.c (2025 API: bool returns,
 * lockref_init() sets the count to 1).
 *
 * One deliberate difference: every operation takes the cmpxchg retry budget
 * as an argument, because the VFS instance chooses it at run time.
 */
#ifndef VFSLAB_LIB_LOCKREF_H
#define VFSLAB_LIB_LOCKREF_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/compiler.h"
#include "lib/spinlock.h"

struct lockref {
	union {
		uint64_t lock_count __attribute__((aligned(8)));
		struct {
			spinlock_t lock; /* low half on little-endian */
			int count; /* < 0 means dead */
		};
	};
};

/* Give up on the cmpxchg loop after this many failures (Jan Glauber, 2019). */
#define LOCKREF_RETRY_DEFAULT 100u
/* The loop before 2019: keep trying while the lock reads unlocked. */
#define LOCKREF_RETRY_UNBOUNDED 0u

/* Value lockref_mark_dead() stores: far enough below 0 that racing incs stay negative. */
#define LOCKREF_DEAD_COUNT (-128)

/** lockref_init - unlocked, count 1. */
void lockref_init(struct lockref *lockref);

/** lockref_get - take a reference; the caller already holds one. */
void lockref_get(struct lockref *lockref, unsigned int retry);

/** lockref_get_not_zero - take a reference unless the count is <= 0. */
bool lockref_get_not_zero(struct lockref *lockref, unsigned int retry);

/** lockref_get_not_dead - take a reference unless the lockref is dead (< 0). */
bool lockref_get_not_dead(struct lockref *lockref, unsigned int retry);

/**
 * lockref_put_return - drop a reference without ever taking the lock
 *
 * Return: the new count, or -1 if the count was <= 0, the lock was held, or
 * the retry budget ran out.  The caller must then do it the slow way.
 */
int lockref_put_return(struct lockref *lockref, unsigned int retry);

/**
 * lockref_put_or_lock - drop a reference unless it is the last one
 *
 * Return: true if a reference was dropped; false if the count was <= 1, in
 * which case it returns with the lock held and the count untouched.
 */
bool lockref_put_or_lock(struct lockref *lockref, unsigned int retry);

/** lockref_mark_dead - the caller holds the lock; count becomes -128. */
void lockref_mark_dead(struct lockref *lockref);

/*
 * The count under the lock (the kernel's "dentry->d_lockref.count++" with
 * d_lock held): other threads' lockless loops still read the whole word, so
 * the count is accessed with READ_ONCE and WRITE_ONCE, which keeps the model
 * free of plain/atomic races.
 */
static inline void lockref_count_add(struct lockref *lockref, int n)
{
	WRITE_ONCE(lockref->count, READ_ONCE(lockref->count) + n);
}

/*
 * The count as an atomic of its own, lock or no lock: the 2013 step
 * between d_count under d_lock and lockref (Waiman Long's "dcache:
 * Translating dentry->d_count to a reference count"), which lets dget()
 * and most dput()s skip d_lock.
 */
static inline void lockref_count_add_atomic(struct lockref *lockref, int n)
{
	__atomic_fetch_add(&lockref->count, n, __ATOMIC_RELAXED);
}

/* atomic_add_unless(&count, -1, 1): drop a reference unless it is the last. */
static inline bool lockref_count_dec_unless_one(struct lockref *lockref)
{
	int c = READ_ONCE(lockref->count);

	while (c > 1)
		if (__atomic_compare_exchange_n(&lockref->count, &c, c - 1, false, __ATOMIC_RELEASE,
						__ATOMIC_RELAXED))
			return true;
	return false;
}

static inline int lockref_count(const struct lockref *lockref)
{
	return READ_ONCE(lockref->count);
}

static inline void lockref_count_set(struct lockref *lockref, int count)
{
	WRITE_ONCE(lockref->count, count);
}

/** __lockref_is_dead - count < 0; only stable while the lock is held. */
static inline bool __lockref_is_dead(const struct lockref *lockref)
{
	return READ_ONCE(lockref->count) < 0;
}

#endif /* VFSLAB_LIB_LOCKREF_H */
