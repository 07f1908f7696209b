// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for lib/bitmap: searches at and across word boundaries, sizes that
 * are not multiples of 64, offsets at or past the end, set bits beyond the
 * size being ignored, and the whole-bitmap helpers.
 */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bitmap.h"

#define NBITS 256
#define NW BITS_TO_LONGS(NBITS)

/* Reference search, one bit at a time. */
static unsigned long naive_next(const unsigned long *a, unsigned long size, unsigned long off,
				bool want)
{
	for (unsigned long i = off; i < size; i++)
		if (test_bit(i, a) == want)
			return i;
	return size;
}

START_TEST(test_macros)
{
	ck_assert_uint_eq(BITS_PER_LONG, 64);
	ck_assert_uint_eq(BITS_TO_LONGS(0), 0);
	ck_assert_uint_eq(BITS_TO_LONGS(1), 1);
	ck_assert_uint_eq(BITS_TO_LONGS(64), 1);
	ck_assert_uint_eq(BITS_TO_LONGS(65), 2);
	ck_assert_uint_eq(BIT_WORD(63), 0);
	ck_assert_uint_eq(BIT_WORD(64), 1);
	ck_assert_uint_eq(BIT_MASK(0), 1);
	ck_assert_uint_eq(BIT_MASK(64), 1);
	ck_assert_uint_eq(BIT_MASK(63), 1UL << 63);
}
END_TEST

START_TEST(test_set_clear_test)
{
	unsigned long a[NW] = { 0 };
	static const unsigned long bits[] = { 0, 1, 63, 64, 65, 127, 128, 255 };

	for (unsigned int i = 0; i < ARRAY_SIZE(bits); i++) {
		ck_assert(!test_bit(bits[i], a));
		if (i & 1)
			set_bit(bits[i], a);
		else
			__set_bit(bits[i], a);
		ck_assert(test_bit(bits[i], a));
	}
	ck_assert_uint_eq(a[0], 1UL | 2UL | (1UL << 63));
	ck_assert_uint_eq(a[1], 1UL | 2UL | (1UL << 63));
	ck_assert_uint_eq(a[2], 1UL);
	ck_assert_uint_eq(a[3], 1UL << 63);
	ck_assert_uint_eq(bitmap_weight(a, NBITS), ARRAY_SIZE(bits));
	clear_bit(63, a);
	__clear_bit(64, a);
	ck_assert(!test_bit(63, a));
	ck_assert(!test_bit(64, a));
	ck_assert(test_and_set_bit(0, a));
	ck_assert(!test_and_set_bit(2, a));
	ck_assert(test_and_clear_bit(2, a));
	ck_assert(!test_and_clear_bit(2, a));
}
END_TEST

START_TEST(test_find_boundaries)
{
	unsigned long a[NW] = { 0 };

	/* Empty. */
	ck_assert_uint_eq(find_first_bit(a, NBITS), NBITS);
	ck_assert_uint_eq(find_next_bit(a, NBITS, 0), NBITS);
	ck_assert_uint_eq(find_last_bit(a, NBITS), NBITS);
	ck_assert_uint_eq(find_first_zero_bit(a, NBITS), 0);

	__set_bit(0, a);
	__set_bit(63, a);
	__set_bit(64, a);
	__set_bit(127, a);
	__set_bit(128, a);
	ck_assert_uint_eq(find_first_bit(a, NBITS), 0);
	ck_assert_uint_eq(find_next_bit(a, NBITS, 1), 63);
	ck_assert_uint_eq(find_next_bit(a, NBITS, 63), 63);
	ck_assert_uint_eq(find_next_bit(a, NBITS, 64), 64);
	ck_assert_uint_eq(find_next_bit(a, NBITS, 65), 127);
	ck_assert_uint_eq(find_next_bit(a, NBITS, 128), 128);
	ck_assert_uint_eq(find_next_bit(a, NBITS, 129), NBITS);
	ck_assert_uint_eq(find_last_bit(a, NBITS), 128);
	ck_assert_uint_eq(find_last_bit(a, 128), 127);
	ck_assert_uint_eq(find_last_bit(a, 64), 63);
	ck_assert_uint_eq(find_last_bit(a, 1), 0);
	ck_assert_uint_eq(find_next_zero_bit(a, NBITS, 0), 1);
	ck_assert_uint_eq(find_next_zero_bit(a, NBITS, 63), 65);
	ck_assert_uint_eq(find_next_zero_bit(a, NBITS, 127), 129);

	/* Offset at or past the size. */
	ck_assert_uint_eq(find_next_bit(a, NBITS, NBITS), NBITS);
	ck_assert_uint_eq(find_next_bit(a, NBITS, NBITS + 100), NBITS);
	ck_assert_uint_eq(find_next_zero_bit(a, 100, 100), 100);
	ck_assert_uint_eq(find_next_zero_bit(a, 100, 1000), 100);
	ck_assert_uint_eq(find_next_bit(a, 0, 0), 0);
	ck_assert_uint_eq(find_last_bit(a, 0), 0);
}
END_TEST

