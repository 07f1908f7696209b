// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * How big an instance's dentry hash table is. The kernel sizes its own
 * once at boot (dcache_init() through alloc_large_system_hash(), "scale
 * 13"): one bucket per 8 KiB of memory, a little fewer per byte past
 * 64 GiB, rounded up to a power of two and never more than 1/16 of
 * memory; dhash_entries= on the command line overrides it. An instance
 * here gets a fixed 2^16 by default, cheap for the many a test suite
 * creates; hash-shift=auto asks for the kernel's size, and a caller that
 * knows how many dentries it will make sizes by that.
 */
#include <unistd.h>

#include "vfs/internal.h"

/* One bucket per 2^DHASH_SCALE bytes of memory (dcache_init()). */
#define DHASH_SCALE 13
/* Past 64 GiB each 4x more memory halves the buckets per byte. */
#define ADAPT_BASE (64ull << 30)

unsigned long long vfs_phys_ram(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || size <= 0)
		return 8ull << 30; /* unknown: a small machine's */
	return (unsigned long long)pages * (unsigned long long)size;
}

/* ceil(log2(n)); 0 for 0 and 1. */
static unsigned int order_up(unsigned long long n)
{
	return n <= 1 ? 0 : 64 - __builtin_clzll(n - 1);
}

static unsigned int clamp_shift(unsigned int s)
{
	return s < VFS_HASH_SHIFT_MIN ? VFS_HASH_SHIFT_MIN :
	       s > VFS_HASH_SHIFT_MAX ? VFS_HASH_SHIFT_MAX :
					s;
}

unsigned int vfs_hash_shift_for_memory(unsigned long long bytes)
{
	unsigned long long mib = (bytes + (1ull << 20) - 1) >> 20 << 20;
	/* The table itself stays within 1/16 of memory. */
	unsigned long long cap = (bytes >> 4) / sizeof(struct hlist_bl_head);
	unsigned int scale = DHASH_SCALE, shift;

	for (unsigned long long a = ADAPT_BASE; a < mib; a <<= 2)
		scale++;
	shift = order_up(mib >> scale);
	while (shift && (1ull << shift) > cap)
		shift--;
	return clamp_shift(shift);
}

unsigned int vfs_hash_shift_for_entries(unsigned long long entries)
{
	return clamp_shift(order_up(entries));
}

void vfs_inspect_hash(struct vfs *v, struct dhash_info *out)
{
	memset(out, 0, sizeof(*out));
	out->shift = v->d_hash_shift;
	rcu_read_lock();
	for (unsigned long b = 0; b < 1ul << v->d_hash_shift; b++) {
		unsigned long len = 0;

		for (struct hlist_bl_node *n = hlist_bl_first_rcu(&v->d_hash_table[b]); n;
		     n = rcu_dereference(n->next))
			len++;
		out->used += len != 0;
		out->entries += len;
		if (len > out->longest)
			out->longest = len;
	}
	rcu_read_unlock();
}
