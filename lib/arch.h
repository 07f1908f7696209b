/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The platform interface: what lib/ needs from the machine it runs on.
 * Natively lib/ implements it itself (the inlines below, lib/arch.c and,
 * for RCU, liburcu through lib/rcu.h and lib/rcu.c).  Built with
 * VFSLAB_SIM, a port implements it instead: the simulator's runtime, which
 * runs many virtual CPUs on one host thread, the way arch/um runs the
 * kernel in a userspace process.  Nothing else in lib/ or vfs/ knows which
 * of the two it runs on; each entry point has one definition in a link.
 */
#ifndef VFSLAB_LIB_ARCH_H
#define VFSLAB_LIB_ARCH_H

#include <stdbool.h>

#include "lib/compiler.h"

/*
 * CPUs.  arch_cpu_id() is the calling CPU's number, below ARCH_NR_CPUS, or
 * -1 if it has none.  Natively a CPU is a live thread: it claims a slot of
 * a registry on its first call and gives it back when it exits.  The port
 * numbers its virtual CPUs from 0 and its host context last.
 */
#ifdef VFSLAB_SIM
#define ARCH_NR_CPUS 513u /* 512 virtual CPUs and the host */
#else
#define ARCH_NR_CPUS 1024u
#endif
#ifdef VFSLAB_SIM
int arch_cpu_id(void);
#else
/* This thread's number + 1, 0 until it claims one: read inline, like smp_processor_id(). */
extern __thread int arch_cpu_self;
int arch_cpu_claim(void);

static inline int arch_cpu_id(void)
{
	int self = arch_cpu_self;

	if (likely(self))
		return self - 1;
	return arch_cpu_claim();
}
#endif
#ifndef VFSLAB_SIM
/* CPU numbers taken now (live threads that asked).  For tests. */
unsigned int arch_cpus_used(void);
#endif
/*
 * Models nr_cpu_ids: no CPU has a number at or above it, so a sum over
 * per-CPU slots (for_each_possible_cpu()) stops there.  Natively the
 * highest number ever handed out, plus one; the port's is ARCH_NR_CPUS.
 */
#ifdef VFSLAB_SIM
static inline unsigned int arch_nr_cpu_ids(void)
{
	return ARCH_NR_CPUS;
}
#else
extern unsigned int arch_cpu_ids;

static inline unsigned int arch_nr_cpu_ids(void)
{
	/* Acquire: a slot's adds by the thread that raised it come after. */
	return __atomic_load_n(&arch_cpu_ids, __ATOMIC_ACQUIRE);
}
#endif

/*
 * Models cache_line_size(): the line SLAB_HWCACHE_ALIGN aligns objects to,
 * which the kernel reads from the CPU at boot (x86: CLFLUSH's line size;
 * arm64: CTR_EL0.CWG, the largest line a write-back covers, which is the
 * L3's 128 bytes where the L3 has them). Natively 64, L1_CACHE_BYTES; the
 * port gives its profile's coherence line, so an object does not straddle
 * one on a machine with 128-byte lines.
 */
#ifdef VFSLAB_SIM
unsigned int arch_cache_line_size(void);
#else
static inline unsigned int arch_cache_line_size(void)
{
	return L1_CACHE_BYTES;
}
#endif

/*
 * Whether the platform takes a CPU away from lib/ while it holds or waits
 * for a lock.  Natively it does, threads being preempted: long spin waits
 * yield, and lib/spinlock.c lets an arriving thread take a free lock ahead
 * of the waiters.  The port's CPUs are never preempted, as the kernel's are
 * not inside a spinlock.
 */
#ifdef VFSLAB_SIM
#define ARCH_CPUS_PREEMPTED 0
#else
#define ARCH_CPUS_PREEMPTED 1
#endif

/*
 * For a function whose loads race by design, their result being checked
 * after (a seqcount retry): no sanitizer looks at it, except that the
 * port's -fsanitize=thread instrumentation is its cache model, not a race
 * detector, and must see every load.
 */
#ifdef VFSLAB_SIM
#define __no_sanitize_racy __attribute__((no_sanitize("address")))
#else
#define __no_sanitize_racy __attribute__((no_sanitize("address", "thread")))
#endif

