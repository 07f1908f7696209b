// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Free pages on per-CPU lists in front of a zone list under zone->lock, as
 * mm/page_alloc.c has them: free_unref_page() puts a page on this CPU's
 * list and, past the list's high mark, gives a batch back to the zone
 * (free_pcppages_bulk()); rmqueue_pcplist() takes from this CPU's list and
 * refills an empty one with a batch from the zone (rmqueue_bulk()).  Free
 * pages are linked through their first word, as the buddy lists link
 * through struct page.  The zone has no buddies: every page is one size,
 * and new pages come from a kmem cache aligned to the cache line, so a
 * page's bytes fall on lines as a real page's do.
 */
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
	struct free_page *list;
};

struct page_zone {
	struct kmem_cache *pages; /* where new pages come from */
	size_t page_size;
	spinlock_t lock; /* zone->lock: free, nr_free */
	struct free_page *free;
	size_t nr_free;
	struct per_cpu_pages *pcp[ARCH_NR_CPUS]; /* made by each CPU on first use */
};

struct page_zone *page_zone_create(const char *name, size_t page_size)
{
	struct page_zone *z;

	if (page_size < sizeof(struct free_page))
		return NULL;
	z = kzalloc(sizeof(*z));
	if (!z)
		return NULL;
	z->pages = kmem_cache_create(name, page_size, 0, SLAB_HWCACHE_ALIGN);
	if (!z->pages) {
		kfree(z);
		return NULL;
	}
	z->page_size = page_size;
	spin_lock_init(&z->lock);
	return z;
}

static void free_list(struct page_zone *z, struct free_page *p)
{
	while (p) {
		struct free_page *next = p->next;

		kmem_cache_free(z->pages, p);
		p = next;
	}
}

void page_zone_destroy(struct page_zone *z)
{
	if (!z)
		return;
	/* Pages whose free an RCU callback still holds land first. */
	rcu_barrier();
	for (unsigned int i = 0; i < ARCH_NR_CPUS; i++) {
		if (z->pcp[i]) {
			free_list(z, z->pcp[i]->list);
			kfree(z->pcp[i]);
		}
	}
	free_list(z, z->free);
	/* Warns of pages never given back. */
	kmem_cache_destroy(z->pages);
	kfree(z);
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
	pcp = kzalloc(sizeof(*pcp));
	if (pcp)
		__atomic_store_n(&z->pcp[id], pcp, __ATOMIC_RELEASE); /* for the counting side */
	return pcp;
}

/* Move up to @n pages from list *@from onto list *@to; how many moved. */
static unsigned int move_pages(struct free_page **from, struct free_page **to, unsigned int n)
{
	unsigned int moved = 0;

	while (moved < n && *from) {
		struct free_page *p = *from;

		*from = p->next;
		p->next = *to;
		*to = p;
		moved++;
	}
	return moved;
}

/* Models rmqueue_pcplist(), with rmqueue_bulk() refilling an empty list. */
void *page_alloc_zeroed(struct page_zone *z)
{
	struct per_cpu_pages *pcp = this_pcp(z);
	struct free_page *p = NULL;

	if (likely(pcp)) {
		if (unlikely(!pcp->list) && READ_ONCE(z->nr_free)) {
			unsigned int n;

			spin_lock(&z->lock);
			n = move_pages(&z->free, &pcp->list, PCP_BATCH);
			WRITE_ONCE(z->nr_free, z->nr_free - n);
			spin_unlock(&z->lock);
			WRITE_ONCE(pcp->count, n);
		}
		p = pcp->list;
		if (p) {
			pcp->list = p->next;
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

/* Models free_unref_page(), with free_pcppages_bulk() past the high mark. */
void page_free(struct page_zone *z, void *page)
{
	struct per_cpu_pages *pcp;
	struct free_page *p = page;

	if (unlikely(!p))
		return;
	pcp = this_pcp(z);
	if (likely(pcp)) {
		p->next = pcp->list;
		pcp->list = p;
		WRITE_ONCE(pcp->count, pcp->count + 1);
		if (pcp->count < PCP_HIGH)
			return;
		spin_lock(&z->lock);
		WRITE_ONCE(z->nr_free, z->nr_free + move_pages(&pcp->list, &z->free, PCP_BATCH));
		spin_unlock(&z->lock);
		WRITE_ONCE(pcp->count, pcp->count - PCP_BATCH);
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
	size_t n;

	spin_lock(&z->lock);
	n = z->nr_free;
	spin_unlock(&z->lock);
	for (unsigned int i = 0; i < ARCH_NR_CPUS; i++) {
		const struct per_cpu_pages *pcp = __atomic_load_n(&z->pcp[i], __ATOMIC_ACQUIRE);

		if (pcp)
			n += READ_ONCE(pcp->count);
	}
	return n;
}
