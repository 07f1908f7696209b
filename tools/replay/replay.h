/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * vfslab replay: the file syscalls of an `strace -f` log, replayed on a
 * vfslab VFS (tools/cmd_replay.c is the command).
 *
 *  sys.c     what replay knows of each syscall, one table row each
 *  args.c    argument and result text as values: flags, errnos, strings
 *  parse.c   the log into calls: pids, unfinished/resumed pairs, -y/-tt/-T
 *            decorations, lookahead hints
 *  engine.c  one single-threaded replay in log order: a vfslab task per log
 *            pid (clone/fork/vfork/exit followed), the log's fd numbers
 *            mapped to the task's, results compared with the log's
 *            (compare.c). In discovery mode it also repairs (repair.c):
 *            whatever a successful call needed (a path, a size, directory
 *            entries) is created on the spot and recorded in the tree, so
 *            a second, clean replay from that tree is the check.
 *  prescan.c descriptors the log's processes had that no traced call made
 *  exec.c    one call on a vfslab task or the host
 *  tree.c    the tree a log needs before it starts, built into a VFS or
 *            into a host directory
 *  stream.c  the throughput mode: each pid's calls on its own task, looping,
 *            through bench_run() (vfslab variants, optionally the host)
 *  passes.c  discovery and check, from a parsed log to a checked tree
 *  report.c  what the command prints of the log, the tree and the check
 */
#ifndef VFSLAB_TOOLS_REPLAY_REPLAY_H
#define VFSLAB_TOOLS_REPLAY_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct sys_ops;
struct sys_vfs;
struct task;
struct vfs;

/* The syscalls the parser knows; those before RP_CLONE are replayed. */
enum rp_sys {
	RP_NONE,
	RP_OPEN,
	RP_OPENAT,
	RP_CREAT,
	RP_CLOSE,
	RP_CLOSE_RANGE,
	RP_STAT,
	RP_LSTAT,
	RP_FSTAT,
	RP_NEWFSTATAT,
	RP_STATX, /* as fstatat() */
	RP_ACCESS,
	RP_FACCESSAT,
	RP_FACCESSAT2, /* as faccessat() with flags */
	RP_READ,
	RP_PREAD64,
	RP_READV, /* as read() of the iovecs' total */
	RP_PREADV,
	RP_WRITE,
	RP_PWRITE64,
	RP_WRITEV,
	RP_PWRITEV,
	RP_LSEEK,
	RP_DUP,
	RP_DUP2,
	RP_DUP3,
	RP_FCNTL,
	RP_RENAME,
	RP_RENAMEAT,
	RP_RENAMEAT2,
	RP_UNLINK,
	RP_UNLINKAT,
	RP_MKDIR,
	RP_MKDIRAT,
	RP_RMDIR,
	RP_LINK,
	RP_LINKAT,
	RP_SYMLINK,
	RP_SYMLINKAT,
	RP_READLINK,
	RP_READLINKAT,
	RP_GETDENTS64,
	RP_CHDIR,
	RP_FCHDIR,
	RP_CHMOD,
	RP_FCHMOD,
	RP_FCHMODAT,
	RP_CHOWN,
	RP_LCHOWN,
	RP_FCHOWN,
	RP_FCHOWNAT,
	RP_TRUNCATE,
	RP_FTRUNCATE,
	RP_FALLOCATE,
	RP_GETCWD,
	RP_UMASK,
	RP_UTIMENSAT,
	RP_MKNOD,
	RP_MKNODAT,
	RP_COPY_FILE_RANGE, /* as read() and write() in a loop */
	RP_SENDFILE,
	RP_SETXATTR, /* system.posix_acl_access, a minimal ACL: as chmod */
	RP_LSETXATTR,
	RP_FSETXATTR,
	RP_EXECVE, /* as faccessat(X_OK), then exec's fd-table effects */
	RP_EXECVEAT,
	RP_FOREIGN, /* pipe2, socket, eventfd...: fds vfslab has no object for */
	RP_CLONE, /* clone, clone3, fork, vfork: a[0] = clone flags */
	RP_EXIT, /* "+++ exited with N +++" or "+++ killed by ... +++" */
	RP_NR
};

/* rp_call.flags */
#define RPC_INTERRUPTED 0x1 /* = ? ERESTARTSYS and friends: not replayed */
#define RPC_RET_UNKNOWN 0x2 /* = ? */
#define RPC_AUX_TRUNC 0x4 /* the output string ended in "..." */
#define RPC_ST_VALID 0x8 /* st_mode/st_size come from the log's output */
#define RPC_HINT_VALID 0x10 /* hint_mode: what the opened fd was later seen to be */
#define RPC_HINT_SIZE 0x20 /* hint_size valid too */
#define RPC_ST_NOT_TMPFS 0x40 /* the stat shown is not tmpfs's: no directory size check */

