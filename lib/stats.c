// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The registry behind the per-thread event counters.  Blocks are pushed on a
 * lock-free list and never removed, so readers can walk it without a lock and
 * a fork (Check forks per test) can never inherit a held registry lock.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"

struct stat_node {
	struct stat_block blk; /* first, so the node keeps the block aligned */
	struct stat_node *next;
};

/* Process-wide by design: the registry of every thread's block. */
static struct stat_node *stat_registry;

struct stat_block *stat_block_new(void)
{
	struct stat_node *node;

	node = aligned_alloc(L1_CACHE_BYTES, ALIGN(sizeof(*node), (size_t)L1_CACHE_BYTES));
	if (!node)
		return NULL;
	memset(node, 0, sizeof(*node));
	node->next = __atomic_load_n(&stat_registry, __ATOMIC_RELAXED);
	/* Release: a reader that finds the node also sees it zeroed. */
	while (!__atomic_compare_exchange_n(&stat_registry, &node->next, node, false,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
	return &node->blk;
}

struct stat_block *__stat_block_alloc(void)
{
	return lib_thread()->stat = stat_block_new();
}

void stat_read_self(uint64_t out[STAT_NR])
{
	struct stat_block *b = lib_thread()->stat;

	for (unsigned int i = 0; i < STAT_NR; i++)
		out[i] = b ? __atomic_load_n(&b->v[i], __ATOMIC_RELAXED) : 0;
}

void stat_read_all(uint64_t out[STAT_NR])
{
	struct stat_node *node;

	memset(out, 0, sizeof(uint64_t) * STAT_NR);
	for (node = __atomic_load_n(&stat_registry, __ATOMIC_ACQUIRE); node; node = node->next)
		for (unsigned int i = 0; i < STAT_NR; i++)
			out[i] += __atomic_load_n(&node->blk.v[i], __ATOMIC_RELAXED);
}

const char *stat_lib_name(unsigned int id)
{
	static const char *const names[STAT_LIB_NR] = {
		[STAT_LOCKREF_FAST] = "lockref_fast",
		[STAT_LOCKREF_SLOW] = "lockref_slow",
		[STAT_LOCKREF_CAS_FAIL] = "lockref_cas_fail",
	};

	return id < STAT_LIB_NR ? names[id] : NULL;
}
