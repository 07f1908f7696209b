// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for lib/slab: alignment and stride of caches, the in-use count
 * (including RCU-deferred frees and concurrent alloc/free from threads), and
 * the kmalloc family's failure handling.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/arch.h"
#include "lib/bug.h"
#include "lib/rcu.h"
#include "lib/slab.h"

#define NTHREADS 4

START_TEST(test_create_args)
{
	struct kmem_cache *c;

	ck_assert_ptr_null(kmem_cache_create("zero", 0, 0, 0));
	ck_assert_ptr_null(kmem_cache_create("npot", 24, 24, 0));
	ck_assert_ptr_null(kmem_cache_create("flags", 24, 0, 0x80));
	c = kmem_cache_create("a-rather-long-cache-name-that-gets-truncated", 24, 0, 0);
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_lt(strlen(kmem_cache_name(c)), 32);
	ck_assert_uint_eq(kmem_cache_size(c), 24);
	ck_assert_uint_eq(kmem_cache_align(c), 8);
	kmem_cache_destroy(c);
	kmem_cache_destroy(NULL);
}
END_TEST

START_TEST(test_alignment_and_stride)
{
	struct kmem_cache *hw = kmem_cache_create("filp", 184, 0, SLAB_HWCACHE_ALIGN);
	struct kmem_cache *a16 = kmem_cache_create("a16", 40, 16, 0);
	struct kmem_cache *a128 = kmem_cache_create("a128", 130, 128, SLAB_HWCACHE_ALIGN);
	void *p[32];

	ck_assert_ptr_nonnull(hw);
	ck_assert_ptr_nonnull(a16);
	ck_assert_ptr_nonnull(a128);
	ck_assert_str_eq(kmem_cache_name(hw), "filp");
	/* 184-byte struct file: HWCACHE_ALIGN gives a 192-byte stride. */
	ck_assert_uint_eq(kmem_cache_size(hw), 192);
	ck_assert_uint_eq(kmem_cache_align(hw), 64);
	ck_assert_uint_eq(kmem_cache_size(a16), 48);
	ck_assert_uint_eq(kmem_cache_align(a16), 16);
	ck_assert_uint_eq(kmem_cache_size(a128), 256);
	ck_assert_uint_eq(kmem_cache_align(a128), 128);

	for (int i = 0; i < 32; i++) {
		p[i] = kmem_cache_alloc(hw);
		ck_assert_ptr_nonnull(p[i]);
		ck_assert_uint_eq((uintptr_t)p[i] % 64, 0);
		memset(p[i], 0xab, kmem_cache_size(hw));
	}
	for (int i = 0; i < 32; i++)
		kmem_cache_free(hw, p[i]);
	for (int i = 0; i < 32; i++) {
		p[i] = kmem_cache_alloc(a16);
		ck_assert_uint_eq((uintptr_t)p[i] % 16, 0);
	}
	for (int i = 0; i < 32; i++)
		kmem_cache_free(a16, p[i]);
	for (int i = 0; i < 8; i++) {
		p[i] = kmem_cache_zalloc(a128);
		ck_assert_uint_eq((uintptr_t)p[i] % 128, 0);
		for (size_t b = 0; b < kmem_cache_size(a128); b++)
			ck_assert_uint_eq(((unsigned char *)p[i])[b], 0);
	}
	for (int i = 0; i < 8; i++)
		kmem_cache_free(a128, p[i]);
	kmem_cache_free(a128, NULL);
	kmem_cache_destroy(hw);
	kmem_cache_destroy(a16);
	kmem_cache_destroy(a128);
}
END_TEST

/* calculate_alignment(): HWCACHE_ALIGN halves the line while the object fits in half. */
START_TEST(test_hwcache_small_objects)
{
	static const size_t size[] = { 8, 24, 32, 33, 64, 65 }, align[] = { 8, 32, 32, 64, 64, 64 };

	ck_assert_uint_eq(arch_cache_line_size(), 64);
	for (size_t i = 0; i < sizeof(size) / sizeof(size[0]); i++) {
		struct kmem_cache *c = kmem_cache_create("small", size[i], 0, SLAB_HWCACHE_ALIGN);

		ck_assert_ptr_nonnull(c);
		ck_assert_msg(kmem_cache_align(c) == align[i], "%zu bytes: aligned %zu, not %zu",
			      size[i], kmem_cache_align(c), align[i]);
		kmem_cache_destroy(c);
	}
}
END_TEST

