// SPDX-License-Identifier: LGPL-2.1-or-later
/* pread2: Same file pread to same offset. Loop: pread(the shared fd, 4 KiB, offset 0). */
#include "tools/bench/workload.h"

static long pread2_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/pread2");
	return bench_create_open(m, m->path, BENCH_FILE_SIZE, O_RDONLY, &m->shared_fd);
}

static void pread2_run(struct bench_task *t, unsigned long n)
{
	bench_pread_loop(t, t->shared_fd, 0, n);
}

const struct workload workload_pread2 = {
	.name = "pread2",
	.desc = "Same file pread to same offset",
	.loop = "pread(the shared fd, 4 KiB, offset 0)",
	.prepare = pread2_prepare,
	.run = pread2_run,
};
