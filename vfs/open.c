// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * open, access, chdir, chmod, chown, truncate, utimensat, umask and getcwd,
 * and the flush every close runs (filp_flush, filp_close). Models
 * fs/open.c, fs/utimes.c and fs/d_path.c's getcwd.
 */
#include <linux/falloc.h>

#include "vfs/mount.h"

/* Models do_sys_openat2(): the fd first (EMFILE wins), then the walk. */
static __always_inline long do_sys_openat2(struct task *t, int dfd, const char *path,
					   const struct open_how *how)
{
	struct file *f = NULL;
	int fd, err;

	fd = get_unused_fd_flags(t, how->flags);
	if (fd < 0)
		return fd;
	err = do_filp_open(t, dfd, path, how, &f);
	if (err) {
		put_unused_fd(t, fd);
		return err;
	}
	fsnotify_file(t->vfs, f); /* fsnotify_open() */
	fd_install(t, fd, f);
	return fd;
}

long sys_openat(struct task *t, int dfd, const char *path, int flags, mode_t mode)
{
	struct open_how how = { .flags = (unsigned int)(flags | KERNEL_O_LARGEFILE), .mode = mode };

	return do_sys_openat2(t, dfd, path, &how);
}

/*
 * Models openat2(2): copy_struct_from_user()'s size rules (a newer
 * caller's bigger struct is fine while its extra bytes are zero), then
 * the checks open(2) never makes.
 */
long sys_openat2(struct task *t, int dfd, const char *path, const void *uhow, size_t usize)
{
	struct open_how how = { 0 };
	int err;

	if (usize < OPEN_HOW_SIZE_VER0)
		return -EINVAL;
	if (usize > 4096)
		return -E2BIG;
	if (!uhow)
		return -EFAULT;
	memcpy(&how, uhow, min(usize, sizeof(how)));
	for (size_t i = sizeof(how); i < usize; i++)
		if (((const unsigned char *)uhow)[i])
			return -E2BIG;
	if (!(how.flags & O_PATH))
		how.flags |= KERNEL_O_LARGEFILE;
	err = check_open_how(&how);
	if (err)
		return err;
	return do_sys_openat2(t, dfd, path, &how);
}

long sys_open(struct task *t, const char *path, int flags, mode_t mode)
{
	return sys_openat(t, AT_FDCWD, path, flags, mode);
}

