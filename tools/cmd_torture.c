// SPDX-License-Identifier: LGPL-2.1-or-later
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
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
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
#include "tools/sys/names.h"
#include "tools/sys/sys.h"
#include "vfs/check.h"
#include "vfs/vfs.h"

#define MAX_THREADS 64
#define NSLOTS 4 /* tasks one thread may hold at a time */
#define NOFILE 1024 /* the init task's RLIMIT_NOFILE */
#define IO_MAX 8192
#define PATH_BUF 256
#define LONG_NAME_LEN 40 /* past every layout's inline name: an external name */
#define SHRINK_MAX_OPS (4ul << 20)
#define RSS_MAX_SAMPLES 100000
#define RET_SKIP LONG_MIN /* the op had no task to run in, or no slot to fork into */

/* ---- the random op streams ---- */

struct rng {
	uint64_t s;
};

/* splitmix64: one 64-bit state, good enough for argument choice. */
static uint64_t rnext(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned int rnd(struct rng *r, unsigned int n)
{
	return (unsigned int)(((rnext(r) >> 32) * (uint64_t)n) >> 32);
}

static void rng_init(struct rng *r, uint64_t seed, unsigned int thread)
{
	r->s = seed * 0xd1342543de82ef95ull + (thread + 1) * 0x9e3779b97f4a7c15ull;
	rnext(r);
}

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
	OP_FORK,
	OP_EXIT,
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

static const char *const short_names[] = { "a", "b", "c" };

/*
 * The errnos each call can give here: Linux's documented set, less what
 * cannot happen on tmpfs with these arguments (valid buffers, names of at
 * most 40 bytes, no signals, mounts, quotas, fifos or devices to open, no
 * memory pressure). EACCES and EPERM come from the unprivileged task.
 */
#define E_PATH ENOENT, ENOTDIR, ELOOP, EACCES

static const int e_open[] = { E_PATH, EEXIST, EISDIR, EMFILE, ENXIO, EINVAL, 0 };
static const int e_openat[] = { E_PATH, EEXIST, EISDIR, EMFILE, ENXIO, EINVAL, EBADF, 0 };
static const int e_close[] = { EBADF, 0 };
static const int e_dup[] = { EBADF, EMFILE, 0 };
static const int e_dup2[] = { EBADF, EBUSY, 0 };
static const int e_stat[] = { E_PATH, 0 };
static const int e_fstat[] = { EBADF, 0 };
static const int e_read[] = { EBADF, EINVAL, EISDIR, 0 };
static const int e_write[] = { EBADF, EINVAL, 0 };
static const int e_lseek[] = { EBADF, EINVAL, ENXIO, 0 };
static const int e_rename[] = { E_PATH, EBUSY, EINVAL, EISDIR, ENOTEMPTY, EEXIST, EPERM, 0 };
static const int e_unlink[] = { E_PATH, EISDIR, EPERM, 0 };
static const int e_mkdir[] = { E_PATH, EEXIST, 0 };
static const int e_rmdir[] = { E_PATH, EBUSY, EINVAL, ENOTEMPTY, EPERM, 0 };
static const int e_link[] = { E_PATH, EEXIST, EPERM, 0 };
static const int e_symlink[] = { E_PATH, EEXIST, 0 };
static const int e_readlink[] = { E_PATH, EINVAL, 0 };
static const int e_chmod[] = { E_PATH, EPERM, 0 };
static const int e_ftruncate[] = { EBADF, EINVAL, 0 };
static const int e_getdents[] = { EBADF, EINVAL, ENOENT, ENOTDIR, 0 };
static const int e_close_range[] = { EINVAL, 0 };
/* rm -rf: whatever its lstat, open, getdents64, unlink and rmdir may give. */
static const int e_rmtree[] = { E_PATH, EMFILE, EBUSY, EISDIR,	     ENOTEMPTY, EEXIST,
				EINVAL, EBADF,	EPERM, ENAMETOOLONG, 0 };
static const int e_chdir[] = { E_PATH, 0 };
static const int e_fchdir[] = { EBADF, ENOTDIR, EACCES, 0 };
static const int e_linkat[] = { E_PATH, EEXIST, EPERM, EBADF, 0 };
static const int e_none[] = { 0 };

static const struct op_desc {
	const char *name;
	unsigned int weight; /* relative frequency among the random ops */
	const int *errs;
} ops[OP_NR] = {
	[OP_OPEN] = { "open", 125, e_open },
	[OP_OPENAT] = { "openat", 25, e_openat },
	[OP_CLOSE] = { "close", 65, e_close },
	[OP_DUP] = { "dup", 25, e_dup },
	[OP_DUP2] = { "dup2", 30, e_dup2 },
	[OP_STAT] = { "stat", 60, e_stat },
	[OP_LSTAT] = { "lstat", 25, e_stat },
	[OP_FSTAT] = { "fstat", 50, e_fstat },
	[OP_READ] = { "read", 45, e_read },
	[OP_WRITE] = { "write", 50, e_write },
	[OP_PREAD] = { "pread", 25, e_read },
	[OP_PWRITE] = { "pwrite", 25, e_write },
	[OP_LSEEK] = { "lseek", 25, e_lseek },
	[OP_RENAME] = { "rename", 45, e_rename },
	[OP_EXCHANGE] = { "rename-exchange", 25, e_rename },
	[OP_NOREPLACE] = { "rename-noreplace", 20, e_rename },
	[OP_WHITEOUT] = { "rename-whiteout", 5, e_rename },
	[OP_UNLINK] = { "unlink", 55, e_unlink },
	[OP_MKDIR] = { "mkdir", 55, e_mkdir },
	[OP_RMDIR] = { "rmdir", 40, e_rmdir },
	[OP_LINK] = { "link", 30, e_link },
	[OP_SYMLINK] = { "symlink", 30, e_symlink },
	[OP_READLINK] = { "readlink", 20, e_readlink },
	[OP_CHMOD] = { "chmod", 20, e_chmod },
	[OP_FTRUNCATE] = { "ftruncate", 25, e_ftruncate },
	[OP_GETDENTS] = { "getdents64", 30, e_getdents },
	[OP_CLOSE_RANGE] = { "close_range", 4, e_close_range },
	[OP_RMTREE] = { "rm-rf", 2, e_rmtree },
	[OP_CHDIR] = { "chdir", 8, e_chdir },
	[OP_FCHDIR] = { "fchdir", 4, e_fchdir },
	[OP_LINKAT_FD] = { "linkat-empty-path", 6, e_linkat },
	[OP_FORK] = { "fork", 6, e_none },
	[OP_EXIT] = { "exit", 6, e_none },
	[OP_INIT] = { "init", 0, e_none },
	[OP_SPAWN] = { "spawn", 0, e_none },
};

/*
 * What a path is for: inner names lean to "a" and "b", so those tend to be
 * directories; a file's last name leans to "c" and the long one. Every name
 * stays possible everywhere, so files and directories still collide.
 */
enum role { R_ANY, R_DIR, R_FILE };

static unsigned int gen_name(struct rng *r, enum role role)
{
	static const unsigned int pct[3][3] = {
		[R_ANY] = { 30, 55, 80 },
		[R_DIR] = { 40, 75, 90 },
		[R_FILE] = { 15, 30, 70 },
	};
	unsigned int y = rnd(r, 100);

	return y < pct[role][0] ? 0 : y < pct[role][1] ? 1 : y < pct[role][2] ? 2 : 3;
}

/* A path: depth 1, 2 and 3 with the given percentages (4 takes the rest). */
static unsigned int gen_path_depth(struct rng *r, enum role role, unsigned int d1, unsigned int d2,
				   unsigned int d3)
{
	unsigned int x = rnd(r, 100), code;
	unsigned int depth = x < d1 ? 1 : x < d1 + d2 ? 2 : x < d1 + d2 + d3 ? 3 : 4;

	code = depth - 1;
	for (unsigned int i = 0; i < depth; i++)
		code |= gen_name(r, i + 1 < depth ? R_DIR : role) << (2 + 2 * i);
	x = rnd(r, 100);
	if (x < 4)
		code |= PC_SLASH;
	else if (x < 7)
		code |= PC_DOTDOT;
	return code;
}

static unsigned int gen_path(struct rng *r)
{
	return gen_path_depth(r, R_ANY, 30, 40, 25);
}

static unsigned int gen_file(struct rng *r)
{
	return gen_path_depth(r, R_FILE, 15, 55, 25);
}

static unsigned int gen_dir(struct rng *r)
{
	return gen_path_depth(r, R_DIR, 50, 35, 12);
}

/* A symlink body: absolute or relative, sometimes climbing with "../". */
static unsigned int gen_target(struct rng *r)
{
	unsigned int code = gen_path(r) & ~(PC_SLASH | PC_DOTDOT);
	unsigned int x = rnd(r, 100);

	if (x < 50)
		code |= PC_REL;
	if (x < 20)
		code |= PC_DOTDOT;
	return code;
}

static int gen_fd(struct rng *r)
{
	static const int far[] = { 1023, 1024, 100000 };
	unsigned int x = rnd(r, 100);

	/* 0-2 are the init task's O_PATH fds; what opens make starts at 3. */
	if (x < 60)
		return 3 + rnd(r, 4);
	if (x < 88)
		return rnd(r, 16);
	if (x < 94)
		return 16 + rnd(r, 60);
	if (x < 97)
		return -1;
	return far[rnd(r, 3)];
}

/* dup2's target: mostly low, sometimes far enough to grow the table. */
static int gen_newfd(struct rng *r)
{
	unsigned int x = rnd(r, 100);

	if (x < 50)
		return rnd(r, 8);
	if (x < 80)
		return rnd(r, 16);
	if (x < 92)
		return 16 + rnd(r, 100);
	if (x < 97)
		return 128 + rnd(r, 400);
	return x < 99 ? NOFILE : -1;
}

static uint32_t gen_mode(struct rng *r)
{
	/* Mostly open to all, so the unprivileged task gets somewhere too. */
	static const uint32_t modes[] = { 0777, 0777, 0777, 0666, 01777, 0755,	0644,
					  0600, 0700, 0000, 0444, 0311,	 02755, 04755 };

	return modes[rnd(r, sizeof(modes) / sizeof(modes[0]))];
}

static int gen_oflags(struct rng *r)
{
	int f = (int)rnd(r, 3); /* O_RDONLY, O_WRONLY, O_RDWR */

	if (rnd(r, 100) < 2)
		f = O_ACCMODE; /* 3: neither read nor write, as Linux allows */
	if (rnd(r, 100) < 60) {
		f |= O_CREAT;
		if (rnd(r, 100) < 25)
			f |= O_EXCL;
	}
	if (rnd(r, 100) < 10)
		f |= O_TRUNC;
	if (rnd(r, 100) < 10)
		f |= O_APPEND;
	if (rnd(r, 100) < 8)
		f |= O_DIRECTORY;
	if (rnd(r, 100) < 5)
		f |= O_NOFOLLOW;
	if (rnd(r, 100) < 10)
		f |= O_CLOEXEC;
	if (rnd(r, 100) < 4)
		f |= O_PATH;
	if (rnd(r, 100) < 2)
		f = (f & ~(O_CREAT | O_EXCL | O_ACCMODE)) | O_TMPFILE | O_RDWR;
	return f;
}

static uint32_t gen_count(struct rng *r)
{
	unsigned int x = rnd(r, 100);

	if (x < 70)
		return 1 + rnd(r, 200);
	if (x < 90)
		return rnd(r, 1000);
	if (x < 97)
		return 4000 + rnd(r, 300); /* across a page */
	return 0;
}

static int64_t gen_off(struct rng *r)
{
	unsigned int x = rnd(r, 100);

	if (x < 50)
		return rnd(r, 100);
	if (x < 85)
		return rnd(r, 9000);
	if (x < 95)
		return 4090 + rnd(r, 12);
	return 60000 + rnd(r, 8000);
}

static void gen_op(struct rng *r, unsigned int thread, struct op *op)
{
	unsigned int total = 0, x, k = 0;

	for (int i = 0; i < OP_NR_RANDOM; i++)
		total += ops[i].weight;
	x = rnd(r, total);
	for (; k < OP_NR_RANDOM - 1 && x >= ops[k].weight; k++)
		x -= ops[k].weight;
	memset(op, 0, sizeof(*op));
	op->kind = k;
	op->thread = thread;
	op->slot = rnd(r, 10) < 7 ? 0 : rnd(r, NSLOTS);
	switch (k) {
	case OP_OPEN:
	case OP_OPENAT: {
		op->fd = gen_fd(r);
		op->p1 = gen_file(r);
		if (k == OP_OPENAT) {
			op->p1 |= PC_REL;
			/* Relative to the cwd, which chdir moves. */
			if (rnd(r, 100) < 30)
				op->fd = AT_FDCWD;
		}
		op->flags = gen_oflags(r);
		op->mode = gen_mode(r);
		break;
	}
	case OP_CLOSE:
	case OP_DUP:
	case OP_FSTAT:
		op->fd = gen_fd(r);
		break;
	case OP_DUP2:
		op->fd = gen_fd(r);
		op->fd2 = gen_newfd(r);
		break;
	case OP_READ:
	case OP_WRITE:
	case OP_PREAD:
	case OP_PWRITE:
		op->fd = gen_fd(r);
		op->count = gen_count(r);
		op->off = gen_off(r);
		if (rnd(r, 100) < 2)
			op->off = -1;
		break;
	case OP_LSEEK: {
		static const int whence[] = { SEEK_SET, SEEK_CUR,  SEEK_END,  SEEK_SET,
					      SEEK_CUR, SEEK_DATA, SEEK_HOLE, 7 };

		op->fd = gen_fd(r);
		op->off = gen_off(r) - (rnd(r, 100) < 20 ? 5000 : 0);
		op->flags = whence[rnd(r, 8)];
		break;
	}
	case OP_STAT:
	case OP_LSTAT:
		op->p1 = gen_path(r);
		break;
	case OP_UNLINK:
		op->p1 = gen_file(r);
		break;
	case OP_RMDIR:
		op->p1 = gen_dir(r);
		break;
	case OP_MKDIR:
	case OP_CHMOD: {
		op->p1 = k == OP_MKDIR ? gen_dir(r) : gen_path(r);
		op->mode = gen_mode(r);
		break;
	}
	case OP_RENAME:
	case OP_EXCHANGE:
	case OP_NOREPLACE:
	case OP_WHITEOUT:
		op->p1 = gen_path(r);
		op->p2 = gen_path(r);
		break;
	case OP_LINK:
		op->p1 = gen_file(r);
		op->p2 = gen_file(r);
		break;
	case OP_SYMLINK:
		op->p1 = gen_target(r);
		op->p2 = gen_file(r);
		break;
	case OP_READLINK:
		op->p1 = gen_path(r);
		op->count = rnd(r, 100) < 3 ? 0 : 1 + rnd(r, 64);
		break;
	case OP_FTRUNCATE:
		op->fd = gen_fd(r);
		op->off = rnd(r, 100) < 3 ? -1 : gen_off(r);
		break;
	case OP_GETDENTS:
		op->fd = gen_fd(r);
		op->count = rnd(r, 100) < 5 ? rnd(r, 24) : 24 + rnd(r, 2048);
		break;
	case OP_CLOSE_RANGE: {
		unsigned int y = rnd(r, 100);

		op->fd = 3 + rnd(r, 18);
		op->fd2 = rnd(r, 100) < 60 ? -1 : op->fd + (int)rnd(r, 20) - 2;
		op->flags = y < 70 ? 0 :
			    y < 90 ? (int)CLOSE_RANGE_UNSHARE :
				     (int)CLOSE_RANGE_CLOEXEC;
		break;
	}
	case OP_CHDIR:
		op->p1 = rnd(r, 100) < 15 ? PC_ROOT : gen_dir(r);
		break;
	case OP_FCHDIR:
		op->fd = gen_fd(r);
		break;
	case OP_LINKAT_FD:
		/* linkat(fd, "", AT_EMPTY_PATH): an open file, O_TMPFILE or unlinked, gets a name. */
		op->fd = gen_fd(r);
		op->p2 = gen_file(r);
		break;
	case OP_RMTREE:
		/* A whole top-level tree: nothing the renames buried stays forever. */
		op->p1 = gen_path_depth(r, R_ANY, 100, 0, 0) & ~(PC_SLASH | PC_DOTDOT);
		break;
	case OP_FORK:
		op->flags = rnd(r, 2) ? TASK_CLONE_FILES : 0;
		break;
	}
}

/* The set-up: thread 0's init task with fds 0-2 (as `vfslab shell` has them), then one task per thread. */
static size_t gen_setup(unsigned int ntasks, struct op *out)
{
	size_t n = 0;

	out[n++] = (struct op){ .kind = OP_INIT };
	for (int i = 0; i < 3; i++)
		out[n++] = (struct op){ .kind = OP_OPEN, .p1 = PC_ROOT, .flags = O_PATH };
	/* Odd threads share the previous thread's files; every fourth is not root. */
	for (unsigned int k = 1; k < ntasks; k++)
		out[n++] = (struct op){ .kind = OP_SPAWN,
					.thread = k,
					.fd = (int32_t)k - 1,
					.flags = (k & 1) ? TASK_CLONE_FILES : 0,
					.mode = (k % 4 == 3) ? 1000 : 0 };
	return n;
}

#define SETUP_MAX (4 + MAX_THREADS)
#define SETUP_PINNED 4 /* the init task and its fds 0-2: never shrunk away */

/* ---- printing ops, fstest-style ---- */

static size_t put_name(char *buf, size_t pos, size_t len, unsigned int name, bool pretty)
{
	if (name < 3)
		pos += snprintf(buf + pos, pos < len ? len - pos : 0, "%s", short_names[name]);
	else if (pretty)
		pos += snprintf(buf + pos, pos < len ? len - pos : 0, "{%d*x}", LONG_NAME_LEN);
	else
		pos += snprintf(buf + pos, pos < len ? len - pos : 0, "%.*s", LONG_NAME_LEN,
				"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	return pos;
}

/* The path a code stands for; pretty writes the long name as {40*x}. */
static const char *path_str(unsigned int code, char *buf, size_t len, bool pretty)
{
	size_t pos = 0;

	if (code == PC_ROOT) {
		snprintf(buf, len, "/");
		return buf;
	}
	buf[0] = '\0';
	if ((code & PC_REL) && (code & PC_DOTDOT))
		pos += snprintf(buf + pos, len - pos, "../");
	for (unsigned int i = 0; i < PC_DEPTH(code); i++) {
		if (i || !(code & PC_REL))
			pos += snprintf(buf + pos, pos < len ? len - pos : 0, "/");
		pos = put_name(buf, pos, len, PC_NAME(code, i), pretty);
	}
	if (!(code & PC_REL) && (code & PC_DOTDOT))
		pos += snprintf(buf + pos, pos < len ? len - pos : 0, "/..");
	if (code & PC_SLASH)
		snprintf(buf + pos, pos < len ? len - pos : 0, "/");
	return buf;
}

static void oflags_str(int flags, char *buf, size_t len)
{
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "3" };
	size_t pos = snprintf(buf, len, "%s", acc[flags & O_ACCMODE]);

	if ((flags & O_TMPFILE) == O_TMPFILE) {
		pos += snprintf(buf + pos, len - pos, ",O_TMPFILE");
		flags &= ~O_TMPFILE;
	}
	flags &= ~O_ACCMODE;
	if (flags && pos + 1 < len) {
		buf[pos++] = ',';
		sys_flags_format(buf + pos, len - pos, sys_open_flags, flags);
	}
}

static const char *whence_str(int whence, char *buf, size_t len)
{
	const char *name = sys_name_of(sys_seek_whences, whence);

	if (name)
		return name;
	snprintf(buf, len, "%d", whence);
	return buf;
}

static const char *fd_str(int fd, char *buf, size_t len)
{
	if (fd == AT_FDCWD)
		return "AT_FDCWD";
	snprintf(buf, len, "=%d", fd);
	return buf;
}

/* An op as a line of the fstest language (a comment where it has none). */
static void fmt_op(const struct op *op, char *buf, size_t len)
{
	char a[PATH_BUF], b[PATH_BUF], f[160], fdb[16];

	path_str(op->p1, a, sizeof(a), true);
	path_str(op->p2, b, sizeof(b), true);
	if (op->kind == OP_OPEN && op->p1 == PC_ROOT) {
		/* Only the set-up opens "/": vfslab shell starts with these fds too. */
		snprintf(buf, len, "# open / O_PATH (fds 0-2, as vfslab shell has them)");
		return;
	}
	switch (op->kind) {
	case OP_OPEN:
	case OP_OPENAT:
		oflags_str(op->flags, f, sizeof(f));
		if (op->kind == OP_OPEN)
			snprintf(buf, len, "open %s %s", a, f);
		else
			snprintf(buf, len, "openat %s %s %s", fd_str(op->fd, fdb, sizeof(fdb)), a,
				 f);
		if (op->flags & (O_CREAT | (O_TMPFILE & ~O_DIRECTORY)))
			snprintf(buf + strlen(buf), len - strlen(buf), " 0%o", op->mode);
		break;
	case OP_CLOSE:
	case OP_DUP:
		snprintf(buf, len, "%s =%d", ops[op->kind].name, op->fd);
		break;
	case OP_DUP2:
		snprintf(buf, len, "dup2 =%d %d", op->fd, op->fd2);
		break;
	case OP_STAT:
	case OP_LSTAT:
		snprintf(buf, len, "%s %s type,mode,nlink,size", ops[op->kind].name, a);
		break;
	case OP_FSTAT:
		snprintf(buf, len, "fstat =%d type,mode,nlink,size", op->fd);
		break;
	case OP_READ:
		snprintf(buf, len, "read =%d %u", op->fd, op->count);
		break;
	case OP_PREAD:
		snprintf(buf, len, "pread =%d %u %" PRId64, op->fd, op->count, op->off);
		break;
	case OP_WRITE:
	case OP_PWRITE:
		if (op->count)
			snprintf(f, sizeof(f), "{%u*x}", op->count);
		else
			snprintf(f, sizeof(f), "''");
		if (op->kind == OP_WRITE)
			snprintf(buf, len, "write =%d %s", op->fd, f);
		else
			snprintf(buf, len, "pwrite =%d %s %" PRId64, op->fd, f, op->off);
		break;
	case OP_LSEEK:
		snprintf(buf, len, "lseek =%d %" PRId64 " %s", op->fd, op->off,
			 whence_str(op->flags, f, sizeof(f)));
		break;
	case OP_RENAME:
	case OP_LINK:
		snprintf(buf, len, "%s %s %s", ops[op->kind].name, a, b);
		break;
	case OP_EXCHANGE:
	case OP_NOREPLACE:
	case OP_WHITEOUT:
		snprintf(buf, len, "renameat2 AT_FDCWD %s AT_FDCWD %s %s", a, b,
			 op->kind == OP_EXCHANGE  ? "RENAME_EXCHANGE" :
			 op->kind == OP_NOREPLACE ? "RENAME_NOREPLACE" :
						    "RENAME_WHITEOUT");
		break;
	case OP_UNLINK:
	case OP_RMDIR:
		snprintf(buf, len, "%s %s", ops[op->kind].name, a);
		break;
	case OP_MKDIR:
	case OP_CHMOD:
		snprintf(buf, len, "%s %s 0%o", ops[op->kind].name, a, op->mode);
		break;
	case OP_SYMLINK:
		snprintf(buf, len, "symlink %s %s", a, b);
		break;
	case OP_READLINK:
		snprintf(buf, len, "readlink %s %u", a, op->count);
		break;
	case OP_FTRUNCATE:
		snprintf(buf, len, "ftruncate =%d %" PRId64, op->fd, op->off);
		break;
	case OP_GETDENTS:
		/* fstest's getdents reads to the end; the op is one call of COUNT bytes. */
		snprintf(buf, len, "getdents =%d %u", op->fd, op->count);
		break;
	case OP_CLOSE_RANGE:
		snprintf(buf, len, "close_range %d %u %s", op->fd, (unsigned int)op->fd2,
			 op->flags == (int)CLOSE_RANGE_UNSHARE ? "CLOSE_RANGE_UNSHARE" :
			 op->flags == (int)CLOSE_RANGE_CLOEXEC ? "CLOSE_RANGE_CLOEXEC" :
								 "0");
		break;
	case OP_RMTREE:
		snprintf(buf, len, "# rm -rf %s (lstat, open, getdents64, unlink, rmdir)", a);
		break;
	case OP_CHDIR:
		snprintf(buf, len, "chdir %s", a);
		break;
	case OP_FCHDIR:
		snprintf(buf, len, "fchdir =%d", op->fd);
		break;
	case OP_LINKAT_FD:
		snprintf(buf, len, "linkat =%d '' AT_FDCWD %s AT_EMPTY_PATH", op->fd, b);
		break;
	case OP_FORK:
		snprintf(buf, len, "# fork%s", op->flags ? " CLONE_FILES" : "");
		break;
	case OP_EXIT:
		snprintf(buf, len, "# exit");
		break;
	case OP_INIT:
		snprintf(buf, len, "# init task: uid 0, umask 0, cwd /");
		break;
	case OP_SPAWN:
		snprintf(buf, len, "# spawn from T%d.0%s, uid %u", op->fd,
			 op->flags ? " with CLONE_FILES" : " (a separate process)", op->mode);
		break;
	default:
		snprintf(buf, len, "# op %u?", op->kind);
	}
}

static const char *ret_str(long ret, char *buf, size_t len)
{
	const char *n;

	if (ret == RET_SKIP)
		return "skipped";
	if (ret >= 0 || ret < -4095) {
		snprintf(buf, len, "%ld", ret);
		return buf;
	}
	n = sys_errno_name((int)-ret);
	if (n)
		return n;
	snprintf(buf, len, "errno %ld", -ret);
	return buf;
}

/* ---- failures and what children share with the supervisor ---- */

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

static const char *const fkind_names[] = {
	[FK_NONE] = "none",
	[FK_ERRNO] = "implausible errno",
	[FK_VALUE] = "implausible return value",
	[FK_INVARIANT] = "invariant broken",
	[FK_WARN] = "kernel-style WARN",
	[FK_INJECTED] = "--fail-on",
	[FK_CRASH] = "crash",
	[FK_HANG] = "hang",
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
	struct failure fail;
};

struct torture {
	struct vfs_config cfg;
	const char *variant;
	uint64_t seed;
	unsigned int ntasks;
	unsigned long ops; /* in all; 0: until --seconds */
	double seconds;
	unsigned int check_every;
	bool rss, shrink, verbose;
	double shrink_seconds, hang_seconds;
	int fail_on_op, fail_on_errno;
	bool fail_on_crash, fail_on_hang;
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

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Record the first failure (later ones in other threads are noise). */
static void report(struct run *r, int kind, const struct op *op, long index, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void report(struct run *r, int kind, const struct op *op, long index, const char *fmt, ...)
{
	struct failure *f = &r->shm->fail;
	va_list ap;

	__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
	if (__atomic_exchange_n(&r->shm->claimed, 1, __ATOMIC_ACQ_REL))
		return;
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->op_kind = op ? op->kind : -1;
	f->thread = op ? op->thread : -1;
	f->index = index;
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
	__atomic_store_n(&r->shm->result, RES_FAIL, __ATOMIC_RELEASE);
}

/* ---- the oracle: is this a value Linux can return for this call? ---- */

static bool errno_allowed(const int *errs, int e)
{
	for (; *errs; errs++)
		if (*errs == e)
			return true;
	return false;
}

static bool good_name(const char *s, size_t n)
{
	if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
		return true;
	if (n == 1 && s[0] >= 'a' && s[0] <= 'c')
		return true;
	if (n != LONG_NAME_LEN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] != 'x')
			return false;
	return true;
}

/* getdents64's records: lengths add up, names are ours, types are real. */
static int check_dirents(const char *buf, long n, char *msg, size_t len)
{
	const size_t hdr = offsetof(struct linux_dirent64, d_name);

	for (long off = 0; off < n;) {
		const struct linux_dirent64 *d = (const void *)(buf + off);
		size_t reclen, nl;

		if ((size_t)(n - off) < hdr + 1)
			return snprintf(msg, len, "record at %ld runs past the %ld bytes", off, n);
		reclen = d->d_reclen;
		if (reclen < hdr + 2 || reclen % 8 || off + (long)reclen > n)
			return snprintf(msg, len, "record at %ld has d_reclen %zu", off, reclen);
		nl = strnlen(d->d_name, reclen - hdr);
		if (nl == reclen - hdr)
			return snprintf(msg, len, "record at %ld: name not terminated", off);
		if (!good_name(d->d_name, nl))
			return snprintf(msg, len, "record at %ld: name '%.*s' was never created",
					off, (int)nl, d->d_name);
		if (d->d_type != DT_DIR && d->d_type != DT_REG && d->d_type != DT_LNK &&
		    d->d_type != DT_CHR)
			return snprintf(msg, len, "'%s' has d_type %u", d->d_name, d->d_type);
		if (!d->d_ino)
			return snprintf(msg, len, "'%s' has inode 0", d->d_name);
		off += reclen;
	}
	return 0;
}

static int check_stat(const struct op *op, const struct stat *st, char *msg, size_t len)
{
	mode_t type = st->st_mode & S_IFMT;

	if (!st->st_ino)
		return snprintf(msg, len, "st_ino 0");
	if (type != S_IFREG && type != S_IFDIR && type != S_IFLNK && type != S_IFCHR)
		return snprintf(msg, len, "st_mode 0%o: a type nothing creates", st->st_mode);
	if (type == S_IFLNK && op->kind == OP_STAT)
		return snprintf(msg, len, "stat() followed to a symlink");
	/* No st_nlink test: rmdir drops a directory's two links one by one. */
	if (type == S_IFDIR && (st->st_size < 40 || st->st_size % 20))
		return snprintf(msg, len, "a directory of size %lld", (long long)st->st_size);
	if (type == S_IFCHR && st->st_rdev)
		return snprintf(msg, len, "a char device %#lx; only whiteouts (0:0) are made",
				(unsigned long)st->st_rdev);
	if (st->st_size < 0)
		return snprintf(msg, len, "st_size %lld", (long long)st->st_size);
	return 0;
}

/* 0, or FK_* with msg filled. */
static int oracle(const struct torture *tt, const struct op *op, long ret, const char *buf,
		  const struct stat *st, char *msg, size_t len)
{
	const struct op_desc *d = &ops[op->kind];
	char e[32];

	msg[0] = '\0';
	if (ret < 0) {
		int err = (int)-ret;

		if (ret < -4095 || !errno_allowed(d->errs, err)) {
			snprintf(msg, len, "%s returned %s: not an errno Linux gives for %s",
				 d->name, ret_str(ret, e, sizeof(e)), d->name);
			return FK_ERRNO;
		}
		if (op->kind == tt->fail_on_op && err == tt->fail_on_errno) {
			snprintf(msg, len, "%s returned %s (--fail-on)", d->name,
				 ret_str(ret, e, sizeof(e)));
			if (tt->fail_on_crash) {
				fprintf(stderr, "vfslab torture: --fail-on %s:%s:crash\n", d->name,
					sys_errno_name(err));
				abort();
			}
			if (tt->fail_on_hang)
				for (;;)
					pause();
			return FK_INJECTED;
		}
		return 0;
	}
	switch (op->kind) {
	case OP_OPEN:
	case OP_OPENAT:
	case OP_DUP:
		if (ret >= NOFILE)
			snprintf(msg, len, "fd %ld is past RLIMIT_NOFILE %d", ret, NOFILE);
		break;
	case OP_DUP2:
		if (ret != op->fd2)
			snprintf(msg, len, "dup2 to %d returned %ld", op->fd2, ret);
		break;
	case OP_STAT:
	case OP_LSTAT:
	case OP_FSTAT:
		if (ret)
			snprintf(msg, len, "returned %ld", ret);
		else
			check_stat(op, st, msg, len);
		break;
	case OP_READ:
	case OP_PREAD:
		if (ret > (long)op->count) {
			snprintf(msg, len, "read %ld bytes of %u asked", ret, op->count);
			break;
		}
		/* Only 'x' is ever written; holes and truncation read as zeros. */
		for (long i = 0; i < ret; i++)
			if (buf[i] != 'x' && buf[i]) {
				snprintf(msg, len, "byte %ld read is 0x%02x, never written", i,
					 (unsigned char)buf[i]);
				break;
			}
		break;
	case OP_WRITE:
	case OP_PWRITE:
		if (ret != (long)op->count)
			snprintf(msg, len, "wrote %ld bytes of %u", ret, op->count);
		break;
	case OP_LSEEK:
		if (op->flags == SEEK_SET && ret != op->off)
			snprintf(msg, len, "SEEK_SET to %" PRId64 " returned %ld", op->off, ret);
		break;
	case OP_READLINK:
		if (ret < 1 || ret > (long)op->count) {
			snprintf(msg, len, "returned %ld for a %u-byte buffer", ret, op->count);
			break;
		}
		for (long i = 0; i < ret; i++)
			if (!strchr("abcx/.", buf[i]) || !buf[i]) {
				snprintf(msg, len, "body byte %ld is 0x%02x", i,
					 (unsigned char)buf[i]);
				break;
			}
		break;
	case OP_GETDENTS:
		if (ret > (long)op->count)
			snprintf(msg, len, "returned %ld for a %u-byte buffer", ret, op->count);
		else
			check_dirents(buf, ret, msg, len);
		break;
	case OP_FORK:
	case OP_EXIT:
	case OP_INIT:
	case OP_SPAWN:
		break;
	default:
		if (ret)
			snprintf(msg, len, "returned %ld, not 0", ret);
	}
	if (msg[0]) {
		char tmp[1024];

		snprintf(tmp, sizeof(tmp), "%s: %s", d->name, msg);
		snprintf(msg, len, "%s", tmp);
		return FK_VALUE;
	}
	return 0;
}

/* ---- running one op ---- */

static int live_slot(const struct worker *w, unsigned int want)
{
	for (unsigned int i = 0; i < NSLOTS; i++) {
		unsigned int s = (want + i) % NSLOTS;

		if (w->slot[s])
			return s;
	}
	return -1;
}

static unsigned int live_count(const struct worker *w)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < NSLOTS; i++)
		n += !!w->slot[i];
	return n;
}

