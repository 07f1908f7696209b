// SPDX-License-Identifier: LGPL-2.1-or-later
/* fstat2: Same file fstat. Loop: fstat(the fd opened before the tasks started). */
#include <unistd.h>

#include "tools/bench/workload.h"

static long fstat2_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/fstat2");
	m->shared_fd = bench_create(m, m->path, 0);
	if (m->shared_fd < 0)
		return m->shared_fd;
	m->shared_fd = m->sys->open(m->ctx, m->path, O_RDWR, 0);
	return m->shared_fd < 0 ? m->shared_fd : 0;
}

static void fstat2_run(struct bench_task *t, unsigned long n)
{
	struct stat st;

	while (n--)
		bench_check(t, t->sys->fstat(t->ctx, t->shared_fd, &st));
}

const struct workload workload_fstat2 = {
	.name = "fstat2",
	.desc = "Same file fstat",
	.loop = "fstat(the fd opened before the tasks started)",
	.prepare = fstat2_prepare,
	.run = fstat2_run,
};
