// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The host's own numbers for a simulator profile (tools/simrun/hostbench.h).
 * Methods follow the sources the built-in profiles cite: core-to-core
 * latency as nviennot/core-to-core-latency measures it (two pinned threads
 * bounce one line with compare-and-swap; one-way = round trip / 2), load
 * latency as a pointer chase through a random cycle, one line per pointer.
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/atomic.h"
#include "tools/simrun/hostbench.h"

#define RUNS 9

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The best of a few runs: on a shared machine noise only ever adds time
 * (a preempted ping-pong partner, an evicted chase), so the fastest run is
 * the one closest to what the hardware does.
 */
static double best(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[0];
}

double host_ghz(void)
{
#if defined(__x86_64__)
	double v[RUNS];

	for (int r = 0; r < RUNS; r++) {
		const unsigned long iters = 2000000;
		unsigned long x = 0, one = 1;
		double t0 = now_ns();

		/*
		 * 20 dependent register adds an iteration: 20 cycles on any x86
		 * core (an add of an immediate may be folded at rename, as
		 * Golden Cove does, so the addend is a register).
		 */
		for (unsigned long i = 0; i < iters; i++)
			__asm__ volatile("add %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\t"
					 "add %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\t"
					 "add %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\t"
					 "add %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\t"
					 "add %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\tadd %1,%0"
					 : "+r"(x)
					 : "r"(one));
		v[r] = iters * 20.0 / (now_ns() - t0);
	}
	qsort(v, RUNS, sizeof(*v), cmp_double);
	return v[RUNS - 1]; /* the fastest run */
#else
	return -1;
#endif
}

int host_two_cpus(int *a, int *b)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++) {
		if (!CPU_ISSET(c, &set))
			continue;
		if (n++ == 0)
			*a = c;
		else
			*b = c;
	}
	return n == 2;
}

