/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * vfslab's public VFS interface: an instance, its tasks, and the syscalls.
 *
 * One VFS is a value: vfs_new() returns an instance with its own superblock,
 * dcache, slab caches and variant. Nothing lives in globals, so two variants
 * run side by side in one process and every test starts from a fresh one.
 *
 * Every sys_*() takes the calling task first and returns what Linux returns
 * for the same call on tmpfs: a value >= 0, or a negative errno. Flags, modes
 * and errno values are the host's (Linux) constants; struct stat is the
 * host's, filled the way the kernel's cp_new_stat() fills it.
 */
#ifndef VFSLAB_VFS_VFS_H
#define VFSLAB_VFS_VFS_H

#include <fcntl.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

struct vfs;
struct task;

/* The algorithm switches a variant flips (vfs/variant.c parses them). */
enum dcount_mode {
	DCOUNT_LOCKREF, /* d_count in d_lockref, cmpxchg fast path (2013+) */
	DCOUNT_DLOCK, /* every dget/dput takes d_lock (before lockref) */
	DCOUNT_ATOMIC, /* an atomic d_count: dget and most dputs lockless (2013) */
};

enum fref_mode {
	FREF_FILE_REF, /* file_ref_t, unconditional add (v6.13+) */
	FREF_INC_NOT_ZERO, /* atomic_long_inc_not_zero CAS loop (before v6.13) */
};

enum alloc_fd_mode {
	ALLOC_FD_V613, /* next_fd word fast path, conditional bit clears */
	ALLOC_FD_V610, /* before Yu Ma's three fs/file.c patches */
};

enum readdir_mode {
	READDIR_V614, /* libfs offsets walk d_children: newest first, end at 2^31-1 */
	READDIR_V66, /* libfs offsets 6.6-6.13: oldest first, by offset */
};

enum mnt_count_mode {
	MNT_COUNT_PERCPU, /* mnt_count in per-CPU slots, as the kernel's mnt_pcp */
	MNT_COUNT_ATOMIC, /* one shared atomic: every walk's mntget bounces it */
};

#define VFS_LAYOUT_SPEC_MAX 256

struct layout;

/* fs.mount-max's default (the kernel's sysctl_mount_max). */
#define VFS_MOUNT_MAX_DEFAULT 100000

struct vfs_config {
	/* Layout preset names, "randomize:SEED" or file paths; "" = default. */
	char dentry_layout[VFS_LAYOUT_SPEC_MAX];
	char file_layout[VFS_LAYOUT_SPEC_MAX];
	char files_layout[VFS_LAYOUT_SPEC_MAX];
	/*
	 * The three built from those already (LS_NR of them), or NULL to build
	 * them in vfs_new(): the simulator builds them before its run, so that
	 * what the simulated CPU allocates does not depend on where a layout
	 * came from (a file's text, a preset, BTF).
	 */
	const struct layout *layouts;
	enum dcount_mode dcount;
	unsigned int lockref_retry; /* 0 = unbounded (pre-2019) */
	enum fref_mode fref;
	enum alloc_fd_mode alloc_fd;
	unsigned int nr_open; /* fs.nr_open: how far fd tables grow */
	unsigned int mount_max; /* fs.mount-max: mounts one namespace may hold */
	unsigned long dentry_unused_max; /* shrinker bound on the dentry LRU */
	unsigned int d_hash_shift; /* log2 of the dentry hash table size; 0: auto */
	bool fsnotify_parent; /* the parent watched: dget_parent/dput on open, read, write, close */
	enum readdir_mode readdir; /* getdents order and directory offsets */
	unsigned long long tmpfs_size; /* tmpfs size= in bytes; 0: half of RAM */
	bool hash_salt_fixed; /* hash-salt=N: names hashed with N, not the parent's address */
	unsigned long long hash_salt;
	/* fs.protected_*: 0 (the kernel's built-in default), 1 or 2 */
	unsigned int protected_symlinks, protected_hardlinks;
	unsigned int protected_regular, protected_fifos;
	enum mnt_count_mode mnt_count;
};

