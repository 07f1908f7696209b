// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The simulator's coherence model on cases small enough to work out by
 * hand (tools/sim/coherence.c), then the runtime on real code: this file
 * is compiled with -fsanitize=thread like the simulated VFS, so its own
 * loads, stores and atomics go through the model when a vCPU runs them.
 */
#include <check.h>
#include <string.h>

#include "lib/compiler.h"
#include "lib/spinlock.h"
#include "tools/sim/coherence.h"
#include "tools/sim/sim.h"

/*
 * A machine with round numbers (ns): 2 sockets x 2 clusters x 2 cores.
 * CPUs 0,1 share a cluster; 2,3 are the other cluster of socket 0; 4-7
 * are socket 1.
 */
static const struct sim_profile toy = {
	.name = "toy",
	.machine = "hand-computed",
	.threads_per_core = 1,
	.cores_per_cluster = 2,
	.clusters_per_die = 2,
	.dies_per_socket = 1,
	.sockets = 2,
	.ghz = 1,
	.cpi = 1, /* an instruction is a nanosecond */
	.xfer_ns = { 0, 5, 20, 50, 50, 100 },
	.llc_ns = 40,
	.mem_ns = 200,
	.atomic_ns = 10,
	.upgrade = 0.5,
	.hold = 0.5,
	.corun_speed = 1,
	.pause_ns = 30,
	.syscall_ns = 100,
	.store_buffer = 4,
	.line_bytes = 64,
	.copy_mlp = 4, /* as many requests in flight as the store buffer holds */
	.notes = "",
};

#define NS 1000ull /* ps */
#define LINE_A 0x10000ull
#define LINE_B 0x10040ull

static struct coh c;

static void setup(void)
{
	ck_assert_int_eq(coh_init(&c, &toy, 8), 0);
	coh_stats_reset(&c, true);
}

static void teardown(void)
{
	coh_fini(&c);
}

static const struct coh_stats *stats(uint64_t addr)
{
	struct coh_line *l = coh_line_find(&c, addr >> c.line_shift);

	ck_assert_ptr_nonnull(l);
	ck_assert_ptr_nonnull(l->st);
	return l->st;
}

/* Two CPUs of one cluster take turns writing one line. */
START_TEST(test_two_writers_one_line)
{
	uint64_t t;

	/* First touch: memory, 200 ns; the writer holds it M. */
	ck_assert_uint_eq(coh_access(&c, 0, 0, LINE_A, COH_WRITE, 0, true), 200 * NS);
	/* CPU 1 writes at 300: a transfer from CPU 0 in its cluster, 20 ns. */
	ck_assert_uint_eq(coh_access(&c, 1, 300 * NS, LINE_A, COH_WRITE, 0, true), 320 * NS);
	/* CPU 0 asks at 310, while that transfer runs: it queues, 320 + 20. */
	ck_assert_uint_eq(coh_access(&c, 0, 310 * NS, LINE_A, COH_WRITE, 0, true), 340 * NS);
	/* Ten more turns, each at the end of the previous one. */
	t = 340 * NS;
	for (int i = 0; i < 10; i++)
		t = coh_access(&c, i % 2 ? 0 : 1, t, LINE_A, COH_WRITE, 0, true);
	ck_assert_uint_eq(t, 540 * NS);
	/* Its holder writing again is a hit: free beyond its instruction. */
	ck_assert_uint_eq(coh_access(&c, 0, t, LINE_A, COH_WRITE, 0, true), t);
	ck_assert_uint_eq(stats(LINE_A)->stores, 14);
	ck_assert_uint_eq(stats(LINE_A)->hitm_local, 12);
	ck_assert_uint_eq(stats(LINE_A)->hitm_remote, 0);
	ck_assert_uint_eq(stats(LINE_A)->rfo, 12);
	ck_assert_uint_eq(stats(LINE_A)->inval, 12);
	ck_assert_uint_eq(stats(LINE_A)->mem_fetch, 1);
	/* 10 ns queueing for CPU 0 at 310, 20 per transfer, 200 besides. */
	ck_assert_uint_eq(stats(LINE_A)->queue_ps, 10 * NS);
	ck_assert_uint_eq(stats(LINE_A)->stall_ps, (200 + 12 * 20 + 10) * NS);
}
END_TEST

