// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for lib/spinlock.h, lib/mutex.h and lib/rwsem.h: layout, try-lock
 * semantics and mutual exclusion under threads (a plain counter updated in a
 * way that loses updates unless the lock works).  For the queued spinlock:
 * the word's bytes, waiters served in arrival order (pending first, then the
 * queue), a wait nested inside a wait (second node), and queue slots given
 * back by exiting threads and reused.
 */
#include <check.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "lib/atomic.h"
#include "lib/lockref.h"
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

/* More threads than the machine's 2 cores, all taking the slow path. */
#define NQTHREADS 8
#define NQITERS 20000

static int saw_queue, saw_pending;

static void *spin_queue_thread(void *arg)
{
	int iters = (int)(intptr_t)arg;

	for (int i = 0; i < iters; i++) {
		uint32_t v;

		spin_lock(&shared_spin);
		racy_increment(&spin_counter);
		/* Now and then the holder loses its CPU, and the others pile up. */
		if (i % 64 == 0)
			sched_yield();
		v = READ_ONCE(shared_spin.val);
		if (v & SPIN_Q_TAIL_MASK)
			WRITE_ONCE(saw_queue, 1);
		if (v & SPIN_Q_PENDING_MASK)
			WRITE_ONCE(saw_pending, 1);
		spin_unlock(&shared_spin);
	}
	return NULL;
}

