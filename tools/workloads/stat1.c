// SPDX-License-Identifier: LGPL-2.1-or-later
/* stat1: Separate file stat. Loop: stat(own file). */
#include "tools/bench/workload.h"

static long stat1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/stat1.%d", t->id);
	return bench_create(t, t->path, 0);
}

static void stat1_run(struct bench_task *t, unsigned long n)
{
	bench_stat_loop(t, n);
}

const struct workload workload_stat1 = {
	.name = "stat1",
	.desc = "Separate file stat",
	.loop = "stat(own file)",
	.init = stat1_init,
	.run = stat1_run,
};
