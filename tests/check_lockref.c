// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for lib/lockref: layout, the semantics of each operation, exact
 * counts under threads, the fast/slow/cas-fail counters, and that the retry
 * budget really bounds the cmpxchg loop.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lib/atomic.h"
#include "lib/lockref.h"
#include "lib/stats.h"

#define NTHREADS 4
#define NITERS 50000

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

struct snap {
	uint64_t fast, slow, fail;
};

static struct snap snap_self(void)
{
	uint64_t v[STAT_NR];

	stat_read_self(v);
	return (struct snap){ v[STAT_LOCKREF_FAST], v[STAT_LOCKREF_SLOW],
			      v[STAT_LOCKREF_CAS_FAIL] };
}

static struct snap snap_all(void)
{
	uint64_t v[STAT_NR];

	stat_read_all(v);
	return (struct snap){ v[STAT_LOCKREF_FAST], v[STAT_LOCKREF_SLOW],
			      v[STAT_LOCKREF_CAS_FAIL] };
}

START_TEST(test_layout)
{
	struct lockref l;

	BUILD_BUG_ON(sizeof(struct lockref) != 8);
	BUILD_BUG_ON(_Alignof(struct lockref) != 8);
	lockref_init(&l);
	ck_assert_int_eq(l.count, 1);
	ck_assert(!spin_is_locked(&l.lock));
	/* Little-endian: the lock is the low half, the count the high half. */
	ck_assert_uint_eq(l.lock_count, (uint64_t)1 << 32);
	spin_lock(&l.lock);
	ck_assert_uint_eq(l.lock_count & 0xffffffffu, 1);
	spin_unlock(&l.lock);
}
END_TEST

START_TEST(test_single_thread_ops)
{
	struct lockref l;
	struct snap a, b;

	lockref_init(&l);
	a = snap_self();
	lockref_get(&l, LOCKREF_RETRY_DEFAULT);
	ck_assert_int_eq(l.count, 2);
	ck_assert(lockref_get_not_zero(&l, LOCKREF_RETRY_DEFAULT));
	ck_assert(lockref_get_not_dead(&l, LOCKREF_RETRY_UNBOUNDED));
	ck_assert_int_eq(l.count, 4);
	ck_assert_int_eq(lockref_put_return(&l, LOCKREF_RETRY_DEFAULT), 3);
	ck_assert(lockref_put_or_lock(&l, LOCKREF_RETRY_DEFAULT));
	ck_assert_int_eq(l.count, 2);
	b = snap_self();
	/* Uncontended: everything went the lockless way. */
	ck_assert_uint_eq(b.fast - a.fast, 5);
	ck_assert_uint_eq(b.slow - a.slow, 0);
	ck_assert_uint_eq(b.fail - a.fail, 0);
	ck_assert(!spin_is_locked(&l.lock));
}
END_TEST

START_TEST(test_get_not_zero_at_zero)
{
	struct lockref l;

	lockref_init(&l);
	ck_assert_int_eq(lockref_put_return(&l, LOCKREF_RETRY_DEFAULT), 0);
	ck_assert(!lockref_get_not_zero(&l, LOCKREF_RETRY_DEFAULT));
	ck_assert_int_eq(l.count, 0);
	/* put_return refuses to go below zero. */
	ck_assert_int_eq(lockref_put_return(&l, LOCKREF_RETRY_DEFAULT), -1);
	ck_assert_int_eq(l.count, 0);
	/* get_not_dead accepts zero: zero is unused, not dead. */
	ck_assert(lockref_get_not_dead(&l, LOCKREF_RETRY_DEFAULT));
	ck_assert_int_eq(l.count, 1);
}
END_TEST

