// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for lib/atomic.h, lib/compiler.h and lib/bug.h: return values and
 * ordering-free arithmetic of the atomic families, the inc-not-zero loop that
 * the pre-6.13 f_count used, and WARN/BUG behaviour.
 */
#include <check.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/atomic.h"
#include "lib/bug.h"
#include "lib/compiler.h"

#define NTHREADS 4
#define NITERS 100000

START_TEST(test_atomic_int_ops)
{
	atomic_t v = ATOMIC_INIT(5);
	int old;

	ck_assert_int_eq(atomic_read(&v), 5);
	atomic_set(&v, 10);
	ck_assert_int_eq(atomic_read_acquire(&v), 10);
	atomic_set_release(&v, 11);
	atomic_inc(&v);
	atomic_dec(&v);
	atomic_add(4, &v);
	atomic_sub(2, &v);
	ck_assert_int_eq(atomic_read(&v), 13);
	ck_assert_int_eq(atomic_inc_return(&v), 14);
	ck_assert_int_eq(atomic_dec_return(&v), 13);
	ck_assert_int_eq(atomic_add_return(7, &v), 20);
	ck_assert_int_eq(atomic_sub_return(5, &v), 15);
	ck_assert_int_eq(atomic_fetch_add(5, &v), 15);
	ck_assert_int_eq(atomic_fetch_sub(10, &v), 20);
	ck_assert_int_eq(atomic_fetch_inc_relaxed(&v), 10);
	ck_assert_int_eq(atomic_read(&v), 11);

	atomic_set(&v, 1);
	ck_assert(atomic_dec_and_test(&v));
	ck_assert(!atomic_dec_and_test(&v));
	ck_assert(atomic_inc_and_test(&v));
	ck_assert(!atomic_inc_and_test(&v));
	ck_assert(atomic_add_negative(-2, &v));
	ck_assert(!atomic_add_negative(1, &v)); /* -1 + 1 = 0 is not negative */

	atomic_set(&v, 3);
	ck_assert_int_eq(atomic_cmpxchg(&v, 3, 4), 3);
	ck_assert_int_eq(atomic_cmpxchg(&v, 3, 5), 4); /* failed: returns current */
	ck_assert_int_eq(atomic_read(&v), 4);
	old = 7;
	ck_assert(!atomic_try_cmpxchg(&v, &old, 8));
	ck_assert_int_eq(old, 4); /* refreshed on failure */
	ck_assert(atomic_try_cmpxchg(&v, &old, 8));
	ck_assert(atomic_try_cmpxchg_relaxed(&v, &old, 9) == false);
	old = 8;
	ck_assert(atomic_try_cmpxchg_acquire(&v, &old, 9));
	old = 9;
	ck_assert(atomic_try_cmpxchg_release(&v, &old, 10));
	ck_assert_int_eq(atomic_xchg(&v, 42), 10);
	ck_assert_int_eq(atomic_read(&v), 42);
}
END_TEST

START_TEST(test_atomic_long_and_64)
{
	atomic_long_t l = ATOMIC_LONG_INIT(0);
	atomic64_t q = ATOMIC64_INIT(INT64_MAX);
	long lold;
	int64_t qold;
	uint64_t w = 5, wold;

	ck_assert_int_eq(atomic_long_dec_return(&l), -1);
	ck_assert(atomic_long_add_negative(0, &l));
	ck_assert(!atomic_long_add_negative(1, &l));
	lold = 0;
	ck_assert(atomic_long_try_cmpxchg(&l, &lold, 100));
	ck_assert_int_eq(atomic_long_fetch_add(1, &l), 100);
	ck_assert_int_eq(atomic_long_cmpxchg(&l, 101, 7), 101);
	ck_assert_int_eq(atomic_long_xchg(&l, 9), 7);

	/* Wraps like the kernel's atomics: INT64_MAX + 1 is negative. */
	ck_assert(atomic64_add_negative(1, &q));
	ck_assert_int_eq(atomic64_read(&q), INT64_MIN);
	qold = INT64_MIN;
	ck_assert(atomic64_try_cmpxchg(&q, &qold, 3));
	ck_assert_int_eq(atomic64_sub_return(3, &q), 0);

	wold = 4;
	ck_assert(!try_cmpxchg64_acq_rel(&w, &wold, 6));
	ck_assert_uint_eq(wold, 5);
	ck_assert(try_cmpxchg64_acq_rel(&w, &wold, 6));
	ck_assert_uint_eq(w, 6);
}
END_TEST

START_TEST(test_inc_not_zero_single)
{
	atomic_long_t l = ATOMIC_LONG_INIT(0);
	atomic_t i = ATOMIC_INIT(0);

	ck_assert(!atomic_long_inc_not_zero(&l));
	ck_assert_int_eq(atomic_long_read(&l), 0);
	ck_assert(!atomic_inc_not_zero(&i));
	atomic_long_set(&l, 1);
	ck_assert(atomic_long_inc_not_zero(&l));
	ck_assert_int_eq(atomic_long_read(&l), 2);
	/* The old f_count scheme: put with dec_and_test, and a dead count stays dead. */
	ck_assert(!atomic_long_dec_and_test(&l));
	ck_assert(atomic_long_dec_and_test(&l));
	ck_assert(!atomic_long_inc_not_zero(&l));
	atomic_set(&i, -1);
	ck_assert(atomic_inc_not_zero(&i)); /* only 0 is refused */
	ck_assert_int_eq(atomic_read(&i), 0);
}
END_TEST

static atomic_long_t shared_long;
static atomic_t shared_int;

