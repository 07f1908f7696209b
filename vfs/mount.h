/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Mounts: struct mount with its embedded vfsmount, the mount hash and the
 * namespace. Models include/linux/mount.h and fs/mount.h.
 *
 * A mount attaches a (super_block, root dentry) pair at a mountpoint
 * dentry of its parent mount. The hash, keyed by (parent mount,
 * mountpoint dentry), is what __follow_mount_rcu() asks when a walk steps
 * onto a dentry marked DCACHE_MOUNTED. The hash and the tree change under
 * mount_lock, a seqlock RCU walk samples into nd->m_seq and re-checks at
 * every crossing and in __legitimize_mnt().
 *
 * mnt_count is per CPU (mnt-count=percpu, the kernel's mnt_pcp): a mount
 * in the namespace is never freed, so mntget/mntput only add to the
 * caller's slot. Only a mount taken out of the namespace (mnt_ns NULL)
 * sums the slots, under mount_lock, to find its last reference.
 * mnt-count=atomic keeps one shared counter instead, to show why.
 *
 * The slots are indexed by arch_cpu_id() (a live thread natively, a
 * virtual CPU on the simulator), each on its own cache line as a per-CPU
 * area would be. A CPU owns its slot, so adding is a plain load and store,
 * the kernel's this_cpu_add(); a thread without a CPU number adds
 * atomically to one shared extra slot.
 */
#ifndef VFSLAB_VFS_MOUNT_H
#define VFSLAB_VFS_MOUNT_H

#include <sys/mount.h>

#include "lib/arch.h"
#include "vfs/internal.h"

#ifndef MS_NOSYMFOLLOW
#define MS_NOSYMFOLLOW 256
#endif

/* mnt_flags, include/linux/mount.h */
#define MNT_NOSUID 0x01
#define MNT_NODEV 0x02
#define MNT_NOEXEC 0x04
#define MNT_NOATIME 0x08
#define MNT_NODIRATIME 0x10
#define MNT_RELATIME 0x20
#define MNT_READONLY 0x40
#define MNT_NOSYMFOLLOW 0x80
#define MNT_ATIME_MASK (MNT_NOATIME | MNT_NODIRATIME | MNT_RELATIME)
#define MNT_USER_SETTABLE_MASK                                                               \
	(MNT_NOSUID | MNT_NODEV | MNT_NOEXEC | MNT_NOATIME | MNT_NODIRATIME | MNT_RELATIME | \
	 MNT_READONLY | MNT_NOSYMFOLLOW)
#define MNT_WRITE_HOLD 0x200
#define MNT_DOOMED 0x1000000
#define MNT_SYNC_UMOUNT 0x2000000
#define MNT_UMOUNT 0x8000000

struct vfsmount {
	struct dentry *mnt_root; /* the root of the mounted tree */
	struct super_block *mnt_sb;
	int mnt_flags;
};

struct mnt_namespace {
	struct mount *root;
	unsigned int mounts; /* with mnt_ns here; fs.mount-max bounds it (count_mounts()) */
};

/* One CPU's counts, the kernel's struct mnt_pcp. */
struct mnt_pcp {
	long mnt_count;
	long mnt_writers; /* files open for write: mnt_get_write_access() */
} __cacheline_aligned;

/* Slots: one per CPU number, and one shared by threads without a number. */
#define MNT_PCP_SLOTS (ARCH_NR_CPUS + 1)

struct mount {
	struct hlist_node mnt_hash; /* in the mount hash, under mount_lock */
	struct mount *mnt_parent; /* itself for the namespace root */
	struct dentry *mnt_mountpoint;
	struct vfsmount mnt;
	struct mnt_pcp *mnt_pcp; /* MNT_PCP_SLOTS */
	bool mnt_count_atomic; /* mnt-count=atomic: mnt_count below, not mnt_pcp's */
	atomic_long_t mnt_count;
	struct list_head mnt_mounts; /* children, under mount_lock */
	struct list_head mnt_child; /* in the parent's mnt_mounts */
	struct mnt_namespace *mnt_ns; /* NULL once unmounted */
	atomic_t mnt_expiry_mark; /* umount2(MNT_EXPIRE) asked; any mntput clears it */
	int mnt_id;
	struct rcu_head mnt_rcu;
};

static inline struct mount *real_mount(const struct vfsmount *mnt)
{
	return container_of(mnt, struct mount, mnt);
}

/* RCU walkers read the tree while umount changes it under mount_lock. */
static inline bool mnt_has_parent(const struct mount *mnt)
{
	return mnt != READ_ONCE(mnt->mnt_parent);
}

static inline bool d_mountpoint(const struct vfs *v, const struct dentry *d)
{
	return d_flags(v, d) & DCACHE_MOUNTED;
}

/* mount_lock's read side; a walk samples it at an even value, as the kernel's */
static inline unsigned int mount_seq_begin(const struct vfs *v)
{
	return read_seqbegin(&v->mount_lock);
}

static inline bool mount_seq_retry(const struct vfs *v, unsigned int seq)
{
	return read_seqretry(&v->mount_lock, seq);
}

struct mount *__lookup_mnt(struct vfs *v, const struct vfsmount *mnt, const struct dentry *d);
struct vfsmount *lookup_mnt(struct vfs *v, const struct path *path);
int __legitimize_mnt(struct vfs *v, struct vfsmount *mnt, unsigned int seq);
bool choose_mountpoint_rcu(struct vfs *v, struct mount *m, const struct path *root,
			   struct path *path, unsigned int *seqp);
bool choose_mountpoint(struct vfs *v, struct mount *m, const struct path *root, struct path *path);
long mnt_get_count(struct vfs *v, struct mount *mnt);
long mnt_get_writers(const struct mount *mnt);
bool __mnt_is_readonly(const struct vfsmount *mnt);
int mnt_want_write(const struct vfsmount *mnt);
int mnt_get_write_access(struct vfs *v, struct vfsmount *mnt);
void mnt_put_write_access(struct vfs *v, struct vfsmount *mnt);
bool path_is_under(struct vfs *v, const struct path *p1, const struct path *p2);

int mnt_init(struct vfs *v, char *err, size_t errlen);
void mnt_fini(struct vfs *v);
void put_super(struct super_block *sb);

#endif /* VFSLAB_VFS_MOUNT_H */
