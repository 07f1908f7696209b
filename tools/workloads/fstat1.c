// SPDX-License-Identifier: LGPL-2.1-or-later
/* fstat1: Separate file fstat. Loop: fstat(own fd). */
#include "tools/bench/workload.h"

static long fstat1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/fstat1.%d", t->id);
	return bench_create_open(t, t->path, 0, O_RDWR, &t->fd);
}

static void fstat1_run(struct bench_task *t, unsigned long n)
{
	bench_fstat_loop(t, t->fd, n);
}

const struct workload workload_fstat1 = {
	.name = "fstat1",
	.desc = "Separate file fstat",
	.loop = "fstat(own fd)",
	.init = fstat1_init,
	.run = fstat1_run,
};
