// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * dcount: open, read and close one small shared file, with a dget_parent()
 * and dput() on the parent dentry at each of the three, as fsnotify's
 * parent notification did until 2020: every task hammers the parent's
 * d_count as well as the file's. On vfslab the parent step comes from the
 * fsnotify-parent=on variant key this workload adds.
 */
#include <unistd.h>

#include "tools/bench/workload.h"

static long dcount_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/dcount");
	return bench_create(m, m->path, 64);
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
