// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for lib/spinlock.h, lib/mutex.h and lib/rwsem.h: layout, try-lock
 * semantics and mutual exclusion under threads (a plain counter updated in a
 * way that loses updates unless the lock works).
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "lib/atomic.h"
#include "lib/mutex.h"
#include "lib/rwsem.h"
#include "lib/spinlock.h"

#define NTHREADS 4
#define NITERS 50000

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Read, pause, write: without the lock, two threads interleaving here lose
 * an update almost at once.  volatile keeps the compiler from merging it.
 */
static void racy_increment(volatile unsigned long *counter)
{
	unsigned long v = *counter;

	cpu_relax();
	*counter = v + 1;
}

START_TEST(test_spinlock_basics)
{
	spinlock_t l = __SPIN_LOCK_UNLOCKED;
	DEFINE_SPINLOCK(l2);

	BUILD_BUG_ON(sizeof(spinlock_t) != 4);
	ck_assert_uint_eq(l.val, 0);
	ck_assert_uint_eq(l2.val, 0);
	ck_assert(spin_value_unlocked(l));
	ck_assert(!spin_is_locked(&l));
	spin_lock(&l);
	ck_assert(spin_is_locked(&l));
	ck_assert(!spin_value_unlocked(l));
	assert_spin_locked(&l);
	ck_assert(!spin_trylock(&l));
	spin_unlock(&l);
	ck_assert(spin_trylock(&l));
	ck_assert(spin_is_locked(&l));
	spin_unlock(&l);
	ck_assert_uint_eq(l.val, 0);
	spin_lock_init(&l2);
	ck_assert(!spin_is_locked(&l2));
}
END_TEST

static spinlock_t shared_spin;
static volatile unsigned long spin_counter;

static void *spin_thread(void *arg)
{
	(void)arg;
	for (int i = 0; i < NITERS; i++) {
		if (i & 1) {
			spin_lock(&shared_spin);
		} else {
			while (!spin_trylock(&shared_spin))
				cpu_relax();
		}
		racy_increment(&spin_counter);
		spin_unlock(&shared_spin);
	}
	return NULL;
}

START_TEST(test_spinlock_exclusion)
{
	pthread_t t[NTHREADS];

	spin_lock_init(&shared_spin);
	spin_counter = 0;
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, spin_thread, NULL), 0);
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	ck_assert_uint_eq(spin_counter, (unsigned long)NTHREADS * NITERS);
	ck_assert(!spin_is_locked(&shared_spin));
}
END_TEST

START_TEST(test_mutex_basics)
{
	struct mutex m = __MUTEX_INITIALIZER;
	DEFINE_MUTEX(m2);

	BUILD_BUG_ON(sizeof(struct mutex) > 8);
	ck_assert(!mutex_is_locked(&m));
	ck_assert(!mutex_is_locked(&m2));
	mutex_lock(&m);
	ck_assert(mutex_is_locked(&m));
	ck_assert(!mutex_trylock(&m));
	mutex_unlock(&m);
	ck_assert(mutex_trylock(&m));
	mutex_unlock(&m);
	mutex_init(&m);
	ck_assert(!mutex_is_locked(&m));
}
END_TEST

static struct mutex shared_mutex;
static volatile unsigned long mutex_counter;

static void *mutex_thread(void *arg)
{
	(void)arg;
	for (int i = 0; i < NITERS / 2; i++) {
		mutex_lock(&shared_mutex);
		racy_increment(&mutex_counter);
		mutex_unlock(&shared_mutex);
	}
	return NULL;
}

START_TEST(test_mutex_exclusion)
{
	pthread_t t[NTHREADS];

	mutex_init(&shared_mutex);
	mutex_counter = 0;
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, mutex_thread, NULL), 0);
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	ck_assert_uint_eq(mutex_counter, (unsigned long)NTHREADS * (NITERS / 2));
}
END_TEST

static void *mutex_holder_waiter(void *arg)
{
	struct mutex *m = arg;

	mutex_lock(m); /* blocks until the test thread lets go */
	mutex_unlock(m);
	return NULL;
}

START_TEST(test_mutex_blocks)
{
	struct mutex m = __MUTEX_INITIALIZER;
	pthread_t t;

	mutex_lock(&m);
	ck_assert_int_eq(pthread_create(&t, NULL, mutex_holder_waiter, &m), 0);
	sleep_ms(20); /* the waiter is past its spin budget, yielding */
	ck_assert(mutex_is_locked(&m));
	mutex_unlock(&m);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert(!mutex_is_locked(&m));
}
END_TEST

