// SPDX-License-Identifier: LGPL-2.1-or-later
/* open1: Separate file open/close. Loop: fd = open(own file, O_RDWR); close(fd). */
#include "tools/bench/workload.h"

static long open1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/open1.%d", t->id);
	return bench_create(t, t->path, 0);
}

static void open1_run(struct bench_task *t, unsigned long n)
{
	bench_open_close_loop(t, n);
}

const struct workload workload_open1 = {
	.name = "open1",
	.desc = "Separate file open/close",
	.loop = "fd = open(own file, O_RDWR); close(fd)",
	.init = open1_init,
	.run = open1_run,
};
