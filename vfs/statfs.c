// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * statfs(2) and fstatfs(2) with tmpfs' answers (fs/statfs.c over
 * shmem_statfs()), and pathconf(3)/fpathconf(3) as glibc computes them on
 * Linux: some names are constants that never look at the path, some come
 * from statfs (so a bad path fails there), _PC_ASYNC_IO from stat.
 */
#include <limits.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "vfs/internal.h"
#include "vfs/mount.h"

#define TMPFS_MAGIC 0x01021994
#define ST_VALID 0x0020 /* f_flags is filled in */
#ifndef ST_NOSYMFOLLOW
#define ST_NOSYMFOLLOW 0x2000 /* glibc before 2.32 lacks it */
#endif
#define TMPFS_PAGE_SIZE 4096

/* shmem_default_max_inodes(): half of RAM, in pages. */
static unsigned long shmem_max_inodes(void)
{
	return (unsigned long)(vfs_phys_ram() / 2 / TMPFS_PAGE_SIZE);
}

/* Models calculate_f_flags(): the mount's flags, and the superblock's read-only. */
static long statfs_flags(const struct vfsmount *mnt)
{
	static const struct {
		int mnt;
		long st;
	} map[] = {
		{ MNT_READONLY, ST_RDONLY },   { MNT_NOSUID, ST_NOSUID },
		{ MNT_NODEV, ST_NODEV },       { MNT_NOEXEC, ST_NOEXEC },
		{ MNT_NOATIME, ST_NOATIME },   { MNT_NODIRATIME, ST_NODIRATIME },
		{ MNT_RELATIME, ST_RELATIME }, { MNT_NOSYMFOLLOW, ST_NOSYMFOLLOW },
	};
	int mf = READ_ONCE(mnt->mnt_flags);
	long flags = ST_VALID;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (mf & map[i].mnt)
			flags |= map[i].st;
	if (sb_rdonly(mnt->mnt_sb))
		flags |= ST_RDONLY;
	return flags;
}

/* Models shmem_statfs() and statfs_by_dentry()'s defaults, for path's superblock. */
static void shmem_statfs(struct vfs *v, const struct path *path, struct statfs *buf)
{
	const struct super_block *sb = path->mnt->mnt_sb;
	unsigned long max_blocks = shmem_max_pages(sb), max_inodes = shmem_max_inodes();
	unsigned long used = (unsigned long)atomic_long_read(&sb->shmem_pages);
	unsigned long inodes = (unsigned long)kmem_cache_inuse(v->inode_cache);

	memset(buf, 0, sizeof(*buf));
	buf->f_type = TMPFS_MAGIC;
	buf->f_bsize = TMPFS_PAGE_SIZE;
	buf->f_namelen = NAME_MAX_LEN;
	buf->f_blocks = max_blocks;
	buf->f_bfree = buf->f_bavail = used < max_blocks ? max_blocks - used : 0;
	buf->f_files = max_inodes;
	buf->f_ffree = inodes < max_inodes ? max_inodes - inodes : 0;
	buf->f_frsize = buf->f_bsize;
	buf->f_flags = statfs_flags(path->mnt);
}

/* Models user_statfs(). */
long sys_statfs(struct task *t, const char *name, struct statfs *buf)
{
	struct path path;
	int error = user_path_at(t, AT_FDCWD, name, LOOKUP_FOLLOW, &path, NULL);

	if (error)
		return error;
	if (buf)
		shmem_statfs(t->vfs, &path, buf);
	path_put(t->vfs, &path);
	return buf ? 0 : -EFAULT;
}

/* Models fd_statfs(): an O_PATH descriptor will do. */
long sys_fstatfs(struct task *t, int fd, struct statfs *buf)
{
	struct fd f = fdget_raw(t, fd);

	if (fd < 0 || !fd_file(f))
		return -EBADF;
	if (buf)
		shmem_statfs(t->vfs, file_path(t->vfs, fd_file(f)), buf);
	fdput(t, f);
	return buf ? 0 : -EFAULT;
}

