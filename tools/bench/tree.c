// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab bench --tree N: build a tree of N empty files (1000 per directory)
 * in vfslab and, beside it, on the host's tmpfs; report the time and what
 * each dentry and inode costs in memory.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tools/bench/bench.h"

#define PER_DIR 1000

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long rss_kib(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long pages = 0, rss = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
		rss = 0;
	fclose(f);
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Build the tree through sys; returns seconds, or a negative errno. */
static double build(const struct sys_ops *sys, void *ctx, const char *base, long n)
{
	char path[512];
	double t0 = now();
	long r;

	for (long i = 0; i < n; i++) {
		if (i % PER_DIR == 0) {
			snprintf(path, sizeof(path), "%s/d%ld", base, i / PER_DIR);
			r = sys->mkdir(ctx, path, 0755);
			if (r < 0)
				return r;
		}
		snprintf(path, sizeof(path), "%s/d%ld/f%ld", base, i / PER_DIR, i % PER_DIR);
		r = sys->open(ctx, path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (r < 0)
			return r;
		sys->close(ctx, (int)r);
	}
	return now() - t0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

int bench_tree(long n, bool peer, const char *tmpdir)
{
	struct vfs_cache_info ci[4];
	struct sys_vfs vctx = { 0 };
	char err[256], base[512];
	struct vfs *vfs;
	long rss0, rss1;
	double secs, ksecs = 0;
	int nc;

	vfs_thread_enter();
	rss0 = rss_kib();
	vfs = vfs_new(NULL, err, sizeof(err));
	if (!vfs || !(vctx.task = task_create_init(vfs))) {
		fprintf(stderr, "vfslab bench: %s\n", vfs ? "out of memory" : err);
		vfs_thread_exit();
		return -1;
	}
	sys_ops_vfslab.mkdir(&vctx, "/tree", 0755);
	secs = build(&sys_ops_vfslab, &vctx, "/tree", n);
	rss1 = rss_kib();
	vfs_rcu_barrier();
	nc = vfs_inspect_caches(vfs, ci, 4, NULL);
	if (peer && secs >= 0) {
		snprintf(base, sizeof(base), "%s/vfslab-tree.XXXXXX", tmpdir);
		if (!mkdtemp(base)) {
			fprintf(stderr, "vfslab bench: %s: %s\n", base, strerror(errno));
			peer = false;
		} else {
			ksecs = build(&sys_ops_host, NULL, base, n);
			nftw(base, rm_entry, 64, FTW_DEPTH | FTW_PHYS);
		}
	}
	if (secs < 0) {
		fprintf(stderr, "vfslab bench: building the tree failed: %s\n",
			strerror((int)-secs));
	} else {
		printf("tree of %ld files (%d per directory)\n", n, PER_DIR);
		printf("  vfslab: %.2f s, %.0f files/s\n", secs, n / secs);
		if (peer && ksecs > 0)
			printf("  kernel (%s): %.2f s, %.0f files/s; vfslab is %.1fx faster\n",
			       tmpdir, ksecs, n / ksecs, ksecs / secs);
		for (int i = 0; i < nc; i++)
			printf("  %-18s %9ld objects x %4zu bytes = %7.1f MiB\n", ci[i].name,
			       ci[i].in_use, ci[i].objsize,
			       ci[i].in_use * ci[i].objsize / 1048576.0);
		printf("  per file: dentry %zu bytes (the kernel's is 192), inode %zu bytes\n",
		       ci[0].objsize, ci[1].objsize);
		printf("  process RSS grew %.1f MiB: %.0f bytes per file, allocator overhead "
		       "included\n",
		       (rss1 - rss0) / 1024.0, (rss1 - rss0) * 1024.0 / n);
	}
	task_exit(vctx.task);
	vfs_destroy(vfs);
	vfs_thread_exit();
	return secs < 0 ? -1 : 0;
}