/* The same across sockets costs the remote latency, and RMWs their own. */
START_TEST(test_two_sockets_rmw)
{
	ck_assert_uint_eq(coh_access(&c, 0, 0, LINE_A, COH_RMW, 0, true), 210 * NS);
	ck_assert_uint_eq(coh_access(&c, 4, 1000 * NS, LINE_A, COH_RMW, 0, true), 1110 * NS);
	ck_assert_uint_eq(coh_access(&c, 4, 1110 * NS, LINE_A, COH_RMW, 0, true), 1120 * NS);
	ck_assert_uint_eq(stats(LINE_A)->hitm_remote, 1);
	ck_assert_uint_eq(stats(LINE_A)->rmw_xfer, 1);
	ck_assert_uint_eq(stats(LINE_A)->rmws, 3);
}
END_TEST

/*
 * False sharing: CPU 0 writes a field at +0, CPU 2 a field at +8. In one
 * line every write after the first two moves the line; in two lines none
 * does.
 */
static uint64_t ping_pong(uint64_t a, uint64_t b)
{
	uint64_t t0 = 0, t2 = 0;

	for (int i = 0; i < 10; i++) {
		t0 = coh_access(&c, 0, t0 > t2 ? t0 : t2, a, COH_WRITE, 0, true);
		t2 = coh_access(&c, 2, t0 > t2 ? t0 : t2, b, COH_WRITE, 0, true);
	}
	return t0 > t2 ? t0 : t2;
}

START_TEST(test_false_sharing)
{
	/* One line: 200 (memory), then 19 transfers of 50 (another cluster). */
	ck_assert_uint_eq(ping_pong(LINE_A, LINE_A + 8), (200 + 19 * 50) * NS);
	ck_assert_uint_eq(stats(LINE_A)->hitm_local, 19);
	ck_assert_uint_eq(stats(LINE_A)->inval, 19);
	coh_reset(&c);
	coh_stats_reset(&c, true);
	/* Two lines: two first touches (memory), then 18 free hits. */
	ck_assert_uint_eq(ping_pong(LINE_A, LINE_B), (200 + 200) * NS);
	ck_assert_uint_eq(stats(LINE_A)->hitm_local + stats(LINE_B)->hitm_local, 0);
	ck_assert_uint_eq(stats(LINE_A)->inval + stats(LINE_B)->inval, 0);
}
END_TEST