/*
 * The dentry hash's size: hash-shift=auto (VFS_HASH_SHIFT_AUTO) is the
 * kernel's boot-time size for this machine's memory (vfs/dhash.c).
 */
#define VFS_HASH_SHIFT_AUTO 0
#define VFS_HASH_SHIFT_MIN 4
#define VFS_HASH_SHIFT_MAX 26
unsigned long long vfs_phys_ram(void);
/* The shift alloc_large_system_hash() picks for the dcache with bytes of RAM. */
unsigned int vfs_hash_shift_for_memory(unsigned long long bytes);
/* The smallest shift with a bucket per entry (a tree of known size). */
unsigned int vfs_hash_shift_for_entries(unsigned long long entries);

/* The defaults: v6.11+ dentry, v6.15 file, lockref with 100 retries, ... */
void vfs_config_default(struct vfs_config *cfg);

/*
 * Apply a variant spec to cfg: comma-separated KEY=VALUE items, e.g.
 * "dentry=v6.10,dcount=dlock,lockref-retry=unbounded,fref=inc-not-zero,
 * file=v6.12,files=shared-lock,alloc-fd=v6.10,nr-open=4096". Returns 0, or
 * -1 with a message naming the bad item in err.
 */
int vfs_config_parse(struct vfs_config *cfg, const char *spec, char *err, size_t errlen);
/* The canonical spec of cfg (every key), for output headers. */
void vfs_config_describe(const struct vfs_config *cfg, char *buf, size_t len);
/* The keys and values vfs_config_parse() takes, one per line. */
const char *vfs_config_help(void);

/*
 * Create an instance. On failure returns NULL and, if err is non-NULL,
 * stores a message naming the problem (e.g. a bad layout file line).
 */
struct vfs *vfs_new(const struct vfs_config *cfg, char *err, size_t errlen);
/* Tear down; every task must have exited. Returns objects leaked (0). */
long vfs_destroy(struct vfs *vfs);

/* Wait until every object freed so far has really been freed (an RCU barrier). */
void vfs_rcu_barrier(void);

/* The thread that will call into a VFS registers with RCU first. */
void vfs_thread_enter(void);
void vfs_thread_exit(void);

/*
 * Tasks. The first task (pid 1, root, cwd "/") comes from task_create_init();
 * others are forked from an existing one: CLONE_FILES shares the fd table
 * (threads), otherwise it is copied with dup_fd() (processes). Credentials
 * are set with task_set_creds() (what setgroups/setegid/seteuid do).
 */
#define TASK_CLONE_FILES 0x1u
#define TASK_CLONE_FS 0x2u
#define TASK_NGROUPS_MAX 32

struct task *task_create_init(struct vfs *vfs);
struct task *task_fork(struct task *parent, unsigned int clone_flags);
void task_exit(struct task *t);
/* Real and effective ids; the fs ids follow the effective ones. */
int task_set_creds(struct task *t, uid_t ruid, uid_t euid, gid_t rgid, gid_t egid,
		   const gid_t *groups, int ngroups);
int task_set_nofile(struct task *t, unsigned long soft, unsigned long hard);
struct vfs *task_vfs(const struct task *t);

/* The event counters the syscall layer keeps (per thread, summed on read). */
enum vfs_event {
	VFS_EV_RCU_WALK, /* path walks started in RCU mode */
	VFS_EV_UNLAZY_OK, /* try_to_unlazy() legitimized the walk */
	VFS_EV_UNLAZY_FAIL, /* ... or failed (-> -ECHILD) */
	VFS_EV_REF_WALK, /* walks restarted in ref-walk mode */
	VFS_EV_LOCKREF_SLOW, /* lockref ops that took d_lock */
	VFS_EV_LOCKREF_FAST, /* lockref ops done by cmpxchg */
	VFS_EV_FGET_RETRY, /* __fget_files_rcu() retries */
	VFS_EV_ALLOC_FD_FAST, /* find_next_fd() answered from next_fd's word */
	VFS_EV_FD_EXPAND, /* fd table expansions */
	VFS_EV_DCACHE_MISS, /* lookups that went to the filesystem */
	VFS_EV_NR
};
const char *vfs_event_name(enum vfs_event ev);
/* Sum of the counters over all threads; read twice and subtract. */
void vfs_events_read(uint64_t out[VFS_EV_NR]);
/* This thread's counters only. */
void vfs_events_read_self(uint64_t out[VFS_EV_NR]);

