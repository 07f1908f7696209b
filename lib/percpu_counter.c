// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Thread numbering for raw_smp_processor_id() and the summing side of
 * percpu counters.  Models percpu_counter_sum() in lib/percpu_counter.c.
 */
#include "lib/percpu_counter.h"

/* The only shared state: the next thread number to hand out. */
static unsigned int next_cpu;

unsigned int __vfslab_cpu_assign(void)
{
	unsigned int n = __atomic_fetch_add(&next_cpu, 1, __ATOMIC_RELAXED);

	return lib_thread()->cpu = n % NR_CPUS + 1;
}

long percpu_counter_sum(const struct percpu_counter *pc)
{
	long sum = 0;

	for (unsigned int i = 0; i < NR_CPUS; i++)
		sum += __atomic_load_n(&pc->slot[i].v, __ATOMIC_RELAXED);
	return sum;
}
