// SPDX-License-Identifier: LGPL-2.1-or-later
/* syscall1: UnixBench syscall mix, a private fd per task (since 2023). Loop: close(dup(own fd)); getpid(); getuid(); umask(022). */
#include <unistd.h>

#include "tools/bench/workload.h"

static long syscall1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/syscall1.%d", t->id);
	t->fd = bench_create(t, t->path, 0);
	if (t->fd < 0)
		return t->fd;
	t->fd = t->sys->open(t->ctx, t->path, O_RDONLY, 0);
	return t->fd < 0 ? t->fd : 0;
}

static void syscall1_run(struct bench_task *t, unsigned long n)
{
	while (n--) {
		long fd = t->sys->dup(t->ctx, t->fd);

		bench_check(t, fd);
		if (fd >= 0)
			t->sys->close(t->ctx, fd);
		t->sys->getpid(t->ctx);
		t->sys->getuid(t->ctx);
		t->sys->umask(t->ctx, 022);
	}
}

const struct workload workload_syscall1 = {
	.name = "syscall1",
	.desc = "UnixBench syscall mix, a private fd per task (since 2023)",
	.loop = "close(dup(own fd)); getpid(); getuid(); umask(022)",
	.init = syscall1_init,
	.run = syscall1_run,
};
