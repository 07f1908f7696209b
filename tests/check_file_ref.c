// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for lib/file_ref: zone arithmetic (one ref stored as 0, dead and
 * saturation zones), exact counts under threads, and that exactly one of many
 * racing final puts wins, round after round.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/atomic.h"
#include "lib/bug.h"
#include "lib/file_ref.h"

#define NTHREADS 4
#define NITERS 100000
#define NROUNDS 5000

START_TEST(test_one_ref_lifecycle)
{
	file_ref_t ref;

	BUILD_BUG_ON(sizeof(file_ref_t) != 8);
	file_ref_init(&ref, 1);
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_ONEREF);
	ck_assert_uint_eq(file_ref_read(&ref), 1);
	ck_assert(file_ref_get(&ref));
	ck_assert_uint_eq(__file_ref_read_raw(&ref), 1);
	ck_assert_uint_eq(file_ref_read(&ref), 2);
	file_ref_inc(&ref);
	ck_assert_uint_eq(file_ref_read(&ref), 3);
	ck_assert(!file_ref_put(&ref));
	ck_assert(!file_ref_put(&ref));
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_ONEREF);
	ck_assert(file_ref_put(&ref)); /* the last one: caller frees */
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_DEAD);
	ck_assert_uint_eq(file_ref_read(&ref), 0);

	file_ref_init(&ref, 3);
	ck_assert_uint_eq(__file_ref_read_raw(&ref), 2);
	file_ref_init(&ref, 0);
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_NOREF);
	ck_assert_uint_eq(file_ref_read(&ref), 0);
}
END_TEST

START_TEST(test_get_after_death)
{
	file_ref_t ref;
	unsigned long warns;

	file_ref_init(&ref, 1);
	ck_assert(file_ref_put(&ref));
	for (int i = 0; i < 10; i++)
		ck_assert(!file_ref_get(&ref));
	/* Failed gets are not undone, but the value stays deep in the dead zone. */
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_DEAD + 10);
	ck_assert_uint_eq(file_ref_read(&ref), 0);

	/* A put on a dead file is an imbalance: warn, pin DEAD, never "free" again. */
	warns = bug_warn_count();
	ck_assert(!file_ref_put(&ref));
	ck_assert_uint_eq(bug_warn_count(), warns + 1);
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_DEAD);
	ck_assert(!file_ref_put_close(&ref));
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_DEAD);

	/* file_ref_inc() on a dead file warns (once per site, counted each time). */
	warns = bug_warn_count();
	file_ref_inc(&ref);
	ck_assert_uint_eq(bug_warn_count(), warns + 1);
}
END_TEST

START_TEST(test_noref_boundary)
{
	file_ref_t ref;

	/* A get racing with the last put: the value passes through NOREF. */
	atomic_long_set(&ref.refcnt, (long)FILE_REF_NOREF);
	ck_assert(file_ref_get(&ref)); /* NOREF + 1 = ONEREF: resurrected */
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_ONEREF);
	ck_assert(file_ref_put(&ref));
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_DEAD);

	/* Just inside the dead zone. */
	atomic_long_set(&ref.refcnt, (long)FILE_REF_RELEASED);
	ck_assert_uint_eq(file_ref_read(&ref), 0);
	ck_assert(!file_ref_get(&ref));
}
END_TEST

START_TEST(test_saturation)
{
	file_ref_t ref;

	/* At the top of the valid zone a get fails (the result is negative). */
	atomic_long_set(&ref.refcnt, (long)FILE_REF_MAXREF);
	ck_assert_uint_eq(file_ref_read(&ref), FILE_REF_MAXREF + 1);
	ck_assert(!file_ref_get(&ref));
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_MAXREF + 1);

	/* In the saturation zone gets keep failing ... */
	atomic_long_set(&ref.refcnt, (long)FILE_REF_SATURATED);
	for (int i = 0; i < 5; i++)
		ck_assert(!file_ref_get(&ref));
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_SATURATED + 5);
	/* ... and every put resets it to SATURATED: never valid, never dead. */
	for (int i = 0; i < 5; i++) {
		ck_assert(!file_ref_put(&ref));
		ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_SATURATED);
	}
	ck_assert(!file_ref_put_close(&ref));
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_SATURATED);

	/* Edges of the zone. */
	atomic_long_set(&ref.refcnt, (long)(FILE_REF_MAXREF + 2));
	ck_assert(!file_ref_put(&ref));
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_SATURATED);
	atomic_long_set(&ref.refcnt, (long)(FILE_REF_RELEASED - 1));
	ck_assert(!file_ref_get(&ref)); /* lands on RELEASED: dead zone */
	ck_assert_uint_eq(file_ref_read(&ref), 0);
	atomic_long_set(&ref.refcnt, (long)(FILE_REF_RELEASED - 1));
	ck_assert(!file_ref_put(&ref));
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_SATURATED);
}
END_TEST

START_TEST(test_put_close)
{
	file_ref_t ref;

	/* Fast path: the only reference goes ONEREF -> DEAD in one cmpxchg. */
	file_ref_init(&ref, 1);
	ck_assert(file_ref_put_close(&ref));
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_DEAD);

	/* Fallback: more than one reference, so it is an ordinary put. */
	file_ref_init(&ref, 2);
	ck_assert(!file_ref_put_close(&ref));
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_ONEREF);
	ck_assert(file_ref_put_close(&ref));
	ck_assert_uint_eq(__file_ref_read_raw(&ref), FILE_REF_DEAD);
}
END_TEST

