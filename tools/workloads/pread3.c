// SPDX-License-Identifier: LGPL-2.1-or-later
/* pread3: Same file pread to different offsets. Loop: pread(the shared fd, 4 KiB, this task's offset). */
#include "tools/bench/workload.h"

static long pread3_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/pread3");
	return bench_create_open(m, m->path, BENCH_FILE_SIZE, O_RDONLY, &m->shared_fd);
}

static long pread3_init(struct bench_task *t)
{
	t->off = (long long)(t->id % (BENCH_FILE_SIZE / BENCH_IO_SIZE)) * BENCH_IO_SIZE;
	return 0;
}

static void pread3_run(struct bench_task *t, unsigned long n)
{
	bench_pread_loop(t, t->shared_fd, t->off, n);
}

const struct workload workload_pread3 = {
	.name = "pread3",
	.desc = "Same file pread to different offsets",
	.loop = "pread(the shared fd, 4 KiB, this task's offset)",
	.prepare = pread3_prepare,
	.init = pread3_init,
	.run = pread3_run,
};