/* A line written once and then read by everyone: one fetch per reader. */
START_TEST(test_read_mostly)
{
	const struct coh_stats *s;

	ck_assert_uint_eq(coh_access(&c, 0, 0, LINE_A, COH_WRITE, 0, true), 200 * NS);
	/* CPU 1 (same cluster): the writer forwards it, 20 ns; both S now. */
	ck_assert_uint_eq(coh_access(&c, 1, 1000 * NS, LINE_A, COH_READ, 0, true), 1020 * NS);
	/* The rest ask at 1100, once that transfer is over. CPU 2: the
	 * nearest copy is in the other cluster, 50 ns away. */
	ck_assert_uint_eq(coh_access(&c, 2, 1100 * NS, LINE_A, COH_READ, 0, true), 1150 * NS);
	/* CPU 3: a copy in its own cluster now: the shared cache, 40 ns. */
	ck_assert_uint_eq(coh_access(&c, 3, 1100 * NS, LINE_A, COH_READ, 0, true), 1140 * NS);
	/* CPU 4, the other socket: 100 ns; then CPU 5 from its cluster, 40;
	 * CPU 6 from the other cluster of its socket, 50; CPU 7, 40. */
	ck_assert_uint_eq(coh_access(&c, 4, 1100 * NS, LINE_A, COH_READ, 0, true), 1200 * NS);
	ck_assert_uint_eq(coh_access(&c, 5, 1100 * NS, LINE_A, COH_READ, 0, true), 1140 * NS);
	ck_assert_uint_eq(coh_access(&c, 6, 1100 * NS, LINE_A, COH_READ, 0, true), 1150 * NS);
	ck_assert_uint_eq(coh_access(&c, 7, 1100 * NS, LINE_A, COH_READ, 0, true), 1140 * NS);
	/* From then on every read of every CPU hits. */
	for (int i = 0; i < 100; i++)
		for (unsigned int cpu = 0; cpu < 8; cpu++)
			ck_assert_uint_eq(coh_access(&c, cpu, 2000 * NS, LINE_A, COH_READ, 0, true),
					  2000 * NS);
	s = stats(LINE_A);
	ck_assert_uint_eq(s->loads, 807);
	ck_assert_uint_eq(s->hitm_local, 1);
	ck_assert_uint_eq(s->clean_fetch, 6);
	ck_assert_uint_eq(s->rfo + s->inval, 0);
	/*
	 * One write now invalidates the seven other copies in parallel: the
	 * farthest's cost (100), an upgrade's half of it since CPU 0 holds a
	 * copy itself.
	 */
	ck_assert_uint_eq(coh_access(&c, 0, 3000 * NS, LINE_A, COH_WRITE, 0, true), 3050 * NS);
	ck_assert_uint_eq(s->inval, 7);
	ck_assert_uint_eq(s->rfo, 1);
	/* CPU 4 reads it from CPU 0 and writes: one other copy, an upgrade (half). */
	ck_assert_uint_eq(coh_access(&c, 4, 4000 * NS, LINE_A, COH_READ, 0, true), 4100 * NS);
	ck_assert_uint_eq(coh_access(&c, 4, 4100 * NS, LINE_A, COH_WRITE, 0, true), 4150 * NS);
	/*
	 * All read it again (CPU 4 keeps a copy): seven others out, the
	 * farthest invalidation sets the time, and holding a copy still makes
	 * it an upgrade.
	 */
	for (unsigned int cpu = 0; cpu < 8; cpu++)
		if (cpu != 4)
			coh_access(&c, cpu, 4000 * NS, LINE_A, COH_READ, 0, true);
	ck_assert_uint_eq(coh_access(&c, 4, 5000 * NS, LINE_A, COH_WRITE, 0, true), 5050 * NS);
	/* CPU 5 writes without a copy: the full farthest invalidation. */
	coh_access(&c, 0, 6000 * NS, LINE_A, COH_READ, 0, true);
	ck_assert_uint_eq(coh_access(&c, 5, 7000 * NS, LINE_A, COH_WRITE, 0, true), 7100 * NS);
}
END_TEST

/*
 * A profile whose reads of a modified line move it (Intel cores, as
 * `vfslab sim calibrate` measures them): the reader gets the line alone
 * and clean, its RMW then hits, the old owner's next read is a transfer,
 * and a read of a clean line still leaves both a copy.
 */
START_TEST(test_dirty_read_moves)
{
	struct sim_profile p = toy;
	const struct coh_stats *s;

	coh_fini(&c);
	p.dirty_read_moves = 1;
	ck_assert_int_eq(coh_init(&c, &p, 8), 0);
	coh_stats_reset(&c, true);
	/* CPU 0 writes (memory, 200), CPU 1 reads it: 20 in the cluster. */
	ck_assert_uint_eq(coh_access(&c, 0, 0, LINE_A, COH_WRITE, 0, true), 200 * NS);
	ck_assert_uint_eq(coh_access(&c, 1, 1000 * NS, LINE_A, COH_READ, 0, true), 1020 * NS);
	/* CPU 1 holds it alone: its RMW costs the atomic only. */
	ck_assert_uint_eq(coh_access(&c, 1, 2000 * NS, LINE_A, COH_RMW, 0, true), 2010 * NS);
	s = stats(LINE_A);
	ck_assert_uint_eq(s->hitm_local, 1);
	ck_assert_uint_eq(s->inval, 1);
	ck_assert_uint_eq(s->rmw_xfer, 0);
	/* CPU 1's RMW made it modified: CPU 0's read moves it back. */
	ck_assert_uint_eq(coh_access(&c, 0, 3000 * NS, LINE_A, COH_READ, 0, true), 3020 * NS);
	ck_assert_uint_eq(coh_access(&c, 1, 4000 * NS, LINE_A, COH_READ, 0, true), 4020 * NS);
	/* Clean now: the two reads above left both with a copy. */
	ck_assert_uint_eq(coh_access(&c, 0, 5000 * NS, LINE_A, COH_READ, 0, true), 5000 * NS);
	ck_assert_uint_eq(coh_access(&c, 1, 5000 * NS, LINE_A, COH_READ, 0, true), 5000 * NS);
	ck_assert_uint_eq(s->hitm_local, 2);
}
END_TEST

