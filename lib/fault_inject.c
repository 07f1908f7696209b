// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The armed delay points of lib/fault_inject.h.  Built only into the test
 * programs that compile code under test with -DVFSLAB_FAULT_INJECTION.
 *
 * A point may sit inside the spinlock's slow path, so nothing here takes a
 * lock: a slot is published by a release store of its hook and read with an
 * acquire load.
 */
#include <string.h>

#include "lib/atomic.h"
#include "lib/bug.h"
#include "lib/fault_inject.h"

struct fault_slot {
	const char *point;
	fault_hook_t hook; /* NULL: the slot is free */
	void *arg;
};

static struct fault_slot fault_slots[FAULT_POINTS_MAX];

void fault_inject_arm(const char *point, fault_hook_t hook, void *arg)
{
	for (int i = 0; i < FAULT_POINTS_MAX; i++) {
		struct fault_slot *s = &fault_slots[i];

		if (smp_load_acquire(&s->hook))
			continue;
		WRITE_ONCE(s->point, point);
		WRITE_ONCE(s->arg, arg);
		smp_store_release(&s->hook, hook);
		return;
	}
	BUG(); /* more than FAULT_POINTS_MAX armed at once */
}

void fault_inject_disarm(const char *point)
{
	for (int i = 0; i < FAULT_POINTS_MAX; i++) {
		struct fault_slot *s = &fault_slots[i];

		if (smp_load_acquire(&s->hook) && !strcmp(READ_ONCE(s->point), point))
			smp_store_release(&s->hook, NULL);
	}
}

void fault_point_reached(const char *point)
{
	for (int i = 0; i < FAULT_POINTS_MAX; i++) {
		struct fault_slot *s = &fault_slots[i];
		fault_hook_t hook = smp_load_acquire(&s->hook);

		if (hook && !strcmp(READ_ONCE(s->point), point))
			hook(READ_ONCE(s->arg));
	}
}
