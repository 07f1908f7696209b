/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-thread event counters for the benchmark harness, e.g. how often a
 * lockref fell back to its spinlock (a lockref stuck in locked-only mode).
 * Each thread owns one cache-line-aligned block and is its only writer, so
 * counting is a plain load and store on a line nobody else writes; readers
 * sum all blocks.  Blocks outlive their threads so the sums never go down.
 * Roughly what the kernel does with this_cpu_inc() on per-CPU vm_event state.
 */
#ifndef VFSLAB_LIB_STATS_H
#define VFSLAB_LIB_STATS_H

#include <stdint.h>

#include "lib/arch.h"
#include "lib/compiler.h"

#define STAT_NR 32

/* Ids used by lib/; the VFS numbers its own from STAT_LIB_NR to STAT_NR - 1. */
enum {
	STAT_LOCKREF_FAST, /* lockref op done without the lock */
	STAT_LOCKREF_SLOW, /* lockref op took the lock, or put_return gave -1 */
	STAT_LOCKREF_CAS_FAIL, /* failed cmpxchg inside a lockref fast path */
	STAT_LIB_NR
};

struct stat_block {
	uint64_t v[STAT_NR];
} __cacheline_aligned;

/* A new block, registered; NULL without memory. */
struct stat_block *stat_block_new(void);
/* Give the calling thread its block (lib_thread()->stat); NULL without memory. */
struct stat_block *__stat_block_alloc(void);

/**
 * stat_add - add @n to event @id for the calling thread
 *
 * The owner is the only writer, so a relaxed load plus a relaxed store (no
 * locked RMW) is enough and stays race-free for -fsanitize=thread readers.
 * Out-of-range ids and a failed first allocation drop the event.
 */
static inline void stat_add(unsigned int id, uint64_t n)
{
	struct stat_block *b = lib_thread()->stat;
	uint64_t *p;

	if (unlikely(!b)) {
		b = __stat_block_alloc();
		if (!b)
			return;
	}
	if (unlikely(id >= STAT_NR))
		return;
	p = &b->v[id];
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

static inline void stat_inc(unsigned int id)
{
	stat_add(id, 1);
}

/** stat_read_self - copy the calling thread's counters into @out. */
void stat_read_self(uint64_t out[STAT_NR]);

/** stat_read_all - sum every thread's counters (live or exited) into @out. */
void stat_read_all(uint64_t out[STAT_NR]);

/** stat_lib_name - short name of a lib/ counter id, or NULL if not one. */
const char *stat_lib_name(unsigned int id);

#endif /* VFSLAB_LIB_STATS_H */
