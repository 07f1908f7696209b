// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The in-memory filesystem's data: regular-file pages, symlink bodies and
 * fifo buffers. Models the parts of mm/shmem.c and mm/filemap.c that a
 * read or write of a tmpfs file runs, and fs/pipe.c for fifos.
 *
 * Usage:
 *  A file's pages hang off an array published with rcu_assign_pointer();
 *  writers (write, truncate) hold inode_lock and replace the array when it
 *  grows. Readers take no inode lock: under RCU they take a reference on
 *  each page (folio_try_get() in filemap_get_read_batch()), copy, and drop
 *  it, so readers of one file share exactly the writes the kernel's do.
 *
 * Deviations from Linux: pages are 4 KiB buffers, not folios in an xarray;
 * no swap, no huge pages, no mmap.
 */
#include <limits.h>
#include <stdlib.h>

#include "vfs/internal.h"

#define SHMEM_PAGE_SIZE 4096u
/* s_maxbytes: MAX_LFS_FILESIZE. Sizes are free; pages are made on write. */
#define SHMEM_MAX_BYTES LLONG_MAX
/* What one file may hold in pages: past it a write gets ENOSPC, as a full tmpfs does. */
#define SHMEM_MAX_PAGES (1ul << 28)

struct shmem_page {
	atomic_t ref; /* 1 while in the page cache */
	bool uptodate; /* written: fallocate()d pages are holes until then */
	struct rcu_head rcu;
	unsigned char data[SHMEM_PAGE_SIZE];
};

struct shmem_pages {
	unsigned long nr;
	struct rcu_head rcu;
	struct shmem_page *p[];
};

static void page_free_rcu(struct rcu_head *head)
{
	free(container_of(head, struct shmem_page, rcu));
}

static void page_put(struct shmem_page *pg)
{
	if (atomic_dec_and_test(&pg->ref))
		call_rcu(&pg->rcu, page_free_rcu);
}

static void pages_free_rcu(struct rcu_head *head)
{
	free(container_of(head, struct shmem_pages, rcu));
}

/* Grow the page array to hold nr pages; inode_lock held. */
static int shmem_reserve(struct inode *inode, unsigned long nr)
{
	struct shmem_pages *old = inode->i_pages, *new;
	unsigned long cap = old ? old->nr : 0;

	if (nr <= cap)
		return 0;
	if (nr > SHMEM_MAX_PAGES)
		return -ENOSPC;
	cap = cap ? cap : 4;
	while (cap < nr)
		cap *= 2;
	new = calloc(1, sizeof(*new) + cap * sizeof(new->p[0]));
	if (!new)
		return -ENOMEM;
	new->nr = cap;
	if (old)
		memcpy(new->p, old->p, old->nr * sizeof(old->p[0]));
	rcu_assign_pointer(inode->i_pages, new);
	if (old)
		call_rcu(&old->rcu, pages_free_rcu);
	return 0;
}

/* A zeroed page in slot idx; inode_lock held. */
static struct shmem_page *shmem_alloc_page(struct inode *inode, unsigned long idx)
{
	struct shmem_page *pg = calloc(1, sizeof(*pg));

	if (!pg)
		return NULL;
	atomic_set(&pg->ref, 1);
	rcu_assign_pointer(inode->i_pages->p[idx], pg);
	WRITE_ONCE(inode->i_blocks, inode->i_blocks + SHMEM_PAGE_SIZE / 512);
	return pg;
}

