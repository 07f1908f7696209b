/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A benchmark workload, will-it-scale style: one small file per workload
 * (tools/workloads/NAME.c), a prepare step run once by the main task, an
 * init step run by each task before the start, and a loop body that does
 * n iterations. Workloads never print and never time anything: the runner
 * owns threads, pinning, warm-up and samples. Listed in workloads.def.
 */
#ifndef VFSLAB_TOOLS_BENCH_WORKLOAD_H
#define VFSLAB_TOOLS_BENCH_WORKLOAD_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>

#include "lib/compiler.h"
#include "tools/sys/sys.h"

#define BENCH_FILE_SIZE (1024 * 1024) /* read1/read2's file, as will-it-scale */
#define BENCH_IO_SIZE 4096

struct bench_task {
	const struct sys_ops *sys;
	void *ctx;
	const char *base; /* the directory every path lives under */
	int id, nr; /* this task, and how many run */
	bool threads; /* one fd table for all tasks */
	int fd; /* the task's descriptor (init), or the shared one */
	int shared_fd; /* opened by prepare, inherited by every task */
	long long off;
	unsigned long score[2]; /* the workload's own scores (blogbench's reads, writes) */
	unsigned long iter;
	unsigned long errors;
	long last_error;
	char path[512], path2[512];
	char buf[BENCH_IO_SIZE] __attribute__((aligned(64)));
};

struct workload {
	const char *name;
	const char *desc; /* will-it-scale's testcase description */
	const char *loop; /* what one iteration does, for --list */
	/* Once, by the main task, before any task exists. 0 or -errno. */
	long (*prepare)(struct bench_task *main, int nr_tasks);
	/* Each task, before the start. 0 or -errno. */
	long (*init)(struct bench_task *t);
	void (*run)(struct bench_task *t, unsigned long n);
	/* Added to every vfslab side's variant (e.g. "fsnotify-parent=on"). */
	const char *vfs_variant;
	/* Names of score[0] and score[1], when the workload keeps scores. */
	const char *score_names[2];
	/*
	 * Iterations before a task's caches hold what its loop reads (read1 and
	 * read2 go through their whole file once); the simulator's measuring
	 * window starts after them, or after a tenth of the run if later.
	 */
	unsigned long warmup;
};

#define WORKLOAD(name) extern const struct workload workload_##name;
#include "tools/workloads/workloads.def"
#undef WORKLOAD

const struct workload *workload_find(const char *name);
const struct workload *const *workload_all(unsigned int *nr);

/* base + the formatted name, into dst (size 512). */
void bench_path(const struct bench_task *t, char *dst, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Create (or truncate) base/name with size bytes of data. 0 or -errno. */
long bench_create(struct bench_task *t, const char *path, long size);

/* Open path into *fd; create it with size bytes first. 0 or -errno. */
long bench_open(struct bench_task *t, const char *path, int flags, int *fd);
long bench_create_open(struct bench_task *t, const char *path, long size, int flags, int *fd);
/* mkdir base/PREFIX.ID, the task's own directory. */
long bench_mkdir_own(struct bench_task *t, const char *prefix);

/* The shared loops: n iterations each (tools/bench/workloads.c). */
void bench_stat_loop(struct bench_task *t, unsigned long n);
void bench_fstat_loop(struct bench_task *t, int fd, unsigned long n);
void bench_access_loop(struct bench_task *t, unsigned long n);
void bench_open_close_loop(struct bench_task *t, unsigned long n);
void bench_dup_close_loop(struct bench_task *t, int fd, unsigned long n);
void bench_lseek_loop(struct bench_task *t, unsigned long n);
void bench_read_loop(struct bench_task *t, unsigned long n);
void bench_pread_loop(struct bench_task *t, int fd, long long off, unsigned long n);
void bench_create_unlink_loop(struct bench_task *t, unsigned long n);
void bench_unixbench_mix(struct bench_task *t, int fd, unsigned long n);

/* As bench_check, but ENOENT is an expected answer (racing renames, readers). */
static inline void bench_check_noent(struct bench_task *t, long r)
{
	if (unlikely(r < 0) && r != -ENOENT) {
		t->errors++;
		t->last_error = r;
	}
}

/* A failed call inside a loop: count it, keep the last error. */
static inline void bench_check(struct bench_task *t, long r)
{
	if (unlikely(r < 0)) {
		t->errors++;
		t->last_error = r;
	}
}

#endif /* VFSLAB_TOOLS_BENCH_WORKLOAD_H */