START_TEST(test_find_all_ones)
{
	unsigned long a[NW];

	bitmap_fill(a, NBITS);
	ck_assert_uint_eq(find_first_zero_bit(a, NBITS), NBITS);
	ck_assert_uint_eq(find_next_zero_bit(a, NBITS, 64), NBITS);
	ck_assert_uint_eq(find_next_zero_bit(a, 70, 5), 70);
	ck_assert(bitmap_full(a, NBITS));
	ck_assert(bitmap_full(a, 100));
	__clear_bit(130, a);
	ck_assert_uint_eq(find_first_zero_bit(a, NBITS), 130);
	ck_assert_uint_eq(find_next_zero_bit(a, NBITS, 130), 130);
	ck_assert_uint_eq(find_next_zero_bit(a, NBITS, 131), NBITS);
	ck_assert_uint_eq(find_first_zero_bit(a, 130), 130); /* past the size */
	ck_assert(!bitmap_full(a, NBITS));
	ck_assert(bitmap_full(a, 130));
	ck_assert_uint_eq(bitmap_weight(a, NBITS), NBITS - 1);
}
END_TEST

/* Bits at or past @size are ignored even when set. */
START_TEST(test_size_not_multiple_of_64)
{
	unsigned long a[NW] = { 0 };

	__set_bit(70, a);
	__set_bit(100, a);
	ck_assert_uint_eq(find_first_bit(a, 70), 70);
	ck_assert_uint_eq(find_first_bit(a, 71), 70);
	ck_assert_uint_eq(find_next_bit(a, 100, 71), 100);
	ck_assert_uint_eq(find_next_bit(a, 101, 71), 100);
	ck_assert_uint_eq(find_last_bit(a, 100), 70);
	ck_assert_uint_eq(find_last_bit(a, 70), 70);
	ck_assert_uint_eq(bitmap_weight(a, 100), 1);
	ck_assert_uint_eq(bitmap_weight(a, 101), 2);
	ck_assert(bitmap_empty(a, 70));
	ck_assert(!bitmap_empty(a, 71));

	/* All ones in the word, but the size ends inside it. */
	a[1] = ~0UL;
	ck_assert_uint_eq(find_next_zero_bit(a, 100, 64), 100);
	ck_assert_uint_eq(find_next_zero_bit(a, 129, 64), 128);
	ck_assert(bitmap_full(a + 1, 36));
}
END_TEST

START_TEST(test_find_matches_naive)
{
	unsigned long a[NW];
	unsigned int seed = 12345;

	for (int round = 0; round < 200; round++) {
		unsigned long size = (unsigned long)(rand_r(&seed) % (NBITS + 1));

		for (unsigned int w = 0; w < NW; w++) {
			unsigned long v = ((unsigned long)rand_r(&seed) << 33) ^
					  ((unsigned long)rand_r(&seed) << 2) ^
					  (unsigned long)rand_r(&seed);
			/* Mix sparse, dense and all-ones words. */
			a[w] = (round % 3 == 0) ? v & (v >> 7) & (v >> 13) :
			       (round % 3 == 1) ? ~(v & (v >> 7)) :
						  ~0UL;
		}
		for (unsigned long off = 0; off <= size + 2; off++) {
			ck_assert_uint_eq(find_next_bit(a, size, off),
					  naive_next(a, size, off, true));
			ck_assert_uint_eq(find_next_zero_bit(a, size, off),
					  naive_next(a, size, off, false));
		}
		{
			unsigned long last = size, w = 0;

			for (unsigned long i = 0; i < size; i++) {
				if (test_bit(i, a)) {
					last = i;
					w++;
				}
			}
			ck_assert_uint_eq(find_last_bit(a, size), last);
			ck_assert_uint_eq(bitmap_weight(a, size), w);
		}
	}
}
END_TEST

