// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Path walk and the namespace syscalls. Models fs/namei.c.
 *
 * A walk runs in RCU mode first: no reference and no store on any dentry
 * it passes, each component's d_seq sampled by __d_lookup_rcu() and the
 * parent's re-checked after the child is found, so a concurrent rename or
 * unlink shows up as a changed sequence. At the end, try_to_unlazy() takes
 * the one reference the caller needs (lockref_get_not_dead on the final
 * dentry) and re-checks its seq. Anything RCU mode cannot do (a dcache
 * miss, a changed seq) returns -ECHILD and the walk restarts in ref-walk
 * mode, which holds a reference on each step.
 *
 * Usage:
 *  Namespace changes (create, unlink, rename, link) hold the parent
 *  directory's inode_lock; cross-directory renames also hold
 *  s_vfs_rename_mutex and lock the two parents ancestor-first.
 *
 *  A dcache miss (lookup_slow) holds the directory's inode_lock shared:
 *  d_alloc_parallel() makes lookups of one name wait for the first.
 *
 * Mounts: a walk stepping onto a dentry marked DCACHE_MOUNTED asks the
 * mount hash (__follow_mount_rcu(), traverse_mounts() in ref-walk); ".."
 * at a mount's root climbs to its mountpoint first (choose_mountpoint).
 * Every crossing re-checks mount_lock against nd->m_seq, sampled in
 * path_init(), and leaving RCU mode legitimizes the mount before the
 * dentry: __legitimize_mnt(), lockref_get_not_dead(), then d_seq.
 *
 * Deviations from Linux: no magic links exist, so RESOLVE_NO_MAGICLINKS
 * changes nothing.
 */
#include <stdlib.h>

#include "lib/fault_inject.h"
#include "lib/word_at_a_time.h"
#include "vfs/mount.h"

/* openat2's scoping and resolve flags, include/linux/namei.h */
#define LOOKUP_NO_SYMLINKS 0x010000u
#define LOOKUP_NO_MAGICLINKS 0x020000u
#define LOOKUP_NO_XDEV 0x040000u
#define LOOKUP_BENEATH 0x080000u
#define LOOKUP_IN_ROOT 0x100000u
#define LOOKUP_CACHED 0x200000u
#define LOOKUP_IS_SCOPED (LOOKUP_BENEATH | LOOKUP_IN_ROOT)

#define ND_ROOT_PRESET 1u
#define ND_ROOT_GRABBED 2u
#define ND_JUMPED 4u

#define WALK_TRAILING 1u
#define WALK_MORE 2u
#define WALK_NOFOLLOW 4u

#define BOGO_DIRENT_SIZE 20

struct saved {
	struct path link;
	const char *name;
	unsigned int seq;
};

struct nameidata {
	struct path path;
	struct qstr last;
	struct path root;
	struct inode *inode;
	unsigned int flags, state;
	unsigned int seq, next_seq, m_seq, root_seq, r_seq;
	int last_type;
	unsigned int depth;
	int total_link_count;
	uid_t dir_uid;
	umode_t dir_mode;
	int dfd;
	struct task *task;
	struct vfs *v;
	const struct walk_trace *trace;
	struct saved stack[MAXSYMLINKS + 1];
};

static inline void trace(struct nameidata *nd, enum walk_event ev, const struct dentry *d,
			 const char *name, unsigned int len, uint64_t a, uint64_t b, int err)
{
	if (unlikely(nd->trace))
		nd->trace->event(nd->trace->ctx, ev, d, name, len, a, b, err);
}

/*
 * Models set_nameidata(): only what a walk may read before path_init() and
 * link_path_walk() set it, as the kernel's; the rest of the struct is
 * left as it is (clearing it all cost a stat 3% in a string store).
 * flags is cleared too: a walk that fails in path_init() before setting
 * it (RESOLVE_CACHED's second pass) goes to terminate_walk().
 */
static void set_nameidata(struct nameidata *nd, struct task *t, int dfd,
			  const struct walk_trace *tr)
{
	nd->depth = 0;
	nd->dfd = dfd;
	nd->path.mnt = NULL;
	nd->path.dentry = NULL;
	nd->total_link_count = 0;
	nd->flags = 0;
	nd->state = 0;
	nd->task = t;
	nd->v = t->vfs;
	nd->trace = tr;
}

/* ---- the name hash, a word at a time (CONFIG_DCACHE_WORD_ACCESS) ---- */

#define GOLDEN_RATIO_64 0x61C8864680B583EBull

static inline uint64_t rol64(uint64_t w, unsigned int s)
{
	return (w << s) | (w >> (64 - s));
}

#define HASH_MIX(x, y, a)         \
	do {                      \
		x ^= a;           \
		y ^= x;           \
		x = rol64(x, 12); \
		x += y;           \
		y = rol64(y, 45); \
		y *= 9;           \
	} while (0)

static inline uint32_t fold_hash(uint64_t x, uint64_t y)
{
	y ^= x * GOLDEN_RATIO_64;
	y *= GOLDEN_RATIO_64;
	return y >> 32;
}

/* Models full_name_hash(): whole words mixed, the tail masked in. */
uint32_t full_name_hash(const void *salt, const char *name, unsigned int len)
{
	uint64_t a, x = 0, y = (uintptr_t)salt;

	while (len >= sizeof(uint64_t)) {
		a = *(const unaligned_u64 *)name;
		HASH_MIX(x, y, a);
		name += sizeof(a);
		len -= sizeof(a);
	}
	if (len) {
		a = 0;
		memcpy(&a, name, len);
		x ^= a;
	}
	return fold_hash(x, y);
}

/*
 * Models hash_name(): hash and length of one component in one pass, a word
 * at a time, stopping at '/' or NUL, salted with the parent dentry so equal
 * names in different directories land in different buckets. *end points at
 * the terminator. Gives the same hash as full_name_hash() of the component.
 */
static __always_inline uint64_t hash_name(const void *salt, const char *name, const char **end)
{
	uint64_t a, b, x = 0, y = (uintptr_t)salt, mask;
	unsigned int len = 0;

	for (;;) {
		a = load_word(name + len);
		b = a ^ REPEAT_BYTE('/');
		mask = has_zero(a) | has_zero(b);
		if (mask)
			break;
		HASH_MIX(x, y, a);
		len += sizeof(a);
	}
	len += find_zero(mask);
	x ^= a & zero_bytemask(mask);
	*end = name + len;
	return hashlen_create(fold_hash(x, y), len);
}

/* ---- leaving RCU mode ---- */

static void leave_rcu(struct nameidata *nd)
{
	nd->flags &= ~LOOKUP_RCU;
	nd->seq = nd->next_seq = 0;
	rcu_read_unlock();
}

/*
 * Models __legitimize_path(): the mount against m_seq, then one
 * lockref_get_not_dead on the dentry, then its d_seq, in that order.
 */
static bool legitimize_path(struct nameidata *nd, struct path *path, unsigned int seq)
{
	int res = __legitimize_mnt(nd->v, path->mnt, nd->m_seq);

	if (unlikely(res)) {
		if (res > 0)
			path->mnt = NULL;
		path->dentry = NULL;
		return false;
	}
	if (unlikely(!d_get_not_dead(nd->v, path->dentry))) {
		path->dentry = NULL;
		return false;
	}
	return !read_seqcount_retry(dentry_seq(nd->v, path->dentry), seq);
}

static void drop_links(struct nameidata *nd)
{
	nd->depth = 0;
}

static __always_inline bool legitimize_links(struct nameidata *nd)
{
	/* RESOLVE_CACHED: a walk that has to leave RCU mode fails (EAGAIN). */
	if (unlikely(nd->flags & LOOKUP_CACHED)) {
		drop_links(nd);
		return false;
	}
	for (unsigned int i = 0; i < nd->depth; i++) {
		struct saved *last = nd->stack + i;

		if (unlikely(!legitimize_path(nd, &last->link, last->seq))) {
			nd->depth = i + 1;
			return false;
		}
	}
	return true;
}

static bool legitimize_root(struct nameidata *nd)
{
	if (!nd->root.dentry || (nd->state & ND_ROOT_PRESET))
		return true;
	nd->state |= ND_ROOT_GRABBED;
	return legitimize_path(nd, &nd->root, nd->root_seq);
}

/* Models try_to_unlazy(): switch to ref-walk keeping the walk's position. */
static bool try_to_unlazy(struct nameidata *nd)
{
	struct dentry *parent = nd->path.dentry;

	BUG_ON(!(nd->flags & LOOKUP_RCU));
	if (unlikely(!legitimize_links(nd))) {
		nd->path.mnt = NULL;
		nd->path.dentry = NULL;
		goto out;
	}
	if (unlikely(!legitimize_path(nd, &nd->path, nd->seq)))
		goto out;
	if (unlikely(!legitimize_root(nd)))
		goto out;
	leave_rcu(nd);
	vfs_count(VFS_EV_UNLAZY_OK);
	trace(nd, WALK_EV_UNLAZY, parent, NULL, 0, 1, nd->m_seq, 0);
	return true;
out:
	leave_rcu(nd);
	vfs_count(VFS_EV_UNLAZY_FAIL);
	trace(nd, WALK_EV_UNLAZY, parent, NULL, 0, 0, 0, -ECHILD);
	return false;
}

/*
 * Models try_to_unlazy_next(): leave RCU mode at the parent and take the
 * child too. The child's d_seq, sampled before the parent's was checked,
 * vouches for both references.
 */
static bool try_to_unlazy_next(struct nameidata *nd, struct dentry *dentry)
{
	struct vfs *v = nd->v;
	int res;

	BUG_ON(!(nd->flags & LOOKUP_RCU));
	if (unlikely(!legitimize_links(nd)))
		goto out2;
	res = __legitimize_mnt(v, nd->path.mnt, nd->m_seq);
	if (unlikely(res)) {
		if (res > 0)
			goto out2;
		goto out1;
	}
	if (unlikely(!d_get_not_dead(v, nd->path.dentry)))
		goto out1;
	if (unlikely(!d_get_not_dead(v, dentry)))
		goto out;
	if (read_seqcount_retry(dentry_seq(v, dentry), nd->next_seq))
		goto out_dput;
	if (unlikely(!legitimize_root(nd)))
		goto out_dput;
	leave_rcu(nd);
	vfs_count(VFS_EV_UNLAZY_OK);
	trace(nd, WALK_EV_UNLAZY, dentry, NULL, 0, 1, nd->m_seq, 0);
	return true;
out2:
	nd->path.mnt = NULL;
out1:
	nd->path.dentry = NULL;
out:
	leave_rcu(nd);
	vfs_count(VFS_EV_UNLAZY_FAIL);
	trace(nd, WALK_EV_UNLAZY, dentry, NULL, 0, 0, 0, -ECHILD);
	return false;
out_dput:
	leave_rcu(nd);
	dput(v, dentry);
	vfs_count(VFS_EV_UNLAZY_FAIL);
	trace(nd, WALK_EV_UNLAZY, dentry, NULL, 0, 0, 0, -ECHILD);
	return false;
}

