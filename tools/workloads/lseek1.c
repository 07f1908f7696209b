// SPDX-License-Identifier: LGPL-2.1-or-later
/* lseek1: Separate file lseek. Loop: lseek(own fd, 0, SEEK_SET). */
#include "tools/bench/workload.h"

static long lseek1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/lseek1.%d", t->id);
	return bench_create_open(t, t->path, BENCH_IO_SIZE, O_RDWR, &t->fd);
}

static void lseek1_run(struct bench_task *t, unsigned long n)
{
	bench_lseek_loop(t, n);
}

const struct workload workload_lseek1 = {
	.name = "lseek1",
	.desc = "Separate file lseek",
	.loop = "lseek(own fd, 0, SEEK_SET)",
	.init = lseek1_init,
	.run = lseek1_run,
};
