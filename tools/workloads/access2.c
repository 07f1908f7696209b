// SPDX-License-Identifier: LGPL-2.1-or-later
/* access2: Same file access. Loop: access(shared file, R_OK). */
#include "tools/bench/workload.h"

static long access2_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/access2");
	return bench_create(m, m->path, 0);
}

static long access2_init(struct bench_task *t)
{
	bench_path(t, t->path, "/access2");
	return 0;
}

static void access2_run(struct bench_task *t, unsigned long n)
{
	bench_access_loop(t, n);
}

const struct workload workload_access2 = {
	.name = "access2",
	.desc = "Same file access",
	.loop = "access(shared file, R_OK)",
	.prepare = access2_prepare,
	.init = access2_init,
	.run = access2_run,
};
