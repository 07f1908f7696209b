/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Declarations shared by the files of vfs/ (the kernel's fs/internal.h).
 *
 * struct dentry, struct file and struct files_struct have no C definition:
 * each VFS instance lays them out at run time (vfs/layout.h), and code
 * reaches a field through a generated accessor, dentry_lockref(vfs, d),
 * which is one add of an offset the instance keeps in its first cache line.
 * The other objects (inode, task, fdtable) are ordinary structs.
 */
#ifndef VFSLAB_VFS_INTERNAL_H
#define VFSLAB_VFS_INTERNAL_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "lib/atomic.h"
#include "lib/bitmap.h"
#include "lib/compiler.h"
#include "lib/err.h"
#include "lib/file_ref.h"
#include "lib/hlist_bl.h"
#include "lib/list.h"
#include "lib/lockref.h"
#include "lib/mutex.h"
#include "lib/page_alloc.h"
#include "lib/rcu.h"
#include "lib/rwsem.h"
#include "lib/seqlock.h"
#include "lib/slab.h"
#include "lib/spinlock.h"
#include "lib/stats.h"
#include "vfs/layout.h"
#include "vfs/phase.h"
#include "vfs/vfs.h"

typedef unsigned short umode_t;

/* include/linux/stat.h */
#define S_IRWXUGO (S_IRWXU | S_IRWXG | S_IRWXO)
#define S_IALLUGO (S_ISUID | S_ISGID | S_ISVTX | S_IRWXUGO)
#define S_IXUGO (S_IXUSR | S_IXGRP | S_IXOTH)

struct dentry; /* laid out at run time */
struct file; /* laid out at run time */
struct files_struct; /* laid out at run time */
struct inode;
struct file_operations;
struct file_lock_context; /* never allocated: vfslab has no file locks */

/* include/linux/dcache.h */
struct qstr {
	union {
		struct {
			uint32_t hash;
			uint32_t len;
		};
		uint64_t hash_len;
	};
	const unsigned char *name;
};
#define hashlen_create(hash, len) ((uint64_t)(len) << 32 | (uint32_t)(hash))
#define hashlen_hash(hl) ((uint32_t)(hl))
#define hashlen_len(hl) ((uint32_t)((hl) >> 32))

/* fs/dcache.c: log2 of the in-lookup hash's buckets */
#define IN_LOOKUP_SHIFT 10

struct vfsmount; /* vfs/mount.h */

/* include/linux/path.h: a place in the namespace, a mount and a dentry on it. */
struct path {
	struct vfsmount *mnt;
	struct dentry *dentry;
};

/*
 * include/linux/fs.h's super_block, what vfslab needs of it: each tmpfs
 * instance (the root, or one mount(2) made) has its own, with its own
 * device number and size accounting. Inodes pin it through s_count, so
 * the RCU-deferred inode frees may still reach s_vfs after the last umount.
 */
#define SB_RDONLY 0x1ul
struct super_block {
	struct vfs *s_vfs;
	dev_t s_dev;
	unsigned long s_flags; /* SB_RDONLY; written under namespace_sem */
	struct dentry *s_root;
	atomic_t s_active; /* mounts of this sb */
	unsigned long long s_max_bytes; /* tmpfs size=; 0: the instance's tmpfs-size */
	/*
	 * 1 while active, + 1 per inode: every new_inode() and inode free
	 * writes it, as the kernel's inode_sb_list_add()/del() take
	 * s_inode_list_lock, which is ____cacheline_aligned_in_smp; so is
	 * this, or every create and unlink would take s_flags' line from
	 * readers (on a 128-byte-line machine, as there, half a line apart).
	 */
	atomic_t s_count __cacheline_aligned;
	/* tmpfs' used_blocks: the pages files hold, against size= (vfs/shmem.c). */
	atomic_long_t shmem_pages __cacheline_aligned;
};

static inline bool sb_rdonly(const struct super_block *sb)
{
	return READ_ONCE(sb->s_flags) & SB_RDONLY;
}

/*
 * A task's credentials. The kernel shares one struct cred between a parent
 * and its fork until one of them changes it; vfslab copies them and keeps
 * that identity as id (same id = the kernel's same cred pointer).
 */
struct cred {
	unsigned long id;
	uid_t uid, euid, fsuid;
	gid_t gid, egid, fsgid;
	int ngroups;
	gid_t groups[TASK_NGROUPS_MAX];
};

/* include/linux/fdtable.h */
struct fdtable {
	unsigned int max_fds;
	struct file **fd;
	unsigned long *close_on_exec;
	unsigned long *open_fds;
	unsigned long *full_fds_bits;
	struct rcu_head rcu;
};
#define NR_OPEN_DEFAULT BITS_PER_LONG

/*
 * An instance: superblock, dcache and caches. The layouts come first, so
 * the accessors' offsets share a read-mostly line with the config.
 */
struct vfs {
	struct layout dl; /* struct dentry */
	struct layout fl; /* struct file */
	struct layout sl; /* struct files_struct */
	struct vfs_config cfg;
	unsigned int dname_inline_len; /* DNAME_INLINE_LEN of this layout */
	const char *variant_name;

	struct kmem_cache *dentry_cache;
	struct kmem_cache *inode_cache;
	struct kmem_cache *file_cache;
	struct kmem_cache *files_cache;
	struct kmem_cache *fs_cache;
	struct kmem_cache *task_cache;
	struct page_zone *page_zone; /* shmem's pages */

	struct hlist_bl_head *d_hash_table;
	unsigned int d_hash_shift;
	struct dentry *root; /* the root tmpfs' root dentry */
	struct vfsmount *root_mnt; /* the namespace's root mount */

	/* rename_lock: the global seqlock RCU walk snapshots. */
	seqlock_t rename_lock __cacheline_aligned;
	struct mutex s_vfs_rename_mutex;

	/* The unused-dentry LRU and its shrinker bound. */
	spinlock_t lru_lock __cacheline_aligned;
	struct list_head lru;
	unsigned long nr_unused;

	/* Tasks, for pids and teardown. */
	spinlock_t task_lock __cacheline_aligned;
	struct list_head tasks;
	int next_pid;
	unsigned long next_ino;
	unsigned long next_cred_id;

	/* vfs_kill_waiters() moves it: calls blocked before (fifos) end, EINTR. */
	unsigned int kill_gen;

	/*
	 * in_lookup_hashtable: dentries d_alloc_parallel() handed to a lookup
	 * still running, keyed by (parent, name). lookup_waits counts the
	 * lookups that found one and waited for it instead of calling ->lookup.
	 */
	struct hlist_bl_head in_lookup_hashtable[1u << IN_LOOKUP_SHIFT] __cacheline_aligned;
	atomic_long_t lookup_waits;

	/* The state of /dev/random and /dev/urandom's stream (vfs/mem_devs.c). */
	atomic_long_t mem_random;

	/*
	 * mount_lock: the seqlock over the mount hash and tree that RCU walk
	 * samples (nd->m_seq); namespace_sem serializes mount and umount.
	 */
	seqlock_t mount_lock __cacheline_aligned;
	struct hlist_head *mount_hashtable;
	struct mutex namespace_sem;
	struct mnt_namespace *mnt_ns;
	int next_mnt_id;
	unsigned int next_anon_minor;
};

/* ---- run-time layout accessors ---- */

#define LAYOUT_PTR(base, off) ((void *)((char *)(base) + (off)))

#define FIELD_dentry(name, acc, type, size, align, access)                            \
	static inline type *dentry_##acc(const struct vfs *v, const struct dentry *d) \
	{                                                                             \
		return LAYOUT_PTR(d, v->dl.off[DENTRY_F_##name]);                     \
	}
#include "vfs/layout_fields.def"

#define FIELD_file(name, acc, type, size, align, access)                          \
	static inline type *file_##acc(const struct vfs *v, const struct file *f) \
	{                                                                         \
		return LAYOUT_PTR(f, v->fl.off[FILE_F_##name]);                   \
	}
#include "vfs/layout_fields.def"

#define FIELD_files_struct(name, acc, type, size, align, access)                            \
	static inline type *files_##acc(const struct vfs *v, const struct files_struct *fs) \
	{                                                                                   \
		return LAYOUT_PTR(fs, v->sl.off[FILES_F_##name]);                           \
	}
#include "vfs/layout_fields.def"

/* Each field's C type fits the slot every layout gives it. */
#define FIELD_dentry(name, acc, type, size, align, access) \
	_Static_assert(sizeof(type) <= (size) && _Alignof(type) <= (align), #name);
#define FIELD_file(name, acc, type, size, align, access) \
	_Static_assert(sizeof(type) <= (size) && _Alignof(type) <= (align), #name);
#define FIELD_files_struct(name, acc, type, size, align, access) \
	_Static_assert(sizeof(type) <= (size) && _Alignof(type) <= (align), #name);
#include "vfs/layout_fields.def"

/* ---- dentries: vfs/dcache.c ---- */

/* d_flags: DCACHE_* in vfs/vfs.h */

static inline unsigned int d_flags(const struct vfs *v, const struct dentry *d)
{
	return READ_ONCE(*dentry_flags(v, d));
}

static inline unsigned int __d_entry_type(const struct vfs *v, const struct dentry *d)
{
	return d_flags(v, d) & DCACHE_ENTRY_TYPE;
}

/* A copy of d_flags says negative (include/linux/dcache.h's d_flags_negative()). */
static inline bool d_flags_negative(unsigned int flags)
{
	return (flags & DCACHE_ENTRY_TYPE) == DCACHE_MISS_TYPE;
}

static inline bool d_is_miss(const struct vfs *v, const struct dentry *d)
{
	return d_flags_negative(d_flags(v, d));
}
#define d_is_negative d_is_miss
#define d_is_positive(v, d) (!d_is_negative(v, d))

static inline bool d_is_dir(const struct vfs *v, const struct dentry *d)
{
	return __d_entry_type(v, d) == DCACHE_DIRECTORY_TYPE;
}

static inline bool d_can_lookup(const struct vfs *v, const struct dentry *d)
{
	return d_is_dir(v, d);
}

static inline bool d_is_symlink(const struct vfs *v, const struct dentry *d)
{
	return __d_entry_type(v, d) == DCACHE_SYMLINK_TYPE;
}

/*
 * d_flags changes under d_lock while RCU walkers read it locklessly: the
 * kernel's plain "d_flags |= X" with d_lock held, as one relaxed load and
 * store so that the model has no plain/atomic races.
 */
static inline void d_flags_set(const struct vfs *v, struct dentry *d, unsigned int bits)
{
	WRITE_ONCE(*dentry_flags(v, d), READ_ONCE(*dentry_flags(v, d)) | bits);
}

static inline void d_flags_clear(const struct vfs *v, struct dentry *d, unsigned int bits)
{
	WRITE_ONCE(*dentry_flags(v, d), READ_ONCE(*dentry_flags(v, d)) & ~bits);
}

static inline bool d_is_reg(const struct vfs *v, const struct dentry *d)
{
	return __d_entry_type(v, d) == DCACHE_REGULAR_TYPE;
}

/* d_inode can change under d_lock while a holder of a reference reads it. */
static inline struct inode *d_inode(const struct vfs *v, const struct dentry *d)
{
	return READ_ONCE(*dentry_inode(v, d));
}

/*
 * The RCU-walk read of d_inode: a consume load pairing with the release in
 * __d_set_inode_and_type(), so the walker sees the new inode's fields.
 */
static inline struct inode *d_inode_rcu(const struct vfs *v, const struct dentry *d)
{
	return __atomic_load_n(dentry_inode(v, d), __ATOMIC_CONSUME);
}

/* The dentry a d_children list node belongs to (hlist_entry on d_sib). */
static inline struct dentry *d_from_sib(const struct vfs *v, const struct hlist_node *n)
{
	return (struct dentry *)((char *)n - v->dl.off[DENTRY_F_d_sib]);
}

static inline struct dentry *d_parent(const struct vfs *v, const struct dentry *d)
{
	return READ_ONCE(*dentry_parent(v, d));
}

static inline bool d_unhashed(const struct vfs *v, const struct dentry *d)
{
	return hlist_bl_unhashed(dentry_hash(v, d));
}

static inline bool IS_ROOT(const struct vfs *v, const struct dentry *d)
{
	return d == d_parent(v, d);
}

static inline int d_count(const struct vfs *v, const struct dentry *d)
{
	return READ_ONCE(dentry_lockref(v, d)->count);
}

static inline spinlock_t *d_lock(const struct vfs *v, const struct dentry *d)
{
	return &dentry_lockref(v, d)->lock;
}

struct dentry *d_alloc(struct vfs *v, struct dentry *parent, const struct qstr *name);
struct dentry *d_make_root(struct vfs *v, struct inode *inode);
unsigned int d_flags_for_inode(const struct inode *inode);
void d_instantiate(struct vfs *v, struct dentry *d, struct inode *inode);
void d_add(struct vfs *v, struct dentry *d, struct inode *inode);

/*
 * The wait queue head a lookup_slow() puts on its stack for
 * d_alloc_parallel(): a dentry in lookup points at it (d_wait). vfslab
 * sleeps by yielding, so a waiter polls its dentry's DCACHE_PAR_LOOKUP
 * rather than sleeping on the queue; the queue counts who queued, under
 * the dentry's d_lock, and the wake-up adds them to vfs->lookup_waits.
 */
struct lookup_wq {
	unsigned int waiters;
};

struct dentry *d_alloc_parallel(struct vfs *v, struct dentry *parent, const struct qstr *name,
				struct lookup_wq *wq);
void d_lookup_done(struct vfs *v, struct dentry *d);

static inline bool d_in_lookup(const struct vfs *v, const struct dentry *d)
{
	return d_flags(v, d) & DCACHE_PAR_LOOKUP;
}
void d_delete(struct vfs *v, struct dentry *d);
void d_drop(struct vfs *v, struct dentry *d);
void d_rehash_locked(struct vfs *v, struct dentry *d);
void d_move(struct vfs *v, struct dentry *d, struct dentry *target);
void d_exchange(struct vfs *v, struct dentry *d1, struct dentry *d2);
struct dentry *dget(struct vfs *v, struct dentry *d);
struct dentry *dget_parent(struct vfs *v, struct dentry *d);
void dput(struct vfs *v, struct dentry *d);
bool d_get_not_dead(struct vfs *v, struct dentry *d);
struct dentry *__d_lookup_rcu(struct vfs *v, const struct dentry *parent, const struct qstr *name,
			      unsigned int *seqp);
struct dentry *d_lookup(struct vfs *v, const struct dentry *parent, const struct qstr *name);
void shrink_dcache_lru(struct vfs *v, unsigned long target);
unsigned int d_name_len(struct vfs *v, const struct dentry *d);
void dcache_init(struct vfs *v);
void dcache_fini(struct vfs *v);
void d_genocide_root(struct vfs *v, struct dentry *root);
int d_path_name(struct vfs *v, const struct path *path, char *buf, size_t len);

/* tmpfs' directory offsets (vfs/readdir.c) */
void simple_offset_add(struct vfs *v, struct inode *dir, struct dentry *d);
void simple_offset_rename(struct vfs *v, struct inode *new_dir, struct dentry *old_dentry,
			  struct dentry *target);
void simple_offset_rename_exchange(struct vfs *v, struct dentry *a, struct dentry *b);
long long offset_dir_llseek(struct vfs *v, struct file *f, long long offset, int whence);

/* fs/namei.c's name hash, salted with the parent pointer */
uint32_t full_name_hash(const void *salt, const char *name, unsigned int len);

/* vfs/namespace.c */
struct vfsmount *mntget(struct vfs *v, struct vfsmount *mnt);
void mntput(struct vfs *v, struct vfsmount *mnt);

/* Models path_get()/path_put(): both the mount's and the dentry's reference. */
static inline void path_get(struct vfs *v, const struct path *p)
{
	mntget(v, p->mnt);
	dget(v, p->dentry);
}

static inline void path_put(struct vfs *v, const struct path *p)
{
	dput(v, p->dentry);
	mntput(v, p->mnt);
}

static inline bool path_equal(const struct path *a, const struct path *b)
{
	return a->dentry == b->dentry && a->mnt == b->mnt;
}

/* ---- inodes and the in-memory fs: vfs/inode.c, vfs/shmem.c ---- */

struct shmem_pages;
struct pipe_inode_info;
struct unix_sock;

struct inode {
	umode_t i_mode;
	uid_t i_uid;
	gid_t i_gid;
	unsigned int i_flags;
	unsigned int i_nlink;
	dev_t i_rdev;
	unsigned long i_ino;
	struct super_block *i_sb;
	const char *i_link; /* symlink body, immutable, RCU-freed */
	atomic_t i_count;
	spinlock_t i_lock; /* i_size, times, attributes */
	long long i_size;
	unsigned long i_blocks; /* 512-byte units of pages held (tmpfs) */
	struct timespec i_atime, i_mtime, i_ctime;
	struct rw_semaphore i_rwsem; /* inode_lock(): namespace and write */
	unsigned int i_dir_seq; /* odd while an in-lookup dentry joins the dcache */
	unsigned long i_dir_offset; /* next stable readdir offset (dirs) */
	struct shmem_pages *i_pages; /* file data, RCU-published */
	struct pipe_inode_info *i_pipe; /* fifos */
	struct unix_sock *i_socket; /* the socket bound here (sockets), i_lock */
	/*
	 * The file-lock context (POSIX locks, flock, leases). vfslab has no
	 * file locks, so it is always NULL; filp_flush() reads it, as
	 * locks_remove_posix() does on every close, and stops there.
	 */
	struct file_lock_context *i_flctx;
	struct rcu_head i_rcu;
};

/*
 * The salt of names under parent (whose inode is dir): the parent's address,
 * as the kernel's, so it differs run to run under ASLR; with hash-salt=N,
 * N and dir's inode number (times the 64-bit golden ratio), the same in
 * every run. Inline: link_path_walk() asks once a component.
 */
static inline const void *name_hash_salt(const struct vfs *v, const struct dentry *parent,
					 const struct inode *dir)
{
	if (likely(!v->cfg.hash_salt_fixed))
		return parent;
	return (const void *)(uintptr_t)((v->cfg.hash_salt + dir->i_ino) * 0x61C8864680B583EBull);
}

#define S_DEAD 0x1u /* removed directory */
#define I_LINKABLE 0x2u /* O_TMPFILE inode linkat() may link */

static inline void inode_lock(struct inode *inode)
{
	down_write(&inode->i_rwsem);
}

static inline void inode_unlock(struct inode *inode)
{
	up_write(&inode->i_rwsem);
}

static inline void inode_lock_shared(struct inode *inode)
{
	down_read(&inode->i_rwsem);
}

static inline void inode_unlock_shared(struct inode *inode)
{
	up_read(&inode->i_rwsem);
}

/* MAY_* of include/linux/fs.h */
#define MAY_EXEC 0x00000001
#define MAY_WRITE 0x00000002
#define MAY_READ 0x00000004
#define MAY_APPEND 0x00000008
#define MAY_ACCESS 0x00000010
#define MAY_OPEN 0x00000020
#define MAY_NOT_BLOCK 0x00000080

struct inode *new_inode(struct super_block *sb, const struct cred *cred, const struct inode *dir,
			umode_t mode, dev_t rdev);
void ihold(struct inode *inode);
void iput(struct inode *inode);
int generic_permission(const struct cred *cred, const struct inode *inode, int mask);
bool in_group_p(const struct cred *cred, gid_t gid);
bool inode_owner_or_capable(const struct cred *cred, const struct inode *inode);
static inline bool capable(const struct cred *cred)
{
	return cred->euid == 0;
}
static inline bool fs_capable(const struct cred *cred)
{
	return cred->fsuid == 0;
}
void inode_touch(struct inode *inode, bool m, bool c);
/* fs/inode.c's atime: relatime unless the mount says otherwise */
bool atime_needs_update(const struct path *path, const struct inode *inode);
void touch_atime(const struct path *path);
void file_accessed(struct vfs *v, struct file *f);

/*
 * Timestamps change under i_lock and stat reads them without it, as the
 * kernel's generic_fillattr() does (a torn pair is possible there too): one
 * relaxed access per word, so the model has no plain data races.
 */
static inline void inode_set_time(struct timespec *t, struct timespec ts)
{
	WRITE_ONCE(t->tv_sec, ts.tv_sec);
	WRITE_ONCE(t->tv_nsec, ts.tv_nsec);
}

static inline struct timespec inode_get_time(const struct timespec *t)
{
	return (struct timespec){ .tv_sec = READ_ONCE(t->tv_sec),
				  .tv_nsec = READ_ONCE(t->tv_nsec) };
}
umode_t should_remove_privs(const struct cred *cred, const struct inode *inode);
void remove_privs(const struct cred *cred, struct inode *inode);
void current_time(struct timespec *ts);
void inode_fill_stat(const struct inode *inode, struct stat *st);

/* regular-file data (vfs/shmem.c) */
/* The zone an instance's file pages come from (vfs_new()). */
struct page_zone *shmem_zone_create(void);
long shmem_read(struct inode *inode, void *buf, size_t count, long long pos);
long shmem_write(struct inode *inode, const void *buf, size_t count, long long pos);
int shmem_setsize(struct inode *inode, long long size);
int shmem_fallocate(const struct cred *cred, struct inode *inode, long long off, long long len);
long long shmem_seek_hole_data(struct inode *inode, long long offset, int whence);
void shmem_evict(struct inode *inode);
int shmem_symlink_body(struct inode *inode, const char *target);
int fifo_open(struct inode *inode, unsigned int fmode, unsigned int flags);

/* ---- struct file: vfs/file_table.c ---- */

/* f_mode, include/linux/fs.h */
#define FMODE_READ 0x1u
#define FMODE_WRITE 0x2u
#define FMODE_LSEEK 0x4u
#define FMODE_PREAD 0x8u
#define FMODE_PWRITE 0x10u
#define FMODE_ATOMIC_POS 0x8000u
#define FMODE_PATH 0x4000u
#define FMODE_WRITER 0x10000u /* holds mnt_get_write_access() */
#define FMODE_CAN_READ 0x20000u
#define FMODE_CAN_WRITE 0x40000u
#define FMODE_OPENED 0x80000u
#define FMODE_CREATED 0x100000u
#define FMODE_STREAM 0x200000u
#define FMODE_CAN_ODIRECT 0x400000u

struct file_operations {
	long (*read)(struct vfs *v, struct file *f, void *buf, size_t n, long long *pos);
	long (*write)(struct vfs *v, struct file *f, const void *buf, size_t n, long long *pos);
	bool iterate_shared; /* a directory: fdget_pos always locks */
	void (*release)(struct vfs *v, struct file *f);
	/*
	 * ->flush(file, fl_owner_t id), run by filp_flush() on every close of
	 * an fd. NULL in every vfslab file system (tmpfs has none either); the
	 * tests set one.
	 */
	int (*flush)(struct vfs *v, struct file *f, struct files_struct *id);
	/* ->llseek: NULL for generic_file_llseek(); the mem devices have their own. */
	long long (*llseek)(struct vfs *v, struct file *f, long long offset, int whence);
};

extern const struct file_operations shmem_file_operations;
extern const struct file_operations shmem_dir_operations;
extern const struct file_operations fifo_operations;
extern const struct file_operations socket_file_ops;
extern const struct file_operations path_operations;
const struct file_operations *chrdev_fops(dev_t rdev); /* vfs/mem_devs.c */

struct file *alloc_file(struct vfs *v, const struct path *path, unsigned int flags,
			const struct file_operations *fop, const struct cred *cred);
bool file_get_rcu(struct vfs *v, struct file *f); /* fget's refcount step */
void get_file(struct vfs *v, struct file *f);
void fput(struct vfs *v, struct file *f);
void fput_close(struct vfs *v, struct file *f);
unsigned long file_count(struct vfs *v, struct file *f);
bool file_needs_f_pos_lock(struct vfs *v, struct file *f);
int filp_flush(struct vfs *v, struct file *f, struct files_struct *id); /* vfs/open.c */
int filp_close(struct vfs *v, struct file *f, struct files_struct *id);

/* include/linux/errno.h: ->flush's restart codes, which close(2) turns into EINTR */
#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ERESTART_RESTARTBLOCK 516

static inline unsigned int file_fmode(const struct vfs *v, const struct file *f)
{
	return READ_ONCE(*file_mode(v, f));
}

static inline struct inode *file_inode(const struct vfs *v, const struct file *f)
{
	return *file_inodep(v, f);
}

/* ---- tasks: vfs/task.c ---- */

struct fs_struct {
	int users;
	spinlock_t lock;
	seqcount_t seq;
	mode_t umask;
	struct path root, pwd;
};

/* Models current_umask(): threads sharing fs_struct may umask(2) meanwhile. */
#define current_umask(t) READ_ONCE((t)->fs->umask)

struct task {
	struct vfs *vfs;
	struct files_struct *files;
	struct fs_struct *fs;
	struct cred cred;
	pid_t pid, tgid, ppid;
	unsigned long rlim_nofile_cur, rlim_nofile_max;
	struct list_head node;
	unsigned long sigpending; /* bit n-1: signal n sent (SIGPIPE), never delivered */
};

/* ---- fd tables: vfs/file.c ---- */

struct fd {
	unsigned long word;
};
#define FDPUT_FPUT 1UL
#define FDPUT_POS_UNLOCK 2UL
#define EMPTY_FD ((struct fd){ 0 })
static inline struct file *fd_file(struct fd f)
{
	return (struct file *)(f.word & ~3UL);
}

struct files_struct *files_alloc(struct vfs *v);
struct files_struct *dup_fd(struct vfs *v, struct files_struct *oldf, int *errp);
void put_files_struct(struct vfs *v, struct files_struct *files);
void get_files_struct(struct vfs *v, struct files_struct *files);
int get_unused_fd_flags(struct task *t, unsigned int flags);
void put_unused_fd(struct task *t, unsigned int fd);
void fd_install(struct task *t, unsigned int fd, struct file *file);
struct file *fget(struct task *t, unsigned int fd);
struct file *fget_raw(struct task *t, unsigned int fd);
struct fd fdget(struct task *t, unsigned int fd);
struct fd fdget_raw(struct task *t, unsigned int fd);
struct fd fdget_pos(struct task *t, unsigned int fd);
void fdput(struct task *t, struct fd f);
void fdput_pos(struct task *t, struct fd f);
int close_fd(struct task *t, unsigned int fd);
int f_dupfd(struct task *t, unsigned int from, struct file *file, unsigned int flags);
bool get_close_on_exec(struct task *t, unsigned int fd);
void set_close_on_exec(struct task *t, unsigned int fd, bool on);
unsigned int files_max_fds(struct task *t);
int files_check_invariants(struct vfs *v, struct files_struct *files, char *err, size_t len);

/* ---- path walk: vfs/namei.c ---- */

#define LOOKUP_FOLLOW 0x0001u
#define LOOKUP_DIRECTORY 0x0002u
#define LOOKUP_AUTOMOUNT 0x0004u
#define LOOKUP_EMPTY 0x4000u
#define LOOKUP_PARENT 0x0010u
#define LOOKUP_REVAL 0x0020u
#define LOOKUP_RCU 0x0040u
#define LOOKUP_OPEN 0x0100u
#define LOOKUP_CREATE 0x0200u
#define LOOKUP_EXCL 0x0400u
#define LOOKUP_RENAME_TARGET 0x0800u

enum { LAST_NORM, LAST_ROOT, LAST_DOT, LAST_DOTDOT };

#define MAXSYMLINKS 40
#define NAME_MAX_LEN 255
#define PATH_MAX_LEN 4096

int user_path_at(struct task *t, int dfd, const char *name, unsigned int flags, struct path *path,
		 const struct walk_trace *trace);
int do_filp_open(struct task *t, int dfd, const char *name, const struct open_how *how,
		 struct file **filp);
int check_open_how(const struct open_how *how);
int inode_permission(const struct cred *cred, const struct inode *inode, int mask);
struct dentry *lookup_one_unlocked(struct vfs *v, const struct qstr *name, struct dentry *base);

/*
 * Models __fsnotify_parent() for a file whose directory is watched (an
 * inotify watch sets DCACHE_FSNOTIFY_PARENT_WATCHED on its children): each
 * event takes and drops a reference on the parent dentry. vfslab raises
 * open, access (read), modify (write) and close; not getdents' access,
 * truncate's and fallocate's modify or the attribute changes. Unwatched,
 * the kernel tests the flag and returns.
 */
static inline void fsnotify_parent(struct vfs *v, struct dentry *d)
{
	if (unlikely(v->cfg.fsnotify_parent))
		dput(v, dget_parent(v, d));
}

/* fsnotify_file(): the same for an open file; unwatched, its path is not read. */
static inline void fsnotify_file(struct vfs *v, struct file *f)
{
	if (unlikely(v->cfg.fsnotify_parent))
		fsnotify_parent(v, file_path(v, f)->dentry);
}

/* ---- counters ---- */

#define VFS_STAT(ev) (STAT_LIB_NR + (ev))
_Static_assert(STAT_LIB_NR + VFS_EV_NR <= STAT_NR, "too many VFS events for lib/stats");
static inline void vfs_count(enum vfs_event ev)
{
	stat_inc(VFS_STAT(ev));
}

/* ---- helpers ---- */

static inline struct vfs *task_v(const struct task *t)
{
	return t->vfs;
}

/* The kernel's __O_TMPFILE (glibc folds O_DIRECTORY into its own). */
#define KERNEL___O_TMPFILE 020000000
/* The kernel's O_LARGEFILE, which open(2) forces on 64-bit (glibc's is 0). */
#define KERNEL_O_LARGEFILE 0100000
#define WHITEOUT_DEV 0

/* The open-time and fcntl-settable flags of a struct file. */
#define FILE_SETFL_MASK (O_APPEND | O_NONBLOCK | O_NDELAY | O_DIRECT | O_NOATIME | FASYNC)

int vfs_truncate_inode(struct task *t, struct inode *inode, long long length);
/* tmpfs size= in pages: what statfs reports as f_blocks (vfs/shmem.c). */
struct super_block;
unsigned long shmem_max_pages(const struct super_block *sb);
/* unix_bind_bsd()'s mknod: an S_IFSOCK inode at name; *res holds its path. */
int vfs_mknod_socket(struct task *t, const char *name, mode_t mode, struct path *res);
/* send_sig() as far as vfslab goes: the task's pending set records it. */
void task_send_sig(struct task *t, int sig);
int notify_change_mode(struct task *t, struct inode *inode, mode_t mode);
int notify_change_owner(struct task *t, struct inode *inode, uid_t uid, gid_t gid);

#endif /* VFSLAB_VFS_INTERNAL_H */
