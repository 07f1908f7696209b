// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lockref operations.  Models lib/lockref.c: a lockless cmpxchg loop over the
 * whole {lock, count} word that runs only while the lock half reads unlocked,
 * gives up after a retry budget, and then does the work under the lock.
 * Each call is counted as fast (done without the lock) or slow (lock taken,
 * or put_return gave up), and each failed cmpxchg is counted, so a benchmark
 * can see a lockref degrade to locked-only mode.
 */
#include "lib/lockref.h"
#include "lib/stats.h"

BUILD_BUG_ON(sizeof(struct lockref) != 8);
BUILD_BUG_ON(sizeof(spinlock_t) != 4);

/*
 * LOCKREF_FAST_LOOP(lockref, retry, UPDATE, DONE) - the lockless attempt.
 *
 * One relaxed read of the word, then, while its lock half is unlocked:
 * copy it to "new", run UPDATE on new.count (UPDATE may return, or break to
 * give up), and try to install it.  A failed cmpxchg refreshes "old" with
 * what it found, and we go straight round again: no cpu_relax() here, since
 * pausing after losing a race only slows the loser (removed in 2023).  A
 * nonzero @retry bounds the number of failures; 0 means never give up.
 * The cmpxchg is acquire-release where the kernel's is relaxed (lib/atomic.h
 * says why).
 */
#define LOCKREF_FAST_LOOP(lockref, retry, UPDATE, DONE)                                           \
	do {                                                                                      \
		struct lockref old, new;                                                          \
		unsigned int budget = (retry);                                                    \
                                                                                                  \
		old.lock_count = READ_ONCE((lockref)->lock_count);                                \
		while (likely(spin_value_unlocked(old.lock))) {                                   \
			new = old;                                                                \
			UPDATE;                                                                   \
			if (likely(try_cmpxchg64_acq_rel(&(lockref)->lock_count, &old.lock_count, \
							 new.lock_count))) {                      \
				stat_inc(STAT_LOCKREF_FAST);                                      \
				DONE;                                                             \
			}                                                                         \
			stat_inc(STAT_LOCKREF_CAS_FAIL);                                          \
			if (budget && !--budget)                                                  \
				break;                                                            \
		}                                                                                 \
	} while (0)

/* Models lockref_init() in include/linux/lockref.h. */
void lockref_init(struct lockref *lockref)
{
	spin_lock_init(&lockref->lock);
	WRITE_ONCE(lockref->count, 1);
}

/* Models lockref_get() in lib/lockref.c. */
void lockref_get(struct lockref *lockref, unsigned int retry)
{
	/* clang-format off */
	LOCKREF_FAST_LOOP(lockref, retry,
		new.count++,
		return);
	/* clang-format on */

	stat_inc(STAT_LOCKREF_SLOW);
	spin_lock(&lockref->lock);
	lockref_count_add(lockref, 1);
	spin_unlock(&lockref->lock);
}

/* Models lockref_get_not_zero() in lib/lockref.c. */
bool lockref_get_not_zero(struct lockref *lockref, unsigned int retry)
{
	bool ok = false;

	/* clang-format off */
	LOCKREF_FAST_LOOP(lockref, retry,
		if (old.count <= 0) {
			stat_inc(STAT_LOCKREF_FAST);
			return false;
		}
		new.count++,
		return true);
	/* clang-format on */

	stat_inc(STAT_LOCKREF_SLOW);
	spin_lock(&lockref->lock);
	if (READ_ONCE(lockref->count) > 0) {
		lockref_count_add(lockref, 1);
		ok = true;
	}
	spin_unlock(&lockref->lock);
	return ok;
}

/* Models lockref_get_not_dead() in lib/lockref.c. */
bool lockref_get_not_dead(struct lockref *lockref, unsigned int retry)
{
	bool ok = false;

	/* clang-format off */
	LOCKREF_FAST_LOOP(lockref, retry,
		if (old.count < 0) {
			stat_inc(STAT_LOCKREF_FAST);
			return false;
		}
		new.count++,
		return true);
	/* clang-format on */

	stat_inc(STAT_LOCKREF_SLOW);
	spin_lock(&lockref->lock);
	if (READ_ONCE(lockref->count) >= 0) {
		lockref_count_add(lockref, 1);
		ok = true;
	}
	spin_unlock(&lockref->lock);
	return ok;
}

/* Models lockref_put_return() in lib/lockref.c: there is no locked fallback. */
int lockref_put_return(struct lockref *lockref, unsigned int retry)
{
	/* clang-format off */
	LOCKREF_FAST_LOOP(lockref, retry,
		if (old.count <= 0)
			break;
		new.count--,
		return new.count);
	/* clang-format on */

	stat_inc(STAT_LOCKREF_SLOW);
	return -1;
}

/* Models lockref_put_or_lock() in lib/lockref.c. */
bool lockref_put_or_lock(struct lockref *lockref, unsigned int retry)
{
	/* clang-format off */
	LOCKREF_FAST_LOOP(lockref, retry,
		if (old.count <= 1)
			break;
		new.count--,
		return true);
	/* clang-format on */

	stat_inc(STAT_LOCKREF_SLOW);
	spin_lock(&lockref->lock);
	if (READ_ONCE(lockref->count) <= 1)
		return false; /* the caller now owns the lock */
	lockref_count_add(lockref, -1);
	spin_unlock(&lockref->lock);
	return true;
}

/* Models lockref_mark_dead() in lib/lockref.c. */
void lockref_mark_dead(struct lockref *lockref)
{
	assert_spin_locked(&lockref->lock);
	WRITE_ONCE(lockref->count, LOCKREF_DEAD_COUNT);
}
