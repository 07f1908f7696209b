// SPDX-License-Identifier: LGPL-2.1-or-later
/* dup1: Separate file dup/close. Loop: close(dup(own fd)). */
#include "tools/bench/workload.h"

static long dup1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/dup1.%d", t->id);
	return bench_create_open(t, t->path, 0, O_RDWR, &t->fd);
}

static void dup1_run(struct bench_task *t, unsigned long n)
{
	bench_dup_close_loop(t, t->fd, n);
}

const struct workload workload_dup1 = {
	.name = "dup1",
	.desc = "Separate file dup/close",
	.loop = "close(dup(own fd))",
	.init = dup1_init,
	.run = dup1_run,
};
