// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kmem caches and kmalloc on jemalloc (mallocx/sdallocx with an explicit
 * alignment) or, without it, on aligned_alloc/free.  Models the interface of
 * mm/slab_common.c.  The in-use count and the free stacks are per CPU so
 * that open/close loops gain neither a shared cache line nor a locked
 * instruction the kernel's SLUB fast path does not have.
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
#include "lib/arch.h"
#include "lib/rcu.h"
#include "lib/slab.h"
#include "lib/spinlock.h"

#define KMEM_CACHE_NAME_LEN 32
#define KMEM_DEFAULT_ALIGN 8u
#define HUGE_PAGE_SIZE (2ul << 20)

/* A SLAB_TYPESAFE_BY_RCU cache's per-CPU stack of freed objects. */
#define TYPESAFE_STACK 256

/*
 * One CPU's part of a cache, as SLUB's kmem_cache_cpu: its count of
 * objects in use and, for SLAB_TYPESAFE_BY_RCU, its stack of freed
 * objects.  A CPU number (arch_cpu_id()) belongs to one live thread, so
 * the owner works on its part with plain loads and stores and no lock,
 * as SLUB's this_cpu fast path does without a LOCK prefix.  Threads
 * without a number share one more part, under its lock.
 */
struct kmem_cache_cpu {
	long inuse; /* this CPU's allocs minus its frees; others only sum it */
	unsigned int nr;
	void *obj[]; /* TYPESAFE_STACK of them, SLAB_TYPESAFE_BY_RCU only */
};

struct kmem_cache {
	size_t size; /* stride: object size rounded up */
	size_t object_size; /* what the creator asked for */
	size_t align;
	unsigned int flags;
	char name[KMEM_CACHE_NAME_LEN];
	spinlock_t shared_lock; /* guards shared, the part of threads without a number */
	struct kmem_cache_cpu *shared;
	struct kmem_cache_cpu *cpu[ARCH_NR_CPUS]; /* made by each CPU on first use */
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
	/* C11 wants a size that is a multiple of the alignment. */
	return aligned_alloc(align, ALIGN(size, align));
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

static size_t cache_cpu_size(const struct kmem_cache *c)
{
	size_t n = c->flags & SLAB_TYPESAFE_BY_RCU ? TYPESAFE_STACK : 0;

	return ALIGN(sizeof(struct kmem_cache_cpu) + n * sizeof(void *), L1_CACHE_BYTES);
}

static struct kmem_cache_cpu *cache_cpu_new(const struct kmem_cache *c)
{
	struct kmem_cache_cpu *cpu = cache_mem_alloc(cache_cpu_size(c), L1_CACHE_BYTES);

	if (cpu) {
		cpu->inuse = 0;
		cpu->nr = 0;
	}
	return cpu;
}

static void cache_cpu_free(const struct kmem_cache *c, struct kmem_cache_cpu *cpu)
{
	while (cpu->nr)
		cache_mem_free(cpu->obj[--cpu->nr], c->size, c->align);
	cache_mem_free(cpu, cache_cpu_size(c), L1_CACHE_BYTES);
}

/*
 * This CPU's part, made on its first use (only its owner ever stores the
 * pointer), or NULL for a thread without a number or when that fails:
 * the caller then takes the shared part under its lock.
 */
static struct kmem_cache_cpu *this_cache_cpu(struct kmem_cache *c)
{
	int id = arch_cpu_id();
	struct kmem_cache_cpu *cpu;

	if (unlikely(id < 0))
		return NULL;
	cpu = c->cpu[id];
	if (likely(cpu))
		return cpu;
	cpu = cache_cpu_new(c);
	if (cpu)
		__atomic_store_n(&c->cpu[id], cpu, __ATOMIC_RELEASE); /* for the summing side */
	return cpu;
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
	if (flags & SLAB_HWCACHE_ALIGN) {
		/* calculate_alignment(): a small object needs no more than half a line. */
		size_t ralign = arch_cache_line_size();

		while (size <= ralign / 2)
			ralign /= 2;
		align = max(align, ralign);
	}
	if (size > SIZE_MAX - align)
		return NULL;

