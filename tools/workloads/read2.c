// SPDX-License-Identifier: LGPL-2.1-or-later
/* read2: Same file read. Loop: read(own fd on the shared file, 4 KiB); rewind at EOF. */
#include <unistd.h>

#include "tools/bench/workload.h"

static long read2_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/read2");
	return bench_create(m, m->path, BENCH_FILE_SIZE);
}

static long read2_init(struct bench_task *t)
{
	bench_path(t, t->path, "/read2");
	t->fd = t->sys->open(t->ctx, t->path, O_RDONLY, 0);
	return t->fd < 0 ? t->fd : 0;
}

static void read2_run(struct bench_task *t, unsigned long n)
{
	while (n--) {
		long r = t->sys->read(t->ctx, t->fd, t->buf, BENCH_IO_SIZE);

		bench_check(t, r);
		if (r != BENCH_IO_SIZE)
			t->sys->lseek(t->ctx, t->fd, 0, SEEK_SET);
	}
}

const struct workload workload_read2 = {
	.name = "read2",
	.desc = "Same file read",
	.loop = "read(own fd on the shared file, 4 KiB); rewind at EOF",
	.prepare = read2_prepare,
	.init = read2_init,
	.run = read2_run,
};
