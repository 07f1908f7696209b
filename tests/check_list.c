// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for lib/list.h and lib/hlist_bl.h: list and hlist operations, the
 * bit lock of hlist_bl heads surviving adds and deletes, and RCU readers
 * walking hash chains while a writer adds and removes entries.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/atomic.h"
#include "lib/hlist_bl.h"
#include "lib/list.h"
#include "lib/rcu.h"

struct item {
	int val;
	struct list_head node;
	struct hlist_node hnode;
	struct hlist_bl_node blnode;
	struct rcu_head rcu;
	unsigned long magic;
};

#define ITEM_MAGIC 0x17e317e3UL

static int list_values(struct list_head *head, int *out, int max)
{
	struct item *it;
	int n = 0;

	list_for_each_entry(it, head, node) {
		if (n < max)
			out[n] = it->val;
		n++;
	}
	return n;
}

START_TEST(test_list_ops)
{
	LIST_HEAD(head);
	struct list_head other;
	struct item it[5];
	struct item *pos, *tmp;
	struct list_head *p;
	int v[8], n;

	INIT_LIST_HEAD(&other);
	ck_assert(list_empty(&head));
	for (int i = 0; i < 5; i++)
		it[i].val = i;
	list_add(&it[1].node, &head); /* 1 */
	list_add(&it[0].node, &head); /* 0 1 */
	list_add_tail(&it[2].node, &head); /* 0 1 2 */
	list_add_tail(&it[3].node, &head); /* 0 1 2 3 */
	ck_assert(!list_empty(&head));
	n = list_values(&head, v, 8);
	ck_assert_int_eq(n, 4);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(v[i], i);
	ck_assert_ptr_eq(list_first_entry(&head, struct item, node), &it[0]);
	ck_assert_ptr_eq(list_last_entry(&head, struct item, node), &it[3]);
	ck_assert_ptr_eq(list_entry(head.next->next, struct item, node), &it[1]);

	list_del(&it[1].node); /* 0 2 3 */
	ck_assert_ptr_eq(it[1].node.next, LIST_POISON1);
	list_move_tail(&it[0].node, &head); /* 2 3 0 */
	list_move(&it[3].node, &head); /* 3 2 0 */
	n = list_values(&head, v, 8);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(v[0], 3);
	ck_assert_int_eq(v[1], 2);
	ck_assert_int_eq(v[2], 0);

	list_del_init(&it[2].node); /* 3 0 */
	ck_assert(list_empty(&it[2].node));
	list_move(&it[2].node, &other);
	ck_assert(list_is_singular(&other));
	list_splice_init(&other, &head); /* 2 3 0 */
	ck_assert(list_empty(&other));
	n = 0;
	list_for_each(p, &head)
		n++;
	ck_assert_int_eq(n, 3);
	ck_assert_ptr_eq(list_first_entry_or_null(&head, struct item, node), &it[2]);
	ck_assert_ptr_null(list_first_entry_or_null(&other, struct item, node));

	n = 0;
	list_for_each_entry_safe(pos, tmp, &head, node) {
		list_del(&pos->node);
		n++;
	}
	ck_assert_int_eq(n, 3);
	ck_assert(list_empty(&head));
}
END_TEST

