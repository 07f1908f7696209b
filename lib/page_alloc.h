/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A zone of fixed-size pages with a list per CPU in front of it, as
 * mm/page_alloc.c keeps free pages: a page is freed onto the freeing CPU's
 * list and allocated from the allocating CPU's list, so a CPU that frees
 * and allocates reuses its own pages with no shared line and no lock.
 * (Natively an RCU callback runs on a worker thread with a CPU number of
 * its own, even when bound to the queuing CPU: pages freed from callbacks
 * reach the queuing CPU through the zone, a batch at a time, where the
 * kernel's and the simulator's callbacks free onto that CPU's own list.)
 *
 * Pages freed stay in the zone until it is destroyed.  Handing them back to
 * the C allocator returns them to the host kernel, which faults them in again
 * on the next use: a cost a kernel's own page allocator never pays.
 */
#ifndef VFSLAB_LIB_PAGE_ALLOC_H
#define VFSLAB_LIB_PAGE_ALLOC_H

#include <stddef.h>

struct page_zone;

/*
 * A zone of @page_size-byte pages (at least a pointer), aligned as
 * SLAB_HWCACHE_ALIGN aligns them (to the line, for a page above half of
 * one); @name names their cache in reports.  NULL: bad size or no memory.
 */
struct page_zone *page_zone_create(const char *name, size_t page_size);

/*
 * page_zone_destroy - free the zone and every free page in it (NULL is ignored)
 *
 * Pages still allocated are the caller's to free first (kmem_cache_destroy()
 * warns of them); RCU-deferred frees are waited for (rcu_barrier(), so not
 * inside a read section).
 */
void page_zone_destroy(struct page_zone *zone);

/* A zeroed page, or NULL: no memory.  alloc_page(GFP_KERNEL | __GFP_ZERO). */
void *page_alloc_zeroed(struct page_zone *zone);

/* Give @page back to the zone (NULL is ignored).  free_unref_page(). */
void page_free(struct page_zone *zone, void *page);

/* Free pages the zone holds, on CPU lists and in the zone; exact when quiet. */
size_t page_zone_free_pages(struct page_zone *zone);

#endif
