// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The in-memory filesystem's data: regular-file pages and symlink bodies.
 * Models the parts of mm/shmem.c and mm/filemap.c that a read or write of
 * a tmpfs file runs (fifos are vfs/pipe.c's).
 *
 * Usage:
 *  A file's pages hang off a radix tree (the page cache's xarray) rooted
 *  at i_pages: 64 slots a node, as deep as the highest page needs, so a
 *  sparse file costs only the pages it holds, at any offset up to
 *  MAX_LFS_FILESIZE. Writers (write, truncate, fallocate) hold inode_lock
 *  and publish nodes and pages with rcu_assign_pointer(); a node or page
 *  taken out is freed after a grace period. Readers take no inode lock:
 *  under RCU they take a reference on each page (folio_try_get() in
 *  filemap_get_read_batch()), copy, and drop it, so readers of one file
 *  share exactly the writes the kernel's do.
 *
 *  Like tmpfs' used_blocks against size=, the filesystem counts the pages
 *  its files hold (v->shmem_pages) against tmpfs-size= (by default half of
 *  physical RAM, tmpfs' default): a write or fallocate past it gets ENOSPC.
 *
 *  A page fallocate() made is not uptodate: SEEK_DATA sees a hole there
 *  until a write fills the page (the rest of it zeroed) or a second
 *  fallocate() over it initializes it (shmem_get_folio(SGP_FALLOC) clears
 *  a page an earlier fallocate left !uptodate).
 *
 * Deviations from Linux: pages are 4 KiB buffers, never large folios (a
 * tmpfs mounted huge=never, the default, has only those); no swap, no mmap.
 */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "vfs/internal.h"

#define SHMEM_PAGE_SHIFT 12
#define SHMEM_PAGE_SIZE (1u << SHMEM_PAGE_SHIFT)
/* s_maxbytes: MAX_LFS_FILESIZE. */
#define SHMEM_MAX_BYTES LLONG_MAX
/* The radix tree: 64 slots a node. */
#define NODE_SHIFT 6
#define NODE_SLOTS (1u << NODE_SHIFT)

/* The data first: the zone aligns it to the line, as a page's is. */
struct shmem_page {
	unsigned char data[SHMEM_PAGE_SIZE];
	atomic_t ref; /* 1 while in the page cache */
	bool uptodate; /* written: fallocate()d pages are holes until then */
};

/*
 * A node of a file's page tree. A node with shift s covers 64 << s pages;
 * its slots hold pages (s == 0) or nodes of shift s - 6. shift never
 * changes once a node is published, so an RCU reader can trust it.
 */
struct shmem_pages {
	unsigned int shift;
	unsigned int count; /* slots in use; inode_lock */
	struct rcu_head rcu;
	void *slots[NODE_SLOTS];
};

/* ---- the page tree ---- */

struct page_zone *shmem_zone_create(void)
{
	return page_zone_create("shmem_page", sizeof(struct shmem_page));
}

static void page_free_rcu(void *zone, void *pg)
{
	page_free(zone, pg);
}

/* The last reference: back to the instance's zone once readers are done. */
static void page_put(struct inode *inode, struct shmem_page *pg)
{
	if (atomic_dec_and_test(&pg->ref))
		rcu_defer_free(pg, page_free_rcu, inode->i_sb->s_vfs->page_zone);
}

static void node_free_rcu(struct rcu_head *head)
{
	free(container_of(head, struct shmem_pages, rcu));
}

static struct shmem_pages *node_new(unsigned int shift)
{
	struct shmem_pages *n = calloc(1, sizeof(*n));

	if (n)
		n->shift = shift;
	return n;
}

/* The page at idx, or NULL (a hole). Under rcu_read_lock() or inode_lock. */
static struct shmem_page *page_lookup(struct inode *inode, unsigned long idx)
{
	struct shmem_pages *n = rcu_dereference(inode->i_pages);

	if (!n || (idx >> n->shift) >= NODE_SLOTS)
		return NULL;
	while (n->shift) {
		n = rcu_dereference(n->slots[(idx >> n->shift) % NODE_SLOTS]);
		if (!n)
			return NULL;
	}
	return rcu_dereference(n->slots[idx % NODE_SLOTS]);
}

/*
 * The first page at or after *idx and not after max, in n (which covers
 * pages from base on); *idx is set to its index.
 */
static struct shmem_page *node_next(struct shmem_pages *n, unsigned long base, unsigned long *idx,
				    unsigned long max)
{
	for (unsigned long i = (*idx - base) >> n->shift; i < NODE_SLOTS; i++) {
		unsigned long lo = base + (i << n->shift);
		void *e;

		if (lo > max)
			return NULL;
		e = rcu_dereference(n->slots[i]);
		if (!e)
			continue;
		if (!n->shift) {
			*idx = lo;
			return e;
		}
		if (*idx < lo)
			*idx = lo;
		e = node_next(e, lo, idx, max);
		if (e)
			return e;
	}
	return NULL;
}

/* The first page at or after *idx and not after max (the xarray's xas_find()). */
static struct shmem_page *page_next(struct inode *inode, unsigned long *idx, unsigned long max)
{
	struct shmem_pages *n = rcu_dereference(inode->i_pages);

	if (!n || *idx > max || (*idx >> n->shift) >= NODE_SLOTS)
		return NULL;
	return node_next(n, 0, idx, max);
}

/* The leaf slot for idx, making the nodes on the way; inode_lock held. */
static void **page_slot(struct inode *inode, unsigned long idx, struct shmem_pages **leaf)
{
	struct shmem_pages *n = inode->i_pages;

	if (!n) {
		n = node_new(0);
		if (!n)
			return NULL;
		rcu_assign_pointer(inode->i_pages, n);
	}
	/* Grow at the top: the old root becomes slot 0 of a new one. */
	while ((idx >> n->shift) >= NODE_SLOTS) {
		struct shmem_pages *up = node_new(n->shift + NODE_SHIFT);

		if (!up)
			return NULL;
		up->slots[0] = n;
		up->count = 1;
		rcu_assign_pointer(inode->i_pages, up);
		n = up;
	}
	while (n->shift) {
		unsigned int i = (idx >> n->shift) % NODE_SLOTS;
		struct shmem_pages *c = n->slots[i];

		if (!c) {
			c = node_new(n->shift - NODE_SHIFT);
			if (!c)
				return NULL;
			rcu_assign_pointer(n->slots[i], c);
			n->count++;
		}
		n = c;
	}
	*leaf = n;
	return &n->slots[idx % NODE_SLOTS];
}

/* ---- tmpfs size= ---- */

/*
 * shmem_default_max_blocks(): half of RAM, in pages. Worked out when the
 * program starts, not on first use: the simulator's first run would
 * otherwise run more code than the runs after it, and differ from them.
 */
static unsigned long half_ram;

static void __attribute__((constructor)) shmem_half_ram(void)
{
	half_ram = vfs_phys_ram() / 2 >> SHMEM_PAGE_SHIFT;
}

/*
 * The superblock's max_blocks: its size= (a mount(2) option), else the
 * instance's tmpfs-size, else shmem_default_max_blocks().
 */
unsigned long shmem_max_pages(const struct super_block *sb)
{
	unsigned long long bytes = sb->s_max_bytes ? sb->s_max_bytes : sb->s_vfs->cfg.tmpfs_size;

	if (bytes)
		return (bytes + SHMEM_PAGE_SIZE - 1) >> SHMEM_PAGE_SHIFT;
	return half_ram;
}

/* shmem_inode_acct_blocks(): room for one more page, or false (ENOSPC). */
static bool shmem_acct_page(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;

	if ((unsigned long)atomic_long_add_return(1, &sb->shmem_pages) > shmem_max_pages(sb)) {
		atomic_long_dec(&sb->shmem_pages);
		return false;
	}
	return true;
}

/* A zeroed page in slot idx, not uptodate; inode_lock held. NULL: ENOSPC or ENOMEM. */
static struct shmem_page *shmem_alloc_page(struct inode *inode, unsigned long idx)
{
	struct shmem_pages *leaf;
	struct shmem_page *pg;
	void **slot;

	if (!shmem_acct_page(inode))
		return NULL;
	slot = page_slot(inode, idx, &leaf);
	pg = slot ? page_alloc_zeroed(inode->i_sb->s_vfs->page_zone) : NULL;
	if (!pg) {
		atomic_long_dec(&inode->i_sb->shmem_pages);
		return NULL;
	}
	atomic_set(&pg->ref, 1);
	rcu_assign_pointer(*slot, pg);
	leaf->count++;
	WRITE_ONCE(inode->i_blocks, inode->i_blocks + SHMEM_PAGE_SIZE / 512);
	return pg;
}

/*
 * Take the pages from @first to @last out of n (covering pages from
 * base on); with @unfalloc only those not uptodate (shmem_undo_range()'s
 * unfalloc). Empty nodes go too. inode_lock held.
 */
static void node_truncate(struct inode *inode, struct shmem_pages *n, unsigned long base,
			  unsigned long first, unsigned long last, bool unfalloc)
{
	for (unsigned long i = first > base ? (first - base) >> n->shift : 0; i < NODE_SLOTS; i++) {
		unsigned long lo = base + (i << n->shift);
		void *e = n->slots[i];

		if (lo > last)
			break;
		if (!e)
			continue;
		if (n->shift) {
			struct shmem_pages *c = e;

			node_truncate(inode, c, lo, first, last, unfalloc);
			if (c->count)
				continue;
			/* Unpublish before the grace period starts, then free. */
			rcu_assign_pointer(n->slots[i], NULL);
			n->count--;
			call_rcu(&c->rcu, node_free_rcu);
		} else {
			struct shmem_page *pg = e;

			if (unfalloc && pg->uptodate)
				continue;
			rcu_assign_pointer(n->slots[i], NULL);
			n->count--;
			WRITE_ONCE(inode->i_blocks, inode->i_blocks - SHMEM_PAGE_SIZE / 512);
			atomic_long_dec(&inode->i_sb->shmem_pages);
			page_put(inode, pg);
		}
	}
}

static void shmem_truncate_pages(struct inode *inode, unsigned long first, unsigned long last,
				 bool unfalloc)
{
	struct shmem_pages *root = inode->i_pages;

	if (!root)
		return;
	node_truncate(inode, root, 0, first, last, unfalloc);
	if (!root->count) {
		rcu_assign_pointer(inode->i_pages, NULL);
		call_rcu(&root->rcu, node_free_rcu);
	}
}

/* ---- what the syscalls call ---- */

/*
 * Models shmem_fallocate() (mode 0 or FALLOC_FL_KEEP_SIZE; the caller sets
 * i_size): every page of [off, off + len) exists afterwards. A new page is
 * not uptodate (a hole to SEEK_DATA); one an earlier fallocate() left so
 * is initialized now (SGP_FALLOC's clear), and becomes data. A range
 * bigger than the filesystem is ENOSPC at once; running out of room on
 * the way, the new pages of this call go again. file_modified() comes
 * after the first check, as in the kernel. inode_lock held.
 */
int shmem_fallocate(const struct cred *cred, struct inode *inode, long long off, long long len)
{
	unsigned long first = off >> SHMEM_PAGE_SHIFT;
	unsigned long end = ((unsigned long long)off + len + SHMEM_PAGE_SIZE - 1) >>
			    SHMEM_PAGE_SHIFT;

	/* A range that can never fit fails before file_modified(): setuid stays. */
	if (end - first > shmem_max_pages(inode->i_sb))
		return -ENOSPC;
	remove_privs(cred, inode);
	for (unsigned long i = first; i < end; i++) {
		struct shmem_page *pg = page_lookup(inode, i);

		if (!pg) {
			if (shmem_alloc_page(inode, i))
				continue;
			/* Remove the !uptodate pages we added. */
			if (i > first)
				shmem_truncate_pages(inode, first, i - 1, true);
			return -ENOSPC;
		}
		if (!pg->uptodate) {
			memset(pg->data, 0, SHMEM_PAGE_SIZE);
			WRITE_ONCE(pg->uptodate, true);
		}
	}
	return 0;
}

/* Models filemap_read() for tmpfs: no inode lock, a page ref per page. */
long shmem_read(struct inode *inode, void *buf, size_t count, long long pos)
{
	long long size = READ_ONCE(inode->i_size);
	size_t done = 0;

	if (pos >= size)
		return 0;
	if ((long long)count > size - pos)
		count = size - pos;
	while (done < count) {
		unsigned long idx = (pos + done) >> SHMEM_PAGE_SHIFT;
		unsigned int off = (pos + done) % SHMEM_PAGE_SIZE;
		size_t n = min_t(size_t, SHMEM_PAGE_SIZE - off, count - done);
		struct shmem_page *pg;

		rcu_read_lock();
		pg = page_lookup(inode, idx);
		if (pg && !atomic_inc_not_zero(&pg->ref))
			pg = NULL;
		rcu_read_unlock();
		if (pg) {
			memcpy((char *)buf + done, pg->data + off, n);
			page_put(inode, pg);
		} else {
			memset((char *)buf + done, 0, n); /* a hole */
		}
		done += n;
	}
	return done;
}

/* Models shmem_write_begin/end via generic_perform_write(); inode_lock held. */
long shmem_write(struct inode *inode, const void *buf, size_t count, long long pos)
{
	size_t done = 0;

	/* generic_write_checks(): nothing to write is 0; at s_maxbytes, EFBIG. */
	if (!count)
		return 0;
	if (pos < 0 || pos >= SHMEM_MAX_BYTES)
		return -EFBIG;
	if ((long long)count > SHMEM_MAX_BYTES - pos)
		count = SHMEM_MAX_BYTES - pos;
	while (done < count) {
		unsigned long idx = (pos + done) >> SHMEM_PAGE_SHIFT;
		unsigned int off = (pos + done) % SHMEM_PAGE_SIZE;
		size_t n = min_t(size_t, SHMEM_PAGE_SIZE - off, count - done);
		struct shmem_page *pg = page_lookup(inode, idx);

		if (!pg) {
			pg = shmem_alloc_page(inode, idx);
			if (!pg)
				break;
		}
		/* shmem_write_end(): the rest of a page not uptodate is zero already. */
		memcpy(pg->data + off, (const char *)buf + done, n);
		WRITE_ONCE(pg->uptodate, true);
		done += n;
	}
	if (!done)
		return -ENOSPC;
	spin_lock(&inode->i_lock);
	if (pos + (long long)done > inode->i_size)
		WRITE_ONCE(inode->i_size, pos + (long long)done);
	spin_unlock(&inode->i_lock);
	return done;
}

/*
 * Models shmem_file_llseek()'s SEEK_DATA/SEEK_HOLE, which is
 * mapping_seek_hole_data() under inode_lock: data is an uptodate page, a
 * hole a missing page or one only fallocate()d; the end of the file is a
 * hole; ENXIO at or past the end (and for SEEK_DATA past the last data).
 * Kept as the kernel has it, quirk included: the end of the last page a
 * file can have (index 2^51 - 1) overflows to LLONG_MIN there, so its
 * data is not found and SEEK_HOLE in it returns LLONG_MIN.
 */
long long shmem_seek_hole_data(struct inode *inode, long long offset, int whence)
{
	bool seek_data = whence == SEEK_DATA;
	long long start = offset, end, ret;
	unsigned long idx, max;
	struct shmem_page *pg;

	if (offset < 0)
		return -ENXIO;
	inode_lock(inode);
	end = inode->i_size;
	if (end <= start) {
		ret = -ENXIO;
		goto out;
	}
	idx = start >> SHMEM_PAGE_SHIFT;
	max = (end - 1) >> SHMEM_PAGE_SHIFT;
	ret = seek_data ? -ENXIO : start;
	for (; (pg = page_next(inode, &idx, max)); idx++) {
		long long pos = (long long)idx << SHMEM_PAGE_SHIFT;

		if (start < pos) {
			if (!seek_data)
				break; /* the hole before this page */
			start = pos;
		}
		/* round_up(pos + 1, PAGE_SIZE), in u64, stored in a loff_t */
		pos = (long long)(((unsigned long long)pos + SHMEM_PAGE_SIZE) &
				  ~(unsigned long long)(SHMEM_PAGE_SIZE - 1));
		if (READ_ONCE(pg->uptodate) == seek_data) {
			ret = start; /* found in this page */
			if (start < pos)
				goto out;
		} else {
			start = pos; /* on past the page */
			if (start < pos)
				goto out;
		}
		if (start >= end)
			break;
	}
	ret = seek_data ? -ENXIO : start;
out:
	inode_unlock(inode);
	if (ret > end)
		return end;
	return ret;
}

/* Models shmem_setattr(ATTR_SIZE): drop pages past the end; inode_lock held. */
int shmem_setsize(struct inode *inode, long long size)
{
	unsigned long keep = ((unsigned long long)size + SHMEM_PAGE_SIZE - 1) >> SHMEM_PAGE_SHIFT;
	struct shmem_page *pg;

	if (size < 0)
		return -EINVAL;
	/* Not only shrinking: pages fallocate() kept past the end go too. */
	if (size <= inode->i_size) {
		shmem_truncate_pages(inode, keep, ~0ul, false);
		/* Zero the tail of the last kept page, so a later extension reads 0s. */
		pg = size % SHMEM_PAGE_SIZE ? page_lookup(inode, keep - 1) : NULL;
		if (pg) {
			unsigned int off = size % SHMEM_PAGE_SIZE;

			memset(pg->data + off, 0, SHMEM_PAGE_SIZE - off);
		}
	}
	spin_lock(&inode->i_lock);
	WRITE_ONCE(inode->i_size, size);
	spin_unlock(&inode->i_lock);
	return 0;
}

/* The symlink body is immutable; RCU walk reads it through i_link. */
int shmem_symlink_body(struct inode *inode, const char *target)
{
	size_t len = strlen(target);
	char *body = malloc(len + 1);

	if (!body)
		return -ENOMEM;
	memcpy(body, target, len + 1);
	inode->i_link = body;
	inode->i_size = len;
	return 0;
}

/* Models shmem_evict_inode(): the last iput frees the data. */
void shmem_evict(struct inode *inode)
{
	shmem_truncate_pages(inode, 0, ~0ul, false);
	free(inode->i_pipe);
	inode->i_pipe = NULL;
}

/* Models shmem_file_read_iter(): file_accessed() whatever the read found. */
static long shmem_file_read(struct vfs *v, struct file *f, void *buf, size_t n, long long *pos)
{
	long ret = shmem_read(file_inode(v, f), buf, n, *pos);

	if (ret > 0)
		*pos += ret;
	file_accessed(v, f);
	return ret;
}

static long shmem_file_write(struct vfs *v, struct file *f, const void *buf, size_t n,
			     long long *pos)
{
	struct inode *inode = file_inode(v, f);
	long ret;

	inode_lock(inode);
	if (*file_flags(v, f) & O_APPEND)
		*pos = READ_ONCE(inode->i_size);
	ret = shmem_write(inode, buf, n, *pos);
	inode_unlock(inode);
	if (ret > 0) {
		*pos += ret;
		inode_touch(inode, true, true);
	}
	return ret;
}

static long dir_read(struct vfs *v, struct file *f, void *buf, size_t n, long long *pos)
{
	(void)v, (void)f, (void)buf, (void)n, (void)pos;
	return -EISDIR;
}

static long dir_write(struct vfs *v, struct file *f, const void *buf, size_t n, long long *pos)
{
	(void)v, (void)f, (void)buf, (void)n, (void)pos;
	return -EBADF;
}

const struct file_operations shmem_file_operations = {
	.read = shmem_file_read,
	.write = shmem_file_write,
};

const struct file_operations shmem_dir_operations = {
	.read = dir_read,
	.write = dir_write,
	.iterate_shared = true,
};

static long path_rw(struct vfs *v, struct file *f, void *buf, size_t n, long long *pos)
{
	(void)v, (void)f, (void)buf, (void)n, (void)pos;
	return -EBADF;
}

static long path_w(struct vfs *v, struct file *f, const void *buf, size_t n, long long *pos)
{
	(void)v, (void)f, (void)buf, (void)n, (void)pos;
	return -EBADF;
}

/* O_PATH files: every I/O op is EBADF (empty_fops in the kernel). */
const struct file_operations path_operations = {
	.read = path_rw,
	.write = path_w,
};
