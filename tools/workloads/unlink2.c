// SPDX-License-Identifier: LGPL-2.1-or-later
/* unlink2: Separate file open/close/unlink in different directories. Loop: as unlink1, in the task's own directory. */
#include <unistd.h>

#include "tools/bench/workload.h"

static long unlink2_init(struct bench_task *t)
{
	long r;

	bench_path(t, t->path, "/unlink2.%d", t->id);
	r = t->sys->mkdir(t->ctx, t->path, 0755);
	if (r < 0)
		return r;
	bench_path(t, t->path, "/unlink2.%d/willitscale", t->id);
	return 0;
}

static void unlink2_run(struct bench_task *t, unsigned long n)
{
	while (n--) {
		long fd = t->sys->open(t->ctx, t->path, O_CREAT | O_RDWR, 0600);

		bench_check(t, fd);
		if (fd >= 0)
			t->sys->close(t->ctx, fd);
		bench_check(t, t->sys->unlink(t->ctx, t->path));
	}
}

const struct workload workload_unlink2 = {
	.name = "unlink2",
	.desc = "Separate file open/close/unlink in different directories",
	.loop = "as unlink1, in the task's own directory",
	.init = unlink2_init,
	.run = unlink2_run,
};