/*
 * Looking inside, for `vfslab walk` and `vfslab shell`: the events of one
 * traced path walk, and a snapshot of a dentry. A walk in RCU mode calls
 * the tracer inside its read-side section, so d stays valid during it.
 */
struct dentry;
enum walk_event {
	WALK_EV_START, /* a = 1 in RCU mode, 0 in ref-walk mode */
	WALK_EV_COMPONENT, /* name/len: the component; a: its hash */
	WALK_EV_PERMISSION, /* MAY_EXEC on d's inode; a: i_mode; err */
	WALK_EV_HIT, /* dcache hit d; a: hash, b: d_seq sampled */
	WALK_EV_MISS, /* dcache miss under d; the filesystem answers */
	WALK_EV_SEQ_RETRY, /* d's d_seq moved since a was sampled */
	WALK_EV_UNLAZY, /* leaving RCU mode at d: a = 1 ok, 0 failed */
	WALK_EV_SYMLINK, /* following d, body name/len; a: links so far */
	WALK_EV_DOTDOT, /* ".." moved to d */
	WALK_EV_DONE, /* the result: d or err */
	/*
	 * d is a mountpoint: crossed to the root of mount a, b the m_seq
	 * re-checked (0 in ref-walk); with name "..", climbed from the root
	 * of mount b up to d in mount a
	 */
	WALK_EV_MOUNT,
};
struct walk_trace {
	void (*event)(void *ctx, enum walk_event ev, const struct dentry *d, const char *name,
		      unsigned int len, uint64_t a, uint64_t b, int err);
	void *ctx;
};

/*
 * d_flags, include/linux/dcache.h: here rather than in internal.h so that
 * the tools name the bits dentry_info.flags holds.
 */
#define DCACHE_OP_HASH 0x00000001u
#define DCACHE_OP_COMPARE 0x00000002u
#define DCACHE_OP_REVALIDATE 0x00000004u
#define DCACHE_OP_DELETE 0x00000008u
#define DCACHE_REFERENCED 0x00000040u
#define DCACHE_DONTCACHE 0x00000080u
#define DCACHE_MOUNTED 0x00010000u
#define DCACHE_LRU_LIST 0x00080000u
#define DCACHE_ENTRY_TYPE 0x00700000u
#define DCACHE_MISS_TYPE 0x00000000u
#define DCACHE_DIRECTORY_TYPE 0x00200000u
#define DCACHE_REGULAR_TYPE 0x00400000u
#define DCACHE_SPECIAL_TYPE 0x00500000u
#define DCACHE_SYMLINK_TYPE 0x00600000u
#define DCACHE_DENTRY_KILLED 0x01000000u
#define DCACHE_DISCONNECTED 0x02000000u
#define DCACHE_PAR_LOOKUP 0x10000000u /* being looked up, in the in-lookup hash */

struct dentry_info {
	char name[256];
	int count; /* d_lockref.count; < 0 when dead */
	unsigned int seq; /* d_seq */
	unsigned int flags; /* d_flags */
	unsigned int hash; /* d_name.hash (salted with the parent) */
	bool hashed, negative;
	unsigned long ino;
	mode_t mode;
	unsigned int lockref_offset; /* where this variant keeps d_lockref */
};

struct dentry_chain_info {
	unsigned long bucket; /* index in the dentry hash table */
	unsigned int length, position; /* entries in the chain, ours (1-based) */
};

struct fdtable_info {
	unsigned int max_fds, next_fd;
	int users; /* tasks sharing this files_struct */
	unsigned int nr_open;
	bool embedded; /* still the files_struct's own 64 slots */
	unsigned long open_fds[4], close_on_exec[4], full_fds_bits;
	struct {
		int fd;
		unsigned long count, ino;
		unsigned int flags, mode;
		long long pos;
	} fds[64];
	int nr_fds; /* entries filled in fds[] */
};