static void terminate_walk(struct nameidata *nd)
{
	if (!(nd->flags & LOOKUP_RCU)) {
		path_put(nd->v, &nd->path);
		for (unsigned int i = 0; i < nd->depth; i++)
			path_put(nd->v, &nd->stack[i].link);
		if (nd->state & ND_ROOT_GRABBED) {
			path_put(nd->v, &nd->root);
			nd->state &= ~ND_ROOT_GRABBED;
		}
	} else {
		leave_rcu(nd);
	}
	nd->depth = 0;
	nd->path.mnt = NULL;
	nd->path.dentry = NULL;
}

/* The last word on a scoped walk: the result must lie under its root. */
static noinline int complete_walk_scoped(struct nameidata *nd)
{
	return path_is_under(nd->v, &nd->path, &nd->root) ? 0 : -EXDEV;
}

/* Models complete_walk(): a successful RCU walk takes its one reference here. */
static __always_inline int complete_walk(struct nameidata *nd)
{
	if (nd->flags & LOOKUP_RCU) {
		/* Not a scoped lookup: the root needs no reference. */
		if (!(nd->state & ND_ROOT_PRESET) && !(nd->flags & LOOKUP_IS_SCOPED)) {
			nd->root.mnt = NULL;
			nd->root.dentry = NULL;
		}
		nd->flags &= ~LOOKUP_CACHED;
		if (!try_to_unlazy(nd))
			return -ECHILD;
	}
	if (unlikely(nd->flags & LOOKUP_IS_SCOPED))
		return complete_walk_scoped(nd);
	return 0;
}

/* ---- starting points ---- */

static void set_root(struct nameidata *nd)
{
	struct fs_struct *fs = nd->task->fs;
	unsigned int seq;

	if (nd->flags & LOOKUP_RCU) {
		do {
			seq = read_seqcount_begin(&fs->seq);
			nd->root = fs->root;
			nd->root_seq = __read_seqcount_begin(dentry_seq(nd->v, nd->root.dentry));
		} while (read_seqcount_retry(&fs->seq, seq));
	} else {
		spin_lock(&fs->lock);
		nd->root = fs->root;
		path_get(nd->v, &nd->root);
		spin_unlock(&fs->lock);
		nd->state |= ND_ROOT_GRABBED;
	}
}

/* Models nd_jump_root(): an absolute path or symlink body goes to the root. */
static int nd_jump_root(struct nameidata *nd)
{
	if (unlikely(nd->flags & LOOKUP_BENEATH))
		return -EXDEV;
	/* A jump to another mount is a crossing; the path's own start is not. */
	if (unlikely(nd->flags & LOOKUP_NO_XDEV) && nd->path.mnt && nd->path.mnt != nd->root.mnt)
		return -EXDEV;
	if (!nd->root.dentry)
		set_root(nd);
	if (nd->flags & LOOKUP_RCU) {
		struct dentry *d = nd->root.dentry;

		nd->inode = d_inode_rcu(nd->v, d);
		nd->path = nd->root;
		nd->seq = nd->root_seq;
		if (unlikely(read_seqcount_retry(dentry_seq(nd->v, d), nd->seq)))
			return -ECHILD;
	} else {
		path_put(nd->v, &nd->path);
		nd->path = nd->root;
		path_get(nd->v, &nd->path);
		nd->inode = d_inode(nd->v, nd->path.dentry);
	}
	nd->state |= ND_JUMPED;
	return 0;
}

/* Models path_init(). */
static const char *path_init(struct nameidata *nd, const char *s, unsigned int flags)
{
	struct vfs *v = nd->v;
	int error;

	/* RESOLVE_CACHED's second pass: the RCU walk did not make it. */
	if ((flags & (LOOKUP_RCU | LOOKUP_CACHED)) == LOOKUP_CACHED) {
		trace(nd, WALK_EV_START, NULL, s, strlen(s), 0, 0, -EAGAIN);
		return ERR_PTR(-EAGAIN);
	}
	if (!*s)
		flags &= ~LOOKUP_RCU;
	if (flags & LOOKUP_RCU) {
		rcu_read_lock();
		vfs_count(VFS_EV_RCU_WALK);
	} else {
		nd->seq = nd->next_seq = 0;
	}
	nd->flags = flags;
	nd->state |= ND_JUMPED;
	nd->m_seq = __read_seqcount_begin(&v->mount_lock.seqcount);
	nd->r_seq = raw_read_seqcount(&v->rename_lock.seqcount);
	smp_rmb();
	nd->root.mnt = NULL;
	nd->root.dentry = NULL;
	trace(nd, WALK_EV_START, NULL, s, strlen(s), !!(flags & LOOKUP_RCU), nd->m_seq, 0);

	/* RESOLVE_IN_ROOT: an absolute path starts at dfd, as if chrooted there. */
	if (*s == '/' && !(flags & LOOKUP_IN_ROOT)) {
		error = nd_jump_root(nd);
		if (unlikely(error))
			return ERR_PTR(error);
		return s;
	}
	if (nd->dfd == AT_FDCWD) {
		struct fs_struct *fs = nd->task->fs;
		unsigned int seq;

		if (flags & LOOKUP_RCU) {
			do {
				seq = read_seqcount_begin(&fs->seq);
				nd->path = fs->pwd;
				nd->inode = d_inode_rcu(v, nd->path.dentry);
				nd->seq = __read_seqcount_begin(dentry_seq(v, nd->path.dentry));
			} while (read_seqcount_retry(&fs->seq, seq));
		} else {
			spin_lock(&fs->lock);
			nd->path = fs->pwd;
			path_get(v, &nd->path);
			spin_unlock(&fs->lock);
			nd->inode = d_inode(v, nd->path.dentry);
		}
	} else {
		struct fd f = fdget_raw(nd->task, nd->dfd);
		struct dentry *d;

		if (nd->dfd < 0 || !fd_file(f))
			return ERR_PTR(-EBADF);
		d = file_path(v, fd_file(f))->dentry;
		if (*s && unlikely(!d_can_lookup(v, d))) {
			fdput(nd->task, f);
			return ERR_PTR(-ENOTDIR);
		}
		nd->path = *file_path(v, fd_file(f));
		if (flags & LOOKUP_RCU) {
			nd->inode = d_inode_rcu(v, d);
			nd->seq = __read_seqcount_begin(dentry_seq(v, d));
		} else {
			path_get(v, &nd->path);
			nd->inode = d_inode(v, d);
		}
		fdput(nd->task, f);
	}
	/* A scoped walk's root is where it starts. */
	if (flags & LOOKUP_IS_SCOPED) {
		nd->root = nd->path;
		if (flags & LOOKUP_RCU) {
			nd->root_seq = nd->seq;
		} else {
			path_get(v, &nd->root);
			nd->state |= ND_ROOT_GRABBED;
		}
	}
	return s;
}

/* ---- one step ---- */

/*
 * Models may_lookup(): search permission on the directory being walked.
 * A directory everyone may search (all three x bits) needs no credential
 * check, the idea behind the kernel's IOP_FASTPERM_MAY_EXEC.
 */
static int may_lookup(struct nameidata *nd)
{
	int err;

	if (likely((READ_ONCE(nd->inode->i_mode) & S_IXUGO) == S_IXUGO) && likely(!nd->trace))
		return 0;
	err = inode_permission(&nd->task->cred, nd->inode, MAY_EXEC);

	trace(nd, WALK_EV_PERMISSION, nd->path.dentry, NULL, 0, READ_ONCE(nd->inode->i_mode), 0,
	      err);
	/* A refusal in RCU mode is made sure of in ref-walk (RESOLVE_CACHED: EAGAIN). */
	if (unlikely(err) && (nd->flags & LOOKUP_RCU) && !try_to_unlazy(nd))
		return -ECHILD;
	return err;
}

/* Models lookup_fast(): the dcache, in RCU or ref mode. */
static __always_inline struct dentry *lookup_fast(struct nameidata *nd)
{
	struct dentry *parent = nd->path.dentry, *d;

	if (nd->flags & LOOKUP_RCU) {
		d = __d_lookup_rcu(nd->v, parent, &nd->last, &nd->next_seq);
		if (unlikely(!d)) {
			trace(nd, WALK_EV_MISS, parent, (const char *)nd->last.name, nd->last.len,
			      nd->last.hash, 0, 0);
			if (!try_to_unlazy(nd))
				return ERR_PTR(-ECHILD);
			return NULL;
		}
		trace(nd, WALK_EV_HIT, d, (const char *)nd->last.name, nd->last.len, nd->last.hash,
		      nd->next_seq, 0);
		/* The parent's seq, checked after the child is found, chains the walk. */
		if (unlikely(read_seqcount_retry(dentry_seq(nd->v, parent), nd->seq))) {
			trace(nd, WALK_EV_SEQ_RETRY, parent, NULL, 0, nd->seq, 0, -ECHILD);
			return ERR_PTR(-ECHILD);
		}
		return d;
	}
	d = d_lookup(nd->v, parent, &nd->last);
	if (d)
		trace(nd, WALK_EV_HIT, d, (const char *)nd->last.name, nd->last.len, nd->last.hash,
		      0, 0);
	else
		trace(nd, WALK_EV_MISS, parent, (const char *)nd->last.name, nd->last.len,
		      nd->last.hash, 0, 0);
	return d;
}

/*
 * Models simple_lookup(), tmpfs' ->lookup: a name the dcache lacks does not
 * exist, so the answer is a negative dentry, hashed.
 */
static struct dentry *simple_lookup(struct vfs *v, struct dentry *d)
{
	vfs_count(VFS_EV_DCACHE_MISS);
	if (d_name_len(v, d) > NAME_MAX_LEN)
		return ERR_PTR(-ENAMETOOLONG);
	d_add(v, d, NULL);
	return NULL;
}

/*
 * Models __lookup_slow(): d_alloc_parallel() gives one lookup per name the
 * dentry to look up, and every other lookup of that name the same dentry
 * once the first is done.
 */
static struct dentry *__lookup_slow(struct vfs *v, const struct qstr *name, struct dentry *dir)
{
	struct inode *inode = d_inode(v, dir);
	struct lookup_wq wq;
	struct dentry *d, *old;

	if (unlikely(READ_ONCE(inode->i_flags) & S_DEAD))
		return ERR_PTR(-ENOENT);
	d = d_alloc_parallel(v, dir, name, &wq);
	if (IS_ERR(d) || !d_in_lookup(v, d))
		return d;
	old = simple_lookup(v, d);
	d_lookup_done(v, d);
	if (unlikely(old)) {
		dput(v, d);
		d = old;
	}
	return d;
}

/* Models lookup_slow(): a dcache miss, under the directory's shared lock. */
static struct dentry *lookup_slow(struct vfs *v, const struct qstr *name, struct dentry *dir)
{
	struct inode *inode = d_inode(v, dir);
	struct dentry *d;

	inode_lock_shared(inode);
	d = __lookup_slow(v, name, dir);
	inode_unlock_shared(inode);
	return d;
}

