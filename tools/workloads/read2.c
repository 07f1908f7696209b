// SPDX-License-Identifier: LGPL-2.1-or-later
/* read2: Same file read. Loop: read(own fd on the shared file, 4 KiB); rewind at EOF. */
#include "tools/bench/workload.h"

static long read2_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/read2");
	return bench_create(m, m->path, BENCH_FILE_SIZE);
}

static long read2_init(struct bench_task *t)
{
	bench_path(t, t->path, "/read2");
	return bench_open(t, t->path, O_RDONLY, &t->fd);
}

static void read2_run(struct bench_task *t, unsigned long n)
{
	bench_read_loop(t, n);
}

const struct workload workload_read2 = {
	.name = "read2",
	.desc = "Same file read",
	.loop = "read(own fd on the shared file, 4 KiB); rewind at EOF",
	.prepare = read2_prepare,
	.init = read2_init,
	.run = read2_run,
	.warmup = BENCH_FILE_SIZE / BENCH_IO_SIZE,
};
