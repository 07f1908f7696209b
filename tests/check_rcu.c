// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for lib/rcu: call_rcu() callbacks wait for readers that were inside
 * when they were queued, synchronize_rcu() waits for a pre-existing reader,
 * rcu_barrier() flushes callbacks, rcu_defer_free() runs its function,
 * rcu_callbacks_per_cpu() runs a callback on the CPU that queued it, and
 * the pointer publication macros.  RCU is set up inside each test (Check
 * forks per test and liburcu's call_rcu thread must live in the child).
 */
#include <check.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "lib/atomic.h"
#include "lib/rcu.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* A reader thread that enters, says so, and leaves when told (bounded). */
static int reader_inside, reader_may_leave, reader_left;

static void *holding_reader(void *arg)
{
	long waited = 0;

	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	__atomic_store_n(&reader_inside, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&reader_may_leave, __ATOMIC_ACQUIRE) && waited++ < 10000)
		sleep_ms(1);
	/* Set before unlocking: a grace period that ends must see it. */
	__atomic_store_n(&reader_left, 1, __ATOMIC_RELEASE);
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

static void start_reader(pthread_t *t)
{
	reader_inside = reader_may_leave = reader_left = 0;
	ck_assert_int_eq(pthread_create(t, NULL, holding_reader, NULL), 0);
	while (!__atomic_load_n(&reader_inside, __ATOMIC_ACQUIRE))
		sleep_ms(1);
}

struct cb_probe {
	struct rcu_head head;
	int ran;
	int reader_had_left;
};

static void probe_cb(struct rcu_head *head)
{
	struct cb_probe *p = container_of(head, struct cb_probe, head);

	p->reader_had_left = __atomic_load_n(&reader_left, __ATOMIC_ACQUIRE);
	__atomic_store_n(&p->ran, 1, __ATOMIC_RELEASE);
}

START_TEST(test_call_rcu_waits_for_reader)
{
	struct cb_probe probe = { .ran = 0 };
	pthread_t t;

	rcu_register_thread();
	start_reader(&t);
	call_rcu(&probe.head, probe_cb);
	/* Give the callback every chance to run early: it must not. */
	for (int i = 0; i < 200; i++) {
		ck_assert_int_eq(__atomic_load_n(&probe.ran, __ATOMIC_ACQUIRE), 0);
		sleep_ms(1);
	}
	__atomic_store_n(&reader_may_leave, 1, __ATOMIC_RELEASE);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	rcu_barrier();
	ck_assert_int_eq(__atomic_load_n(&probe.ran, __ATOMIC_ACQUIRE), 1);
	ck_assert_int_eq(probe.reader_had_left, 1);
	rcu_unregister_thread();
}
END_TEST

static int sync_done;

static void *syncer(void *arg)
{
	(void)arg;
	rcu_register_thread();
	synchronize_rcu();
	__atomic_store_n(&sync_done, __atomic_load_n(&reader_left, __ATOMIC_ACQUIRE) ? 1 : -1,
			 __ATOMIC_RELEASE);
	rcu_unregister_thread();
	return NULL;
}

START_TEST(test_synchronize_rcu_waits)
{
	pthread_t r, s;

	sync_done = 0;
	start_reader(&r);
	ck_assert_int_eq(pthread_create(&s, NULL, syncer, NULL), 0);
	for (int i = 0; i < 100; i++) {
		ck_assert_int_eq(__atomic_load_n(&sync_done, __ATOMIC_ACQUIRE), 0);
		sleep_ms(1);
	}
	__atomic_store_n(&reader_may_leave, 1, __ATOMIC_RELEASE);
	ck_assert_int_eq(pthread_join(s, NULL), 0);
	ck_assert_int_eq(pthread_join(r, NULL), 0);
	/* 1: it returned only after the reader had left. */
	ck_assert_int_eq(sync_done, 1);
}
END_TEST

START_TEST(test_synchronize_rcu_no_readers)
{
	rcu_register_thread();
	ck_assert(!rcu_read_lock_held());
	rcu_read_lock();
	ck_assert(rcu_read_lock_held());
	rcu_read_lock(); /* nests */
	rcu_read_unlock();
	ck_assert(rcu_read_lock_held());
	rcu_read_unlock();
	ck_assert(!rcu_read_lock_held());
	synchronize_rcu();
	rcu_barrier(); /* nothing queued: returns */
	rcu_unregister_thread();
}
END_TEST

static int deferred_calls;

static void deferred_fn(void *ctx, void *obj)
{
	int *slot = obj;

	__atomic_fetch_add((int *)ctx, 1, __ATOMIC_RELAXED);
	free(slot);
}

START_TEST(test_rcu_defer_free)
{
	rcu_register_thread();
	deferred_calls = 0;
	for (int i = 0; i < 100; i++) {
		int *p = malloc(sizeof(*p));

		ck_assert_ptr_nonnull(p);
		rcu_defer_free(p, deferred_fn, &deferred_calls);
	}
	rcu_barrier();
	ck_assert_int_eq(__atomic_load_n(&deferred_calls, __ATOMIC_RELAXED), 100);
	rcu_unregister_thread();
}
END_TEST

struct cfg {
	int a, b;
};

static struct cfg *published;

struct cpu_probe {
	struct rcu_head head;
	int ran_on;
};

static void cpu_probe_cb(struct rcu_head *head)
{
	struct cpu_probe *p = container_of(head, struct cpu_probe, head);

	WRITE_ONCE(p->ran_on, sched_getcpu());
}

/* Pinned to each CPU it may use in turn, a thread's callbacks run there. */
START_TEST(test_callbacks_per_cpu)
{
	cpu_set_t allowed, one;
	int tried = 0;

	rcu_register_thread();
	ck_assert_int_eq(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	ck_assert_int_eq(rcu_callbacks_per_cpu(), 0);
	ck_assert_int_eq(rcu_callbacks_per_cpu(), 0); /* once is enough */
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		struct cpu_probe p = { .ran_on = -1 };

		if (!CPU_ISSET(cpu, &allowed))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);
		call_rcu(&p.head, cpu_probe_cb);
		rcu_barrier();
		ck_assert_int_eq(READ_ONCE(p.ran_on), cpu);
		tried++;
	}
	ck_assert_int_gt(tried, 0);
	sched_setaffinity(0, sizeof(allowed), &allowed);
	rcu_unregister_thread();
}
END_TEST