/* Models lookup_one_unlocked(): one name under base, cached or looked up. */
struct dentry *lookup_one_unlocked(struct vfs *v, const struct qstr *name, struct dentry *base)
{
	struct dentry *d = d_lookup(v, base, name);

	return d ? d : lookup_slow(v, name, base);
}

static void put_link(struct nameidata *nd)
{
	struct saved *last = nd->stack + --nd->depth;

	if (!(nd->flags & LOOKUP_RCU))
		path_put(nd->v, &last->link);
}

/*
 * Models may_follow_link(): with fs.protected_symlinks, in a sticky
 * world-writable directory, only follow links owned by the follower or by
 * the directory's owner.
 */
static int may_follow_link(struct nameidata *nd, const struct inode *inode)
{
	uid_t fsuid = nd->task->cred.fsuid;

	if (!nd->v->cfg.protected_symlinks)
		return 0;
	if ((nd->dir_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return 0;
	if (fsuid == READ_ONCE(inode->i_uid) || nd->dir_uid == READ_ONCE(inode->i_uid))
		return 0;
	if (nd->flags & LOOKUP_RCU)
		return -ECHILD;
	return -EACCES;
}

/*
 * Models may_create_in_sticky(): O_CREAT found an existing inode in a
 * sticky directory (nd->dir_*). If neither the directory's owner nor the
 * opener owns it, it is refused in an o+w directory, and at value 2 in a
 * g+w one too: regular files and fifos as fs.protected_regular and
 * protected_fifos say, every other type (a device, a socket, a symlink
 * under O_NOFOLLOW) in an o+w one whatever they say, as in Linux.
 */
static int may_create_in_sticky(struct nameidata *nd, const struct inode *inode)
{
	const struct vfs_config *cfg = &nd->v->cfg;
	umode_t mode = READ_ONCE(inode->i_mode);
	uid_t uid = READ_ONCE(inode->i_uid);

	if (likely(!(nd->dir_mode & S_ISVTX)))
		return 0;
	if ((S_ISREG(mode) && !cfg->protected_regular) || (S_ISFIFO(mode) && !cfg->protected_fifos))
		return 0;
	if (uid == nd->dir_uid || uid == nd->task->cred.fsuid)
		return 0;
	if (nd->dir_mode & S_IWOTH)
		return -EACCES;
	if ((nd->dir_mode & S_IWGRP) && ((S_ISFIFO(mode) && cfg->protected_fifos >= 2) ||
					 (S_ISREG(mode) && cfg->protected_regular >= 2)))
		return -EACCES;
	return 0;
}

/* Models pick_link(): push the link and return its body to walk. */
static const char *pick_link(struct nameidata *nd, struct path *link, struct inode *inode,
			     unsigned int flags)
{
	struct saved *last;
	const char *res;
	int error;

	/* The link's path holds its own mount reference in ref-walk. */
	if (!(nd->flags & LOOKUP_RCU) && link->mnt == nd->path.mnt)
		mntget(nd->v, link->mnt);
	if (unlikely(nd->total_link_count++ >= MAXSYMLINKS)) {
		if (!(nd->flags & LOOKUP_RCU))
			path_put(nd->v, link);
		return ERR_PTR(-ELOOP);
	}
	last = nd->stack + nd->depth++;
	last->link = *link;
	last->seq = nd->next_seq;
	if (flags & WALK_TRAILING) {
		error = may_follow_link(nd, inode);
		if (unlikely(error))
			return ERR_PTR(error);
	}
	/* RESOLVE_NO_SYMLINKS, or a nosymfollow mount. */
	if (unlikely(nd->flags & LOOKUP_NO_SYMLINKS) ||
	    unlikely(READ_ONCE(link->mnt->mnt_flags) & MNT_NOSYMFOLLOW))
		return ERR_PTR(-ELOOP);
	/* Following a link reads it: its atime, in ref-walk (RCU walk cannot write). */
	if (!(nd->flags & LOOKUP_RCU)) {
		touch_atime(&last->link);
	} else if (atime_needs_update(&last->link, inode)) {
		if (!try_to_unlazy(nd))
			return ERR_PTR(-ECHILD);
		touch_atime(&last->link);
	}
	res = READ_ONCE(inode->i_link);
	trace(nd, WALK_EV_SYMLINK, link->dentry, res, strlen(res), nd->total_link_count, 0, 0);
	if (*res == '/') {
		error = nd_jump_root(nd);
		if (unlikely(error))
			return ERR_PTR(error);
		while (unlikely(*++res == '/'))
			;
	}
	if (*res)
		return res;
	put_link(nd); /* a pure jump: nothing left to walk in the body */
	return NULL;
}

/*
 * Models __follow_mount_rcu(): cross every mount stacked on path without
 * a reference. A dentry no mount sits on costs the one d_flags test
 * (DCACHE_MOUNTED). False: leave RCU mode and try again with references.
 */
static bool __follow_mount_rcu(struct nameidata *nd, struct path *path, unsigned int flags)
{
	struct vfs *v = nd->v;
	struct dentry *dentry = path->dentry;

	if (unlikely(nd->flags & LOOKUP_NO_XDEV))
		return false;
	for (;;) {
		struct mount *mounted;

		if (!(flags & DCACHE_MOUNTED))
			return true;
		mounted = __lookup_mnt(v, path->mnt, dentry);
		if (!mounted)
			return !mount_seq_retry(v, nd->m_seq);
		trace(nd, WALK_EV_MOUNT, dentry, NULL, 0, mounted->mnt_id, nd->m_seq, 0);
		path->mnt = &mounted->mnt;
		dentry = path->dentry = mounted->mnt.mnt_root;
		nd->state |= ND_JUMPED;
		nd->next_seq = read_seqcount_begin(dentry_seq(v, dentry));
		flags = d_flags(v, dentry);
		/* The state must be one a ref-walk could have reached. */
		if (mount_seq_retry(v, nd->m_seq))
			return false;
	}
}

/*
 * Models traverse_mounts(): the ref-walk crossing, a reference on each
 * mount taken by lookup_mnt(). Without a mount it is the acquire load of
 * d_flags: a negative dentry is ENOENT, and a positive type, acquired,
 * comes with the inode d_instantiate() stored before releasing it. A
 * walker may hold a negative dentry that a create instantiates meanwhile;
 * reading d_inode first could pair the old NULL with the new type.
 */
static int traverse_mounts(struct nameidata *nd, struct path *path, bool *jumped)
{
	struct vfs *v = nd->v;
	unsigned int flags = smp_load_acquire(dentry_flags(v, path->dentry));
	bool need_mntput = false;

	fault_point("handle_mounts:type-read");
	while (unlikely(flags & DCACHE_MOUNTED)) {
		struct vfsmount *mounted = lookup_mnt(v, path);

		if (!mounted)
			break;
		trace(nd, WALK_EV_MOUNT, path->dentry, NULL, 0, real_mount(mounted)->mnt_id, 0, 0);
		dput(v, path->dentry);
		if (need_mntput)
			mntput(v, path->mnt);
		path->mnt = mounted;
		path->dentry = dget(v, mounted->mnt_root);
		need_mntput = true;
		flags = smp_load_acquire(dentry_flags(v, path->dentry));
	}
	*jumped = need_mntput;
	if (unlikely(d_flags_negative(flags)))
		return -ENOENT;
	return 0;
}

/* Models handle_mounts(): path becomes what the walk stands on after dentry. */
static __always_inline int handle_mounts(struct nameidata *nd, struct dentry *dentry,
					 struct path *path, unsigned int flags)
{
	bool jumped;
	int ret;

	path->mnt = nd->path.mnt;
	path->dentry = dentry;
	if (nd->flags & LOOKUP_RCU) {
		unsigned int seq = nd->next_seq;

		/* The one test a component pays when nothing is mounted on it. */
		if (likely(!(flags & DCACHE_MOUNTED)) ||
		    likely(__follow_mount_rcu(nd, path, flags)))
			return 0;
		/* path and next_seq may have moved on: start the crossing again. */
		path->mnt = nd->path.mnt;
		path->dentry = dentry;
		nd->next_seq = seq;
		if (!try_to_unlazy_next(nd, dentry))
			return -ECHILD;
	}
	ret = traverse_mounts(nd, path, &jumped);
	if (jumped) {
		if (unlikely(nd->flags & LOOKUP_NO_XDEV))
			ret = -EXDEV;
		else
			nd->state |= ND_JUMPED;
	}
	if (unlikely(ret)) {
		dput(nd->v, path->dentry);
		if (path->mnt != nd->path.mnt)
			mntput(nd->v, path->mnt);
	}
	return ret;
}

/* Models step_into(): move to dentry, or hand back a symlink body. */
static __always_inline const char *step_into(struct nameidata *nd, unsigned int flags,
					     struct dentry *dentry)
{
	struct vfs *v = nd->v;
	struct inode *inode;
	struct path path;
	int err = handle_mounts(nd, dentry, &path, d_flags(v, dentry));

	if (unlikely(err))
		return ERR_PTR(err);
	inode = d_inode_rcu(v, path.dentry);
	if (likely(!d_is_symlink(v, path.dentry)) ||
	    ((flags & WALK_TRAILING) && !(nd->flags & LOOKUP_FOLLOW)) || (flags & WALK_NOFOLLOW)) {
		if (nd->flags & LOOKUP_RCU) {
			if (read_seqcount_retry(dentry_seq(v, path.dentry), nd->next_seq)) {
				trace(nd, WALK_EV_SEQ_RETRY, path.dentry, NULL, 0, nd->next_seq, 0,
				      -ECHILD);
				return ERR_PTR(-ECHILD);
			}
			if (unlikely(!inode))
				return ERR_PTR(-ENOENT);
		} else {
			dput(v, nd->path.dentry);
			if (nd->path.mnt != path.mnt)
				mntput(v, nd->path.mnt);
		}
		nd->path = path;
		nd->inode = inode;
		nd->seq = nd->next_seq;
		return NULL;
	}
	/* The symlink type and the inode agree: d_seq, or handle_mounts() in ref-walk. */
	if (nd->flags & LOOKUP_RCU) {
		if (read_seqcount_retry(dentry_seq(v, path.dentry), nd->next_seq))
			return ERR_PTR(-ECHILD);
	}
	return pick_link(nd, &path, inode, flags);
}

/* Models follow_dotdot_rcu(): "..", climbing out of a mount at its root. */
static struct dentry *follow_dotdot_rcu(struct nameidata *nd)
{
	struct vfs *v = nd->v;
	struct dentry *parent, *old;

	if (path_equal(&nd->path, &nd->root))
		goto in_root;
	if (unlikely(nd->path.dentry == nd->path.mnt->mnt_root)) {
		struct path path;
		unsigned int seq;

		if (!choose_mountpoint_rcu(v, real_mount(nd->path.mnt), &nd->root, &path, &seq))
			goto in_root;
		if (unlikely(nd->flags & LOOKUP_NO_XDEV))
			return ERR_PTR(-ECHILD);
		trace(nd, WALK_EV_MOUNT, path.dentry, "..", 2, real_mount(path.mnt)->mnt_id,
		      real_mount(nd->path.mnt)->mnt_id, 0);
		nd->path = path;
		nd->inode = d_inode_rcu(v, path.dentry);
		nd->seq = seq;
		if (mount_seq_retry(v, nd->m_seq))
			return ERR_PTR(-ECHILD);
	}
	old = nd->path.dentry;
	parent = d_parent(v, old);
	nd->next_seq = read_seqcount_begin(dentry_seq(v, parent));
	if (unlikely(read_seqcount_retry(dentry_seq(v, old), nd->seq)))
		return ERR_PTR(-ECHILD);
	return parent;
in_root:
	if (mount_seq_retry(v, nd->m_seq))
		return ERR_PTR(-ECHILD);
	if (unlikely(nd->flags & LOOKUP_BENEATH))
		return ERR_PTR(-ECHILD);
	nd->next_seq = nd->seq;
	return nd->path.dentry;
}

/* Models follow_dotdot(): the same with references. */
static struct dentry *follow_dotdot(struct nameidata *nd)
{
	struct vfs *v = nd->v;

	if (path_equal(&nd->path, &nd->root))
		goto in_root;
	if (unlikely(nd->path.dentry == nd->path.mnt->mnt_root)) {
		struct path path;

		if (!choose_mountpoint(v, real_mount(nd->path.mnt), &nd->root, &path))
			goto in_root;
		trace(nd, WALK_EV_MOUNT, path.dentry, "..", 2, real_mount(path.mnt)->mnt_id,
		      real_mount(nd->path.mnt)->mnt_id, 0);
		path_put(v, &nd->path);
		nd->path = path;
		nd->inode = d_inode(v, path.dentry);
		if (unlikely(nd->flags & LOOKUP_NO_XDEV))
			return ERR_PTR(-EXDEV);
	}
	return dget_parent(v, nd->path.dentry);
in_root:
	if (unlikely(nd->flags & LOOKUP_BENEATH))
		return ERR_PTR(-EXDEV);
	return dget(v, nd->path.dentry);
}

/* Models handle_dots(). */
static const char *handle_dots(struct nameidata *nd, int type)
{
	if (type == LAST_DOTDOT) {
		struct dentry *parent;
		const char *err;

		if (!nd->root.dentry)
			set_root(nd);
		if (nd->flags & LOOKUP_RCU)
			parent = follow_dotdot_rcu(nd);
		else
			parent = follow_dotdot(nd);
		if (IS_ERR(parent))
			return ERR_CAST(parent);
		trace(nd, WALK_EV_DOTDOT, parent, "..", 2, 0, 0, 0);
		err = step_into(nd, WALK_NOFOLLOW, parent);
		if (unlikely(err))
			return err;
		/* A rename or mount meanwhile may have taken ".." above the root. */
		if (unlikely(nd->flags & LOOKUP_IS_SCOPED)) {
			smp_rmb();
			if (__read_seqcount_retry(&nd->v->mount_lock.seqcount, nd->m_seq) ||
			    __read_seqcount_retry(&nd->v->rename_lock.seqcount, nd->r_seq))
				return ERR_PTR(-EAGAIN);
		}
	}
	return NULL;
}

/* Models walk_component(). */
static __always_inline const char *walk_component(struct nameidata *nd, unsigned int flags)
{
	struct dentry *dentry;

	if (nd->last_type != LAST_NORM) {
		if (!(flags & WALK_MORE) && nd->depth)
			put_link(nd);
		return handle_dots(nd, nd->last_type);
	}
	trace(nd, WALK_EV_COMPONENT, nd->path.dentry, (const char *)nd->last.name, nd->last.len,
	      nd->last.hash, 0, 0);
	dentry = lookup_fast(nd);
	if (IS_ERR(dentry))
		return ERR_CAST(dentry);
	if (unlikely(!dentry)) {
		dentry = lookup_slow(nd->v, &nd->last, nd->path.dentry);
		if (IS_ERR(dentry))
			return ERR_CAST(dentry);
	}
	if (!(flags & WALK_MORE) && nd->depth)
		put_link(nd);
	return step_into(nd, flags, dentry);
}

/* Models link_path_walk(): every component but the last. */
static int link_path_walk(const char *name, struct nameidata *nd)
{
	unsigned int depth = 0;
	int err;

	nd->last_type = LAST_ROOT;
	nd->flags |= LOOKUP_PARENT;
	while (*name == '/')
		name++;
	if (!*name) {
		nd->dir_mode = 0;
		return 0;
	}
	for (;;) {
		const char *link, *end;
		uint64_t hash_len;
		int type;

		err = may_lookup(nd);
		if (unlikely(err))
			return err;
		hash_len = hash_name(name_hash_salt(nd->v, nd->path.dentry, nd->inode), name, &end);
		type = LAST_NORM;
		if (name[0] == '.') {
			if (hashlen_len(hash_len) == 2 && name[1] == '.') {
				type = LAST_DOTDOT;
				nd->state |= ND_JUMPED;
			} else if (hashlen_len(hash_len) == 1) {
				type = LAST_DOT;
			}
		}
		if (type == LAST_NORM)
			nd->state &= ~ND_JUMPED;
		nd->last.hash_len = hash_len;
		nd->last.name = (const unsigned char *)name;
		nd->last_type = type;
		name = end;
		if (!*name)
			goto OK;
		do {
			name++;
		} while (unlikely(*name == '/'));
		if (unlikely(!*name)) {
OK:
			/* The last component: stop at the parent unless inside a link. */
			if (!depth) {
				nd->dir_uid = READ_ONCE(nd->inode->i_uid);
				nd->dir_mode = READ_ONCE(nd->inode->i_mode);
				nd->flags &= ~LOOKUP_PARENT;
				return 0;
			}
			name = nd->stack[--depth].name;
			link = walk_component(nd, 0);
		} else {
			link = walk_component(nd, WALK_MORE);
		}
		if (unlikely(link)) {
			if (IS_ERR(link))
				return PTR_ERR(link);
			nd->stack[depth++].name = name;
			name = link;
			continue;
		}
		if (unlikely(!d_can_lookup(nd->v, nd->path.dentry))) {
			if (nd->flags & LOOKUP_RCU) {
				if (!try_to_unlazy(nd))
					return -ECHILD;
			}
			return -ENOTDIR;
		}
	}
}

/* Models lookup_last(): a trailing slash makes the last component a directory. */
static const char *lookup_last(struct nameidata *nd)
{
	if (nd->last_type == LAST_NORM && nd->last.name[nd->last.len])
		nd->flags |= LOOKUP_FOLLOW | LOOKUP_DIRECTORY;
	return walk_component(nd, WALK_TRAILING);
}

/* Models path_lookupat(). */
static int path_lookupat(struct nameidata *nd, const char *name, unsigned int flags,
			 struct path *path)
{
	const char *s = path_init(nd, name, flags);
	int err;

	if (IS_ERR(s)) {
		terminate_walk(nd);
		return PTR_ERR(s);
	}
	while (!(err = link_path_walk(s, nd)) && (s = lookup_last(nd)) != NULL) {
		if (IS_ERR(s)) {
			err = PTR_ERR(s);
			break;
		}
	}
	if (!err)
		err = complete_walk(nd);
	if (!err && (nd->flags & LOOKUP_DIRECTORY))
		if (!d_can_lookup(nd->v, nd->path.dentry))
			err = -ENOTDIR;
	if (!err) {
		*path = nd->path;
		nd->path.mnt = NULL;
		nd->path.dentry = NULL;
	}
	terminate_walk(nd);
	return err;
}

/* Models getname(): PATH_MAX and the empty path. */
static int check_name(const char *name, unsigned int flags)
{
	size_t len;

	if (!name)
		return -EFAULT;
	len = strnlen(name, PATH_MAX_LEN);
	if (len >= PATH_MAX_LEN)
		return -ENAMETOOLONG;
	if (!len && !(flags & LOOKUP_EMPTY))
		return -ENOENT;
	return 0;
}

/* Models filename_lookup(): RCU walk, then ref walk on -ECHILD. */
static int filename_lookup(struct task *t, int dfd, const char *name, unsigned int flags,
			   struct path *path, const struct walk_trace *tr)
{
	struct nameidata nd;
	int retval = check_name(name, flags);

	if (retval)
		return retval;
	set_nameidata(&nd, t, dfd, tr);
	retval = path_lookupat(&nd, name, flags | LOOKUP_RCU, path);
	if (unlikely(retval == -ECHILD)) {
		vfs_count(VFS_EV_REF_WALK);
		set_nameidata(&nd, t, dfd, tr);
		retval = path_lookupat(&nd, name, flags, path);
	}
	trace(&nd, WALK_EV_DONE, retval ? NULL : path->dentry, NULL, 0, 0, 0, retval);
	return retval;
}

int user_path_at(struct task *t, int dfd, const char *name, unsigned int flags, struct path *path,
		 const struct walk_trace *tr)
{
	return filename_lookup(t, dfd, name, flags, path, tr);
}

/* Models build_open_flags()' translation of openat2's RESOLVE_* flags. */
static __always_inline unsigned int resolve_lookup_flags(uint64_t resolve)
{
	unsigned int flags = 0;

	if (likely(!resolve))
		return 0;
	if (resolve & RESOLVE_NO_XDEV)
		flags |= LOOKUP_NO_XDEV;
	if (resolve & RESOLVE_NO_MAGICLINKS)
		flags |= LOOKUP_NO_MAGICLINKS;
	if (resolve & RESOLVE_NO_SYMLINKS)
		flags |= LOOKUP_NO_SYMLINKS;
	if (resolve & RESOLVE_BENEATH)
		flags |= LOOKUP_BENEATH;
	if (resolve & RESOLVE_IN_ROOT)
		flags |= LOOKUP_IN_ROOT;
	if (resolve & RESOLVE_CACHED)
		flags |= LOOKUP_CACHED;
	return flags;
}

int vfs_walk(struct task *t, int dfd, const char *name, bool follow, unsigned int resolve,
	     const struct walk_trace *tr)
{
	struct path path;
	int err = filename_lookup(t, dfd, name,
				  (follow ? LOOKUP_FOLLOW : 0) | resolve_lookup_flags(resolve),
				  &path, tr);

	if (!err)
		path_put(t->vfs, &path);
	return err;
}

/* Models path_parentat(). */
static int path_parentat(struct nameidata *nd, const char *name, unsigned int flags,
			 struct path *parent)
{
	const char *s = path_init(nd, name, flags);
	int err;

	if (IS_ERR(s)) {
		terminate_walk(nd);
		return PTR_ERR(s);
	}
	err = link_path_walk(s, nd);
	if (!err)
		err = complete_walk(nd);
	if (!err) {
		*parent = nd->path;
		nd->path.mnt = NULL;
		nd->path.dentry = NULL;
	}
	terminate_walk(nd);
	return err;
}

/* Models filename_parentat(): the parent, the last component and its type. */
static int filename_parentat(struct task *t, int dfd, const char *name, unsigned int flags,
			     struct path *parent, struct qstr *last, int *type)
{
	struct nameidata nd;
	int retval = check_name(name, flags);

	if (retval)
		return retval;
	set_nameidata(&nd, t, dfd, NULL);
	retval = path_parentat(&nd, name, flags | LOOKUP_RCU, parent);
	if (unlikely(retval == -ECHILD)) {
		vfs_count(VFS_EV_REF_WALK);
		set_nameidata(&nd, t, dfd, NULL);
		retval = path_parentat(&nd, name, flags, parent);
	}
	if (!retval) {
		*last = nd.last;
		*type = nd.last_type;
	}
	return retval;
}

/*
 * Models lookup_one_qstr_excl(): the final component under the parent's
 * inode_lock. Without LOOKUP_CREATE a negative result is -ENOENT; with
 * LOOKUP_EXCL a positive one is -EEXIST.
 */
static struct dentry *lookup_one_qstr_excl(struct vfs *v, const struct qstr *name,
					   struct dentry *base, unsigned int flags)
{
	struct inode *dir = d_inode(v, base);
	struct dentry *d = d_lookup(v, base, name);

	if (!d) {
		if (unlikely(READ_ONCE(dir->i_flags) & S_DEAD))
			return ERR_PTR(-ENOENT);
		if (name->len > NAME_MAX_LEN)
			return ERR_PTR(-ENAMETOOLONG);
		d = d_alloc(v, base, name);
		if (!d)
			return ERR_PTR(-ENOMEM);
		d_add(v, d, NULL);
	}
	if (d_is_negative(v, d) && !(flags & LOOKUP_CREATE)) {
		dput(v, d);
		return ERR_PTR(-ENOENT);
	}
	if (d_is_positive(v, d) && (flags & LOOKUP_EXCL)) {
		dput(v, d);
		return ERR_PTR(-EEXIST);
	}
	return d;
}

/* ---- permission helpers for namespace changes ---- */

/* Models check_sticky(): in a sticky dir only owners (or root) delete. */
static bool check_sticky(const struct cred *cred, const struct inode *dir,
			 const struct inode *inode)
{
	if (!(READ_ONCE(dir->i_mode) & S_ISVTX))
		return false;
	if (READ_ONCE(inode->i_uid) == cred->fsuid || READ_ONCE(dir->i_uid) == cred->fsuid)
		return false;
	return !fs_capable(cred);
}

/* Models may_delete(). */
static int may_delete(struct task *t, struct inode *dir, struct dentry *victim, bool isdir)
{
	struct vfs *v = t->vfs;
	struct inode *inode;
	int error;

	if (d_is_negative(v, victim))
		return -ENOENT;
	inode = d_inode(v, victim);
	error = inode_permission(&t->cred, dir, MAY_WRITE | MAY_EXEC);
	if (error)
		return error;
	if (check_sticky(&t->cred, dir, inode))
		return -EPERM;
	if (isdir) {
		if (!d_is_dir(v, victim))
			return -ENOTDIR;
		if (IS_ROOT(v, victim))
			return -EBUSY;
	} else if (d_is_dir(v, victim)) {
		return -EISDIR;
	}
	if (READ_ONCE(dir->i_flags) & S_DEAD)
		return -ENOENT;
	return 0;
}

/* Models may_create(). */
static int may_create(struct task *t, struct inode *dir, struct dentry *child)
{
	if (d_is_positive(t->vfs, child))
		return -EEXIST;
	if (READ_ONCE(dir->i_flags) & S_DEAD)
		return -ENOENT;
	return inode_permission(&t->cred, dir, MAY_WRITE | MAY_EXEC);
}

/* Models simple_empty(): no positive child. */
static bool simple_empty(struct vfs *v, struct dentry *d)
{
	bool ret = true;

	spin_lock(d_lock(v, d));
	for (struct hlist_node *n = dentry_children(v, d)->first; n; n = n->next) {
		struct dentry *c = d_from_sib(v, n);

		if (d_is_positive(v, c) && !d_unhashed(v, c)) {
			ret = false;
			break;
		}
	}
	spin_unlock(d_lock(v, d));
	return ret;
}

static void dir_size_add(struct inode *dir, int delta)
{
	spin_lock(&dir->i_lock);
	WRITE_ONCE(dir->i_size, dir->i_size + delta);
	spin_unlock(&dir->i_lock);
	inode_touch(dir, true, true);
}

static void set_nlink(struct inode *inode, int delta)
{
	spin_lock(&inode->i_lock);
	WRITE_ONCE(inode->i_nlink, inode->i_nlink + delta);
	spin_unlock(&inode->i_lock);
}

/*
 * Models shmem_mknod() and friends: a new inode instantiated into a
 * negative dentry, pinned with an extra reference as tmpfs does.
 */
static int shmem_mknod(struct task *t, struct inode *dir, struct dentry *d, umode_t mode, dev_t dev,
		       const char *symname)
{
	struct vfs *v = t->vfs;
	struct inode *inode = new_inode(dir->i_sb, &t->cred, dir, mode, dev);
	int err;

	if (!inode)
		return -ENOSPC;
	if (S_ISDIR(mode))
		inode->i_size = 2 * BOGO_DIRENT_SIZE;
	if (symname) {
		err = shmem_symlink_body(inode, symname);
		if (err) {
			iput(inode);
			return err;
		}
	}
	if (S_ISDIR(mode))
		set_nlink(dir, 1);
	dir_size_add(dir, BOGO_DIRENT_SIZE);
	simple_offset_add(v, dir, d);
	d_instantiate(v, d, inode);
	dget(v, d); /* pin: tmpfs dentries live as long as their names */
	return 0;
}

/* Models simple_unlink(): undo the pin, one link fewer. */
static void shmem_unlink(struct vfs *v, struct inode *dir, struct dentry *d)
{
	struct inode *inode = d_inode(v, d);

	dir_size_add(dir, -BOGO_DIRENT_SIZE);
	set_nlink(inode, -1);
	inode_touch(inode, false, true);
	dput(v, d);
}

/* ---- creation ---- */

/* Models filename_create(): the parent locked, a negative dentry to fill. */
static struct dentry *filename_create(struct task *t, int dfd, const char *name, struct path *path,
				      bool want_dir)
{
	struct vfs *v = t->vfs;
	unsigned int create_flags = LOOKUP_CREATE | LOOKUP_EXCL;
	struct dentry *d;
	struct qstr last;
	int type, error, err2;

	error = filename_parentat(t, dfd, name, 0, path, &last, &type);
	if (error)
		return ERR_PTR(error);
	if (unlikely(type != LAST_NORM)) {
		path_put(v, path);
		return ERR_PTR(-EEXIST);
	}
	/* A read-only mount is EROFS, but only after the lookup's own errors. */
	err2 = mnt_want_write(path->mnt);
	/* "foo/" only makes sense for a directory. */
	if (last.name[last.len] && !want_dir)
		create_flags = 0;
	inode_lock(d_inode(v, path->dentry));
	d = lookup_one_qstr_excl(v, &last, path->dentry, create_flags | LOOKUP_CREATE);
	if (IS_ERR(d))
		goto unlock;
	if (d_is_positive(v, d)) {
		dput(v, d);
		d = ERR_PTR(-EEXIST);
		goto unlock;
	}
	if (unlikely(!create_flags)) {
		dput(v, d);
		d = ERR_PTR(-ENOENT);
		goto unlock;
	}
	if (unlikely(err2)) {
		dput(v, d);
		d = ERR_PTR(err2);
		goto unlock;
	}
	return d;
unlock:
	inode_unlock(d_inode(v, path->dentry));
	path_put(v, path);
	return d;
}

static void done_path_create(struct vfs *v, struct path *path, struct dentry *d)
{
	dput(v, d);
	inode_unlock(d_inode(v, path->dentry));
	path_put(v, path);
}

/* Models may_mknod(). */
static int may_mknod(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
	case S_IFSOCK:
	case 0:
		return 0;
	case S_IFDIR:
		return -EPERM;
	default:
		return -EINVAL;
	}
}

long sys_mknodat(struct task *t, int dfd, const char *name, mode_t mode, dev_t dev)
{
	struct vfs *v = t->vfs;
	struct path path;
	struct dentry *d;
	int error = may_mknod(mode);

	if (error)
		return error;
	d = filename_create(t, dfd, name, &path, false);
	if (IS_ERR(d))
		return PTR_ERR(d);
	if (!(mode & S_IFMT))
		mode |= S_IFREG;
	mode = (mode & S_IFMT) | (mode & S_IALLUGO & ~current_umask(t));
	error = may_create(t, d_inode(v, path.dentry), d);
	/* A whiteout (char 0:0) needs no CAP_MKNOD. */
	if (!error && (S_ISCHR(mode) || S_ISBLK(mode)) && !capable(&t->cred) &&
	    !(S_ISCHR(mode) && dev == WHITEOUT_DEV))
		error = -EPERM;
	if (!error)
		error = shmem_mknod(t, d_inode(v, path.dentry), d, mode,
				    S_ISCHR(mode) || S_ISBLK(mode) ? dev : 0, NULL);
	done_path_create(v, &path, d);
	return error;
}

long sys_mknod(struct task *t, const char *name, mode_t mode, dev_t dev)
{
	return sys_mknodat(t, AT_FDCWD, name, mode, dev);
}

/*
 * unix_bind_bsd(): kern_path_create(), then vfs_mknod() of S_IFSOCK with
 * the socket inode's mode less the umask. What exists is EADDRINUSE.
 */
int vfs_mknod_socket(struct task *t, const char *name, mode_t mode, struct path *res)
{
	struct vfs *v = t->vfs;
	struct path path;
	struct dentry *d = filename_create(t, AT_FDCWD, name, &path, false);
	int error;

	if (IS_ERR(d)) {
		error = (int)PTR_ERR(d);
		return error == -EEXIST ? -EADDRINUSE : error;
	}
	mode = S_IFSOCK | (mode & S_IALLUGO & ~current_umask(t));
	error = may_create(t, d_inode(v, path.dentry), d);
	if (!error)
		error = shmem_mknod(t, d_inode(v, path.dentry), d, mode, 0, NULL);
	if (!error) {
		*res = (struct path){ .mnt = path.mnt, .dentry = d };
		path_get(v, res);
	}
	done_path_create(v, &path, d);
	return error;
}

long sys_mkdirat(struct task *t, int dfd, const char *name, mode_t mode)
{
	struct vfs *v = t->vfs;
	struct path path;
	struct dentry *d = filename_create(t, dfd, name, &path, true);
	int error;

	if (IS_ERR(d))
		return PTR_ERR(d);
	mode = S_IFDIR | (mode & (S_IRWXUGO | S_ISVTX) & ~current_umask(t));
	error = may_create(t, d_inode(v, path.dentry), d);
	if (!error)
		error = shmem_mknod(t, d_inode(v, path.dentry), d, mode, 0, NULL);
	done_path_create(v, &path, d);
	return error;
}

long sys_mkdir(struct task *t, const char *name, mode_t mode)
{
	return sys_mkdirat(t, AT_FDCWD, name, mode);
}

long sys_symlinkat(struct task *t, const char *target, int dfd, const char *name)
{
	struct vfs *v = t->vfs;
	struct path path;
	struct dentry *d;
	int error = check_name(target, 0);

	if (error)
		return error;
	d = filename_create(t, dfd, name, &path, false);
	if (IS_ERR(d))
		return PTR_ERR(d);
	error = may_create(t, d_inode(v, path.dentry), d);
	if (!error)
		error = shmem_mknod(t, d_inode(v, path.dentry), d, S_IFLNK | 0777, 0, target);
	done_path_create(v, &path, d);
	return error;
}

long sys_symlink(struct task *t, const char *target, const char *name)
{
	return sys_symlinkat(t, target, AT_FDCWD, name);
}

/* Models may_linkat(): fs.protected_hardlinks. */
static int may_linkat(struct task *t, struct inode *inode)
{
	const struct cred *cred = &t->cred;
	umode_t mode = READ_ONCE(inode->i_mode);

	if (!t->vfs->cfg.protected_hardlinks)
		return 0;
	if (inode_owner_or_capable(cred, inode))
		return 0;
	/* safe_hardlink_source(): regular, not setuid, not setgid-exec, rw. */
	if (!S_ISREG(mode) || (mode & S_ISUID) ||
	    (mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) ||
	    inode_permission(cred, inode, MAY_READ | MAY_WRITE))
		return -EPERM;
	return 0;
}

long sys_linkat(struct task *t, int olddfd, const char *oldname, int newdfd, const char *newname,
		int flags)
{
	struct vfs *v = t->vfs;
	struct path old_path, new_path;
	struct dentry *new_dentry;
	struct inode *inode, *dir;
	unsigned int how = 0;
	int error;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (flags & AT_SYMLINK_FOLLOW)
		how |= LOOKUP_FOLLOW;
	if (flags & AT_EMPTY_PATH) {
		how |= LOOKUP_EMPTY;
		/*
		 * Since 6.10 an empty path links the file behind olddfd if the
		 * caller opened it (the same credentials) or may search anything
		 * (CAP_DAC_READ_SEARCH); otherwise it is as if it did not exist.
		 */
		if (oldname && !*oldname && olddfd >= 0) {
			struct fd f = fdget_raw(t, olddfd);
			bool denied = fd_file(f) && *file_cred(v, fd_file(f)) != t->cred.id &&
				      !capable(&t->cred);

			fdput(t, f);
			if (denied)
				return -ENOENT;
		}
	}
	error = user_path_at(t, olddfd, oldname, how, &old_path, NULL);
	if (error)
		return error;
	new_dentry = filename_create(t, newdfd, newname, &new_path, false);
	if (IS_ERR(new_dentry)) {
		path_put(v, &old_path);
		return PTR_ERR(new_dentry);
	}
	dir = d_inode(v, new_path.dentry);
	inode = d_inode(v, old_path.dentry);
	error = old_path.mnt != new_path.mnt ? -EXDEV : may_linkat(t, inode);
	/* vfs_link() */
	if (!error)
		error = may_create(t, dir, new_dentry);
	if (!error && S_ISDIR(READ_ONCE(inode->i_mode)))
		error = -EPERM;
	if (!error) {
		/* The source's lock: two links of one O_TMPFILE inode must not both see nlink 0. */
		inode_lock(inode);
		if (!READ_ONCE(inode->i_nlink) && !(READ_ONCE(inode->i_flags) & I_LINKABLE)) {
			error = -ENOENT;
		} else {
			WRITE_ONCE(inode->i_flags, inode->i_flags & ~I_LINKABLE);
			/* simple_link() */
			set_nlink(inode, 1);
			inode_touch(inode, false, true);
			ihold(inode);
			dir_size_add(dir, BOGO_DIRENT_SIZE);
			simple_offset_add(v, dir, new_dentry);
			d_instantiate(v, new_dentry, inode);
			dget(v, new_dentry);
		}
		inode_unlock(inode);
	}
	done_path_create(v, &new_path, new_dentry);
	path_put(v, &old_path);
	return error;
}

long sys_link(struct task *t, const char *oldname, const char *newname)
{
	return sys_linkat(t, AT_FDCWD, oldname, AT_FDCWD, newname, 0);
}

/* ---- removal ---- */

/* Models do_rmdir() + vfs_rmdir() + simple_rmdir(). */
static long do_rmdir(struct task *t, int dfd, const char *name)
{
	struct vfs *v = t->vfs;
	struct path path;
	struct dentry *d;
	struct inode *dir;
	struct qstr last;
	int type, error;

	error = filename_parentat(t, dfd, name, 0, &path, &last, &type);
	if (error)
		return error;
	switch (type) {
	case LAST_DOTDOT:
		error = -ENOTEMPTY;
		goto exit;
	case LAST_DOT:
		error = -EINVAL;
		goto exit;
	case LAST_ROOT:
		error = -EBUSY;
		goto exit;
	}
	error = mnt_want_write(path.mnt);
	if (error)
		goto exit;
	dir = d_inode(v, path.dentry);
	inode_lock(dir);
	d = lookup_one_qstr_excl(v, &last, path.dentry, 0);
	error = PTR_ERR(d);
	if (IS_ERR(d))
		goto unlock;
	/* vfs_rmdir() */
	error = may_delete(t, dir, d, true);
	if (!error) {
		struct inode *inode = d_inode(v, d);

		inode_lock(inode);
		/* shrink_dcache_parent(): unused cached children must go first. */
		if (v->cfg.dentry_unused_max)
			shrink_dcache_lru(v, 0);
		if (d_mountpoint(v, d)) {
			error = -EBUSY; /* is_local_mountpoint() */
		} else if (!simple_empty(v, d)) {
			error = -ENOTEMPTY;
		} else {
			set_nlink(inode, -1);
			shmem_unlink(v, dir, d);
			set_nlink(dir, -1);
			WRITE_ONCE(inode->i_flags, inode->i_flags | S_DEAD);
		}
		inode_unlock(inode);
		if (!error)
			d_delete(v, d);
	}
	dput(v, d);
unlock:
	inode_unlock(dir);
exit:
	path_put(v, &path);
	return error;
}

long sys_rmdir(struct task *t, const char *name)
{
	return do_rmdir(t, AT_FDCWD, name);
}

/* Models do_unlinkat(). */
static long do_unlinkat(struct task *t, int dfd, const char *name)
{
	struct vfs *v = t->vfs;
	struct path path;
	struct dentry *d;
	struct inode *dir, *inode = NULL;
	struct qstr last;
	int type, error;

	error = filename_parentat(t, dfd, name, 0, &path, &last, &type);
	if (error)
		return error;
	error = -EISDIR;
	if (type != LAST_NORM)
		goto exit;
	error = mnt_want_write(path.mnt);
	if (error)
		goto exit;
	dir = d_inode(v, path.dentry);
	inode_lock(dir);
	d = lookup_one_qstr_excl(v, &last, path.dentry, 0);
	error = PTR_ERR(d);
	if (!IS_ERR(d)) {
		if (last.name[last.len]) {
			/* "foo/": the right error for what foo is. */
			error = d_is_dir(v, d) ? -EISDIR : -ENOTDIR;
		} else {
			inode = d_inode(v, d);
			ihold(inode);
			error = may_delete(t, dir, d, false);
			if (!error) {
				/* vfs_unlink(): under the victim's lock, as lock_mount() marks it. */
				inode_lock(inode);
				if (d_mountpoint(v, d))
					error = -EBUSY; /* is_local_mountpoint() */
				else
					shmem_unlink(v, dir, d);
				inode_unlock(inode);
				if (!error)
					d_delete(v, d);
			}
		}
		dput(v, d);
	}
	inode_unlock(dir);
	iput(inode);
exit:
	path_put(v, &path);
	return error;
}

long sys_unlinkat(struct task *t, int dfd, const char *name, int flags)
{
	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	if (flags & AT_REMOVEDIR)
		return do_rmdir(t, dfd, name);
	return do_unlinkat(t, dfd, name);
}

long sys_unlink(struct task *t, const char *name)
{
	return do_unlinkat(t, AT_FDCWD, name);
}

/* ---- rename ---- */

/* Models d_ancestor(): the child of anc on the way to d, or NULL. */
static struct dentry *d_ancestor(struct vfs *v, struct dentry *anc, struct dentry *d)
{
	for (struct dentry *p = d; !IS_ROOT(v, p); p = d_parent(v, p))
		if (d_parent(v, p) == anc)
			return p;
	return NULL;
}

/* Models lock_rename(): returns the "trap" dentry. */
static struct dentry *lock_rename(struct vfs *v, struct dentry *p1, struct dentry *p2)
{
	struct dentry *p;

	if (p1 == p2) {
		inode_lock(d_inode(v, p1));
		return NULL;
	}
	mutex_lock(&v->s_vfs_rename_mutex);
	p = d_ancestor(v, p2, p1);
	if (p) {
		inode_lock(d_inode(v, p2));
		inode_lock(d_inode(v, p1));
		return p;
	}
	p = d_ancestor(v, p1, p2);
	inode_lock(d_inode(v, p1));
	inode_lock(d_inode(v, p2));
	return p;
}

static void unlock_rename(struct vfs *v, struct dentry *p1, struct dentry *p2)
{
	inode_unlock(d_inode(v, p1));
	if (p1 != p2) {
		inode_unlock(d_inode(v, p2));
		mutex_unlock(&v->s_vfs_rename_mutex);
	}
}

/* Models vfs_rename() + shmem_rename2(), both locks held. */
static int vfs_rename(struct task *t, struct inode *old_dir, struct dentry *old_dentry,
		      struct inode *new_dir, struct dentry *new_dentry, unsigned int flags)
{
	struct vfs *v = t->vfs;
	struct inode *source = d_inode(v, old_dentry), *target = d_inode(v, new_dentry);
	bool is_dir = d_is_dir(v, old_dentry), new_is_dir = false;
	int error;

	if (source == target)
		return 0;
	error = may_delete(t, old_dir, old_dentry, is_dir);
	if (error)
		return error;
	if (!target) {
		error = may_create(t, new_dir, new_dentry);
	} else {
		new_is_dir = d_is_dir(v, new_dentry);
		if (!(flags & RENAME_EXCHANGE))
			error = may_delete(t, new_dir, new_dentry, is_dir);
		else
			error = may_delete(t, new_dir, new_dentry, new_is_dir);
	}
	if (error)
		return error;
	/* Moving a directory rewrites its "..": it needs write permission. */
	if (new_dir != old_dir) {
		if (is_dir) {
			error = inode_permission(&t->cred, source, MAY_WRITE);
			if (error)
				return error;
		}
		if ((flags & RENAME_EXCHANGE) && new_is_dir) {
			error = inode_permission(&t->cred, target, MAY_WRITE);
			if (error)
				return error;
		}
	}
	/* is_local_mountpoint(): a name something is mounted on stays. */
	if (d_mountpoint(v, old_dentry) ||
	    ((flags & RENAME_EXCHANGE) && target && d_mountpoint(v, new_dentry)))
		return -EBUSY;
	if (flags & RENAME_EXCHANGE) {
		/* simple_rename_exchange() */
		if (old_dir != new_dir && is_dir != new_is_dir) {
			set_nlink(old_dir, is_dir ? -1 : 1);
			set_nlink(new_dir, is_dir ? 1 : -1);
		}
		inode_touch(old_dir, true, true);
		inode_touch(new_dir, true, true);
		inode_touch(source, false, true);
		inode_touch(target, false, true);
		simple_offset_rename_exchange(v, old_dentry, new_dentry);
		d_exchange(v, old_dentry, new_dentry);
		return 0;
	}
	/*
	 * Replacing a directory: hold its inode lock from the emptiness check
	 * to S_DEAD, so no create slips in between (vfs_rename() locks the
	 * target too); unused cached children go first (shrink_dcache_parent).
	 */
	if (target) {
		/* The victim's lock, under which lock_mount() marks a mountpoint. */
		inode_lock(target);
		if (d_mountpoint(v, new_dentry)) {
			inode_unlock(target);
			return -EBUSY;
		}
	}
	if (target && new_is_dir) {
		if (v->cfg.dentry_unused_max)
			shrink_dcache_lru(v, 0);
		if (!simple_empty(v, new_dentry)) {
			inode_unlock(target);
			return -ENOTEMPTY;
		}
	}
	if (target) {
		shmem_unlink(v, new_dir, new_dentry);
		if (is_dir) {
			set_nlink(target, -1);
			set_nlink(old_dir, -1);
			WRITE_ONCE(target->i_flags, target->i_flags | S_DEAD);
		}
		inode_unlock(target);
	} else if (is_dir) {
		set_nlink(old_dir, -1);
		set_nlink(new_dir, 1);
	}
	/* The renamed name gets its offset before the whiteout, as on the 6.18 host. */
	if (v->cfg.readdir == READDIR_V614)
		simple_offset_rename(v, new_dir, old_dentry, target ? new_dentry : NULL);
	if (flags & RENAME_WHITEOUT) {
		/* shmem_whiteout(): a char 0:0 node where the old name was. */
		struct dentry *wh = d_alloc(v, d_parent(v, old_dentry), dentry_name(v, old_dentry));

		if (!wh)
			return -ENOMEM;
		error = shmem_mknod(t, old_dir, wh, S_IFCHR, WHITEOUT_DEV, NULL);
		if (!error) {
			/* Hashed while the old name is still in place, as the kernel does. */
			spin_lock(d_lock(v, wh));
			d_rehash_locked(v, wh);
			spin_unlock(d_lock(v, wh));
		}
		dput(v, wh);
		if (error)
			return error;
	}
	dir_size_add(old_dir, -BOGO_DIRENT_SIZE);
	dir_size_add(new_dir, BOGO_DIRENT_SIZE);
	inode_touch(source, false, true);
	if (v->cfg.readdir != READDIR_V614)
		simple_offset_rename(v, new_dir, old_dentry, target ? new_dentry : NULL);
	d_move(v, old_dentry, new_dentry);
	return 0;
}

/* Models do_renameat2(). */
long sys_renameat2(struct task *t, int olddfd, const char *oldname, int newdfd, const char *newname,
		   unsigned int flags)
{
	struct vfs *v = t->vfs;
	struct path old_path, new_path;
	struct qstr old_last, new_last;
	int old_type, new_type, error;
	unsigned int target_flags = LOOKUP_CREATE;
	struct dentry *old_dentry, *new_dentry, *trap;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if ((flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)) && (flags & RENAME_EXCHANGE))
		return -EINVAL;
	if (flags & RENAME_EXCHANGE)
		target_flags = 0;
	if (flags & RENAME_NOREPLACE)
		target_flags |= LOOKUP_EXCL;

	error = filename_parentat(t, olddfd, oldname, 0, &old_path, &old_last, &old_type);
	if (error)
		return error;
	error = filename_parentat(t, newdfd, newname, 0, &new_path, &new_last, &new_type);
	if (error)
		goto exit1;
	error = -EXDEV;
	if (old_path.mnt != new_path.mnt)
		goto exit2;
	error = -EBUSY;
	if (old_type != LAST_NORM)
		goto exit2;
	if (flags & RENAME_NOREPLACE)
		error = -EEXIST;
	if (new_type != LAST_NORM)
		goto exit2;
	error = mnt_want_write(old_path.mnt);
	if (error)
		goto exit2;

	trap = lock_rename(v, new_path.dentry, old_path.dentry);
	old_dentry = lookup_one_qstr_excl(v, &old_last, old_path.dentry, 0);
	error = PTR_ERR(old_dentry);
	if (IS_ERR(old_dentry))
		goto exit3;
	new_dentry = lookup_one_qstr_excl(v, &new_last, new_path.dentry, target_flags);
	error = PTR_ERR(new_dentry);
	if (IS_ERR(new_dentry))
		goto exit4;
	if (flags & RENAME_EXCHANGE) {
		if (!d_is_dir(v, new_dentry)) {
			error = -ENOTDIR;
			if (new_last.name[new_last.len])
				goto exit5;
		}
	}
	/* Unless the source is a directory, trailing slashes give -ENOTDIR. */
	if (!d_is_dir(v, old_dentry)) {
		error = -ENOTDIR;
		if (old_last.name[old_last.len])
			goto exit5;
		if (!(flags & RENAME_EXCHANGE) && new_last.name[new_last.len])
			goto exit5;
	}
	/* The source must not be an ancestor of the target... */
	error = -EINVAL;
	if (old_dentry == trap)
		goto exit5;
	/* ...nor the target an ancestor of the source. */
	if (!(flags & RENAME_EXCHANGE))
		error = -ENOTEMPTY;
	if (new_dentry == trap)
		goto exit5;
	error = vfs_rename(t, d_inode(v, old_path.dentry), old_dentry, d_inode(v, new_path.dentry),
			   new_dentry, flags);
exit5:
	dput(v, new_dentry);
exit4:
	dput(v, old_dentry);
exit3:
	unlock_rename(v, new_path.dentry, old_path.dentry);
exit2:
	path_put(v, &new_path);
exit1:
	path_put(v, &old_path);
	return error;
}