START_TEST(test_mark_dead)
{
	struct lockref l;

	lockref_init(&l);
	ck_assert(!__lockref_is_dead(&l));
	spin_lock(&l.lock);
	lockref_mark_dead(&l);
	ck_assert(__lockref_is_dead(&l));
	ck_assert_int_eq(l.count, LOCKREF_DEAD_COUNT);
	spin_unlock(&l.lock);
	ck_assert(!lockref_get_not_dead(&l, LOCKREF_RETRY_DEFAULT));
	ck_assert(!lockref_get_not_zero(&l, LOCKREF_RETRY_DEFAULT));
	ck_assert_int_eq(lockref_put_return(&l, LOCKREF_RETRY_DEFAULT), -1);
	ck_assert_int_eq(l.count, -128);
	/* Slow paths refuse too. */
	spin_lock(&l.lock);
	ck_assert(__lockref_is_dead(&l));
	spin_unlock(&l.lock);
}
END_TEST

START_TEST(test_put_return_while_locked)
{
	struct lockref l;
	struct snap a, b;

	lockref_init(&l);
	lockref_get(&l, LOCKREF_RETRY_DEFAULT);
	spin_lock(&l.lock);
	a = snap_self();
	ck_assert_int_eq(lockref_put_return(&l, LOCKREF_RETRY_DEFAULT), -1);
	ck_assert_int_eq(lockref_put_return(&l, LOCKREF_RETRY_UNBOUNDED), -1);
	b = snap_self();
	ck_assert_uint_eq(b.slow - a.slow, 2);
	ck_assert_uint_eq(b.fast - a.fast, 0);
	ck_assert_uint_eq(b.fail - a.fail, 0); /* never even tried the cmpxchg */
	ck_assert_int_eq(l.count, 2);
	spin_unlock(&l.lock);
	ck_assert_int_eq(lockref_put_return(&l, LOCKREF_RETRY_DEFAULT), 1);
}
END_TEST

START_TEST(test_put_or_lock_last_ref)
{
	struct lockref l;
	struct snap a, b;

	lockref_init(&l);
	lockref_get(&l, LOCKREF_RETRY_DEFAULT);
	ck_assert(lockref_put_or_lock(&l, LOCKREF_RETRY_DEFAULT));
	ck_assert_int_eq(l.count, 1);
	ck_assert(!spin_is_locked(&l.lock));
	a = snap_self();
	ck_assert(!lockref_put_or_lock(&l, LOCKREF_RETRY_DEFAULT));
	b = snap_self();
	ck_assert_uint_eq(b.slow - a.slow, 1);
	/* Returned with the lock held and the count untouched. */
	ck_assert(spin_is_locked(&l.lock));
	ck_assert_int_eq(l.count, 1);
	l.count--;
	spin_unlock(&l.lock);
	ck_assert_int_eq(l.count, 0);
}
END_TEST

/* --- an op while another thread holds the lock goes the slow way --- */

struct blocked_op {
	struct lockref *l;
	struct snap delta;
	int kind; /* 0: get, 1: get_not_dead, 2: put_or_lock */
	bool result;
};

static void *blocked_op_thread(void *arg)
{
	struct blocked_op *op = arg;
	struct snap a = snap_self(), b;

	switch (op->kind) {
	case 0:
		lockref_get(op->l, LOCKREF_RETRY_DEFAULT);
		op->result = true;
		break;
	case 1:
		op->result = lockref_get_not_dead(op->l, LOCKREF_RETRY_UNBOUNDED);
		break;
	default:
		op->result = lockref_put_or_lock(op->l, LOCKREF_RETRY_DEFAULT);
		break;
	}
	b = snap_self();
	op->delta = (struct snap){ b.fast - a.fast, b.slow - a.slow, b.fail - a.fail };
	return NULL;
}

static void check_blocked_op(int kind, int expect_count)
{
	struct lockref l;
	struct blocked_op op = { .l = &l, .kind = kind };
	struct snap base;
	pthread_t t;
	int polls = 0;

	lockref_init(&l);
	lockref_get(&l, LOCKREF_RETRY_DEFAULT); /* count 2 */
	spin_lock(&l.lock);
	base = snap_all();
	ck_assert_int_eq(pthread_create(&t, NULL, blocked_op_thread, &op), 0);
	/*
	 * The slow path counts itself before it spins on the lock, so once the
	 * global SLOW count moves the thread is committed to the locked path.
	 */
	while (snap_all().slow == base.slow && polls++ < 5000)
		sleep_ms(1);
	ck_assert_uint_eq(snap_all().slow, base.slow + 1);
	sleep_ms(5);
	ck_assert_int_eq(l.count, 2); /* it cannot finish while we hold the lock */
	spin_unlock(&l.lock);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert(op.result);
	ck_assert_uint_eq(op.delta.slow, 1);
	ck_assert_uint_eq(op.delta.fast, 0);
	ck_assert_int_eq(l.count, expect_count);
	ck_assert(!spin_is_locked(&l.lock));
}

