// SPDX-License-Identifier: LGPL-2.1-or-later
/* fstat2: Same file fstat. Loop: fstat(own fd on the shared file), as will-it-scale's. */
#include "tools/bench/workload.h"

static long fstat2_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/fstat2");
	return bench_create(m, m->path, 0);
}

/* Each task opens the file itself: one inode and dentry, a struct file each. */
static long fstat2_init(struct bench_task *t)
{
	bench_path(t, t->path, "/fstat2");
	return bench_open(t, t->path, O_RDONLY, &t->fd);
}

static void fstat2_run(struct bench_task *t, unsigned long n)
{
	bench_fstat_loop(t, t->fd, n);
}

const struct workload workload_fstat2 = {
	.name = "fstat2",
	.desc = "Same file fstat",
	.loop = "fstat(own fd on the shared file)",
	.prepare = fstat2_prepare,
	.init = fstat2_init,
	.run = fstat2_run,
};
