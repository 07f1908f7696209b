// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pread3: Same file pread to different offsets. Loop: pread(own fd on the
 * shared file, 4 KiB, this task's page), as will-it-scale's.
 */
#include "tools/bench/workload.h"

/* A page per task, as will-it-scale sizes it: no two tasks read one page. */
static long pread3_prepare(struct bench_task *m, int nr_tasks)
{
	bench_path(m, m->path, "/pread3");
	return bench_create(m, m->path, (long)nr_tasks * BENCH_IO_SIZE);
}

static long pread3_init(struct bench_task *t)
{
	bench_path(t, t->path, "/pread3");
	t->off = (long long)t->id * BENCH_IO_SIZE;
	return bench_open(t, t->path, O_RDONLY, &t->fd);
}

static void pread3_run(struct bench_task *t, unsigned long n)
{
	bench_pread_loop(t, t->fd, t->off, n);
}

const struct workload workload_pread3 = {
	.name = "pread3",
	.desc = "Same file pread to different offsets",
	.loop = "pread(own fd on the shared file, 4 KiB, this task's offset)",
	.prepare = pread3_prepare,
	.init = pread3_init,
	.run = pread3_run,
};