START_TEST(test_locked_goes_slow)
{
	check_blocked_op(0, 3);
	check_blocked_op(1, 3);
	check_blocked_op(2, 1);
}
END_TEST

/* --- exact counts under threads --- */

struct hammer {
	struct lockref *l;
	unsigned int retry;
	int mode; /* 0: put_return + locked fallback, 1: put_or_lock */
	int locker; /* also take the lock now and then, like `ls` on d_lock */
	unsigned long max_fail_per_call;
	unsigned long budget_violations; /* a call over budget, or over and not slow */
	struct snap delta;
};

static void put_with_fallback(struct lockref *l, unsigned int retry)
{
	if (lockref_put_return(l, retry) >= 0)
		return;
	/* fast_dput()'s fallback: do it under the lock. */
	spin_lock(&l->lock);
	WRITE_ONCE(l->count, READ_ONCE(l->count) - 1);
	spin_unlock(&l->lock);
}

static void account_call(struct hammer *h, struct snap a, struct snap b)
{
	unsigned long fails = b.fail - a.fail;

	if (fails > h->max_fail_per_call)
		h->max_fail_per_call = fails;
	if (h->retry != LOCKREF_RETRY_UNBOUNDED) {
		/* At most @retry failures, and using them all means giving up. */
		if (fails > h->retry || (fails == h->retry && b.slow == a.slow))
			h->budget_violations++;
	}
}

static int hammer_ready;

/* Start together, or on 2 cores the threads would mostly run one by one. */
static void start_barrier(int *ready, int n)
{
	__atomic_fetch_add(ready, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(ready, __ATOMIC_ACQUIRE) < n)
		cpu_relax();
}

static void *hammer_thread(void *arg)
{
	struct hammer *h = arg;
	struct snap start = snap_self();

	start_barrier(&hammer_ready, NTHREADS);

	for (int i = 0; i < NITERS; i++) {
		struct snap a = snap_self(), b;

		lockref_get(h->l, h->retry);
		b = snap_self();
		account_call(h, a, b);

		if (h->mode == 0) {
			a = snap_self();
			put_with_fallback(h->l, h->retry);
			b = snap_self();
			account_call(h, a, b);
		} else {
			bool ok = lockref_put_or_lock(h->l, h->retry);

			/* The test thread holds a reference, so this is never the last. */
			if (!ok) {
				h->budget_violations++;
				spin_unlock(&h->l->lock);
			}
		}
		if (h->locker && (i % 64) == 0) {
			spin_lock(&h->l->lock);
			cpu_relax();
			spin_unlock(&h->l->lock);
		}
	}
	h->delta = snap_self();
	h->delta.fast -= start.fast;
	h->delta.slow -= start.slow;
	h->delta.fail -= start.fail;
	return NULL;
}

static void run_hammer(unsigned int retry, int mode, int locker, struct hammer *h)
{
	struct lockref l;
	pthread_t t[NTHREADS];

	lockref_init(&l);
	hammer_ready = 0;
	for (int i = 0; i < NTHREADS; i++) {
		h[i] = (struct hammer){
			.l = &l, .retry = retry, .mode = mode, .locker = locker && i == 0
		};
		ck_assert_int_eq(pthread_create(&t[i], NULL, hammer_thread, &h[i]), 0);
	}
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	ck_assert_int_eq(l.count, 1);
	ck_assert(!spin_is_locked(&l.lock));
	if (getenv("VFSLAB_TEST_VERBOSE")) {
		for (int i = 0; i < NTHREADS; i++)
			fprintf(stderr,
				"retry %u mode %d locker %d: fast %lu slow %lu fail %lu max %lu\n",
				retry, mode, locker, (unsigned long)h[i].delta.fast,
				(unsigned long)h[i].delta.slow, (unsigned long)h[i].delta.fail,
				h[i].max_fail_per_call);
	}
}