/* Look path up and describe its dentry (refcount, seq, flags, chain). */
int vfs_inspect_path(struct task *t, const char *path, bool follow, struct dentry_info *out,
		     struct dentry_chain_info *chain);
/* A snapshot of t's fd table under file_lock. */
void vfs_inspect_fdtable(struct task *t, struct fdtable_info *out);
/* A slab cache, as /proc/slabinfo shows it. */
struct vfs_cache_info {
	const char *name;
	long in_use;
	size_t objsize; /* the object's stride in its cache */
};

/* The dentry, inode, filp and files caches; returns how many (4). */
int vfs_inspect_caches(struct vfs *vfs, struct vfs_cache_info *out, int max,
		       unsigned long *nr_unused);

/* The dentry hash table: its size and how full its chains are. */
struct dhash_info {
	unsigned int shift; /* 2^shift buckets */
	unsigned long used; /* buckets with a chain */
	unsigned long entries; /* hashed dentries */
	unsigned long longest; /* the longest chain */
};

/* Count every chain (RCU): a pass over the whole table. */
void vfs_inspect_hash(struct vfs *vfs, struct dhash_info *out);

/*
 * Walk path as stat() would (follow: as stat, else as lstat), tracing it;
 * resolve: openat2's RESOLVE_* flags, 0 for none.
 */
int vfs_walk(struct task *t, int dfd, const char *path, bool follow, unsigned int resolve,
	     const struct walk_trace *tr);
void vfs_dentry_info(struct vfs *vfs, const struct dentry *d, struct dentry_info *out);

/* getdents64's record, as in include/linux/dirent.h. */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#define RENAME_WHITEOUT (1 << 2)
#endif
#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/* fs/open.c */
long sys_open(struct task *t, const char *path, int flags, mode_t mode);
long sys_openat(struct task *t, int dfd, const char *path, int flags, mode_t mode);
long sys_creat(struct task *t, const char *path, mode_t mode);
/*
 * openat2(2): how points at size bytes, a struct open_how and (for a
 * bigger size) a tail that must be zero; OPEN_HOW_SIZE_VER0 is the least.
 */
#define OPEN_HOW_SIZE_VER0 24
long sys_openat2(struct task *t, int dfd, const char *path, const void *how, size_t size);
long sys_close(struct task *t, int fd);
long sys_close_range(struct task *t, unsigned int fd, unsigned int max_fd, unsigned int flags);
long sys_access(struct task *t, const char *path, int mode);
long sys_faccessat(struct task *t, int dfd, const char *path, int mode, int flags);
long sys_chdir(struct task *t, const char *path);
long sys_fchdir(struct task *t, int fd);
long sys_chmod(struct task *t, const char *path, mode_t mode);
long sys_fchmod(struct task *t, int fd, mode_t mode);
long sys_fchmodat(struct task *t, int dfd, const char *path, mode_t mode, int flags);
long sys_chown(struct task *t, const char *path, uid_t uid, gid_t gid);
long sys_lchown(struct task *t, const char *path, uid_t uid, gid_t gid);
long sys_fchown(struct task *t, int fd, uid_t uid, gid_t gid);
long sys_fchownat(struct task *t, int dfd, const char *path, uid_t uid, gid_t gid, int flags);
long sys_truncate(struct task *t, const char *path, off_t length);
long sys_fallocate(struct task *t, int fd, int mode, off_t offset, off_t len);
long sys_ftruncate(struct task *t, int fd, off_t length);
long sys_utimensat(struct task *t, int dfd, const char *path, const struct timespec times[2],
		   int flags);
long sys_umask(struct task *t, mode_t mask);

/* fs/file.c, fs/fcntl.c */
long sys_dup(struct task *t, int fd);
long sys_dup2(struct task *t, int oldfd, int newfd);
long sys_dup3(struct task *t, int oldfd, int newfd, int flags);
long sys_fcntl(struct task *t, int fd, int cmd, unsigned long arg);

/* fs/read_write.c */
long sys_read(struct task *t, int fd, void *buf, size_t count);
long sys_write(struct task *t, int fd, const void *buf, size_t count);
long sys_pread64(struct task *t, int fd, void *buf, size_t count, off_t pos);
long sys_pwrite64(struct task *t, int fd, const void *buf, size_t count, off_t pos);
long sys_lseek(struct task *t, int fd, off_t offset, int whence);