/* Checks that hold while other threads run: the dentries an op just handed out. */
static int post_checks(struct task *t, const struct op *op, long ret, char *msg, size_t len)
{
	char p[PATH_BUF];
	int fd = -1;

	if (ret < 0 || ret == RET_SKIP)
		return 0;
	switch (op->kind) {
	case OP_OPEN:
	case OP_OPENAT:
	case OP_DUP:
	case OP_DUP2:
		fd = (int)ret;
		break;
	case OP_FSTAT:
		fd = op->fd;
		break;
	case OP_STAT:
	case OP_CHMOD:
		return vfs_check_path(t, path_str(op->p1, p, sizeof(p), false), true, msg, len) < 0;
	case OP_LSTAT:
	case OP_READLINK:
	case OP_MKDIR:
		return vfs_check_path(t, path_str(op->p1, p, sizeof(p), false), false, msg, len) <
		       0;
	case OP_CHDIR:
	case OP_FCHDIR:
		/* The cwd the task now pins. */
		return vfs_check_path(t, ".", false, msg, len) < 0;
	case OP_RENAME:
	case OP_EXCHANGE:
	case OP_NOREPLACE:
	case OP_WHITEOUT:
	case OP_LINK:
	case OP_SYMLINK:
	case OP_LINKAT_FD:
		return vfs_check_path(t, path_str(op->p2, p, sizeof(p), false), false, msg, len) <
		       0;
	default:
		break;
	}
	return fd >= 0 && vfs_check_fd(t, fd, msg, len) < 0;
}