/* Models shmem_fallocate(): the pages of [off, off + len) exist afterwards. */
int shmem_fallocate(struct inode *inode, long long off, long long len)
{
	unsigned long first = off / SHMEM_PAGE_SIZE;
	unsigned long last = (off + len - 1) / SHMEM_PAGE_SIZE;
	int err;

	if (last >= SHMEM_MAX_PAGES)
		return -ENOSPC;
	err = shmem_reserve(inode, last + 1);
	if (err)
		return err;
	for (unsigned long i = first; i <= last; i++)
		if (!inode->i_pages->p[i] && !shmem_alloc_page(inode, i))
			return -ENOSPC;
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
		unsigned long idx = (pos + done) / SHMEM_PAGE_SIZE;
		unsigned int off = (pos + done) % SHMEM_PAGE_SIZE;
		size_t n = min_t(size_t, SHMEM_PAGE_SIZE - off, count - done);
		struct shmem_pages *pages;
		struct shmem_page *pg = NULL;

		rcu_read_lock();
		pages = rcu_dereference(inode->i_pages);
		if (pages && idx < pages->nr) {
			pg = rcu_dereference(pages->p[idx]);
			if (pg && !atomic_inc_not_zero(&pg->ref))
				pg = NULL;
		}
		rcu_read_unlock();
		if (pg) {
			memcpy((char *)buf + done, pg->data + off, n);
			page_put(pg);
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
	int err;

	/* generic_write_checks(): nothing to write is 0; at s_maxbytes, EFBIG. */
	if (!count)
		return 0;
	if (pos < 0 || pos >= SHMEM_MAX_BYTES)
		return -EFBIG;
	if ((long long)count > SHMEM_MAX_BYTES - pos)
		count = SHMEM_MAX_BYTES - pos;
	if (!count)
		return 0;
	err = shmem_reserve(inode, pos / SHMEM_PAGE_SIZE +
					   (count + SHMEM_PAGE_SIZE - 1) / SHMEM_PAGE_SIZE + 1);
	if (err)
		return err;
	while (done < count) {
		unsigned long idx = (pos + done) / SHMEM_PAGE_SIZE;
		unsigned int off = (pos + done) % SHMEM_PAGE_SIZE;
		size_t n = min_t(size_t, SHMEM_PAGE_SIZE - off, count - done);
		struct shmem_page *pg = inode->i_pages->p[idx];

		if (!pg) {
			pg = shmem_alloc_page(inode, idx);
			if (!pg)
				break;
		}
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
 * Models shmem_file_llseek()'s SEEK_DATA/SEEK_HOLE (mapping_seek_hole_data()):
 * data is a page that has been written, a hole a missing page or one only
 * fallocate()d (not uptodate); the end of the file is a hole. -ENXIO at or past the end.
 */
long long shmem_seek_hole_data(struct inode *inode, long long offset, int whence)
{
	long long size = READ_ONCE(inode->i_size);
	struct shmem_pages *pages;
	unsigned long idx;

	if (offset < 0 || offset >= size)
		return -ENXIO;
	rcu_read_lock();
	pages = rcu_dereference(inode->i_pages);
	for (idx = offset / SHMEM_PAGE_SIZE; (long long)idx * SHMEM_PAGE_SIZE < size; idx++) {
		struct shmem_page *pg = pages && idx < pages->nr ? rcu_dereference(pages->p[idx]) :
								   NULL;
		bool present = pg && READ_ONCE(pg->uptodate);

		if (present == (whence == SEEK_DATA))
			break;
	}
	rcu_read_unlock();
	if ((long long)idx * SHMEM_PAGE_SIZE >= size)
		return whence == SEEK_DATA ? -ENXIO : size;
	return max_t(long long, offset, (long long)idx *SHMEM_PAGE_SIZE);
}

/* Models shmem_setattr(ATTR_SIZE): drop pages past the end; inode_lock held. */
int shmem_setsize(struct inode *inode, long long size)
{
	struct shmem_pages *pages = inode->i_pages;
	unsigned long keep = size / SHMEM_PAGE_SIZE + (size % SHMEM_PAGE_SIZE != 0);

	if (size < 0)
		return -EINVAL;
	if (pages) {
		for (unsigned long i = keep; i < pages->nr; i++) {
			struct shmem_page *pg = pages->p[i];

			if (pg) {
				rcu_assign_pointer(pages->p[i], NULL);
				WRITE_ONCE(inode->i_blocks,
					   inode->i_blocks - SHMEM_PAGE_SIZE / 512);
				page_put(pg);
			}
		}
		/* Zero the tail of the last kept page, so a later extension reads 0s. */
		if (size % SHMEM_PAGE_SIZE && keep && keep <= pages->nr && pages->p[keep - 1]) {
			unsigned int off = size % SHMEM_PAGE_SIZE;

			memset(pages->p[keep - 1]->data + off, 0, SHMEM_PAGE_SIZE - off);
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
	struct shmem_pages *pages = inode->i_pages;

	if (pages) {
		for (unsigned long i = 0; i < pages->nr; i++)
			if (pages->p[i])
				page_put(pages->p[i]);
		inode->i_pages = NULL;
		call_rcu(&pages->rcu, pages_free_rcu);
	}
	free(inode->i_pipe);
	inode->i_pipe = NULL;
}

static long shmem_file_read(struct vfs *v, struct file *f, void *buf, size_t n, long long *pos)
{
	long ret = shmem_read(file_inode(v, f), buf, n, *pos);

	if (ret > 0)
		*pos += ret;
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

/*
 * Fifos (fs/pipe.c): a ring buffer per inode. Reads and writes do not
 * block here (vfslab has no wait queues in its syscall layer): an empty
 * fifo with writers gives EAGAIN, an empty one with none gives 0 (EOF),
 * a write with no reader gives EPIPE.
 */
#define PIPE_BUF_SIZE 65536u

struct pipe_inode_info {
	spinlock_t lock;
	unsigned int readers, writers;
	unsigned int head, len;
	unsigned char buf[PIPE_BUF_SIZE];
};

static struct pipe_inode_info *get_pipe(struct inode *inode)
{
	struct pipe_inode_info *p = READ_ONCE(inode->i_pipe);

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	spin_lock_init(&p->lock);
	spin_lock(&inode->i_lock);
	if (inode->i_pipe) {
		free(p);
		p = inode->i_pipe;
	} else {
		WRITE_ONCE(inode->i_pipe, p);
	}
	spin_unlock(&inode->i_lock);
	return p;
}

/* Models fifo_open(); blocking opens without a peer are refused (ENXIO). */
int fifo_open(struct inode *inode, unsigned int fmode, unsigned int flags)
{
	struct pipe_inode_info *p = get_pipe(inode);
	int ret = 0;

	if (!p)
		return -ENOMEM;
	spin_lock(&p->lock);
	if ((fmode & (FMODE_READ | FMODE_WRITE)) == FMODE_WRITE && !p->readers)
		ret = -ENXIO; /* O_WRONLY|O_NONBLOCK without a reader */
	if (!ret) {
		if (fmode & FMODE_READ)
			p->readers++;
		if (fmode & FMODE_WRITE)
			p->writers++;
	}
	spin_unlock(&p->lock);
	(void)flags;
	return ret;
}

static void fifo_release(struct vfs *v, struct file *f)
{
	struct pipe_inode_info *p = file_inode(v, f)->i_pipe;
	unsigned int fmode = file_fmode(v, f);

	if (!p)
		return;
	spin_lock(&p->lock);
	if (fmode & FMODE_READ)
		p->readers--;
	if (fmode & FMODE_WRITE)
		p->writers--;
	/* The last close frees the pipe (free_pipe_info): unread data is gone. */
	if (!p->readers && !p->writers)
		p->head = p->len = 0;
	spin_unlock(&p->lock);
}

static long fifo_read(struct vfs *v, struct file *f, void *buf, size_t n, long long *pos)
{
	struct pipe_inode_info *p = file_inode(v, f)->i_pipe;
	size_t done = 0;

	(void)pos;
	spin_lock(&p->lock);
	while (done < n && p->len) {
		size_t chunk = min_t(size_t, n - done, min(p->len, PIPE_BUF_SIZE - p->head));

		memcpy((char *)buf + done, p->buf + p->head, chunk);
		p->head = (p->head + chunk) % PIPE_BUF_SIZE;
		p->len -= chunk;
		done += chunk;
	}
	if (!done && n && p->writers)
		done = (size_t)-EAGAIN;
	spin_unlock(&p->lock);
	return (long)done;
}

static long fifo_write(struct vfs *v, struct file *f, const void *buf, size_t n, long long *pos)
{
	struct pipe_inode_info *p = file_inode(v, f)->i_pipe;
	size_t done = 0;

	(void)pos;
	if (!n)
		return 0; /* pipe_write(): nothing to write, not even EPIPE */
	spin_lock(&p->lock);
	if (!p->readers) {
		spin_unlock(&p->lock);
		return -EPIPE;
	}
	while (done < n && p->len < PIPE_BUF_SIZE) {
		unsigned int tail = (p->head + p->len) % PIPE_BUF_SIZE;
		size_t chunk =
			min_t(size_t, n - done, min(PIPE_BUF_SIZE - p->len, PIPE_BUF_SIZE - tail));

		memcpy(p->buf + tail, (const char *)buf + done, chunk);
		p->len += chunk;
		done += chunk;
	}
	spin_unlock(&p->lock);
	return done ? (long)done : (n ? -EAGAIN : 0);
}

const struct file_operations fifo_operations = {
	.read = fifo_read,
	.write = fifo_write,
	.release = fifo_release,
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
