/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Named caches of fixed-size objects and the kmalloc() family, on jemalloc
 * (or the C library when configured --without-jemalloc).  A cache fixes an
 * object's stride and alignment, which is what decides how objects share
 * cache lines, and counts objects in use the way /proc/slabinfo's active_objs
 * does.  Models the API of include/linux/slab.h.  There are no slabs: plain
 * caches allocate each object from jemalloc; SLAB_TYPESAFE_BY_RCU caches keep
 * per-CPU stacks of freed objects and hand them out again at once, as the
 * kernel's filp cache does.
 *
 * Every allocator returns NULL on failure; nothing here aborts.
 */
#ifndef VFSLAB_LIB_SLAB_H
#define VFSLAB_LIB_SLAB_H

#include <stddef.h>

#include "lib/compiler.h"

/* Align objects to cache lines and round their stride up to whole lines. */
#define SLAB_HWCACHE_ALIGN 0x1u
/*
 * A freed object may be reused at once for a new object of the same cache,
 * but its memory stays an object of the cache until a grace period has passed:
 * an RCU reader that raced with the free still reads an object of this type
 * (possibly a new one) and must re-check that it found what it wanted.
 */
#define SLAB_TYPESAFE_BY_RCU 0x2u

struct kmem_cache;

/**
 * kmem_cache_create - make a cache of @size-byte objects
 * @name: for reports; copied
 * @size: object size in bytes (> 0)
 * @align: wanted alignment, a power of two, or 0 for the default (8)
 * @flags: SLAB_HWCACHE_ALIGN, SLAB_TYPESAFE_BY_RCU, or 0
 *
 * The stride is @size rounded up to the alignment; with SLAB_HWCACHE_ALIGN
 * the alignment is at least 64 and the stride a multiple of 64.
 * Return: the cache, or NULL on bad arguments or no memory.
 */
struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align,
				     unsigned int flags);

/**
 * kmem_cache_destroy - free a cache (NULL is ignored)
 *
 * Waits for pending kmem_cache_free_rcu() frees (rcu_barrier(), so not inside
 * a read section) and WARNs if objects are still in use.
 */
void kmem_cache_destroy(struct kmem_cache *cache);

void *kmem_cache_alloc(struct kmem_cache *cache);
void *kmem_cache_zalloc(struct kmem_cache *cache);
void kmem_cache_free(struct kmem_cache *cache, void *obj);

/**
 * kmem_cache_free_rcu - free @obj after an RCU grace period
 *
 * Readers that found @obj under rcu_read_lock() may keep using it until
 * they leave their read section.  The calling thread must be registered
 * with RCU.  The in-use count drops when the free really happens.
 */
void kmem_cache_free_rcu(struct kmem_cache *cache, void *obj);

/**
 * kmem_cache_inuse - objects allocated and not yet (really) freed
 *
 * A sum over per-thread slots, exact when no alloc or free is in flight.
 */
long kmem_cache_inuse(const struct kmem_cache *cache);

size_t kmem_cache_size(const struct kmem_cache *cache); /* object stride */
size_t kmem_cache_align(const struct kmem_cache *cache);
const char *kmem_cache_name(const struct kmem_cache *cache);

/* kmalloc() and friends; size 0 gives a valid minimal allocation. */
void *kmalloc(size_t size);
void *kzalloc(size_t size);
void *kcalloc(size_t n, size_t size); /* NULL if n * size overflows */
void *krealloc(void *p, size_t size);
void kfree(void *p);
void *kvmalloc(size_t size);
void *kvzalloc(size_t size);
void kvfree(void *p);
/* Zeroed, on huge pages where it spans one: a large system hash table. */
void *vzalloc_huge(size_t size);
void vfree_huge(void *p, size_t size);

#endif /* VFSLAB_LIB_SLAB_H */