#define RMTREE_DEPTH 48

/*
 * rm -rf path with the task's own syscalls, not following symlinks; other
 * threads may create in it meanwhile. Returns 0 or the first error.
 */
static long rmtree(struct sys_vfs *t, char *path, size_t cap, int depth)
{
	size_t len = strlen(path);
	const struct sys_ops *vfs = &sys_ops_vfslab;
	long fd, n, ret = 0, r;
	struct stat st;
	char *buf;

	r = vfs->lstat(t, path, &st);
	if (r)
		return r;
	if (!S_ISDIR(st.st_mode))
		return vfs->unlink(t, path);
	if (depth >= RMTREE_DEPTH)
		return -ELOOP;
	fd = vfs->open(t, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
	if (fd < 0)
		return fd;
	buf = malloc(2048);
	if (!buf) {
		vfs->close(t, (int)fd);
		return -ENOMEM;
	}
	while ((n = vfs->getdents64(t, (int)fd, buf, 2048)) > 0) {
		for (long off = 0; off < n;) {
			const struct linux_dirent64 *d = (const void *)(buf + off);
			size_t nl = strlen(d->d_name);

			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (len + 1 + nl >= cap) {
				ret = ret ? ret : -ENAMETOOLONG;
				continue;
			}
			path[len] = '/';
			memcpy(path + len + 1, d->d_name, nl + 1);
			r = rmtree(t, path, cap, depth + 1);
			path[len] = '\0';
			if (r && r != -ENOENT && !ret)
				ret = r;
		}
	}
	free(buf);
	if (n < 0 && !ret)
		ret = n;
	vfs->close(t, (int)fd);
	r = vfs->rmdir(t, path);
	return ret ? ret : r;
}

/*
 * Run op in its thread's task. Returns 0, or -1 after report(). *retp is
 * the syscall's value (RET_SKIP if it did not run), *slotp the slot used.
 */
static int exec_op(struct run *r, const struct op *op, long index, long *retp, int *slotp)
{
	const struct sys_ops *vfs = &sys_ops_vfslab;
	struct worker *w = &r->w[op->thread];
	char p1[PATH_BUF], p2[PATH_BUF], msg[1024], e[32];
	struct sys_vfs sv = { 0 };
	struct stat st;
	struct task *t;
	long ret = 0;
	int s, kind;

	*retp = RET_SKIP;
	*slotp = -1;
	memset(&st, 0, sizeof(st));
	if (op->thread >= r->tt->ntasks)
		return 0;
	if (op->kind == OP_INIT || op->kind == OP_SPAWN) {
		struct worker *src = op->kind == OP_SPAWN && op->fd >= 0 &&
						     (unsigned int)op->fd < r->tt->ntasks ?
					     &r->w[op->fd] :
					     NULL;

		if (w->slot[0] || (op->kind == OP_SPAWN && (!src || !src->slot[0])))
			return 0;
		t = op->kind == OP_INIT ? task_create_init(r->vfs) :
					  task_fork(src->slot[0], (unsigned int)op->flags);
		if (!t) {
			report(r, FK_INVARIANT, op, index, "%s: no task (out of memory)",
			       ops[op->kind].name);
			return -1;
		}
		sv.task = t;
		if (op->kind == OP_INIT)
			vfs->umask(&sv, 0);
		if (op->mode)
			task_set_creds(t, op->mode, op->mode, op->mode, op->mode, NULL, 0);
		w->slot[0] = t;
		*retp = 0;
		*slotp = 0;
		return 0;
	}
	s = live_slot(w, op->slot);
	if (s < 0)
		return 0;
	*slotp = s;
	t = w->slot[s];
	sv.task = t;
	path_str(op->p1, p1, sizeof(p1), false);
	path_str(op->p2, p2, sizeof(p2), false);
	switch (op->kind) {
	case OP_OPEN:
		ret = vfs->open(&sv, p1, op->flags, op->mode);
		break;
	case OP_OPENAT:
		ret = vfs->openat(&sv, op->fd, p1, op->flags, op->mode);
		break;
	case OP_CLOSE:
		ret = vfs->close(&sv, op->fd);
		break;
	case OP_DUP:
		ret = vfs->dup(&sv, op->fd);
		break;
	case OP_DUP2:
		ret = vfs->dup2(&sv, op->fd, op->fd2);
		break;
	case OP_STAT:
		ret = vfs->stat(&sv, p1, &st);
		break;
	case OP_LSTAT:
		ret = vfs->lstat(&sv, p1, &st);
		break;
	case OP_FSTAT:
		ret = vfs->fstat(&sv, op->fd, &st);
		break;
	case OP_READ:
		ret = vfs->read(&sv, op->fd, w->buf, op->count);
		break;
	case OP_PREAD:
		ret = vfs->pread64(&sv, op->fd, w->buf, op->count, op->off);
		break;
	case OP_WRITE:
	case OP_PWRITE:
		memset(w->buf, 'x', op->count);
		ret = op->kind == OP_WRITE ? vfs->write(&sv, op->fd, w->buf, op->count) :
					     vfs->pwrite64(&sv, op->fd, w->buf, op->count, op->off);
		break;
	case OP_LSEEK:
		ret = vfs->lseek(&sv, op->fd, op->off, op->flags);
		break;
	case OP_RENAME:
		ret = vfs->rename(&sv, p1, p2);
		break;
	case OP_EXCHANGE:
		ret = vfs->renameat2(&sv, AT_FDCWD, p1, AT_FDCWD, p2, RENAME_EXCHANGE);
		break;
	case OP_NOREPLACE:
		ret = vfs->renameat2(&sv, AT_FDCWD, p1, AT_FDCWD, p2, RENAME_NOREPLACE);
		break;
	case OP_WHITEOUT:
		ret = vfs->renameat2(&sv, AT_FDCWD, p1, AT_FDCWD, p2, RENAME_WHITEOUT);
		break;
	case OP_UNLINK:
		ret = vfs->unlink(&sv, p1);
		break;
	case OP_MKDIR:
		ret = vfs->mkdir(&sv, p1, op->mode);
		break;
	case OP_RMDIR:
		ret = vfs->rmdir(&sv, p1);
		break;
	case OP_LINK:
		ret = vfs->link(&sv, p1, p2);
		break;
	case OP_SYMLINK:
		ret = vfs->symlink(&sv, p1, p2);
		break;
	case OP_READLINK:
		ret = vfs->readlink(&sv, p1, w->buf, op->count);
		break;
	case OP_CHMOD:
		ret = vfs->chmod(&sv, p1, op->mode);
		break;
	case OP_FTRUNCATE:
		ret = vfs->ftruncate(&sv, op->fd, op->off);
		break;
	case OP_GETDENTS:
		ret = vfs->getdents64(&sv, op->fd, w->buf, op->count);
		break;
	case OP_CLOSE_RANGE:
		ret = vfs->close_range(&sv, (unsigned int)op->fd, (unsigned int)op->fd2,
				       (unsigned int)op->flags);
		break;
	case OP_CHDIR:
		ret = vfs->chdir(&sv, p1);
		break;
	case OP_FCHDIR:
		ret = vfs->fchdir(&sv, op->fd);
		break;
	case OP_LINKAT_FD:
		ret = vfs->linkat(&sv, op->fd, "", AT_FDCWD, p2, AT_EMPTY_PATH);
		break;
	case OP_RMTREE: {
		char path[4096];

		snprintf(path, sizeof(path), "%s", p1);
		ret = rmtree(&sv, path, sizeof(path), 0);
		break;
	}
	case OP_FORK: {
		int d = -1;
		struct task *child;

		for (int i = 0; i < NSLOTS && d < 0; i++)
			if (!w->slot[(s + 1 + i) % NSLOTS])
				d = (s + 1 + i) % NSLOTS;
		if (d < 0)
			return 0;
		child = task_fork(t, (unsigned int)op->flags);
		if (!child) {
			report(r, FK_INVARIANT, op, index, "fork: task_fork() failed");
			return -1;
		}
		w->slot[d] = child;
		ret = d;
		break;
	}
	case OP_EXIT:
		if (live_count(w) < 2)
			return 0;
		task_exit(t);
		w->slot[s] = NULL;
		t = NULL;
		break;
	}
	*retp = ret;
	if (ret < 0) {
		w->err[op->kind]++;
		if (ret > -134)
			w->errnos[op->kind][-ret]++;
	} else
		w->ok[op->kind]++;

	kind = oracle(r->tt, op, ret, w->buf, &st, msg, sizeof(msg));
	if (kind) {
		report(r, kind, op, index, "%s", msg);
		return -1;
	}
	if (t && post_checks(t, op, ret, msg, sizeof(msg))) {
		report(r, FK_INVARIANT, op, index, "after %s = %s: %s", ops[op->kind].name,
		       ret_str(ret, e, sizeof(e)), msg);
		return -1;
	}
	if (t && ((w->done + 1) % 32 == 0 || !r->threaded) &&
	    vfs_check_task_fds(t, msg, sizeof(msg))) {
		report(r, FK_INVARIANT, op, index, "fd table after %s: %s", ops[op->kind].name,
		       msg);
		return -1;
	}
	if (vfs_check_warnings() != r->warns) {
		report(r, FK_WARN, op, index, "a WARN_ON fired during or before %s (see stderr)",
		       ops[op->kind].name);
		return -1;
	}
	return 0;
}

/* ---- the threaded run ---- */

static void park(struct run *r)
{
	pthread_mutex_lock(&r->lock);
	r->parked++;
	pthread_cond_broadcast(&r->cond);
	while (r->pause)
		pthread_cond_wait(&r->cond, &r->lock);
	r->parked--;
	pthread_mutex_unlock(&r->lock);
}

/*
 * Stop the world: every other worker parks between two ops (or has left),
 * so no syscall is in flight and the exact checkers may run.
 */
static void world_check(struct run *r, struct worker *w)
{
	char msg[1024];
	long index = (long)w->done - 1;

	pthread_mutex_lock(&r->lock);
	if (r->pause) {
		pthread_mutex_unlock(&r->lock);
		park(r);
		return;
	}
	/* Workers peek at pause without the lock between ops. */
	__atomic_store_n(&r->pause, true, __ATOMIC_RELEASE);
	while (r->parked + 1 < r->active)
		pthread_cond_wait(&r->cond, &r->lock);
	pthread_mutex_unlock(&r->lock);

	/* The slab counts need an rcu_barrier() (milliseconds): one pause in ten. */
	if (vfs_check_tree(r->vfs, msg, sizeof(msg)) ||
	    (r->checks % 10 == 9 && vfs_check_slabs(r->vfs, msg, sizeof(msg))))
		report(r, FK_INVARIANT, NULL, index,
		       "stop-the-world check after %lu ops (in T%u's op %ld; the one after %lu ops "
		       "passed): %s",
		       r->global_ops, w->id, index, r->last_good, msg);
	else
		r->last_good = r->global_ops;
	r->checks++;

	pthread_mutex_lock(&r->lock);
	__atomic_store_n(&r->pause, false, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->run;
	struct op op;
	long ret;
	int slot;

	vfs_thread_enter();
	for (;;) {
		if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED))
			break;
		if (__atomic_load_n(&r->pause, __ATOMIC_ACQUIRE))
			park(r);
		if (w->done >= w->quota)
			break;
		if (r->deadline && !(w->done & 63) && now() >= r->deadline)
			break;
		gen_op(&w->rng, w->id, &op);
		__atomic_store_n(&r->shm->started[w->id], w->done + 1, __ATOMIC_RELAXED);
		if (exec_op(r, &op, (long)w->done, &ret, &slot))
			break;
		if (ret == RET_SKIP)
			w->skipped++;
		w->done++;
		if (r->tt->check_every &&
		    __atomic_add_fetch(&r->global_ops, 1, __ATOMIC_RELAXED) % r->tt->check_every ==
			    0)
			world_check(r, w);
	}
	/* Exit like a process would; a checker waits while we are still active. */
	if (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED))
		for (int i = 0; i < NSLOTS; i++)
			if (w->slot[i]) {
				task_exit(w->slot[i]);
				w->slot[i] = NULL;
			}
	pthread_mutex_lock(&r->lock);
	r->active--;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	vfs_thread_exit();
	return NULL;
}

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

