// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fifos. Models fs/pipe.c: per inode a pipe_inode_info with 16 page-sized
 * buffers in a ring, its mutex, the readers' and writers' wait queues, the
 * open counts and the r_counter/w_counter that fifo_open() waits on.
 *
 *  - open: O_RDONLY waits for a writer and O_WRONLY for a reader, unless
 *    the other side is open already; O_RDONLY|O_NONBLOCK opens at once,
 *    O_WRONLY|O_NONBLOCK without a reader is ENXIO, O_RDWR never waits.
 *  - read: waits while the fifo is empty and has writers; empty with none
 *    is 0 (EOF); O_NONBLOCK gives EAGAIN instead of waiting.
 *  - write: waits for room; with no reader EPIPE (the syscall layer sends
 *    the task SIGPIPE); O_NONBLOCK gives EAGAIN, or the count written so
 *    far. A write of at most PIPE_BUF bytes either merges whole into the
 *    last buffer or takes a free one whole: it is never split.
 *  - A writer with O_DIRECT (set through F_SETFL: open refuses it) writes
 *    packets: a buffer each, never merged into; a read takes at most one
 *    packet, dropping what it does not read of it.
 *
 * Waiting is lib/wait.h's, with no lock held. A call blocked when
 * vfs_kill_waiters() runs ends with EINTR (a task killed in the middle of
 * the call); calls made after it block as before.
 */
#include <stdlib.h>

#include "lib/wait.h"
#include "vfs/internal.h"

#define PIPE_DEF_BUFFERS 16u
#define PIPE_PAGE_SIZE 4096u

struct pipe_buffer {
	unsigned int offset, len;
	bool packet; /* PIPE_BUF_FLAG_PACKET; else PIPE_BUF_FLAG_CAN_MERGE */
	unsigned char page[PIPE_PAGE_SIZE];
};

struct pipe_inode_info {
	struct mutex mutex;
	struct wait_queue_head rd_wait, wr_wait;
	unsigned int head, tail; /* free-running: head - tail buffers in use */
	unsigned int readers, writers;
	unsigned int r_counter, w_counter; /* opens for reading, writing, ever */
	struct pipe_buffer bufs[PIPE_DEF_BUFFERS];
};

/* Sampled when a call starts: a kill after that ends its waits. */
static unsigned int kill_gen(const struct inode *inode)
{
	return READ_ONCE(inode->i_sb->s_vfs->kill_gen);
}

static bool killed(const struct inode *inode, unsigned int gen)
{
	return kill_gen(inode) != gen;
}

/* A field waiters read without the mutex: store it once, return it. */
static unsigned int set_count(unsigned int *field, unsigned int val)
{
	WRITE_ONCE(*field, val);
	return val;
}

static bool pipe_empty(const struct pipe_inode_info *p)
{
	return READ_ONCE(p->head) == READ_ONCE(p->tail);
}

static bool pipe_full(const struct pipe_inode_info *p)
{
	return READ_ONCE(p->head) - READ_ONCE(p->tail) >= PIPE_DEF_BUFFERS;
}

/* pipe_readable(), pipe_writable(): what a blocked reader, writer waits for. */
static bool pipe_readable(const struct pipe_inode_info *p)
{
	return !pipe_empty(p) || !READ_ONCE(p->writers);
}

static bool pipe_writable(const struct pipe_inode_info *p)
{
	return !pipe_full(p) || !READ_ONCE(p->readers);
}

static struct pipe_inode_info *get_pipe(struct inode *inode)
{
	/* Published initialized: release below, acquire here. */
	struct pipe_inode_info *p = smp_load_acquire(&inode->i_pipe);

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	mutex_init(&p->mutex);
	init_waitqueue_head(&p->rd_wait);
	init_waitqueue_head(&p->wr_wait);
	spin_lock(&inode->i_lock);
	if (inode->i_pipe) {
		free(p);
		p = inode->i_pipe;
	} else {
		smp_store_release(&inode->i_pipe, p);
	}
	spin_unlock(&inode->i_lock);
	return p;
}

