// SPDX-License-Identifier: LGPL-2.1-or-later
/* pread1: Separate file pread. Loop: pread(own fd, 4 KiB, offset 0). */
#include <unistd.h>

#include "tools/bench/workload.h"

static long pread1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/pread1.%d", t->id);
	t->fd = bench_create(t, t->path, BENCH_FILE_SIZE);
	if (t->fd < 0)
		return t->fd;
	t->fd = t->sys->open(t->ctx, t->path, O_RDONLY, 0);
	return t->fd < 0 ? t->fd : 0;
}

static void pread1_run(struct bench_task *t, unsigned long n)
{
	while (n--)
		bench_check(t, t->sys->pread(t->ctx, t->fd, t->buf, BENCH_IO_SIZE, 0));
}

const struct workload workload_pread1 = {
	.name = "pread1",
	.desc = "Separate file pread",
	.loop = "pread(own fd, 4 KiB, offset 0)",
	.init = pread1_init,
	.run = pread1_run,
};