struct rp_call {
	int pid;
	unsigned short sys; /* enum rp_sys */
	unsigned short flags; /* RPC_* */
	unsigned int line; /* where the call starts in the log (1-based) */
	long ret; /* >= 0, or -errno */
	long a[5]; /* integer arguments, in the order of the syscall's */
	char *p[2]; /* path arguments (symlink: p[0] target, p[1] path) */
	char *aux; /* readlink target, getcwd path */
	unsigned int auxlen;
	int nents; /* getdents64: entries returned */
	mode_t st_mode; /* stat family: the log's output */
	long long st_size;
	mode_t hint_mode; /* fd-creating opens: lookahead, see RPC_HINT_* */
	long long hint_size;
};

/* A name and how often it was seen, for the report. */
struct rp_count {
	char name[32];
	unsigned long n;
};

struct rp_log {
	struct rp_call *calls;
	size_t nr, cap;
	unsigned long lines;
	unsigned long replayable; /* calls before RP_CLONE */
	int root_pid; /* the first process */
	int nr_pids;
	/* What the log tells of the first process's state, or defaults. */
	char cwd[4096];
	bool cwd_known;
	mode_t umask;
	/* Syscalls not replayed (mmap, ioctl...), and unparsable lines. */
	struct rp_count *unknown;
	size_t nr_unknown;
	unsigned long malformed, lost_unfinished;
	unsigned int first_malformed_line;
	char first_malformed[160];
};

/* Parse f into log; 0, or -1 after printing why (only on I/O errors). */
int rp_parse(FILE *f, struct rp_log *log);
void rp_log_free(struct rp_log *log);
const char *rp_sys_name(unsigned int sys);
/* The call as a short strace-like line ("openat(AT_FDCWD, "x", 0x241)"). */
void rp_call_format(const struct rp_call *c, char *buf, size_t len);

/* ---- the tree a log needs ---- */

struct rp_node {
	int parent; /* index, -1 for the root */
	char *name;
	mode_t mode; /* type and permission bits */
	long long size; /* regular files */
	char *target; /* symlinks */
	unsigned int line; /* the log line that needed it */
	bool guessed; /* the type is a default, no call showed it */
	/* Discovery only: the live object and a handle to resize it. */
	unsigned long ino;
	struct task *holder;
	int holder_fd;
};

/* An object that appeared under a directory the log itself created. */
struct rp_inject {
	size_t before; /* index of the call it precedes */
	int pid, dfd;
	char *path;
	mode_t mode;
	long long size;
	char *target;
};

/* A descriptor an untraced call made (socket() under -e trace=file): a
 * placeholder opened at its number before the call that first shows it. */
struct rp_fdinj {
	size_t before;
	int pid, fd;
};

struct rp_tree {
	struct rp_node *nodes; /* [0] is "/"; parents come before children */
	size_t nr, cap;
	struct rp_inject *inj;
	size_t nr_inj, cap_inj;
	int *fds; /* the first process's inherited descriptors (placeholders) */
	size_t nr_fds, cap_fds;
	struct rp_fdinj *fdinj;
	size_t nr_fdinj, cap_fdinj;
	unsigned long *ino2node; /* discovery: ino -> node index + 1 */
	size_t nr_ino;
};

#define RP_HIDDEN_DIR "/.vfslab-replay"
#define RP_PLACEHOLDER RP_HIDDEN_DIR "/fd"

/*
 * Room for element nr of the array arr holding *cap elements of size
 * bytes: doubled when full (first the first time). The array, perhaps
 * moved, or NULL with arr untouched.
 */
void *rp_grow(void *arr, size_t *cap, size_t nr, size_t size, size_t first);

void rp_tree_init(struct rp_tree *tree);
void rp_tree_free(struct rp_tree *tree);
int rp_tree_add(struct rp_tree *tree, int parent, const char *name, mode_t mode);
int rp_tree_find(const struct rp_tree *tree, int parent, const char *name);
/* The node for an absolute path, adding directories as needed. */
int rp_tree_mkpath(struct rp_tree *tree, const char *path, unsigned int line);
/* The node's absolute path into buf. */
void rp_tree_path(const struct rp_tree *tree, int node, char *buf, size_t len);
int rp_tree_node_of_ino(const struct rp_tree *tree, unsigned long ino);
void rp_tree_set_ino(struct rp_tree *tree, int node, unsigned long ino);
void rp_tree_add_fd(struct rp_tree *tree, int fd);
bool rp_tree_has_fd(const struct rp_tree *tree, int fd);
/* Counts for the report. */
void rp_tree_stats(const struct rp_tree *tree, unsigned long *dirs, unsigned long *files,
		   unsigned long *links, unsigned long *other, long long *bytes);