static long rss_kib(void)
{
	long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &size, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void *rss_main(void *arg)
{
	struct rss_sampler *s = arg;
	struct timespec next;

	clock_gettime(CLOCK_REALTIME, &next);
	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		next.tv_sec++;
		if (pthread_cond_timedwait(&s->cond, &s->lock, &next) == 0 && s->stop)
			break;
		if (s->stop)
			break;
		if (s->n < RSS_MAX_SAMPLES) {
			struct vfs_cache_info ci[4];
			int nc = vfs_inspect_caches(s->vfs, ci, 4, NULL);

			s->kib[s->n] = rss_kib();
			printf("rss %4us %8ld KiB", s->n + 1, s->kib[s->n]);
			/* Racy counts, but they tell live state from allocator growth. */
			for (int i = 0; i < nc; i++)
				printf("%s%s %ld", i ? ", " : "  (in use: ", ci[i].name,
				       ci[i].in_use);
			printf("%s\n", nc ? ")" : "");
			fflush(stdout);
			s->n++;
		}
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static void rss_summary(const struct rss_sampler *s)
{
	long lo = LONG_MAX, hi = 0;
	unsigned int warm = s->n > 4 ? s->n / 4 : 0;

	if (!s->n) {
		printf("rss: no sample (the run took under a second)\n");
		return;
	}
	printf("rss curve (KiB, one sample a second):");
	for (unsigned int i = 0; i < s->n; i++) {
		printf("%s%ld", i % 12 ? " " : "\n  ", s->kib[i]);
		lo = s->kib[i] < lo ? s->kib[i] : lo;
		hi = s->kib[i] > hi ? s->kib[i] : hi;
	}
	printf("\nrss: min %ld KiB, max %ld KiB; after the first quarter (warm-up) it went %ld -> %ld "
	       "KiB (%+.1f%%)\n",
	       lo, hi, s->kib[warm], s->kib[s->n - 1],
	       s->kib[warm] ? 100.0 * (s->kib[s->n - 1] - s->kib[warm]) / s->kib[warm] : 0.0);
}

static struct vfs *child_vfs(const struct torture *tt)
{
	char err[512];
	struct vfs *v;

	vfs_thread_enter();
	v = vfs_new(&tt->cfg, err, sizeof(err));
	if (!v)
		fprintf(stderr, "vfslab torture: %s\n", err);
	return v;
}

static void print_stats(const struct run *r, double secs)
{
	unsigned long ok[OP_NR] = { 0 }, err[OP_NR] = { 0 }, total = 0, skipped = 0;

	for (unsigned int k = 0; k < r->tt->ntasks; k++) {
		for (int i = 0; i < OP_NR; i++) {
			ok[i] += r->w[k].ok[i];
			err[i] += r->w[k].err[i];
		}
		total += r->w[k].done;
		skipped += r->w[k].skipped;
	}
	printf("%lu ops in %.2f s (%.0f ops/s), %lu skipped (no task or slot), %lu "
	       "stop-the-world checks\n",
	       total, secs, secs > 0 ? total / secs : 0.0, skipped, r->checks);
	printf("ops per task:");
	for (unsigned int k = 0; k < r->tt->ntasks; k++)
		printf(" T%u %lu", k, r->w[k].done);
	printf("\nsucceeded/failed:");
	for (int i = 0; i < OP_NR_RANDOM; i++)
		printf("%s%s %lu/%lu", i % 6 ? ", " : "\n  ", ops[i].name, ok[i], err[i]);
	printf("\n");
	if (!r->tt->verbose)
		return;
	printf("errnos:\n");
	for (int i = 0; i < OP_NR_RANDOM; i++) {
		printf("  %-16s", ops[i].name);
		for (int e = 1; e < 134; e++) {
			unsigned long n = 0;

			for (unsigned int k = 0; k < r->tt->ntasks; k++)
				n += r->w[k].errnos[i][e];
			if (n)
				printf(" %s %lu", sys_errno_name(e), n);
		}
		printf("\n");
	}
}

static int run_threaded(const struct torture *tt, struct shared *shm)
{
	static struct rss_sampler rss;
	struct op setup[SETUP_MAX];
	struct run r = { .tt = tt, .shm = shm, .threaded = true };
	size_t nsetup = gen_setup(tt->ntasks, setup);
	char msg[1024];
	double t0;
	long ret, leaked;
	int slot;

	r.vfs = child_vfs(tt);
	if (!r.vfs)
		return 2;
	r.warns = vfs_check_warnings();
	r.w = calloc(tt->ntasks, sizeof(*r.w));
	if (!r.w)
		return 2;
	pthread_mutex_init(&r.lock, NULL);
	pthread_cond_init(&r.cond, NULL);
	for (unsigned int k = 0; k < tt->ntasks; k++) {
		r.w[k].run = &r;
		r.w[k].id = k;
		rng_init(&r.w[k].rng, tt->seed, k);
		r.w[k].quota = tt->ops ? tt->ops / tt->ntasks + (k < tt->ops % tt->ntasks) :
					 ULONG_MAX;
	}
	for (size_t i = 0; i < nsetup; i++)
		if (exec_op(&r, &setup[i], -1, &ret, &slot))
			goto failed;
	if (tt->rss) {
		pthread_mutex_init(&rss.lock, NULL);
		pthread_cond_init(&rss.cond, NULL);
		rss.vfs = r.vfs;
		pthread_create(&rss.tid, NULL, rss_main, &rss);
	}
	t0 = now();
	if (tt->seconds)
		r.deadline = t0 + tt->seconds;
	r.active = tt->ntasks;
	for (unsigned int k = 0; k < tt->ntasks; k++)
		if (pthread_create(&r.w[k].tid, NULL, worker_main, &r.w[k])) {
			fprintf(stderr, "vfslab torture: cannot start thread %u\n", k);
			_exit(2);
		}
	for (unsigned int k = 0; k < tt->ntasks; k++)
		pthread_join(r.w[k].tid, NULL);
	if (tt->rss) {
		pthread_mutex_lock(&rss.lock);
		rss.stop = true;
		pthread_cond_signal(&rss.cond);
		pthread_mutex_unlock(&rss.lock);
		pthread_join(rss.tid, NULL);
	}
	if (r.stop)
		goto failed;
	print_stats(&r, now() - t0);
	if (tt->rss)
		rss_summary(&rss);

	/* Quiescence: every task exited. */
	if (vfs_check_quiescent(r.vfs, msg, sizeof(msg))) {
		report(&r, FK_INVARIANT, NULL, -1, "at quiescence: %s", msg);
		goto failed;
	}
	leaked = vfs_destroy(r.vfs);
	if (leaked) {
		report(&r, FK_INVARIANT, NULL, -1, "vfs_destroy() returned %ld", leaked);
		goto failed;
	}
	printf("quiescent: refcounts at baseline, slab caches hold only reachable objects, "
	       "vfs_destroy() = 0\n");
	vfs_thread_exit();
	free(r.w);
	shm->result = RES_PASS;
	return 0;
failed:
	fflush(stdout);
	fflush(stderr);
	_exit(1);
}

/* ---- single-threaded replay of an op list ---- */

/*
 * The replay order, generated as it goes: the set-up, then the threads'
 * ops, either interleaved in proportion (each thread's op j at about
 * j / counts[k] of the way through, as the threads advanced side by side)
 * or task after task (all of T0's, then T1's, ...).
 */
enum order { ORDER_INTERLEAVED, ORDER_SEQUENTIAL };

static const char *const order_names[] = {
	[ORDER_INTERLEAVED] = "interleaved in proportion to their progress",
	[ORDER_SEQUENTIAL] = "task after task (all of T0's, then T1's, ...)",
};

struct opstream {
	const struct torture *tt;
	const unsigned long *counts;
	enum order order;
	struct op setup[SETUP_MAX];
	size_t nsetup, i;
	unsigned long j[MAX_THREADS]; /* ops of each thread so far */
	struct rng rng[MAX_THREADS];
};

static void stream_init(struct opstream *st, const struct torture *tt, const unsigned long *counts,
			enum order order)
{
	memset(st, 0, sizeof(*st));
	st->tt = tt;
	st->counts = counts;
	st->order = order;
	st->nsetup = gen_setup(tt->ntasks, st->setup);
	for (unsigned int k = 0; k < tt->ntasks; k++)
		rng_init(&st->rng[k], tt->seed, k);
}

static bool stream_next(struct opstream *st, struct op *op)
{
	int next = -1;
	double best = 2;

	if (st->i < st->nsetup) {
		*op = st->setup[st->i++];
		return true;
	}
	for (unsigned int k = 0; k < st->tt->ntasks; k++) {
		double at;

		if (st->j[k] >= st->counts[k])
			continue;
		if (st->order == ORDER_SEQUENTIAL) {
			next = k;
			break;
		}
		at = (st->j[k] + 0.5) / st->counts[k];
		if (at < best) {
			best = at;
			next = k;
		}
	}
	if (next < 0)
		return false;
	gen_op(&st->rng[next], next, op);
	st->j[next]++;
	st->i++;
	return true;
}

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

/* The slot an op will run in (exec_op's choice), for the line printed before it runs. */
static int op_slot(const struct run *r, const struct op *op)
{
	if (op->kind == OP_INIT || op->kind == OP_SPAWN || op->thread >= r->tt->ntasks)
		return 0;
	return live_slot(&r->w[op->thread], op->slot);
}

/* Half a line before the op runs, so a crash leaves the op on screen. */
static void print_op(const struct op *op, int slot)
{
	char line[600], label[16];

	fmt_op(op, line, sizeof(line));
	snprintf(label, sizeof(label), "T%u.%d", op->thread, slot < 0 ? op->slot : slot);
	printf("  %-6s %-60s ", label, line);
	fflush(stdout);
}

static void print_ret(long ret, const char *mark)
{
	char e[32];

	printf("# %s%s\n", ret_str(ret, e, sizeof(e)), mark);
}

static int run_replay(const struct replay *rp, struct shared *shm)
{
	struct run r = { .tt = rp->tt, .shm = shm };
	static struct opstream st;
	struct op cur;
	char msg[1024];
	long ret = 0;
	int slot;

	r.vfs = child_vfs(rp->tt);
	if (!r.vfs)
		_exit(2);
	r.warns = vfs_check_warnings();
	r.w = calloc(rp->tt->ntasks, sizeof(*r.w));
	if (!r.w)
		_exit(2);
	for (unsigned int k = 0; k < rp->tt->ntasks; k++) {
		r.w[k].run = &r;
		r.w[k].id = k;
	}
	if (!rp->ops)
		stream_init(&st, rp->tt, rp->counts, rp->order);
	for (size_t i = 0; i < rp->n; i++) {
		const struct op *op = rp->ops ? &rp->ops[i] : &cur;
		int failed;

		if (!rp->ops && !stream_next(&st, &cur))
			break;

		__atomic_store_n(&shm->replay_pos, (long)i, __ATOMIC_RELAXED);
		if (rp->print)
			print_op(op, op_slot(&r, op));
		failed = exec_op(&r, op, (long)i, &ret, &slot);
		if (!failed && rp->tree_every &&
		    (i % rp->tree_every == 0 || i + 1 == rp->n || op->kind == OP_EXIT) &&
		    vfs_check_tree(r.vfs, msg, sizeof(msg))) {
			report(&r, FK_INVARIANT, op, (long)i, "after %s: %s", ops[op->kind].name,
			       msg);
			failed = 1;
		}
		if (!failed && rp->tree_every &&
		    i % (256 * rp->tree_every) == 256 * rp->tree_every - 1 &&
		    vfs_check_slabs(r.vfs, msg, sizeof(msg))) {
			report(&r, FK_INVARIANT, op, (long)i, "after %s: %s", ops[op->kind].name,
			       msg);
			failed = 1;
		}
		if (rp->print)
			print_ret(ret, failed ? "   <-- FAILS" : "");
		if (failed) {
			fflush(stdout);
			_exit(0);
		}
	}
	/* Then every task exits, thread by thread, and the VFS must be at baseline. */
	__atomic_store_n(&shm->replay_pos, (long)rp->n, __ATOMIC_RELAXED);
	for (unsigned int k = 0; k < rp->tt->ntasks; k++)
		for (int i = 0; i < NSLOTS; i++)
			if (r.w[k].slot[i]) {
				task_exit(r.w[k].slot[i]);
				r.w[k].slot[i] = NULL;
			}
	if (vfs_check_quiescent(r.vfs, msg, sizeof(msg))) {
		if (rp->print)
			printf("  (all tasks exit)   <-- FAILS\n");
		report(&r, FK_INVARIANT, NULL, (long)rp->n, "at quiescence: %s", msg);
		fflush(stdout);
		_exit(0);
	}
	if (!rp->destroy) {
		/* No teardown: _exit, so LeakSanitizer does not take the VFS for a leak. */
		shm->result = RES_PASS;
		fflush(stdout);
		_exit(0);
	}
	ret = vfs_destroy(r.vfs);
	if (ret) {
		report(&r, FK_INVARIANT, NULL, (long)rp->n, "vfs_destroy() returned %ld", ret);
		fflush(stdout);
		_exit(0);
	}
	vfs_thread_exit();
	free(r.w);
	shm->result = RES_PASS;
	return 0;
}

/* ---- the supervisor ---- */

struct sup {
	const struct torture *tt;
	struct shared *shm;
	char *errtext; /* the last child's stderr */
	size_t errlen;
};

/* What a dead child's stderr says it died of: a short, stable signature. */
static void crash_sig(const char *text, char *sig, size_t len)
{
	static const char *const keys[] = { "BUG at ",		 "AddressSanitizer: ",
					    "LeakSanitizer: ",	 "runtime error: ",
					    "ThreadSanitizer: ", "--fail-on " };
	const char *best = NULL;
	size_t n;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && !best; i++)
		best = strstr(text, keys[i]);
	if (!best) {
		sig[0] = '\0';
		return;
	}
	n = strcspn(best, "\n");
	/* Drop addresses: "heap-use-after-free on address 0x..." keeps its kind. */
	if (strstr(best, " on address ") && (size_t)(strstr(best, " on address ") - best) < n)
		n = strstr(best, " on address ") - best;
	snprintf(sig, len, "%.*s", (int)n, best);
}

typedef int (*child_fn)(const void *arg, struct shared *shm);

static void echo_stderr(const struct sup *s)
{
	fflush(stdout);
	if (s->errlen)
		fwrite(s->errtext, 1, s->errlen, stderr);
	fflush(stderr);
}

static int threaded_child(const void *arg, struct shared *shm)
{
	return run_threaded(arg, shm);
}

static int replay_child(const void *arg, struct shared *shm)
{
	return run_replay(arg, shm);
}

static unsigned long progress(const struct sup *s)
{
	unsigned long p = (unsigned long)__atomic_load_n(&s->shm->replay_pos, __ATOMIC_RELAXED);

	for (unsigned int k = 0; k < s->tt->ntasks; k++)
		p += __atomic_load_n(&s->shm->started[k], __ATOMIC_RELAXED);
	return p;
}

/*
 * Run fn in a child; 0 if it passed, 1 with *f filled if it failed. quiet
 * sends the child's stdout to /dev/null; its stderr is kept in s->errtext
 * (echo_stderr() shows it).
 */
static int run_child(struct sup *s, child_fn fn, const void *arg, bool quiet, struct failure *f)
{
	int errfd = memfd_create("vfslab-torture-stderr", 0), status = 0;
	unsigned long last = 0, p;
	double changed = now();
	bool hung = false;
	unsigned int polls = 0;
	/* A single-threaded replay that stalls this long is stuck for good. */
	double hang = fn == replay_child && s->tt->hang_seconds > 15 ? 15 : s->tt->hang_seconds;
	pid_t pid;

	memset(s->shm, 0, sizeof(*s->shm));
	s->shm->replay_pos = 0;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		perror("vfslab torture: fork");
		exit(2);
	}
	if (pid == 0) {
		/* A crash is a result here, not something to dump a core for. */
		struct rlimit nocore = { 0, 0 };

		setrlimit(RLIMIT_CORE, &nocore);
		if (quiet) {
			int null = open("/dev/null", O_WRONLY);

			if (null >= 0)
				dup2(null, 1);
		}
		if (errfd >= 0)
			dup2(errfd, 2);
		exit(fn(arg, s->shm));
	}
	for (;;) {
		struct timespec ts = { 0, polls < 50  ? 1000000 :
					  polls < 200 ? 10000000 :
							50000000 };

		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		polls++;
		p = progress(s);
		if (p != last) {
			last = p;
			changed = now();
		} else if (now() - changed > hang) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			hung = true;
			break;
		}
		nanosleep(&ts, NULL);
	}
	free(s->errtext);
	s->errtext = NULL;
	s->errlen = 0;
	if (errfd >= 0) {
		off_t end = lseek(errfd, 0, SEEK_END);

		s->errtext = calloc(1, end + 1);
		if (s->errtext && end > 0 && pread(errfd, s->errtext, end, 0) == end)
			s->errlen = end;
		close(errfd);
	}
	memset(f, 0, sizeof(*f));
	if (__atomic_load_n(&s->shm->result, __ATOMIC_ACQUIRE) == RES_FAIL) {
		*f = s->shm->fail;
		return 1;
	}
	if (!hung && WIFEXITED(status) && WEXITSTATUS(status) == 0 && s->shm->result == RES_PASS)
		return 0;
	f->op_kind = -1;
	f->thread = -1;
	f->index = s->shm->replay_pos;
	if (hung) {
		f->kind = FK_HANG;
		snprintf(f->msg, sizeof(f->msg), "no op finished for %.0f s (a deadlock?)", hang);
		return 1;
	}
	f->kind = FK_CRASH;
	crash_sig(s->errtext ? s->errtext : "", f->sig, sizeof(f->sig));
	if (WIFSIGNALED(status))
		snprintf(f->msg, sizeof(f->msg), "killed by signal %d (%s)%s%s", WTERMSIG(status),
			 strsignal(WTERMSIG(status)), f->sig[0] ? ": " : "", f->sig);
	else
		snprintf(f->msg, sizeof(f->msg), "exited with status %d without a report%s%s",
			 WEXITSTATUS(status), f->sig[0] ? ": " : "", f->sig);
	return 1;
}

