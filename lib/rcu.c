// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Out-of-line RCU helpers.  rcu_defer_free() plays the part of the kernel's
 * kfree_rcu() for objects without an embedded rcu_head.
 */
#include <stdlib.h>

#include "lib/rcu.h"

struct rcu_deferred {
	struct rcu_head head;
	void (*fn)(void *ctx, void *obj);
	void *ctx;
	void *obj;
};

static void rcu_deferred_cb(struct rcu_head *head)
{
	struct rcu_deferred *d = container_of(head, struct rcu_deferred, head);

	d->fn(d->ctx, d->obj);
	free(d);
}

void rcu_defer_free(void *obj, void (*fn)(void *ctx, void *obj), void *ctx)
{
	struct rcu_deferred *d = malloc(sizeof(*d));

	if (unlikely(!d)) {
		synchronize_rcu();
		fn(ctx, obj);
		return;
	}
	d->fn = fn;
	d->ctx = ctx;
	d->obj = obj;
	call_rcu(&d->head, rcu_deferred_cb);
}
