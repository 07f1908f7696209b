// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Mounts, their counts and the mount hash. Models fs/namespace.c.
 *
 * Usage:
 *  The hash and the tree (mnt_parent, mnt_mountpoint, mnt_mounts) change
 *  only with mount_lock held for write (lock_mount_hash()); mount, umount
 *  and remount also hold namespace_sem, which orders them. A walker reads
 *  the hash under RCU and checks mount_lock's sequence afterwards.
 *
 *  A mount in the namespace holds one reference for being there; each
 *  child holds one on its parent; every struct path holds one. Taking a
 *  mount out (umount_tree()) clears mnt_ns first, so that from then on
 *  mntput() takes the slow path and the last one frees it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/sysmacros.h>

#include "vfs/mount.h"

#define MNT_HASH_SHIFT 8
#define MNT_HASH_SIZE (1u << MNT_HASH_SHIFT)

/* The anonymous device minor the root tmpfs reports; mounts count up from it. */
#define ROOT_ANON_MINOR 0x2a

static struct hlist_head *m_hash(struct vfs *v, const struct vfsmount *mnt, const struct dentry *d)
{
	unsigned long tmp = (unsigned long)mnt / L1_CACHE_BYTES + (unsigned long)d / L1_CACHE_BYTES;

	tmp *= 0x61C8864680B583EBull;
	return &v->mount_hashtable[tmp >> (64 - MNT_HASH_SHIFT)];
}

static void lock_mount_hash(struct vfs *v)
{
	write_seqlock(&v->mount_lock);
}

static void unlock_mount_hash(struct vfs *v)
{
	write_sequnlock(&v->mount_lock);
}

/* ---- counts ---- */

/*
 * this_cpu_add() on a field of mnt_pcp: the CPU's own slot with a plain
 * load and store, or the shared slot atomically for a thread without one.
 */
static inline void mnt_pcp_add(struct mount *mnt, size_t field, long n)
{
	int cpu = arch_cpu_id();
	long *p = (long *)((char *)&mnt->mnt_pcp[cpu >= 0 ? cpu : (int)ARCH_NR_CPUS] + field);

	if (likely(cpu >= 0))
		WRITE_ONCE(*p, READ_ONCE(*p) + n);
	else
		__atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}

/* The possible CPUs' slots (nr_cpu_ids of them) and the shared one after all. */
static long mnt_pcp_sum(const struct mount *mnt, size_t field)
{
	unsigned int n = arch_nr_cpu_ids();
	long sum = 0;

	for (unsigned int i = 0; i < n && i < ARCH_NR_CPUS; i++)
		sum += READ_ONCE(*(const long *)((const char *)&mnt->mnt_pcp[i] + field));
	return sum + READ_ONCE(*(const long *)((const char *)&mnt->mnt_pcp[ARCH_NR_CPUS] + field));
}

/* Models mnt_add_count(): this CPU's slot, or the one shared counter. */
static inline void mnt_add_count(struct mount *mnt, long n)
{
	if (likely(!mnt->mnt_count_atomic))
		mnt_pcp_add(mnt, offsetof(struct mnt_pcp, mnt_count), n);
	else
		atomic_long_add(n, &mnt->mnt_count);
}

/* Models mnt_get_count(): exact only when no add is in flight. */
long mnt_get_count(struct vfs *v, struct mount *mnt)
{
	(void)v;
	if (!mnt->mnt_count_atomic)
		return mnt_pcp_sum(mnt, offsetof(struct mnt_pcp, mnt_count));
	return atomic_long_read(&mnt->mnt_count);
}

/* Models mnt_get_writers(). */
long mnt_get_writers(const struct mount *mnt)
{
	return mnt_pcp_sum(mnt, offsetof(struct mnt_pcp, mnt_writers));
}

struct vfsmount *mntget(struct vfs *v, struct vfsmount *mnt)
{
	(void)v;
	if (mnt)
		mnt_add_count(real_mount(mnt), 1);
	return mnt;
}

static void deactivate_super(struct super_block *sb);

static void delayed_free_vfsmnt(struct rcu_head *head)
{
	struct mount *mnt = container_of(head, struct mount, mnt_rcu);

	free(mnt->mnt_pcp);
	free(mnt);
}

/* The mountpoint d keeps DCACHE_MOUNTED while any hashed mount sits on it. */
static bool still_mounted(struct vfs *v, const struct dentry *d)
{
	for (unsigned int i = 0; i < MNT_HASH_SIZE; i++) {
		struct mount *p;

		hlist_for_each_entry(p, &v->mount_hashtable[i], mnt_hash)
			if (p->mnt_mountpoint == d)
				return true;
	}
	return false;
}

/*
 * Models unhash_mnt() + __put_mountpoint(): take mnt off its mountpoint;
 * returns the mountpoint, whose reference the caller drops once
 * mount_lock is released. mount_lock held.
 */
static struct dentry *unhash_mnt(struct vfs *v, struct mount *mnt)
{
	struct dentry *mp = mnt->mnt_mountpoint;

	hlist_del_rcu(&mnt->mnt_hash);
	list_del_init(&mnt->mnt_child);
	WRITE_ONCE(mnt->mnt_parent, mnt);
	WRITE_ONCE(mnt->mnt_mountpoint, mnt->mnt.mnt_root);
	if (!still_mounted(v, mp)) {
		spin_lock(d_lock(v, mp));
		d_flags_clear(v, mp, DCACHE_MOUNTED);
		spin_unlock(d_lock(v, mp));
	}
	return mp;
}

