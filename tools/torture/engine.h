/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * vfslab torture: N threads, each driving its own vfslab tasks (some share
 * a files_struct with TASK_CLONE_FILES, some are separate processes), fire
 * seeded random syscalls at a namespace of a few names in a few levels, so
 * that opens, renames, unlinks and closes collide. Every return value must
 * be one Linux can give for that call, and the invariants of vfs/check.h
 * are checked as it runs (cheap ones after each op, the exact ones in a
 * stop-the-world pause every --check-every ops) and at quiescence. An
 * occasional rm -rf of a top-level name keeps what renames bury deep from
 * piling up, so a long run's memory stays flat.
 *
 * The op streams are a pure function of (seed, task index): an op's
 * arguments never depend on earlier results, so nothing is logged while
 * running (memory stays flat) and a failure is replayed by regenerating
 * each task's first N ops. Shrinking replays them single-threaded, task
 * after task, and delta-debugs the list down to a minimal sequence.
 *
 * The command itself is a supervisor that never touches a VFS: the
 * threaded run and every replay happen in forked children that report
 * through a shared mapping, so a BUG_ON, a sanitizer report or a deadlock
 * is a result to shrink like any other.
 *
 * The files: ops.c (the calls and their errnos), gen.c (the op streams),
 * exec.c (one op through the syscall table), oracle.c, print.c, threads.c
 * (the threaded run), rss.c, replay.c, supervise.c, shrink.c, main.c.
 */
#ifndef VFSLAB_TOOLS_TORTURE_ENGINE_H
#define VFSLAB_TOOLS_TORTURE_ENGINE_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mount.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tools/cmd.h"
#include "tools/interrupt.h"
#include "tools/sys/names.h"
#include "tools/sys/sys.h"
#include "tools/torture/torture.h"
#include "vfs/check.h"
#include "vfs/vfs.h"

#define NSLOTS 4 /* tasks one thread may hold at a time */
#define NOFILE 1024 /* the init task's RLIMIT_NOFILE */
#define IO_MAX 8192
#define PATH_BUF 256
#define LONG_NAME_LEN 40 /* past every layout's inline name: an external name */
#define SHRINK_MAX_OPS (4ul << 20)
#define RSS_MAX_SAMPLES 100000
#define MISSING_NAMES 4 /* lookup-missing's names: m0..m3, never created */
#define RET_SKIP LONG_MIN /* the op had no task to run in, or no slot to fork into */

struct rng {
	uint64_t s;
};

enum op_kind {
	OP_OPEN,
	OP_OPENAT,
	OP_CLOSE,
	OP_DUP,
	OP_DUP2,
	OP_STAT,
	OP_LSTAT,
	OP_FSTAT,
	OP_READ,
	OP_WRITE,
	OP_PREAD,
	OP_PWRITE,
	OP_LSEEK,
	OP_RENAME,
	OP_EXCHANGE,
	OP_NOREPLACE,
	OP_WHITEOUT,
	OP_UNLINK,
	OP_MKDIR,
	OP_RMDIR,
	OP_LINK,
	OP_SYMLINK,
	OP_READLINK,
	OP_CHMOD,
	OP_FTRUNCATE,
	OP_GETDENTS,
	OP_CLOSE_RANGE,
	OP_RMTREE,
	OP_CHDIR,
	OP_FCHDIR,
	OP_LINKAT_FD,
	OP_LOOKUP_MISSING,
	OP_FORK,
	OP_EXIT,
	OP_MOUNT, /* flags: MOUNT_TMPFS, MOUNT_BIND (from p2), MOUNT_RBIND, MOUNT_RDONLY */
	OP_UMOUNT, /* flags: 0 or MNT_DETACH */
	OP_NR_RANDOM,
	/* Set-up only, never drawn: the first task, and each thread's own. */
	OP_INIT = OP_NR_RANDOM,
	OP_SPAWN,
	OP_NR
};

