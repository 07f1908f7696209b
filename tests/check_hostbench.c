// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The statistics `vfslab sim calibrate` reads its probes with
 * (tools/simrun/hostbench.c), on synthetic clocks: a clock that moves in
 * 10 ns steps, as the TSC of some Zen 4 guests does, and a fine one.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "tests/vfs_test.h"
#include "tools/simrun/hostbench.h"

#define N 20000

/* A reading of @ns on a clock of @step ns, started at a random phase. */
static double stepped(double ns, double step, unsigned int *seed)
{
	double t0 = step * rand_r(seed) / RAND_MAX;

	return step * (floor((t0 + ns) / step) - floor(t0 / step));
}

START_TEST(test_trimmed_mean_between_steps)
{
	static double v[N], w[N];
	unsigned int seed = 1;

	for (int i = 0; i < N; i++) {
		/* A transfer of 23.4 ns; one reading in 200 took an interrupt. */
		v[i] = stepped(i % 200 ? 23.4 : 5000, 10, &seed);
		w[i] = v[i];
	}
	/* The median is a whole number of steps... */
	ck_assert_double_eq(host_median(w, N), 20);
	/* ...the trimmed mean finds the time in between. */
	ck_assert_double_eq_tol(host_trimmed_mean(v, N), 23.4, 0.7);
}
END_TEST

START_TEST(test_trimmed_mean_drops_tails)
{
	static double v[N];

	for (int i = 0; i < N; i++)
		v[i] = i % 50 ? 60 + i % 5 : 1e6; /* 2% far off */
	ck_assert_double_eq_tol(host_trimmed_mean(v, N), 62, 0.1);
}
END_TEST

/* @n readings of a TSC at @ghz, @gap_ns to 4 gap_ns apart, in @step ns steps. */
static void tsc(uint64_t *t, int n, double ghz, double step, double gap_ns, unsigned int *seed)
{
	double now = 1e6;

	for (int i = 0; i < n; i++) {
		double shown = step ? step * floor(now / step) : now;

		t[i] = (uint64_t)llround(shown * ghz);
		now += gap_ns * (1 + 3.0 * rand_r(seed) / RAND_MAX);
	}
}

START_TEST(test_tick_step)
{
	static uint64_t t[4096];
	unsigned int seed = 7;

	/* 10 ns steps of a 2.596 GHz TSC: 25.96 ticks, read 26 (or 25, 52...). */
	tsc(t, 4096, 2.596, 10, 9, &seed);
	ck_assert_uint_eq(host_tick_step(t, 4096), 26);
	/* A free-running TSC read about 10 ns apart: every tick shows. */
	tsc(t, 4096, 2.596, 0, 9, &seed);
	ck_assert_uint_eq(host_tick_step(t, 4096), 1);
	/*
	 * A fine TSC read back to back at one read's cost (30 ticks) three
	 * times in four, farther apart the fourth: 30 is common, but not a step.
	 */
	for (int i = 1; i < 4096; i++)
		t[i] = t[i - 1] + (i % 4 ? 30 : 31 + rand_r(&seed) % 97);
	ck_assert_uint_eq(host_tick_step(t, 4096), 1);
	/* Too few readings to tell: no step. */
	ck_assert_uint_eq(host_tick_step(t, 1), 1);
}
END_TEST

START_TEST(test_clock_step_here)
{
	double step = host_clock_step_ns();

	/* 0 without a TSC; else under a microsecond, whatever this host is. */
	ck_assert(step >= 0 && step < 1000);
}
END_TEST

static Suite *hostbench_suite(void)
{
	Suite *s = suite_create("hostbench");
	TCase *tc = tcase_create("statistics");

	tcase_add_test(tc, test_trimmed_mean_between_steps);
	tcase_add_test(tc, test_trimmed_mean_drops_tails);
	tcase_add_test(tc, test_tick_step);
	tcase_add_test(tc, test_clock_step_here);
	suite_add_tcase(s, tc);
	return s;
}

VT_MAIN(hostbench_suite)
