// SPDX-License-Identifier: LGPL-2.1-or-later
/* unlink2: Separate file open/close/unlink in different directories. Loop: as unlink1, in the task's own directory. */
#include "tools/bench/workload.h"

static long unlink2_init(struct bench_task *t)
{
	long r = bench_mkdir_own(t, "unlink2");

	if (r < 0)
		return r;
	bench_path(t, t->path, "/unlink2.%d/willitscale", t->id);
	return 0;
}

static void unlink2_run(struct bench_task *t, unsigned long n)
{
	bench_create_unlink_loop(t, n);
}

const struct workload workload_unlink2 = {
	.name = "unlink2",
	.desc = "Separate file open/close/unlink in different directories",
	.loop = "as unlink1, in the task's own directory",
	.init = unlink2_init,
	.run = unlink2_run,
};
