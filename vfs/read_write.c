// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * read, write, pread, pwrite and lseek. Models fs/read_write.c.
 *
 * read/write/lseek go through fdget_pos(): a file shared by several
 * references (threads, dup, fork) serialises its f_pos with f_pos_lock;
 * pread/pwrite use plain fdget() and leave f_pos alone.
 */
#include <limits.h>
#include <signal.h>

#include "vfs/internal.h"

/* MAX_RW_COUNT: INT_MAX rounded down to a page. */
#define MAX_RW_COUNT (INT_MAX & ~4095L)
#define MAX_LFS_FILESIZE ((long long)LLONG_MAX)

/* Models rw_verify_area(): no negative position, no end past LLONG_MAX. */
static inline bool rw_verify_area(long long pos, size_t count)
{
	long long end;

	return pos < 0 ||
	       (count &&
		__builtin_add_overflow(pos, (long long)min_t(size_t, count, MAX_RW_COUNT), &end));
}

/*
 * file_ppos(): a stream (a fifo, a socket) has no position; its f_pos is
 * never read or written, so writers sharing it need no f_pos_lock.
 */
static long long file_ppos_read(struct vfs *v, struct file *f)
{
	return file_fmode(v, f) & FMODE_STREAM ? 0 : *file_pos(v, f);
}

static void file_ppos_write(struct vfs *v, struct file *f, long long pos)
{
	if (!(file_fmode(v, f) & FMODE_STREAM))
		*file_pos(v, f) = pos;
}

static long vfs_read(struct vfs *v, struct file *f, void *buf, size_t count, long long *pos)
{
	unsigned int mode = file_fmode(v, f);
	long ret;

	if (!(mode & FMODE_READ))
		return -EBADF;
	if (!(mode & FMODE_CAN_READ))
		return -EINVAL;
	if (rw_verify_area(*pos, count))
		return -EINVAL;
	if (count && !buf)
		return -EFAULT;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	/* Even a zero-length read goes to the file: a directory says EISDIR. */
	ret = (*file_op(v, f))->read(v, f, buf, count, pos);
	if (ret > 0) /* fsnotify_access() */
		fsnotify_file(v, f);
	return ret;
}

static long vfs_write(struct task *t, struct vfs *v, struct file *f, const void *buf, size_t count,
		      long long *pos)
{
	unsigned int mode = file_fmode(v, f);
	long ret;

	if (!(mode & FMODE_WRITE))
		return -EBADF;
	if (!(mode & FMODE_CAN_WRITE))
		return -EINVAL;
	if (rw_verify_area(*pos, count))
		return -EINVAL;
	if (count && !buf)
		return -EFAULT;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	/* __generic_file_write_iter(): a write takes setuid/setgid off. */
	if (count)
		remove_privs(&t->cred, file_inode(v, f));
	ret = (*file_op(v, f))->write(v, f, buf, count, pos);
	if (ret > 0) /* fsnotify_modify() */
		fsnotify_file(v, f);
	/* pipe_write()'s send_sig(SIGPIPE, current, 0) */
	if (ret == -EPIPE)
		task_send_sig(t, SIGPIPE);
	return ret;
}

long sys_read(struct task *t, int fd, void *buf, size_t count)
{
	struct fd f = fdget_pos(t, fd);
	struct file *file = fd_file(f);
	long long pos;
	long ret;

	if (fd < 0 || !file)
		return -EBADF;
	pos = file_ppos_read(t->vfs, file);
	ret = vfs_read(t->vfs, file, buf, count, &pos);
	if (ret >= 0)
		file_ppos_write(t->vfs, file, pos);
	fdput_pos(t, f);
	return ret;
}

long sys_write(struct task *t, int fd, const void *buf, size_t count)
{
	struct fd f = fdget_pos(t, fd);
	struct file *file = fd_file(f);
	long long pos;
	long ret;

	if (fd < 0 || !file)
		return -EBADF;
	pos = file_ppos_read(t->vfs, file);
	ret = vfs_write(t, t->vfs, file, buf, count, &pos);
	if (ret >= 0)
		file_ppos_write(t->vfs, file, pos);
	fdput_pos(t, f);
	return ret;
}

long sys_pread64(struct task *t, int fd, void *buf, size_t count, off_t pos)
{
	long long p = pos;
	struct fd f;
	long ret;

	if (pos < 0)
		return -EINVAL;
	f = fdget(t, fd);
	if (fd < 0 || !fd_file(f))
		return -EBADF;
	ret = -ESPIPE;
	if (file_fmode(t->vfs, fd_file(f)) & FMODE_PREAD)
		ret = vfs_read(t->vfs, fd_file(f), buf, count, &p);
	fdput(t, f);
	return ret;
}

long sys_pwrite64(struct task *t, int fd, const void *buf, size_t count, off_t pos)
{
	long long p = pos;
	struct fd f;
	long ret;

	if (pos < 0)
		return -EINVAL;
	f = fdget(t, fd);
	if (fd < 0 || !fd_file(f))
		return -EBADF;
	ret = -ESPIPE;
	if (file_fmode(t->vfs, fd_file(f)) & FMODE_PWRITE) {
		/* O_APPEND still appends on Linux: pwrite's offset is ignored. */
		ret = vfs_write(t, t->vfs, fd_file(f), buf, count, &p);
	}
	fdput(t, f);
	return ret;
}

/*
 * Models generic_file_llseek() for files (with shmem's page-granular
 * SEEK_DATA/SEEK_HOLE) and offset_dir_llseek() for directories.
 */
static long long vfs_llseek(struct vfs *v, struct file *f, long long offset, int whence)
{
	struct inode *inode = file_inode(v, f);
	long long *fpos = file_pos(v, f);
	long long size = READ_ONCE(inode->i_size);

	if (!(file_fmode(v, f) & FMODE_LSEEK))
		return -ESPIPE;
	if ((*file_op(v, f))->llseek)
		return (*file_op(v, f))->llseek(v, f, offset, whence);
	if (S_ISDIR(READ_ONCE(inode->i_mode)))
		return offset_dir_llseek(v, f, offset, whence);
	/* The kernel's sums wrap (-fno-strict-overflow) to a negative: EINVAL. */
	switch (whence) {
	case SEEK_SET:
		break;
	case SEEK_CUR:
		if (offset == 0)
			return *fpos;
		if (__builtin_add_overflow(offset, *fpos, &offset))
			return -EINVAL;
		break;
	case SEEK_END:
		if (__builtin_add_overflow(offset, size, &offset))
			return -EINVAL;
		break;
	case SEEK_DATA:
	case SEEK_HOLE:
		offset = shmem_seek_hole_data(inode, offset, whence);
		if (offset < 0)
			return offset;
		break;
	default:
		return -EINVAL;
	}
	if (offset < 0)
		return -EINVAL;
	*fpos = offset;
	return offset;
}

long sys_lseek(struct task *t, int fd, off_t offset, int whence)
{
	struct fd f = fdget_pos(t, fd);
	long ret;

	if (fd < 0 || !fd_file(f))
		return -EBADF;
	if ((unsigned int)whence > SEEK_HOLE)
		ret = -EINVAL;
	else
		ret = vfs_llseek(t->vfs, fd_file(f), offset, whence);
	fdput_pos(t, f);
	return ret;
}
