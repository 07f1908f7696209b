// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which object a cache line belongs to, for the contention report: the
 * simulator's binary is linked with --wrap for the slab allocation calls,
 * and each object is tagged with its cache's name ("dentry", "filp", ...)
 * in the simulated heap. kmalloc()ed memory stays untagged.
 */
#include "lib/slab.h"
#include "tools/sim/sim.h"

void *__real_kmem_cache_alloc(struct kmem_cache *c);
void *__real_kmem_cache_zalloc(struct kmem_cache *c);
void *__wrap_kmem_cache_alloc(struct kmem_cache *c);
void *__wrap_kmem_cache_zalloc(struct kmem_cache *c);

static void tag(struct kmem_cache *c, void *obj)
{
	/* The cache's name is VFS memory: reading it is not part of the run. */
	if (obj)
		SIM_IGNORED(sim_arena_tag(obj, kmem_cache_name(c)));
}

void *__wrap_kmem_cache_alloc(struct kmem_cache *c)
{
	void *obj = __real_kmem_cache_alloc(c);

	tag(c, obj);
	return obj;
}

void *__wrap_kmem_cache_zalloc(struct kmem_cache *c)
{
	void *obj = __real_kmem_cache_zalloc(c);

	tag(c, obj);
	return obj;
}