/*
 * How the tree is built: vfslab's calls (ctx a struct task) or the host's
 * (ctx NULL, paths absolute host paths), and the device number its device
 * nodes get.
 */
struct rp_build_ops {
	const struct sys_ops *sys;
	unsigned int dev_major, dev_minor;
};
extern const struct rp_build_ops rp_build_vfs, rp_build_host;

/*
 * Build the tree under prefix ("" or e.g. "/r1"), and the hidden
 * placeholder file; absolute symlink targets get the prefix too when
 * prefix_targets (not under a chroot). 0 or -errno.
 */
long rp_tree_build(const struct rp_tree *tree, const struct rp_build_ops *ops, void *ctx,
		   const char *prefix, bool prefix_targets);

/* ---- executing one call (exec.c) ---- */

/* A log descriptor's stand-in: the real fd, and what the log opened. */
#define RPF_FOREIGN 0x1 /* a placeholder for a pipe, socket, terminal... */
#define RPF_CLOEXEC 0x2

struct rp_fdent {
	int real; /* -1: not open */
	unsigned char flags; /* RPF_* */
	int oflags; /* the open flags, to reopen it with */
	char *path; /* absolute path it was opened by, when known */
};

/* One fd table's map from log numbers to real ones; shared like the table. */
struct rp_fdmap {
	int refs;
	int nr;
	struct rp_fdent *e;
};

struct rp_fdmap *rp_fdmap_new(void);
struct rp_fdmap *rp_fdmap_copy(const struct rp_fdmap *m);
void rp_fdmap_put(struct rp_fdmap *m);
void rp_fdmap_set(struct rp_fdmap *m, long logfd, int real, unsigned char flags, int oflags,
		  const char *path);
void rp_fdmap_clear(struct rp_fdmap *m, long logfd);
const struct rp_fdent *rp_fdmap_get(const struct rp_fdmap *m, long logfd);

/* Where a call runs: a vfslab task, or (host) this process. */
struct rp_exec {
	bool host;
	bool identity; /* keep real fd numbers equal to the log's (--check) */
	struct task *task;
	struct rp_fdmap *map;
	unsigned long entry_loops; /* bench's --entry-ns spin, vfslab only */
	const char *prefix; /* prepended to absolute paths ("" for none) */
	char *buf;
	size_t bufsz;
	struct stat st; /* the last stat-family result */
	char path[2][8192];
};

/*
 * Where x's calls go: sys_ops_vfslab on x->task, with bench's entry spin,
 * filling *v as its ctx; or sys_ops_host.
 */
const struct sys_ops *rp_exec_sys(const struct rp_exec *x, struct sys_vfs *v);

/* Never a valid descriptor: what unmapped log fds become. */
#define RP_BADFD (1 << 28)

/* The call's fd-table effects are applied to x->map. Returns >= 0 or -errno,
 * or sets *skip to an RP_SKIP_* outcome and returns 0. */
long rp_exec(struct rp_exec *x, const struct rp_call *c, int *skip);
/*
 * "/proc/self/fd/N[/rest]" (or /dev/fd/N, /proc/PID/fd/N): vfslab has no
 * magic links, so a call naming one is turned into its *at() form on fd
 * N into out (chmod("/proc/self/fd/3") is fchmodat(3, "", AT_EMPTY_PATH),
 * as tar uses it on O_PATH fds). False if c names none or has no such
 * form; out's strings point into c.
 */
bool rp_magic_call(const struct rp_call *c, struct rp_call *out);
/* The fd a call works on as an object (read, fstat...), or -1. */
long rp_object_fd(const struct rp_call *c);
/* Open a placeholder at any free number; >= 0 or -errno. */
long rp_exec_placeholder(struct rp_exec *x);
/* Close every mapped descriptor (end of a stream). */
void rp_exec_close_all(struct rp_exec *x);
/* Make sure x->buf holds n bytes. */
bool rp_exec_buf(struct rp_exec *x, size_t n);
/* The real descriptor for a log one (AT_FDCWD stays, unmapped: RP_BADFD). */
int rp_exec_tr(const struct rp_exec *x, long logfd);
/* Does r stand for the log's result? Created fds compare by number only
 * under identity. */
bool rp_same(const struct rp_exec *x, const struct rp_call *c, long r);

/* ---- the single-threaded replay ---- */

