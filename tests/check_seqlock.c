// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for lib/seqlock.h: the retry rules of seqcounts (a concurrent write,
 * an odd count seen by raw_seqcount_begin(), an invalidation) and seqlock
 * readers seeing consistent pairs while a writer updates them.
 */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "lib/atomic.h"
#include "lib/seqlock.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

START_TEST(test_seqcount_no_write)
{
	seqcount_t s = SEQCNT_ZERO;
	unsigned int seq;

	seq = read_seqcount_begin(&s);
	ck_assert_uint_eq(seq, 0);
	ck_assert(!read_seqcount_retry(&s, seq));
	ck_assert(!__read_seqcount_retry(&s, seq));
	seq = raw_seqcount_begin(&s);
	ck_assert(!read_seqcount_retry(&s, seq));
	ck_assert_uint_eq(raw_read_seqcount(&s), 0);
}
END_TEST

START_TEST(test_seqcount_write_forces_retry)
{
	seqcount_t s;
	unsigned int seq;

	seqcount_init(&s);
	seq = read_seqcount_begin(&s);
	write_seqcount_begin(&s);
	ck_assert_uint_eq(raw_read_seqcount(&s), 1); /* odd while writing */
	ck_assert(read_seqcount_retry(&s, seq));
	write_seqcount_end(&s);
	ck_assert_uint_eq(raw_read_seqcount(&s), 2);
	ck_assert(read_seqcount_retry(&s, seq));

	seq = __read_seqcount_begin(&s);
	ck_assert_uint_eq(seq, 2);
	raw_write_seqcount_begin(&s);
	raw_write_seqcount_end(&s);
	ck_assert(__read_seqcount_retry(&s, seq));
}
END_TEST

START_TEST(test_raw_seqcount_begin_odd)
{
	seqcount_t s = SEQCNT_ZERO;
	unsigned int seq;

	write_seqcount_begin(&s);
	/* Does not wait, returns the even value below the odd count ... */
	seq = raw_seqcount_begin(&s);
	ck_assert_uint_eq(seq, 0);
	/* ... so the check fails while the write is in progress ... */
	ck_assert(read_seqcount_retry(&s, seq));
	write_seqcount_end(&s);
	/* ... and after it. */
	ck_assert(read_seqcount_retry(&s, seq));
}
END_TEST

START_TEST(test_seqcount_invalidate)
{
	seqcount_t s = SEQCNT_ZERO;
	unsigned int seq = raw_seqcount_begin(&s);

	write_seqcount_invalidate(&s);
	ck_assert_uint_eq(raw_read_seqcount(&s), 2); /* still even */
	ck_assert(read_seqcount_retry(&s, seq));
	seq = read_seqcount_begin(&s); /* no waiting needed */
	ck_assert(!read_seqcount_retry(&s, seq));
}
END_TEST

static seqcount_t waited;
static int reader_returned;
static unsigned int reader_seq;

static void *begin_waiter(void *arg)
{
	(void)arg;
	reader_seq = read_seqcount_begin(&waited);
	__atomic_store_n(&reader_returned, 1, __ATOMIC_RELEASE);
	return NULL;
}

START_TEST(test_read_seqcount_begin_waits)
{
	pthread_t t;

	seqcount_init(&waited);
	reader_returned = 0;
	write_seqcount_begin(&waited);
	ck_assert_int_eq(pthread_create(&t, NULL, begin_waiter, NULL), 0);
	sleep_ms(50);
	ck_assert_int_eq(__atomic_load_n(&reader_returned, __ATOMIC_ACQUIRE), 0);
	write_seqcount_end(&waited);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(reader_returned, 1);
	ck_assert_uint_eq(reader_seq, 2);
}
END_TEST

#define PAIR_WRITES 20000

static seqlock_t pair_lock = __SEQLOCK_UNLOCKED;
static unsigned long pair_x, pair_y;
static int writer_done;

static void *pair_writer(void *arg)
{
	(void)arg;
	for (unsigned long i = 1; i <= PAIR_WRITES; i++) {
		write_seqlock(&pair_lock);
		WRITE_ONCE(pair_x, i);
		cpu_relax();
		WRITE_ONCE(pair_y, i);
		write_sequnlock(&pair_lock);
	}
	__atomic_store_n(&writer_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

struct reader_result {
	unsigned long torn; /* inconsistent pairs accepted: must be 0 */
	unsigned long retries; /* retries seen: shows the test raced */
	unsigned long reads;
};

static void *pair_reader(void *arg)
{
	struct reader_result *r = arg;

	while (!__atomic_load_n(&writer_done, __ATOMIC_ACQUIRE)) {
		unsigned long x, y;
		unsigned int seq;

		for (;;) {
			seq = read_seqbegin(&pair_lock);
			x = READ_ONCE(pair_x);
			cpu_relax();
			y = READ_ONCE(pair_y);
			if (!read_seqretry(&pair_lock, seq))
				break;
			r->retries++;
		}
		if (x != y)
			r->torn++;
		r->reads++;
	}
	return NULL;
}

START_TEST(test_seqlock_consistent_pairs)
{
	pthread_t w, rd[2];
	struct reader_result res[2] = { { 0 } };

	seqlock_init(&pair_lock);
	pair_x = pair_y = 0;
	writer_done = 0;
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&rd[i], NULL, pair_reader, &res[i]), 0);
	ck_assert_int_eq(pthread_create(&w, NULL, pair_writer, NULL), 0);
	ck_assert_int_eq(pthread_join(w, NULL), 0);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(pthread_join(rd[i], NULL), 0);
		ck_assert_uint_eq(res[i].torn, 0);
	}
	ck_assert_uint_eq(pair_x, PAIR_WRITES);
	ck_assert_uint_eq(raw_read_seqcount(&pair_lock.seqcount), 2u * PAIR_WRITES);
}
END_TEST

START_TEST(test_seqlock_excl_and_or_lock)
{
	seqlock_t sl;
	unsigned int seq = 0;
	int passes = 0;

	seqlock_init(&sl);
	read_seqlock_excl(&sl);
	ck_assert(spin_is_locked(&sl.lock));
	ck_assert_uint_eq(raw_read_seqcount(&sl.seqcount), 0); /* readers not disturbed */
	read_sequnlock_excl(&sl);

	/* First pass lockless and disturbed by a write, second pass locked. */
	do {
		read_seqbegin_or_lock(&sl, &seq);
		if (passes++ == 0) {
			write_seqlock(&sl);
			write_sequnlock(&sl);
		} else {
			ck_assert(spin_is_locked(&sl.lock));
		}
		if (!need_seqretry(&sl, seq))
			break;
		seq = 1;
	} while (1);
	done_seqretry(&sl, seq);
	ck_assert_int_eq(passes, 2);
	ck_assert(!spin_is_locked(&sl.lock));
}
END_TEST

static Suite *seqlock_suite(void)
{
	Suite *s = suite_create("seqlock");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_seqcount_no_write);
	tcase_add_test(tc, test_seqcount_write_forces_retry);
	tcase_add_test(tc, test_raw_seqcount_begin_odd);
	tcase_add_test(tc, test_seqcount_invalidate);
	tcase_add_test(tc, test_read_seqcount_begin_waits);
	tcase_add_test(tc, test_seqlock_consistent_pairs);
	tcase_add_test(tc, test_seqlock_excl_and_or_lock);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(seqlock_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