/* Failures that are "the same" while shrinking: the kind, the call, the crash site. */
static bool same_failure(const struct failure *a, const struct failure *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == FK_ERRNO || a->kind == FK_VALUE || a->kind == FK_INJECTED)
		return a->op_kind == b->op_kind;
	if (a->kind == FK_CRASH)
		return !strcmp(a->sig, b->sig);
	return true;
}

/* The first n ops of the replay order. */
static size_t build_list(const struct torture *tt, const unsigned long *counts, enum order order,
			 struct op *out, size_t n)
{
	static struct opstream st;
	size_t i = 0;

	stream_init(&st, tt, counts, order);
	while (i < n && stream_next(&st, &out[i]))
		i++;
	return i;
}

/* How often a replay of n ops runs the tree walk: every op while that is cheap. */
static unsigned int tree_every(size_t n)
{
	return n <= 20000 ? 1 : n <= 1000000 ? 16 : 256;
}

static int replay_list(struct sup *s, const struct op *list, size_t n, unsigned int tree_every,
		       bool print, bool destroy, struct failure *f)
{
	struct replay rp = { s->tt, list, NULL, ORDER_INTERLEAVED, n, tree_every, print, destroy };

	return run_child(s, replay_child, &rp, !print, f);
}

static void print_failure(const char *what, const struct failure *f)
{
	printf("%s: %s: %s\n", what, fkind_names[f->kind], f->msg);
}

