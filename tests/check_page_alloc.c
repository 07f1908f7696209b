// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for lib/page_alloc: pages come back zeroed and line-aligned, a CPU
 * reuses the pages it freed, another CPU's frees reach it only through the
 * zone once that CPU's list passes its high mark, and nothing is lost or
 * handed out twice under concurrent use.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/arch.h"
#include "lib/bug.h"
#include "lib/page_alloc.h"
#include "lib/rcu.h"

#define PAGE 4104 /* a shmem page: 4 KiB of data and its header */
#define NTHREADS 4

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

START_TEST(test_create_args)
{
	struct page_zone *z;

	ck_assert_ptr_null(page_zone_create("tiny", sizeof(void *) - 1));
	z = page_zone_create("pages", PAGE);
	ck_assert_ptr_nonnull(z);
	ck_assert_uint_eq(page_zone_free_pages(z), 0);
	page_zone_destroy(z);
	page_zone_destroy(NULL);
}
END_TEST

/* This CPU's frees come back to it first, last freed first, and zeroed. */
START_TEST(test_reuse_on_this_cpu)
{
	struct page_zone *z;
	unsigned char *a, *b, *c;

	rcu_register_thread();
	z = page_zone_create("pages", PAGE);
	ck_assert_ptr_nonnull(z);
	a = page_alloc_zeroed(z);
	b = page_alloc_zeroed(z);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_ne(a, b);
	ck_assert_uint_eq((uintptr_t)a % arch_cache_line_size(), 0);
	ck_assert_uint_eq((uintptr_t)b % arch_cache_line_size(), 0);
	ck_assert(all_zero(a, PAGE));
	memset(a, 0xab, PAGE);
	memset(b, 0xcd, PAGE);
	page_free(z, a);
	page_free(z, b);
	page_free(z, NULL);
	ck_assert_uint_eq(page_zone_free_pages(z), 2);
	c = page_alloc_zeroed(z);
	ck_assert_ptr_eq(c, b);
	ck_assert(all_zero(c, PAGE));
	c = page_alloc_zeroed(z);
	ck_assert_ptr_eq(c, a);
	ck_assert(all_zero(c, PAGE));
	ck_assert_uint_eq(page_zone_free_pages(z), 0);
	page_free(z, a);
	page_free(z, b);
	page_zone_destroy(z);
	rcu_unregister_thread();
}
END_TEST

struct handoff {
	struct page_zone *z;
	void **pages;
	unsigned int n;
};

static void *free_all_thread(void *arg)
{
	struct handoff *h = arg;

	for (unsigned int i = 0; i < h->n; i++)
		page_free(h->z, h->pages[i]);
	return NULL;
}

static bool freed_by_other(const struct handoff *h, const void *p)
{
	for (unsigned int i = 0; i < h->n; i++)
		if (h->pages[i] == p)
			return true;
	return false;
}

/*
 * Pages another CPU frees stay on its list (this CPU gets new memory) until
 * that list passes its high mark and gives a batch to the zone, from which
 * an empty list refills.
 */