START_TEST(test_zero_fill_copy)
{
	unsigned long a[NW], b[NW];
	unsigned long bit;
	unsigned long n = 0;

	bitmap_fill(a, NBITS);
	bitmap_zero(a, 128);
	ck_assert_uint_eq(a[0], 0);
	ck_assert_uint_eq(a[1], 0);
	ck_assert_uint_eq(a[2], ~0UL);
	__set_bit(5, a);
	bitmap_copy(b, a, NBITS);
	ck_assert_int_eq(memcmp(a, b, sizeof(a)), 0);
	for_each_set_bit(bit, b, 130) n++;
	ck_assert_uint_eq(n, 3); /* 5, 128, 129 */
}
END_TEST

START_TEST(test_copy_and_extend)
{
	unsigned long from[NW], to[NW];

	memset(from, 0xff, sizeof(from));
	memset(to, 0xaa, sizeof(to));
	/* 70 bits copied, the rest of 256 cleared, including bits 70..127. */
	bitmap_copy_and_extend(to, from, 70, NBITS);
	ck_assert_uint_eq(to[0], ~0UL);
	ck_assert_uint_eq(to[1], (1UL << 6) - 1);
	ck_assert_uint_eq(to[2], 0);
	ck_assert_uint_eq(to[3], 0);
	ck_assert_uint_eq(bitmap_weight(to, NBITS), 70);
	ck_assert_uint_eq(find_next_zero_bit(to, NBITS, 0), 70);

	/* A whole number of words: nothing masked. */
	memset(to, 0xaa, sizeof(to));
	bitmap_copy_and_extend(to, from, 128, 192);
	ck_assert_uint_eq(to[1], ~0UL);
	ck_assert_uint_eq(to[2], 0);
	ck_assert_uint_eq(to[3], 0xaaaaaaaaaaaaaaaaUL); /* beyond @size: untouched */
}
END_TEST

static unsigned long shared_map[NW];

static void *set_bits_thread(void *arg)
{
	unsigned long base = (unsigned long)arg;

	/* Threads set interleaved bits of the same words: atomics must not lose any. */
	for (unsigned long i = base; i < NBITS; i += 4)
		set_bit(i, shared_map);
	for (unsigned long i = base; i < NBITS; i += 8)
		clear_bit(i, shared_map);
	return NULL;
}

START_TEST(test_atomic_bitops_threads)
{
	pthread_t t[4];

	for (int round = 0; round < 200; round++) {
		bitmap_zero(shared_map, NBITS);
		for (unsigned long i = 0; i < 4; i++)
			ck_assert_int_eq(pthread_create(&t[i], NULL, set_bits_thread, (void *)i),
					 0);
		for (int i = 0; i < 4; i++)
			ck_assert_int_eq(pthread_join(t[i], NULL), 0);
		ck_assert_uint_eq(bitmap_weight(shared_map, NBITS), NBITS / 2);
	}
}
END_TEST

static Suite *bitmap_suite(void)
{
	Suite *s = suite_create("bitmap");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_macros);
	tcase_add_test(tc, test_set_clear_test);
	tcase_add_test(tc, test_find_boundaries);
	tcase_add_test(tc, test_find_all_ones);
	tcase_add_test(tc, test_size_not_multiple_of_64);
	tcase_add_test(tc, test_find_matches_naive);
	tcase_add_test(tc, test_zero_fill_copy);
	tcase_add_test(tc, test_copy_and_extend);
	tcase_add_test(tc, test_atomic_bitops_threads);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bitmap_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
