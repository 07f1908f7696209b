/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hash lists whose head pointer carries a spinlock in bit 0, so each bucket
 * of the dentry hash table is one word with its own lock.  RCU readers mask
 * the bit off and walk; writers take the bit lock.  Models
 * include/linux/list_bl.h, include/linux/rculist_bl.h and the bit_spin_lock()
 * used underneath.
 */
#ifndef VFSLAB_LIB_HLIST_BL_H
#define VFSLAB_LIB_HLIST_BL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/atomic.h"
#include "lib/bug.h"
#include "lib/compiler.h"
#include "lib/list.h"
#include "lib/rcu.h"

#define LIST_BL_LOCKMASK 1UL

struct hlist_bl_node {
	struct hlist_bl_node *next, **pprev;
};

struct hlist_bl_head {
	struct hlist_bl_node *first; /* bit 0: the bucket lock */
};

/* The head word seen as an integer, for the atomic bit operations. */
typedef uintptr_t __attribute__((__may_alias__)) hlist_bl_word_t;

static inline hlist_bl_word_t *hlist_bl_word(struct hlist_bl_head *h)
{
	return (hlist_bl_word_t *)(void *)&h->first;
}

static inline struct hlist_bl_node *hlist_bl_untag(struct hlist_bl_node *p)
{
	return (struct hlist_bl_node *)((uintptr_t)p & ~LIST_BL_LOCKMASK);
}

static inline void INIT_HLIST_BL_HEAD(struct hlist_bl_head *h)
{
	WRITE_ONCE(h->first, NULL);
}

static inline void INIT_HLIST_BL_NODE(struct hlist_bl_node *n)
{
	WRITE_ONCE(n->next, NULL);
	WRITE_ONCE(n->pprev, NULL);
}

#define hlist_bl_entry(ptr, type, member) container_of(ptr, type, member)

/** hlist_bl_unhashed - is @n on no list? */
static inline bool hlist_bl_unhashed(const struct hlist_bl_node *n)
{
	return !READ_ONCE(n->pprev);
}

/** hlist_bl_first - first node, lock bit masked off (writers, or racy peeks). */
static inline struct hlist_bl_node *hlist_bl_first(const struct hlist_bl_head *h)
{
	return hlist_bl_untag(READ_ONCE(h->first));
}

/** hlist_bl_first_rcu - first node for an RCU reader. */
static inline struct hlist_bl_node *hlist_bl_first_rcu(const struct hlist_bl_head *h)
{
	return hlist_bl_untag(rcu_dereference(h->first));
}

static inline bool hlist_bl_empty(const struct hlist_bl_head *h)
{
	return !hlist_bl_first(h);
}

/**
 * hlist_bl_lock - take the bucket's bit lock
 *
 * Models bit_spin_lock(0, ...): an acquire fetch_or of bit 0; while it was
 * already set, spin reading (cpu_relax) until it clears, then try again.
 */
static inline void hlist_bl_lock(struct hlist_bl_head *h)
{
	hlist_bl_word_t *w = hlist_bl_word(h);

	while (unlikely(__atomic_fetch_or(w, LIST_BL_LOCKMASK, __ATOMIC_ACQUIRE) &
			LIST_BL_LOCKMASK)) {
		while (__atomic_load_n(w, __ATOMIC_RELAXED) & LIST_BL_LOCKMASK)
			cpu_relax();
	}
}

/** hlist_bl_unlock - release the bucket lock; only the holder changes the word. */
static inline void hlist_bl_unlock(struct hlist_bl_head *h)
{
	hlist_bl_word_t *w = hlist_bl_word(h);

	__atomic_store_n(w, __atomic_load_n(w, __ATOMIC_RELAXED) & ~LIST_BL_LOCKMASK,
			 __ATOMIC_RELEASE);
}

static inline bool hlist_bl_is_locked(const struct hlist_bl_head *h)
{
	return ((uintptr_t)READ_ONCE(h->first) & LIST_BL_LOCKMASK) != 0;
}

/* Publish @n as the first node, keeping the lock bit the holder owns. */
static inline void hlist_bl_set_first_rcu(struct hlist_bl_head *h, struct hlist_bl_node *n)
{
	BUG_ON((uintptr_t)n & LIST_BL_LOCKMASK);
	BUG_ON(!hlist_bl_is_locked(h));
	rcu_assign_pointer(h->first, (struct hlist_bl_node *)((uintptr_t)n | LIST_BL_LOCKMASK));
}