/* Models cleanup_mnt(): the last reference is gone. */
static void cleanup_mnt(struct vfs *v, struct mount *mnt)
{
	struct mount *p, *tmp;
	struct dentry *mps[64];
	struct mount *stuck[64];
	unsigned int n;

	/* Children a lazy umount left connected go with their parent. */
	do {
		n = 0;
		lock_mount_hash(v);
		list_for_each_entry_safe(p, tmp, &mnt->mnt_mounts, mnt_child) {
			if (n == ARRAY_SIZE(stuck))
				break;
			mps[n] = unhash_mnt(v, p);
			stuck[n++] = p;
		}
		unlock_mount_hash(v);
		for (unsigned int i = 0; i < n; i++) {
			dput(v, mps[i]);
			mntput(v, &stuck[i]->mnt);
		}
	} while (n);
	dput(v, mnt->mnt.mnt_root);
	deactivate_super(mnt->mnt.mnt_sb);
	call_rcu(&mnt->mnt_rcu, delayed_free_vfsmnt);
}

/*
 * Models mntput_no_expire(). A mount in the namespace cannot reach zero,
 * so the fast path only subtracts from this CPU's slot; the RCU read
 * section pairs with umount's synchronize_rcu() after clearing mnt_ns.
 */
static void mntput_no_expire(struct vfs *v, struct mount *mnt)
{
	long count;

	rcu_read_lock();
	if (likely(READ_ONCE(mnt->mnt_ns))) {
		mnt_add_count(mnt, -1);
		rcu_read_unlock();
		return;
	}
	lock_mount_hash(v);
	smp_mb(); /* pairs with __legitimize_mnt()'s */
	mnt_add_count(mnt, -1);
	count = mnt_get_count(v, mnt);
	if (count != 0) {
		WARN_ON(count < 0);
		rcu_read_unlock();
		unlock_mount_hash(v);
		return;
	}
	if (unlikely(mnt->mnt.mnt_flags & MNT_DOOMED)) {
		rcu_read_unlock();
		unlock_mount_hash(v);
		return;
	}
	WRITE_ONCE(mnt->mnt.mnt_flags, mnt->mnt.mnt_flags | MNT_DOOMED);
	rcu_read_unlock();
	unlock_mount_hash(v);
	cleanup_mnt(v, mnt);
}

/* Models mntput(): an umount2(MNT_EXPIRE) mark goes with any use. */
void mntput(struct vfs *v, struct vfsmount *mnt)
{
	if (mnt) {
		struct mount *m = real_mount(mnt);

		if (unlikely(atomic_read(&m->mnt_expiry_mark)))
			atomic_set(&m->mnt_expiry_mark, 0);
		mntput_no_expire(v, m);
	}
}

/*
 * Models __legitimize_mnt(): take a reference on a mount an RCU walk
 * found. 0: got it; 1: mount_lock moved, no reference; -1: mount_lock
 * moved after the reference was taken, and the caller must mntput().
 */
int __legitimize_mnt(struct vfs *v, struct vfsmount *bastard, unsigned int seq)
{
	struct mount *mnt;

	if (mount_seq_retry(v, seq))
		return 1;
	if (!bastard)
		return 0;
	mnt = real_mount(bastard);
	mnt_add_count(mnt, 1);
	smp_mb(); /* against do_umount()'s count check, mntput_no_expire()'s */
	if (likely(!mount_seq_retry(v, seq)))
		return 0;
	lock_mount_hash(v);
	if (unlikely(READ_ONCE(bastard->mnt_flags) & (MNT_SYNC_UMOUNT | MNT_DOOMED))) {
		mnt_add_count(mnt, -1);
		unlock_mount_hash(v);
		return 1;
	}
	unlock_mount_hash(v);
	return -1;
}

/* Models legitimize_mnt(). */
static bool legitimize_mnt(struct vfs *v, struct vfsmount *bastard, unsigned int seq)
{
	int res = __legitimize_mnt(v, bastard, seq);

	if (likely(!res))
		return true;
	if (unlikely(res < 0)) {
		rcu_read_unlock();
		mntput(v, bastard);
		rcu_read_lock();
	}
	return false;
}

/* ---- the hash ---- */

/* Models __lookup_mnt(): the mount on (mnt, d), under RCU or mount_lock. */
struct mount *__lookup_mnt(struct vfs *v, const struct vfsmount *mnt, const struct dentry *d)
{
	struct mount *p;

	hlist_for_each_entry_rcu(p, m_hash(v, mnt, d), mnt_hash)
		if (&READ_ONCE(p->mnt_parent)->mnt == mnt && READ_ONCE(p->mnt_mountpoint) == d)
			return p;
	return NULL;
}

/* Models lookup_mnt(): the mount on path, with a reference, or NULL. */
struct vfsmount *lookup_mnt(struct vfs *v, const struct path *path)
{
	struct vfsmount *m;
	unsigned int seq;

	rcu_read_lock();
	do {
		struct mount *child;

		seq = mount_seq_begin(v);
		child = __lookup_mnt(v, path->mnt, path->dentry);
		m = child ? &child->mnt : NULL;
	} while (!legitimize_mnt(v, m, seq));
	rcu_read_unlock();
	return m;
}

/*
 * Models choose_mountpoint_rcu(): the first mountpoint above m's root that
 * is not itself a mount root, stopping at root.
 */