long sys_renameat(struct task *t, int olddfd, const char *oldname, int newdfd, const char *newname)
{
	return sys_renameat2(t, olddfd, oldname, newdfd, newname, 0);
}

long sys_rename(struct task *t, const char *oldname, const char *newname)
{
	return sys_renameat2(t, AT_FDCWD, oldname, AT_FDCWD, newname, 0);
}

/* ---- open ---- */

struct open_flags {
	int open_flag;
	umode_t mode;
	int acc_mode;
	unsigned int lookup_flags;
};

/* include/linux/fcntl.h */
#define VALID_OPEN_FLAGS                                                                      \
	(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | O_NONBLOCK | O_SYNC | \
	 FASYNC | O_DIRECT | KERNEL_O_LARGEFILE | O_DIRECTORY | O_NOFOLLOW | O_NOATIME |      \
	 O_CLOEXEC | O_PATH | KERNEL___O_TMPFILE)
#define O_PATH_FLAGS (O_DIRECTORY | O_NOFOLLOW | O_PATH | O_CLOEXEC)
#define VALID_RESOLVE_FLAGS                                                                \
	(RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | \
	 RESOLVE_IN_ROOT | RESOLVE_CACHED)

/*
 * Models the checks build_open_flags() makes of an openat2(2) open_how,
 * which open(2)'s build_open_how() makes true by masking: unknown bits
 * are EINVAL, and so is a mode without O_CREAT or O_TMPFILE.
 */
