// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * dcount: open, read and close one small shared file in a watched
 * directory, so that each of the three takes __fsnotify_parent()'s
 * dget_parent() and dput() on the directory: every task hammers the
 * parent's d_count as well as the file's. On vfslab the parent step comes
 * from the fsnotify-parent=on variant key this workload adds; the kernel
 * gets it from an inotify watch prepare puts on the directory.
 */
#include <sys/inotify.h>
#include <unistd.h>

#include "tools/bench/workload.h"

/*
 * The watch asks for IN_ATTRIB, an event a child can raise (so the kernel
 * marks the children DCACHE_FSNOTIFY_PARENT_WATCHED) but that open, read
 * and close never do: each call takes and drops the parent and queues
 * nothing. Its descriptor is the shared one, which the runner closes.
 */
static long dcount_watch(struct bench_task *m)
{
	long fd = m->sys->inotify_init1(m->ctx, IN_CLOEXEC);
	long wd;

	if (fd < 0)
		return fd;
	m->shared_fd = (int)fd;
	wd = m->sys->inotify_add_watch(m->ctx, (int)fd, m->base, IN_ATTRIB);
	return wd < 0 ? wd : 0;
}

static long dcount_prepare(struct bench_task *m, int nr_tasks)
{
	long r;

	(void)nr_tasks;
	bench_path(m, m->path, "/dcount");
	r = bench_create(m, m->path, 64);
	if (!r && m->sys->inotify_init1)
		r = dcount_watch(m);
	return r;
}

static long dcount_init(struct bench_task *t)
{
	bench_path(t, t->path, "/dcount");
	return 0;
}

static void dcount_run(struct bench_task *t, unsigned long n)
{
	while (n--) {
		long fd = t->sys->open(t->ctx, t->path, O_RDONLY, 0);

		bench_check(t, fd);
		if (fd < 0)
			continue;
		bench_check(t, t->sys->read(t->ctx, fd, t->buf, 64));
		t->sys->close(t->ctx, fd);
	}
}

const struct workload workload_dcount = {
	.name = "dcount",
	.desc = "Same file open/read/close with a parent dentry get/put per call",
	.loop = "fd = open(shared file); read(fd, 64); close(fd); each with dget_parent+dput",
	.prepare = dcount_prepare,
	.init = dcount_init,
	.run = dcount_run,
	.vfs_variant = "fsnotify-parent=on",
};