/* fs/stat.c */
long sys_stat(struct task *t, const char *path, struct stat *st);
long sys_lstat(struct task *t, const char *path, struct stat *st);
long sys_fstat(struct task *t, int fd, struct stat *st);
long sys_fstatat(struct task *t, int dfd, const char *path, struct stat *st, int flags);
long sys_readlink(struct task *t, const char *path, char *buf, size_t size);
long sys_readlinkat(struct task *t, int dfd, const char *path, char *buf, size_t size);

/* fs/namei.c */
long sys_mkdir(struct task *t, const char *path, mode_t mode);
long sys_mkdirat(struct task *t, int dfd, const char *path, mode_t mode);
long sys_mknod(struct task *t, const char *path, mode_t mode, dev_t dev);
long sys_mknodat(struct task *t, int dfd, const char *path, mode_t mode, dev_t dev);
long sys_rmdir(struct task *t, const char *path);
long sys_unlink(struct task *t, const char *path);
long sys_unlinkat(struct task *t, int dfd, const char *path, int flags);
long sys_symlink(struct task *t, const char *target, const char *path);
long sys_symlinkat(struct task *t, const char *target, int dfd, const char *path);
long sys_link(struct task *t, const char *oldpath, const char *newpath);
long sys_linkat(struct task *t, int olddfd, const char *oldpath, int newdfd, const char *newpath,
		int flags);
long sys_rename(struct task *t, const char *oldpath, const char *newpath);
long sys_renameat(struct task *t, int olddfd, const char *oldpath, int newdfd, const char *newpath);
long sys_renameat2(struct task *t, int olddfd, const char *oldpath, int newdfd, const char *newpath,
		   unsigned int flags);

/* fs/d_path.c, fs/readdir.c */
long sys_getcwd(struct task *t, char *buf, size_t size);
long sys_getdents64(struct task *t, int fd, void *dirent, size_t count);

/* fs/statfs.c, and glibc's pathconf(3) over it: 0 and *value (-1: none) */
struct statfs;
long sys_statfs(struct task *t, const char *path, struct statfs *buf);
long sys_fstatfs(struct task *t, int fd, struct statfs *buf);
long sys_pathconf(struct task *t, const char *path, int name, long *value);
long sys_fpathconf(struct task *t, int fd, int name, long *value);

/*
 * net/unix/af_unix.c, the namespace's part: AF_UNIX SOCK_STREAM sockets
 * that bind to a path (an S_IFSOCK inode), listen, and connect to a path
 * (resolved, MAY_WRITE checked, ECONNREFUSED unless a socket listens
 * there). No data moves. sys_bind() and sys_connect() are pjdfstest's: a
 * new socket, then bind or connect to path cut to sun_path's 107 bytes;
 * the socket stays open in the fd table.
 */
long sys_socket(struct task *t, int family, int type, int protocol);
long sys_bind_path(struct task *t, int fd, const char *path);
long sys_listen(struct task *t, int fd, int backlog);
long sys_connect_path(struct task *t, int fd, const char *path);
long sys_bind(struct task *t, const char *path);
long sys_connect(struct task *t, const char *path);

/*
 * Signals a task was sent (bit n-1 for signal n: SIGPIPE after EPIPE);
 * vfslab delivers none. Reading clears them.
 */
unsigned long task_sigpending(struct task *t);
/* End every call blocked in the instance now (fifo opens, reads, writes): EINTR. */
void vfs_kill_waiters(struct vfs *vfs);
/* fs/namespace.c: tmpfs is the one filesystem type */
long sys_mount(struct task *t, const char *source, const char *target, const char *fstype,
	       unsigned long flags, const void *data);
long sys_umount2(struct task *t, const char *target, int flags);
long sys_umount(struct task *t, const char *target);

/* kernel/sys.c */
long sys_getpid(struct task *t);
long sys_getppid(struct task *t);
long sys_getuid(struct task *t);
long sys_getgid(struct task *t);

#endif /* VFSLAB_VFS_VFS_H */