struct pingpong {
	_Alignas(64) uint64_t line;
	_Alignas(64) unsigned long n;
	enum host_handoff how;
	int cpu[2];
	pthread_barrier_t start;
};

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Player @me owns the line when it holds 2i + me; it hands it on. */
static void play(struct pingpong *p, unsigned long me)
{
	pin(p->cpu[me]);
	pthread_barrier_wait(&p->start);
	for (unsigned long i = 0; i < p->n; i++) {
		uint64_t want = 2 * i + me, e;

		for (;;) {
			if (p->how == HANDOFF_LOAD_CAS)
				while (__atomic_load_n(&p->line, __ATOMIC_RELAXED) != want)
					cpu_relax();
			e = want;
			if (__atomic_compare_exchange_n(&p->line, &e, want + 1, false,
							__ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
				break;
			if (p->how == HANDOFF_CAS)
				cpu_relax();
		}
	}
}

static void *player1(void *arg)
{
	play(arg, 1);
	return NULL;
}

double host_handoff_ns(int cpu_a, int cpu_b, enum host_handoff how)
{
	struct pingpong *p = aligned_alloc(64, sizeof(*p));
	double v[2 * RUNS];
	cpu_set_t saved;

	if (!p)
		return -1;
	sched_getaffinity(0, sizeof(saved), &saved);
	memset(p, 0, sizeof(*p));
	/* Many short runs: one of them will have had both CPUs to itself. */
	p->n = 20000;
	p->how = how;
	p->cpu[0] = cpu_a;
	p->cpu[1] = cpu_b;
	for (int r = 0; r < 2 * RUNS; r++) {
		pthread_t t;
		double t0;

		p->line = 0;
		pthread_barrier_init(&p->start, NULL, 2);
		if (pthread_create(&t, NULL, player1, p)) {
			free(p);
			return -1;
		}
		t0 = now_ns();
		play(p, 0);
		pthread_join(t, NULL);
		/* 2n handoffs, each one way. */
		v[r] = (now_ns() - t0) / (2.0 * p->n);
		pthread_barrier_destroy(&p->start);
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	free(p);
	return best(v, 2 * RUNS);
}

/*
 * The line probe's two players take turns on @turn (its own line): a step
 * is done when the player whose step it is bumps it. Each timed access is
 * one load or one locked add between two clock reads.
 */
#define PROBE_ROUNDS 20000
/* The spreads seen were 3.6-8.9 ns (tools/sim/profile.c, HOST-J). */
#define XFER_SD_MAX_STEP_NS 1.0

/*
 * 128 bytes apart: Intel's spatial prefetcher fetches a line's 128-byte
 * buddy, which would put copies of one player's line in the other's cache.
 */
struct probe {
	_Alignas(128) uint64_t line;
	_Alignas(128) uint64_t turn;
	_Alignas(128) uint64_t a_own; /* each player's private line */
	_Alignas(128) uint64_t b_own;
	_Alignas(128) int cpu[2]; /* read by both: off the lines above */
	double *t[6];
};

/* Step @step is the one whose number @turn holds; done, it bumps it. */
static void probe_wait(struct probe *p, uint64_t step)
{
	while (__atomic_load_n(&p->turn, __ATOMIC_ACQUIRE) != step)
		cpu_relax();
}

static void probe_done(struct probe *p, uint64_t step)
{
	__atomic_store_n(&p->turn, step + 1, __ATOMIC_RELEASE);
}

static double timed_load(volatile uint64_t *w)
{
	double t0 = now_ns();

	(void)*w;
	return now_ns() - t0;
}

static double timed_add(uint64_t *w)
{
	double t0 = now_ns();

	__atomic_fetch_add(w, 1, __ATOMIC_SEQ_CST);
	return now_ns() - t0;
}

/*
 * Six steps a round, A and B in turn: A writes the line (it holds it
 * modified) and times a load of its own line (the hit); B reads the line
 * (dirty_read) and times an add on its own line (the RMW baseline); A
 * reads the line again (owner_reread); B reads it (each holds it now, if
 * copies can be shared); A adds to it (upgrade); B reads A's modified line
 * and at once adds to it (moved_rmw).
 */
static void probe_play(struct probe *p, unsigned int me)
{
	volatile uint64_t *line = &p->line;

	pin(p->cpu[me]);
	for (uint64_t r = 0; r < PROBE_ROUNDS; r++) {
		uint64_t s = 6 * r;

		if (me == 0) {
			probe_wait(p, s);
			*line = r;
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			p->t[5][r] = timed_load(&p->a_own);
			probe_done(p, s);
			probe_wait(p, s + 2);
			p->t[1][r] = timed_load(line);
			probe_done(p, s + 2);
			probe_wait(p, s + 4);
			p->t[2][r] = timed_add(&p->line);
			probe_done(p, s + 4);
		} else {
			probe_wait(p, s + 1);
			p->t[0][r] = timed_load(line);
			p->t[4][r] = timed_add(&p->b_own);
			probe_done(p, s + 1);
			probe_wait(p, s + 3);
			(void)*line;
			probe_done(p, s + 3);
			probe_wait(p, s + 5);
			(void)*line;
			p->t[3][r] = timed_add(&p->line);
			probe_done(p, s + 5);
		}
	}
}

static void *probe_b(void *arg)
{
	probe_play(arg, 1);
	return NULL;
}

double host_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/*
 * A standard deviation robust to the interrupts and preemptions a few
 * samples take: the interquartile range over a normal's 1.349 (@v sorted).
 */
static double iqr_sd(const double *v, int n)
{
	return (v[3 * n / 4] - v[n / 4]) / 1.349;
}

double host_trimmed_mean(double *v, int n)
{
	int lo = n / 20, hi = n - n / 20;
	double sum = 0;

	qsort(v, n, sizeof(*v), cmp_double);
	for (int i = lo; i < hi; i++)
		sum += v[i];
	return sum / (hi - lo);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t host_tick_step(const uint64_t *ticks, int n)
{
	uint64_t *d = malloc(n * sizeof(*d)), q = 0, best = 0;
	int m = 0, near = 0;

	if (!d)
		return 1;
	for (int i = 1; i < n; i++)
		if (ticks[i] > ticks[i - 1])
			d[m++] = ticks[i] - ticks[i - 1];
	qsort(d, m, sizeof(*d), cmp_u64);
	/*
	 * The candidate step: the most common difference in the first window
	 * of three ticks that holds 5% of them (a scaled clock also shows the
	 * odd difference a tick or two off, from its rounding).
	 */
	for (int i = 0, j = 0; i < m && !q; i++) {
		while (j < m && d[j] <= d[i] + 2)
			j++;
		if (20 * (j - i) < m)
			continue;
		for (int k = i, c = 0; k < j; k++) {
			c = k > i && d[k] == d[k - 1] ? c + 1 : 1;
			if (c > (int)best) {
				best = c;
				q = d[k];
			}
		}
	}
	/* Stepped if nearly every difference is a multiple of it, give or take. */
	for (int i = 0; q && i < m; i++) {
		uint64_t k = (d[i] + q / 2) / q, off = d[i] > k * q ? d[i] - k * q : k * q - d[i];

		if (k && off <= 1 + k / 50)
			near++;
	}
	free(d);
	return q && 10 * near >= 9 * m ? q : 1;
}

double host_clock_step_ns(void)
{
#if defined(__x86_64__)
	enum { N = 4096 };
	uint64_t *ticks = malloc(N * sizeof(*ticks)), step;
	double t0, t1;

	if (!ticks)
		return -1;
	/*
	 * Back-to-back reads, a few with a short pause between them so that
	 * the differences are not all one read's cost; the TSC's rate against
	 * the monotonic clock over the same stretch turns ticks into ns.
	 */
	t0 = now_ns();
	for (int i = 0; i < N; i++) {
		ticks[i] = __builtin_ia32_rdtsc();
		for (volatile int k = 0; k < (i % 13) * 3; k++)
			;
	}
	do
		t1 = now_ns();
	while (t1 - t0 < 2e6);
	step = host_tick_step(ticks, N);
	t1 = (double)(__builtin_ia32_rdtsc() - ticks[0]) / (now_ns() - t0);
	free(ticks);
	return t1 > 0 ? step / t1 : -1;
#else
	return 0;
#endif
}

int host_line_probe(int cpu_a, int cpu_b, struct host_line_probe *out)
{
	struct probe *p = aligned_alloc(128, sizeof(*p));
	double *buf = malloc(6 * PROBE_ROUNDS * sizeof(*buf)), hit, rmw;
	cpu_set_t saved;
	pthread_t t;
	int ret = -1;

	if (!p || !buf)
		goto out;
	memset(p, 0, sizeof(*p));
	p->cpu[0] = cpu_a;
	p->cpu[1] = cpu_b;
	for (int i = 0; i < 6; i++)
		p->t[i] = buf + i * PROBE_ROUNDS;
	sched_getaffinity(0, sizeof(saved), &saved);
	if (pthread_create(&t, NULL, probe_b, p))
		goto out;
	probe_play(p, 0);
	pthread_join(t, NULL);
	sched_setaffinity(0, sizeof(saved), &saved);
	/*
	 * Trimmed means, not medians: where the clock moves in steps (10 ns
	 * under some hypervisors) each timed access reads as a whole number
	 * of steps, and only a mean over accesses that start at random
	 * points between steps recovers the time in between.
	 */
	hit = host_trimmed_mean(p->t[5], PROBE_ROUNDS);
	rmw = host_trimmed_mean(p->t[4], PROBE_ROUNDS);
	out->dirty_read = host_trimmed_mean(p->t[0], PROBE_ROUNDS) - hit;
	out->owner_reread = host_trimmed_mean(p->t[1], PROBE_ROUNDS) - hit;
	out->upgrade = host_trimmed_mean(p->t[2], PROBE_ROUNDS) - rmw;
	out->moved_rmw = host_trimmed_mean(p->t[3], PROBE_ROUNDS) - rmw;
	/*
	 * A timed read's spread is the transfer's and the clock reads' own;
	 * the timed hits have only the latter, so take it out in quadrature.
	 * A clock whose step is not well below the spread rounds it away.
	 */
	out->clock_step = host_clock_step_ns();
	if (out->clock_step > XFER_SD_MAX_STEP_NS) {
		out->xfer_sd = -1;
	} else {
		out->xfer_sd = iqr_sd(p->t[0], PROBE_ROUNDS) * iqr_sd(p->t[0], PROBE_ROUNDS) -
			       iqr_sd(p->t[5], PROBE_ROUNDS) * iqr_sd(p->t[5], PROBE_ROUNDS);
		out->xfer_sd = out->xfer_sd > 0 ? sqrt(out->xfer_sd) : 0;
	}
	ret = 0;
out:
	free(buf);
	free(p);
	return ret;
}

/*
 * The hold probe: B adds to the line without pause, so a request of its
 * own waits whenever A has the line; A loads it, works for a delay that
 * depends on the loaded value, and compare-and-swaps what it loaded. The
 * CAS fails when B took the line in between. Swept over the delay, the
 * failures step from none to nearly all where B's waiting request reaches
 * A: how long a core keeps a line it has just received while another
 * request waits.
 */
#define HOLD_STEPS 48
#define HOLD_PASSES 5
#define HOLD_TRIES 2000

struct hold {
	_Alignas(128) uint64_t line;
	_Alignas(128) uint64_t stop;
	_Alignas(128) int cpu;
};

/* @n iterations of a dependent multiply-add chain on @x. */
static uint64_t chain(uint64_t x, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		x = x * 3 + 1;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static void *hold_hammer(void *arg)
{
	struct hold *h = arg;

	pin(h->cpu);
	while (!__atomic_load_n(&h->stop, __ATOMIC_RELAXED))
		__atomic_fetch_add(&h->line, 2, __ATOMIC_SEQ_CST);
	return NULL;
}

/* One chain iteration's time, alone (the best of a few runs). */
static double chain_ns(void)
{
	double v[RUNS];
	uint64_t x = 1;

	for (int r = 0; r < RUNS; r++) {
		double t0 = now_ns();

		x = chain(x, 1000000);
		v[r] = (now_ns() - t0) / 1e6;
	}
	(void)x;
	return best(v, RUNS);
}

/* The delay at which @level of the CASes fail: linear between two steps. */
static double hold_cross(const double *fail, const double *ns, int n, double level)
{
	if (fail[0] >= level)
		return 0;
	for (int i = 1; i < n; i++)
		if (fail[i] >= level)
			return ns[i - 1] + (ns[i] - ns[i - 1]) * (level - fail[i - 1]) /
						   (fail[i] - fail[i - 1]);
	return -1;
}

int host_hold_probe(int cpu_a, int cpu_b, double span_ns, struct host_hold *out)
{
	struct hold *h = aligned_alloc(128, sizeof(*h));
	double it, ns[HOLD_STEPS], fail[HOLD_STEPS], pass[HOLD_PASSES][HOLD_STEPS];
	unsigned long iters[HOLD_STEPS], gap;
	cpu_set_t saved;
	pthread_t t;
	uint64_t x = 1;

	if (!h || span_ns <= 0 || sched_getaffinity(0, sizeof(saved), &saved)) {
		free(h);
		return -1;
	}
	memset(h, 0, sizeof(*h));
	h->cpu = cpu_b;
	pin(cpu_a);
	if (pthread_create(&t, NULL, hold_hammer, h)) {
		sched_setaffinity(0, sizeof(saved), &saved);
		free(h);
		return -1;
	}
	/* The chain's speed where it runs, while B runs too. */
	it = chain_ns();
	for (int i = 0; i < HOLD_STEPS; i++) {
		iters[i] = (unsigned long)(span_ns * i / (HOLD_STEPS - 1) / it + 0.5);
		ns[i] = iters[i] * it;
	}
	/* Between tries, two spans: B takes the line back before A loads it again. */
	gap = (unsigned long)(2 * span_ns / it) + 1;
	/* Passes over every step, so a drift of the host's speed hits them all. */
	for (int r = 0; r < HOLD_PASSES; r++) {
		for (int i = 0; i < HOLD_STEPS; i++) {
			unsigned long failed = 0;

			for (int k = 0; k < HOLD_TRIES; k++) {
				uint64_t v = __atomic_load_n(&h->line, __ATOMIC_RELAXED),
					 want = v + 1, zero = chain(x + v, iters[i]);

				x = zero;
#if defined(__x86_64__)
				/* The CAS's operand waits for the chain, the chain for the load. */
				__asm__("and $0,%1\n\tadd %1,%0" : "+r"(want), "+r"(zero));
#else
				__asm__ volatile("" ::: "memory");
#endif
				failed += !__atomic_compare_exchange_n(&h->line, &v, want, false,
								       __ATOMIC_SEQ_CST,
								       __ATOMIC_RELAXED);
				x = chain(x, gap);
			}
			pass[r][i] = (double)failed / HOLD_TRIES;
		}
	}
	__atomic_store_n(&h->stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	sched_setaffinity(0, sizeof(saved), &saved);
	free(h);
	/* Each step's median pass: a pass the host preempted B in fails less. */
	for (int i = 0; i < HOLD_STEPS; i++) {
		double v[HOLD_PASSES];

		for (int r = 0; r < HOLD_PASSES; r++)
			v[r] = pass[r][i];
		qsort(v, HOLD_PASSES, sizeof(*v), cmp_double);
		fail[i] = v[HOLD_PASSES / 2];
	}
	out->fail_zero = fail[0];
	out->fail_end = fail[HOLD_STEPS - 1];
	out->window = hold_cross(fail, ns, HOLD_STEPS, 0.5);
	out->q1 = hold_cross(fail, ns, HOLD_STEPS, 0.25);
	out->q3 = hold_cross(fail, ns, HOLD_STEPS, 0.75);
	return 0;
}

#define MLP_LINES 256
#define MLP_ROUNDS 200

struct mlp {
	_Alignas(128) uint64_t turn;
	_Alignas(128) int cpu;
	uint64_t (*lines)[8]; /* MLP_LINES lines, each 128-byte aligned apart */
};

/* B: each round, write every line (a pointer to the next, in a shuffled order). */
static void *mlp_writer(void *arg)
{
	struct mlp *m = arg;

	pin(m->cpu);
	for (uint64_t r = 0; r < 2 * MLP_ROUNDS; r++) {
		while (__atomic_load_n(&m->turn, __ATOMIC_ACQUIRE) != 2 * r)
			cpu_relax();
		for (unsigned int i = 0; i < MLP_LINES; i++)
			m->lines[2 * i][0] =
				(uint64_t)(uintptr_t)m->lines[2 * ((i * 97 + 1) % MLP_LINES)];
		__atomic_store_n(&m->turn, 2 * r + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

double host_copy_mlp(int cpu_a, int cpu_b)
{
	struct mlp *m = aligned_alloc(128, sizeof(*m));
	double dep[MLP_ROUNDS], ind[MLP_ROUNDS], ret = -1;
	cpu_set_t saved;
	pthread_t t;

	if (!m)
		return -1;
	memset(m, 0, sizeof(*m));
	/* Every other line, so no line's 128-byte buddy is one of them. */
	m->lines = aligned_alloc(128, 2 * MLP_LINES * sizeof(*m->lines));
	if (!m->lines)
		goto out_free;
	memset(m->lines, 0, 2 * MLP_LINES * sizeof(*m->lines));
	m->cpu = cpu_b;
	sched_getaffinity(0, sizeof(saved), &saved);
	pin(cpu_a);
	if (pthread_create(&t, NULL, mlp_writer, m))
		goto out;
	for (uint64_t r = 0; r < 2 * MLP_ROUNDS; r++) {
		volatile uint64_t sink = 0;
		uint64_t acc = 0;
		double t0;

		while (__atomic_load_n(&m->turn, __ATOMIC_ACQUIRE) != 2 * r + 1)
			cpu_relax();
		t0 = now_ns();
		if (r & 1) {
			/* Independent loads, as a copy makes them. */
			for (unsigned int i = 0; i < MLP_LINES; i++)
				acc += *(volatile uint64_t *)&m->lines[2 * i][0];
			sink = acc;
			ind[r / 2] = (now_ns() - t0) / MLP_LINES;
		} else {
			/* Each load's address is the previous load's value. */
			uint64_t *p = m->lines[0];

			for (unsigned int i = 0; i < MLP_LINES; i++)
				p = (uint64_t *)(uintptr_t) * (volatile uint64_t *)p;
			sink = (uint64_t)(uintptr_t)p;
			dep[r / 2] = (now_ns() - t0) / MLP_LINES;
		}
		(void)sink;
		__atomic_store_n(&m->turn, 2 * r + 2, __ATOMIC_RELEASE);
	}
	pthread_join(t, NULL);
	qsort(dep, MLP_ROUNDS, sizeof(*dep), cmp_double);
	qsort(ind, MLP_ROUNDS, sizeof(*ind), cmp_double);
	if (ind[MLP_ROUNDS / 2] > 0)
		ret = dep[MLP_ROUNDS / 2] / ind[MLP_ROUNDS / 2];
out:
	sched_setaffinity(0, sizeof(saved), &saved);
	free(m->lines);
out_free:
	free(m);
	return ret;
}

double host_chase_ns(size_t bytes)
{
	size_t lines = bytes / 64, steps = 2000000;
	uint64_t *buf, *order, seed = 0x9e3779b97f4a7c15ull;
	double v[3];

	if (lines < 2)
		return -1;
	buf = aligned_alloc(64, lines * 64);
	order = malloc(lines * sizeof(*order));
	if (!buf || !order) {
		free(buf);
		free(order);
		return -1;
	}
	for (size_t i = 0; i < lines; i++)
		order[i] = i;
	/* A random cycle (Fisher-Yates, a fixed xorshift seed). */
	for (size_t i = lines - 1; i > 0; i--) {
		size_t j;
		uint64_t t;

		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		j = seed % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < lines; i++)
		buf[order[i] * 8] = (uint64_t)(uintptr_t)&buf[order[(i + 1) % lines] * 8];
	free(order);
	for (int r = 0; r < 3; r++) {
		uint64_t *p = buf;
		double t0;

		for (size_t i = 0; i < lines && i < steps; i++) /* warm */
			p = (uint64_t *)(uintptr_t)*p;
		t0 = now_ns();
		for (size_t i = 0; i < steps; i++)
			p = (uint64_t *)(uintptr_t) * (volatile uint64_t *)p;
		v[r] = (now_ns() - t0) / steps;
		if (!p)
			v[r] = -1;
	}
	free(buf);
	return best(v, 3);
}

double host_atomic_ns(void)
{
	_Alignas(64) static uint64_t word;
	double v[RUNS];

	for (int r = 0; r < RUNS; r++) {
		const unsigned long n = 2000000;
		uint64_t x = 1;
		double t0 = now_ns();

		/* Each add's operand depends on the previous result. */
		for (unsigned long i = 0; i < n; i++)
			x = __atomic_fetch_add(&word, x & 1, __ATOMIC_SEQ_CST) | 1;
		v[r] = (now_ns() - t0) / n;
	}
	return best(v, RUNS);
}

/*
 * A private, CPU-bound loop on @cpu for a fixed time: its rate, loop
 * iterations per ns, over the whole time, as the native rows it scales
 * count operations (time the host takes away, a quota's or a neighbour's,
 * counts against both).
 */
struct corun {
	int cpu;
	pthread_barrier_t *start;
	double rate;
};

#define CORUN_NS 50e6

static double spin_rate(void)
{
	volatile uint64_t x = 0;
	uint64_t n = 0;
	double t0 = now_ns(), t;

	do {
		for (unsigned int i = 0; i < 10000; i++)
			x += i;
		n += 10000;
		t = now_ns();
	} while (t - t0 < CORUN_NS);
	return n / (t - t0);
}

static void *corun_main(void *arg)
{
	struct corun *c = arg;

	pin(c->cpu);
	if (c->start)
		pthread_barrier_wait(c->start);
	c->rate = spin_rate();
	return NULL;
}

/* The loop on @cpu_a alone (@both false) or on both CPUs at once: mean rate. */
static double corun_rate(int cpu_a, int cpu_b, bool both)
{
	struct corun c[2] = { { .cpu = cpu_a }, { .cpu = cpu_b } };
	pthread_barrier_t start;
	pthread_t t[2];
	int n = both ? 2 : 1, i;

	if (both) {
		pthread_barrier_init(&start, NULL, 2);
		c[0].start = c[1].start = &start;
	}
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, corun_main, &c[i]))
			break;
	if (both && i == 1)
		pthread_barrier_wait(&start); /* release the one that started */
	for (int j = 0; j < i; j++)
		pthread_join(t[j], NULL);
	if (both)
		pthread_barrier_destroy(&start);
	return i < n ? -1 : (c[0].rate + c[1].rate) / n;
}

int host_corun_pair(int cpu_a, int cpu_b, bool both_first, double *alone, double *both)
{
	if (both_first) {
		*both = corun_rate(cpu_a, cpu_b, true);
		*alone = corun_rate(cpu_a, cpu_b, false);
	} else {
		*alone = corun_rate(cpu_a, cpu_b, false);
		*both = corun_rate(cpu_a, cpu_b, true);
	}
	return *alone > 0 && *both > 0 ? 0 : -1;
}

/*
 * Measured the way `sim validate` measures a workload's 2/1 ratio, so the
 * two agree on what "both CPUs busy" costs: throughput over a fixed time
 * (the mean of the two CPUs' rates, as two threads' operations add up, not
 * the slower one's), alone and together in adjacent pairs, the order
 * alternating so a drift in the host's speed cancels, and the median pair.
 */
double host_corun_speed(int cpu_a, int cpu_b)
{
	double v[RUNS];

	for (int r = 0; r < RUNS; r++) {
		double alone, both;

		if (host_corun_pair(cpu_a, cpu_b, r & 1, &alone, &both))
			return -1;
		v[r] = both / alone;
	}
	qsort(v, RUNS, sizeof(*v), cmp_double);
	return v[RUNS / 2];
}

double host_pause_ns(void)
{
	double v[RUNS];

	for (int r = 0; r < RUNS; r++) {
		const unsigned long n = 200000;
		double t0 = now_ns();

		for (unsigned long i = 0; i < n; i++)
			cpu_relax();
		v[r] = (now_ns() - t0) / n;
	}
	return best(v, RUNS);
}

size_t host_l2_bytes(size_t dflt)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index2/size", "r");
	unsigned long n;
	char unit = 0;
	size_t r = dflt;

	if (!f)
		return dflt;
	if (fscanf(f, "%lu%c", &n, &unit) >= 1 && n)
		r = unit == 'K' ? n << 10 : unit == 'M' ? n << 20 : n;
	fclose(f);
	return r;
}

unsigned int host_line_bytes(unsigned int dflt)
{
	unsigned int best = 0;

	for (int i = 0; i < 8; i++) {
		char path[96];
		unsigned int n;
		FILE *f;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", i);
		f = fopen(path, "r");
		if (!f)
			break;
		if (fscanf(f, "%u", &n) == 1 && n > best && !(n & (n - 1)))
			best = n;
		fclose(f);
	}
	return best >= 32 && best <= 256 ? best : dflt;
}
