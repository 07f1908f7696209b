/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * file_ref_t: the reference count of struct file since Linux 6.13.  Models
 * include/linux/file_ref.h and __file_ref_put() in fs/file.c (64-bit form).
 *
 * The stored value is (references - 1), and the 64-bit range is cut in zones:
 *
 *   FILE_REF_ONEREF                                  FILE_REF_MAXREF
 *   0x0000000000000000                            0x7FFFFFFFFFFFFFFF
 *   |<--------------------------- valid -------------------------->|
 *
 *   0x8000000000000000       FILE_REF_SATURATED       0xBFFFFFFFFFFFFFFF
 *                            0xA000000000000000
 *   |<------------------------ saturation ------------------------>|
 *
 *   FILE_REF_RELEASED        FILE_REF_DEAD            FILE_REF_NOREF
 *   0xC000000000000000       0xE000000000000000       0xFFFFFFFFFFFFFFFF
 *   |<--------------------------- dead --------------------------->|
 *
 * A get is one unconditional fully ordered add: it succeeds if the result is
 * still non-negative (valid zone).  A put is one decrement; only when that
 * lands on NOREF (-1) does the putter try to claim the release with a
 * cmpxchg NOREF -> DEAD, which fails if a racing get got in first.  DEAD sits
 * in the middle of the dead zone so that racing gets and puts of a dead file
 * cannot walk it out of the zone; SATURATED does the same for the (on 64-bit
 * practically unreachable) saturation zone.
 *
 * The scheme it replaced (before 6.13) was a plain count in an atomic_long_t:
 * get = atomic_long_inc_not_zero() (a read/test/try_cmpxchg loop, O(N^2)
 * under N-way contention), get_file = atomic_long_inc(), put =
 * atomic_long_dec_and_test().  Those are in lib/atomic.h and the VFS's
 * "inc-not-zero" f_count variant uses them directly.
 */
#ifndef VFSLAB_LIB_FILE_REF_H
#define VFSLAB_LIB_FILE_REF_H

#include <stdbool.h>

#include "lib/atomic.h"
#include "lib/bug.h"
#include "lib/compiler.h"

#define FILE_REF_ONEREF 0x0000000000000000UL
#define FILE_REF_MAXREF 0x7FFFFFFFFFFFFFFFUL
#define FILE_REF_SATURATED 0xA000000000000000UL
#define FILE_REF_RELEASED 0xC000000000000000UL
#define FILE_REF_DEAD 0xE000000000000000UL
#define FILE_REF_NOREF 0xFFFFFFFFFFFFFFFFUL

typedef struct {
	atomic_long_t refcnt;
} file_ref_t;

BUILD_BUG_ON(sizeof(long) != 8);

/* The out-of-line part of file_ref_put(), for a count that went negative. */
bool __file_ref_put(file_ref_t *ref, unsigned long cnt);

/**
 * file_ref_init - start with @cnt references (normally 1, stored as 0)
 */
static inline void file_ref_init(file_ref_t *ref, unsigned long cnt)
{
	atomic_long_set(&ref->refcnt, (long)(cnt - 1));
}

/**
 * file_ref_get - take a reference unless the file is dead
 *
 * Unconditional and fully ordered (the order matters to the fd-slot recheck
 * in __fget_files_rcu()).  There is deliberately no fix-up on failure: files
 * are SLAB_TYPESAFE_BY_RCU, the object may already belong to someone else,
 * and from DEAD it would take 2^61 gets to reach the valid zone.
 *
 * Return: true if a reference was taken.
 */
static inline __must_check bool file_ref_get(file_ref_t *ref)
{
	return !atomic_long_add_negative(1, &ref->refcnt);
}

/**
 * file_ref_inc - take another reference when the caller already holds one
 *
 * Relaxed; models file_ref_inc() used by get_file().
 */
static inline void file_ref_inc(file_ref_t *ref)
{
	long prior = atomic_long_fetch_inc_relaxed(&ref->refcnt);

	WARN_ONCE(prior < 0, "file_ref_inc() on a file without references");
}

/**
 * file_ref_put - drop a reference
 *
 * A fully ordered decrement; anything but a negative result is done.  The
 * kernel disables preemption around this (the slab page must not go away
 * under the slow path); a userspace thread has nothing to disable.
 *
 * Return: true if this was the last reference and the caller must free.
 */
static inline __must_check bool file_ref_put(file_ref_t *ref)
{
	long cnt = atomic_long_dec_return(&ref->refcnt);

	if (likely(cnt >= 0))
		return false;
	return __file_ref_put(ref, (unsigned long)cnt);
}

/**
 * file_ref_put_close - drop a reference on a close path
 *
 * If this looks like the only reference, a single cmpxchg ONEREF -> DEAD
 * releases it with one atomic instead of two.  Any other value, or a failed
 * cmpxchg, falls back to file_ref_put(); no loop, since a cmpxchg loop here
 * thrashed under dup2/close_range storms (stress-ng, 2025).
 *
 * Return: true if the caller must free.
 */
static inline __must_check bool file_ref_put_close(file_ref_t *ref)
{
	long old = atomic_long_read(&ref->refcnt);

	if (likely(old == (long)FILE_REF_ONEREF) &&
	    likely(atomic_long_try_cmpxchg(&ref->refcnt, &old, (long)FILE_REF_DEAD)))
		return true;
	return file_ref_put(ref);
}

/**
 * file_ref_read - number of references (0 for a dead file)
 */
static inline unsigned long file_ref_read(file_ref_t *ref)
{
	unsigned long c = (unsigned long)atomic_long_read(&ref->refcnt);

	return c >= FILE_REF_RELEASED ? 0 : c + 1;
}

/**
 * __file_ref_read_raw - the stored value, no zone interpretation
 *
 * file_needs_f_pos_lock() compares it with FILE_REF_ONEREF directly.
 */
static inline unsigned long __file_ref_read_raw(file_ref_t *ref)
{
	return (unsigned long)atomic_long_read(&ref->refcnt);
}

#endif /* VFSLAB_LIB_FILE_REF_H */