/*
 * One op and its arguments. thread and slot say which task runs it: the
 * slot is the first live one from slot on, so an op is never lost to an
 * exited task. OP_SPAWN: fd is the source thread, flags the clone flags,
 * mode the uid.
 */
struct op {
	uint8_t kind, thread, slot, pad;
	uint16_t p1, p2; /* path codes */
	int32_t fd, fd2, flags;
	uint32_t mode, count;
	int64_t off;
};

/*
 * Path codes: depth 1..4 in bits 0-1, one 2-bit name per level ("a", "b",
 * "c" or a 40-byte name), then a trailing "/" or "/..", or relative.
 */
#define PC_DEPTH(c) (((c)&3u) + 1)
#define PC_NAME(c, i) (((c) >> (2 + 2 * (i))) & 3u)
#define PC_SLASH 0x400u
#define PC_DOTDOT 0x800u /* "/.." after the names; relative: "../" before */
#define PC_REL 0x1000u /* no leading "/" (openat, symlink bodies) */
#define PC_ROOT 0xffffu /* "/" itself */

/* OP_MOUNT's kinds */
enum { MOUNT_TMPFS, MOUNT_BIND, MOUNT_RBIND, MOUNT_RDONLY };

struct op_desc {
	const char *name;
	unsigned int weight; /* relative frequency among the random ops */
	const int *errs;
};

#define SETUP_MAX (4 + MAX_THREADS)
#define SETUP_PINNED 4 /* the init task and its fds 0-2: never shrunk away */

enum fkind {
	FK_NONE,
	FK_ERRNO, /* an errno Linux does not give for the call */
	FK_VALUE, /* a success value it cannot have */
	FK_INVARIANT, /* a vfs/check.h checker failed */
	FK_WARN, /* a WARN_ON fired */
	FK_INJECTED, /* --fail-on */
	FK_CRASH, /* the child died: BUG_ON, a sanitizer, a signal */
	FK_HANG, /* no op finished for --hang-seconds */
};

struct failure {
	int kind, op_kind; /* op_kind: -1 when no op is to blame */
	int thread;
	long index; /* op index in its thread (threaded run) or in the list (replay) */
	char sig[160]; /* crashes: what the child's stderr said */
	char msg[1024];
};

enum { RES_RUNNING, RES_PASS, RES_FAIL };

struct shared {
	unsigned long started[MAX_THREADS]; /* ops started per thread */
	long replay_pos; /* the op a replay is in */
	int claimed, result;
	int interrupted; /* the supervisor caught a signal: the workers stop */
	struct failure fail;
};

struct worker {
	struct run *run;
	unsigned int id;
	struct task *slot[NSLOTS];
	struct rng rng;
	unsigned long quota, done;
	unsigned long ok[OP_NR], err[OP_NR], skipped;
	unsigned long errnos[OP_NR][134];
	pthread_t tid;
	char buf[IO_MAX];
};

struct run {
	const struct torture *tt;
	struct shared *shm;
	struct vfs *vfs;
	struct worker *w;
	bool threaded;
	unsigned long warns; /* WARN count at the start */
	/* stop the world */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int active, parked;
	bool pause;
	unsigned long global_ops, checks, last_good;
	int stop;
	double deadline;
	/* replay */
	unsigned int tree_every;
	bool print;
	long pos;
};

/* --rss: the process' resident set, once a second. */
struct rss_sampler {
	struct vfs *vfs;
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop;
	long kib[RSS_MAX_SAMPLES];
	unsigned int n;
};

/*
 * The replay order, generated as it goes: the set-up, then the threads'
 * ops, either interleaved in proportion (each thread's op j at about
 * j / counts[k] of the way through, as the threads advanced side by side)
 * or task after task (all of T0's, then T1's, ...).
 */
enum order { ORDER_INTERLEAVED, ORDER_SEQUENTIAL };