/* The op the threaded run failed in, regenerated from the seed. */
static void print_threaded_op(const struct torture *tt, unsigned int thread, unsigned long index,
			      const char *what)
{
	struct rng r;
	struct op op;
	char line[600];

	rng_init(&r, tt->seed, thread);
	for (unsigned long i = 0; i <= index; i++)
		gen_op(&r, thread, &op);
	fmt_op(&op, line, sizeof(line));
	printf("  %s T%u op %lu: %s\n", what, thread, index, line);
}

/*
 * Delta debugging (Zeller's ddmin, complements only): drop ever smaller
 * chunks while the failure persists. A replay stops at the first failure,
 * so every success also cuts the list after the failing op.
 */
static size_t ddmin(struct sup *s, struct op *list, size_t n, size_t keep,
		    const struct failure *want, unsigned long *replays, double deadline)
{
	struct op *cand = malloc(n * sizeof(*cand));
	/* Only a failure found after the last op may need vfs_destroy() to show. */
	bool at_end = want->index >= (long)n;
	size_t parts = 2;
	struct failure f;

	if (!cand)
		return n;
	/* list[0..keep) stays: the init task and the fds 0-2 `vfslab shell` also has. */
	memcpy(cand, list, keep * sizeof(*cand));
	while (n >= keep + 2 && now() < deadline) {
		size_t len = n - keep, chunk = (len + parts - 1) / parts;
		bool reduced = false;

		for (size_t i = 0; i < parts && i * chunk < len && now() < deadline; i++) {
			size_t lo = keep + i * chunk, hi = lo + chunk < n ? lo + chunk : n,
			       m = keep;

			for (size_t j = keep; j < n; j++)
				if (j < lo || j >= hi)
					cand[m++] = list[j];
			(*replays)++;
			if (replay_list(s, cand, m, tree_every(m), false, at_end, &f) &&
			    same_failure(&f, want)) {
				/* Keep what it needed: up to the failing op, if one is to blame. */
				if (f.index >= (long)keep && (size_t)f.index < m)
					m = f.index + 1;
				memcpy(list, cand, m * sizeof(*list));
				n = m;
				parts = parts > 2 ? parts - 1 : 2;
				reduced = true;
				break;
			}
		}
		if (!reduced) {
			if (parts >= len)
				break;
			parts = parts * 2 < len ? parts * 2 : len;
		}
	}
	free(cand);
	return n;
}