int check_open_how(const struct open_how *how)
{
	uint64_t flags = how->flags & ~(uint64_t)O_CLOEXEC;

	if (flags & ~(uint64_t)VALID_OPEN_FLAGS)
		return -EINVAL;
	if (how->resolve & ~(uint64_t)VALID_RESOLVE_FLAGS)
		return -EINVAL;
	if ((how->resolve & RESOLVE_BENEATH) && (how->resolve & RESOLVE_IN_ROOT))
		return -EINVAL;
	if (flags & (O_CREAT | KERNEL___O_TMPFILE)) {
		if (how->mode & ~(uint64_t)S_IALLUGO)
			return -EINVAL;
	} else if (how->mode) {
		return -EINVAL;
	}
	if ((flags & (O_DIRECTORY | O_CREAT)) == (O_DIRECTORY | O_CREAT))
		return -EINVAL;
	if (flags & KERNEL___O_TMPFILE) {
		if (!(flags & O_DIRECTORY) || !(flags & (O_WRONLY | O_RDWR)))
			return -EINVAL;
	}
	if ((flags & O_PATH) && (flags & ~(uint64_t)O_PATH_FLAGS))
		return -EINVAL;
	/* RESOLVE_CACHED: no create, truncate or tmpfile is ever cached. */
	if ((how->resolve & RESOLVE_CACHED) && (flags & (O_TRUNC | O_CREAT | KERNEL___O_TMPFILE)))
		return -EAGAIN;
	return 0;
}

