// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One path walk, printed step by step from the walk's trace events: the
 * component and its hash, the dcache answer and the d_seq it sampled,
 * permission checks, symlinks, and where and why the walk left RCU mode.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#include "tools/fstest/fstest.h"
#include "tools/walk/walk.h"
#include "vfs/vfs.h"

struct tracer {
	struct vfs *vfs;
	bool steps; /* --trace: every step, not just the result */
	bool done; /* the result was printed */
};

static const char *type_name(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:
		return "directory";
	case S_IFREG:
		return "regular file";
	case S_IFLNK:
		return "symlink";
	case S_IFIFO:
		return "fifo";
	case S_IFCHR:
		return "char device";
	case S_IFBLK:
		return "block device";
	case S_IFSOCK:
		return "socket";
	}
	return "?";
}

static void trace_event(void *ctx, enum walk_event ev, const struct dentry *d, const char *name,
			unsigned int len, uint64_t a, uint64_t b, int err)
{
	struct tracer *tr = ctx;
	struct dentry_info di;

	if (!tr->steps && ev != WALK_EV_DONE)
		return;
	tr->done |= ev == WALK_EV_DONE;
	if (d)
		vfs_dentry_info(tr->vfs, d, &di);
	switch (ev) {
	case WALK_EV_START:
		if (err) {
			printf("  start     ref-walk refused: RESOLVE_CACHED wants the RCU walk "
			       "or nothing\n");
			break;
		}
		printf("  start     %s mode: %s\n", a ? "RCU-walk" : "ref-walk",
		       a ? "no references taken, no stores to any dentry" :
			   "a reference on each dentry as it goes");
		break;
	case WALK_EV_PERMISSION:
		printf("  perm      MAY_EXEC on \"%s\" (mode %04o): %s\n", di.name,
		       (unsigned int)(a & 07777), err ? "EACCES" : "ok");
		break;
	case WALK_EV_COMPONENT:
		printf("  component \"%.*s\" in \"%s\": hash 0x%08x (salted with the parent)\n",
		       (int)len, name, di.name, (unsigned int)a);
		break;
	case WALK_EV_HIT:
		printf("  hit       dentry \"%s\": d_seq %u sampled, d_count %d, %s\n", di.name,
		       (unsigned int)b, di.count, di.negative ? "negative" : type_name(di.mode));
		break;
	case WALK_EV_MISS:
		printf("  miss      \"%.*s\" not in the dcache under \"%s\": ask the filesystem\n",
		       (int)len, name, di.name);
		break;
	case WALK_EV_SEQ_RETRY:
		printf("  seq       d_seq of \"%s\" moved (was %u, now %u): a rename or unlink "
		       "raced us -> -ECHILD\n",
		       di.name, (unsigned int)a, di.seq);
		break;
	case WALK_EV_UNLAZY:
		if (a)
			printf("  unlazy    at \"%s\": legitimize_mnt (mount_lock seq %u unchanged) "
			       "+ lockref_get_not_dead + d_seq re-check ok, now in ref-walk "
			       "(d_count %d)\n",
			       di.name, (unsigned int)b, di.count);
		else
			printf("  unlazy    at \"%s\" failed: the walk restarts in ref-walk mode\n",
			       d ? di.name : "?");
		break;
	case WALK_EV_SYMLINK:
		printf("  symlink   \"%s\" -> \"%.*s\" (link %u of at most 40)\n", di.name,
		       (int)len, name, (unsigned int)a);
		break;
	case WALK_EV_MOUNT:
		if (name)
			printf("  mount     \"..\" at the root of mount %u: up to its mountpoint "
			       "\"%s\" in mount %u\n",
			       (unsigned int)b, di.name, (unsigned int)a);
		else if (b)
			printf("  mount     \"%s\" is a mountpoint (DCACHE_MOUNTED): the mount hash "
			       "gives mount %u, cross to its root; mount_lock seq %u unchanged\n",
			       di.name, (unsigned int)a, (unsigned int)b);
		else
			printf("  mount     \"%s\" is a mountpoint (DCACHE_MOUNTED): lookup_mnt() "
			       "gives mount %u with a reference, cross to its root\n",
			       di.name, (unsigned int)a);
		break;
	case WALK_EV_DOTDOT:
		printf("  dotdot    \"..\" -> \"%s\"\n", di.name);
		break;
	case WALK_EV_DONE:
		if (err)
			printf("  done      error %s\n", fstest_strerror(-err));
		else
			printf("  done      \"%s\": ino %lu, %s, d_count %d (the caller's reference "
			       "included)\n",
			       di.name, di.ino, type_name(di.mode), di.count);
		break;
	}
}

int walk_print_trace(struct vfs *vfs, struct task *t, const char *path, bool follow,
		     unsigned int resolve, bool steps)
{
	struct tracer tr = { vfs, steps, false };
	struct walk_trace wt = { trace_event, &tr };
	uint64_t before[VFS_EV_NR], after[VFS_EV_NR];
	int err;

	vfs_events_read_self(before);
	err = vfs_walk(t, AT_FDCWD, path, follow, resolve, &wt);
	vfs_events_read_self(after);
	/* An empty path fails (ENOENT) before the walk starts: its result all the same. */
	if (!tr.done)
		trace_event(&tr, WALK_EV_DONE, NULL, NULL, 0, 0, 0, err);
	printf("counters: rcu_walk %llu, unlazy_ok %llu, unlazy_fail %llu, ref_walk %llu, "
	       "dcache_miss %llu\n",
	       (unsigned long long)(after[VFS_EV_RCU_WALK] - before[VFS_EV_RCU_WALK]),
	       (unsigned long long)(after[VFS_EV_UNLAZY_OK] - before[VFS_EV_UNLAZY_OK]),
	       (unsigned long long)(after[VFS_EV_UNLAZY_FAIL] - before[VFS_EV_UNLAZY_FAIL]),
	       (unsigned long long)(after[VFS_EV_REF_WALK] - before[VFS_EV_REF_WALK]),
	       (unsigned long long)(after[VFS_EV_DCACHE_MISS] - before[VFS_EV_DCACHE_MISS]));
	return err;
}