struct opstream {
	const struct torture *tt;
	const unsigned long *counts;
	enum order order;
	struct op setup[SETUP_MAX];
	size_t nsetup, i;
	unsigned long j[MAX_THREADS]; /* ops of each thread so far */
	struct rng rng[MAX_THREADS];
};

/* A list to replay: ops[0..n), or (ops NULL) the stream of counts[] ops per thread. */
struct replay {
	const struct torture *tt;
	const struct op *ops;
	const unsigned long *counts;
	enum order order;
	size_t n;
	unsigned int tree_every; /* vfs_check_tree() every so many ops; slabs 256 times rarer */
	bool print;
	bool destroy; /* end with vfs_destroy() (60 ms of rcu_barrier()s) */
};

struct sup {
	const struct torture *tt;
	struct shared *shm;
	char *errtext; /* the last child's stderr */
	size_t errlen;
	struct progress progress;
	char doing[128]; /* what a progress line says the replays are for */
};

typedef int (*child_fn)(const void *arg, struct shared *shm);

extern const struct op_desc torture_ops[OP_NR];
extern const char *const torture_fkind_names[];
extern const char *const torture_order_names[];

/* ---- exec.c ---- */

int torture_exec_op(struct run *r, const struct op *op, long index, long *retp, int *slotp);
int torture_live_slot(const struct worker *w, unsigned int want);

/* ---- gen.c ---- */

void torture_gen_op(struct rng *r, unsigned int thread, struct op *op);
size_t torture_gen_setup(unsigned int ntasks, struct op *out);
void torture_rng_init(struct rng *r, uint64_t seed, unsigned int thread);

/* ---- oracle.c ---- */

int torture_oracle(const struct torture *tt, const struct op *op, long ret, const char *buf,
		   const struct stat *st, char *msg, size_t len);

/* ---- print.c ---- */

void torture_fmt_op(const struct op *op, char *buf, size_t len);
const char *torture_path_str(unsigned int code, char *buf, size_t len, bool pretty);
const char *torture_missing_str(const struct op *op, char *buf, size_t len, bool pretty);
const char *torture_ret_str(long ret, char *buf, size_t len);

/* ---- replay.c ---- */

int torture_run_replay(const struct replay *rp, struct shared *shm);
void torture_stream_init(struct opstream *st, const struct torture *tt, const unsigned long *counts,
			 enum order order);
bool torture_stream_next(struct opstream *st, struct op *op);

/* ---- rss.c ---- */

void *torture_rss_main(void *arg);
void torture_rss_summary(const struct rss_sampler *s);

/* ---- shrink.c ---- */

void torture_print_threaded_op(const struct torture *tt, unsigned int thread, unsigned long index,
			       const char *what);
/* Replay and shrink a failure; 1, or 2 if a signal stopped it (intr_pending()). */
int torture_shrink(struct sup *s, const struct failure *orig, const unsigned long *counts);
unsigned int torture_tree_every(size_t n);

/* ---- supervise.c ---- */

void torture_echo_stderr(const struct sup *s);
unsigned long torture_progress(const struct sup *s);
int torture_replay_child(const void *arg, struct shared *shm);
/* 0 passed, 1 failed (*f), 2 stopped by a signal (intr_pending()). */
int torture_run_child(struct sup *s, child_fn fn, const void *arg, bool quiet, struct failure *f);
int torture_threaded_child(const void *arg, struct shared *shm);

/* ---- threads.c ---- */

struct vfs *torture_child_vfs(const struct torture *tt);
double torture_now(void);
/* Record the first failure (later ones in other threads are noise). */
void __attribute__((format(printf, 5, 6)))
torture_report(struct run *r, int kind, const struct op *op, long index, const char *fmt, ...);
int torture_run_threaded(const struct torture *tt, struct shared *shm);

#endif /* VFSLAB_TOOLS_TORTURE_ENGINE_H */