/* wait_for_partner(): until *cnt moves (the other side opened). Mutex held. */
static int wait_for_partner(struct inode *inode, struct pipe_inode_info *p, unsigned int *cnt,
			    unsigned int gen)
{
	unsigned int cur = *cnt;
	int ret;

	mutex_unlock(&p->mutex);
	ret = wait_event_killable(&p->rd_wait, READ_ONCE(*cnt) != cur, killed(inode, gen));
	mutex_lock(&p->mutex);
	return ret;
}

/* The last close forgets the data (free_pipe_info()); the counters live on. */
static void put_pipe(struct pipe_inode_info *p)
{
	if (!p->readers && !p->writers)
		set_count(&p->head, 0), set_count(&p->tail, 0);
}

/* Models fifo_open(). */
int fifo_open(struct inode *inode, unsigned int fmode, unsigned int flags)
{
	struct pipe_inode_info *p = get_pipe(inode);
	unsigned int gen = kill_gen(inode);
	int ret = 0;

	if (!p)
		return -ENOMEM;
	mutex_lock(&p->mutex);
	switch (fmode & (FMODE_READ | FMODE_WRITE)) {
	case FMODE_READ:
		set_count(&p->r_counter, p->r_counter + 1);
		if (set_count(&p->readers, p->readers + 1) == 1)
			wake_up(&p->rd_wait); /* wake_up_partner() */
		if (!p->writers && !(flags & O_NONBLOCK)) {
			ret = wait_for_partner(inode, p, &p->w_counter, gen);
			if (ret && !set_count(&p->readers, p->readers - 1))
				wake_up(&p->wr_wait);
		}
		break;
	case FMODE_WRITE:
		if ((flags & O_NONBLOCK) && !p->readers) {
			ret = -ENXIO;
			break;
		}
		set_count(&p->w_counter, p->w_counter + 1);
		if (set_count(&p->writers, p->writers + 1) == 1)
			wake_up(&p->rd_wait);
		if (!p->readers) {
			ret = wait_for_partner(inode, p, &p->r_counter, gen);
			if (ret && !set_count(&p->writers, p->writers - 1))
				wake_up(&p->rd_wait);
		}
		break;
	case FMODE_READ | FMODE_WRITE:
		set_count(&p->readers, p->readers + 1);
		set_count(&p->writers, p->writers + 1);
		set_count(&p->r_counter, p->r_counter + 1);
		set_count(&p->w_counter, p->w_counter + 1);
		if (p->readers == 1 || p->writers == 1)
			wake_up(&p->rd_wait);
		break;
	default:
		ret = -EINVAL;
	}
	if (ret)
		put_pipe(p);
	mutex_unlock(&p->mutex);
	return ret;
}

/* Models pipe_release(). */
static void fifo_release(struct vfs *v, struct file *f)
{
	struct pipe_inode_info *p = file_inode(v, f)->i_pipe;
	unsigned int fmode = file_fmode(v, f);

	if (!p)
		return;
	mutex_lock(&p->mutex);
	if (fmode & FMODE_READ)
		set_count(&p->readers, p->readers - 1);
	if (fmode & FMODE_WRITE)
		set_count(&p->writers, p->writers - 1);
	/* One side gone: blocked readers see EOF, blocked writers EPIPE. */
	if (!p->readers != !p->writers) {
		wake_up(&p->rd_wait);
		wake_up(&p->wr_wait);
	}
	put_pipe(p);
	mutex_unlock(&p->mutex);
}

