// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Free pages on per-CPU lists in front of a zone list under zone->lock, as
 * mm/page_alloc.c has them: free_unref_page() puts a page on this CPU's
 * list and, past the list's high mark, gives its coldest batch back to the
 * zone (free_pcppages_bulk()); rmqueue_pcplist() takes the hottest page
 * from this CPU's list and refills an empty one with a batch from the zone
 * (rmqueue_bulk()).  A CPU's list is a stack on lines of its own, as the
 * kernel's per-CPU areas are; the zone's free pages are linked through
 * their first word, as the buddy lists link through struct page.  The zone
 * has no buddies: every page is one size, and new pages come from a kmem
 * cache aligned to the cache line, so a page's bytes fall on lines as a
 * real page's do.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/arch.h"
#include "lib/bug.h"
#include "lib/page_alloc.h"
#include "lib/rcu.h"
#include "lib/slab.h"
#include "lib/spinlock.h"

/*
 * zone_batchsize() gives 63 for a zone of a gigabyte or more;
 * zone_highsize() keeps at least four batches on a CPU's list.
 */
#define PCP_BATCH 63u
#define PCP_HIGH (4u * PCP_BATCH)

struct free_page {
	struct free_page *next;
};

/* One CPU's list, touched only by that CPU (the kernel's this_cpu pcp). */
struct per_cpu_pages {
	unsigned int count;
	void *page[PCP_HIGH]; /* page[0] the coldest, page[count - 1] the hottest */
};

struct page_zone {
	struct kmem_cache *pages; /* where new pages come from */
	struct kmem_cache *pcp_cache; /* the per-CPU lists, each on lines of its own */
	size_t page_size;
	struct per_cpu_pages *pcp[ARCH_NR_CPUS]; /* made by each CPU on first use */
	/* What the lock guards, off the lines every page operation reads. */
	spinlock_t lock __cacheline_aligned; /* zone->lock: free, nr_free */
	struct free_page *free;
	size_t nr_free;
};

struct page_zone *page_zone_create(const char *name, size_t page_size)
{
	struct page_zone *z;

	if (page_size < sizeof(struct free_page))
		return NULL;
	/* The lock's line aligned: a zone is allocated as its own lines. */
	z = aligned_alloc(L1_CACHE_BYTES, ALIGN(sizeof(*z), L1_CACHE_BYTES));
	if (!z)
		return NULL;
	memset(z, 0, sizeof(*z));
	z->pages = kmem_cache_create(name, page_size, 0, SLAB_HWCACHE_ALIGN);
	z->pcp_cache = kmem_cache_create("per_cpu_pages", sizeof(struct per_cpu_pages), 0,
					 SLAB_HWCACHE_ALIGN);
	if (!z->pages || !z->pcp_cache) {
		kmem_cache_destroy(z->pages);
		kmem_cache_destroy(z->pcp_cache);
		free(z);
		return NULL;
	}
	z->page_size = page_size;
	spin_lock_init(&z->lock);
	return z;
}

void page_zone_destroy(struct page_zone *z)
{
	if (!z)
		return;
	/* Pages whose free an RCU callback still holds land first. */
	rcu_barrier();
	for (unsigned int i = 0; i < ARCH_NR_CPUS; i++) {
		struct per_cpu_pages *pcp = z->pcp[i];

		if (!pcp)
			continue;
		while (pcp->count)
			kmem_cache_free(z->pages, pcp->page[--pcp->count]);
		kmem_cache_free(z->pcp_cache, pcp);
	}
	while (z->free) {
		struct free_page *next = z->free->next;

		kmem_cache_free(z->pages, z->free);
		z->free = next;
	}
	/* Each warns of what was never given back. */
	kmem_cache_destroy(z->pages);
	kmem_cache_destroy(z->pcp_cache);
	free(z);
}

