// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * stat2: Same file stat. Loop: stat(shared file). The name is as long as
 * will-it-scale's willitscale.XXXXXX, so RCU lookup reads past the first
 * cache line of the dentry name, as in the d_lockref seed.
 */
#include "tools/bench/workload.h"

static long stat2_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/willitscale.stat02");
	return bench_create(m, m->path, 0);
}

static long stat2_init(struct bench_task *t)
{
	bench_path(t, t->path, "/willitscale.stat02");
	return 0;
}

static void stat2_run(struct bench_task *t, unsigned long n)
{
	bench_stat_loop(t, n);
}

const struct workload workload_stat2 = {
	.name = "stat2",
	.desc = "Same file stat",
	.loop = "stat(shared file)",
	.prepare = stat2_prepare,
	.init = stat2_init,
	.run = stat2_run,
};
