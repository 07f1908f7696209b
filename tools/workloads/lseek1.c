// SPDX-License-Identifier: LGPL-2.1-or-later
/* lseek1: Separate file lseek. Loop: lseek(own fd, 0, SEEK_SET). */
#include <unistd.h>

#include "tools/bench/workload.h"

static long lseek1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/lseek1.%d", t->id);
	t->fd = bench_create(t, t->path, BENCH_IO_SIZE);
	if (t->fd < 0)
		return t->fd;
	t->fd = t->sys->open(t->ctx, t->path, O_RDWR, 0);
	return t->fd < 0 ? t->fd : 0;
}

static void lseek1_run(struct bench_task *t, unsigned long n)
{
	while (n--)
		bench_check(t, t->sys->lseek(t->ctx, t->fd, 0, SEEK_SET));
}

const struct workload workload_lseek1 = {
	.name = "lseek1",
	.desc = "Separate file lseek",
	.loop = "lseek(own fd, 0, SEEK_SET)",
	.init = lseek1_init,
	.run = lseek1_run,
};
