// SPDX-License-Identifier: LGPL-2.1-or-later
/* pread1: Separate file pread. Loop: pread(own fd, 4 KiB, offset 0). */
#include "tools/bench/workload.h"

static long pread1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/pread1.%d", t->id);
	return bench_create_open(t, t->path, BENCH_FILE_SIZE, O_RDONLY, &t->fd);
}

static void pread1_run(struct bench_task *t, unsigned long n)
{
	bench_pread_loop(t, t->fd, 0, n);
}

const struct workload workload_pread1 = {
	.name = "pread1",
	.desc = "Separate file pread",
	.loop = "pread(own fd, 4 KiB, offset 0)",
	.init = pread1_init,
	.run = pread1_run,
};