/* Models pipe_read(). */
static long fifo_read(struct vfs *v, struct file *f, void *buf, size_t n, long long *pos)
{
	struct inode *inode = file_inode(v, f);
	struct pipe_inode_info *p = inode->i_pipe;
	unsigned int gen = kill_gen(inode);
	bool wake_writer = false;
	size_t done = 0;
	long ret = 0;

	(void)pos;
	if (!n)
		return 0;
	mutex_lock(&p->mutex);
	for (;;) {
		if (!pipe_empty(p)) {
			struct pipe_buffer *b = &p->bufs[p->tail % PIPE_DEF_BUFFERS];
			size_t chars = min_t(size_t, b->len, n - done);

			wake_writer |= pipe_full(p);
			memcpy((char *)buf + done, b->page + b->offset, chars);
			done += chars;
			b->offset += chars;
			b->len -= chars;
			/* A packet is read once: what was not read of it is gone. */
			if (b->packet) {
				b->len = 0;
				n = done;
			}
			if (!b->len)
				set_count(&p->tail, p->tail + 1);
			if (done == n)
				break;
			continue;
		}
		if (!p->writers || done)
			break;
		if (*file_flags(v, f) & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		mutex_unlock(&p->mutex);
		if (wake_writer)
			wake_up(&p->wr_wait);
		wake_writer = false;
		ret = wait_event_killable(&p->rd_wait, pipe_readable(p), killed(inode, gen));
		mutex_lock(&p->mutex);
		if (ret)
			break;
	}
	mutex_unlock(&p->mutex);
	if (wake_writer)
		wake_up(&p->wr_wait);
	return done ? (long)done : ret;
}

/* Models pipe_write(). */
static long fifo_write(struct vfs *v, struct file *f, const void *buf, size_t n, long long *pos)
{
	struct inode *inode = file_inode(v, f);
	struct pipe_inode_info *p = inode->i_pipe;
	bool packet = *file_flags(v, f) & O_DIRECT;
	size_t done = 0, chars = n % PIPE_PAGE_SIZE;
	unsigned int gen = kill_gen(inode);
	bool wake_reader = false;
	long ret = 0;

	(void)pos;
	if (!n)
		return 0; /* pipe_write(): nothing to write, not even EPIPE */
	mutex_lock(&p->mutex);
	if (!p->readers) {
		mutex_unlock(&p->mutex);
		return -EPIPE;
	}
	/* Merge the odd part of a write into the last buffer if it fits. */
	if (chars && !pipe_empty(p)) {
		struct pipe_buffer *b = &p->bufs[(p->head - 1) % PIPE_DEF_BUFFERS];

		if (!b->packet && b->offset + b->len + chars <= PIPE_PAGE_SIZE) {
			memcpy(b->page + b->offset + b->len, buf, chars);
			b->len += chars;
			done = chars;
			wake_reader = true;
		}
	}
	while (done < n) {
		if (!p->readers) {
			ret = -EPIPE;
			break;
		}
		if (!pipe_full(p)) {
			struct pipe_buffer *b = &p->bufs[p->head % PIPE_DEF_BUFFERS];

			b->offset = 0;
			b->len = min_t(size_t, n - done, PIPE_PAGE_SIZE);
			b->packet = packet;
			memcpy(b->page, (const char *)buf + done, b->len);
			done += b->len;
			set_count(&p->head, p->head + 1);
			wake_reader = true;
			continue;
		}
		if (*file_flags(v, f) & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		mutex_unlock(&p->mutex);
		if (wake_reader)
			wake_up(&p->rd_wait);
		wake_reader = false;
		ret = wait_event_killable(&p->wr_wait, pipe_writable(p), killed(inode, gen));
		mutex_lock(&p->mutex);
		if (ret)
			break;
	}
	mutex_unlock(&p->mutex);
	if (wake_reader)
		wake_up(&p->rd_wait);
	return done ? (long)done : ret;
}

const struct file_operations fifo_operations = {
	.read = fifo_read,
	.write = fifo_write,
	.release = fifo_release,
};

void vfs_kill_waiters(struct vfs *v)
{
	__atomic_add_fetch(&v->kill_gen, 1, __ATOMIC_RELAXED);
}
