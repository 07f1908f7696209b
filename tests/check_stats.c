// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for lib/stats: per-thread counters are private to their thread, and
 * sums over all threads (including exited ones) are exact.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"

#define NTHREADS 4
#define NITERS 100000
#define STAT_TEST_ID (STAT_LIB_NR + 1)

START_TEST(test_names)
{
	ck_assert_str_eq(stat_lib_name(STAT_LOCKREF_FAST), "lockref_fast");
	ck_assert_str_eq(stat_lib_name(STAT_LOCKREF_SLOW), "lockref_slow");
	ck_assert_str_eq(stat_lib_name(STAT_LOCKREF_CAS_FAIL), "lockref_cas_fail");
	ck_assert_ptr_null(stat_lib_name(STAT_LIB_NR));
	ck_assert_ptr_null(stat_lib_name(STAT_NR + 5));
	ck_assert_int_le(STAT_LIB_NR, STAT_NR);
	ck_assert_uint_eq(sizeof(struct stat_block) % 64, 0);
	ck_assert_uint_eq(_Alignof(struct stat_block), 64);
}
END_TEST

START_TEST(test_self)
{
	uint64_t a[STAT_NR], b[STAT_NR];

	stat_read_self(a);
	stat_inc(STAT_TEST_ID);
	stat_add(STAT_TEST_ID, 41);
	stat_add(STAT_NR - 1, 7);
	stat_add(STAT_NR, 1); /* out of range: dropped, no corruption */
	stat_add(1000, 1);
	stat_read_self(b);
	ck_assert_uint_eq(b[STAT_TEST_ID] - a[STAT_TEST_ID], 42);
	ck_assert_uint_eq(b[STAT_NR - 1] - a[STAT_NR - 1], 7);
	for (unsigned int i = 0; i < STAT_NR; i++)
		if (i != STAT_TEST_ID && i != STAT_NR - 1)
			ck_assert_uint_eq(b[i], a[i]);
}
END_TEST

struct stat_thread_arg {
	unsigned long idx;
	uint64_t self_before[STAT_NR];
	uint64_t self_after[STAT_NR];
};

static void *stat_thread(void *arg)
{
	struct stat_thread_arg *ta = arg;

	stat_read_self(ta->self_before);
	for (int i = 0; i < NITERS; i++) {
		stat_inc(STAT_TEST_ID);
		stat_add(STAT_TEST_ID + 1, ta->idx + 1);
	}
	stat_read_self(ta->self_after);
	return NULL;
}

START_TEST(test_threads_sum)
{
	pthread_t t[NTHREADS];
	struct stat_thread_arg ta[NTHREADS];
	uint64_t before[STAT_NR], after[STAT_NR], mine0[STAT_NR], mine[STAT_NR];
	uint64_t weighted = 0;

	stat_inc(STAT_TEST_ID); /* make sure this thread has a block */
	stat_read_self(mine0);
	stat_read_all(before);
	for (unsigned long i = 0; i < NTHREADS; i++) {
		ta[i].idx = i;
		ck_assert_int_eq(pthread_create(&t[i], NULL, stat_thread, &ta[i]), 0);
	}
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	stat_read_all(after);
	stat_read_self(mine);

	for (int i = 0; i < NTHREADS; i++) {
		/* A new thread starts from zero and sees only its own events. */
		ck_assert_uint_eq(ta[i].self_before[STAT_TEST_ID], 0);
		ck_assert_uint_eq(ta[i].self_after[STAT_TEST_ID], NITERS);
		ck_assert_uint_eq(ta[i].self_after[STAT_TEST_ID + 1], (uint64_t)NITERS * (i + 1));
		weighted += (uint64_t)NITERS * (i + 1);
	}
	/* The exited threads' blocks are still summed. */
	ck_assert_uint_eq(after[STAT_TEST_ID] - before[STAT_TEST_ID], (uint64_t)NTHREADS * NITERS);
	ck_assert_uint_eq(after[STAT_TEST_ID + 1] - before[STAT_TEST_ID + 1], weighted);
	ck_assert_uint_eq(mine[STAT_TEST_ID],
			  mine0[STAT_TEST_ID]); /* others' events are not ours */
	/* Monotonic: reading again gives the same totals. */
	stat_read_all(before);
	ck_assert_int_eq(memcmp(before, after, sizeof(before)), 0);
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_self);
	tcase_add_test(tc, test_threads_sum);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(stats_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