enum rp_outcome {
	RP_MATCH,
	RP_MISMATCH,
	RP_SKIP_FOREIGN, /* data calls on pipes, sockets, inherited terminals */
	RP_SKIP_INTERRUPTED,
	RP_SKIP_NOTASK, /* its pid's task could not be made */
	RP_SKIP_UNSUPPORTED, /* fcntl locks and the like */
	RP_NR_OUTCOMES
};

/* Per-pid facts the throughput mode starts each stream from. */
struct rp_inherit {
	int logfd;
	bool foreign;
	int flags; /* open flags to reopen it with */
	char *path; /* absolute, when known */
};

struct rp_pidinfo {
	int pid;
	int parent; /* log pid, 0 for the first process */
	unsigned int clone_flags;
	char *cwd; /* at its creation */
	mode_t umask;
	struct rp_inherit *fds;
	size_t nr_fds;
	size_t nr_calls; /* replayable calls */
};

struct rp_mismatch {
	size_t call;
	long got;
	bool pseudo; /* a path under /proc, /sys or /dev is involved */
	char what[200]; /* field mismatches: "st_size 60, vfslab 80" */
};

struct rp_result {
	unsigned long outcome[RP_NR_OUTCOMES];
	unsigned long field_mismatches;
	unsigned long dir_sizes_skipped; /* RPC_ST_NOT_TMPFS directories */
	unsigned int first_skipped_line; /* the first one's log line */
	long long first_skipped_size;
	unsigned long repairs, pids_without_clone;
	struct rp_mismatch *mm;
	size_t nr_mm, cap_mm;
	struct rp_pidinfo *pids;
	size_t nr_pids;
	uint64_t events[16];
};

/* rp_replay()'s modes. */
enum rp_mode {
	RP_CHECK, /* no repairs: compare */
	RP_DISCOVER, /* repair, except directory listings */
	RP_DISCOVER_LISTINGS, /* repair listings too: the names the log touches
			       * are all in the tree by now, so what a listing
			       * lacks are entries no call names */
};

/*
 * Build tree into vfs and replay log on it. Discovery modes add what the
 * log needs to tree; verbose prints each addition to stderr. 0, or -errno
 * if the VFS failed us.
 */
int rp_replay(struct vfs *vfs, const struct rp_log *log, struct rp_tree *tree, enum rp_mode mode,
	      bool verbose, struct rp_result *res);
/*
 * Which descriptors the log's processes had that no traced call made: the
 * first process's inherited ones (into tree->fds) and those of untraced
 * calls (tree->fdinj), from the log's own numbers: an fd used before any
 * call made it, and the numbers below each one an open() returned.
 */
void rp_prescan_fds(const struct rp_log *log, struct rp_tree *tree);
void rp_result_free(struct rp_result *res);

/* ---- the throughput mode (stream.c) ---- */

struct rp_stream_opts {
	const struct rp_log *log;
	const struct rp_tree *tree;
	const struct rp_result *res; /* the check's per-pid facts */
	int copies;
	bool share;
	double seconds;
	bool pin;
	long entry_ns;
	bool kernel;
	const char *tmpdir;
	const char *variants[8];
	int nr_variants;
	const char *label;
	int format; /* enum bench_format */
};

/* Run and report on out; the exit status (0, or 1 when the run failed). */
int rp_stream_run(const struct rp_stream_opts *o, FILE *out);

/* ---- from a log to a checked tree (passes.c) ---- */

struct vfs_config;

/*
 * Into tree: what log needs, by two discovery replays on VFSes built from
 * cfg (disc: their result), then the check on a fresh one (res). 0, 1 if
 * a replay or a teardown failed (both results are still to be freed), or
 * -1 if no VFS could be made (the tree is to be freed, neither result).
 */
int rp_discover_and_check(const struct vfs_config *cfg, struct rp_log *log, struct rp_tree *tree,
			  bool verbose, struct rp_result *disc, struct rp_result *res);

/* ---- what vfslab replay prints (report.c) ---- */

/* What the log holds: calls, pids, cwd (and where it came from), what was not replayed. */
void rp_print_log_summary(FILE *f, const char *file, struct rp_log *log, const char *cwd_origin);
/* Every object of the tree, with the line that needed it. */
void rp_print_tree(const struct rp_log *log, const struct rp_tree *tree);
/* The check's counts and mismatches; the mismatches not on a pseudo-fs path. */
unsigned long rp_print_check(const struct rp_log *log, const struct rp_tree *tree,
			     const struct rp_result *disc, const struct rp_result *res);
/* Before a throughput run: the tree and how many calls the check matched. */
void rp_print_check_line(FILE *f, const struct rp_tree *tree, const struct rp_result *res);

#endif /* VFSLAB_TOOLS_REPLAY_REPLAY_H */
