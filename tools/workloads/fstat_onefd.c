// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fstat_onefd: fstat of one fd every task shares. Loop: fstat(the fd opened
 * before the tasks started). Not a will-it-scale test: its fstat2 opens a
 * descriptor per task. This is the test behind file_ref_t (Brauner, 2024:
 * "multi-threaded fstat on the same fd"): threads share one struct file, so
 * every fdget takes a reference on one count; processes inherit the fd, as
 * UnixBench's copies inherited stdin.
 */
#include "tools/bench/workload.h"

static long fstat_onefd_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	/* The name it had as fstat2: the same heap, so the same predictions. */
	bench_path(m, m->path, "/fstat2");
	return bench_create_open(m, m->path, 0, O_RDWR, &m->shared_fd);
}

static void fstat_onefd_run(struct bench_task *t, unsigned long n)
{
	bench_fstat_loop(t, t->shared_fd, n);
}

const struct workload workload_fstat_onefd = {
	.name = "fstat_onefd",
	.desc = "Same fd fstat",
	.loop = "fstat(the fd opened before the tasks started)",
	.prepare = fstat_onefd_prepare,
	.run = fstat_onefd_run,
};