bool choose_mountpoint_rcu(struct vfs *v, struct mount *m, const struct path *root,
			   struct path *path, unsigned int *seqp)
{
	while (mnt_has_parent(m)) {
		struct dentry *mountpoint = READ_ONCE(m->mnt_mountpoint);

		m = READ_ONCE(m->mnt_parent);
		if (unlikely(root->dentry == mountpoint && root->mnt == &m->mnt))
			break;
		if (mountpoint != m->mnt.mnt_root) {
			path->mnt = &m->mnt;
			path->dentry = mountpoint;
			*seqp = read_seqcount_begin(dentry_seq(v, mountpoint));
			return true;
		}
	}
	return false;
}

/* Models choose_mountpoint(): the same, with references on the result. */
bool choose_mountpoint(struct vfs *v, struct mount *m, const struct path *root, struct path *path)
{
	bool found;

	rcu_read_lock();
	for (;;) {
		unsigned int seq = mount_seq_begin(v), mseq;
		int res;

		found = choose_mountpoint_rcu(v, m, root, path, &mseq);
		if (unlikely(!found)) {
			if (!mount_seq_retry(v, seq))
				break;
			continue;
		}
		/* __legitimize_path(): the mount, then the dentry, then its seq. */
		res = __legitimize_mnt(v, path->mnt, seq);
		if (likely(!res)) {
			if (d_get_not_dead(v, path->dentry)) {
				if (!read_seqcount_retry(dentry_seq(v, path->dentry), mseq))
					break;
				rcu_read_unlock();
				path_put(v, path);
				rcu_read_lock();
				continue;
			}
			res = -1;
		}
		if (res < 0) {
			rcu_read_unlock();
			mntput(v, path->mnt);
			rcu_read_lock();
		}
	}
	rcu_read_unlock();
	return found;
}

/* Models is_subdir(): is d at or below ancestor? */
static bool is_subdir(struct vfs *v, struct dentry *d, struct dentry *ancestor)
{
	bool res;
	unsigned int seq;

	rcu_read_lock();
	do {
		struct dentry *p = d;

		seq = read_seqbegin(&v->rename_lock);
		while (p != ancestor && !IS_ROOT(v, p))
			p = d_parent(v, p);
		res = p == ancestor;
	} while (read_seqretry(&v->rename_lock, seq));
	rcu_read_unlock();
	return res;
}

/* Models path_is_under() + is_path_reachable(). */
bool path_is_under(struct vfs *v, const struct path *p1, const struct path *p2)
{
	struct mount *mnt = real_mount(p1->mnt);
	struct dentry *d = p1->dentry;
	bool res;

	read_seqlock_excl(&v->mount_lock);
	while (&mnt->mnt != p2->mnt && mnt_has_parent(mnt)) {
		d = mnt->mnt_mountpoint;
		mnt = mnt->mnt_parent;
	}
	res = &mnt->mnt == p2->mnt && is_subdir(v, d, p2->dentry);
	read_sequnlock_excl(&v->mount_lock);
	return res;
}

/* ---- read-only ---- */

/* Models __mnt_is_readonly(): the mount's flag or its superblock's. */
bool __mnt_is_readonly(const struct vfsmount *mnt)
{
	return (READ_ONCE(mnt->mnt_flags) & MNT_READONLY) || sb_rdonly(mnt->mnt_sb);
}

/*
 * Models mnt_want_write() for a modification that lasts one call: vfslab
 * has no freeze, so it is the read-only check.
 */
int mnt_want_write(const struct vfsmount *mnt)
{
	return __mnt_is_readonly(mnt) ? -EROFS : 0;
}

/*
 * Models mnt_get_write_access() for a file open for write: counted, so
 * that a remount read-only sees it (EBUSY) while the file stays open.
 */
int mnt_get_write_access(struct vfs *v, struct vfsmount *mnt)
{
	struct mount *m = real_mount(mnt);

	mnt_pcp_add(m, offsetof(struct mnt_pcp, mnt_writers), 1);
	smp_mb(); /* against mnt_make_readonly()'s writer count */
	if (unlikely(__mnt_is_readonly(mnt) || (READ_ONCE(mnt->mnt_flags) & MNT_WRITE_HOLD))) {
		/* The kernel spins while MNT_WRITE_HOLD; a fresh look answers the same. */
		lock_mount_hash(v);
		if (__mnt_is_readonly(mnt)) {
			mnt_pcp_add(m, offsetof(struct mnt_pcp, mnt_writers), -1);
			unlock_mount_hash(v);
			return -EROFS;
		}
		unlock_mount_hash(v);
	}
	return 0;
}

void mnt_put_write_access(struct vfs *v, struct vfsmount *mnt)
{
	(void)v;
	mnt_pcp_add(real_mount(mnt), offsetof(struct mnt_pcp, mnt_writers), -1);
}

/* Models mnt_make_readonly(): EBUSY while a file holds write access. */
static int mnt_make_readonly(struct mount *mnt)
{
	int ret = 0;

	WRITE_ONCE(mnt->mnt.mnt_flags, mnt->mnt.mnt_flags | MNT_WRITE_HOLD);
	smp_mb(); /* against mnt_get_write_access() */
	if (mnt_get_writers(mnt) > 0)
		ret = -EBUSY;
	else
		WRITE_ONCE(mnt->mnt.mnt_flags, mnt->mnt.mnt_flags | MNT_READONLY);
	WRITE_ONCE(mnt->mnt.mnt_flags, mnt->mnt.mnt_flags & ~MNT_WRITE_HOLD);
	return ret;
}

/* ---- superblocks ---- */

void put_super(struct super_block *sb)
{
	if (atomic_dec_and_test(&sb->s_count))
		free(sb);
}

