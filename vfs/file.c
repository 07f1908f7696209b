// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Per-process fd tables: alloc_fd with find_next_fd's fast path, lock-free
 * fd_install with the resize protocol, expand_files, __fget_files_rcu with
 * the recycle re-check, the light fdget, close, dup/dup2/dup3, close_range
 * and dup_fd for fork. Models fs/file.c (v6.13; v6.10 behind the alloc_fd
 * variant).
 *
 * Usage:
 *  file_lock protects next_fd, the bitmaps and every store into a slot
 *  except fd_install()'s, which is lock-free: it runs inside an RCU
 *  read-side section and expand_fdtable() waits for those with
 *  synchronize_rcu() after raising resize_in_progress, so an install either
 *  sees the flag (and takes the lock) or lands before the copy.
 *  files->fdt is published with rcu_assign_pointer(); old tables are freed
 *  after a grace period. Lookups (__fget_files_rcu) take no lock.
 *
 * Deviations from Linux: the resize wait queue is a yield loop; there is
 * no array_index_nospec (no speculation to defend against in a model).
 */
#include <sched.h>
#include <stdlib.h>

#include "vfs/internal.h"

static inline struct fdtable *files_fdtable(const struct vfs *v, const struct files_struct *f)
{
	return rcu_dereference(*files_fdt(v, f));
}

static inline unsigned long nofile(const struct task *t)
{
	return READ_ONCE(t->rlim_nofile_cur);
}

/* ---- allocation of tables ---- */

struct files_struct *files_alloc(struct vfs *v)
{
	struct files_struct *files = kmem_cache_alloc(v->files_cache);
	struct fdtable *fdt;

	if (!files)
		return NULL;
	memset(files, 0, kmem_cache_size(v->files_cache));
	atomic_set(files_count(v, files), 1);
	spin_lock_init(files_file_lock(v, files));
	fdt = files_fdtab(v, files);
	fdt->max_fds = NR_OPEN_DEFAULT;
	fdt->fd = files_fd_array(v, files);
	fdt->close_on_exec = files_close_on_exec_init(v, files);
	fdt->open_fds = files_open_fds_init(v, files);
	fdt->full_fds_bits = files_full_fds_bits_init(v, files);
	*files_fdt(v, files) = fdt;
	return files;
}

static void __free_fdtable(struct fdtable *fdt)
{
	kvfree(fdt->fd);
	kvfree(fdt->open_fds);
	kfree(fdt);
}

static void free_fdtable_rcu(struct rcu_head *rcu)
{
	__free_fdtable(container_of(rcu, struct fdtable, rcu));
}