START_TEST(test_pointer_publication)
{
	struct cfg *c = malloc(sizeof(*c));
	struct cfg *seen;

	ck_assert_ptr_nonnull(c);
	RCU_INIT_POINTER(published, NULL);
	ck_assert_ptr_null(rcu_access_pointer(published));
	c->a = 1;
	c->b = 2;
	rcu_assign_pointer(published, c);
	rcu_register_thread();
	rcu_read_lock();
	seen = rcu_dereference(published);
	ck_assert_ptr_eq(seen, c);
	ck_assert_int_eq(seen->a + seen->b, 3);
	rcu_read_unlock();
	ck_assert_ptr_eq(rcu_dereference_protected(published, 1), c);
	rcu_assign_pointer(published, NULL);
	synchronize_rcu();
	free(c);
	rcu_unregister_thread();
	BUILD_BUG_ON(sizeof(struct rcu_head) != 16);
}
END_TEST

static Suite *rcu_suite(void)
{
	Suite *s = suite_create("rcu");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_call_rcu_waits_for_reader);
	tcase_add_test(tc, test_synchronize_rcu_waits);
	tcase_add_test(tc, test_synchronize_rcu_no_readers);
	tcase_add_test(tc, test_rcu_defer_free);
	tcase_add_test(tc, test_callbacks_per_cpu);
	tcase_add_test(tc, test_pointer_publication);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(rcu_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