/*
 * A profile whose transfers vary (xfer_jitter): each transfer takes its
 * mean moved by a uniform draw of that standard deviation, the same draw
 * for the same seed, line and start (so coh_estimate() reserves what
 * coh_miss() then takes), another for another seed, centred on the mean;
 * memory fetches and hits do not vary.
 */
START_TEST(test_xfer_jitter)
{
	struct sim_profile p = toy;
	uint64_t sum = 0, lo = UINT64_MAX, hi = 0, t, first = 0;
	bool differ = false;

	coh_fini(&c);
	p.xfer_jitter = 0.1; /* width 0.1 * sqrt(12) = 0.346 of the mean */
	ck_assert_int_eq(coh_init(&c, &p, 8), 0);
	ck_assert_uint_eq(c.jitter_pm, 346);
	c.seed = 7;
	/* Memory is not a transfer: exactly 200. */
	ck_assert_uint_eq(coh_access(&c, 0, 0, LINE_A, COH_WRITE, 0, false), 200 * NS);
	for (unsigned int i = 0; i < 1000; i++) {
		uint64_t now = (1000 + 1000 * (uint64_t)i) * NS, d;
		unsigned int cpu = 1 - i % 2; /* CPUs 0 and 1 take turns: 20 ns each */
		struct coh_line *l = coh_line_get(&c, LINE_A >> c.line_shift);
		uint64_t est = coh_estimate(&c, l, cpu, COH_WRITE, now);

		t = coh_access(&c, cpu, now, LINE_A, COH_WRITE, 0, false);
		d = t - now;
		ck_assert_uint_eq(d, est); /* the reservation is the transfer */
		ck_assert_uint_ge(d, 20 * NS - 20 * NS * 346 / 2000 - 1);
		ck_assert_uint_le(d, 20 * NS + 20 * NS * 346 / 2000);
		sum += d;
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
		if (i == 0)
			first = d;
	}
	/* The mean stays the mean (within 2%); the draws spread over the width. */
	ck_assert_uint_ge(sum / 1000, 20 * NS * 98 / 100);
	ck_assert_uint_le(sum / 1000, 20 * NS * 102 / 100);
	ck_assert_uint_lt(lo, 20 * NS * 90 / 100);
	ck_assert_uint_gt(hi, 20 * NS * 110 / 100);
	/* Another seed, another draw for the same transfer. */
	for (uint64_t seed = 8; seed < 16 && !differ; seed++) {
		coh_fini(&c);
		ck_assert_int_eq(coh_init(&c, &p, 8), 0);
		c.seed = seed;
		coh_access(&c, 0, 0, LINE_A, COH_WRITE, 0, false);
		differ = coh_access(&c, 1, 1000 * NS, LINE_A, COH_WRITE, 0, false) - 1000 * NS !=
			 first;
	}
	ck_assert(differ);
	/*
	 * Queued behind a transfer still running, as the runtime reserves a
	 * slot: the estimate at the slot's start is what the transfer takes
	 * there, whatever the draw.
	 */
	for (unsigned int i = 0; i < 100; i++) {
		struct coh_line *l = coh_line_get(&c, LINE_A >> c.line_shift);
		unsigned int cpu = l->owner == 0 ? 1 : 0;
		uint64_t now = (10000 + 1000 * (uint64_t)i) * NS, start, est;

		l->busy_until = now + 7 * NS + i; /* the previous transfer ends later */
		start = l->busy_until;
		est = coh_estimate(&c, l, cpu, COH_RMW, start);
		ck_assert_uint_eq(
			coh_miss(&c, l, cpu, start, COH_RMW, 0, 0, false, now, true) - start, est);
	}
}
END_TEST

/* The runtime: code on virtual CPUs, instrumented like the VFS. */
static uint64_t shared_counter;
static uint64_t padded[2][8] __attribute__((aligned(64)));
static uint64_t plain_counter;
static spinlock_t lock;