START_TEST(test_threads_exact_put_return)
{
	struct hammer h[NTHREADS];

	run_hammer(LOCKREF_RETRY_DEFAULT, 0, 0, h);
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_uint_eq(h[i].budget_violations, 0);
}
END_TEST

START_TEST(test_threads_exact_put_or_lock)
{
	struct hammer h[NTHREADS];

	run_hammer(LOCKREF_RETRY_DEFAULT, 1, 0, h);
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_uint_eq(h[i].budget_violations, 0);
}
END_TEST

START_TEST(test_threads_exact_with_locker)
{
	struct hammer h[NTHREADS];

	/* One thread also takes the bare lock, pushing others to the slow path. */
	run_hammer(LOCKREF_RETRY_DEFAULT, 0, 1, h);
	for (int i = 0; i < NTHREADS; i++) {
		ck_assert_uint_eq(h[i].budget_violations, 0);
		/* Every call is counted once, fast or slow. */
		ck_assert_uint_eq(h[i].delta.fast + h[i].delta.slow, 2u * NITERS);
	}
}
END_TEST

/*
 * Unbounded budget, and nobody ever takes the lock: however much the cmpxchg
 * fails, no operation may fall back to the lock.  (With a bounded budget the
 * same workload would go slow after enough failures.)
 */
START_TEST(test_unbounded_never_gives_up)
{
	struct hammer h[NTHREADS];
	uint64_t fast = 0, slow = 0;

	run_hammer(LOCKREF_RETRY_UNBOUNDED, 0, 0, h);
	for (int i = 0; i < NTHREADS; i++) {
		fast += h[i].delta.fast;
		slow += h[i].delta.slow;
	}
	ck_assert_uint_eq(slow, 0);
	ck_assert_uint_eq(fast, 2ULL * NTHREADS * NITERS);
}
END_TEST

/*
 * Budget 1: every call has at most one failed cmpxchg, and a call whose one
 * attempt failed went slow.  Budget 3: at most three.  Checked call by call
 * from the per-thread counters, so it holds whatever the interleaving.
 */
START_TEST(test_budget_bounds_loop)
{
	static const unsigned int budgets[] = { 1, 3 };

	for (unsigned int b = 0; b < ARRAY_SIZE(budgets); b++) {
		struct hammer h[NTHREADS];
		uint64_t fail = 0, slow = 0;

		run_hammer(budgets[b], 0, 0, h);
		for (int i = 0; i < NTHREADS; i++) {
			ck_assert_uint_eq(h[i].budget_violations, 0);
			ck_assert_uint_le(h[i].max_fail_per_call, budgets[b]);
			fail += h[i].delta.fail;
			slow += h[i].delta.slow;
		}
		/* With budget 1 every failure is a slow-path entry. */
		if (budgets[b] == 1)
			ck_assert_uint_ge(slow, fail);
	}
}
END_TEST

static Suite *lockref_suite(void)
{
	Suite *s = suite_create("lockref");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_single_thread_ops);
	tcase_add_test(tc, test_get_not_zero_at_zero);
	tcase_add_test(tc, test_mark_dead);
	tcase_add_test(tc, test_put_return_while_locked);
	tcase_add_test(tc, test_put_or_lock_last_ref);
	tcase_add_test(tc, test_locked_goes_slow);
	tcase_add_test(tc, test_threads_exact_put_return);
	tcase_add_test(tc, test_threads_exact_put_or_lock);
	tcase_add_test(tc, test_threads_exact_with_locker);
	tcase_add_test(tc, test_unbounded_never_gives_up);
	tcase_add_test(tc, test_budget_bounds_loop);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(lockref_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
