// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The native platform (lib/arch.h): threads are the CPUs.  A port replaces
 * this file, and lib/rcu.c, with its own.
 *
 * A thread's CPU number is a slot of a registry of ARCH_NR_CPUS: the kernel
 * keeps per-CPU data by CPU number, and threads here are preempted and
 * migrate, so the number is per thread instead.  A thread claims the lowest
 * free slot when it first asks and a pthread key's destructor gives it back
 * when the thread exits, so numbers stay small and are reused.  With every
 * slot taken the caller gets -1 (lib/spinlock.c then waits unqueued).
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>

#include "lib/arch.h"

BUILD_BUG_ON(ARCH_NR_CPUS % 64 != 0);

/* Bit i set: CPU number i belongs to a live thread. */
static uint64_t cpu_used[ARCH_NR_CPUS / 64];
__thread int arch_cpu_self;
unsigned int arch_cpu_ids;
static pthread_key_t cpu_key;
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;
static bool cpu_key_ok;

static void cpu_free(unsigned int cpu)
{
	/* Release: what the number keyed (queue nodes) is done with before its next owner. */
	__atomic_fetch_and(&cpu_used[cpu / 64], ~(UINT64_C(1) << (cpu % 64)), __ATOMIC_RELEASE);
}

/* The key's destructor: the thread is exiting, outside any wait. */
static void cpu_exit(void *arg)
{
	arch_cpu_self = 0; /* a later destructor that asks claims anew */
	cpu_free((unsigned int)((uintptr_t)arg - 1));
}

static void cpu_key_init(void)
{
	cpu_key_ok = pthread_key_create(&cpu_key, cpu_exit) == 0;
}

int arch_cpu_claim(void)
{
	pthread_once(&cpu_once, cpu_key_init);
	if (!cpu_key_ok)
		return -1;
	for (unsigned int w = 0; w < ARCH_NR_CPUS / 64; w++) {
		uint64_t used = __atomic_load_n(&cpu_used[w], __ATOMIC_RELAXED);

		while (~used) {
			uint64_t bit = UINT64_C(1) << __builtin_ctzll(~used);
			unsigned int cpu = w * 64 + (unsigned int)__builtin_ctzll(~used);

			used = __atomic_fetch_or(&cpu_used[w], bit, __ATOMIC_ACQUIRE);
			if (used & bit)
				continue; /* another thread took it first */
			if (pthread_setspecific(cpu_key, (void *)(uintptr_t)(cpu + 1))) {
				cpu_free(cpu);
				return -1;
			}
			arch_cpu_self = (int)cpu + 1;
			/* Release: before this thread's first per-CPU add, as a CPU comes up. */
			for (unsigned int ids = __atomic_load_n(&arch_cpu_ids, __ATOMIC_RELAXED);
			     ids <= cpu &&
			     !__atomic_compare_exchange_n(&arch_cpu_ids, &ids, cpu + 1, false,
							  __ATOMIC_RELEASE, __ATOMIC_RELAXED);)
				;
			return (int)cpu;
		}
	}
	return -1;
}

unsigned int arch_cpus_used(void)
{
	unsigned int n = 0;

	for (unsigned int w = 0; w < ARCH_NR_CPUS / 64; w++)
		n += (unsigned int)__builtin_popcountll(
			__atomic_load_n(&cpu_used[w], __ATOMIC_RELAXED));
	return n;
}

void cpu_yield(void)
{
	sched_yield();
}
