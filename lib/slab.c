// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kmem caches and kmalloc on jemalloc (mallocx/sdallocx with an explicit
 * alignment) or, without it, on aligned_alloc/free.  Models the interface of
 * mm/slab_common.c.  The in-use count is a percpu counter so that open/close
 * loops do not gain a shared cache line the kernel does not have.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifdef HAVE_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

#include "lib/bug.h"
#include "lib/percpu_counter.h"
#include "lib/rcu.h"
#include "lib/slab.h"
#include "lib/spinlock.h"

#define KMEM_CACHE_NAME_LEN 32
#define KMEM_DEFAULT_ALIGN 8u
#define HUGE_PAGE_SIZE (2ul << 20)

/* A SLAB_TYPESAFE_BY_RCU cache's per-CPU stack of freed objects. */
#define TYPESAFE_STACK 256

struct kmem_cache_cpu {
	spinlock_t lock; /* the owner's, except when another thread shares the slot */
	unsigned int nr;
	void *obj[TYPESAFE_STACK];
} __cacheline_aligned;

struct kmem_cache {
	struct percpu_counter inuse; /* first: it is cache-line aligned */
	size_t size; /* stride: object size rounded up */
	size_t object_size; /* what the creator asked for */
	size_t align;
	unsigned int flags;
	char name[KMEM_CACHE_NAME_LEN];
	struct kmem_cache_cpu *cpu; /* NR_CPUS of them, SLAB_TYPESAFE_BY_RCU only */
};

static bool is_power_of_2(size_t n)
{
	return n && !(n & (n - 1));
}

static void *cache_mem_alloc(size_t size, size_t align)
{
#ifdef HAVE_JEMALLOC
	return mallocx(size, MALLOCX_ALIGN(align));
#else
	return aligned_alloc(align, size);
#endif
}

static void cache_mem_free(void *p, size_t size, size_t align)
{
#ifdef HAVE_JEMALLOC
	sdallocx(p, size, MALLOCX_ALIGN(align));
#else
	(void)size;
	(void)align;
	free(p);
#endif
}

/* Models kmem_cache_create() in mm/slab_common.c. */
struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align,
				     unsigned int flags)
{
	struct kmem_cache *c;

	if (!size || (align && !is_power_of_2(align)) ||
	    (flags & ~(SLAB_HWCACHE_ALIGN | SLAB_TYPESAFE_BY_RCU)))
		return NULL;
	if (!align)
		align = KMEM_DEFAULT_ALIGN;
	if (flags & SLAB_HWCACHE_ALIGN)
		align = max(align, (size_t)L1_CACHE_BYTES);
	if (size > SIZE_MAX - align)
		return NULL;

	c = cache_mem_alloc(sizeof(*c), L1_CACHE_BYTES);
	if (!c)
		return NULL;
	memset(c, 0, sizeof(*c));
	percpu_counter_init(&c->inuse);
	c->object_size = size;
	c->align = align;
	/* A multiple of the alignment, hence of 64 with SLAB_HWCACHE_ALIGN. */
	c->size = ALIGN(size, align);
	c->flags = flags;
	snprintf(c->name, sizeof(c->name), "%s", name ? name : "");
	if (flags & SLAB_TYPESAFE_BY_RCU) {
		c->cpu = cache_mem_alloc(sizeof(*c->cpu) * NR_CPUS, L1_CACHE_BYTES);
		if (!c->cpu) {
			cache_mem_free(c, sizeof(*c), L1_CACHE_BYTES);
			return NULL;
		}
		for (unsigned int i = 0; i < NR_CPUS; i++) {
			spin_lock_init(&c->cpu[i].lock);
			c->cpu[i].nr = 0;
		}
	}
	return c;
}

/* Models kmem_cache_destroy() in mm/slab_common.c. */
void kmem_cache_destroy(struct kmem_cache *c)
{
	long inuse;

	if (!c)
		return;
	/* Let queued kmem_cache_free_rcu() frees land before we count. */
	rcu_barrier();
	inuse = kmem_cache_inuse(c);
	WARN(inuse != 0, "kmem_cache_destroy %s: %ld objects still in use", c->name, inuse);
	if (c->cpu) {
		for (unsigned int i = 0; i < NR_CPUS; i++)
			while (c->cpu[i].nr)
				cache_mem_free(c->cpu[i].obj[--c->cpu[i].nr], c->size, c->align);
		cache_mem_free(c->cpu, sizeof(*c->cpu) * NR_CPUS, L1_CACHE_BYTES);
	}
	cache_mem_free(c, sizeof(*c), L1_CACHE_BYTES);
}

/* A recycled object from this CPU's stack, or NULL. */
static void *typesafe_pop(struct kmem_cache *c)
{
	struct kmem_cache_cpu *cpu = &c->cpu[raw_smp_processor_id()];
	void *obj = NULL;

	spin_lock(&cpu->lock);
	if (cpu->nr)
		obj = cpu->obj[--cpu->nr];
	spin_unlock(&cpu->lock);
	return obj;
}