static void add_atomic(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000; i++)
		__atomic_fetch_add(&shared_counter, 1, __ATOMIC_SEQ_CST);
}

static void add_locked(void *arg)
{
	(void)arg;
	for (int i = 0; i < 500; i++) {
		spin_lock(&lock);
		plain_counter++;
		spin_unlock(&lock);
	}
}

static void add_private(void *arg)
{
	uint64_t *mine = arg;

	for (int i = 0; i < 1000; i++)
		__atomic_fetch_add(mine, 1, __ATOMIC_SEQ_CST);
}

struct outcome {
	uint64_t clock[8];
	uint64_t instrs[8];
	uint64_t rmw_xfer;
	uint64_t watched_rmw_xfer; /* those on the line of @watched */
};

static const void *watched;

static void sum(void *ctx, struct coh_line *l, uint64_t line)
{
	struct outcome *o = ctx;

	o->rmw_xfer += l->st->rmw_xfer;
	if (watched && line == (uintptr_t)watched >> sim.coh.line_shift)
		o->watched_rmw_xfer += l->st->rmw_xfer;
}

static void run_on(const struct sim_profile *p, void (*fn)(void *), void **args, unsigned int n,
		   struct outcome *o)
{
	ck_assert_uint_le(n, ARRAY_SIZE(o->clock));
	ck_assert_int_eq(sim_setup(p, n), 0);
	for (unsigned int i = 0; i < n; i++)
		sim.vcpus[i].measuring = true;
	coh_stats_reset(&sim.coh, true);
	sim_run(fn, args);
	memset(o, 0, sizeof(*o));
	for (unsigned int i = 0; i < n; i++) {
		o->clock[i] = sim.vcpus[i].clock;
		o->instrs[i] = sim.vcpus[i].instrs;
	}
	coh_for_each_stats(&sim.coh, sum, o);
	sim_teardown();
}

static void run(void (*fn)(void *), void **args, unsigned int n, struct outcome *o)
{
	run_on(&toy, fn, args, n, o);
}

/* SLAB_HWCACHE_ALIGN follows the profile's line, as cache_line_size() follows the CPU's. */
START_TEST(test_runtime_cache_line_size)
{
	struct sim_profile wide = toy;

	wide.line_bytes = 128;
	ck_assert_int_eq(sim_setup(&wide, 1), 0);
	ck_assert_uint_eq(arch_cache_line_size(), 128);
	sim_teardown();
	wide.line_bytes = 64;
	ck_assert_int_eq(sim_setup(&wide, 1), 0);
	ck_assert_uint_eq(arch_cache_line_size(), 64);
	sim_teardown();
}
END_TEST

START_TEST(test_runtime_atomics)
{
	void *args[2] = { NULL, NULL };
	struct outcome a, b;

	shared_counter = 0;
	run(add_atomic, args, 2, &a);
	ck_assert_uint_eq(shared_counter, 2000);
	/* Contended: the line moved between the two at least once. */
	ck_assert_uint_gt(a.rmw_xfer, 0);
	/* Deterministic: the same run, the same clocks and transfers. */
	shared_counter = 0;
	run(add_atomic, args, 2, &b);
	ck_assert_mem_eq(&a, &b, sizeof(a));
}
END_TEST

START_TEST(test_runtime_private_lines)
{
	void *args[2] = { padded[0], padded[1] };
	struct outcome o;

	run(add_private, args, 2, &o);
	ck_assert_uint_eq(padded[0][0] + padded[1][0], 2000);
	/*
	 * Separate lines: no transfers; 1000 RMWs at 10 ns after a first
	 * touch, and the loop's instructions at a nanosecond each (the RMW,
	 * the count, the branch at least).
	 */
	ck_assert_uint_eq(o.rmw_xfer, 0);
	ck_assert_uint_ge(o.instrs[0], 3000);
	ck_assert_uint_eq(o.clock[0], (200 + 10 + 999 * 10 + o.instrs[0]) * NS);
	ck_assert_uint_eq(o.clock[1], o.clock[0]);
}
END_TEST

