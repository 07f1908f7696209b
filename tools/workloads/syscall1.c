// SPDX-License-Identifier: LGPL-2.1-or-later
/* syscall1: UnixBench syscall mix, a private fd per task (since 2023). Loop: close(dup(own fd)); getpid(); getuid(); umask(022). */
#include "tools/bench/workload.h"

static long syscall1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/syscall1.%d", t->id);
	return bench_create_open(t, t->path, 0, O_RDONLY, &t->fd);
}

static void syscall1_run(struct bench_task *t, unsigned long n)
{
	bench_unixbench_mix(t, t->fd, n);
}

const struct workload workload_syscall1 = {
	.name = "syscall1",
	.desc = "UnixBench syscall mix, a private fd per task (since 2023)",
	.loop = "close(dup(own fd)); getpid(); getuid(); umask(022)",
	.init = syscall1_init,
	.run = syscall1_run,
};