static int shrink(struct sup *s, const struct failure *orig, const unsigned long *counts)
{
	const struct torture *tt = s->tt;
	unsigned long total = 0, replays = 1;
	double t0 = now();
	bool one_task = true;
	enum order order;
	struct replay rp;
	struct failure f;
	struct op *list;
	size_t n, full, nsetup = 0;

	for (unsigned int k = 0; k < tt->ntasks; k++)
		total += counts[k];
	full = total + tt->ntasks + 3;
	/*
	 * Generated as it runs, so a long run's ops need not fit in memory;
	 * in the threads' own proportions first, as that is nearer to what
	 * they did, then task after task.
	 */
	for (order = ORDER_INTERLEAVED; order <= ORDER_SEQUENTIAL; order++) {
		printf("replaying the %lu recorded ops single-threaded, %s\n", total,
		       order_names[order]);
		rp = (struct replay){ tt, NULL, counts, order, full, tree_every(full), false, true };
		if (run_child(s, replay_child, &rp, true, &f) && same_failure(&f, orig))
			break;
		if (f.kind)
			print_failure("  not reproduced; the replay failed differently", &f);
		else
			printf("  not reproduced: the replay passed every check\n");
		if (tt->ntasks == 1)
			order = ORDER_SEQUENTIAL; /* one task: both orders are the same */
	}
	if (order > ORDER_SEQUENTIAL) {
		printf("NOT reproduced single-threaded: the failure only occurs concurrently.\n"
		       "  seed %" PRIu64 ", ops per task:",
		       tt->seed);
		for (unsigned int k = 0; k < tt->ntasks; k++)
			printf(" T%u %lu", k, counts[k]);
		printf("\n");
		return 1;
	}
	print_failure("reproduced", &f);
	n = f.index >= 0 && (size_t)f.index < full ? (size_t)f.index + 1 : full;
	if (n > SHRINK_MAX_OPS) {
		printf("it fails at op %zu of the replay: too many to shrink (limit %lu); rerun with "
		       "--seed %" PRIu64 " and fewer --ops\n",
		       n, SHRINK_MAX_OPS, tt->seed);
		return 1;
	}
	list = malloc(n * sizeof(*list));
	if (!list)
		return 1;
	n = build_list(tt, counts, order, list, n);
	if (tt->shrink)
		n = ddmin(s, list, n, n > SETUP_PINNED ? SETUP_PINNED : 0, &f, &replays,
			  t0 + tt->shrink_seconds);
	for (size_t i = 0; i < n; i++) {
		one_task &= list[i].thread == 0;
		nsetup += list[i].kind == OP_INIT || list[i].kind == OP_SPAWN ||
			  (list[i].kind == OP_OPEN && list[i].p1 == PC_ROOT);
	}
	printf("\nminimal sequence (seed %" PRIu64
	       "): %zu ops and %zu of set-up, of %zu, after %lu "
	       "replays in %.1f s%s.\nT<thread>.<slot> names the task; the rest is the fstest "
	       "language%s%s%s%s:\n",
	       tt->seed, n - nsetup, nsetup, full, replays, now() - t0,
	       now() - t0 >= tt->shrink_seconds ? " (stopped by --shrink-seconds)" : "",
	       one_task ? " (one task: the lines run as they are in `vfslab shell`" : "",
	       one_task && tt->variant ? " --variant " : "",
	       one_task && tt->variant ? tt->variant : "", one_task ? ")" : "");
	if (replay_list(s, list, n, 1, true, true, &f) && (f.kind == FK_CRASH || f.kind == FK_HANG))
		printf("<-- %s\n", f.kind == FK_CRASH ? "CRASHES" : "HANGS");
	echo_stderr(s);
	print_failure("it fails with", &f);
	free(list);
	return 1;
}

