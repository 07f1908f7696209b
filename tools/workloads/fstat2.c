// SPDX-License-Identifier: LGPL-2.1-or-later
/* fstat2: Same file fstat. Loop: fstat(the fd opened before the tasks started). */
#include "tools/bench/workload.h"

static long fstat2_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/fstat2");
	return bench_create_open(m, m->path, 0, O_RDWR, &m->shared_fd);
}

static void fstat2_run(struct bench_task *t, unsigned long n)
{
	bench_fstat_loop(t, t->shared_fd, n);
}

const struct workload workload_fstat2 = {
	.name = "fstat2",
	.desc = "Same file fstat",
	.loop = "fstat(the fd opened before the tasks started)",
	.prepare = fstat2_prepare,
	.run = fstat2_run,
};
