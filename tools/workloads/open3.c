// SPDX-License-Identifier: LGPL-2.1-or-later
/* open3: Same file open/close. Loop: fd = open(shared file, O_RDWR); close(fd). */
#include "tools/bench/workload.h"

static long open3_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/open3");
	return bench_create(m, m->path, 0);
}

static long open3_init(struct bench_task *t)
{
	bench_path(t, t->path, "/open3");
	return 0;
}

static void open3_run(struct bench_task *t, unsigned long n)
{
	bench_open_close_loop(t, n);
}

const struct workload workload_open3 = {
	.name = "open3",
	.desc = "Same file open/close",
	.loop = "fd = open(shared file, O_RDWR); close(fd)",
	.prepare = open3_prepare,
	.init = open3_init,
	.run = open3_run,
};
