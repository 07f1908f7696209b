// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * struct file: allocation, the reference count in both of its historical
 * forms, and the final fput. Models fs/file_table.c.
 *
 * The count lives in the f_ref slot of the run-time layout. With the
 * file_ref variant (v6.13+) it is a file_ref_t storing refs - 1, taken by an
 * unconditional add; with inc-not-zero (before v6.13) it is a plain
 * atomic_long_t taken by a cmpxchg loop that refuses zero. As in the kernel
 * the cache is SLAB_TYPESAFE_BY_RCU: a freed file is reused at once for the
 * next open, so __fget_files_rcu(), which takes its reference with no lock,
 * may get one on a file that has died or even been reborn as another; it
 * re-checks the fd slot after the get (vfs/file.c).
 */
#include "vfs/mount.h"

static inline bool fref_is_file_ref(const struct vfs *v)
{
	return v->cfg.fref == FREF_FILE_REF;
}

/* Models alloc_file() + do_dentry_open()'s f_mode setup; takes the path ref. */
struct file *alloc_file(struct vfs *v, const struct path *path, unsigned int flags,
			const struct file_operations *fop, const struct cred *cred)
{
	VFS_PHASE(VFS_PH_FILE);
	struct file *f = kmem_cache_alloc(v->file_cache);
	struct inode *inode = d_inode(v, path->dentry);
	unsigned int fmode;

	if (!f)
		return NULL;
	/*
	 * The cache is SLAB_TYPESAFE_BY_RCU: a racing __fget_files_rcu() may
	 * still take a reference on this object through a stale fd slot. Leave
	 * the count as the last life left it (dead, or zero for inc-not-zero)
	 * until everything else is ready; zero all the rest.
	 */
	{
		size_t off = v->fl.off[FILE_F_f_ref], slot = v->fl.slot[FILE_F_f_ref];

		memset(f, 0, off);
		memset((char *)f + off + slot, 0, kmem_cache_size(v->file_cache) - off - slot);
	}
	if (flags & O_PATH) {
		fmode = FMODE_PATH | FMODE_OPENED;
	} else {
		/* OPEN_FMODE(): O_RDONLY -> READ, O_WRONLY -> WRITE, 2 -> both, 3 -> none. */
		fmode = ((flags + 1) & O_ACCMODE) | FMODE_OPENED;
		if (S_ISREG(READ_ONCE(inode->i_mode)) || S_ISDIR(READ_ONCE(inode->i_mode)))
			fmode |= FMODE_ATOMIC_POS | FMODE_LSEEK | FMODE_PREAD | FMODE_PWRITE;
		else if (S_ISCHR(READ_ONCE(inode->i_mode)))
			fmode |= FMODE_LSEEK | FMODE_PREAD | FMODE_PWRITE;
		/* stream_open() in fifo_open() and sock_alloc_file(): no f_pos. */
		if (S_ISFIFO(READ_ONCE(inode->i_mode)) || S_ISSOCK(READ_ONCE(inode->i_mode)))
			fmode |= FMODE_STREAM;
		/* tmpfs does direct I/O on regular files only (shmem_file_open). */
		if (S_ISREG(READ_ONCE(inode->i_mode)))
			fmode |= FMODE_CAN_ODIRECT;
		if (fmode & FMODE_READ)
			fmode |= FMODE_CAN_READ;
		if (fmode & FMODE_WRITE)
			fmode |= FMODE_CAN_WRITE;
	}
	*file_mode(v, f) = fmode;
	*file_flags(v, f) = flags & ~(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC);
	*file_path(v, f) = *path;
	*file_inodep(v, f) = inode;
	*file_mapping(v, f) = inode;
	*file_op(v, f) = fop;
	*file_cred(v, f) = cred->id; /* the opener's: linkat(AT_EMPTY_PATH) compares */
	spin_lock_init(file_lock(v, f));
	mutex_init(file_pos_lock(v, f));
	/* The count goes last: once it reads live, lookups may take refs. */
	smp_wmb();
	if (fref_is_file_ref(v))
		file_ref_init(file_ref(v, f), 1);
	else
		atomic_long_set((atomic_long_t *)file_ref(v, f), 1);
	return f;
}

/* The refcount step of __fget_files_rcu(): may fail on a dying file. */
bool file_get_rcu(struct vfs *v, struct file *f)
{
	if (fref_is_file_ref(v))
		return file_ref_get(file_ref(v, f));
	return atomic_long_inc_not_zero((atomic_long_t *)file_ref(v, f));
}

/* Models get_file(): the caller already holds a reference. */
void get_file(struct vfs *v, struct file *f)
{
	if (fref_is_file_ref(v))
		file_ref_inc(file_ref(v, f));
	else
		atomic_long_inc((atomic_long_t *)file_ref(v, f));
}

unsigned long file_count(struct vfs *v, struct file *f)
{
	if (fref_is_file_ref(v))
		return file_ref_read(file_ref(v, f));
	return atomic_long_read((atomic_long_t *)file_ref(v, f));
}

/*
 * Models file_needs_f_pos_lock(), with the 2025 raw ONEREF test. The count
 * is an acquire load: seeing one reference we use f_pos unlocked, so the
 * f_pos accesses of the holder whose (fully ordered) put left it at one
 * must happen before ours. The kernel's relaxed read does not order them;
 * C11, which ThreadSanitizer checks, needs the acquire (a plain mov on x86).
 */
bool file_needs_f_pos_lock(struct vfs *v, struct file *f)
{
	if (!(file_fmode(v, f) & FMODE_ATOMIC_POS))
		return false;
	if ((*file_op(v, f))->iterate_shared)
		return true;
	if (fref_is_file_ref(v))
		return (unsigned long)atomic_long_read_acquire(&file_ref(v, f)->refcnt) !=
		       FILE_REF_ONEREF;
	return atomic_long_read_acquire((atomic_long_t *)file_ref(v, f)) > 1;
}

/* Models __fput(): release, drop the path, free after a grace period. */
static void __fput(struct vfs *v, struct file *f)
{
	const struct file_operations *fop = *file_op(v, f);
	struct path path = *file_path(v, f);

	if (!(file_fmode(v, f) & FMODE_PATH))
		fsnotify_parent(v, path.dentry); /* fsnotify_close() */
	if (fop->release)
		fop->release(v, f);
	if (file_fmode(v, f) & FMODE_WRITER)
		mnt_put_write_access(v, path.mnt);
	path_put(v, &path);
	kmem_cache_free(v->file_cache, f);
}

/* Models fput(). */
void fput(struct vfs *v, struct file *f)
{
	bool last;

	if (fref_is_file_ref(v))
		last = file_ref_put(file_ref(v, f));
	else
		last = atomic_long_dec_and_test((atomic_long_t *)file_ref(v, f));
	if (last)
		__fput(v, f);
}

/* Models fput_close(): close(2)'s put, one cmpxchg when it is the last. */
void fput_close(struct vfs *v, struct file *f)
{
	bool last;

	if (fref_is_file_ref(v))
		last = file_ref_put_close(file_ref(v, f));
	else
		last = atomic_long_dec_and_test((atomic_long_t *)file_ref(v, f));
	if (last)
		__fput(v, f);
}
