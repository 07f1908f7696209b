// SPDX-License-Identifier: LGPL-2.1-or-later
/* access1: Separate file access. Loop: access(own file, R_OK). */
#include "tools/bench/workload.h"

static long access1_init(struct bench_task *t)
{
	bench_path(t, t->path, "/access1.%d", t->id);
	return bench_create(t, t->path, 0);
}

static void access1_run(struct bench_task *t, unsigned long n)
{
	bench_access_loop(t, n);
}

const struct workload workload_access1 = {
	.name = "access1",
	.desc = "Separate file access",
	.loop = "access(own file, R_OK)",
	.init = access1_init,
	.run = access1_run,
};