static void typesafe_release(void *ctx, void *obj)
{
	struct kmem_cache *c = ctx;

	cache_mem_free(obj, c->size, c->align);
}

/* Models kmem_cache_alloc(). */
void *kmem_cache_alloc(struct kmem_cache *c)
{
	void *obj = NULL;

	if (c->cpu)
		obj = typesafe_pop(c);
	if (!obj)
		obj = cache_mem_alloc(c->size, c->align);

	if (likely(obj))
		percpu_counter_inc(&c->inuse);
	return obj;
}

/* Models kmem_cache_zalloc(). */
void *kmem_cache_zalloc(struct kmem_cache *c)
{
	void *obj = kmem_cache_alloc(c);

	if (likely(obj))
		memset(obj, 0, c->size);
	return obj;
}

/* Models kmem_cache_free(). */
void kmem_cache_free(struct kmem_cache *c, void *obj)
{
	if (unlikely(!obj))
		return;
	percpu_counter_dec(&c->inuse);
	if (c->cpu) {
		struct kmem_cache_cpu *cpu = &c->cpu[raw_smp_processor_id()];

		spin_lock(&cpu->lock);
		if (cpu->nr < TYPESAFE_STACK) {
			cpu->obj[cpu->nr++] = obj;
			obj = NULL;
		}
		spin_unlock(&cpu->lock);
		/* A full stack: the memory goes back only after a grace period. */
		if (obj)
			rcu_defer_free(obj, typesafe_release, c);
		return;
	}
	cache_mem_free(obj, c->size, c->align);
}

static void kmem_cache_free_rcu_cb(void *ctx, void *obj)
{
	kmem_cache_free(ctx, obj);
}

/* Like kfree_rcu(), for objects without a known rcu_head. */
void kmem_cache_free_rcu(struct kmem_cache *c, void *obj)
{
	if (unlikely(!obj))
		return;
	rcu_defer_free(obj, kmem_cache_free_rcu_cb, c);
}

long kmem_cache_inuse(const struct kmem_cache *c)
{
	return percpu_counter_sum(&c->inuse);
}

size_t kmem_cache_size(const struct kmem_cache *c)
{
	return c->size;
}

size_t kmem_cache_align(const struct kmem_cache *c)
{
	return c->align;
}

const char *kmem_cache_name(const struct kmem_cache *c)
{
	return c->name;
}

/*
 * kmalloc() family.  With jemalloc linked in, malloc() is jemalloc's; a zero
 * size still gets a real (1-byte) allocation, like the kernel's ZERO_SIZE_PTR
 * being non-NULL.
 */
void *kmalloc(size_t size)
{
	return malloc(size ? size : 1);
}

void *kzalloc(size_t size)
{
	return calloc(1, size ? size : 1);
}

void *kcalloc(size_t n, size_t size)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return calloc(1, bytes ? bytes : 1);
}

void *krealloc(void *p, size_t size)
{
	return realloc(p, size ? size : 1);
}

void kfree(void *p)
{
	free(p);
}

void *kvmalloc(size_t size)
{
	return kmalloc(size);
}

void *kvzalloc(size_t size)
{
	return kzalloc(size);
}

void kvfree(void *p)
{
	kfree(p);
}

/*
 * Models vmalloc_huge() with __GFP_ZERO, as alloc_large_system_hash()
 * gets the dcache's table: the kernel's lies in huge-page mappings, so a
 * lookup's random bucket costs a cache miss, rarely a page walk too. A
 * table of 2 MiB or more is an anonymous mapping of its own, aligned for
 * transparent huge pages (4 KiB pages where they are off), zeroed here as
 * the kernel's is at boot, so that no lookup pays a first touch. Free with
 * vfree_huge() and the same size.
 */
void *vzalloc_huge(size_t size)
{
	size_t len = (size + HUGE_PAGE_SIZE - 1) & ~(HUGE_PAGE_SIZE - 1);
	uintptr_t start, aligned;
	void *p;

	if (size < HUGE_PAGE_SIZE)
		return kzalloc(size);
	p = mmap(NULL, len + HUGE_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	/* Trim to a 2 MiB boundary at both ends. */
	start = (uintptr_t)p;
	aligned = (start + HUGE_PAGE_SIZE - 1) & ~(HUGE_PAGE_SIZE - 1);
	if (aligned > start)
		munmap(p, aligned - start);
	munmap((void *)(aligned + len), start + HUGE_PAGE_SIZE - aligned);
#ifdef MADV_HUGEPAGE
	madvise((void *)aligned, len, MADV_HUGEPAGE);
#endif
	memset((void *)aligned, 0, len);
	return (void *)aligned;
}

void vfree_huge(void *p, size_t size)
{
	if (size < HUGE_PAGE_SIZE)
		kfree(p);
	else if (p)
		munmap(p, (size + HUGE_PAGE_SIZE - 1) & ~(HUGE_PAGE_SIZE - 1));
}
