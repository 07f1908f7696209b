// SPDX-License-Identifier: LGPL-2.1-or-later
/* syscall2: UnixBench syscall mix on the inherited fd (before 2023). Loop: close(dup(the fd every task inherited)); getpid(); getuid(); umask(022). */
#include <unistd.h>

#include "tools/bench/workload.h"

static long syscall2_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	bench_path(m, m->path, "/syscall2");
	m->shared_fd = bench_create(m, m->path, 0);
	if (m->shared_fd < 0)
		return m->shared_fd;
	m->shared_fd = m->sys->open(m->ctx, m->path, O_RDONLY, 0);
	return m->shared_fd < 0 ? m->shared_fd : 0;
}

static void syscall2_run(struct bench_task *t, unsigned long n)
{
	while (n--) {
		long fd = t->sys->dup(t->ctx, t->shared_fd);

		bench_check(t, fd);
		if (fd >= 0)
			t->sys->close(t->ctx, fd);
		t->sys->getpid(t->ctx);
		t->sys->getuid(t->ctx);
		t->sys->umask(t->ctx, 022);
	}
}

const struct workload workload_syscall2 = {
	.name = "syscall2",
	.desc = "UnixBench syscall mix on the inherited fd (before 2023)",
	.loop = "close(dup(the fd every task inherited)); getpid(); getuid(); umask(022)",
	.prepare = syscall2_prepare,
	.run = syscall2_run,
};
