/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sequence counters and seqlocks.  A writer makes the count odd while it
 * updates and even again when done; a reader samples the count, reads, and
 * retries if the count moved.  d_seq, mount_lock and rename_lock use these.
 * Models include/linux/seqlock.h (without lockdep or the locktype variants).
 *
 * Memory-model note: the reader's data loads must themselves be marked
 * (READ_ONCE) for the pattern to be race-free in C11 terms; the fences below
 * are the C11 seqlock recipe (acquire fence before the re-check, release fence
 * after making the count odd).
 */
#ifndef VFSLAB_LIB_SEQLOCK_H
#define VFSLAB_LIB_SEQLOCK_H

#include <stdbool.h>

#include "lib/atomic.h"
#include "lib/compiler.h"
#include "lib/spinlock.h"

typedef struct {
	unsigned int sequence;
} seqcount_t;

#define SEQCNT_ZERO           \
	{                     \
		.sequence = 0 \
	}

static inline void seqcount_init(seqcount_t *s)
{
	WRITE_ONCE(s->sequence, 0);
}

/** raw_read_seqcount - the current count, possibly odd, followed by smp_rmb(). */
static inline unsigned int raw_read_seqcount(const seqcount_t *s)
{
	unsigned int seq = READ_ONCE(s->sequence);

	smp_rmb();
	return seq;
}

/**
 * raw_seqcount_begin - start a read section without waiting for a writer
 *
 * Returns the count with the low bit cleared: if a write is in progress the
 * later retry check fails, so the caller (the RCU path walk) bails out at
 * once instead of spinning.
 */
static inline unsigned int raw_seqcount_begin(const seqcount_t *s)
{
	return raw_read_seqcount(s) & ~1u;
}

/**
 * __read_seqcount_begin - wait until no write is in progress, return the count
 *
 * The kernel's version has no barrier and leaves it to the caller; an acquire
 * load is free on x86-64 and keeps the C11 model sound, so we use one.
 */
static inline unsigned int __read_seqcount_begin(const seqcount_t *s)
{
	unsigned int seq;

	while (unlikely((seq = __atomic_load_n(&s->sequence, __ATOMIC_ACQUIRE)) & 1))
		cpu_relax();
	return seq;
}

/** read_seqcount_begin - start a read section (waits out a writer). */
static inline unsigned int read_seqcount_begin(const seqcount_t *s)
{
	unsigned int seq = __read_seqcount_begin(s);

	smp_rmb();
	return seq;
}

/** __read_seqcount_retry - did @s move since @start?  No barrier. */
static inline bool __read_seqcount_retry(const seqcount_t *s, unsigned int start)
{
	return unlikely(READ_ONCE(s->sequence) != start);
}

/** read_seqcount_retry - smp_rmb(), then: must the reader retry? */
static inline bool read_seqcount_retry(const seqcount_t *s, unsigned int start)
{
	smp_rmb();
	return __read_seqcount_retry(s, start);
}

/* Writers are serialised by the caller, so a load and a store suffice. */
static inline void raw_write_seqcount_begin(seqcount_t *s)
{
	WRITE_ONCE(s->sequence, READ_ONCE(s->sequence) + 1);
	smp_wmb();
}

static inline void raw_write_seqcount_end(seqcount_t *s)
{
	smp_wmb();
	WRITE_ONCE(s->sequence, READ_ONCE(s->sequence) + 1);
}

/** write_seqcount_begin - start a write; the caller holds the writer lock. */
static inline void write_seqcount_begin(seqcount_t *s)
{
	raw_write_seqcount_begin(s);
}

static inline void write_seqcount_end(seqcount_t *s)
{
	raw_write_seqcount_end(s);
}

/**
 * write_seqcount_invalidate - make every reader in flight retry
 *
 * Adds 2, keeping the count even: used when an object changes identity (a
 * dentry is killed or moved) rather than being updated in place.
 */
static inline void write_seqcount_invalidate(seqcount_t *s)
{
	smp_wmb();
	WRITE_ONCE(s->sequence, READ_ONCE(s->sequence) + 2);
}

typedef struct {
	seqcount_t seqcount;
	spinlock_t lock;
} seqlock_t;

#define __SEQLOCK_UNLOCKED                                            \
	{                                                             \
		.seqcount = SEQCNT_ZERO, .lock = __SPIN_LOCK_UNLOCKED \
	}
#define DEFINE_SEQLOCK(name) seqlock_t name = __SEQLOCK_UNLOCKED

static inline void seqlock_init(seqlock_t *sl)
{
	seqcount_init(&sl->seqcount);
	spin_lock_init(&sl->lock);
}

static inline unsigned int read_seqbegin(const seqlock_t *sl)
{
	return read_seqcount_begin(&sl->seqcount);
}

static inline bool read_seqretry(const seqlock_t *sl, unsigned int start)
{
	return read_seqcount_retry(&sl->seqcount, start);
}

static inline void write_seqlock(seqlock_t *sl)
{
	spin_lock(&sl->lock);
	write_seqcount_begin(&sl->seqcount);
}

static inline void write_sequnlock(seqlock_t *sl)
{
	write_seqcount_end(&sl->seqcount);
	spin_unlock(&sl->lock);
}

/* A reader that excludes writers (and other such readers) without bumping the count. */
static inline void read_seqlock_excl(seqlock_t *sl)
{
	spin_lock(&sl->lock);
}

static inline void read_sequnlock_excl(seqlock_t *sl)
{
	spin_unlock(&sl->lock);
}

/**
 * read_seqbegin_or_lock - lockless first pass, locked second pass
 * @sl: the seqlock
 * @seq: in: 0 for a lockless try, odd (1) to lock; out: the sample
 *
 * The d_walk()/d_path() idiom: start with *seq = 0; if need_seqretry() says
 * so, set *seq = 1 and go again, this time under the lock; finish with
 * done_seqretry().
 */
static inline void read_seqbegin_or_lock(seqlock_t *sl, unsigned int *seq)
{
	if (!(*seq & 1))
		*seq = read_seqbegin(sl);
	else
		read_seqlock_excl(sl);
}

static inline bool need_seqretry(seqlock_t *sl, unsigned int seq)
{
	return !(seq & 1) && read_seqretry(sl, seq);
}

static inline void done_seqretry(seqlock_t *sl, unsigned int seq)
{
	if (seq & 1)
		read_sequnlock_excl(sl);
}

#endif /* VFSLAB_LIB_SEQLOCK_H */
