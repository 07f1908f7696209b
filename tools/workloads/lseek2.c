// SPDX-License-Identifier: LGPL-2.1-or-later
/* lseek2: Same file lseek. Loop: lseek(own fd on the shared file, 0, SEEK_SET). */
#include "tools/bench/workload.h"

static long lseek2_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/lseek2");
	return bench_create(m, m->path, BENCH_IO_SIZE);
}

static long lseek2_init(struct bench_task *t)
{
	bench_path(t, t->path, "/lseek2");
	return bench_open(t, t->path, O_RDWR, &t->fd);
}

static void lseek2_run(struct bench_task *t, unsigned long n)
{
	bench_lseek_loop(t, n);
}

const struct workload workload_lseek2 = {
	.name = "lseek2",
	.desc = "Same file lseek",
	.loop = "lseek(own fd on the shared file, 0, SEEK_SET)",
	.prepare = lseek2_prepare,
	.init = lseek2_init,
	.run = lseek2_run,
};