long sys_creat(struct task *t, const char *path, mode_t mode)
{
	return sys_openat(t, AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

/*
 * Models dnotify_flush()'s entry test: only a directory can carry dnotify
 * marks. vfslab has no dnotify, so a directory has none to drop either.
 */
static void dnotify_flush(struct vfs *v, struct file *filp)
{
	struct inode *inode = file_inode(v, filp);

	if (!S_ISDIR(READ_ONCE(inode->i_mode)))
		return;
}

/*
 * Models locks_remove_posix()'s entry test: no lock context, no POSIX
 * locks to drop. vfslab has no file locks: i_flctx is always NULL.
 */
static void locks_remove_posix(struct vfs *v, struct file *filp)
{
	struct inode *inode = file_inode(v, filp);
	struct file_lock_context *ctx = smp_load_acquire(&inode->i_flctx);

	WARN_ON_ONCE(ctx != NULL);
}

/*
 * Models filp_flush() (fs/open.c; filp_close()'s first half before it was
 * split out for close(2)): what every close of an fd does to the file
 * besides dropping the table's reference. It does little on tmpfs, but it
 * reads the count (the "file count is 0" data-corruption check), f_op
 * (->flush), f_mode (FMODE_PATH) and, through f_inode, the inode's i_mode
 * and i_flctx; the layout decides which of those share a line with the
 * count. The loads are READ_ONCE so that the compiler keeps them, as the
 * kernel's out-of-line callees do. Returns ->flush's result.
 */
int filp_flush(struct vfs *v, struct file *filp, struct files_struct *id)
{
	const struct file_operations *fop;
	int retval = 0;

	/* CHECK_DATA_CORRUPTION(file_count(filp) == 0, ...) */
	if (WARN_ON_ONCE(file_count(v, filp) == 0))
		return 0;
	fop = READ_ONCE(*file_op(v, filp));
	if (fop->flush)
		retval = fop->flush(v, filp, id);
	if (likely(!(file_fmode(v, filp) & FMODE_PATH))) {
		dnotify_flush(v, filp);
		locks_remove_posix(v, filp);
	}
	return retval;
}

/* Models filp_close(): flush, then put the reference the fd table held. */
int filp_close(struct vfs *v, struct file *filp, struct files_struct *id)
{
	int retval = filp_flush(v, filp, id);

	fput_close(v, filp);
	return retval;
}

/*
 * Models do_faccessat(): the check uses the real uid and gid (unless
 * AT_EACCESS), for the walk's search permissions too.
 */
long sys_faccessat(struct task *t, int dfd, const char *name, int mode, int flags)
{
	struct cred saved = t->cred;
	unsigned int lookup_flags = LOOKUP_FOLLOW;
	struct path path;
	struct inode *inode;
	int res;

	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (flags & AT_SYMLINK_NOFOLLOW)
		lookup_flags &= ~LOOKUP_FOLLOW;
	if (flags & AT_EMPTY_PATH)
		lookup_flags |= LOOKUP_EMPTY;
	if (!(flags & AT_EACCESS)) {
		t->cred.fsuid = t->cred.uid;
		t->cred.fsgid = t->cred.gid;
		t->cred.euid = t->cred.uid;
	}
	res = user_path_at(t, dfd, name, lookup_flags, &path, NULL);
	if (res)
		goto out;
	inode = d_inode(t->vfs, path.dentry);
	if ((mode & X_OK) && S_ISREG(READ_ONCE(inode->i_mode)) && fs_capable(&t->cred) &&
	    !(READ_ONCE(inode->i_mode) & (S_IXUSR | S_IXGRP | S_IXOTH)))
		res = -EACCES;
	else
		res = inode_permission(&t->cred, inode, mode);
	path_put(t->vfs, &path);
out:
	t->cred = saved;
	return res;
}

long sys_access(struct task *t, const char *name, int mode)
{
	return sys_faccessat(t, AT_FDCWD, name, mode, 0);
}

/* Models set_fs_pwd(): the new cwd published under fs->seq. */
static void set_fs_pwd(struct task *t, const struct path *path)
{
	struct fs_struct *fs = t->fs;
	struct path old;

	path_get(t->vfs, path);
	spin_lock(&fs->lock);
	write_seqcount_begin(&fs->seq);
	old = fs->pwd;
	fs->pwd = *path;
	write_seqcount_end(&fs->seq);
	spin_unlock(&fs->lock);
	path_put(t->vfs, &old);
}

long sys_chdir(struct task *t, const char *name)
{
	struct path path;
	int error = user_path_at(t, AT_FDCWD, name, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &path, NULL);

	if (error)
		return error;
	error = inode_permission(&t->cred, d_inode(t->vfs, path.dentry), MAY_EXEC);
	if (!error)
		set_fs_pwd(t, &path);
	path_put(t->vfs, &path);
	return error;
}

long sys_fchdir(struct task *t, int fd)
{
	struct fd f = fdget_raw(t, fd);
	struct file *file = fd_file(f);
	int error;

	if (fd < 0 || !file)
		return -EBADF;
	if (!d_can_lookup(t->vfs, file_path(t->vfs, file)->dentry))
		error = -ENOTDIR;
	else
		error = inode_permission(&t->cred, file_inode(t->vfs, file), MAY_EXEC);
	if (!error)
		set_fs_pwd(t, file_path(t->vfs, file));
	fdput(t, f);
	return error;
}

/* Models getcwd(2). */
long sys_getcwd(struct task *t, char *buf, size_t size)
{
	struct vfs *v = t->vfs;
	char tmp[PATH_MAX_LEN];
	struct path pwd;
	size_t len;
	long ret;

	spin_lock(&t->fs->lock);
	pwd = t->fs->pwd;
	path_get(v, &pwd);
	spin_unlock(&t->fs->lock);
	if (d_unhashed(v, pwd.dentry) && !IS_ROOT(v, pwd.dentry)) {
		ret = -ENOENT;
		goto out;
	}
	/* prepend_path() into one page: longer than PATH_MAX is ENAMETOOLONG. */
	if (d_path_name(v, &pwd, tmp, sizeof(tmp))) {
		ret = -ENAMETOOLONG;
		goto out;
	}
	len = strlen(tmp) + 1;
	ret = -ERANGE;
	if (len <= size && buf) {
		memcpy(buf, tmp, len);
		ret = len;
	}
out:
	path_put(v, &pwd);
	return ret;
}

/* Models umask(2): an exchange, since threads sharing fs_struct race on it. */
long sys_umask(struct task *t, mode_t mask)
{
	return __atomic_exchange_n(&t->fs->umask, mask & S_IRWXUGO, __ATOMIC_RELAXED);
}

/* ---- attributes ---- */

static long chmod_path(struct task *t, int dfd, const char *name, mode_t mode,
		       unsigned int lookup_flags)
{
	struct path path;
	struct inode *inode;
	int error = user_path_at(t, dfd, name, lookup_flags, &path, NULL);

	if (error)
		return error;
	inode = d_inode(t->vfs, path.dentry);
	error = mnt_want_write(path.mnt);
	/* fchmodat2(AT_SYMLINK_NOFOLLOW) on a link: no mode to change. */
	if (error)
		;
	else if (S_ISLNK(READ_ONCE(inode->i_mode)))
		error = -EOPNOTSUPP;
	else
		error = notify_change_mode(t, inode, mode);
	path_put(t->vfs, &path);
	return error;
}

long sys_fchmodat(struct task *t, int dfd, const char *name, mode_t mode, int flags)
{
	unsigned int lookup_flags = LOOKUP_FOLLOW;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (flags & AT_SYMLINK_NOFOLLOW)
		lookup_flags = 0;
	if (flags & AT_EMPTY_PATH)
		lookup_flags |= LOOKUP_EMPTY;
	return chmod_path(t, dfd, name, mode, lookup_flags);
}

long sys_chmod(struct task *t, const char *name, mode_t mode)
{
	return chmod_path(t, AT_FDCWD, name, mode, LOOKUP_FOLLOW);
}

long sys_fchmod(struct task *t, int fd, mode_t mode)
{
	struct fd f = fdget(t, fd);
	long err;

	if (fd < 0 || !fd_file(f))
		return -EBADF;
	err = mnt_want_write(file_path(t->vfs, fd_file(f))->mnt);
	if (!err)
		err = notify_change_mode(t, file_inode(t->vfs, fd_file(f)), mode);
	fdput(t, f);
	return err;
}

long sys_fchownat(struct task *t, int dfd, const char *name, uid_t uid, gid_t gid, int flags)
{
	unsigned int lookup_flags = LOOKUP_FOLLOW;
	struct path path;
	int error;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (flags & AT_SYMLINK_NOFOLLOW)
		lookup_flags = 0;
	if (flags & AT_EMPTY_PATH)
		lookup_flags |= LOOKUP_EMPTY;
	error = user_path_at(t, dfd, name, lookup_flags, &path, NULL);
	if (error)
		return error;
	error = mnt_want_write(path.mnt);
	if (!error)
		error = notify_change_owner(t, d_inode(t->vfs, path.dentry), uid, gid);
	path_put(t->vfs, &path);
	return error;
}

long sys_chown(struct task *t, const char *name, uid_t uid, gid_t gid)
{
	return sys_fchownat(t, AT_FDCWD, name, uid, gid, 0);
}

long sys_lchown(struct task *t, const char *name, uid_t uid, gid_t gid)
{
	return sys_fchownat(t, AT_FDCWD, name, uid, gid, AT_SYMLINK_NOFOLLOW);
}

long sys_fchown(struct task *t, int fd, uid_t uid, gid_t gid)
{
	struct fd f = fdget(t, fd);
	long err;

	if (fd < 0 || !fd_file(f))
		return -EBADF;
	err = mnt_want_write(file_path(t->vfs, fd_file(f))->mnt);
	if (!err)
		err = notify_change_owner(t, file_inode(t->vfs, fd_file(f)), uid, gid);
	fdput(t, f);
	return err;
}

/*
 * Models do_truncate() for tmpfs: resize under inode_lock; a caller without
 * CAP_FSETID takes setuid/setgid off as should_remove_suid() decides.
 */
int vfs_truncate_inode(struct task *t, struct inode *inode, long long length)
{
	int err;

	inode_lock(inode);
	err = shmem_setsize(inode, length);
	if (!err)
		remove_privs(&t->cred, inode);
	inode_unlock(inode);
	if (!err)
		inode_touch(inode, true, true);
	return err;
}

/* Models vfs_truncate(). */
long sys_truncate(struct task *t, const char *name, off_t length)
{
	struct path path;
	struct inode *inode;
	int error;

	if (length < 0)
		return -EINVAL;
	error = user_path_at(t, AT_FDCWD, name, LOOKUP_FOLLOW, &path, NULL);
	if (error)
		return error;
	inode = d_inode(t->vfs, path.dentry);
	if (S_ISDIR(READ_ONCE(inode->i_mode)))
		error = -EISDIR;
	else if (!S_ISREG(READ_ONCE(inode->i_mode)))
		error = -EINVAL;
	else if (!(error = mnt_want_write(path.mnt)))
		error = inode_permission(&t->cred, inode, MAY_WRITE);
	if (!error)
		error = vfs_truncate_inode(t, inode, length);
	path_put(t->vfs, &path);
	return error;
}

/* Models do_sys_ftruncate(). */
long sys_ftruncate(struct task *t, int fd, off_t length)
{
	struct fd f;
	struct file *file;
	struct inode *inode;
	long error;

	if (length < 0)
		return -EINVAL;
	f = fdget(t, fd);
	file = fd_file(f);
	if (fd < 0 || !file)
		return -EBADF;
	inode = file_inode(t->vfs, file);
	if (!S_ISREG(READ_ONCE(inode->i_mode)) || !(file_fmode(t->vfs, file) & FMODE_WRITE))
		error = -EINVAL;
	else
		error = vfs_truncate_inode(t, inode, length);
	fdput(t, f);
	return error;
}

/*
 * Models vfs_fallocate() + shmem_fallocate() for mode 0 and
 * FALLOC_FL_KEEP_SIZE: the pages of the range exist afterwards (st_blocks
 * counts them) and, without KEEP_SIZE, the file is at least that long.
 */
long sys_fallocate(struct task *t, int fd, int mode, off_t offset, off_t len)
{
	struct fd f = fdget(t, fd);
	struct file *file = fd_file(f);
	struct inode *inode;
	long long end;
	long err;

	if (fd < 0 || !file)
		return -EBADF;
	inode = file_inode(t->vfs, file);
	if (offset < 0 || len <= 0)
		err = -EINVAL;
	else if (mode & ~FALLOC_FL_KEEP_SIZE)
		err = -EOPNOTSUPP;
	else if (!(file_fmode(t->vfs, file) & FMODE_WRITE))
		err = -EBADF;
	else if (S_ISFIFO(READ_ONCE(inode->i_mode)))
		err = -ESPIPE;
	else if (S_ISDIR(READ_ONCE(inode->i_mode)))
		err = -EISDIR;
	else if (!S_ISREG(READ_ONCE(inode->i_mode)))
		err = -ENODEV;
	else if (__builtin_add_overflow(offset, len, &end))
		err = -EFBIG;
	else {
		inode_lock(inode);
		err = shmem_fallocate(&t->cred, inode, offset, len);
		if (!err && !(mode & FALLOC_FL_KEEP_SIZE) && end > READ_ONCE(inode->i_size)) {
			spin_lock(&inode->i_lock);
			WRITE_ONCE(inode->i_size, end);
			spin_unlock(&inode->i_lock);
		}
		inode_unlock(inode);
		if (!err)
			inode_touch(inode, !(mode & FALLOC_FL_KEEP_SIZE), true);
	}
	fdput(t, f);
	return err;
}

static bool utime_valid(const struct timespec *ts)
{
	return ts->tv_nsec == UTIME_NOW || ts->tv_nsec == UTIME_OMIT ||
	       (ts->tv_nsec >= 0 && ts->tv_nsec < 1000000000);
}

/*
 * Models vfs_utimes(): "now" needs ownership or write permission (EACCES);
 * an explicit time needs ownership (EPERM). Root may do either.
 */
static int utimes_inode(struct task *t, const struct path *path, const struct timespec *times)
{
	const struct cred *cred = &t->cred;
	struct inode *inode = d_inode(t->vfs, path->dentry);
	struct timespec now;
	bool set_a = true, set_m = true, explicit = false;
	int error;

	/* vfs_utimes() checks the nanoseconds once it has the inode, then the mount. */
	if (times && (!utime_valid(&times[0]) || !utime_valid(&times[1])))
		return -EINVAL;
	error = mnt_want_write(path->mnt);
	if (error)
		return error;
	/* Both UTIME_NOW is a plain touch; anything else is ATTR_TIMES_SET. */
	if (times && times[0].tv_nsec == UTIME_NOW && times[1].tv_nsec == UTIME_NOW)
		times = NULL;
	if (times) {
		set_a = times[0].tv_nsec != UTIME_OMIT;
		set_m = times[1].tv_nsec != UTIME_OMIT;
		explicit = true;
	}
	if (explicit) {
		if (!inode_owner_or_capable(cred, inode))
			return -EPERM;
	} else if (!inode_owner_or_capable(cred, inode) &&
		   inode_permission(cred, inode, MAY_WRITE)) {
		return -EACCES;
	}
	current_time(&now);
	spin_lock(&inode->i_lock);
	if (set_a)
		inode_set_time(&inode->i_atime,
			       times && times[0].tv_nsec != UTIME_NOW ? times[0] : now);
	if (set_m)
		inode_set_time(&inode->i_mtime,
			       times && times[1].tv_nsec != UTIME_NOW ? times[1] : now);
	inode_set_time(&inode->i_ctime, now);
	spin_unlock(&inode->i_lock);
	return 0;
}

long sys_utimensat(struct task *t, int dfd, const char *name, const struct timespec times[2],
		   int flags)
{
	unsigned int lookup_flags = LOOKUP_FOLLOW;
	struct path path;
	int error;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	/* do_utimes(): nothing to do, and the path is not even looked at. */
	if (times && times[0].tv_nsec == UTIME_OMIT && times[1].tv_nsec == UTIME_OMIT)
		return 0;
	if (!name) {
		/* utimensat(fd, NULL, ...) is futimens(fd). */
		struct fd f;

		if (flags & AT_SYMLINK_NOFOLLOW)
			return -EINVAL;
		f = fdget(t, dfd);
		if (dfd < 0 || !fd_file(f))
			return -EBADF;
		error = utimes_inode(t, file_path(t->vfs, fd_file(f)), times);
		fdput(t, f);
		return error;
	}
	if (flags & AT_SYMLINK_NOFOLLOW)
		lookup_flags = 0;
	if (flags & AT_EMPTY_PATH)
		lookup_flags |= LOOKUP_EMPTY;
	error = user_path_at(t, dfd, name, lookup_flags, &path, NULL);
	if (error)
		return error;
	error = utimes_inode(t, &path, times);
	path_put(t->vfs, &path);
	return error;
}