/* What a name needs before glibc can answer it. */
enum pc_source { PC_CONST, PC_STATFS, PC_STAT };

/*
 * glibc's sysdeps/unix/sysv/linux/pathconf.c and posix's, on tmpfs:
 * LINK_MAX is __statfs_link_max()'s default for a type it does not know,
 * FILESIZEBITS __statfs_filesize_max()'s (32), the transfer sizes and
 * ALLOC_SIZE_MIN come from statvfs' f_bsize/f_frsize. -1 is "no limit".
 */
static int pathconf_rule(int name, enum pc_source *src, long *value)
{
	static const struct {
		int name;
		enum pc_source src;
		long value;
	} rules[] = {
		{ _PC_LINK_MAX, PC_STATFS, 127 },
		{ _PC_MAX_CANON, PC_CONST, 255 },
		{ _PC_MAX_INPUT, PC_CONST, 255 },
		{ _PC_NAME_MAX, PC_STATFS, NAME_MAX_LEN },
		{ _PC_PATH_MAX, PC_CONST, PATH_MAX_LEN },
		{ _PC_PIPE_BUF, PC_CONST, 4096 },
		{ _PC_CHOWN_RESTRICTED, PC_STATFS, 1 },
		{ _PC_NO_TRUNC, PC_CONST, 1 },
		{ _PC_VDISABLE, PC_CONST, 0 },
		{ _PC_SYNC_IO, PC_CONST, -1 },
		{ _PC_ASYNC_IO, PC_STAT, 1 },
		{ _PC_PRIO_IO, PC_CONST, -1 },
		{ _PC_SOCK_MAXBUF, PC_CONST, -1 },
		{ _PC_FILESIZEBITS, PC_STATFS, 32 },
		{ _PC_REC_INCR_XFER_SIZE, PC_CONST, -1 },
		{ _PC_REC_MAX_XFER_SIZE, PC_CONST, -1 },
		{ _PC_REC_MIN_XFER_SIZE, PC_STATFS, TMPFS_PAGE_SIZE },
		{ _PC_REC_XFER_ALIGN, PC_STATFS, TMPFS_PAGE_SIZE },
		{ _PC_ALLOC_SIZE_MIN, PC_STATFS, TMPFS_PAGE_SIZE },
		{ _PC_SYMLINK_MAX, PC_CONST, -1 },
		{ _PC_2_SYMLINKS, PC_STATFS, 1 },
	};

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (rules[i].name == name) {
			*src = rules[i].src;
			*value = rules[i].value;
			return 0;
		}
	}
	return -EINVAL;
}

/* _PC_ASYNC_IO: regular files and block devices only; else -1, no error. */
static long async_io(const struct inode *inode)
{
	umode_t mode = READ_ONCE(inode->i_mode);

	return S_ISREG(mode) || S_ISBLK(mode) ? 1 : -1;
}

/* glibc checks an empty path and a negative fd before the name. */
long sys_pathconf(struct task *t, const char *name, int which, long *value)
{
	enum pc_source src;
	struct path path;
	int error;

	if (name && !*name)
		return -ENOENT;
	error = pathconf_rule(which, &src, value);
	if (error || src == PC_CONST)
		return error;
	error = user_path_at(t, AT_FDCWD, name, LOOKUP_FOLLOW, &path, NULL);
	if (error)
		return error;
	if (src == PC_STAT)
		*value = async_io(d_inode(t->vfs, path.dentry));
	path_put(t->vfs, &path);
	return 0;
}

long sys_fpathconf(struct task *t, int fd, int which, long *value)
{
	enum pc_source src;
	struct fd f;
	int error;

	if (fd < 0)
		return -EBADF;
	error = pathconf_rule(which, &src, value);
	if (error || src == PC_CONST)
		return error;
	f = fdget_raw(t, fd);
	if (fd < 0 || !fd_file(f))
		return -EBADF;
	if (src == PC_STAT)
		*value = async_io(file_inode(t->vfs, fd_file(f)));
	fdput(t, f);
	return 0;
}
