// SPDX-License-Identifier: LGPL-2.1-or-later
/* dup1: Separate file dup/close. Loop: close(dup(own fd)). */
#include <unistd.h>

#include "tools/bench/workload.h"

static long dup1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/dup1.%d", t->id);
	t->fd = bench_create(t, t->path, 0);
	if (t->fd < 0)
		return t->fd;
	t->fd = t->sys->open(t->ctx, t->path, O_RDWR, 0);
	return t->fd < 0 ? t->fd : 0;
}

static void dup1_run(struct bench_task *t, unsigned long n)
{
	while (n--) {
		long fd = t->sys->dup(t->ctx, t->fd);

		bench_check(t, fd);
		if (fd >= 0)
			t->sys->close(t->ctx, fd);
	}
}

const struct workload workload_dup1 = {
	.name = "dup1",
	.desc = "Separate file dup/close",
	.loop = "close(dup(own fd))",
	.init = dup1_init,
	.run = dup1_run,
};
