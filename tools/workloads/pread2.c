// SPDX-License-Identifier: LGPL-2.1-or-later
/* pread2: Same file pread to same offset. Loop: pread(the shared fd, 4 KiB, offset 0). */
#include <unistd.h>

#include "tools/bench/workload.h"

static long pread2_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/pread2");
	m->shared_fd = bench_create(m, m->path, BENCH_FILE_SIZE);
	if (m->shared_fd < 0)
		return m->shared_fd;
	m->shared_fd = m->sys->open(m->ctx, m->path, O_RDONLY, 0);
	return m->shared_fd < 0 ? m->shared_fd : 0;
}

static void pread2_run(struct bench_task *t, unsigned long n)
{
	while (n--)
		bench_check(t, t->sys->pread(t->ctx, t->shared_fd, t->buf, BENCH_IO_SIZE, 0));
}

const struct workload workload_pread2 = {
	.name = "pread2",
	.desc = "Same file pread to same offset",
	.loop = "pread(the shared fd, 4 KiB, offset 0)",
	.prepare = pread2_prepare,
	.run = pread2_run,
};