/* Models kill_litter_super() via deactivate_super(): the last mount went. */
static void deactivate_super(struct super_block *sb)
{
	struct vfs *v = sb->s_vfs;

	if (!atomic_dec_and_test(&sb->s_active))
		return;
	d_genocide_root(v, sb->s_root);
	dput(v, sb->s_root);
	put_super(sb);
}

struct tmpfs_opts {
	unsigned long long size;
	mode_t mode;
	uid_t uid;
	gid_t gid;
};

/*
 * Models shmem_fill_super(): a tmpfs instance, its root directory owned
 * by opts' uid/gid with opts' mode, and its own anonymous st_dev.
 */
static struct super_block *shmem_fill_super(struct vfs *v, const struct tmpfs_opts *o)
{
	struct super_block *sb = aligned_alloc(L1_CACHE_BYTES, ALIGN(sizeof(*sb), L1_CACHE_BYTES));
	struct cred cred = { .fsuid = o->uid, .fsgid = o->gid };
	struct inode *root;

	if (!sb)
		return NULL;
	memset(sb, 0, sizeof(*sb));
	sb->s_vfs = v;
	sb->s_max_bytes = o->size;
	atomic_set(&sb->s_count, 1);
	atomic_set(&sb->s_active, 1);
	spin_lock(&v->task_lock);
	sb->s_dev = makedev(0, v->next_anon_minor++);
	spin_unlock(&v->task_lock);
	root = new_inode(sb, &cred, NULL, S_IFDIR | (o->mode & S_IALLUGO), 0);
	if (!root)
		goto fail;
	root->i_size = 40; /* "." and "..", BOGO_DIRENT_SIZE each */
	sb->s_root = d_make_root(v, root);
	if (!sb->s_root) {
		iput(root);
		goto fail;
	}
	return sb;
fail:
	put_super(sb);
	return NULL;
}

/* Models alloc_vfsmnt() + the setup vfs_create_mount()/clone_mnt() share. */
static struct mount *alloc_vfsmnt(struct vfs *v, struct super_block *sb, struct dentry *root,
				  int flags)
{
	struct mount *mnt = calloc(1, sizeof(*mnt));

	if (!mnt)
		return NULL;
	mnt->mnt_pcp = aligned_alloc(L1_CACHE_BYTES, MNT_PCP_SLOTS * sizeof(*mnt->mnt_pcp));
	if (!mnt->mnt_pcp) {
		free(mnt);
		return NULL;
	}
	memset(mnt->mnt_pcp, 0, MNT_PCP_SLOTS * sizeof(*mnt->mnt_pcp));
	mnt->mnt_count_atomic = v->cfg.mnt_count == MNT_COUNT_ATOMIC;
	mnt_add_count(mnt, 1);
	INIT_HLIST_NODE(&mnt->mnt_hash);
	INIT_LIST_HEAD(&mnt->mnt_mounts);
	INIT_LIST_HEAD(&mnt->mnt_child);
	mnt->mnt_parent = mnt;
	mnt->mnt_mountpoint = root;
	mnt->mnt.mnt_root = root;
	mnt->mnt.mnt_sb = sb;
	mnt->mnt.mnt_flags = flags;
	spin_lock(&v->task_lock);
	mnt->mnt_id = ++v->next_mnt_id;
	spin_unlock(&v->task_lock);
	return mnt;
}

/* Models clone_mnt(): a new mount of old's superblock rooted at root. */
static struct mount *clone_mnt(struct vfs *v, struct mount *old, struct dentry *root)
{
	struct mount *mnt = alloc_vfsmnt(v, old->mnt.mnt_sb, root,
					 READ_ONCE(old->mnt.mnt_flags) & MNT_USER_SETTABLE_MASK);

	if (!mnt)
		return NULL;
	atomic_inc(&old->mnt.mnt_sb->s_active);
	dget(v, root);
	return mnt;
}

/* Models attach_mnt() + mnt_set_mountpoint(): mount_lock held. */
static void attach_mnt(struct vfs *v, struct mount *mnt, struct mount *parent, struct dentry *mp)
{
	mnt_add_count(parent, 1);
	dget(v, mp);
	mnt->mnt_mountpoint = mp;
	mnt->mnt_parent = parent;
	spin_lock(d_lock(v, mp));
	d_flags_set(v, mp, DCACHE_MOUNTED);
	spin_unlock(d_lock(v, mp));
	hlist_add_head_rcu(&mnt->mnt_hash, m_hash(v, &parent->mnt, mp));
	list_add_tail(&mnt->mnt_child, &parent->mnt_mounts);
}

/* Set mnt_ns on a tree about to be attached. */
static void set_ns_tree(struct mount *mnt, struct mnt_namespace *ns)
{
	struct mount *p;

	WRITE_ONCE(mnt->mnt_ns, ns);
	list_for_each_entry(p, &mnt->mnt_mounts, mnt_child)
		set_ns_tree(p, ns);
}

/* mnt and every mount below it. */
static unsigned int tree_mounts(struct mount *mnt)
{
	unsigned int n = 1;
	struct mount *p;

	list_for_each_entry(p, &mnt->mnt_mounts, mnt_child)
		n += tree_mounts(p);
	return n;
}

/* ---- umount ---- */

/* Mark a tree unmounted: out of the namespace, each child's parent reference dropped. */
static void umount_mark(struct mount *mnt, unsigned int flags)
{
	struct mount *p;

	if (mnt->mnt_ns)
		mnt->mnt_ns->mounts--;
	WRITE_ONCE(mnt->mnt_ns, NULL);
	WRITE_ONCE(mnt->mnt.mnt_flags, mnt->mnt.mnt_flags | flags);
	list_for_each_entry(p, &mnt->mnt_mounts, mnt_child) {
		mnt_add_count(mnt, -1);
		umount_mark(p, flags);
	}
}