static void queue_exclusion(int iters)
{
	pthread_t t[NQTHREADS];

	spin_lock_init(&shared_spin);
	spin_counter = 0;
	saw_queue = saw_pending = 0;
	for (int i = 0; i < NQTHREADS; i++)
		ck_assert_int_eq(
			pthread_create(&t[i], NULL, spin_queue_thread, (void *)(intptr_t)iters), 0);
	for (int i = 0; i < NQTHREADS; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	ck_assert_uint_eq(spin_counter, (unsigned long)NQTHREADS * iters);
	ck_assert_uint_eq(shared_spin.val, 0);
	/* 8 threads on 2 cores: the queue and the pending waiter were used. */
	ck_assert(saw_queue);
	ck_assert(saw_pending);
}

/* The native default: arriving threads may take a free lock ahead of waiters. */
START_TEST(test_spinlock_queue_exclusion)
{
	ck_assert(spin_lock_steal);
	queue_exclusion(NQITERS);
}
END_TEST

/*
 * Bare metal's strict order, as the simulator runs it.  Slow on 2 cores:
 * every preempted waiter holds up all behind it, hence fewer rounds.
 */
START_TEST(test_spinlock_queue_exclusion_fair)
{
	spin_lock_steal = false;
	queue_exclusion(NQITERS / 10);
}
END_TEST

/* A preempted pending or queued waiter does not stop an arriving thread. */
START_TEST(test_spinlock_steal)
{
	spinlock_t l = __SPIN_LOCK_UNLOCKED;
	const uint32_t queued = 3u << SPIN_Q_TAIL_THREAD_SHIFT | 1u << SPIN_Q_TAIL_IDX_SHIFT;

	/* As if a waiter had set pending and lost its CPU. */
	l.val = SPIN_Q_PENDING_VAL;
	spin_lock(&l);
	ck_assert_uint_eq(l.val, SPIN_Q_PENDING_VAL | SPIN_Q_LOCKED_VAL);
	spin_unlock(&l);
	ck_assert_uint_eq(l.val, SPIN_Q_PENDING_VAL);
	/* As if the queue's head had lost its CPU. */
	l.val = queued;
	spin_lock(&l);
	ck_assert_uint_eq(l.val, queued | SPIN_Q_LOCKED_VAL);
	spin_unlock(&l);
	ck_assert_uint_eq(l.val, queued);
}
END_TEST

/* The word's bytes: unlock clears the locked byte and nothing else. */
START_TEST(test_spinlock_word)
{
	spinlock_t l = __SPIN_LOCK_UNLOCKED;

	spin_lock(&l);
	ck_assert_uint_eq(l.val, SPIN_Q_LOCKED_VAL);
	ck_assert_uint_eq(l.locked, 1);
	ck_assert_uint_eq(l.pending, 0);
	ck_assert_uint_eq(l.tail, 0);
	/* As if a pending waiter and a queue had arrived meanwhile. */
	l.val |= SPIN_Q_PENDING_VAL | (5u << SPIN_Q_TAIL_THREAD_SHIFT);
	ck_assert_uint_eq(l.locked_pending, SPIN_Q_PENDING_VAL | SPIN_Q_LOCKED_VAL);
	spin_unlock(&l);
	ck_assert_uint_eq(l.val, SPIN_Q_PENDING_VAL | (5u << SPIN_Q_TAIL_THREAD_SHIFT));
	ck_assert_uint_eq(l.tail, 5u << (SPIN_Q_TAIL_THREAD_SHIFT - 16));
	/* Waiters but no holder: still "locked", and trylock must not jump them. */
	ck_assert(spin_is_locked(&l));
	ck_assert(!spin_value_unlocked(l));
	ck_assert(!spin_trylock(&l));
	l.val = SPIN_Q_PENDING_VAL;
	ck_assert(!spin_trylock(&l));
	l.val = 1u << SPIN_Q_TAIL_IDX_SHIFT;
	ck_assert(!spin_trylock(&l));
	ck_assert(!spin_value_unlocked(l));
	l.val = 0;
	ck_assert(spin_trylock(&l));
	ck_assert_uint_eq(l.val, SPIN_Q_LOCKED_VAL);
	spin_unlock(&l);
	ck_assert_uint_eq(l.val, 0);
}
END_TEST

/* spin_value_unlocked() on the lock half of a copied lockref word. */
START_TEST(test_spinlock_lockref_copy)
{
	struct lockref lr;
	struct lockref copy;

	lockref_init(&lr);
	copy.lock_count = READ_ONCE(lr.lock_count);
	ck_assert(spin_value_unlocked(copy.lock));
	ck_assert_int_eq(copy.count, 1);
	lockref_get(&lr, LOCKREF_RETRY_DEFAULT);
	spin_lock(&lr.lock);
	copy.lock_count = READ_ONCE(lr.lock_count);
	ck_assert(!spin_value_unlocked(copy.lock));
	ck_assert_int_eq(copy.count, 2);
	/* Locked: the lockless path must give up. */
	ck_assert_int_eq(lockref_put_return(&lr, LOCKREF_RETRY_DEFAULT), -1);
	spin_unlock(&lr.lock);
	copy.lock_count = READ_ONCE(lr.lock_count);
	ck_assert(spin_value_unlocked(copy.lock));
	/* A waiter's pending bit alone makes the word "locked" for lockref. */
	lr.lock.val = SPIN_Q_PENDING_VAL;
	ck_assert_int_eq(lockref_put_return(&lr, LOCKREF_RETRY_DEFAULT), -1);
	lr.lock.val = 0;
	ck_assert_int_eq(lockref_put_return(&lr, LOCKREF_RETRY_DEFAULT), 1);
	ck_assert_int_eq(lr.count, 1);
}
END_TEST

static bool wait_for(const uint32_t *word, uint32_t mask, uint32_t not_this)
{
	for (int polls = 0; polls < 10000; polls++) {
		uint32_t v = __atomic_load_n(word, __ATOMIC_ACQUIRE) & mask;

		if (v && v != not_this)
			return true;
		sleep_ms(1);
	}
	return false;
}

static spinlock_t fifo_lock;
static int fifo_order[3], fifo_n;

static void *fifo_waiter(void *arg)
{
	spin_lock(&fifo_lock);
	fifo_order[fifo_n++] = (int)(intptr_t)arg;
	spin_unlock(&fifo_lock);
	return NULL;
}

/*
 * Waiters get the lock in arrival order: the pending one, then the queue
 * (nobody arrives to steal it here, so with stealing or without).
 */
START_TEST(test_spinlock_fifo)
{
	pthread_t t[3];
	uint32_t tail;

	spin_lock_steal = _i == 0;
	spin_lock_init(&fifo_lock);
	fifo_n = 0;
	spin_lock(&fifo_lock);
	ck_assert_int_eq(pthread_create(&t[0], NULL, fifo_waiter, (void *)(intptr_t)0), 0);
	ck_assert(wait_for(&fifo_lock.val, SPIN_Q_PENDING_MASK, 0));
	ck_assert_int_eq(pthread_create(&t[1], NULL, fifo_waiter, (void *)(intptr_t)1), 0);
	ck_assert(wait_for(&fifo_lock.val, SPIN_Q_TAIL_MASK, 0));
	tail = READ_ONCE(fifo_lock.val) & SPIN_Q_TAIL_MASK;
	ck_assert_int_eq(pthread_create(&t[2], NULL, fifo_waiter, (void *)(intptr_t)2), 0);
	ck_assert(wait_for(&fifo_lock.val, SPIN_Q_TAIL_MASK, tail));
	ck_assert_int_eq(fifo_n, 0);
	ck_assert_uint_eq(READ_ONCE(fifo_lock.locked), 1);
	spin_unlock(&fifo_lock);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	ck_assert_int_eq(fifo_n, 3);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(fifo_order[i], i);
	ck_assert_uint_eq(fifo_lock.val, 0);
}
END_TEST

/* Holding one lock while queueing for another (parent and child d_lock). */
static spinlock_t lock_a, lock_b;
static volatile unsigned long count_ab, count_b;

static void *nest_ab(void *arg)
{
	(void)arg;
	for (int i = 0; i < NQITERS / 2; i++) {
		spin_lock(&lock_a);
		spin_lock(&lock_b);
		racy_increment(&count_ab);
		spin_unlock(&lock_b);
		spin_unlock(&lock_a);
	}
	return NULL;
}

static void *nest_b(void *arg)
{
	(void)arg;
	for (int i = 0; i < NQITERS / 2; i++) {
		spin_lock(&lock_b);
		racy_increment(&count_b);
		spin_unlock(&lock_b);
	}
	return NULL;
}

START_TEST(test_spinlock_two_held)
{
	pthread_t t[6];

	spin_lock_init(&lock_a);
	spin_lock_init(&lock_b);
	count_ab = count_b = 0;
	for (int i = 0; i < 6; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, i % 2 ? nest_b : nest_ab, NULL), 0);
	for (int i = 0; i < 6; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	ck_assert_uint_eq(count_ab, 3UL * (NQITERS / 2));
	ck_assert_uint_eq(count_b, 3UL * (NQITERS / 2));
	ck_assert_uint_eq(lock_a.val, 0);
	ck_assert_uint_eq(lock_b.val, 0);
}
END_TEST

/*
 * A wait inside a wait, the way an interrupt nests in the kernel: a thread
 * queued on lock 1 takes a signal whose handler queues on lock 2, with its
 * second node.  Both are then served in order.
 */
static spinlock_t nest1, nest2;
static int handler_got, queued_got;
static uint32_t inner_tail;

static void nest_handler(int sig)
{
	(void)sig;
	spin_lock(&nest2);
	__atomic_store_n(&handler_got, 1, __ATOMIC_RELEASE);
	spin_unlock(&nest2);
}

static void *nest_pending(void *arg)
{
	spinlock_t *l = arg;

	spin_lock(l);
	spin_unlock(l);
	return NULL;
}

static void *nest_queued(void *arg)
{
	(void)arg;
	spin_lock(&nest1);
	/* The handler ran, and finished, while we waited for lock 1. */
	__atomic_store_n(&queued_got, __atomic_load_n(&handler_got, __ATOMIC_ACQUIRE) ? 1 : -1,
			 __ATOMIC_RELEASE);
	spin_unlock(&nest1);
	return NULL;
}

START_TEST(test_spinlock_nested_wait)
{
	struct sigaction sa = { .sa_handler = nest_handler };
	pthread_t p1, q, p2;
	uint32_t tail1;

	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	spin_lock_init(&nest1);
	spin_lock_init(&nest2);
	handler_got = queued_got = 0;
	spin_lock(&nest1);
	spin_lock(&nest2);
	ck_assert_int_eq(pthread_create(&p1, NULL, nest_pending, &nest1), 0);
	ck_assert(wait_for(&nest1.val, SPIN_Q_PENDING_MASK, 0));
	ck_assert_int_eq(pthread_create(&q, NULL, nest_queued, NULL), 0);
	ck_assert(wait_for(&nest1.val, SPIN_Q_TAIL_MASK, 0));
	tail1 = READ_ONCE(nest1.val) & SPIN_Q_TAIL_MASK;
	ck_assert_uint_eq(tail1 >> SPIN_Q_TAIL_IDX_SHIFT & 3, 0); /* first node */
	ck_assert_int_eq(pthread_create(&p2, NULL, nest_pending, &nest2), 0);
	ck_assert(wait_for(&nest2.val, SPIN_Q_PENDING_MASK, 0));
	ck_assert_int_eq(pthread_kill(q, SIGUSR1), 0);
	ck_assert(wait_for(&nest2.val, SPIN_Q_TAIL_MASK, 0));
	inner_tail = READ_ONCE(nest2.val) & SPIN_Q_TAIL_MASK;
	/* Same thread, second node. */
	ck_assert_uint_eq(inner_tail >> SPIN_Q_TAIL_THREAD_SHIFT,
			  tail1 >> SPIN_Q_TAIL_THREAD_SHIFT);
	ck_assert_uint_eq(inner_tail >> SPIN_Q_TAIL_IDX_SHIFT & 3, 1);
	spin_unlock(&nest2);
	ck_assert_int_eq(pthread_join(p2, NULL), 0);
	for (int polls = 0; polls < 10000 && !__atomic_load_n(&handler_got, __ATOMIC_ACQUIRE);
	     polls++)
		sleep_ms(1);
	ck_assert_int_eq(handler_got, 1);
	ck_assert_int_eq(queued_got, 0); /* still queued on lock 1 */
	spin_unlock(&nest1);
	ck_assert_int_eq(pthread_join(p1, NULL), 0);
	ck_assert_int_eq(pthread_join(q, NULL), 0);
	ck_assert_int_eq(queued_got, 1);
	ck_assert_uint_eq(nest1.val, 0);
	ck_assert_uint_eq(nest2.val, 0);
}
END_TEST

/*
 * More short-lived queueing threads over time than the registry has slots:
 * each exiting thread gives its slot back, so with 3 alive at a time only
 * slots 0-2 are ever used.
 */
#define REUSE_ROUNDS (ARCH_NR_CPUS / 3 + 100)

static spinlock_t reuse_lock;
static int reuse_slot[3];

static void *reuse_waiter(void *arg)
{
	int i = (int)(intptr_t)arg;

	spin_lock(&reuse_lock);
	spin_unlock(&reuse_lock);
	reuse_slot[i] = arch_cpu_id();
	return NULL;
}

START_TEST(test_spinlock_slot_reuse)
{
	unsigned int threads = 0, queued = 0;

	spin_lock_init(&reuse_lock);
	ck_assert_uint_eq(arch_cpus_used(), 0);
	for (unsigned int r = 0; r < REUSE_ROUNDS; r++) {
		pthread_t t[3];

		spin_lock(&reuse_lock);
		for (int i = 0; i < 3; i++) {
			reuse_slot[i] = -2;
			ck_assert_int_eq(
				pthread_create(&t[i], NULL, reuse_waiter, (void *)(intptr_t)i), 0);
		}
		/* Let them pile up: at least one queues behind the pending one. */
		for (int polls = 0; polls < 1000 && !(READ_ONCE(reuse_lock.val) & SPIN_Q_TAIL_MASK);
		     polls++)
			sched_yield();
		if (READ_ONCE(reuse_lock.val) & SPIN_Q_TAIL_MASK)
			queued++;
		spin_unlock(&reuse_lock);
		for (int i = 0; i < 3; i++) {
			ck_assert_int_eq(pthread_join(t[i], NULL), 0);
			ck_assert_int_ge(reuse_slot[i], 0);
			ck_assert_int_lt(reuse_slot[i], 3);
		}
		threads += 3;
		ck_assert_uint_eq(arch_cpus_used(), 0);
	}
	ck_assert_uint_gt(threads, ARCH_NR_CPUS);
	/* Numbers are reused, so nr_cpu_ids stays at the most ever live at once. */
	ck_assert_uint_ge(arch_nr_cpu_ids(), 1);
	ck_assert_uint_le(arch_nr_cpu_ids(), 3);
	ck_assert_uint_gt(queued, REUSE_ROUNDS / 4);
	ck_assert_uint_eq(reuse_lock.val, 0);
}
END_TEST

/*
 * Every slot taken by a live thread: a thread that must queue waits
 * unqueued instead, and still gets the lock.
 */
static pthread_barrier_t full_barrier;
static spinlock_t full_lock;
static int full_self;

static void *slot_holder(void *arg)
{
	(void)arg;
	arch_cpu_id();
	pthread_barrier_wait(&full_barrier); /* all slots taken */
	pthread_barrier_wait(&full_barrier); /* the test is done */
	return NULL;
}

static void *slotless_waiter(void *arg)
{
	(void)arg;
	full_self = arch_cpu_id();
	spin_lock(&full_lock);
	spin_unlock(&full_lock);
	return NULL;
}

START_TEST(test_spinlock_slots_full)
{
	pthread_t *holders = calloc(ARCH_NR_CPUS, sizeof(*holders));
	pthread_attr_t attr;
	pthread_t p, x;

	ck_assert_ptr_nonnull(holders);
	ck_assert_int_eq(pthread_attr_init(&attr), 0);
	ck_assert_int_eq(pthread_attr_setstacksize(&attr, 64 << 10), 0);
	ck_assert_int_eq(pthread_barrier_init(&full_barrier, NULL, ARCH_NR_CPUS + 1), 0);
	for (unsigned int i = 0; i < ARCH_NR_CPUS; i++)
		ck_assert_int_eq(pthread_create(&holders[i], &attr, slot_holder, NULL), 0);
	pthread_barrier_wait(&full_barrier);
	ck_assert_uint_eq(arch_cpus_used(), ARCH_NR_CPUS);
	ck_assert_uint_eq(arch_nr_cpu_ids(), ARCH_NR_CPUS);
	ck_assert_int_eq(arch_cpu_id(), -1);

	spin_lock_steal = _i == 0;
	spin_lock_init(&full_lock);
	full_self = -2;
	spin_lock(&full_lock);
	ck_assert_int_eq(pthread_create(&p, &attr, nest_pending, &full_lock), 0);
	ck_assert(wait_for(&full_lock.val, SPIN_Q_PENDING_MASK, 0));
	ck_assert_int_eq(pthread_create(&x, &attr, slotless_waiter, NULL), 0);
	sleep_ms(20); /* x is past the pending bit, with no node to queue */
	ck_assert_uint_eq(READ_ONCE(full_lock.val) & SPIN_Q_TAIL_MASK, 0);
	spin_unlock(&full_lock);
	ck_assert_int_eq(pthread_join(p, NULL), 0);
	ck_assert_int_eq(pthread_join(x, NULL), 0);
	ck_assert_int_eq(full_self, -1);
	ck_assert_uint_eq(full_lock.val, 0);

	pthread_barrier_wait(&full_barrier);
	for (unsigned int i = 0; i < ARCH_NR_CPUS; i++)
		ck_assert_int_eq(pthread_join(holders[i], NULL), 0);
	ck_assert_uint_eq(arch_cpus_used(), 0);
	ck_assert_uint_eq(arch_nr_cpu_ids(), ARCH_NR_CPUS); /* possible CPUs stay possible */
	pthread_barrier_destroy(&full_barrier);
	pthread_attr_destroy(&attr);
	free(holders);
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
	tcase_add_test(tc, test_spinlock_queue_exclusion);
	tcase_add_test(tc, test_spinlock_queue_exclusion_fair);
	tcase_add_test(tc, test_spinlock_steal);
	tcase_add_test(tc, test_spinlock_word);
	tcase_add_test(tc, test_spinlock_lockref_copy);
	tcase_add_loop_test(tc, test_spinlock_fifo, 0, 2);
	tcase_add_test(tc, test_spinlock_two_held);
	tcase_add_test(tc, test_spinlock_nested_wait);
	tcase_add_test(tc, test_spinlock_slot_reuse);
	tcase_add_loop_test(tc, test_spinlock_slots_full, 0, 2);
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
