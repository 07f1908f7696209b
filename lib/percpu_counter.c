// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Thread numbering for raw_smp_processor_id() and the summing side of
 * percpu counters.  Models percpu_counter_sum() in lib/percpu_counter.c.
 */
#include "lib/percpu_counter.h"

/* Index + 1 of this thread; 0 until the thread first asks. */
__thread unsigned int __vfslab_cpu;

/* The only shared state: the next thread number to hand out. */
static unsigned int next_cpu;

unsigned int __vfslab_cpu_assign(void)
{
	unsigned int n = __atomic_fetch_add(&next_cpu, 1, __ATOMIC_RELAXED);

	__vfslab_cpu = n % NR_CPUS + 1;
	return __vfslab_cpu;
}

long percpu_counter_sum(const struct percpu_counter *pc)
{
	long sum = 0;

	for (unsigned int i = 0; i < NR_CPUS; i++)
		sum += __atomic_load_n(&pc->slot[i].v, __ATOMIC_RELAXED);
	return sum;
}