static unsigned int roundup_pow_of_two(unsigned int n)
{
	unsigned int p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* Models alloc_fdtable() (6.13 calling convention). */
static struct fdtable *alloc_fdtable(struct vfs *v, unsigned int slots_wanted, int *err)
{
	unsigned int nr = roundup_pow_of_two(slots_wanted);
	struct fdtable *fdt;
	size_t bitmaps;
	char *data;

	/* A 1 KiB fd array is the smallest worth allocating: 128 slots. */
	if (nr < 1024 / sizeof(struct file *))
		nr = 1024 / sizeof(struct file *);
	if (nr > v->cfg.nr_open) {
		nr = ALIGN_DOWN(v->cfg.nr_open, BITS_PER_LONG);
		if (nr < slots_wanted) {
			*err = -EMFILE;
			return NULL;
		}
	}
	fdt = kmalloc(sizeof(*fdt));
	if (!fdt)
		goto nomem;
	fdt->max_fds = nr;
	fdt->fd = kvmalloc(nr * sizeof(struct file *));
	if (!fdt->fd)
		goto out_fdt;
	/* One allocation: open_fds | close_on_exec | full_fds_bits. */
	bitmaps = max_t(size_t, 2 * nr / 8 + BITS_TO_LONGS(BITS_TO_LONGS(nr)) * sizeof(long),
			L1_CACHE_BYTES);
	data = kvmalloc(bitmaps);
	if (!data)
		goto out_arr;
	fdt->open_fds = (unsigned long *)data;
	fdt->close_on_exec = (unsigned long *)(data + nr / 8);
	fdt->full_fds_bits = (unsigned long *)(data + 2 * nr / 8);
	return fdt;
out_arr:
	kvfree(fdt->fd);
out_fdt:
	kfree(fdt);
nomem:
	*err = -ENOMEM;
	return NULL;
}

/* Models copy_fd_bitmaps(): copy count bits' worth, clear the rest. */
static void copy_fd_bitmaps(struct fdtable *nfdt, const struct fdtable *ofdt, unsigned int count)
{
	bitmap_copy_and_extend(nfdt->open_fds, ofdt->open_fds, count, nfdt->max_fds);
	bitmap_copy_and_extend(nfdt->close_on_exec, ofdt->close_on_exec, count, nfdt->max_fds);
	bitmap_copy_and_extend(nfdt->full_fds_bits, ofdt->full_fds_bits, count / BITS_PER_LONG,
			       BITS_TO_LONGS(nfdt->max_fds));
}

/* Models copy_fdtable(). */
static void copy_fdtable(struct fdtable *nfdt, const struct fdtable *ofdt)
{
	memcpy(nfdt->fd, ofdt->fd, ofdt->max_fds * sizeof(struct file *));
	memset(nfdt->fd + ofdt->max_fds, 0,
	       (nfdt->max_fds - ofdt->max_fds) * sizeof(struct file *));
	copy_fd_bitmaps(nfdt, ofdt, ofdt->max_fds);
}

/*
 * Models expand_fdtable(). file_lock is held on entry and on exit, dropped
 * in between. Returns 1 when the table was replaced, or a negative errno.
 */
static int expand_fdtable(struct vfs *v, struct files_struct *files, unsigned int nr)
{
	struct fdtable *new_fdt, *cur_fdt;
	int err = 0;

	spin_unlock(files_file_lock(v, files));
	new_fdt = alloc_fdtable(v, nr + 1, &err);
	/*
	 * Every fd_install() that did not see resize_in_progress must finish
	 * before we copy: wait for their RCU read-side sections.
	 */
	if (atomic_read(files_count(v, files)) > 1)
		synchronize_rcu();
	spin_lock(files_file_lock(v, files));
	if (!new_fdt)
		return err;
	cur_fdt = files_fdtable(v, files);
	BUG_ON(nr < cur_fdt->max_fds);
	copy_fdtable(new_fdt, cur_fdt);
	rcu_assign_pointer(*files_fdt(v, files), new_fdt);
	if (cur_fdt != files_fdtab(v, files))
		call_rcu(&cur_fdt->rcu, free_fdtable_rcu);
	/* Pairs with the smp_rmb() in fd_install(). */
	smp_wmb();
	vfs_count(VFS_EV_FD_EXPAND);
	return 1;
}

/* Models expand_files(): make slot nr exist; file_lock held, may be dropped. */
static int expand_files(struct vfs *v, struct files_struct *files, unsigned int nr)
{
	bool *resizing = files_resize_in_progress(v, files);
	int expanded;

repeat:
	if (nr < files_fdtable(v, files)->max_fds)
		return 0;
	if (nr >= v->cfg.nr_open)
		return -EMFILE;
	if (unlikely(READ_ONCE(*resizing))) {
		spin_unlock(files_file_lock(v, files));
		while (READ_ONCE(*resizing))
			cpu_yield(); /* wait_event(resize_wait, ...) */
		spin_lock(files_file_lock(v, files));
		goto repeat;
	}
	WRITE_ONCE(*resizing, true);
	expanded = expand_fdtable(v, files, nr);
	WRITE_ONCE(*resizing, false);
	return expanded;
}

/* ---- bitmap maintenance (file_lock held) ---- */

static inline void __set_close_on_exec(unsigned int fd, struct fdtable *fdt, bool set)
{
	if (set)
		__set_bit(fd, fdt->close_on_exec);
	else if (test_bit(fd, fdt->close_on_exec)) /* don't dirty the line */
		__clear_bit(fd, fdt->close_on_exec);
}

/* Models __set_open_fd() (6.13: sets the cloexec state too). */
static inline void __set_open_fd(unsigned int fd, struct fdtable *fdt, bool cloexec)
{
	__set_bit(fd, fdt->open_fds);
	__set_close_on_exec(fd, fdt, cloexec);
	fd /= BITS_PER_LONG;
	if (!~fdt->open_fds[fd])
		__set_bit(fd, fdt->full_fds_bits);
}

/* Models __clear_open_fd(); v6.10 cleared full_fds_bits unconditionally. */
static inline void __clear_open_fd(const struct vfs *v, unsigned int fd, struct fdtable *fdt)
{
	__clear_bit(fd, fdt->open_fds);
	fd /= BITS_PER_LONG;
	if (v->cfg.alloc_fd == ALLOC_FD_V610 || test_bit(fd, fdt->full_fds_bits))
		__clear_bit(fd, fdt->full_fds_bits);
}

static inline bool fd_is_open(unsigned int fd, const struct fdtable *fdt)
{
	return test_bit(fd, fdt->open_fds);
}

/*
 * Models find_next_fd(). v6.13 first searches the word holding start (the
 * next_fd hint) and answers from it without touching full_fds_bits;
 * v6.10 always went through the second-level bitmap.
 */
static unsigned int find_next_fd(const struct vfs *v, struct fdtable *fdt, unsigned int start)
{
	unsigned int maxfd = fdt->max_fds;
	unsigned int maxbit = maxfd / BITS_PER_LONG;
	unsigned int bitbit = start / BITS_PER_LONG;
	unsigned int bit;

	if (v->cfg.alloc_fd == ALLOC_FD_V613) {
		bit = find_next_zero_bit(&fdt->open_fds[bitbit], BITS_PER_LONG,
					 start & (BITS_PER_LONG - 1));
		if (bit < BITS_PER_LONG) {
			vfs_count(VFS_EV_ALLOC_FD_FAST);
			return bit + bitbit * BITS_PER_LONG;
		}
	}
	bitbit = find_next_zero_bit(fdt->full_fds_bits, maxbit, bitbit) * BITS_PER_LONG;
	if (bitbit >= maxfd)
		return maxfd;
	if (bitbit > start)
		start = bitbit;
	return find_next_zero_bit(fdt->open_fds, maxfd, start);
}

/* Models alloc_fd(): the lowest free fd in [start, end), EMFILE past end. */
static int alloc_fd(struct task *t, unsigned int start, unsigned int end, unsigned int flags)
{
	struct vfs *v = t->vfs;
	struct files_struct *files = t->files;
	unsigned int *next_fd = files_next_fd(v, files);
	struct fdtable *fdt;
	unsigned int fd;
	int error;

	spin_lock(files_file_lock(v, files));
repeat:
	fdt = files_fdtable(v, files);
	fd = start;
	if (fd < *next_fd)
		fd = *next_fd;
	if (likely(fd < fdt->max_fds))
		fd = find_next_fd(v, fdt, fd);
	error = -EMFILE;
	if (unlikely(fd >= end))
		goto out;
	if (unlikely(fd >= fdt->max_fds)) {
		error = expand_files(v, files, fd);
		if (error < 0)
			goto out;
		goto repeat;
	}
	if (start <= *next_fd)
		*next_fd = fd + 1;
	__set_open_fd(fd, fdt, flags & O_CLOEXEC);
	error = fd;
	if (v->cfg.alloc_fd == ALLOC_FD_V610 && unlikely(rcu_dereference(fdt->fd[fd]))) {
		/* v6.10's sanity check, removed by Yu Ma's first patch. */
		WARN_ON_ONCE(1);
		rcu_assign_pointer(fdt->fd[fd], NULL);
	}
out:
	spin_unlock(files_file_lock(v, files));
	return error;
}

int get_unused_fd_flags(struct task *t, unsigned int flags)
{
	VFS_PHASE(VFS_PH_FD);
	return alloc_fd(t, 0, nofile(t), flags);
}

static void __put_unused_fd(struct vfs *v, struct files_struct *files, unsigned int fd)
{
	unsigned int *next_fd = files_next_fd(v, files);

	__clear_open_fd(v, fd, files_fdtable(v, files));
	if (fd < *next_fd)
		*next_fd = fd;
}

void put_unused_fd(struct task *t, unsigned int fd)
{
	struct vfs *v = t->vfs;

	spin_lock(files_file_lock(v, t->files));
	__put_unused_fd(v, t->files, fd);
	spin_unlock(files_file_lock(v, t->files));
}

/* Models fd_install(): publish a file in a reserved slot, lock-free. */
void fd_install(struct task *t, unsigned int fd, struct file *file)
{
	VFS_PHASE(VFS_PH_FD);
	struct vfs *v = t->vfs;
	struct files_struct *files = t->files;
	struct fdtable *fdt;

	rcu_read_lock();
	if (unlikely(READ_ONCE(*files_resize_in_progress(v, files)))) {
		rcu_read_unlock();
		spin_lock(files_file_lock(v, files));
		fdt = files_fdtable(v, files);
		WARN_ON(fdt->fd[fd] != NULL);
		rcu_assign_pointer(fdt->fd[fd], file);
		spin_unlock(files_file_lock(v, files));
		return;
	}
	/* Pairs with the smp_wmb() in expand_fdtable(). */
	smp_rmb();
	fdt = files_fdtable(v, files);
	BUG_ON(fdt->fd[fd] != NULL);
	rcu_assign_pointer(fdt->fd[fd], file);
	rcu_read_unlock();
}

/* ---- lookup ---- */

/*
 * Models __fget_files_rcu(): take a reference on the file in slot fd with
 * no lock. After the get, re-read the slot and the table: if either moved,
 * the file was closed (and possibly reused) under us, so drop it and retry.
 */
static struct file *__fget_files_rcu(struct vfs *v, struct files_struct *files, unsigned int fd,
				     unsigned int mask)
{
	for (;;) {
		struct fdtable *fdt = files_fdtable(v, files);
		struct file **slot;
		struct file *file;

		if (unlikely(fd >= fdt->max_fds))
			return NULL;
		slot = &fdt->fd[fd];
		file = rcu_dereference(*slot);
		if (unlikely(!file))
			return NULL;
		if (unlikely(!file_get_rcu(v, file))) {
			vfs_count(VFS_EV_FGET_RETRY);
			continue;
		}
		if (unlikely(file != READ_ONCE(*slot)) ||
		    unlikely(READ_ONCE(*files_fdt(v, files)) != fdt)) {
			vfs_count(VFS_EV_FGET_RETRY);
			fput(v, file);
			continue;
		}
		if (unlikely(file_fmode(v, file) & mask)) {
			fput(v, file);
			return NULL;
		}
		return file;
	}
}

static struct file *__fget(struct task *t, unsigned int fd, unsigned int mask)
{
	struct file *file;

	rcu_read_lock();
	file = __fget_files_rcu(t->vfs, t->files, fd, mask);
	rcu_read_unlock();
	return file;
}

struct file *fget(struct task *t, unsigned int fd)
{
	return __fget(t, fd, FMODE_PATH);
}

struct file *fget_raw(struct task *t, unsigned int fd)
{
	return __fget(t, fd, 0);
}

/*
 * Models __fget_light(): a task whose table nobody shares borrows the file
 * without a reference; otherwise it is a refcounted __fget.
 */
static struct fd __fget_light(struct task *t, unsigned int fd, unsigned int mask)
{
	struct vfs *v = t->vfs;
	struct files_struct *files = t->files;
	struct file *file;

	/* Pairs with the atomic_dec_and_test() in put_files_struct(). */
	if (likely(atomic_read_acquire(files_count(v, files)) == 1)) {
		struct fdtable *fdt = files_fdtable(v, files);

		if (fd >= fdt->max_fds)
			return EMPTY_FD;
		file = rcu_dereference_raw(fdt->fd[fd]);
		if (!file || unlikely(file_fmode(v, file) & mask))
			return EMPTY_FD;
		return (struct fd){ (unsigned long)file };
	}
	file = __fget(t, fd, mask);
	if (!file)
		return EMPTY_FD;
	return (struct fd){ (unsigned long)file | FDPUT_FPUT };
}

struct fd fdget(struct task *t, unsigned int fd)
{
	return __fget_light(t, fd, FMODE_PATH);
}

struct fd fdget_raw(struct task *t, unsigned int fd)
{
	return __fget_light(t, fd, 0);
}

/* Models fdget_pos(): shared files serialise f_pos with f_pos_lock. */
struct fd fdget_pos(struct task *t, unsigned int fd)
{
	struct fd f = fdget(t, fd);
	struct file *file = fd_file(f);

	if (file && file_needs_f_pos_lock(t->vfs, file)) {
		f.word |= FDPUT_POS_UNLOCK;
		mutex_lock(file_pos_lock(t->vfs, file));
	}
	return f;
}

void fdput(struct task *t, struct fd f)
{
	if (f.word & FDPUT_FPUT)
		fput(t->vfs, fd_file(f));
}

void fdput_pos(struct task *t, struct fd f)
{
	if (f.word & FDPUT_POS_UNLOCK)
		mutex_unlock(file_pos_lock(t->vfs, fd_file(f)));
	fdput(t, f);
}

/* ---- close and dup ---- */

/* Models file_close_fd_locked(). */
static struct file *file_close_fd_locked(struct vfs *v, struct files_struct *files, unsigned int fd)
{
	struct fdtable *fdt = files_fdtable(v, files);
	struct file *file;

	if (fd >= fdt->max_fds)
		return NULL;
	file = rcu_dereference_raw(fdt->fd[fd]);
	if (file) {
		rcu_assign_pointer(fdt->fd[fd], NULL);
		__put_unused_fd(v, files, fd);
	}
	return file;
}

/*
 * Models close(2) (fs/open.c: file_close_fd(), filp_flush(), then the put:
 * fput_close_sync() since 2025, here fput_close()). The fd is gone whatever
 * ->flush says, so a restart code from it becomes EINTR.
 */
int close_fd(struct task *t, unsigned int fd)
{
	struct vfs *v = t->vfs;
	struct file *file;
	int retval;

	spin_lock(files_file_lock(v, t->files));
	file = file_close_fd_locked(v, t->files, fd);
	spin_unlock(files_file_lock(v, t->files));
	if (!file)
		return -EBADF;
	retval = filp_flush(v, file, t->files);
	fput_close(v, file);
	if (likely(retval == 0))
		return 0;
	if (unlikely(retval == -ERESTARTSYS || retval == -ERESTARTNOINTR ||
		     retval == -ERESTARTNOHAND || retval == -ERESTART_RESTARTBLOCK))
		retval = -EINTR;
	return retval;
}

/* Models f_dupfd(). */
int f_dupfd(struct task *t, unsigned int from, struct file *file, unsigned int flags)
{
	unsigned long limit = nofile(t);
	int fd;

	if (from >= limit)
		return -EINVAL;
	fd = alloc_fd(t, from, limit, flags);
	if (fd >= 0) {
		get_file(t->vfs, file);
		fd_install(t, fd, file);
	}
	return fd;
}

/* Models do_dup2(); file_lock held on entry, released. */
static int do_dup2(struct task *t, struct file *file, unsigned int fd, unsigned int flags)
{
	struct vfs *v = t->vfs;
	struct fdtable *fdt = files_fdtable(v, t->files);
	struct file *tofree = rcu_dereference_raw(fdt->fd[fd]);

	/* A slot reserved by alloc_fd() but not installed yet: EBUSY. */
	if (!tofree && fd_is_open(fd, fdt)) {
		spin_unlock(files_file_lock(v, t->files));
		return -EBUSY;
	}
	get_file(v, file);
	rcu_assign_pointer(fdt->fd[fd], file);
	__set_open_fd(fd, fdt, flags & O_CLOEXEC);
	spin_unlock(files_file_lock(v, t->files));
	if (tofree)
		filp_close(v, tofree, t->files);
	return fd;
}

/* Models ksys_dup3(); fds are unsigned there, so -1 is just very large. */
static int ksys_dup3(struct task *t, unsigned int oldfd, unsigned int newfd, int flags)
{
	struct vfs *v = t->vfs;
	struct file *file;
	int err;

	if ((flags & ~O_CLOEXEC) != 0)
		return -EINVAL;
	if (unlikely(oldfd == newfd))
		return -EINVAL;
	if (newfd >= nofile(t))
		return -EBADF;
	spin_lock(files_file_lock(v, t->files));
	err = expand_files(v, t->files, newfd);
	/* files_lookup_fd_locked(): fd_install() may fill a slot without the lock. */
	file = oldfd < files_fdtable(v, t->files)->max_fds ?
		       rcu_dereference_raw(files_fdtable(v, t->files)->fd[oldfd]) :
		       NULL;
	if (unlikely(!file)) {
		err = -EBADF;
		goto out_unlock;
	}
	if (unlikely(err < 0)) {
		if (err == -EMFILE)
			err = -EBADF;
		goto out_unlock;
	}
	return do_dup2(t, file, newfd, flags);
out_unlock:
	spin_unlock(files_file_lock(v, t->files));
	return err;
}

long sys_dup3(struct task *t, int oldfd, int newfd, int flags)
{
	return ksys_dup3(t, (unsigned int)oldfd, (unsigned int)newfd, flags);
}

long sys_dup2(struct task *t, int oldfd, int newfd)
{
	if (oldfd == newfd) {
		struct fdtable *fdt;
		long ret = oldfd;

		if (oldfd < 0)
			return -EBADF;
		rcu_read_lock();
		fdt = files_fdtable(t->vfs, t->files);
		if ((unsigned int)oldfd >= fdt->max_fds || !rcu_dereference(fdt->fd[oldfd]))
			ret = -EBADF;
		rcu_read_unlock();
		return ret;
	}
	return sys_dup3(t, oldfd, newfd, 0);
}

long sys_dup(struct task *t, int fildes)
{
	struct file *file;
	int ret;

	if (fildes < 0)
		return -EBADF;
	file = fget_raw(t, fildes);
	if (!file)
		return -EBADF;
	ret = get_unused_fd_flags(t, 0);
	if (ret >= 0)
		fd_install(t, ret, file);
	else
		fput(t->vfs, file);
	return ret;
}

long sys_close(struct task *t, int fd)
{
	if (fd < 0)
		return -EBADF;
	return close_fd(t, fd);
}

bool get_close_on_exec(struct task *t, unsigned int fd)
{
	bool res;

	rcu_read_lock();
	res = test_bit(fd, files_fdtable(t->vfs, t->files)->close_on_exec);
	rcu_read_unlock();
	return res;
}

void set_close_on_exec(struct task *t, unsigned int fd, bool on)
{
	struct vfs *v = t->vfs;

	spin_lock(files_file_lock(v, t->files));
	__set_close_on_exec(fd, files_fdtable(v, t->files), on);
	spin_unlock(files_file_lock(v, t->files));
}

unsigned int files_max_fds(struct task *t)
{
	unsigned int n;

	rcu_read_lock();
	n = files_fdtable(t->vfs, t->files)->max_fds;
	rcu_read_unlock();
	return n;
}

/* Models count_open_files(): one past the last open fd's word. */
static unsigned int count_open_files(const struct fdtable *fdt)
{
	unsigned int i = fdt->max_fds / BITS_PER_LONG;

	while (i > 0 && !fdt->open_fds[i - 1])
		i--;
	return i * BITS_PER_LONG;
}

/* ---- fork and exit ---- */

/* Models dup_fd(): a copy of oldf for a new process (fork). */
struct files_struct *dup_fd(struct vfs *v, struct files_struct *oldf, int *errp)
{
	struct files_struct *newf = files_alloc(v);
	struct fdtable *old_fdt, *new_fdt;
	unsigned int open_files;

	if (!newf) {
		*errp = -ENOMEM;
		return NULL;
	}
	new_fdt = files_fdtab(v, newf);
	spin_lock(files_file_lock(v, oldf));
	old_fdt = files_fdtable(v, oldf);
	open_files = count_open_files(old_fdt);
	while (unlikely(open_files > new_fdt->max_fds)) {
		spin_unlock(files_file_lock(v, oldf));
		if (new_fdt != files_fdtab(v, newf))
			__free_fdtable(new_fdt);
		new_fdt = alloc_fdtable(v, open_files, errp);
		if (!new_fdt) {
			kmem_cache_free(v->files_cache, newf);
			return NULL;
		}
		spin_lock(files_file_lock(v, oldf));
		old_fdt = files_fdtable(v, oldf);
		open_files = count_open_files(old_fdt);
	}
	copy_fd_bitmaps(new_fdt, old_fdt, open_files);
	for (unsigned int i = 0; i < open_files; i++) {
		struct file *f = rcu_dereference_raw(old_fdt->fd[i]);

		if (f)
			get_file(v, f);
		else
			/* Reserved by a sibling mid-open(): not ours. */
			__clear_open_fd(v, i, new_fdt);
		new_fdt->fd[i] = f;
	}
	spin_unlock(files_file_lock(v, oldf));
	memset(new_fdt->fd + open_files, 0,
	       (new_fdt->max_fds - open_files) * sizeof(struct file *));
	rcu_assign_pointer(*files_fdt(v, newf), new_fdt);
	return newf;
}

void get_files_struct(struct vfs *v, struct files_struct *files)
{
	atomic_inc(files_count(v, files));
}

/* Models put_files_struct() + close_files(): filp_close() every open fd. */
void put_files_struct(struct vfs *v, struct files_struct *files)
{
	struct fdtable *fdt;

	if (!atomic_dec_and_test(files_count(v, files)))
		return;
	fdt = files_fdtable(v, files);
	for (unsigned int i = 0; i < fdt->max_fds; i += BITS_PER_LONG) {
		unsigned long set = fdt->open_fds[i / BITS_PER_LONG];

		for (unsigned int j = i; set; j++, set >>= 1) {
			struct file *file = fdt->fd[j];

			if ((set & 1) && file)
				filp_close(v, file, files);
		}
	}
	if (fdt != files_fdtab(v, files))
		__free_fdtable(fdt);
	kmem_cache_free(v->files_cache, files);
}

/* Models close_range(2), including CLOSE_RANGE_UNSHARE and _CLOEXEC. */
long sys_close_range(struct task *t, unsigned int fd, unsigned int max_fd, unsigned int flags)
{
	struct vfs *v = t->vfs;
	struct files_struct *files;
	struct fdtable *fdt;

	if (flags & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC))
		return -EINVAL;
	if (fd > max_fd)
		return -EINVAL;
	if ((flags & CLOSE_RANGE_UNSHARE) && atomic_read(files_count(v, t->files)) > 1) {
		int err = 0;
		struct files_struct *newf = dup_fd(v, t->files, &err);

		if (!newf)
			return err;
		put_files_struct(v, t->files);
		t->files = newf;
	}
	files = t->files;
	spin_lock(files_file_lock(v, files));
	fdt = files_fdtable(v, files);
	if (flags & CLOSE_RANGE_CLOEXEC) {
		/* __range_cloexec(): marks every fd in range, open or not. */
		if (fd < fdt->max_fds) {
			if (max_fd >= fdt->max_fds)
				max_fd = fdt->max_fds - 1;
			for (unsigned int i = fd; i <= max_fd; i++)
				__set_bit(i, fdt->close_on_exec);
		}
		spin_unlock(files_file_lock(v, files));
		return 0;
	}
	/* __range_close(): drop the lock around each close. */
	{
		unsigned int last = count_open_files(fdt);

		if (last && max_fd > last - 1)
			max_fd = last - 1;
		for (; last && fd <= max_fd; fd++) {
			struct file *file = file_close_fd_locked(v, files, fd);

			if (file) {
				spin_unlock(files_file_lock(v, files));
				filp_close(v, file, files);
				spin_lock(files_file_lock(v, files));
			}
		}
	}
	spin_unlock(files_file_lock(v, files));
	return 0;
}