/* Models build_open_flags() for open(2)/openat(2). */
static int build_open_flags(int flags, mode_t mode, struct open_flags *op)
{
	int acc_mode;

	/* open(2) ignores unknown flags; O_PATH ignores all but a few. */
	if (flags & O_PATH)
		flags &= O_DIRECTORY | O_NOFOLLOW | O_PATH | O_CLOEXEC;
	op->mode = (flags & (O_CREAT | KERNEL___O_TMPFILE)) ? (mode & S_IALLUGO) | S_IFREG : 0;
	if (flags & KERNEL___O_TMPFILE) {
		/* O_TMPFILE is __O_TMPFILE | O_DIRECTORY, opened for writing. */
		if (!(flags & O_DIRECTORY) || (flags & O_CREAT))
			return -EINVAL;
		if (!(flags & (O_WRONLY | O_RDWR)))
			return -EINVAL;
	} else if ((flags & (O_CREAT | O_DIRECTORY)) == (O_CREAT | O_DIRECTORY)) {
		return -EINVAL;
	}
	if (flags & O_PATH) {
		acc_mode = 0;
	} else {
		static const int acc[4] = { MAY_READ, MAY_WRITE, MAY_READ | MAY_WRITE,
					    MAY_READ | MAY_WRITE };

		acc_mode = acc[flags & O_ACCMODE];
		if (flags & O_TRUNC)
			acc_mode |= MAY_WRITE;
		if (flags & O_APPEND)
			acc_mode |= MAY_APPEND;
	}
	op->lookup_flags = 0;
	if (flags & O_DIRECTORY)
		op->lookup_flags |= LOOKUP_DIRECTORY;
	/* O_CREAT|O_EXCL never follows a trailing symlink. */
	if (!(flags & O_NOFOLLOW) && (flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL))
		op->lookup_flags |= LOOKUP_FOLLOW;
	op->open_flag = flags;
	op->acc_mode = acc_mode;
	return 0;
}

