/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A statistical counter split over NR_CPUS cache-line-padded slots.  A thread
 * adds to the slot of its "CPU" (a small per-thread index) with a relaxed
 * atomic add; a read sums every slot.  Counting thus never bounces one shared
 * line between threads.  Models lib/percpu_counter.c, without the batching:
 * the sum is exact once the writers are quiet.
 */
#ifndef VFSLAB_LIB_PERCPU_COUNTER_H
#define VFSLAB_LIB_PERCPU_COUNTER_H

#include <stdint.h>

#include "lib/arch.h"
#include "lib/compiler.h"

/* Slots per counter; threads beyond this share slots (hence atomic adds). */
#define NR_CPUS 64u

unsigned int __vfslab_cpu_assign(void);

/**
 * raw_smp_processor_id - this thread's slot index, in [0, NR_CPUS)
 *
 * Threads are numbered in the order they first ask, modulo NR_CPUS.  It
 * stands in for the CPU number; a port's CPUs come numbered
 * (lib_thread_new(), lib/arch.h).
 */
static inline unsigned int raw_smp_processor_id(void)
{
	unsigned int cpu = lib_thread()->cpu;

	if (unlikely(cpu == 0))
		return __vfslab_cpu_assign() - 1;
	return cpu - 1; /* stored +1 so that 0 means "unassigned" */
}

struct percpu_counter_slot {
	long v;
} __cacheline_aligned;

struct percpu_counter {
	struct percpu_counter_slot slot[NR_CPUS];
};

static inline void percpu_counter_init(struct percpu_counter *pc)
{
	for (unsigned int i = 0; i < NR_CPUS; i++)
		__atomic_store_n(&pc->slot[i].v, 0, __ATOMIC_RELAXED);
}

/** percpu_counter_add - add @n to this thread's slot of @pc. */
static inline void percpu_counter_add(struct percpu_counter *pc, long n)
{
	__atomic_fetch_add(&pc->slot[raw_smp_processor_id()].v, n, __ATOMIC_RELAXED);
}

static inline void percpu_counter_inc(struct percpu_counter *pc)
{
	percpu_counter_add(pc, 1);
}

static inline void percpu_counter_dec(struct percpu_counter *pc)
{
	percpu_counter_add(pc, -1);
}

/** percpu_counter_sum - sum of all slots; exact when no add is in flight. */
long percpu_counter_sum(const struct percpu_counter *pc);

#endif /* VFSLAB_LIB_PERCPU_COUNTER_H */