/*
 * The invariants the torture test and the unit tests check, under
 * file_lock: a full word has its full_fds_bits bit and only then, every
 * installed file's fd is open, every fd below next_fd is open.
 */
int files_check_invariants(struct vfs *v, struct files_struct *files, char *err, size_t len)
{
	struct fdtable *fdt;
	int ret = 0;

	spin_lock(files_file_lock(v, files));
	fdt = files_fdtable(v, files);
	for (unsigned int w = 0; w < fdt->max_fds / BITS_PER_LONG && !ret; w++) {
		bool full = !~fdt->open_fds[w];

		if (full != test_bit(w, fdt->full_fds_bits)) {
			snprintf(err, len, "word %u: full=%d but full_fds_bits=%d", w, full, !full);
			ret = -1;
		}
	}
	for (unsigned int fd = 0; fd < fdt->max_fds && !ret; fd++) {
		if (rcu_dereference_raw(fdt->fd[fd]) && !fd_is_open(fd, fdt)) {
			snprintf(err, len, "fd %u: file installed but not in open_fds", fd);
			ret = -1;
		}
		if (fd < *files_next_fd(v, files) && !fd_is_open(fd, fdt)) {
			snprintf(err, len, "fd %u < next_fd %u but not open", fd,
				 *files_next_fd(v, files));
			ret = -1;
		}
	}
	spin_unlock(files_file_lock(v, files));
	return ret;
}
