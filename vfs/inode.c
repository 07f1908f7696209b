// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Inodes: allocation, reference counting, permission checks and attribute
 * helpers. Models fs/inode.c, fs/namei.c's generic_permission() and the
 * parts of fs/attr.c and fs/stat.c that read or change an inode.
 *
 * Usage:
 *  i_lock protects i_size, the times and the attribute fields against
 *  concurrent changes; readers that race (stat, RCU walk's permission check)
 *  read each field once. i_rwsem (inode_lock) serialises namespace changes
 *  in a directory and writes to a file. i_count is the reference count:
 *  one per dentry alias plus transient holders; the inode is evicted when
 *  it drops to zero, and freed after an RCU grace period because RCU walk
 *  reads i_mode and i_link without references.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vfs/mount.h"

void current_time(struct timespec *ts)
{
	/* The kernel's current_time() reads the coarse clock, too. */
	clock_gettime(CLOCK_REALTIME_COARSE, ts);
}

/* Models inode_init_owner(): uid from the creator, gid and sgid from dir. */
static void inode_init_owner(const struct cred *cred, struct inode *inode, const struct inode *dir,
			     umode_t mode)
{
	inode->i_uid = cred->fsuid;
	if (dir && (READ_ONCE(dir->i_mode) & S_ISGID)) {
		inode->i_gid = READ_ONCE(dir->i_gid);
		if (S_ISDIR(mode))
			mode |= S_ISGID;
	} else {
		inode->i_gid = cred->fsgid;
	}
	/* mode_strip_sgid(): no setgid file for a group the creator lacks. */
	if (!S_ISDIR(mode) && (mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) && dir &&
	    (READ_ONCE(dir->i_mode) & S_ISGID) && !in_group_p(cred, inode->i_gid) && !capable(cred))
		mode &= ~S_ISGID;
	inode->i_mode = mode;
}

/* Models shmem_get_inode(): a fresh inode, one reference, nlink set. */
struct inode *new_inode(struct super_block *sb, const struct cred *cred, const struct inode *dir,
			umode_t mode, dev_t rdev)
{
	struct vfs *v = sb->s_vfs;
	VFS_PHASE(VFS_PH_INODE);
	struct inode *inode = kmem_cache_zalloc(v->inode_cache);

	if (!inode)
		return NULL;
	inode->i_sb = sb;
	atomic_inc(&sb->s_count);
	inode_init_owner(cred, inode, dir, mode);
	atomic_set(&inode->i_count, 1);
	spin_lock_init(&inode->i_lock);
	init_rwsem(&inode->i_rwsem);
	inode->i_nlink = S_ISDIR(mode) ? 2 : 1;
	if (S_ISCHR(mode) || S_ISBLK(mode))
		inode->i_rdev = rdev;
	/* get_next_ino() */
	spin_lock(&v->task_lock);
	inode->i_ino = ++v->next_ino;
	spin_unlock(&v->task_lock);
	/* Offsets 0 and 1 are "." and "..". */
	inode->i_dir_offset = 2;
	current_time(&inode->i_atime);
	inode->i_mtime = inode->i_ctime = inode->i_atime;
	return inode;
}

void ihold(struct inode *inode)
{
	WARN_ON(atomic_inc_return(&inode->i_count) < 2);
}

static void inode_free_rcu(struct rcu_head *head)
{
	struct inode *inode = container_of(head, struct inode, i_rcu);

	struct super_block *sb = inode->i_sb;

	free((void *)inode->i_link);
	kmem_cache_free(sb->s_vfs->inode_cache, inode);
	put_super(sb);
}

/* Models iput() + evict(): the last reference frees data and inode. */
void iput(struct inode *inode)
{
	if (!inode || !atomic_dec_and_test(&inode->i_count))
		return;
	shmem_evict(inode);
	call_rcu(&inode->i_rcu, inode_free_rcu);
}

bool in_group_p(const struct cred *cred, gid_t gid)
{
	if (gid == cred->fsgid)
		return true;
	for (int i = 0; i < cred->ngroups; i++)
		if (cred->groups[i] == gid)
			return true;
	return false;
}

/*
 * Models generic_permission() with acl_permission_check(): the owner's
 * bits decide for the owner even when group or other bits would allow;
 * then root's CAP_DAC_READ_SEARCH and CAP_DAC_OVERRIDE as Linux grants
 * them (exec needs some x bit on a non-directory).
 */
int generic_permission(const struct cred *cred, const struct inode *inode, int mask)
{
	unsigned int mode = READ_ONCE(inode->i_mode);
	uid_t uid = READ_ONCE(inode->i_uid);
	gid_t gid = READ_ONCE(inode->i_gid);
	unsigned int bits;

	mask &= MAY_READ | MAY_WRITE | MAY_EXEC;
	if (cred->fsuid == uid)
		bits = mode >> 6;
	else if (in_group_p(cred, gid))
		bits = mode >> 3;
	else
		bits = mode;
	if (!(mask & ~bits & 7))
		return 0;
	if (!fs_capable(cred))
		return -EACCES;
	if (S_ISDIR(mode)) {
		if (!(mask & MAY_WRITE))
			return 0; /* CAP_DAC_READ_SEARCH */
		return 0; /* CAP_DAC_OVERRIDE */
	}
	if (mask == MAY_READ)
		return 0;
	if (!(mask & MAY_EXEC) || (mode & (S_IXUSR | S_IXGRP | S_IXOTH)))
		return 0;
	return -EACCES;
}

/* Models inode_permission(): no ACLs, no read-only mounts here. */
int inode_permission(const struct cred *cred, const struct inode *inode, int mask)
{
	/* sb_permission(): nobody writes to a read-only filesystem's files, dirs, links. */
	if (unlikely(mask & MAY_WRITE) && unlikely(sb_rdonly(inode->i_sb))) {
		umode_t mode = READ_ONCE(inode->i_mode);

		if (S_ISREG(mode) || S_ISDIR(mode) || S_ISLNK(mode))
			return -EROFS;
	}
	return generic_permission(cred, inode, mask);
}

/* Models inode_owner_or_capable(): CAP_FOWNER is root's. */
bool inode_owner_or_capable(const struct cred *cred, const struct inode *inode)
{
	return cred->fsuid == READ_ONCE(inode->i_uid) || fs_capable(cred);
}

void inode_touch(struct inode *inode, bool m, bool c)
{
	struct timespec now;

	current_time(&now);
	spin_lock(&inode->i_lock);
	if (m)
		inode_set_time(&inode->i_mtime, now);
	if (c)
		inode_set_time(&inode->i_ctime, now);
	spin_unlock(&inode->i_lock);
}

static int timespec_cmp(struct timespec a, struct timespec b)
{
	if (a.tv_sec != b.tv_sec)
		return a.tv_sec < b.tv_sec ? -1 : 1;
	return a.tv_nsec < b.tv_nsec ? -1 : a.tv_nsec > b.tv_nsec;
}

/*
 * Models relatime_need_update(): on a relatime mount (every mount's
 * default) atime moves only when it is not newer than mtime or ctime, or
 * a day old: the first read after a change, not every read.
 */
static bool relatime_need_update(const struct vfsmount *mnt, const struct inode *inode,
				 struct timespec now)
{
	struct timespec atime = inode_get_time(&inode->i_atime);

	if (!(READ_ONCE(mnt->mnt_flags) & MNT_RELATIME))
		return true;
	if (timespec_cmp(inode_get_time(&inode->i_mtime), atime) >= 0 ||
	    timespec_cmp(inode_get_time(&inode->i_ctime), atime) >= 0)
		return true;
	return now.tv_sec - atime.tv_sec >= 24 * 60 * 60;
}

/* Models atime_needs_update(). */
bool atime_needs_update(const struct path *path, const struct inode *inode)
{
	int mnt_flags = READ_ONCE(path->mnt->mnt_flags);
	struct timespec now;

	if (mnt_flags & MNT_NOATIME)
		return false;
	if ((mnt_flags & MNT_NODIRATIME) && S_ISDIR(READ_ONCE(inode->i_mode)))
		return false;
	current_time(&now);
	if (!relatime_need_update(path->mnt, inode, now))
		return false;
	return timespec_cmp(inode_get_time(&inode->i_atime), now) != 0;
}

/* Models touch_atime(): a read-only mount or superblock keeps atime as it is. */
void touch_atime(const struct path *path)
{
	struct vfs *v = path->mnt->mnt_sb->s_vfs;
	struct inode *inode = d_inode(v, path->dentry);
	struct timespec now;

	if (!atime_needs_update(path, inode))
		return;
	if (mnt_get_write_access(v, path->mnt))
		return;
	current_time(&now);
	spin_lock(&inode->i_lock);
	inode_set_time(&inode->i_atime, now);
	spin_unlock(&inode->i_lock);
	mnt_put_write_access(v, path->mnt);
}

/* Models file_accessed(): every read and getdents asks, O_NOATIME aside. */
void file_accessed(struct vfs *v, struct file *f)
{
	if (!(READ_ONCE(*file_flags(v, f)) & O_NOATIME))
		touch_atime(file_path(v, f));
}

/*
 * Models INIT_STRUCT_STAT_PADDING(): x86-64's zeroes the padding members
 * alone, the generic one the whole struct. Clearing all 144 bytes is a
 * string store whose start-up cost a stat 3%.
 */
static inline void init_struct_stat_padding(struct stat *st)
{
#if defined(__x86_64__) && defined(__GLIBC__)
	st->__pad0 = 0;
	st->__glibc_reserved[0] = 0;
	st->__glibc_reserved[1] = 0;
	st->__glibc_reserved[2] = 0;
#else
	memset(st, 0, sizeof(*st));
#endif
}

/* Models generic_fillattr() + cp_new_stat() for tmpfs. */
void inode_fill_stat(const struct inode *inode, struct stat *st)
{
	init_struct_stat_padding(st);
	st->st_dev = inode->i_sb->s_dev; /* an anonymous device: major 0, as tmpfs' */
	st->st_ino = inode->i_ino;
	st->st_mode = READ_ONCE(inode->i_mode);
	st->st_nlink = READ_ONCE(inode->i_nlink);
	st->st_uid = READ_ONCE(inode->i_uid);
	st->st_gid = READ_ONCE(inode->i_gid);
	st->st_rdev = inode->i_rdev;
	st->st_size = READ_ONCE(inode->i_size);
	st->st_blksize = 4096;
	/* tmpfs counts the pages it holds, in 512-byte blocks: sparse is cheap. */
	st->st_blocks = READ_ONCE(inode->i_blocks);
	st->st_atim = inode_get_time(&inode->i_atime);
	st->st_mtim = inode_get_time(&inode->i_mtime);
	st->st_ctim = inode_get_time(&inode->i_ctime);
}

/*
 * Models setattr_should_drop_sgid() + should_remove_suid(): what a write,
 * a truncate or a chown by someone without CAP_FSETID takes off a regular
 * file: setuid, and setgid when group-exec is set or the caller is not in
 * the file's group. Returns the bits to clear.
 */
umode_t should_remove_privs(const struct cred *cred, const struct inode *inode)
{
	umode_t mode = READ_ONCE(inode->i_mode), kill = 0;

	if (!S_ISREG(mode) || fs_capable(cred))
		return 0;
	if (mode & S_ISUID)
		kill |= S_ISUID;
	if ((mode & S_ISGID) && ((mode & S_IXGRP) || !in_group_p(cred, READ_ONCE(inode->i_gid))))
		kill |= S_ISGID;
	return kill;
}

/* Models file_remove_privs(). */
void remove_privs(const struct cred *cred, struct inode *inode)
{
	umode_t kill = should_remove_privs(cred, inode);

	if (!kill)
		return;
	spin_lock(&inode->i_lock);
	WRITE_ONCE(inode->i_mode, inode->i_mode & ~kill);
	spin_unlock(&inode->i_lock);
}

/*
 * Models chmod_common() + setattr_prepare()/setattr_copy() for ATTR_MODE:
 * only the owner (or root) may change the mode; a non-member's chmod
 * drops setgid as Linux's setattr_copy() does.
 */
int notify_change_mode(struct task *t, struct inode *inode, mode_t mode)
{
	const struct cred *cred = &t->cred;

	if (!inode_owner_or_capable(cred, inode))
		return -EPERM;
	mode &= S_IALLUGO;
	spin_lock(&inode->i_lock);
	if ((mode & S_ISGID) && !in_group_p(cred, READ_ONCE(inode->i_gid)) && !fs_capable(cred))
		mode &= ~S_ISGID;
	WRITE_ONCE(inode->i_mode, (inode->i_mode & S_IFMT) | mode);
	spin_unlock(&inode->i_lock);
	inode_touch(inode, false, true);
	return 0;
}

/*
 * Models chown_common() + setattr_prepare() for ATTR_UID/ATTR_GID: only
 * root changes the owner; the owner may change the group to one of its
 * own groups. On a non-directory every chown, root's and -1/-1 included,
 * kills setuid, and setgid when group-exec is set or (not for root) the
 * caller is not in the file's group: ATTR_KILL_SUID/SGID.
 */
int notify_change_owner(struct task *t, struct inode *inode, uid_t uid, gid_t gid)
{
	const struct cred *cred = &t->cred;
	uid_t cur_uid = READ_ONCE(inode->i_uid);
	gid_t cur_gid = READ_ONCE(inode->i_gid);
	bool root = fs_capable(cred);
	umode_t mode, kill;

	if (uid != (uid_t)-1 && uid != cur_uid && !root)
		return -EPERM;
	if (uid != (uid_t)-1 && uid == cur_uid && cred->fsuid != cur_uid && !root)
		return -EPERM;
	if (gid != (gid_t)-1 && gid != cur_gid && !root &&
	    (cred->fsuid != cur_uid || !in_group_p(cred, gid)))
		return -EPERM;
	if (gid != (gid_t)-1 && gid == cur_gid && !root && cred->fsuid != cur_uid)
		return -EPERM;
	mode = READ_ONCE(inode->i_mode);
	kill = 0;
	if (!S_ISDIR(mode)) {
		if (mode & S_ISUID)
			kill |= S_ISUID;
		if ((mode & S_ISGID) && ((mode & S_IXGRP) || (!root && !in_group_p(cred, cur_gid))))
			kill |= S_ISGID;
	}
	/* notify_change() makes the kill an ATTR_MODE change: the owner's to make. */
	if (kill && !inode_owner_or_capable(cred, inode))
		return -EPERM;
	spin_lock(&inode->i_lock);
	mode = inode->i_mode;
	if (uid != (uid_t)-1)
		WRITE_ONCE(inode->i_uid, uid);
	if (gid != (gid_t)-1)
		WRITE_ONCE(inode->i_gid, gid);
	if (kill)
		WRITE_ONCE(inode->i_mode, mode & ~kill);
	spin_unlock(&inode->i_lock);
	inode_touch(inode, false, true);
	return 0;
}
