// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pread_onefd: pread of one fd every task shares, each task at its own
 * page. Loop: pread(the fd opened before the tasks started, 4 KiB, this
 * task's offset). Not a will-it-scale test: its pread3 opens a descriptor
 * per task. This is the pattern behind f_ref's move to the third line
 * (Pan Deng, 2025: RocksDB's threads pread one SST file's fd): one struct
 * file, whose count every pread takes beside the fields it reads.
 */
#include "tools/bench/workload.h"

static long pread_onefd_prepare(struct bench_task *m, int nr_tasks)
{
	(void)nr_tasks;
	/* The name it had as pread3: the same heap, so the same predictions. */
	bench_path(m, m->path, "/pread3");
	return bench_create_open(m, m->path, BENCH_FILE_SIZE, O_RDONLY, &m->shared_fd);
}

static long pread_onefd_init(struct bench_task *t)
{
	t->off = (long long)(t->id % (BENCH_FILE_SIZE / BENCH_IO_SIZE)) * BENCH_IO_SIZE;
	return 0;
}

static void pread_onefd_run(struct bench_task *t, unsigned long n)
{
	bench_pread_loop(t, t->shared_fd, t->off, n);
}

const struct workload workload_pread_onefd = {
	.name = "pread_onefd",
	.desc = "Same fd pread to different offsets",
	.loop = "pread(the fd opened before the tasks started, 4 KiB, this task's offset)",
	.prepare = pread_onefd_prepare,
	.init = pread_onefd_init,
	.run = pread_onefd_run,
};