START_TEST(test_hlist_ops)
{
	HLIST_HEAD(h);
	struct item it[4];
	struct item *pos;
	struct hlist_node *tmp;
	int n = 0, sum = 0;

	ck_assert(hlist_empty(&h));
	for (int i = 0; i < 4; i++) {
		it[i].val = i;
		INIT_HLIST_NODE(&it[i].hnode);
		ck_assert(hlist_unhashed(&it[i].hnode));
	}
	hlist_add_head(&it[0].hnode, &h); /* 0 */
	hlist_add_head_rcu(&it[1].hnode, &h); /* 1 0 */
	hlist_add_behind(&it[2].hnode, &it[1].hnode); /* 1 2 0 */
	hlist_add_before(&it[3].hnode, &it[1].hnode); /* 3 1 2 0 */
	ck_assert(!hlist_unhashed(&it[0].hnode));
	{
		static const int want[] = { 3, 1, 2, 0 };

		hlist_for_each_entry(pos, &h, hnode)
			ck_assert_int_eq(pos->val, want[n++]);
		ck_assert_int_eq(n, 4);
	}

	/* Delete the head entry, a middle one and the tail; pprev fix-ups. */
	hlist_del_init(&it[3].hnode);
	ck_assert(hlist_unhashed(&it[3].hnode));
	hlist_del_init(&it[3].hnode); /* idempotent */
	ck_assert_ptr_eq(h.first, &it[1].hnode);
	hlist_del_rcu(&it[2].hnode);
	ck_assert(hlist_unhashed(&it[2].hnode));
	ck_assert_ptr_eq(it[2].hnode.next, &it[0].hnode); /* left for readers */
	ck_assert_ptr_eq(it[0].hnode.pprev, &it[1].hnode.next);
	hlist_del(&it[0].hnode);
	ck_assert_ptr_null(it[1].hnode.next);

	rcu_register_thread();
	rcu_read_lock();
	hlist_for_each_entry_rcu(pos, &h, hnode)
		sum += pos->val + 10;
	rcu_read_unlock();
	rcu_unregister_thread();
	ck_assert_int_eq(sum, 11);

	n = 0;
	hlist_for_each_entry_safe(pos, tmp, &h, hnode) {
		hlist_del_init(&pos->hnode);
		n++;
	}
	ck_assert_int_eq(n, 1);
	ck_assert(hlist_empty(&h));
	ck_assert_ptr_eq(hlist_entry_safe((struct hlist_node *)NULL, struct item, hnode), NULL);
}
END_TEST

START_TEST(test_hlist_bl_lock_bit)
{
	struct hlist_bl_head h;
	struct item it[3];
	struct item *tpos;
	struct hlist_bl_node *pos;
	int n = 0;

	INIT_HLIST_BL_HEAD(&h);
	ck_assert(hlist_bl_empty(&h));
	ck_assert(!hlist_bl_is_locked(&h));
	for (int i = 0; i < 3; i++) {
		it[i].val = i;
		INIT_HLIST_BL_NODE(&it[i].blnode);
		ck_assert(hlist_bl_unhashed(&it[i].blnode));
	}

	hlist_bl_lock(&h);
	ck_assert(hlist_bl_is_locked(&h));
	ck_assert_uint_eq((uintptr_t)h.first, 1); /* empty, locked */
	hlist_bl_add_head_rcu(&it[0].blnode, &h);
	ck_assert(hlist_bl_is_locked(&h));
	hlist_bl_add_head_rcu(&it[1].blnode, &h);
	hlist_bl_add_head(&it[2].blnode, &h); /* 2 1 0 */
	ck_assert(hlist_bl_is_locked(&h));
	ck_assert_ptr_eq(hlist_bl_first(&h), &it[2].blnode);
	ck_assert_uint_eq((uintptr_t)h.first, (uintptr_t)&it[2].blnode | 1);
	ck_assert(!hlist_bl_unhashed(&it[0].blnode));

	hlist_bl_for_each_entry(tpos, pos, &h, blnode)
		ck_assert_int_eq(tpos->val, 2 - n++);
	ck_assert_int_eq(n, 3);

	/* Delete the first entry: the head's lock bit must survive. */
	hlist_bl_del_rcu(&it[2].blnode);
	ck_assert(hlist_bl_is_locked(&h));
	ck_assert(hlist_bl_unhashed(&it[2].blnode));
	ck_assert_ptr_eq(it[2].blnode.next, &it[1].blnode); /* left for readers */
	ck_assert_ptr_eq(hlist_bl_first(&h), &it[1].blnode);
	/* A middle/tail entry. */
	hlist_bl_del_init(&it[0].blnode);
	ck_assert(hlist_bl_unhashed(&it[0].blnode));
	ck_assert(hlist_bl_is_locked(&h));
	ck_assert_ptr_null(it[1].blnode.next);
	/* The last one. */
	hlist_bl_del(&it[1].blnode);
	ck_assert(hlist_bl_is_locked(&h));
	ck_assert(hlist_bl_empty(&h));
	ck_assert_uint_eq((uintptr_t)h.first, 1);
	hlist_bl_unlock(&h);
	ck_assert(!hlist_bl_is_locked(&h));
	ck_assert_ptr_null(h.first);

	/* Unlocking leaves the list alone. */
	hlist_bl_lock(&h);
	hlist_bl_add_head_rcu(&it[0].blnode, &h);
	hlist_bl_unlock(&h);
	ck_assert_ptr_eq(h.first, &it[0].blnode);
	ck_assert_ptr_eq(hlist_bl_first_rcu(&h), &it[0].blnode);
}
END_TEST

