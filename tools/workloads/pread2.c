// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pread2: Same file pread. Loop: pread(own fd on the shared file, 4 KiB,
 * offset 0), as will-it-scale's.
 */
#include "tools/bench/workload.h"

static long pread2_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/pread2");
	return bench_create(m, m->path, BENCH_IO_SIZE);
}

/* Each task opens the file itself: the tasks share its page, not a struct file. */
static long pread2_init(struct bench_task *t)
{
	bench_path(t, t->path, "/pread2");
	return bench_open(t, t->path, O_RDONLY, &t->fd);
}

static void pread2_run(struct bench_task *t, unsigned long n)
{
	bench_pread_loop(t, t->fd, 0, n);
}

const struct workload workload_pread2 = {
	.name = "pread2",
	.desc = "Same file pread",
	.loop = "pread(own fd on the shared file, 4 KiB, offset 0)",
	.prepare = pread2_prepare,
	.init = pread2_init,
	.run = pread2_run,
};