	c = cache_mem_alloc(sizeof(*c), L1_CACHE_BYTES);
	if (!c)
		return NULL;
	memset(c, 0, sizeof(*c));
	c->object_size = size;
	c->align = align;
	/* A multiple of the alignment: of the line, or of its half for half a line or less. */
	c->size = ALIGN(size, align);
	c->flags = flags;
	snprintf(c->name, sizeof(c->name), "%s", name ? name : "");
	spin_lock_init(&c->shared_lock);
	c->shared = cache_cpu_new(c);
	if (!c->shared) {
		cache_mem_free(c, sizeof(*c), L1_CACHE_BYTES);
		return NULL;
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
	for (unsigned int i = 0; i < ARCH_NR_CPUS; i++)
		if (c->cpu[i])
			cache_cpu_free(c, c->cpu[i]);
	cache_cpu_free(c, c->shared);
	cache_mem_free(c, sizeof(*c), L1_CACHE_BYTES);
}

static void typesafe_release(void *ctx, void *obj)
{
	struct kmem_cache *c = ctx;

	cache_mem_free(obj, c->size, c->align);
}

/* A recycled object from @cpu's stack, or new memory; counted on @cpu. */
static void *cache_cpu_alloc(struct kmem_cache *c, struct kmem_cache_cpu *cpu)
{
	void *obj = NULL;

	if (cpu->nr)
		obj = cpu->obj[--cpu->nr];
	else
		obj = cache_mem_alloc(c->size, c->align);
	if (likely(obj))
		WRITE_ONCE(cpu->inuse, cpu->inuse + 1);
	return obj;
}

/*
 * Uncounts @obj on @cpu and keeps it on @cpu's stack if the cache is
 * SLAB_TYPESAFE_BY_RCU and there is room; returns what is left to free.
 */
static void *cache_cpu_free_obj(struct kmem_cache_cpu *cpu, void *obj, bool typesafe)
{
	WRITE_ONCE(cpu->inuse, cpu->inuse - 1);
	if (typesafe && cpu->nr < TYPESAFE_STACK) {
		cpu->obj[cpu->nr++] = obj;
		return NULL;
	}
	return obj;
}

/* Models kmem_cache_alloc(). */
void *kmem_cache_alloc(struct kmem_cache *c)
{
	struct kmem_cache_cpu *cpu = this_cache_cpu(c);
	void *obj;

	if (likely(cpu))
		return cache_cpu_alloc(c, cpu);
	spin_lock(&c->shared_lock);
	obj = cache_cpu_alloc(c, c->shared);
	spin_unlock(&c->shared_lock);
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
	bool typesafe = c->flags & SLAB_TYPESAFE_BY_RCU;
	struct kmem_cache_cpu *cpu;

	if (unlikely(!obj))
		return;
	cpu = this_cache_cpu(c);
	if (likely(cpu)) {
		obj = cache_cpu_free_obj(cpu, obj, typesafe);
	} else {
		spin_lock(&c->shared_lock);
		obj = cache_cpu_free_obj(c->shared, obj, typesafe);
		spin_unlock(&c->shared_lock);
	}
	if (!obj)
		return;
	/* A full stack: the memory goes back only after a grace period. */
	if (typesafe)
		rcu_defer_free(obj, typesafe_release, c);
	else
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
	long sum = READ_ONCE(c->shared->inuse);

	for (unsigned int i = 0; i < ARCH_NR_CPUS; i++) {
		const struct kmem_cache_cpu *cpu = __atomic_load_n(&c->cpu[i], __ATOMIC_ACQUIRE);

		if (cpu)
			sum += READ_ONCE(cpu->inuse);
	}
	return sum;
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