/* Models may_open(). */
static int may_open(struct task *t, const struct path *path, int acc_mode, int flag)
{
	struct inode *inode = d_inode(t->vfs, path->dentry);
	int error;

	if (!inode)
		return -ENOENT;
	switch (READ_ONCE(inode->i_mode) & S_IFMT) {
	case S_IFLNK:
		return -ELOOP;
	case S_IFDIR:
		if (acc_mode & MAY_WRITE)
			return -EISDIR;
		if (acc_mode & MAY_EXEC)
			return -EACCES;
		break;
	case S_IFBLK:
	case S_IFCHR:
	case S_IFIFO:
	case S_IFSOCK:
		if (acc_mode & MAY_EXEC)
			return -EACCES;
		break;
	}
	error = inode_permission(&t->cred, inode, acc_mode);
	if (error)
		return error;
	if ((flag & O_NOATIME) && !inode_owner_or_capable(&t->cred, inode))
		return -EPERM;
	return 0;
}

/* Models do_dentry_open(): pick the ops, run the type's open. */
static int vfs_open(struct task *t, const struct path *path, int flags, struct file **filp)
{
	struct vfs *v = t->vfs;
	struct inode *inode = d_inode(v, path->dentry);
	const struct file_operations *fop;
	struct file *f;
	int err;

	if (flags & O_PATH) {
		fop = &path_operations;
	} else {
		switch (READ_ONCE(inode->i_mode) & S_IFMT) {
		case S_IFREG:
		case S_IFLNK:
			fop = &shmem_file_operations;
			break;
		case S_IFDIR:
			fop = &shmem_dir_operations;
			break;
		case S_IFIFO:
			fop = &fifo_operations;
			break;
		case S_IFCHR:
			/* chrdev_open(): the mem devices' driver, or none. */
			fop = chrdev_fops(inode->i_rdev);
			if (fop)
				break;
			return -ENXIO;
		default:
			/* blkdev_open() finds no device; sockets cannot be opened. */
			return -ENXIO;
		}
	}
	f = alloc_file(v, path, flags, fop, &t->cred);
	if (!f)
		return -ENFILE;
	path_get(v, path);
	/* A file open for write on a regular file or directory holds write access to its mount. */
	if ((file_fmode(v, f) & FMODE_WRITE) && (fop == &shmem_file_operations)) {
		err = mnt_get_write_access(v, path->mnt);
		if (err) {
			*file_op(v, f) = &path_operations;
			fput(v, f);
			return err;
		}
		WRITE_ONCE(*file_mode(v, f), file_fmode(v, f) | FMODE_WRITER);
	}
	if (fop == &fifo_operations) {
		err = fifo_open(inode, file_fmode(v, f), flags);
		if (err) {
			/* Not opened: no release, just drop what alloc_file holds. */
			*file_op(v, f) = &path_operations;
			fput(v, f);
			return err;
		}
	}
	/* do_dentry_open(), after the type's open: O_DIRECT it cannot do is EINVAL. */
	if ((flags & O_DIRECT) && !(flags & O_PATH) && !(file_fmode(v, f) & FMODE_CAN_ODIRECT)) {
		fput(v, f);
		return -EINVAL;
	}
	*filp = f;
	return 0;
}

