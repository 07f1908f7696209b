/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Intrusive doubly linked lists (list_head) and hash lists (hlist), plus
 * the RCU variants of hlist.  Models include/linux/list.h and rculist.h.
 *
 * Links that RCU readers follow (->next, ->first) are written with
 * WRITE_ONCE/rcu_assign_pointer so the readers' marked loads never race with
 * plain stores.  ->pprev is only used by writers, who hold a lock.
 */
#ifndef VFSLAB_LIB_LIST_H
#define VFSLAB_LIB_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/compiler.h"
#include "lib/rcu.h"

/* Values left in deleted entries, so a use after list_del() faults at once. */
#define LIST_POISON1 ((void *)(uintptr_t)0x100)
#define LIST_POISON2 ((void *)(uintptr_t)0x122)

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)     \
	{                        \
		&(name), &(name) \
	}
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	WRITE_ONCE(list->next, list);
	list->prev = list;
}

static inline void __list_add(struct list_head *new, struct list_head *prev, struct list_head *next)
{
	next->prev = new;
	new->next = next;
	new->prev = prev;
	WRITE_ONCE(prev->next, new);
}

/** list_add - insert @new right after @head (stack order). */
static inline void list_add(struct list_head *new, struct list_head *head)
{
	__list_add(new, head, head->next);
}

/** list_add_tail - insert @new right before @head (queue order). */
static inline void list_add_tail(struct list_head *new, struct list_head *head)
{
	__list_add(new, head->prev, head);
}

static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	WRITE_ONCE(prev->next, next);
}

static inline void __list_del_entry(struct list_head *entry)
{
	__list_del(entry->prev, entry->next);
}

/** list_del - unlink @entry and poison it. */
static inline void list_del(struct list_head *entry)
{
	__list_del_entry(entry);
	entry->next = LIST_POISON1;
	entry->prev = LIST_POISON2;
}

/** list_del_init - unlink @entry and make it an empty list again. */
static inline void list_del_init(struct list_head *entry)
{
	__list_del_entry(entry);
	INIT_LIST_HEAD(entry);
}

static inline bool list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

static inline bool list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && head->next == head->prev;
}

static inline bool list_is_last(const struct list_head *list, const struct list_head *head)
{
	return list->next == head;
}

/** list_move - move @list from its list to right after @head. */
static inline void list_move(struct list_head *list, struct list_head *head)
{
	__list_del_entry(list);
	list_add(list, head);
}

/** list_move_tail - move @list from its list to right before @head. */
static inline void list_move_tail(struct list_head *list, struct list_head *head)
{
	__list_del_entry(list);
	list_add_tail(list, head);
}

/** list_replace - put @new where @old was (@old is left dangling). */
static inline void list_replace(struct list_head *old, struct list_head *new)
{
	new->next = old->next;
	new->next->prev = new;
	new->prev = old->prev;
	WRITE_ONCE(new->prev->next, new);
}

/** list_splice_init - move every entry of @list after @head, leave @list empty. */
static inline void list_splice_init(struct list_head *list, struct list_head *head)
{
	if (!list_empty(list)) {
		struct list_head *first = list->next, *last = list->prev;
		struct list_head *at = head->next;

		first->prev = head;
		WRITE_ONCE(head->next, first);
		last->next = at;
		at->prev = last;
		INIT_LIST_HEAD(list);
	}
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) list_entry((ptr)->next, type, member)
#define list_last_entry(ptr, type, member) list_entry((ptr)->prev, type, member)
#define list_first_entry_or_null(ptr, type, member)                       \
	({                                                                \
		struct list_head *__head = (ptr);                         \
		struct list_head *__pos = READ_ONCE(__head->next);        \
		__pos != __head ? list_entry(__pos, type, member) : NULL; \
	})
#define list_next_entry(pos, member) list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_prev_entry(pos, member) list_entry((pos)->member.prev, __typeof__(*(pos)), member)
#define list_entry_is_head(pos, head, member) (&(pos)->member == (head))

#define list_for_each(pos, head) for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

#define list_for_each_safe(pos, n, head)                               \
	for ((pos) = (head)->next, (n) = (pos)->next; (pos) != (head); \
	     (pos) = (n), (n) = (pos)->next)

#define list_for_each_entry(pos, head, member)                           \
	for ((pos) = list_first_entry(head, __typeof__(*(pos)), member); \
	     !list_entry_is_head(pos, head, member); (pos) = list_next_entry(pos, member))

#define list_for_each_entry_reverse(pos, head, member)                  \
	for ((pos) = list_last_entry(head, __typeof__(*(pos)), member); \
	     !list_entry_is_head(pos, head, member); (pos) = list_prev_entry(pos, member))

/* Safe against removal of the current entry. */
#define list_for_each_entry_safe(pos, n, head, member)                   \
	for ((pos) = list_first_entry(head, __typeof__(*(pos)), member), \
	    (n) = list_next_entry(pos, member);                          \
	     !list_entry_is_head(pos, head, member);                     \
	     (pos) = (n), (n) = list_next_entry(n, member))

/*
 * Hash lists: a one-pointer head, and nodes whose ->pprev points at whatever
 * points at them (the head's ->first or the previous node's ->next).
 */
struct hlist_node {
	struct hlist_node *next, **pprev;
};

struct hlist_head {
	struct hlist_node *first;
};

#define HLIST_HEAD_INIT       \
	{                     \
		.first = NULL \
	}