static int parse_fail_on(struct torture *tt, const char *spec)
{
	char buf[128], *err, *crash;

	snprintf(buf, sizeof(buf), "%s", spec);
	err = strchr(buf, ':');
	if (!err)
		return -1;
	*err++ = '\0';
	crash = strchr(err, ':');
	if (crash) {
		*crash++ = '\0';
		if (strcmp(crash, "crash") && strcmp(crash, "hang"))
			return -1;
		tt->fail_on_crash = !strcmp(crash, "crash");
		tt->fail_on_hang = !tt->fail_on_crash;
	}
	tt->fail_on_op = -1;
	for (int i = 0; i < OP_NR_RANDOM; i++)
		if (!strcmp(ops[i].name, buf))
			tt->fail_on_op = i;
	for (int e = 1; e < 134; e++)
		if (sys_errno_name(e) && !strcmp(sys_errno_name(e), err))
			tt->fail_on_errno = e;
	return tt->fail_on_op < 0 || !tt->fail_on_errno ? -1 : 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vfslab torture [--tasks N] [--ops N] [--seconds S] [--seed N]\n"
		"                      [--variant SPEC] [--rss] [--verbose] [--check-every N]\n"
		"                      [--no-shrink] [--shrink-seconds S] [--hang-seconds S]\n"
		"                      [--fail-on CALL:ERRNO[:crash]]\n\n"
		"N threads, each with its own vfslab task (odd ones share the previous one's\n"
		"files with TASK_CLONE_FILES, the others are separate processes, every fourth\n"
		"is not root; tasks fork, with and without CLONE_FILES, and exit as they go),\n"
		"run seeded random open, openat, close, dup, dup2, stat, lstat, fstat, read,\n"
		"write, pread, pwrite, lseek, rename, renameat2 (EXCHANGE, NOREPLACE,\n"
		"WHITEOUT), unlink, mkdir, rmdir, link, linkat(AT_EMPTY_PATH), symlink,\n"
		"readlink, chmod, ftruncate, getdents64, close_range, chdir, fchdir and rm -rf\n"
		"over a few names in a few directory levels. Each return must be one Linux\n"
		"can give for that call here; the invariants of vfs/check.h are checked after\n"
		"each op, in a stop-the-world pause every --check-every ops (default 1000; the\n"
		"slab counts, which need an rcu_barrier(), every tenth pause) and at the end,\n"
		"when every task has exited, before vfs_destroy() which must return 0.\n\n"
		"A failure prints the seed, the op and the invariant, replays the ops\n"
		"single-threaded, task after task, and shrinks them to a minimal sequence in\n"
		"the fstest language (or says the failure only occurs concurrently). Crashes\n"
		"(BUG_ON, sanitizers) and hangs are failures too.\n\n"
		"  --tasks N          threads (default 4, at most %d)\n"
		"  --ops N            ops in all, split evenly (default: 20000 if no --seconds)\n"
		"  --seconds S        stop after S seconds\n"
		"  --seed N           the seed (default: from the clock; always printed)\n"
		"  --variant SPEC     run under a variant (`vfslab help variants`)\n"
		"  --rss              print the process' RSS every second, and the curve\n"
		"  --verbose          with the summary, every errno each call returned\n"
		"  --check-every N    ops between stop-the-world checks (0: only at the end)\n"
		"  --no-shrink        replay a failure, but do not shrink it\n"
		"  --shrink-seconds S give up shrinking after S seconds (default 120)\n"
		"  --hang-seconds S   no op finishing for S seconds is a hang (default 60)\n"
		"  --fail-on C:E      treat errno E of call C as a failure (to exercise the\n"
		"                     shrinker, or find a sequence that gives E); :crash aborts,\n"
		"                     :hang sleeps forever there\n",
		MAX_THREADS);
}

static int parse_num(const char *s, double *out)
{
	char *end;

	*out = strtod(s, &end);
	return *s && !*end && *out >= 0 ? 0 : -1;
}

int cmd_torture(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tasks", required_argument, NULL, 't' },
		{ "ops", required_argument, NULL, 'o' },
		{ "seconds", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },
		{ "variant", required_argument, NULL, 'v' },
		{ "rss", no_argument, NULL, 'r' },
		{ "check-every", required_argument, NULL, 'c' },
		{ "no-shrink", no_argument, NULL, 'n' },
		{ "shrink-seconds", required_argument, NULL, 'x' },
		{ "hang-seconds", required_argument, NULL, 'g' },
		{ "fail-on", required_argument, NULL, 'f' },
		{ "verbose", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct torture tt;
	struct sup s = { .tt = &tt };
	struct failure f;
	unsigned long counts[MAX_THREADS];
	char desc[1024];
	bool seeded = false;
	double x;
	int c, rc;

	memset(&tt, 0, sizeof(tt));
	tt.ntasks = 4;
	tt.check_every = 1000;
	tt.shrink = true;
	tt.shrink_seconds = 120;
	tt.hang_seconds = 60;
	tt.fail_on_op = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_num(optarg, &x) || x < 1 || x > MAX_THREADS) {
				cli_error("torture", "--tasks: 1 to %d", MAX_THREADS);
				return 2;
			}
			tt.ntasks = (unsigned int)x;
			break;
		case 'o':
			if (parse_num(optarg, &x) || x < 1) {
				cli_error("torture", "--ops: a positive count");
				return 2;
			}
			tt.ops = (unsigned long)x;
			break;
		case 's':
		case 'x':
		case 'g':
			if (parse_num(optarg, &x) || x <= 0) {
				cli_error("torture", "--%s: a positive number of seconds",
					  c == 's' ? "seconds" :
					  c == 'x' ? "shrink-seconds" :
						     "hang-seconds");
				return 2;
			}
			*(c == 's' ? &tt.seconds :
			  c == 'x' ? &tt.shrink_seconds :
				     &tt.hang_seconds) = x;
			break;
		case 'S': {
			char *end;

			tt.seed = strtoull(optarg, &end, 0);
			if (!*optarg || *end) {
				cli_error("torture", "--seed: a number");
				return 2;
			}
			seeded = true;
			break;
		}
		case 'v':
			tt.variant = optarg;
			break;
		case 'r':
			tt.rss = true;
			break;
		case 'c':
			if (parse_num(optarg, &x)) {
				cli_error("torture", "--check-every: a count (0: never)");
				return 2;
			}
			tt.check_every = (unsigned int)x;
			break;
		case 'n':
			tt.shrink = false;
			break;
		case 'f':
			if (parse_fail_on(&tt, optarg)) {
				cli_error("torture",
					  "--fail-on: CALL:ERRNO[:crash], e.g. rmdir:ENOTEMPTY");
				return 2;
			}
			break;
		case 'V':
			tt.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (cli_config("torture", tt.variant, &tt.cfg))
		return 2;
	if (!tt.ops && !tt.seconds)
		tt.ops = 20000;
	if (!seeded)
		tt.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	s.shm = mmap(NULL, sizeof(*s.shm), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		     0);
	if (s.shm == MAP_FAILED) {
		perror("vfslab torture: mmap");
		return 2;
	}
	vfs_config_describe(&tt.cfg, desc, sizeof(desc));
	printf("vfslab torture: seed %" PRIu64 ", %u tasks, ", tt.seed, tt.ntasks);
	if (tt.ops)
		printf("%lu ops%s", tt.ops, tt.seconds ? " or " : "");
	if (tt.seconds)
		printf("%.0f s", tt.seconds);
	printf("\nvariant: %s\n", desc);

	rc = run_child(&s, threaded_child, &tt, false, &f);
	echo_stderr(&s);
	if (!rc) {
		printf("PASS (seed %" PRIu64 ")\n", tt.seed);
		munmap(s.shm, sizeof(*s.shm));
		free(s.errtext);
		return 0;
	}
	for (unsigned int k = 0; k < tt.ntasks; k++)
		counts[k] = s.shm->started[k];
	printf("\nFAIL (seed %" PRIu64 "): %s: %s\n", tt.seed, fkind_names[f.kind], f.msg);
	if (f.thread >= 0 && f.index >= 0)
		print_threaded_op(&tt, f.thread, f.index, "failing op:");
	else if (f.kind == FK_CRASH || f.kind == FK_HANG)
		for (unsigned int k = 0; k < tt.ntasks; k++)
			if (counts[k])
				print_threaded_op(&tt, k, counts[k] - 1, "last started:");
	printf("  ops per task:");
	for (unsigned int k = 0; k < tt.ntasks; k++)
		printf(" T%u %lu", k, counts[k]);
	printf("\n");
	rc = shrink(&s, &f, counts);
	munmap(s.shm, sizeof(*s.shm));
	free(s.errtext);
	return rc;
}
