// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab walk: a teaching trace of one path walk. It builds the path in a
 * fresh VFS (or runs fstest lines given with -e), then walks it the way
 * stat() does and prints each step: the component and its hash, the dcache
 * answer and the d_seq it sampled, permission checks, symlinks, and where
 * and why the walk left RCU mode.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/cmd.h"
#include "tools/fstest/fstest.h"
#include "tools/fstest/vfs.h"
#include "vfs/vfs.h"

struct tracer {
	struct vfs *vfs;
	bool steps; /* --trace: every step, not just the result */
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
	if (d)
		vfs_dentry_info(tr->vfs, d, &di);
	switch (ev) {
	case WALK_EV_START:
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
			printf("  unlazy    at \"%s\": lockref_get_not_dead + d_seq re-check ok, "
			       "now in ref-walk (d_count %d)\n",
			       di.name, di.count);
		else
			printf("  unlazy    at \"%s\" failed: the walk restarts in ref-walk mode\n",
			       d ? di.name : "?");
		break;
	case WALK_EV_SYMLINK:
		printf("  symlink   \"%s\" -> \"%.*s\" (link %u of at most 40)\n", di.name,
		       (int)len, name, (unsigned int)a);
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

static void walk_usage(FILE *f)
{
	fprintf(f,
		"usage: vfslab walk [--trace] [--no-create] [-e FSTEST-LINE]... [--as UID[:GID]]\n"
		"                   [--nofollow] [--variant SPEC] PATH\n\n"
		"Creates PATH in a fresh VFS (directories 0755, the last component a\n"
		"file) unless --no-create, runs the -e lines (pjdfstest language, e.g.\n"
		"-e 'symlink /a/b /l'), then walks PATH as stat() does and prints the result; --trace prints\n"
		"every step: components, hashes, d_seq samples, permission checks,\n"
		"symlinks, and where and why the walk left RCU mode.\n");
}

int cli_walk_trace(struct vfs *vfs, struct task *t, const char *path, bool follow, bool steps)
{
	struct tracer tr = { vfs, steps };
	struct walk_trace wt = { trace_event, &tr };
	uint64_t before[VFS_EV_NR], after[VFS_EV_NR];
	int err;

	vfs_events_read_self(before);
	err = vfs_walk(t, AT_FDCWD, path, follow, &wt);
	vfs_events_read_self(after);
	printf("counters: rcu_walk %llu, unlazy_ok %llu, unlazy_fail %llu, ref_walk %llu, "
	       "dcache_miss %llu\n",
	       (unsigned long long)(after[VFS_EV_RCU_WALK] - before[VFS_EV_RCU_WALK]),
	       (unsigned long long)(after[VFS_EV_UNLAZY_OK] - before[VFS_EV_UNLAZY_OK]),
	       (unsigned long long)(after[VFS_EV_UNLAZY_FAIL] - before[VFS_EV_UNLAZY_FAIL]),
	       (unsigned long long)(after[VFS_EV_REF_WALK] - before[VFS_EV_REF_WALK]),
	       (unsigned long long)(after[VFS_EV_DCACHE_MISS] - before[VFS_EV_DCACHE_MISS]));
	return err;
}

int cmd_walk(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "trace", no_argument, NULL, 't' },
		{ "no-create", no_argument, NULL, 'n' },
		{ "nofollow", no_argument, NULL, 'l' },
		{ "as", required_argument, NULL, 'a' },
		{ "variant", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *variant = NULL, *lines[64];
	int nlines = 0, c, ret = 0, err;
	bool create = true, follow = true;
	unsigned long uid = 0, gid = 0;
	struct vfs_config cfg;
	struct fstest_vfs fv;
	struct vfs *vfs;
	struct tracer tr = { 0 };
	FILE *null;

	optind = 1;
	while ((c = getopt_long(argc, argv, "e:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			tr.steps = true;
			break;
		case 'n':
			create = false;
			break;
		case 'l':
			follow = false;
			break;
		case 'e':
			if (nlines == 64) {
				cli_error("walk", "at most 64 -e lines");
				return 2;
			}
			lines[nlines++] = optarg;
			break;
		case 'a': {
			char *end;

			uid = strtoul(optarg, &end, 10);
			gid = uid;
			if (*end == ':')
				gid = strtoul(end + 1, &end, 10);
			if (*end || uid > 65535 * 65536ul || gid > 65535 * 65536ul) {
				cli_error("walk", "--as: expected UID[:GID], got '%s'", optarg);
				return 2;
			}
			break;
		}
		case 'v':
			variant = optarg;
			break;
		case 'h':
			walk_usage(stdout);
			return 0;
		default:
			walk_usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		walk_usage(stderr);
		return 2;
	}
	if (cli_config("walk", variant, &cfg))
		return 2;
	vfs = cli_vfs_new("walk", &cfg);
	if (!vfs)
		return 1;
	if (fstest_vfs_init(&fv, vfs)) {
		cli_error("walk", "cannot create the initial task");
		cli_vfs_destroy("walk", vfs);
		return 1;
	}
	null = fopen("/dev/null", "w");
	if (create && argv[optind][0] == '/') {
		char line[4200];
		const char *p = argv[optind];

		for (const char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
			snprintf(line, sizeof(line), "mkdir %.*s 0755", (int)(s - p), p);
			fstest_run_line(&fstest_vfs_backend, &fv, line, null, stderr, "walk", 0);
		}
		if (p[strlen(p) - 1] != '/') {
			snprintf(line, sizeof(line), "open %s O_CREAT,O_WRONLY 0644", p);
			fstest_run_line(&fstest_vfs_backend, &fv, line, null, stderr, "walk", 0);
		}
	}
	for (int i = 0; i < nlines; i++) {
		printf("setup: %s -> ", lines[i]);
		fflush(stdout);
		if (fstest_run_line(&fstest_vfs_backend, &fv, lines[i], stdout, stderr, "-e",
				    i + 1))
			ret = 1;
	}
	{
		struct fstest_cred cred = { 0 };

		cred.has_uid = uid != 0;
		cred.uid = uid;
		cred.has_groups = gid != 0;
		cred.gid = gid;
		cred.ngroups = 1;
		cred.groups[0] = gid;
		cred.umask = 022;
		fstest_vfs_backend.begin(&fv, &cred);
	}
	printf("walk \"%s\" as uid %lu gid %lu (%s)\n", argv[optind], uid, gid,
	       follow ? "stat: a trailing symlink is followed" : "lstat: not followed");
	err = cli_walk_trace(vfs, fstest_vfs_task(&fv), argv[optind], follow, tr.steps);
	fstest_vfs_backend.end(&fv);
	if (null)
		fclose(null);
	fstest_vfs_fini(&fv);
	if (cli_vfs_destroy("walk", vfs))
		ret = 1;
	return err ? 1 : ret;
}