START_TEST(test_other_cpu_frees_reach_zone_in_batches)
{
	void *pages[300], *p, *q;
	struct handoff h = { .pages = pages };
	pthread_t t;

	rcu_register_thread();
	h.z = page_zone_create("pages", PAGE);
	ck_assert_ptr_nonnull(h.z);
	/* Below the high mark: all of them stay on the other CPU's list. */
	for (h.n = 0; h.n < 100; h.n++)
		ck_assert_ptr_nonnull(pages[h.n] = page_alloc_zeroed(h.z));
	ck_assert_int_eq(pthread_create(&t, NULL, free_all_thread, &h), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_uint_eq(page_zone_free_pages(h.z), 100);
	p = page_alloc_zeroed(h.z);
	ck_assert_ptr_nonnull(p);
	ck_assert(!freed_by_other(&h, p));
	page_free(h.z, p); /* now this CPU's */

	/* 300 more: past the high mark, so a batch reaches the zone. */
	for (h.n = 0; h.n < 300; h.n++)
		ck_assert_ptr_nonnull(pages[h.n] = page_alloc_zeroed(h.z));
	/* This CPU took back its own page first. */
	ck_assert_ptr_eq(pages[0], p);
	ck_assert_int_eq(pthread_create(&t, NULL, free_all_thread, &h), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_uint_eq(page_zone_free_pages(h.z), 400);
	q = page_alloc_zeroed(h.z);
	ck_assert(freed_by_other(&h, q));
	ck_assert(all_zero(q, PAGE));
	ck_assert_uint_eq(page_zone_free_pages(h.z), 399);
	page_free(h.z, q);
	page_zone_destroy(h.z);
	rcu_unregister_thread();
}
END_TEST

START_TEST(test_destroy_warns_on_leak)
{
	unsigned long warns = bug_warn_count();
	struct page_zone *z;
	void *p;

	rcu_register_thread();
	z = page_zone_create("leaky", PAGE);
	ck_assert_ptr_nonnull(z);
	p = page_alloc_zeroed(z);
	ck_assert_ptr_nonnull(p);
	page_zone_destroy(z);
	ck_assert_uint_eq(bug_warn_count(), warns + 1);
	free(p); /* a zone's page is ordinary heap memory */
	rcu_unregister_thread();
}
END_TEST

static struct page_zone *shared_zone;

#define CHURN_HOLD 300 /* past a list's high mark: flushes and refills */

/*
 * Each thread holds more pages than its list keeps, so batches go through
 * the zone to the other threads: a page comes zeroed and is the thread's
 * alone while it holds it.
 */
static void *churn_thread(void *arg)
{
	unsigned char id = (unsigned char)(uintptr_t)arg + 1;
	unsigned char **keep = calloc(CHURN_HOLD, sizeof(*keep));
	long bad = 0;

	if (!keep)
		return (void *)1;
	for (int round = 0; round < 30; round++) {
		for (int i = 0; i < CHURN_HOLD; i++) {
			keep[i] = page_alloc_zeroed(shared_zone);
			if (!keep[i] || !all_zero(keep[i], PAGE))
				bad++;
			else
				memset(keep[i], id, PAGE);
		}
		for (int i = 0; i < CHURN_HOLD; i++) {
			if (keep[i] && (keep[i][0] != id || keep[i][PAGE - 1] != id))
				bad++;
			page_free(shared_zone, keep[i]);
		}
	}
	free(keep);
	return (void *)bad;
}

START_TEST(test_concurrent_churn)
{
	unsigned long warns = bug_warn_count();
	pthread_t t[NTHREADS];

	rcu_register_thread();
	shared_zone = page_zone_create("pages", PAGE);
	ck_assert_ptr_nonnull(shared_zone);
	for (uintptr_t i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, churn_thread, (void *)i), 0);
	for (int i = 0; i < NTHREADS; i++) {
		void *bad;

		ck_assert_int_eq(pthread_join(t[i], &bad), 0);
		ck_assert_ptr_null(bad);
	}
	/* Every page came back: at least what one thread held at once... */
	ck_assert_uint_ge(page_zone_free_pages(shared_zone), CHURN_HOLD);
	page_zone_destroy(shared_zone);
	/* ...and none is missing (the page cache would warn of it). */
	ck_assert_uint_eq(bug_warn_count(), warns);
	rcu_unregister_thread();
}
END_TEST

static Suite *page_alloc_suite(void)
{
	Suite *s = suite_create("page_alloc");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_create_args);
	tcase_add_test(tc, test_reuse_on_this_cpu);
	tcase_add_test(tc, test_other_cpu_frees_reach_zone_in_batches);
	tcase_add_test(tc, test_destroy_warns_on_leak);
	tcase_add_test(tc, test_concurrent_churn);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(page_alloc_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
