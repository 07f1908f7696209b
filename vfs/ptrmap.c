// SPDX-License-Identifier: LGPL-2.1-or-later
/* The checker's pointer -> index map (vfs/ptrmap.h): linear probing, kept under half full. */
#include <stdint.h>
#include <stdlib.h>

#include "vfs/ptrmap.h"

static size_t slot_of(const struct ptrmap *h, const void *p)
{
	return ((uintptr_t)p * 0x9e3779b97f4a7c15ull >> 20) & h->mask;
}

long ptrmap_find(const struct ptrmap *h, const void *p)
{
	if (!h->slot)
		return -1;
	for (size_t s = slot_of(h, p);; s = (s + 1) & h->mask) {
		if (h->slot[s].p == p)
			return (long)h->slot[s].i;
		if (!h->slot[s].p)
			return -1;
	}
}

/* Into @h, which has room: the first free slot from @p's. */
static void put(struct ptrmap *h, const void *p, size_t i)
{
	size_t s;

	for (s = slot_of(h, p); h->slot[s].p; s = (s + 1) & h->mask)
		;
	h->slot[s] = (struct ptrmap_slot){ p, i };
}

int ptrmap_add(struct ptrmap *h, const void *p, size_t i)
{
	if (2 * (h->used + 1) > (h->slot ? h->mask + 1 : 0)) {
		struct ptrmap n = { .mask = h->slot ? 2 * h->mask + 1 : 63, .used = h->used };

		n.slot = calloc(n.mask + 1, sizeof(*n.slot));
		if (!n.slot)
			return -1;
		for (size_t k = 0; h->slot && k <= h->mask; k++)
			if (h->slot[k].p)
				put(&n, h->slot[k].p, h->slot[k].i);
		free(h->slot);
		*h = n;
	}
	put(h, p, i);
	h->used++;
	return 0;
}

void ptrmap_free(struct ptrmap *h)
{
	free(h->slot);
	h->slot = NULL;
	h->mask = h->used = 0;
}
