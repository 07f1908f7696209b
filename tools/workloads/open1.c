// SPDX-License-Identifier: LGPL-2.1-or-later
/* open1: Separate file open/close. Loop: fd = open(own file, O_RDWR); close(fd). */
#include <unistd.h>

#include "tools/bench/workload.h"

static long open1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/open1.%d", t->id);
	return bench_create(t, t->path, 0);
}

static void open1_run(struct bench_task *t, unsigned long n)
{
	while (n--) {
		long fd = t->sys->open(t->ctx, t->path, O_RDWR, 0);

		bench_check(t, fd);
		if (fd >= 0)
			t->sys->close(t->ctx, fd);
	}
}

const struct workload workload_open1 = {
	.name = "open1",
	.desc = "Separate file open/close",
	.loop = "fd = open(own file, O_RDWR); close(fd)",
	.init = open1_init,
	.run = open1_run,
};