#define HLIST_HEAD(name) struct hlist_head name = HLIST_HEAD_INIT

static inline void INIT_HLIST_HEAD(struct hlist_head *h)
{
	WRITE_ONCE(h->first, NULL);
}

static inline void INIT_HLIST_NODE(struct hlist_node *n)
{
	WRITE_ONCE(n->next, NULL);
	WRITE_ONCE(n->pprev, NULL);
}

/** hlist_unhashed - is @n on no list?  (->pprev is NULL) */
static inline bool hlist_unhashed(const struct hlist_node *n)
{
	return !READ_ONCE(n->pprev);
}

static inline bool hlist_empty(const struct hlist_head *h)
{
	return !READ_ONCE(h->first);
}

static inline void __hlist_del(struct hlist_node *n)
{
	struct hlist_node *next = n->next;
	struct hlist_node **pprev = n->pprev;

	WRITE_ONCE(*pprev, next);
	if (next)
		WRITE_ONCE(next->pprev, pprev);
}

/** hlist_del - unlink @n and poison it. */
static inline void hlist_del(struct hlist_node *n)
{
	__hlist_del(n);
	WRITE_ONCE(n->next, LIST_POISON1);
	WRITE_ONCE(n->pprev, LIST_POISON2);
}

/** hlist_del_init - unlink @n if hashed and reinitialise it. */
static inline void hlist_del_init(struct hlist_node *n)
{
	if (!hlist_unhashed(n)) {
		__hlist_del(n);
		INIT_HLIST_NODE(n);
	}
}

/** hlist_add_head - insert @n first in @h (no concurrent readers). */
static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	WRITE_ONCE(n->next, first);
	if (first)
		WRITE_ONCE(first->pprev, &n->next);
	WRITE_ONCE(h->first, n);
	WRITE_ONCE(n->pprev, &h->first);
}

/** hlist_add_before - insert @n before @next, which is on a list. */
static inline void hlist_add_before(struct hlist_node *n, struct hlist_node *next)
{
	WRITE_ONCE(n->pprev, next->pprev);
	WRITE_ONCE(n->next, next);
	WRITE_ONCE(next->pprev, &n->next);
	WRITE_ONCE(*(n->pprev), n);
}

/** hlist_add_behind - insert @n after @prev, which is on a list. */
static inline void hlist_add_behind(struct hlist_node *n, struct hlist_node *prev)
{
	WRITE_ONCE(n->next, prev->next);
	WRITE_ONCE(prev->next, n);
	WRITE_ONCE(n->pprev, &prev->next);
	if (n->next)
		WRITE_ONCE(n->next->pprev, &n->next);
}

/**
 * hlist_add_head_rcu - insert @n first in @h while RCU readers may walk it
 *
 * @n is fully linked before rcu_assign_pointer() publishes it.  The caller
 * holds the lock that serialises writers.
 */
static inline void hlist_add_head_rcu(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	WRITE_ONCE(n->next, first);
	WRITE_ONCE(n->pprev, &h->first);
	rcu_assign_pointer(h->first, n);
	if (first)
		WRITE_ONCE(first->pprev, &n->next);
}

/**
 * hlist_del_rcu - unlink @n while RCU readers may be walking through it
 *
 * ->next is left alone, so a reader standing on @n can carry on.  Unlike the
 * kernel (which poisons ->pprev) we clear it, so hlist_unhashed() is true.
 * Free @n only after a grace period.
 */
static inline void hlist_del_rcu(struct hlist_node *n)
{
	__hlist_del(n);
	WRITE_ONCE(n->pprev, NULL);
}

#define hlist_entry(ptr, type, member) container_of(ptr, type, member)
#define hlist_entry_safe(ptr, type, member)                          \
	({                                                           \
		__typeof__(ptr) ____ptr = (ptr);                     \
		____ptr ? hlist_entry(____ptr, type, member) : NULL; \
	})

#define hlist_for_each(pos, head) for ((pos) = (head)->first; (pos); (pos) = (pos)->next)

#define hlist_for_each_entry(pos, head, member)                                          \
	for ((pos) = hlist_entry_safe((head)->first, __typeof__(*(pos)), member); (pos); \
	     (pos) = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)), member))

/* Continue after @pos. */
#define hlist_for_each_entry_continue(pos, member)                                            \
	for ((pos) = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)), member); (pos); \
	     (pos) = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)), member))

/* Continue from @pos itself. */
#define hlist_for_each_entry_from(pos, member) \
	for (; (pos); (pos) = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)), member))

/* Safe against removal of the current entry; @n is a struct hlist_node *. */
#define hlist_for_each_entry_safe(pos, n, head, member)                           \
	for ((pos) = hlist_entry_safe((head)->first, __typeof__(*(pos)), member); \
	     (pos) && ({                                                          \
		     (n) = (pos)->member.next;                                    \
		     1;                                                           \
	     });                                                                  \
	     (pos) = hlist_entry_safe(n, __typeof__(*(pos)), member))

/* Walk under rcu_read_lock(); entries may be added or deleted concurrently. */
#define hlist_for_each_entry_rcu(pos, head, member)                                                \
	for ((pos) = hlist_entry_safe(rcu_dereference((head)->first), __typeof__(*(pos)), member); \
	     (pos); (pos) = hlist_entry_safe(rcu_dereference((pos)->member.next),                  \
					     __typeof__(*(pos)), member))

#endif /* VFSLAB_LIB_LIST_H */
