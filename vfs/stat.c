// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The stat family and readlink. Models fs/stat.c.
 *
 * A stat() is the walk (RCU, then one lockref_get_not_dead on the final
 * dentry), a read of the inode, and the dput (lockref_put_return): with
 * many tasks on one path all the writes land on that dentry's d_lockref.
 */
#include "vfs/internal.h"

static long vfs_statx(struct task *t, int dfd, const char *name, int flags, struct stat *st)
{
	unsigned int lookup_flags = 0;
	struct path path;
	int error;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if (!(flags & AT_SYMLINK_NOFOLLOW))
		lookup_flags |= LOOKUP_FOLLOW;
	if (flags & AT_EMPTY_PATH)
		lookup_flags |= LOOKUP_EMPTY;
	error = user_path_at(t, dfd, name, lookup_flags, &path, NULL);
	if (error)
		return error;
	inode_fill_stat(d_inode(t->vfs, path.dentry), st);
	path_put(t->vfs, &path);
	return 0;
}

long sys_fstatat(struct task *t, int dfd, const char *name, struct stat *st, int flags)
{
	if (!st)
		return -EFAULT;
	return vfs_statx(t, dfd, name, flags, st);
}

long sys_stat(struct task *t, const char *name, struct stat *st)
{
	return sys_fstatat(t, AT_FDCWD, name, st, 0);
}

long sys_lstat(struct task *t, const char *name, struct stat *st)
{
	return sys_fstatat(t, AT_FDCWD, name, st, AT_SYMLINK_NOFOLLOW);
}

/* Models vfs_fstat(): fdget_raw, so O_PATH descriptors work too. */
long sys_fstat(struct task *t, int fd, struct stat *st)
{
	struct fd f = fdget_raw(t, fd);

	if (fd < 0 || !fd_file(f))
		return -EBADF;
	if (!st) {
		fdput(t, f);
		return -EFAULT;
	}
	inode_fill_stat(file_inode(t->vfs, fd_file(f)), st);
	fdput(t, f);
	return 0;
}

/* Models do_readlinkat(). */
long sys_readlinkat(struct task *t, int dfd, const char *name, char *buf, size_t size)
{
	struct path path;
	struct inode *inode;
	long error;

	if ((ssize_t)size <= 0)
		return -EINVAL;
	error = user_path_at(t, dfd, name, LOOKUP_EMPTY, &path, NULL);
	if (error)
		return error;
	inode = d_inode(t->vfs, path.dentry);
	if (S_ISLNK(READ_ONCE(inode->i_mode))) {
		size_t len = strlen(inode->i_link);

		touch_atime(&path);

		if (len > size)
			len = size;
		memcpy(buf, inode->i_link, len);
		error = len;
	} else {
		error = name[0] ? -EINVAL : -ENOENT;
	}
	path_put(t->vfs, &path);
	return error;
}

long sys_readlink(struct task *t, const char *name, char *buf, size_t size)
{
	return sys_readlinkat(t, AT_FDCWD, name, buf, size);
}