START_TEST(test_runtime_spinlock)
{
	void *args[4] = { NULL, NULL, NULL, NULL };
	struct outcome a, b;

	plain_counter = 0;
	spin_lock_init(&lock);
	run(add_locked, args, 4, &a);
	ck_assert_uint_eq(plain_counter, 2000);
	ck_assert(!spin_is_locked(&lock));
	plain_counter = 0;
	run(add_locked, args, 4, &b);
	ck_assert_mem_eq(&a, &b, sizeof(a));
}
END_TEST

/*
 * inc_not_zero's read, test, try_cmpxchg on one counter from eight CPUs. On
 * a machine where a read of a modified line takes it (dirty_read_moves),
 * the load brings the line exclusive and the CAS right after it hits: no
 * other CPU's request reaches the line before the load's own transfer has
 * ended, even when that transfer took longer than the slot its request
 * reserved (the line changed hands in between).
 */
static uint64_t ref_line[8] __attribute__((aligned(64))); /* [0]: the count, a line of its own */
static uint64_t cas_failed[8][8] __attribute__((aligned(64)));

static void get_ref(void *arg)
{
	uint64_t *failed = arg;

	for (int i = 0; i < 300; i++) {
		uint64_t seen = __atomic_load_n(&ref_line[0], __ATOMIC_RELAXED);

		while (!__atomic_compare_exchange_n(&ref_line[0], &seen, seen + 1, false,
						    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
			(*failed)++;
		for (volatile int k = 0; k < 20; k++)
			;
	}
}

START_TEST(test_runtime_load_then_cas)
{
	struct sim_profile p = toy;
	void *args[8];
	uint64_t failed = 0;
	struct outcome o;

	p.dirty_read_moves = 1;
	p.xfer_jitter = 0.06;
	ref_line[0] = 1;
	memset(cas_failed, 0, sizeof(cas_failed));
	for (int i = 0; i < 8; i++)
		args[i] = cas_failed[i];
	watched = &ref_line[0];
	run_on(&p, get_ref, args, 8, &o);
	watched = NULL;
	for (int i = 0; i < 8; i++)
		failed += cas_failed[i][0];
	ck_assert_uint_eq(ref_line[0], 1 + 8 * 300);
	/* The first loads find the line clean and share it; after that, none. */
	ck_assert_uint_le(o.watched_rmw_xfer, 16);
	ck_assert_uint_le(failed, 16);
}
END_TEST

/*
 * The hold probe of `vfslab sim calibrate` (host_hold_probe()) on the
 * model: vCPU 1 adds to a line without pause, vCPU 0 loads it, works, and
 * compare-and-swaps it. The CAS fails when vCPU 1's waiting request took
 * the line first, which it does the profile's hold of a transfer after
 * vCPU 0's load got it.
 */
static uint64_t hold_line[8] __attribute__((aligned(64)));
static uint64_t hold_done[8] __attribute__((aligned(64)));
static int hold_work; /* loop iterations between the load and the CAS */
static unsigned int hold_failed;

static void hold_probe(void *arg)
{
	if (arg) {
		while (!__atomic_load_n(&hold_done[0], __ATOMIC_RELAXED))
			__atomic_fetch_add(&hold_line[0], 2, __ATOMIC_SEQ_CST);
		return;
	}
	for (int i = 0; i < 50; i++) {
		uint64_t v = __atomic_load_n(&hold_line[0], __ATOMIC_RELAXED);

		for (volatile int k = 0; k < hold_work; k++)
			;
		hold_failed += !__atomic_compare_exchange_n(&hold_line[0], &v, v + 1, false,
							    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
		for (volatile int k = 0; k < 100; k++)
			;
	}
	__atomic_store_n(&hold_done[0], 1, __ATOMIC_RELAXED);
}

static unsigned int hold_fails(double hold, int work)
{
	struct sim_profile p = toy;
	void *args[2] = { NULL, hold_line }; /* vCPU 1 hammers */
	struct outcome o;

	p.hold = hold;
	p.xfer_ns[SIM_DIST_CLUSTER] = 100; /* vCPUs 0 and 1 */
	p.dirty_read_moves = 1;
	hold_work = work;
	hold_failed = 0;
	hold_done[0] = 0;
	run_on(&p, hold_probe, args, 2, &o);
	return hold_failed;
}

START_TEST(test_runtime_hold)
{
	/*
	 * The transfer's estimate is 100 ns plus the RMW's 10, so the holds
	 * below are 33 and 99 ns; an iteration of the delay loop is several
	 * instructions at 1 ns each. One iteration fits in 33 ns: the CAS hits.
	 */
	ck_assert_uint_le(hold_fails(0.3, 1), 2);
	/* Ten do not: the line has gone. */
	ck_assert_uint_ge(hold_fails(0.3, 10), 48);
	/* A longer hold keeps it through them. */
	ck_assert_uint_le(hold_fails(0.9, 10), 2);
}
END_TEST

/*
 * The store buffer (4 entries in the toy): plain stores that miss do not
 * stall until it is full; a locked RMW waits for every buffered store.
 */
static uint64_t burst[8][8] __attribute__((aligned(64)));
static uint64_t sb_clock[3];

static void store_burst(void *arg)
{
	uint64_t t0;

	(void)arg;
	/* Touch what the measurement itself uses, and drain: t0 starts clean. */
	WRITE_ONCE(sb_clock[0], 0);
	__atomic_fetch_add(&padded[0][0], 1, __ATOMIC_SEQ_CST);
	t0 = sim_self->clock;
	for (int i = 0; i < 4; i++)
		WRITE_ONCE(burst[i][0], 1);
	sb_clock[0] = sim_self->clock - t0;
	for (int i = 4; i < 8; i++)
		WRITE_ONCE(burst[i][0], 1);
	sb_clock[1] = sim_self->clock - t0;
	__atomic_fetch_add(&padded[0][0], 1, __ATOMIC_SEQ_CST);
	sb_clock[2] = sim_self->clock - t0;
}

START_TEST(test_runtime_store_buffer)
{
	void *args[1] = { NULL };
	struct outcome o;

	run(store_burst, args, 1, &o);
	/* Four first touches (200 ns each) retire at once: instructions only. */
	ck_assert_uint_lt(sb_clock[0], 100 * NS);
	/* The next four each wait for the oldest: about one memory latency. */
	ck_assert_uint_ge(sb_clock[1], 200 * NS);
	ck_assert_uint_lt(sb_clock[1], 400 * NS);
	/* The RMW drains the buffer: the eighth store is done 400 ns in. */
	ck_assert_uint_ge(sb_clock[2], 400 * NS);
	ck_assert_uint_lt(sb_clock[2], 8 * 200 * NS);
}
END_TEST

/* Two fill buffers: the eight ownership requests go two at a time. */
START_TEST(test_runtime_fill_buffers)
{
	struct sim_profile p = toy;
	void *args[1] = { NULL };
	struct outcome o;

	p.copy_mlp = 2;
	run_on(&p, store_burst, args, 1, &o);
	/* The buffer still takes the first four at once. */
	ck_assert_uint_lt(sb_clock[0], 100 * NS);
	/* The fifth waits for the first (200), the eighth's request starts at 600. */
	ck_assert_uint_ge(sb_clock[1], 200 * NS);
	ck_assert_uint_ge(sb_clock[2], 800 * NS);
	ck_assert_uint_lt(sb_clock[2], 1000 * NS);
}
END_TEST

static Suite *sim_suite(void)
{
	Suite *s = suite_create("sim_coherence");
	TCase *model = tcase_create("model"), *rt = tcase_create("runtime");

	tcase_add_checked_fixture(model, setup, teardown);
	tcase_add_test(model, test_two_writers_one_line);
	tcase_add_test(model, test_two_sockets_rmw);
	tcase_add_test(model, test_false_sharing);
	tcase_add_test(model, test_read_mostly);
	tcase_add_test(model, test_dirty_read_moves);
	tcase_add_test(model, test_xfer_jitter);
	suite_add_tcase(s, model);
	tcase_add_test(rt, test_runtime_atomics);
	tcase_add_test(rt, test_runtime_private_lines);
	tcase_add_test(rt, test_runtime_spinlock);
	tcase_add_test(rt, test_runtime_store_buffer);
	tcase_add_test(rt, test_runtime_fill_buffers);
	tcase_add_test(rt, test_runtime_load_then_cas);
	tcase_add_test(rt, test_runtime_hold);
	tcase_add_test(rt, test_runtime_cache_line_size);
	suite_add_tcase(s, rt);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sim_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
