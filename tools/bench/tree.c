// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab bench --tree N: build a tree of N empty files (1000 per directory)
 * in vfslab and, beside it, on the host's tmpfs; report the time and what
 * each dentry and inode costs in memory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tools/bench/bench.h"
#include "tools/interrupt.h"

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

/*
 * Build the tree through sys until n files or a signal; *built gets how
 * many were made. Returns seconds, or a negative errno.
 */
static double build(const struct sys_ops *sys, void *ctx, const char *base, long n, long *built,
		    struct progress *p, const char *side)
{
	char path[512];
	double t0 = now();
	long r;

	*built = 0;
	for (long i = 0; i < n && !intr_pending(); i++) {
		if (i % 1024 == 0 && progress_due(p))
			progress_print(p, "tree: %s, %ld of %ld files", side, i, n);
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
		*built = i + 1;
	}
	return now() - t0;
}

/* What was built: time, rate, memory per file; marked when a signal cut it short. */
static void print_tree(long n, long done, double secs, const char *tmpdir, bool peer, long kdone,
		       double ksecs, const struct vfs_cache_info *ci, int nc, long rss_kib)
{
	printf("tree of %ld files (%d per directory)\n", n, PER_DIR);
	if (intr_pending()) {
		printf("INTERRUPTED by %s: partial result: vfslab built %ld of the %ld files",
		       intr_name(), done, n);
		if (peer)
			printf(", the kernel %ld", kdone);
		printf("\n");
	}
	if (!done)
		return;
	printf("  vfslab: %.2f s, %.0f files/s\n", secs, done / secs);
	if (kdone == n && done == n)
		printf("  kernel (%s): %.2f s, %.0f files/s; vfslab is %.1fx faster\n", tmpdir,
		       ksecs, n / ksecs, ksecs / secs);
	else if (kdone)
		printf("  kernel (%s): %ld files in %.2f s, %.0f files/s; vfslab is %.1fx faster\n",
		       tmpdir, kdone, ksecs, kdone / ksecs, (done / secs) / (kdone / ksecs));
	for (int i = 0; i < nc; i++)
		printf("  %-18s %9ld objects x %4zu bytes = %7.1f MiB\n", ci[i].name, ci[i].in_use,
		       ci[i].objsize, ci[i].in_use * ci[i].objsize / 1048576.0);
	printf("  per file: dentry %zu bytes (the kernel's is 192), inode %zu bytes\n",
	       ci[0].objsize, ci[1].objsize);
	printf("  process RSS grew %.1f MiB: %.0f bytes per file, allocator overhead "
	       "included\n",
	       rss_kib / 1024.0, rss_kib * 1024.0 / done);
}

int bench_tree(long n, bool peer, const char *tmpdir)
{
	struct vfs_cache_info ci[4];
	struct sys_vfs vctx = { 0 };
	char err[256], base[512];
	struct progress p;
	struct vfs *vfs;
	long rss0, rss1, done, kdone = 0;
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
	progress_init(&p, "bench");
	secs = build(&sys_ops_vfslab, &vctx, "/tree", n, &done, &p, "vfslab");
	rss1 = rss_kib();
	vfs_rcu_barrier();
	nc = vfs_inspect_caches(vfs, ci, 4, NULL);
	if (peer && secs >= 0 && !intr_pending()) {
		snprintf(base, sizeof(base), "%s/vfslab-tree.XXXXXX", tmpdir);
		if (!intr_mkdtemp(base)) {
			fprintf(stderr, "vfslab bench: %s: %s\n", base, strerror(errno));
		} else {
			ksecs = build(&sys_ops_host, NULL, base, n, &kdone, &p, "kernel");
			if (ksecs < 0)
				kdone = 0;
			intr_scratch_rm(base);
		}
	}
	if (secs < 0) {
		fprintf(stderr, "vfslab bench: building the tree failed: %s\n",
			strerror((int)-secs));
	} else {
		print_tree(n, done, secs, tmpdir, peer, kdone, ksecs, ci, nc, rss1 - rss0);
	}
	task_exit(vctx.task);
	vfs_destroy(vfs);
	vfs_thread_exit();
	return secs < 0 ? -1 : 0;
}
