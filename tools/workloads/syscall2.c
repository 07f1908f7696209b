// SPDX-License-Identifier: LGPL-2.1-or-later
/* syscall2: UnixBench syscall mix on the inherited fd (before 2023). Loop: close(dup(the fd every task inherited)); getpid(); getuid(); umask(022). */
#include "tools/bench/workload.h"

static long syscall2_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/syscall2");
	return bench_create_open(m, m->path, 0, O_RDONLY, &m->shared_fd);
}

static void syscall2_run(struct bench_task *t, unsigned long n)
{
	bench_unixbench_mix(t, t->shared_fd, n);
}

const struct workload workload_syscall2 = {
	.name = "syscall2",
	.desc = "UnixBench syscall mix on the inherited fd (before 2023)",
	.loop = "close(dup(the fd every task inherited)); getpid(); getuid(); umask(022)",
	.prepare = syscall2_prepare,
	.run = syscall2_run,
};