/* Models lookup_open() for O_CREAT: find or create the last component. */
static struct dentry *lookup_open(struct task *t, struct nameidata *nd, const struct open_flags *op,
				  bool got_write, bool *created)
{
	struct vfs *v = t->vfs;
	struct dentry *dir = nd->path.dentry;
	struct inode *dir_inode = d_inode(v, dir);
	struct dentry *d;
	int error;

	d = d_lookup(v, dir, &nd->last);
	if (!d) {
		if (unlikely(READ_ONCE(dir_inode->i_flags) & S_DEAD))
			return ERR_PTR(-ENOENT);
		if (nd->last.len > NAME_MAX_LEN)
			return ERR_PTR(-ENAMETOOLONG);
		d = d_alloc(v, dir, &nd->last);
		if (!d)
			return ERR_PTR(-ENOMEM);
		d_add(v, d, NULL);
	}
	if (d_is_positive(v, d))
		return d;
	/* may_o_create(), then vfs_create()'s may_create(); a read-only mount first */
	error = got_write ? may_create(t, dir_inode, d) : -EROFS;
	if (!error) {
		umode_t mode = S_IFREG | (op->mode & S_IALLUGO & ~current_umask(t));

		error = shmem_mknod(t, dir_inode, d, mode, 0, NULL);
	}
	if (error) {
		dput(v, d);
		return ERR_PTR(error);
	}
	*created = true;
	return d;
}

/*
 * Models do_tmpfile() + vfs_tmpfile() + shmem_tmpfile(): an inode with no
 * name (nlink 0) under nd's directory, linkable later by linkat(fd, "",
 * AT_EMPTY_PATH) unless O_EXCL.
 */
static int do_tmpfile(struct task *t, struct nameidata *nd, const struct open_flags *op,
		      struct file **filp)
{
	static const struct qstr slash = { .hash_len = hashlen_create(0, 1),
					   .name = (const unsigned char *)"/" };
	struct vfs *v = t->vfs;
	struct inode *dir = d_inode(v, nd->path.dentry), *inode;
	struct path path = { nd->path.mnt, NULL };
	int error = mnt_want_write(path.mnt);

	if (!error)
		error = inode_permission(&t->cred, dir, MAY_WRITE | MAY_EXEC);
	if (error)
		return error;
	if (READ_ONCE(dir->i_flags) & S_DEAD)
		return -ENOENT;
	path.dentry = d_alloc(v, nd->path.dentry, &slash);
	if (!path.dentry)
		return -ENOMEM;
	inode = new_inode(dir->i_sb, &t->cred, dir,
			  S_IFREG | (op->mode & S_IALLUGO & ~current_umask(t)), 0);
	if (!inode) {
		dput(v, path.dentry);
		return -ENOSPC;
	}
	inode->i_nlink = 0;
	if (!(op->open_flag & O_EXCL))
		WRITE_ONCE(inode->i_flags, inode->i_flags | I_LINKABLE);
	d_instantiate(v, path.dentry, inode);
	error = may_open(t, &path, 0, op->open_flag);
	if (!error)
		error = vfs_open(t, &path, op->open_flag, filp);
	dput(v, path.dentry);
	return error;
}

/* Models path_openat() + open_last_lookups() + do_open(). */
static int path_openat(struct task *t, struct nameidata *nd, const char *name,
		       const struct open_flags *op, unsigned int flags, struct file **filp)
{
	struct vfs *v = t->vfs;
	int open_flag = op->open_flag;
	bool created = false, do_truncate = false;
	const char *s = path_init(nd, name, flags);
	int acc_mode = op->acc_mode;
	int error;

	if (IS_ERR(s)) {
		terminate_walk(nd);
		return PTR_ERR(s);
	}
	if (open_flag & (O_PATH | KERNEL___O_TMPFILE)) {
		while (!(error = link_path_walk(s, nd)) && (s = lookup_last(nd)) != NULL) {
			if (IS_ERR(s)) {
				error = PTR_ERR(s);
				break;
			}
		}
		if (!error)
			error = complete_walk(nd);
		if (!error && (nd->flags & LOOKUP_DIRECTORY) && !d_can_lookup(v, nd->path.dentry))
			error = -ENOTDIR;
		if (!error && (open_flag & KERNEL___O_TMPFILE))
			error = do_tmpfile(t, nd, op, filp);
		else if (!error)
			error = vfs_open(t, &nd->path, open_flag, filp);
		terminate_walk(nd);
		return error;
	}
	for (;;) {
		error = link_path_walk(s, nd);
		if (error)
			goto out;
		if (!(open_flag & O_CREAT)) {
			s = lookup_last(nd);
		} else if (nd->last_type != LAST_NORM) {
			s = handle_dots(nd, nd->last_type);
		} else {
			struct dentry *d;
			struct inode *dir;

			if (nd->flags & LOOKUP_RCU) {
				if (!try_to_unlazy(nd)) {
					error = -ECHILD;
					goto out;
				}
			}
			if (unlikely(nd->last.name[nd->last.len])) {
				error = -EISDIR;
				goto out;
			}
			dir = d_inode(v, nd->path.dentry);
			inode_lock(dir);
			d = lookup_open(t, nd, op, !mnt_want_write(nd->path.mnt), &created);
			inode_unlock(dir);
			if (IS_ERR(d)) {
				error = PTR_ERR(d);
				goto out;
			}
			if (created) {
				dput(v, nd->path.dentry);
				nd->path.dentry = d;
				nd->inode = d_inode(v, d);
				s = NULL;
			} else {
				s = step_into(nd, WALK_TRAILING, d);
			}
		}
		if (!s)
			break;
		if (IS_ERR(s)) {
			error = PTR_ERR(s);
			goto out;
		}
	}
	error = complete_walk(nd);
	if (error)
		goto out;
	/* do_open() */
	if (open_flag & O_CREAT) {
		if ((open_flag & O_EXCL) && !created) {
			error = -EEXIST;
			goto out;
		}
		if (d_is_dir(v, nd->path.dentry)) {
			error = -EISDIR;
			goto out;
		}
		error = may_create_in_sticky(nd, d_inode(v, nd->path.dentry));
		if (error)
			goto out;
	}
	if ((nd->flags & LOOKUP_DIRECTORY) && !d_can_lookup(v, nd->path.dentry)) {
		error = -ENOTDIR;
		goto out;
	}
	if (created) {
		open_flag &= ~O_TRUNC;
		acc_mode = 0;
	} else if (d_is_reg(v, nd->path.dentry) && (open_flag & O_TRUNC)) {
		error = mnt_want_write(nd->path.mnt);
		if (error)
			goto out;
		do_truncate = true;
	}
	error = may_open(t, &nd->path, acc_mode, open_flag);
	if (!error)
		error = vfs_open(t, &nd->path, open_flag, filp);
	if (!error && do_truncate) {
		error = vfs_truncate_inode(t, d_inode(v, nd->path.dentry), 0);
		if (error) {
			fput(v, *filp);
			*filp = NULL;
		}
	}
out:
	terminate_walk(nd);
	return error;
}

/* Models do_filp_open(); an openat2(2) how has passed check_open_how(). */
int do_filp_open(struct task *t, int dfd, const char *name, const struct open_how *how,
		 struct file **filp)
{
	struct open_flags op;
	struct nameidata nd;
	int error = build_open_flags((int)how->flags, (mode_t)how->mode, &op);

	if (error)
		return error;
	op.lookup_flags |= resolve_lookup_flags(how->resolve);
	error = check_name(name, 0);
	if (error)
		return error;
	set_nameidata(&nd, t, dfd, NULL);
	nd.flags = op.lookup_flags;
	error = path_openat(t, &nd, name, &op, op.lookup_flags | LOOKUP_RCU, filp);
	if (unlikely(error == -ECHILD)) {
		vfs_count(VFS_EV_REF_WALK);
		set_nameidata(&nd, t, dfd, NULL);
		error = path_openat(t, &nd, name, &op, op.lookup_flags, filp);
	}
	return error;
}
