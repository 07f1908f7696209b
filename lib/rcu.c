// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Out-of-line RCU helpers.  rcu_defer_free() plays the part of the kernel's
 * kfree_rcu() for objects without an embedded rcu_head.
 */
#include <stdlib.h>

#include "lib/bug.h"
#include "lib/rcu.h"
#include "lib/spinlock.h"

#define DEFER_BATCH 62

/* One thread's pending frees; a full batch goes to call_rcu() whole. */
struct defer_batch {
	struct rcu_head head;
	unsigned int n;
	struct {
		void (*fn)(void *ctx, void *obj);
		void *ctx;
		void *obj;
	} e[DEFER_BATCH];
};

/*
 * Per thread, and registered so rcu_barrier() can flush the batches of
 * every thread, exited ones included. The lock is the owner's except while
 * a barrier flushes.
 */
struct defer_slot {
	spinlock_t lock;
	struct defer_batch *cur;
	struct defer_slot *next;
};

static struct defer_slot *defer_slots;
static __thread struct defer_slot *defer_self;

static struct defer_slot *defer_slot_get(void)
{
	struct defer_slot *s = defer_self;

	if (likely(s))
		return s;
	s = calloc(1, sizeof(*s));
	BUG_ON(!s);
	spin_lock_init(&s->lock);
	s->next = __atomic_load_n(&defer_slots, __ATOMIC_ACQUIRE);
	while (!__atomic_compare_exchange_n(&defer_slots, &s->next, s, false, __ATOMIC_RELEASE,
					    __ATOMIC_ACQUIRE))
		;
	defer_self = s;
	return s;
}

static void defer_batch_cb(struct rcu_head *head)
{
	struct defer_batch *b = container_of(head, struct defer_batch, head);

	for (unsigned int i = 0; i < b->n; i++)
		b->e[i].fn(b->e[i].ctx, b->e[i].obj);
	free(b);
}

void rcu_defer_free(void *obj, void (*fn)(void *ctx, void *obj), void *ctx)
{
	struct defer_slot *s = defer_slot_get();
	struct defer_batch *b, *full = NULL;

	spin_lock(&s->lock);
	b = s->cur;
	if (unlikely(!b)) {
		b = malloc(sizeof(*b));
		/* Out of memory with nowhere to wait from: nothing sane is left. */
		BUG_ON(!b);
		b->n = 0;
		s->cur = b;
	}
	b->e[b->n].fn = fn;
	b->e[b->n].ctx = ctx;
	b->e[b->n].obj = obj;
	if (++b->n == DEFER_BATCH) {
		full = b;
		s->cur = NULL;
	}
	spin_unlock(&s->lock);
	if (full)
		call_rcu(&full->head, defer_batch_cb);
}

void rcu_barrier(void)
{
	for (struct defer_slot *s = __atomic_load_n(&defer_slots, __ATOMIC_ACQUIRE); s;
	     s = s->next) {
		struct defer_batch *b;

		spin_lock(&s->lock);
		b = s->cur;
		s->cur = NULL;
		spin_unlock(&s->lock);
		if (b)
			call_rcu(&b->head, defer_batch_cb);
	}
	urcu_memb_barrier();
}