START_TEST(test_inuse_exact)
{
	struct kmem_cache *c = kmem_cache_create("dentry", 192, 0, SLAB_HWCACHE_ALIGN);
	void *p[100];
	unsigned long warns = bug_warn_count();

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(kmem_cache_inuse(c), 0);
	for (int i = 0; i < 100; i++)
		p[i] = kmem_cache_alloc(c);
	ck_assert_int_eq(kmem_cache_inuse(c), 100);
	for (int i = 0; i < 40; i++)
		kmem_cache_free(c, p[i]);
	ck_assert_int_eq(kmem_cache_inuse(c), 60);

	/* RCU frees count only once they happen. */
	rcu_register_thread();
	rcu_read_lock();
	for (int i = 40; i < 100; i++)
		kmem_cache_free_rcu(c, p[i]);
	/* We are a reader that predates the frees: none of them can have run. */
	ck_assert_int_eq(kmem_cache_inuse(c), 60);
	rcu_read_unlock();
	rcu_barrier();
	ck_assert_int_eq(kmem_cache_inuse(c), 0);
	kmem_cache_free_rcu(c, NULL);
	kmem_cache_destroy(c);
	ck_assert_uint_eq(bug_warn_count(), warns);
	rcu_unregister_thread();
}
END_TEST

/*
 * SLAB_TYPESAFE_BY_RCU: a freed object comes straight back to the next
 * allocation on this thread, counts stay exact, and past the per-CPU stack
 * the memory goes back only after a grace period (the stack then refills).
 */
START_TEST(test_typesafe_by_rcu)
{
	struct kmem_cache *c =
		kmem_cache_create("filp", 184, 0, SLAB_HWCACHE_ALIGN | SLAB_TYPESAFE_BY_RCU);
	enum { N = 600 };
	static void *p[N];
	unsigned long warns = bug_warn_count();
	void *a, *b;

	rcu_register_thread();
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(kmem_cache_size(c), 192);
	a = kmem_cache_alloc(c);
	kmem_cache_free(c, a);
	ck_assert_int_eq(kmem_cache_inuse(c), 0);
	b = kmem_cache_alloc(c);
	ck_assert_ptr_eq(a, b);
	ck_assert_int_eq(kmem_cache_inuse(c), 1);
	kmem_cache_free(c, b);
	/* More frees than one stack holds: the overflow waits for a grace period. */
	for (int i = 0; i < N; i++)
		p[i] = kmem_cache_alloc(c);
	ck_assert_int_eq(kmem_cache_inuse(c), N);
	for (int i = 0; i < N; i++)
		kmem_cache_free(c, p[i]);
	ck_assert_int_eq(kmem_cache_inuse(c), 0);
	/* The most recently freed object is the next one handed out. */
	a = kmem_cache_alloc(c);
	ck_assert_ptr_eq(a, p[255]);
	kmem_cache_free(c, a);
	rcu_barrier();
	kmem_cache_destroy(c);
	ck_assert_uint_eq(bug_warn_count(), warns);
	rcu_unregister_thread();
}
END_TEST

static struct kmem_cache *typesafe_cache;

/* Frees what the caller allocated, then allocates: its own stack's top. */
static void *free_then_alloc_thread(void *arg)
{
	void *again;

	rcu_register_thread();
	kmem_cache_free(typesafe_cache, arg);
	again = kmem_cache_alloc(typesafe_cache);
	kmem_cache_free(typesafe_cache, again);
	rcu_unregister_thread();
	return again;
}

/*
 * Per CPU, as SLUB's fast path: an object freed on another thread goes on
 * that thread's stack, not back to the thread that allocated it, and the
 * counts stay exact though each thread's own goes negative or positive.
 */
START_TEST(test_typesafe_per_cpu)
{
	pthread_t t;
	void *x, *back, *mine;

	rcu_register_thread();
	typesafe_cache =
		kmem_cache_create("filp", 184, 0, SLAB_HWCACHE_ALIGN | SLAB_TYPESAFE_BY_RCU);
	ck_assert_ptr_nonnull(typesafe_cache);
	x = kmem_cache_alloc(typesafe_cache);
	ck_assert_int_eq(kmem_cache_inuse(typesafe_cache), 1);
	ck_assert_int_eq(pthread_create(&t, NULL, free_then_alloc_thread, x), 0);
	ck_assert_int_eq(pthread_join(t, &back), 0);
	ck_assert_ptr_eq(back, x);
	ck_assert_int_eq(kmem_cache_inuse(typesafe_cache), 0);
	/* x stays on the other thread's stack: this thread gets new memory. */
	mine = kmem_cache_alloc(typesafe_cache);
	ck_assert_ptr_nonnull(mine);
	ck_assert_ptr_ne(mine, x);
	ck_assert_int_eq(kmem_cache_inuse(typesafe_cache), 1);
	kmem_cache_free(typesafe_cache, mine);
	ck_assert_int_eq(kmem_cache_inuse(typesafe_cache), 0);
	kmem_cache_destroy(typesafe_cache);
	rcu_unregister_thread();
}
END_TEST