START_TEST(test_rwsem_basics)
{
	struct rw_semaphore sem;
	DECLARE_RWSEM(sem2);

	BUILD_BUG_ON(sizeof(struct rw_semaphore) != 4);
	init_rwsem(&sem);
	ck_assert(!rwsem_is_locked(&sem));
	ck_assert(!rwsem_is_locked(&sem2));

	down_read(&sem);
	ck_assert(rwsem_is_locked(&sem));
	ck_assert(!rwsem_is_write_locked(&sem));
	ck_assert(down_read_trylock(&sem)); /* readers share */
	ck_assert(!down_write_trylock(&sem));
	up_read(&sem);
	ck_assert(rwsem_is_locked(&sem));
	up_read(&sem);
	ck_assert(!rwsem_is_locked(&sem));

	down_write(&sem);
	ck_assert(rwsem_is_write_locked(&sem));
	ck_assert(!down_read_trylock(&sem));
	ck_assert(!down_write_trylock(&sem));
	up_write(&sem);
	ck_assert(!rwsem_is_locked(&sem));
	ck_assert(down_write_trylock(&sem));
	up_write(&sem);
	ck_assert_uint_eq(sem.count, 0);
}
END_TEST

static struct rw_semaphore shared_sem;
static volatile unsigned long rw_a, rw_b;
static int rw_bad_reads;

static void *rwsem_writer(void *arg)
{
	(void)arg;
	for (int i = 0; i < NITERS / 5; i++) {
		down_write(&shared_sem);
		racy_increment(&rw_a);
		cpu_relax();
		racy_increment(&rw_b);
		up_write(&shared_sem);
	}
	return NULL;
}

static void *rwsem_reader(void *arg)
{
	(void)arg;
	for (int i = 0; i < NITERS / 5; i++) {
		down_read(&shared_sem);
		if (rw_a != rw_b)
			__atomic_fetch_add(&rw_bad_reads, 1, __ATOMIC_RELAXED);
		up_read(&shared_sem);
	}
	return NULL;
}

START_TEST(test_rwsem_exclusion)
{
	pthread_t w[2], r[2];

	init_rwsem(&shared_sem);
	rw_a = rw_b = 0;
	rw_bad_reads = 0;
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(pthread_create(&w[i], NULL, rwsem_writer, NULL), 0);
		ck_assert_int_eq(pthread_create(&r[i], NULL, rwsem_reader, NULL), 0);
	}
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(pthread_join(w[i], NULL), 0);
		ck_assert_int_eq(pthread_join(r[i], NULL), 0);
	}
	ck_assert_uint_eq(rw_a, 2UL * (NITERS / 5));
	ck_assert_uint_eq(rw_b, 2UL * (NITERS / 5));
	ck_assert_int_eq(rw_bad_reads, 0);
	ck_assert_uint_eq(shared_sem.count, 0);
}
END_TEST

static int writer_done;

static void *rwsem_blocked_writer(void *arg)
{
	struct rw_semaphore *sem = arg;

	down_write(sem);
	__atomic_store_n(&writer_done, 1, __ATOMIC_RELEASE);
	up_write(sem);
	return NULL;
}

/* A waiting writer holds back new readers, so readers cannot starve it. */
START_TEST(test_rwsem_writer_waiting)
{
	struct rw_semaphore sem = __RWSEM_INITIALIZER;
	pthread_t t;
	int polls = 0;

	writer_done = 0;
	down_read(&sem);
	ck_assert_int_eq(pthread_create(&t, NULL, rwsem_blocked_writer, &sem), 0);
	while (!(READ_ONCE(sem.count) & RWSEM_WRITER_WAITING) && polls++ < 5000)
		sleep_ms(1);
	ck_assert(READ_ONCE(sem.count) & RWSEM_WRITER_WAITING);
	ck_assert(!down_read_trylock(&sem));
	ck_assert_int_eq(__atomic_load_n(&writer_done, __ATOMIC_ACQUIRE), 0);
	up_read(&sem);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(writer_done, 1);
	ck_assert_uint_eq(sem.count, 0); /* WAITING cleared by the new owner */
}
END_TEST

static Suite *spinlock_suite(void)
{
	Suite *s = suite_create("locks");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_spinlock_basics);
	tcase_add_test(tc, test_spinlock_exclusion);
	tcase_add_test(tc, test_mutex_basics);
	tcase_add_test(tc, test_mutex_exclusion);
	tcase_add_test(tc, test_mutex_blocks);
	tcase_add_test(tc, test_rwsem_basics);
	tcase_add_test(tc, test_rwsem_exclusion);
	tcase_add_test(tc, test_rwsem_writer_waiting);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(spinlock_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