/**
 * hlist_bl_add_head_rcu - insert @n first in the locked bucket @h
 *
 * @n is linked before it is published, so concurrent RCU readers see either
 * the old list or the new one.  ->next is published too: @n may be a node
 * a reader still stands on (d_move() unhashes and rehashes a live dentry),
 * and that reader follows ->next to @first.  The kernel's plain store counts
 * on the data dependency; C11 (and TSan) need the release.
 */
static inline void hlist_bl_add_head_rcu(struct hlist_bl_node *n, struct hlist_bl_head *h)
{
	struct hlist_bl_node *first = hlist_bl_first(h);

	rcu_assign_pointer(n->next, first);
	if (first)
		WRITE_ONCE(first->pprev, &n->next);
	WRITE_ONCE(n->pprev, &h->first);
	hlist_bl_set_first_rcu(h, n);
}

/* Non-RCU insert: same code, readers are simply not expected. */
static inline void hlist_bl_add_head(struct hlist_bl_node *n, struct hlist_bl_head *h)
{
	hlist_bl_add_head_rcu(n, h);
}

/*
 * Unlink @n (bucket locked).  If @n is first, *pprev is the head word, whose
 * lock bit must survive; for any other node the low bit is 0 anyway.  The
 * store republishes @next to readers on the previous node (or the head), so
 * it is a release: in C11 a reader that reads a relaxed store synchronises
 * with nobody.
 */
static inline void __hlist_bl_del(struct hlist_bl_node *n)
{
	struct hlist_bl_node *next = n->next;
	struct hlist_bl_node **pprev = n->pprev;
	uintptr_t lockbit = (uintptr_t)READ_ONCE(*pprev) & LIST_BL_LOCKMASK;

	BUG_ON((uintptr_t)next & LIST_BL_LOCKMASK);
	rcu_assign_pointer(*pprev, (struct hlist_bl_node *)((uintptr_t)next | lockbit));
	if (next)
		WRITE_ONCE(next->pprev, pprev);
}

/** hlist_bl_del - unlink @n and poison it. */
static inline void hlist_bl_del(struct hlist_bl_node *n)
{
	__hlist_bl_del(n);
	WRITE_ONCE(n->next, LIST_POISON1);
	WRITE_ONCE(n->pprev, LIST_POISON2);
}

/**
 * hlist_bl_del_rcu - unlink @n while RCU readers may stand on it
 *
 * ->next stays intact for them; ->pprev becomes NULL so hlist_bl_unhashed()
 * is true (the kernel poisons it and __d_drop() then clears it).
 */
static inline void hlist_bl_del_rcu(struct hlist_bl_node *n)
{
	__hlist_bl_del(n);
	WRITE_ONCE(n->pprev, NULL);
}

/** hlist_bl_del_init - unlink @n if hashed and reinitialise it. */
static inline void hlist_bl_del_init(struct hlist_bl_node *n)
{
	if (!hlist_bl_unhashed(n)) {
		__hlist_bl_del(n);
		INIT_HLIST_BL_NODE(n);
	}
}

/* Walk with the bucket locked. */
#define hlist_bl_for_each_entry(tpos, pos, head, member)                        \
	for ((pos) = hlist_bl_first(head);                                      \
	     (pos) && ({                                                        \
		     (tpos) = hlist_bl_entry(pos, __typeof__(*(tpos)), member); \
		     1;                                                         \
	     });                                                                \
	     (pos) = READ_ONCE((pos)->next))

/* Walk under rcu_read_lock() while writers may add and delete. */
#define hlist_bl_for_each_entry_rcu(tpos, pos, head, member)                    \
	for ((pos) = hlist_bl_first_rcu(head);                                  \
	     (pos) && ({                                                        \
		     (tpos) = hlist_bl_entry(pos, __typeof__(*(tpos)), member); \
		     1;                                                         \
	     });                                                                \
	     (pos) = rcu_dereference((pos)->next))

/* Walk with the bucket locked, safe against removal of the current entry. */
#define hlist_bl_for_each_entry_safe(tpos, pos, n, head, member)                \
	for ((pos) = hlist_bl_first(head);                                      \
	     (pos) && ({                                                        \
		     (n) = (pos)->next;                                         \
		     1;                                                         \
	     }) &&                                                              \
	     ({                                                                 \
		     (tpos) = hlist_bl_entry(pos, __typeof__(*(tpos)), member); \
		     1;                                                         \
	     });                                                                \
	     (pos) = (n))

#endif /* VFSLAB_LIB_HLIST_BL_H */
