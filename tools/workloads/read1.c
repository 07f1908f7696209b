// SPDX-License-Identifier: LGPL-2.1-or-later
/* read1: Separate file read. Loop: read(own fd, 4 KiB); rewind at EOF. */
#include "tools/bench/workload.h"

static long read1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/read1.%d", t->id);
	return bench_create_open(t, t->path, BENCH_FILE_SIZE, O_RDONLY, &t->fd);
}

static void read1_run(struct bench_task *t, unsigned long n)
{
	bench_read_loop(t, n);
}

const struct workload workload_read1 = {
	.name = "read1",
	.desc = "Separate file read",
	.loop = "read(own fd, 4 KiB); rewind at EOF",
	.init = read1_init,
	.run = read1_run,
	.warmup = BENCH_FILE_SIZE / BENCH_IO_SIZE,
};
