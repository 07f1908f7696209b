// SPDX-License-Identifier: LGPL-2.1-or-later
/* unlink1: Separate file open/close/unlink. Loop: fd = open(own file, O_CREAT|O_RDWR, 0600); close(fd); unlink(own file). */
#include "tools/bench/workload.h"

static long unlink1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/unlink1.%d", t->id);
	return 0;
}

static void unlink1_run(struct bench_task *t, unsigned long n)
{
	bench_create_unlink_loop(t, n);
}

const struct workload workload_unlink1 = {
	.name = "unlink1",
	.desc = "Separate file open/close/unlink",
	.loop = "fd = open(own file, O_CREAT|O_RDWR, 0600); close(fd); unlink(own file)",
	.init = unlink1_init,
	.run = unlink1_run,
};
