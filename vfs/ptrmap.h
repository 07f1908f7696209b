/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A pointer -> index map, open addressing, for the invariant checker
 * (vfs/check.c): a torture run leaves thousands of mounts, and looked up by
 * a scan the tree's check grew with their square.
 */
#ifndef VFSLAB_VFS_PTRMAP_H
#define VFSLAB_VFS_PTRMAP_H

#include <stddef.h>

struct ptrmap {
	struct ptrmap_slot {
		const void *p; /* NULL: empty */
		size_t i;
	} * slot;
	size_t mask, used;
};

/* @p's index, or -1. */
long ptrmap_find(const struct ptrmap *h, const void *p);
/* Add @p (not there yet) with index @i; 0, or -1 without memory. */
int ptrmap_add(struct ptrmap *h, const void *p, size_t i);
void ptrmap_free(struct ptrmap *h);

#endif /* VFSLAB_VFS_PTRMAP_H */