/*
 * Models umount_tree(): take mnt and its submounts out of the namespace.
 * mnt itself leaves its mountpoint; submounts stay connected to it (a lazy
 * umount's detached tree, still walkable from a file inside) and go with it
 * in cleanup_mnt(). Returns mnt's mountpoint for the caller to dput.
 * namespace_sem and mount_lock held.
 */
static struct dentry *umount_tree(struct vfs *v, struct mount *mnt, unsigned int flags)
{
	struct mount *parent = mnt->mnt_parent;

	umount_mark(mnt, MNT_UMOUNT | flags);
	if (!mnt_has_parent(mnt))
		return NULL;
	mnt_add_count(parent, -1);
	return unhash_mnt(v, mnt);
}

/*
 * Models namespace_unlock() for one unmounted tree: once every RCU walker
 * that could still see mnt_ns set is gone, drop the namespace's reference.
 */
static void namespace_unlock_put(struct vfs *v, struct mount *mnt, struct dentry *mp)
{
	mutex_unlock(&v->namespace_sem);
	synchronize_rcu();
	dput(v, mp);
	mntput(v, &mnt->mnt);
}

static bool check_mnt(struct vfs *v, const struct mount *mnt)
{
	return READ_ONCE(mnt->mnt_ns) == v->mnt_ns;
}

/* Models propagate_mount_busy() without peers: children, or more references than refcnt. */
static bool mount_busy(struct vfs *v, struct mount *mnt, long refcnt)
{
	return !list_empty(&mnt->mnt_mounts) || mnt_get_count(v, mnt) > refcnt;
}

static int do_umount_root(struct vfs *v, struct super_block *sb);

/* Models do_umount(). */
static int do_umount(struct task *t, struct mount *mnt, int flags)
{
	struct vfs *v = task_v(t);
	struct dentry *mp;

	if (flags & MNT_EXPIRE) {
		if (&mnt->mnt == READ_ONCE(t->fs->root.mnt) || (flags & (MNT_FORCE | MNT_DETACH)))
			return -EINVAL;
		/* One reference for the namespace, one for the caller's path. */
		if (mnt_get_count(v, mnt) != 2)
			return -EBUSY;
		if (!atomic_xchg(&mnt->mnt_expiry_mark, 1))
			return -EAGAIN;
	}
	if (&mnt->mnt == READ_ONCE(t->fs->root.mnt) && !(flags & MNT_DETACH))
		return do_umount_root(v, mnt->mnt.mnt_sb);
	mutex_lock(&v->namespace_sem);
	lock_mount_hash(v);
	if (!check_mnt(v, mnt) || !mnt_has_parent(mnt)) {
		/* The namespace root: vfslab has no pivot_root to make another. */
		unlock_mount_hash(v);
		mutex_unlock(&v->namespace_sem);
		return -EINVAL;
	}
	if (flags & MNT_DETACH) {
		mp = umount_tree(v, mnt, 0);
	} else {
		smp_mb(); /* pairs with __legitimize_mnt()'s */
		if (mount_busy(v, mnt, 2)) {
			unlock_mount_hash(v);
			mutex_unlock(&v->namespace_sem);
			return -EBUSY;
		}
		mp = umount_tree(v, mnt, MNT_SYNC_UMOUNT);
	}
	unlock_mount_hash(v);
	namespace_unlock_put(v, mnt, mp);
	return 0;
}

/* Models ksys_umount() + path_umount() + can_umount(). */
long sys_umount2(struct task *t, const char *name, int flags)
{
	unsigned int lookup_flags = 0;
	struct mount *mnt;
	struct path path;
	int ret;

	if (flags & ~(MNT_FORCE | MNT_DETACH | MNT_EXPIRE | UMOUNT_NOFOLLOW))
		return -EINVAL;
	if (!(flags & UMOUNT_NOFOLLOW))
		lookup_flags |= LOOKUP_FOLLOW;
	ret = user_path_at(t, AT_FDCWD, name, lookup_flags, &path, NULL);
	if (ret)
		return ret;
	mnt = real_mount(path.mnt);
	if (!capable(&t->cred))
		ret = -EPERM;
	else if (path.dentry != path.mnt->mnt_root)
		ret = -EINVAL;
	else if (!check_mnt(task_v(t), mnt))
		ret = -EINVAL;
	/* MNT_FORCE asks the filesystem's umount_begin: tmpfs has none. */
	if (!ret)
		ret = do_umount(t, mnt, flags);
	/* Not path_put(): its mntput() would clear the MNT_EXPIRE mark just set. */
	dput(task_v(t), path.dentry);
	mntput_no_expire(task_v(t), mnt);
	return ret;
}

long sys_umount(struct task *t, const char *name)
{
	return sys_umount2(t, name, 0);
}

/* ---- mount ---- */

