// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The random op streams: each task's ops are a pure function of the seed
 * and its index, so a failure is replayed by generating them again.
 */
#include "tools/torture/engine.h"

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

void torture_rng_init(struct rng *r, uint64_t seed, unsigned int thread)
{
	r->s = seed * 0xd1342543de82ef95ull + (thread + 1) * 0x9e3779b97f4a7c15ull;
	rnext(r);
}

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

void torture_gen_op(struct rng *r, unsigned int thread, struct op *op)
{
	unsigned int total = 0, x, k = 0;

	for (int i = 0; i < OP_NR_RANDOM; i++)
		total += torture_ops[i].weight;
	x = rnd(r, total);
	for (; k < OP_NR_RANDOM - 1 && x >= torture_ops[k].weight; k++)
		x -= torture_ops[k].weight;
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
	case OP_LOOKUP_MISSING:
		/*
		 * stat of one of four names nothing creates, in a directory:
		 * threads miss the same names at once, the parallel lookups
		 * d_alloc_parallel() makes wait for each other.
		 */
		op->p1 = gen_dir(r) & ~(PC_SLASH | PC_DOTDOT);
		op->count = rnd(r, MISSING_NAMES);
		break;
	case OP_RMTREE:
		/* A whole top-level tree: nothing the renames buried stays forever. */
		op->p1 = gen_path_depth(r, R_ANY, 100, 0, 0) & ~(PC_SLASH | PC_DOTDOT);
		break;
	case OP_FORK:
		op->flags = rnd(r, 2) ? TASK_CLONE_FILES : 0;
		break;
	case OP_MOUNT: {
		/* Mostly new tmpfs and binds; a per-mount read-only remount now and then. */
		unsigned int y = rnd(r, 100);

		op->p1 = gen_dir(r);
		op->p2 = gen_dir(r);
		op->flags = y < 45 ? MOUNT_TMPFS :
			    y < 70 ? MOUNT_BIND :
			    y < 88 ? MOUNT_RBIND :
				     MOUNT_RDONLY;
		break;
	}
	case OP_UMOUNT:
		/* Lazy half the time: the tree goes while walkers and files still hold it. */
		op->p1 = gen_dir(r);
		op->flags = rnd(r, 2) ? MNT_DETACH : 0;
		break;
	}
}

/* The set-up: thread 0's init task with fds 0-2 (as `vfslab shell` has them), then one task per thread. */
size_t torture_gen_setup(unsigned int ntasks, struct op *out)
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