#ifdef VFSLAB_SIM
/* The port charges a PAUSE's latency and may switch virtual CPUs. */
void arch_cpu_relax(void);
#endif

/**
 * cpu_relax - the one spin-wait hint used by every busy loop in vfslab
 *
 * PAUSE on x86; elsewhere only a compiler barrier.  Keep every spin loop going
 * through here so a port can hook a single point.
 */
static __always_inline void cpu_relax(void)
{
#ifdef VFSLAB_SIM
	arch_cpu_relax();
#elif defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
	barrier();
}

/**
 * cpu_yield - give the CPU away while waiting for something slow
 *
 * Where the kernel would sleep (a contended mutex, a resize wait queue),
 * vfslab yields.  Natively sched_yield(); the port charges a system call.
 */
void cpu_yield(void);

/*
 * What lib/ keeps per thread, all of it, in one struct: a port that runs
 * several CPUs on one host thread keeps one per CPU, opaque to it, and
 * switches the thread's between them, as a context switch saves and loads
 * registers.
 */
struct stat_block;
struct lib_thread {
	struct stat_block *stat; /* lib/stats.h: NULL until the first count */
};

extern __thread struct lib_thread lib_thread_self;

/* lib_thread - the calling thread's context: a TLS address, nothing more. */
static __always_inline struct lib_thread *lib_thread(void)
{
	return &lib_thread_self;
}

/*
 * lib_thread_new - a context for one of a port's CPUs, its counters set up.
 * Made outside any simulated run, and kept.
 */
struct lib_thread *lib_thread_new(void);

/*
 * lib_thread_switch - a port switches the thread from one of its CPUs to
 * another: keep the running one's context in @prev, load @next's.  By value,
 * so that lib/ reads its state where it always does: the simulator's model
 * sees the same accesses as on a thread of its own.
 */
void lib_thread_switch(struct lib_thread *prev, const struct lib_thread *next);

/*
 * RCU's flavour.  Natively liburcu's memb flavour: its read side and
 * synchronize_rcu()/call_rcu() are inline in lib/rcu.h, rcu_barrier() and
 * rcu_defer_free() are lib/rcu.c's.  The port defines all of them.
 */
struct rcu_head;

/**
 * rcu_barrier - wait until every call_rcu() callback queued so far has run,
 * and every rcu_defer_free() so far has freed (batches are flushed first).
 */
void rcu_barrier(void);

/**
 * rcu_defer_free - run @fn(@ctx, @obj) after a grace period
 *
 * For objects whose rcu_head cannot be found from the object. Each thread
 * collects its frees in a batch and hands a full batch to call_rcu() at
 * once, as the kernel's kfree_rcu() batches per CPU: one call_rcu() and one
 * allocation per 60-odd frees, so closing files is no queue contention.
 * May be called inside a read section.
 */
void rcu_defer_free(void *obj, void (*fn)(void *ctx, void *obj), void *ctx);

/**
 * rcu_callbacks_per_cpu - run call_rcu() callbacks on the CPU that queued them
 *
 * As the kernel does (its callbacks run in softirq or an offload thread on
 * that CPU), so a callback's work takes the time of the CPU whose task made
 * it; liburcu otherwise runs every callback on one worker thread wherever
 * the scheduler puts it.  For benchmarks whose tasks are pinned.  Natively
 * it starts a worker bound to each CPU this thread may run on; later calls
 * do nothing.
 * Return: 0, or -errno when a worker could not be started (callbacks from
 * a CPU without one still run, on the shared worker).  The port's callbacks
 * always run so.
 */
int rcu_callbacks_per_cpu(void);

#ifdef VFSLAB_SIM
/* The kernel's callback_head: a list link and the callback, 16 bytes. */
struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

void rcu_read_lock(void);
void rcu_read_unlock(void);
bool rcu_read_lock_held(void);
void synchronize_rcu(void);
void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head));

/* The port's CPUs are known to its RCU from the start. */
static inline void rcu_register_thread(void)
{
}

static inline void rcu_unregister_thread(void)
{
}
#endif

#endif /* VFSLAB_LIB_ARCH_H */
