// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The queued spinlock's thief window, hit on purpose (lib/fault_inject.h;
 * this program's copy of lib/spinlock.c has its delay points on).
 *
 * The head of the queue, still its tail, finds the lock free and tries to
 * take it and empty the queue in one compare-and-swap.  A thread arriving
 * in the slow path natively takes the locked byte if it reads free
 * (spin_lock_steal): here it does so just before that compare-and-swap,
 * which then fails, and lets go just after.  A head that then takes the
 * byte alone, as it would with a waiter queued behind it, waits for that
 * waiter to link in, and nobody ever will: the lock hangs, and Check
 * reports the test's timeout.  The head must wait again instead.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "lib/atomic.h"
#include "lib/fault_inject.h"
#include "lib/spinlock.h"

static spinlock_t lock;

/* The thief's steps, each waited for by the other side. */
enum { AT_CLAIM = 1, STOLEN, CLAIM_LOST, RELEASED };
static int step;
static int claims_lost;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void advance(int to)
{
	smp_store_release(&step, to);
}

/* Sleeping, not spinning: the other side may need this CPU. */
static void wait_step(int want)
{
	while (smp_load_acquire(&step) < want)
		sleep_ms(1);
}

/* Wait until some bit of mask is set in the lock word (a waiter's mark). */
static void wait_word(uint32_t mask)
{
	while (!(__atomic_load_n(&lock.val, __ATOMIC_ACQUIRE) & mask))
		sleep_ms(1);
}

/* The queue head, about to claim the free lock: let the thief take it first. */
static void head_claim(void *arg)
{
	int first = 0;

	(void)arg;
	if (__atomic_compare_exchange_n(&step, &first, AT_CLAIM, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		wait_step(STOLEN);
}

/* Its claim lost to the thief: let the thief go before it looks again. */
static void head_claim_lost(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&claims_lost, 1, __ATOMIC_RELAXED);
	if (smp_load_acquire(&step) == STOLEN) {
		advance(CLAIM_LOST);
		wait_step(RELEASED);
	}
}

static void *lock_unlock(void *arg)
{
	(void)arg;
	spin_lock(&lock);
	spin_unlock(&lock);
	return NULL;
}

START_TEST(test_spinlock_thief_at_head_claim)
{
	pthread_t pending, head;

	ck_assert(spin_lock_steal);
	spin_lock_init(&lock);
	fault_inject_arm("spin_lock_slowpath:head-claim", head_claim, NULL);
	fault_inject_arm("spin_lock_slowpath:head-claim-lost", head_claim_lost, NULL);

	/* A pending waiter, then a queue of one behind it. */
	spin_lock(&lock);
	ck_assert_int_eq(pthread_create(&pending, NULL, lock_unlock, NULL), 0);
	wait_word(SPIN_Q_PENDING_MASK);
	ck_assert_int_eq(pthread_create(&head, NULL, lock_unlock, NULL), 0);
	wait_word(SPIN_Q_TAIL_MASK);

	/* The pending waiter takes the lock and goes; the head finds it free. */
	spin_unlock(&lock);
	ck_assert_int_eq(pthread_join(pending, NULL), 0);
	wait_step(AT_CLAIM);

	/* Steal the byte while the head is still the tail, then let go. */
	spin_lock(&lock);
	ck_assert_uint_ne(READ_ONCE(lock.val) & SPIN_Q_TAIL_MASK, 0);
	advance(STOLEN);
	wait_step(CLAIM_LOST);
	spin_unlock(&lock);
	advance(RELEASED);

	/* Hangs here if the head took the byte and waits for a successor. */
	ck_assert_int_eq(pthread_join(head, NULL), 0);
	ck_assert_int_eq(claims_lost, 1);
	ck_assert_uint_eq(READ_ONCE(lock.val), 0);
	fault_inject_disarm("spin_lock_slowpath:head-claim");
	fault_inject_disarm("spin_lock_slowpath:head-claim-lost");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("spinlock_race");
	TCase *tc = tcase_create("thief");
	SRunner *sr;
	int failed;

	/* A few milliseconds when it works; a hang is what failure looks like. */
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_spinlock_thief_at_head_claim);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