START_TEST(test_destroy_warns_on_leak)
{
	struct kmem_cache *c = kmem_cache_create("leaky", 64, 0, 0);
	unsigned long warns = bug_warn_count();
	void *p;

	rcu_register_thread();
	ck_assert_ptr_nonnull(c);
	p = kmem_cache_alloc(c);
	ck_assert_ptr_nonnull(p);
	kmem_cache_destroy(c);
	ck_assert_uint_eq(bug_warn_count(), warns + 1);
	kfree(p); /* cache memory is ordinary heap memory */
	rcu_unregister_thread();
}
END_TEST

static struct kmem_cache *shared_cache;

static void *alloc_free_thread(void *arg)
{
	unsigned long id = (unsigned long)arg;
	void *keep[64];
	long bad = 0;

	rcu_register_thread();
	for (int round = 0; round < 200; round++) {
		for (int i = 0; i < 64; i++) {
			keep[i] = kmem_cache_alloc(shared_cache);
			if (!keep[i] || (uintptr_t)keep[i] % 64)
				bad++;
			else
				*(unsigned long *)keep[i] = id;
		}
		for (int i = 0; i < 64; i++) {
			if (keep[i] && *(unsigned long *)keep[i] != id)
				bad++;
			if (i % 4 == 0)
				kmem_cache_free_rcu(shared_cache, keep[i]);
			else
				kmem_cache_free(shared_cache, keep[i]);
		}
	}
	rcu_unregister_thread();
	return (void *)bad;
}

START_TEST(test_concurrent_alloc_free)
{
	pthread_t t[NTHREADS];
	void *extra[10];

	rcu_register_thread();
	shared_cache = kmem_cache_create("files", 184, 0, SLAB_HWCACHE_ALIGN);
	ck_assert_ptr_nonnull(shared_cache);
	for (int i = 0; i < 10; i++)
		extra[i] = kmem_cache_alloc(shared_cache);
	for (unsigned long i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, alloc_free_thread, (void *)i), 0);
	for (int i = 0; i < NTHREADS; i++) {
		void *bad;

		ck_assert_int_eq(pthread_join(t[i], &bad), 0);
		ck_assert_ptr_null(bad);
	}
	rcu_barrier();
	ck_assert_int_eq(kmem_cache_inuse(shared_cache), 10);
	for (int i = 0; i < 10; i++)
		kmem_cache_free(shared_cache, extra[i]);
	ck_assert_int_eq(kmem_cache_inuse(shared_cache), 0);
	kmem_cache_destroy(shared_cache);
	rcu_unregister_thread();
}
END_TEST

START_TEST(test_kmalloc_family)
{
	unsigned char *p = kmalloc(0);
	unsigned char *z;
	int *arr;

	ck_assert_ptr_nonnull(p); /* zero size is still a valid pointer */
	kfree(p);
	kfree(NULL);
	z = kzalloc(100);
	ck_assert_ptr_nonnull(z);
	for (int i = 0; i < 100; i++)
		ck_assert_uint_eq(z[i], 0);
	z = krealloc(z, 200);
	ck_assert_ptr_nonnull(z);
	ck_assert_uint_eq(z[99], 0);
	z = krealloc(z, 0);
	ck_assert_ptr_nonnull(z);
	kfree(z);
	arr = kcalloc(10, sizeof(int));
	ck_assert_ptr_nonnull(arr);
	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(arr[i], 0);
	kfree(arr);
	/* Overflowing and impossible sizes fail cleanly. */
	ck_assert_ptr_null(kcalloc(SIZE_MAX / 2, 4));
	ck_assert_ptr_null(kcalloc(SIZE_MAX, SIZE_MAX));
	p = kvmalloc(4096);
	ck_assert_ptr_nonnull(p);
	kvfree(p);
	p = kvzalloc(64);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p[63], 0);
	kvfree(p);
}
END_TEST

static Suite *slab_suite(void)
{
	Suite *s = suite_create("slab");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_create_args);
	tcase_add_test(tc, test_alignment_and_stride);
	tcase_add_test(tc, test_hwcache_small_objects);
	tcase_add_test(tc, test_inuse_exact);
	tcase_add_test(tc, test_typesafe_per_cpu);
	tcase_add_test(tc, test_typesafe_by_rcu);
	tcase_add_test(tc, test_destroy_warns_on_leak);
	tcase_add_test(tc, test_concurrent_alloc_free);
	tcase_add_test(tc, test_kmalloc_family);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(slab_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