static void *inc_not_zero_thread(void *arg)
{
	long refused = 0;

	(void)arg;
	for (int i = 0; i < NITERS; i++) {
		if (!atomic_long_inc_not_zero(&shared_long))
			refused++;
		atomic_inc(&shared_int);
	}
	return (void *)refused;
}

START_TEST(test_inc_not_zero_threads)
{
	pthread_t t[NTHREADS];

	atomic_long_set(&shared_long, 1);
	atomic_set(&shared_int, 0);
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, inc_not_zero_thread, NULL), 0);
	for (int i = 0; i < NTHREADS; i++) {
		void *ret;

		ck_assert_int_eq(pthread_join(t[i], &ret), 0);
		ck_assert_ptr_null(ret);
	}
	ck_assert_int_eq(atomic_long_read(&shared_long), 1 + (long)NTHREADS * NITERS);
	ck_assert_int_eq(atomic_read(&shared_int), NTHREADS * NITERS);
}
END_TEST

static void *dec_thread(void *arg)
{
	long zero_hits = 0;

	(void)arg;
	for (int i = 0; i < NITERS; i++)
		if (atomic_long_dec_and_test(&shared_long))
			zero_hits++;
	return (void *)zero_hits;
}

START_TEST(test_dec_and_test_exactly_once)
{
	pthread_t t[NTHREADS];
	long hits = 0;

	atomic_long_set(&shared_long, (long)NTHREADS * NITERS);
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, dec_thread, NULL), 0);
	for (int i = 0; i < NTHREADS; i++) {
		void *ret;

		ck_assert_int_eq(pthread_join(t[i], &ret), 0);
		hits += (long)ret;
	}
	ck_assert_int_eq(hits, 1);
	ck_assert_int_eq(atomic_long_read(&shared_long), 0);
}
END_TEST

struct outer {
	int a;
	long b;
	char c;
};

START_TEST(test_compiler_helpers)
{
	int arr[7];
	struct outer o;
	int x = 3;
	int n = 0;

	ck_assert_uint_eq(ARRAY_SIZE(arr), 7);
	ck_assert_ptr_eq(container_of(&o.c, struct outer, c), &o);
	ck_assert_ptr_eq(container_of(&o.b, struct outer, b), &o);
	ck_assert_int_eq(min(3, 5), 3);
	ck_assert_int_eq(max(3, 5), 5);
	ck_assert_int_eq(min(max(1, 2), min(9, 4)), 2);
	ck_assert_int_eq(min_t(long, -1, 2L), -1);
	ck_assert_uint_eq(max_t(unsigned int, 3, 9), 9);
	ck_assert_int_eq(clamp(10, 0, 5), 5);
	ck_assert_int_eq(clamp(-3, 0, 5), 0);
	ck_assert_int_eq(clamp(4, 0, 5), 4);
	/* Arguments are evaluated once. */
	ck_assert_int_eq(min(n++, 10), 0);
	ck_assert_int_eq(n, 1);
	ck_assert_uint_eq(ALIGN(65UL, 64), 128);
	ck_assert_uint_eq(ALIGN(64UL, 64), 64);
	ck_assert_uint_eq(ALIGN_DOWN(127UL, 64), 64);
	ck_assert_uint_eq(DIV_ROUND_UP(129, 64), 3);
	ck_assert_uint_eq(DIV_ROUND_UP(128, 64), 2);
	ck_assert(likely(x == 3));
	ck_assert(!unlikely(x != 3));
	WRITE_ONCE(x, 4);
	ck_assert_int_eq(READ_ONCE(x), 4);
	smp_mb();
	smp_rmb();
	smp_wmb();
	smp_store_release(&x, 5);
	ck_assert_int_eq(smp_load_acquire(&x), 5);
	cpu_relax();
	barrier();
	BUILD_BUG_ON(sizeof(atomic_t) != 4);
	BUILD_BUG_ON(sizeof(atomic_long_t) != 8);
	BUILD_BUG_ON(L1_CACHE_BYTES != 64);
}
END_TEST

START_TEST(test_warn)
{
	unsigned long before = bug_warn_count();
	int hits = 0;

	ck_assert(!WARN_ON(1 == 2));
	ck_assert_uint_eq(bug_warn_count(), before);
	ck_assert(WARN_ON(2 > 1));
	ck_assert_uint_eq(bug_warn_count(), before + 1);
	for (int i = 0; i < 3; i++)
		if (WARN_ON_ONCE(i >= 0))
			hits++;
	ck_assert_int_eq(hits, 3); /* true every time ... */
	ck_assert_uint_eq(bug_warn_count(), before + 4); /* ... and counted */
	ck_assert(WARN(1, "with a message %d", 42));
	ck_assert(!WARN_ONCE(0, "never"));
	ck_assert_uint_eq(bug_warn_count(), before + 5);
	BUG_ON(0);
}
END_TEST

START_TEST(test_bug_aborts)
{
	volatile int one = 1;

	BUG_ON(one == 1);
}
END_TEST

static Suite *atomic_suite(void)
{
	Suite *s = suite_create("atomic");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_atomic_int_ops);
	tcase_add_test(tc, test_atomic_long_and_64);
	tcase_add_test(tc, test_inc_not_zero_single);
	tcase_add_test(tc, test_inc_not_zero_threads);
	tcase_add_test(tc, test_dec_and_test_exactly_once);
	tcase_add_test(tc, test_compiler_helpers);
	tcase_add_test(tc, test_warn);
	tcase_add_test_raise_signal(tc, test_bug_aborts, SIGABRT);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(atomic_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
