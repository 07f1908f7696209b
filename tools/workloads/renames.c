// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * renames: path lookups racing renames. Task 0 renames a directory back
 * and forth and recreates a file under it; every other task stats a path
 * through that directory. RCU walks see d_seq move and fall back (unlazy
 * failures, ref-walk restarts); ENOENT is an expected answer. With one
 * task it alternates both roles.
 */
#include <unistd.h>

#include "tools/bench/workload.h"

static long renames_prepare(struct bench_task *m, int nr_tasks)
{
	long r;

	(void)nr_tasks;
	bench_path(m, m->path, "/renames");
	r = m->sys->mkdir(m->ctx, m->path, 0755);
	bench_path(m, m->path, "/renames/a");
	if (!r)
		r = m->sys->mkdir(m->ctx, m->path, 0755);
	bench_path(m, m->path, "/renames/a/sub");
	if (!r)
		r = m->sys->mkdir(m->ctx, m->path, 0755);
	bench_path(m, m->path, "/renames/a/sub/file");
	return r ? r : bench_create(m, m->path, 0);
}

static long renames_init(struct bench_task *t)
{
	bench_path(t, t->path, "/renames/a");
	bench_path(t, t->path2, "/renames/b");
	return 0;
}

/* The renamer knows where the directory is: off is 0 for "a", 1 for "b". */
static void rename_step(struct bench_task *t)
{
	bench_check(t, t->sys->rename(t->ctx, t->off ? t->path2 : t->path,
				      t->off ? t->path : t->path2));
	t->off = !t->off;
}

static void lookup_step(struct bench_task *t)
{
	char p[512];
	struct stat st;

	/* Either name: one of them exists at any moment. */
	bench_path(t, p, t->iter & 2 ? "/renames/a/sub/file" : "/renames/b/sub/file");
	bench_check_noent(t, t->sys->stat(t->ctx, p, &st));
}

static void renames_run(struct bench_task *t, unsigned long n)
{
	while (n--) {
		t->iter++;
		if (t->id == 0 && (t->nr > 1 || t->iter % 2))
			rename_step(t);
		else
			lookup_step(t);
	}
}

const struct workload workload_renames = {
	.name = "renames",
	.desc = "Path lookups racing directory renames",
	.loop = "task 0: rename(a, b) and back; others: stat(a/sub/file or b/sub/file)",
	.prepare = renames_prepare,
	.init = renames_init,
	.run = renames_run,
};