/* Models tmpfs' option parser (shmem_parse_one()) for the options vfslab keeps. */
static int shmem_parse_options(const char *data, struct tmpfs_opts *o, const struct cred *cred)
{
	char buf[256], *opt, *save = NULL;

	o->size = 0;
	o->mode = S_ISVTX | S_IRWXUGO;
	o->uid = cred->fsuid;
	o->gid = cred->fsgid;
	if (!data)
		return 0;
	if (strlen(data) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, data);
	for (opt = strtok_r(buf, ",", &save); opt; opt = strtok_r(NULL, ",", &save)) {
		char *val = strchr(opt, '='), *end;
		unsigned long long n;

		if (!val)
			return -EINVAL;
		*val++ = '\0';
		n = strtoull(val, &end, !strcmp(opt, "mode") ? 8 : 0);
		if (end == val || (*end && strcmp(opt, "size")))
			return -EINVAL;
		if (!strcmp(opt, "size")) {
			const char *u = strchr("kmgt", *end | 0x20);

			if (*end && (!u || end[1]))
				return -EINVAL;
			if (*end)
				n <<= 10 * (u - "kmgt" + 1);
			o->size = n;
		} else if (!strcmp(opt, "mode")) {
			o->mode = n & 07777;
		} else if (!strcmp(opt, "uid")) {
			o->uid = n;
		} else if (!strcmp(opt, "gid")) {
			o->gid = n;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Models lock_mount(): go to the top of what is mounted on path (the new
 * mount goes over it); on success the mountpoint's inode_lock and
 * namespace_sem are held, so that an rmdir or unlink, which checks for
 * DCACHE_MOUNTED under the victim's inode_lock, cannot remove it before
 * the mount is attached. path's references move along.
 */
static int lock_mount(struct vfs *v, struct path *path)
{
	for (;;) {
		struct inode *inode = d_inode(v, path->dentry);
		struct vfsmount *m;

		inode_lock(inode);
		mutex_lock(&v->namespace_sem);
		if (unlikely(!IS_ROOT(v, path->dentry) && d_unhashed(v, path->dentry))) {
			mutex_unlock(&v->namespace_sem);
			inode_unlock(inode);
			return -ENOENT; /* cant_mount(): the directory was removed */
		}
		m = lookup_mnt(v, path);
		if (!m)
			return 0;
		mutex_unlock(&v->namespace_sem);
		inode_unlock(inode);
		path_put(v, path);
		path->mnt = m;
		path->dentry = dget(v, m->mnt_root);
	}
}

static void unlock_mount(struct vfs *v, const struct path *path)
{
	mutex_unlock(&v->namespace_sem);
	inode_unlock(d_inode(v, path->dentry));
}

/* Models count_mounts(): room in the namespace for mnt's tree, or ENOSPC. */
static int count_mounts(struct vfs *v, struct mnt_namespace *ns, struct mount *mnt)
{
	unsigned int n = tree_mounts(mnt);

	if (ns->mounts > v->cfg.mount_max || n > v->cfg.mount_max - ns->mounts)
		return -ENOSPC;
	ns->mounts += n;
	return 0;
}

/* Models graft_tree() + attach_recursive_mnt(): namespace_sem held. */
static int graft_tree(struct vfs *v, struct mount *mnt, const struct path *path)
{
	int err;

	if (d_is_dir(v, path->dentry) != d_is_dir(v, mnt->mnt.mnt_root))
		return -ENOTDIR;
	err = count_mounts(v, v->mnt_ns, mnt);
	if (err)
		return err;
	lock_mount_hash(v);
	set_ns_tree(mnt, v->mnt_ns);
	attach_mnt(v, mnt, real_mount(path->mnt), path->dentry);
	unlock_mount_hash(v);
	return 0;
}

/* Models do_new_mount() + do_add_mount() for tmpfs. */
static int do_new_mount(struct task *t, struct path *path, const char *fstype,
			unsigned long sb_flags, int mnt_flags, const char *data)
{
	struct vfs *v = task_v(t);
	struct tmpfs_opts o;
	struct super_block *sb;
	struct mount *mnt;
	int err;

	if (!fstype)
		return -EINVAL;
	if (strcmp(fstype, "tmpfs"))
		return -ENODEV; /* get_fs_type(): the one filesystem vfslab has */
	err = shmem_parse_options(data, &o, &t->cred);
	if (err)
		return err;
	sb = shmem_fill_super(v, &o);
	if (!sb)
		return -ENOMEM;
	if (sb_flags & SB_RDONLY)
		sb->s_flags |= SB_RDONLY;
	mnt = alloc_vfsmnt(v, sb, sb->s_root, mnt_flags);
	if (!mnt) {
		deactivate_super(sb);
		return -ENOMEM;
	}
	dget(v, sb->s_root);
	err = lock_mount(v, path);
	if (!err) {
		if (!check_mnt(v, real_mount(path->mnt)))
			err = -EINVAL;
		else
			err = graft_tree(v, mnt, path);
		unlock_mount(v, path);
	}
	if (err)
		mntput(v, &mnt->mnt);
	return err;
}

/* Models copy_tree(): clone old at root, with every submount below root. */
static struct mount *copy_tree(struct vfs *v, struct mount *old, struct dentry *root)
{
	struct mount *q = clone_mnt(v, old, root), *p;

	if (!q)
		return NULL;
	list_for_each_entry(p, &old->mnt_mounts, mnt_child) {
		struct mount *c;

		if (!is_subdir(v, p->mnt_mountpoint, root))
			continue;
		c = copy_tree(v, p, p->mnt.mnt_root);
		if (!c)
			break; /* ENOMEM: the copy keeps what it has */
		lock_mount_hash(v);
		attach_mnt(v, c, q, p->mnt_mountpoint);
		unlock_mount_hash(v);
	}
	return q;
}

/* Drop a copy never attached: its submounts go in cleanup_mnt(). */
static void drop_copy(struct vfs *v, struct mount *mnt)
{
	lock_mount_hash(v);
	umount_mark(mnt, MNT_UMOUNT);
	unlock_mount_hash(v);
	mntput(v, &mnt->mnt);
}

/* Models do_loopback(): MS_BIND, and with MS_REC the submounts too. */
static int do_loopback(struct task *t, struct path *path, const char *old_name, bool recurse)
{
	struct vfs *v = task_v(t);
	struct path old_path;
	struct mount *old, *mnt;
	int err;

	if (!old_name || !*old_name)
		return -EINVAL;
	err = user_path_at(t, AT_FDCWD, old_name, LOOKUP_FOLLOW, &old_path, NULL);
	if (err)
		return err;
	err = lock_mount(v, path);
	if (err)
		goto out;
	old = real_mount(old_path.mnt);
	err = -EINVAL;
	if (!check_mnt(v, real_mount(path->mnt)) || !check_mnt(v, old))
		goto out_unlock;
	err = -ENOMEM;
	mnt = recurse ? copy_tree(v, old, old_path.dentry) : clone_mnt(v, old, old_path.dentry);
	if (!mnt)
		goto out_unlock;
	err = graft_tree(v, mnt, path);
	if (err)
		drop_copy(v, mnt);
out_unlock:
	unlock_mount(v, path);
out:
	path_put(v, &old_path);
	return err;
}

/* Models sb_prepare_remount_readonly(): no mount of sb may hold write access. */
static bool sb_has_writers(struct vfs *v, struct super_block *sb)
{
	for (unsigned int i = 0; i < MNT_HASH_SIZE; i++) {
		struct mount *p;

		hlist_for_each_entry(p, &v->mount_hashtable[i], mnt_hash)
			if (p->mnt.mnt_sb == sb && mnt_get_writers(p))
				return true;
	}
	return sb == real_mount(v->root_mnt)->mnt.mnt_sb &&
	       mnt_get_writers(real_mount(v->root_mnt));
}

/* Models reconfigure_super() for tmpfs' read-only flag. namespace_sem held. */
static int reconfigure_super(struct vfs *v, struct super_block *sb, unsigned long sb_flags)
{
	if ((sb_flags & SB_RDONLY) && !sb_rdonly(sb)) {
		if (sb_has_writers(v, sb))
			return -EBUSY;
		WRITE_ONCE(sb->s_flags, sb->s_flags | SB_RDONLY);
	} else if (!(sb_flags & SB_RDONLY)) {
		WRITE_ONCE(sb->s_flags, sb->s_flags & ~SB_RDONLY);
	}
	return 0;
}

/* Models do_umount_root(): umount of the root remounts it read-only. */
static int do_umount_root(struct vfs *v, struct super_block *sb)
{
	int ret;

	mutex_lock(&v->namespace_sem);
	ret = reconfigure_super(v, sb, SB_RDONLY);
	mutex_unlock(&v->namespace_sem);
	return ret;
}

/* Models set_mount_attributes(): mount_lock held. */
static void set_mount_attributes(struct mount *mnt, int mnt_flags)
{
	WRITE_ONCE(mnt->mnt.mnt_flags, mnt_flags | (mnt->mnt.mnt_flags & ~MNT_USER_SETTABLE_MASK));
}

/* Models do_remount(): the superblock's flags and options, then the mount's. */
static int do_remount(struct task *t, struct path *path, unsigned long sb_flags, int mnt_flags,
		      const char *data)
{
	struct vfs *v = task_v(t);
	struct mount *mnt = real_mount(path->mnt);
	struct tmpfs_opts o;
	int err;

	if (!check_mnt(v, mnt) || path->dentry != path->mnt->mnt_root)
		return -EINVAL;
	err = shmem_parse_options(data, &o, &t->cred);
	if (err)
		return err;
	mutex_lock(&v->namespace_sem);
	err = reconfigure_super(v, path->mnt->mnt_sb, sb_flags);
	if (!err) {
		if (o.size)
			WRITE_ONCE(path->mnt->mnt_sb->s_max_bytes, o.size);
		lock_mount_hash(v);
		set_mount_attributes(mnt, mnt_flags);
		unlock_mount_hash(v);
	}
	mutex_unlock(&v->namespace_sem);
	return err;
}

/* Models do_reconfigure_mnt(): MS_BIND|MS_REMOUNT changes this mount only. */
static int do_reconfigure_mnt(struct task *t, struct path *path, int mnt_flags)
{
	struct vfs *v = task_v(t);
	struct mount *mnt = real_mount(path->mnt);
	int ret = 0;

	if (!check_mnt(v, mnt) || path->dentry != path->mnt->mnt_root)
		return -EINVAL;
	mutex_lock(&v->namespace_sem);
	lock_mount_hash(v);
	/* change_mount_ro_state() */
	if ((mnt_flags & MNT_READONLY) && !(mnt->mnt.mnt_flags & MNT_READONLY))
		ret = mnt_make_readonly(mnt);
	if (!ret)
		set_mount_attributes(mnt, mnt_flags);
	unlock_mount_hash(v);
	mutex_unlock(&v->namespace_sem);
	return ret;
}

/*
 * Models do_change_type()'s checks: a mount's root, one propagation type.
 * vfslab has no propagation: every mount is private, so nothing changes.
 */
static int do_change_type(const struct path *path, unsigned long ms_flags)
{
	unsigned long type = ms_flags & ~(unsigned long)(MS_REC | MS_SILENT);

	if (path->dentry != path->mnt->mnt_root)
		return -EINVAL;
	if (type & ~(unsigned long)(MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE))
		return -EINVAL;
	if (type & (type - 1))
		return -EINVAL;
	return 0;
}

/* Models path_mount(): split the flags, then the one operation they name. */
static int path_mount(struct task *t, const char *dev_name, struct path *path, const char *type,
		      unsigned long flags, const char *data)
{
	int mnt_flags = 0;
	unsigned long sb_flags;

	if ((flags & MS_MGC_MSK) == MS_MGC_VAL)
		flags &= ~MS_MGC_MSK;
	if (flags & MS_NOUSER)
		return -EINVAL;
	if (!capable(&t->cred))
		return -EPERM;
	if (!(flags & MS_NOATIME))
		mnt_flags |= MNT_RELATIME;
	if (flags & MS_NOSUID)
		mnt_flags |= MNT_NOSUID;
	if (flags & MS_NODEV)
		mnt_flags |= MNT_NODEV;
	if (flags & MS_NOEXEC)
		mnt_flags |= MNT_NOEXEC;
	if (flags & MS_NOATIME)
		mnt_flags |= MNT_NOATIME;
	if (flags & MS_NODIRATIME)
		mnt_flags |= MNT_NODIRATIME;
	if (flags & MS_STRICTATIME)
		mnt_flags &= ~(MNT_RELATIME | MNT_NOATIME);
	if (flags & MS_RDONLY)
		mnt_flags |= MNT_READONLY;
	if (flags & MS_NOSYMFOLLOW)
		mnt_flags |= MNT_NOSYMFOLLOW;
	/* A remount that names no atime flag keeps the mount's. */
	if ((flags & MS_REMOUNT) &&
	    !(flags & (MS_NOATIME | MS_NODIRATIME | MS_RELATIME | MS_STRICTATIME))) {
		mnt_flags &= ~MNT_ATIME_MASK;
		mnt_flags |= READ_ONCE(path->mnt->mnt_flags) & MNT_ATIME_MASK;
	}
	sb_flags = flags & MS_RDONLY ? SB_RDONLY : 0;

	if ((flags & (MS_REMOUNT | MS_BIND)) == (MS_REMOUNT | MS_BIND))
		return do_reconfigure_mnt(t, path, mnt_flags);
	if (flags & MS_REMOUNT)
		return do_remount(t, path, sb_flags, mnt_flags, data);
	if (flags & MS_BIND)
		return do_loopback(t, path, dev_name, flags & MS_REC);
	if (flags & (MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE))
		return do_change_type(path, flags);
	if (flags & MS_MOVE)
		return -EINVAL; /* do_move_mount_old(): not modelled */
	return do_new_mount(t, path, type, sb_flags, mnt_flags, data);
}

/* Models do_mount(): the mountpoint is looked up first, following links. */
long sys_mount(struct task *t, const char *dev_name, const char *dir_name, const char *type,
	       unsigned long flags, const void *data)
{
	struct path path;
	int ret;

	ret = user_path_at(t, AT_FDCWD, dir_name, LOOKUP_FOLLOW, &path, NULL);
	if (ret)
		return ret;
	ret = path_mount(t, dev_name, &path, type, flags, data);
	path_put(task_v(t), &path);
	return ret;
}

/* ---- the instance's namespace ---- */

/* Models mnt_init() + init_mount_tree(): the root tmpfs and its mount. */
int mnt_init(struct vfs *v, char *err, size_t errlen)
{
	struct tmpfs_opts o = { .mode = S_ISVTX | S_IRWXUGO };
	struct super_block *sb;
	struct mount *root;

	seqlock_init(&v->mount_lock);
	mutex_init(&v->namespace_sem);
	v->next_anon_minor = ROOT_ANON_MINOR;
	v->mount_hashtable = calloc(MNT_HASH_SIZE, sizeof(*v->mount_hashtable));
	v->mnt_ns = calloc(1, sizeof(*v->mnt_ns));
	if (!v->mount_hashtable || !v->mnt_ns)
		goto nomem;
	sb = shmem_fill_super(v, &o);
	if (!sb)
		goto nomem;
	root = alloc_vfsmnt(v, sb, sb->s_root, MNT_RELATIME);
	if (!root) {
		deactivate_super(sb);
		goto nomem;
	}
	dget(v, sb->s_root);
	root->mnt_ns = v->mnt_ns;
	v->mnt_ns->root = root;
	v->mnt_ns->mounts = 1;
	v->root_mnt = &root->mnt;
	v->root = sb->s_root;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	free(v->mount_hashtable);
	free(v->mnt_ns);
	return -1;
}

/* Take every mount down; every task has exited. */
void mnt_fini(struct vfs *v)
{
	struct mount *root = v->mnt_ns->root, *p;

	mutex_lock(&v->namespace_sem);
	while (!list_empty(&root->mnt_mounts)) {
		struct dentry *mp;

		p = list_first_entry(&root->mnt_mounts, struct mount, mnt_child);
		lock_mount_hash(v);
		mp = umount_tree(v, p, 0);
		unlock_mount_hash(v);
		namespace_unlock_put(v, p, mp);
		mutex_lock(&v->namespace_sem);
	}
	lock_mount_hash(v);
	umount_mark(root, MNT_UMOUNT);
	unlock_mount_hash(v);
	mutex_unlock(&v->namespace_sem);
	synchronize_rcu();
	/* Every task has gone: whatever is left on the LRU goes now. */
	shrink_dcache_lru(v, 0);
	mntput(v, &root->mnt);
	rcu_barrier();
	free(v->mount_hashtable);
	free(v->mnt_ns);
}
