// SPDX-License-Identifier: LGPL-2.1-or-later
/* fstat1: Separate file fstat. Loop: fstat(own fd). */
#include <unistd.h>

#include "tools/bench/workload.h"

static long fstat1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/fstat1.%d", t->id);
	t->fd = bench_create(t, t->path, 0);
	if (t->fd < 0)
		return t->fd;
	t->fd = t->sys->open(t->ctx, t->path, O_RDWR, 0);
	return t->fd < 0 ? t->fd : 0;
}

static void fstat1_run(struct bench_task *t, unsigned long n)
{
	struct stat st;

	while (n--)
		bench_check(t, t->sys->fstat(t->ctx, t->fd, &st));
}

const struct workload workload_fstat1 = {
	.name = "fstat1",
	.desc = "Separate file fstat",
	.loop = "fstat(own fd)",
	.init = fstat1_init,
	.run = fstat1_run,
};