/* This CPU's list, made on first use; NULL without a CPU number or memory. */
static struct per_cpu_pages *this_pcp(struct page_zone *z)
{
	int id = arch_cpu_id();
	struct per_cpu_pages *pcp;

	if (unlikely(id < 0))
		return NULL;
	pcp = z->pcp[id];
	if (likely(pcp))
		return pcp;
	pcp = kmem_cache_alloc(z->pcp_cache);
	if (pcp) {
		pcp->count = 0;
		__atomic_store_n(&z->pcp[id], pcp, __ATOMIC_RELEASE); /* for the counting side */
	}
	return pcp;
}

/* rmqueue_bulk(): up to a batch from the zone onto @pcp's empty list. */
static void pcp_refill(struct page_zone *z, struct per_cpu_pages *pcp)
{
	unsigned int n = 0;

	spin_lock(&z->lock);
	while (n < PCP_BATCH && z->free) {
		pcp->page[n++] = z->free;
		z->free = z->free->next;
	}
	WRITE_ONCE(z->nr_free, z->nr_free - n);
	spin_unlock(&z->lock);
	WRITE_ONCE(pcp->count, n);
}

/* free_pcppages_bulk(): the coldest batch of @pcp's full list to the zone. */
static void pcp_flush(struct page_zone *z, struct per_cpu_pages *pcp)
{
	struct free_page *head = NULL, *tail = pcp->page[0];

	for (unsigned int i = 0; i < PCP_BATCH; i++) {
		struct free_page *p = pcp->page[i];

		p->next = head;
		head = p;
	}
	memmove(pcp->page, pcp->page + PCP_BATCH, (pcp->count - PCP_BATCH) * sizeof(void *));
	WRITE_ONCE(pcp->count, pcp->count - PCP_BATCH);
	spin_lock(&z->lock);
	tail->next = z->free;
	z->free = head;
	WRITE_ONCE(z->nr_free, z->nr_free + PCP_BATCH);
	spin_unlock(&z->lock);
}

/* Models rmqueue_pcplist(). */
void *page_alloc_zeroed(struct page_zone *z)
{
	struct per_cpu_pages *pcp = this_pcp(z);
	struct free_page *p = NULL;

	if (likely(pcp)) {
		if (unlikely(!pcp->count) && READ_ONCE(z->nr_free))
			pcp_refill(z, pcp);
		if (pcp->count) {
			p = pcp->page[pcp->count - 1];
			WRITE_ONCE(pcp->count, pcp->count - 1);
		}
	} else if (READ_ONCE(z->nr_free)) {
		spin_lock(&z->lock);
		p = z->free;
		if (p) {
			z->free = p->next;
			WRITE_ONCE(z->nr_free, z->nr_free - 1);
		}
		spin_unlock(&z->lock);
	}
	if (!p)
		return kmem_cache_zalloc(z->pages);
	memset(p, 0, z->page_size);
	return p;
}

/* Models free_unref_page(). */
void page_free(struct page_zone *z, void *page)
{
	struct per_cpu_pages *pcp;
	struct free_page *p = page;

	if (unlikely(!p))
		return;
	pcp = this_pcp(z);
	if (likely(pcp)) {
		pcp->page[pcp->count] = p;
		WRITE_ONCE(pcp->count, pcp->count + 1);
		if (pcp->count == PCP_HIGH)
			pcp_flush(z, pcp);
		return;
	}
	spin_lock(&z->lock);
	p->next = z->free;
	z->free = p;
	WRITE_ONCE(z->nr_free, z->nr_free + 1);
	spin_unlock(&z->lock);
}

size_t page_zone_free_pages(struct page_zone *z)
{
	size_t n = READ_ONCE(z->nr_free);

	for (unsigned int i = 0; i < ARCH_NR_CPUS; i++) {
		const struct per_cpu_pages *pcp = __atomic_load_n(&z->pcp[i], __ATOMIC_ACQUIRE);

		if (pcp)
			n += READ_ONCE(pcp->count);
	}
	return n;
}