/* Concurrent: writers add/remove under the bit lock, RCU readers walk. */

#define NBUCKETS 4
#define WRITER_OPS 20000

static struct hlist_bl_head buckets[NBUCKETS];
static int writers_done;
static volatile unsigned long bucket_ops[NBUCKETS]; /* each under its bucket lock */

static void free_item_rcu(struct rcu_head *head)
{
	struct item *it = container_of(head, struct item, rcu);

	it->magic = 0;
	free(it);
}

struct writer_arg {
	unsigned int seed;
	long inserted, removed;
};

static void *bl_writer(void *arg)
{
	struct writer_arg *wa = arg;

	rcu_register_thread();
	for (int i = 0; i < WRITER_OPS; i++) {
		unsigned int idx = (unsigned int)rand_r(&wa->seed) % NBUCKETS;
		struct hlist_bl_head *b = &buckets[idx];

		hlist_bl_lock(b);
		bucket_ops[idx]++; /* the bit lock must exclude the other writer */
		if (rand_r(&wa->seed) % 2 || hlist_bl_empty(b)) {
			struct item *it = malloc(sizeof(*it));

			if (!it)
				abort(); /* no Check asserts off the test thread */
			it->val = i;
			it->magic = ITEM_MAGIC;
			hlist_bl_add_head_rcu(&it->blnode, b);
			wa->inserted++;
		} else {
			struct item *it = hlist_bl_entry(hlist_bl_first(b), struct item, blnode);

			hlist_bl_del_rcu(&it->blnode);
			call_rcu(&it->rcu, free_item_rcu);
			wa->removed++;
		}
		hlist_bl_unlock(b);
	}
	rcu_unregister_thread();
	return NULL;
}

static void *bl_reader(void *arg)
{
	long *bad = arg;

	rcu_register_thread();
	while (!__atomic_load_n(&writers_done, __ATOMIC_ACQUIRE)) {
		for (int b = 0; b < NBUCKETS; b++) {
			struct item *tpos;
			struct hlist_bl_node *pos;

			rcu_read_lock();
			hlist_bl_for_each_entry_rcu(tpos, pos, &buckets[b], blnode)
				if (READ_ONCE(tpos->magic) != ITEM_MAGIC)
					(*bad)++;
			rcu_read_unlock();
		}
	}
	rcu_unregister_thread();
	return NULL;
}

START_TEST(test_hlist_bl_rcu_concurrent)
{
	pthread_t w[2], r[2];
	struct writer_arg wa[2] = { { .seed = 1 }, { .seed = 2 } };
	long bad[2] = { 0, 0 };
	long live = 0;
	unsigned long ops = 0;

	rcu_register_thread();
	for (int b = 0; b < NBUCKETS; b++)
		INIT_HLIST_BL_HEAD(&buckets[b]);
	writers_done = 0;
	for (int b = 0; b < NBUCKETS; b++)
		bucket_ops[b] = 0;
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&r[i], NULL, bl_reader, &bad[i]), 0);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&w[i], NULL, bl_writer, &wa[i]), 0);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(w[i], NULL), 0);
	__atomic_store_n(&writers_done, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(pthread_join(r[i], NULL), 0);
		ck_assert_int_eq(bad[i], 0);
	}
	for (int b = 0; b < NBUCKETS; b++)
		ops += bucket_ops[b];
	ck_assert_uint_eq(ops, 2 * WRITER_OPS);
	for (int b = 0; b < NBUCKETS; b++) {
		struct item *tpos;
		struct hlist_bl_node *pos, *n;

		ck_assert(!hlist_bl_is_locked(&buckets[b]));
		hlist_bl_lock(&buckets[b]);
		hlist_bl_for_each_entry_safe(tpos, pos, n, &buckets[b], blnode)
		{
			hlist_bl_del(&tpos->blnode);
			free(tpos);
			live++;
		}
		hlist_bl_unlock(&buckets[b]);
	}
	ck_assert_int_eq(live, wa[0].inserted + wa[1].inserted - wa[0].removed - wa[1].removed);
	rcu_barrier();
	rcu_unregister_thread();
}
END_TEST

static Suite *list_suite(void)
{
	Suite *s = suite_create("list");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_list_ops);
	tcase_add_test(tc, test_hlist_ops);
	tcase_add_test(tc, test_hlist_bl_lock_bit);
	tcase_add_test(tc, test_hlist_bl_rcu_concurrent);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(list_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
