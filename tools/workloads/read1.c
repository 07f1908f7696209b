// SPDX-License-Identifier: LGPL-2.1-or-later
/* read1: Separate file read. Loop: read(own fd, 4 KiB); rewind at EOF. */
#include <unistd.h>

#include "tools/bench/workload.h"

static long read1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/read1.%d", t->id);
	t->fd = bench_create(t, t->path, BENCH_FILE_SIZE);
	if (t->fd < 0)
		return t->fd;
	t->fd = t->sys->open(t->ctx, t->path, O_RDONLY, 0);
	return t->fd < 0 ? t->fd : 0;
}

static void read1_run(struct bench_task *t, unsigned long n)
{
	while (n--) {
		long r = t->sys->read(t->ctx, t->fd, t->buf, BENCH_IO_SIZE);

		bench_check(t, r);
		if (r != BENCH_IO_SIZE)
			t->sys->lseek(t->ctx, t->fd, 0, SEEK_SET);
	}
}

const struct workload workload_read1 = {
	.name = "read1",
	.desc = "Separate file read",
	.loop = "read(own fd, 4 KiB); rewind at EOF",
	.init = read1_init,
	.run = read1_run,
};