static file_ref_t shared_ref;
static int start_count;

static void start_barrier(int *ready, int n)
{
	__atomic_fetch_add(ready, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(ready, __ATOMIC_ACQUIRE) < n)
		cpu_relax();
}

static void *get_put_thread(void *arg)
{
	long bad = 0;

	(void)arg;
	start_barrier(&start_count, NTHREADS);
	for (int i = 0; i < NITERS; i++) {
		if (!file_ref_get(&shared_ref))
			bad++;
		if (i & 1)
			file_ref_inc(&shared_ref);
		if (file_ref_put(&shared_ref))
			bad++;
		if ((i & 1) && file_ref_put_close(&shared_ref))
			bad++;
	}
	return (void *)bad;
}

START_TEST(test_threads_exact)
{
	pthread_t t[NTHREADS];

	file_ref_init(&shared_ref, 1);
	start_count = 0;
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, get_put_thread, NULL), 0);
	for (int i = 0; i < NTHREADS; i++) {
		void *bad;

		ck_assert_int_eq(pthread_join(t[i], &bad), 0);
		ck_assert_ptr_null(bad);
	}
	ck_assert_uint_eq(file_ref_read(&shared_ref), 1);
	ck_assert_uint_eq(__file_ref_read_raw(&shared_ref), FILE_REF_ONEREF);
	ck_assert(file_ref_put(&shared_ref));
}
END_TEST

/*
 * Racing final puts.  Each round the file starts with NTHREADS references.
 * Every thread drops its own and then keeps trying speculative gets, the
 * way __fget_files_rcu() does on an fd slot that is being closed: a get can
 * land between the last put's decrement and its NOREF -> DEAD cmpxchg, and
 * must then win the file back.  Exactly one put per round may report "last",
 * and nobody may find the file freed while holding a good reference.
 */
#define SPECULATIVE_GETS 8

static pthread_barrier_t round_barrier;
static file_ref_t round_ref;
static int round_winners;
static int round_freed; /* set by the winner: "the file is gone" */
static int use_after_free; /* a holder of a good reference saw it gone */
static int resurrections; /* gets that succeeded after their own put */

static void round_win(void)
{
	__atomic_fetch_add(&round_winners, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&round_freed, 1, __ATOMIC_RELAXED);
}

static void *final_put_thread(void *arg)
{
	unsigned long idx = (unsigned long)arg;

	for (int r = 0; r < NROUNDS; r++) {
		pthread_barrier_wait(&round_barrier); /* round set up */
		if ((idx == 0 && (r & 1)) ? file_ref_put_close(&round_ref) :
					    file_ref_put(&round_ref))
			round_win();
		for (int g = 0; g < SPECULATIVE_GETS; g++) {
			if (!file_ref_get(&round_ref))
				continue;
			__atomic_fetch_add(&resurrections, 1, __ATOMIC_RELAXED);
			/* Holding a real reference: nobody may have freed it. */
			cpu_relax();
			if (__atomic_load_n(&round_freed, __ATOMIC_RELAXED))
				__atomic_fetch_add(&use_after_free, 1, __ATOMIC_RELAXED);
			if (file_ref_put(&round_ref))
				round_win();
		}
		pthread_barrier_wait(&round_barrier); /* round done */
	}
	return NULL;
}

START_TEST(test_exactly_one_final_put)
{
	pthread_t t[NTHREADS];
	int bad_rounds = 0;
	unsigned long warns = bug_warn_count();

	use_after_free = 0;
	resurrections = 0;
	ck_assert_int_eq(pthread_barrier_init(&round_barrier, NULL, NTHREADS + 1), 0);
	for (unsigned long i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, final_put_thread, (void *)i), 0);
	for (int r = 0; r < NROUNDS; r++) {
		file_ref_init(&round_ref, NTHREADS);
		__atomic_store_n(&round_winners, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&round_freed, 0, __ATOMIC_RELAXED);
		pthread_barrier_wait(&round_barrier);
		pthread_barrier_wait(&round_barrier);
		if (__atomic_load_n(&round_winners, __ATOMIC_RELAXED) != 1 ||
		    file_ref_read(&round_ref) != 0)
			bad_rounds++;
	}
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	pthread_barrier_destroy(&round_barrier);
	ck_assert_int_eq(bad_rounds, 0);
	ck_assert_int_eq(use_after_free, 0);
	ck_assert_uint_eq(bug_warn_count(), warns); /* no imbalanced put */
	if (getenv("VFSLAB_TEST_VERBOSE"))
		fprintf(stderr, "file_ref rounds: %d successful speculative gets\n", resurrections);
}
END_TEST

static Suite *file_ref_suite(void)
{
	Suite *s = suite_create("file_ref");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_one_ref_lifecycle);
	tcase_add_test(tc, test_get_after_death);
	tcase_add_test(tc, test_noref_boundary);
	tcase_add_test(tc, test_saturation);
	tcase_add_test(tc, test_put_close);
	tcase_add_test(tc, test_threads_exact);
	tcase_add_test(tc, test_exactly_one_final_put);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(file_ref_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
