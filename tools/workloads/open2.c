// SPDX-License-Identifier: LGPL-2.1-or-later
/* open2: Separate file open/close in different directories. Loop: fd = open(own dir/willitscale, O_RDWR); close(fd). */
#include "tools/bench/workload.h"

static long open2_init(struct bench_task *t)
{
	long r = bench_mkdir_own(t, "open2");

	if (r < 0)
		return r;
	bench_path(t, t->path, "/open2.%d/willitscale", t->id);
	return bench_create(t, t->path, 0);
}

static void open2_run(struct bench_task *t, unsigned long n)
{
	bench_open_close_loop(t, n);
}

const struct workload workload_open2 = {
	.name = "open2",
	.desc = "Separate file open/close in different directories",
	.loop = "fd = open(own dir/willitscale, O_RDWR); close(fd)",
	.init = open2_init,
	.run = open2_run,
};
