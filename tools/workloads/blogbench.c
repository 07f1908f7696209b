// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * blogbench: a small blogbench (jedisct1/Blogbench) on one fd table.
 * Writers publish articles and pictures atomically (write a .tmp, then
 * rename over the final name), commenters add comments, readers read whole
 * blogs (comments until one is missing, then pictures and articles) in
 * 64 KiB reads. Each iteration is one file written or one blog read; the
 * scores are files read and files written. Sized to run in seconds: 8
 * blogs of 8 articles and 8 pictures; names are reused, so rewrites too.
 * Roles: task 0 writes; task 1 (of 4 or more) comments; the rest read.
 * One task alternates writing and reading.
 */
#include <string.h>
#include <unistd.h>

#include "tools/bench/workload.h"

#define BLOGS 8
#define ITEMS 8
#define COMMENTS 4

static long write_file(struct bench_task *t, const char *dir, const char *kind, int k, long size)
{
	char tmp[520], final[512];
	long fd, r = 0;

	snprintf(final, sizeof(final), "%s/%s-%d.xml", dir, kind, k);
	snprintf(tmp, sizeof(tmp), "%s.tmp", final);
	fd = t->sys->open(t->ctx, tmp, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (fd < 0)
		return fd;
	for (long done = 0; done < size && r >= 0; done += r)
		r = t->sys->write(t->ctx, (int)fd, t->buf,
				  size - done < BENCH_IO_SIZE ? size - done : BENCH_IO_SIZE);
	t->sys->close(t->ctx, (int)fd);
	if (r < 0)
		return r;
	return t->sys->rename(t->ctx, tmp, final);
}

/* Open, read to EOF, close; 0, or -ENOENT when the file is not there. */
static long read_file(struct bench_task *t, const char *dir, const char *kind, int k)
{
	char path[512];
	long fd, r;

	snprintf(path, sizeof(path), "%s/%s-%d.xml", dir, kind, k);
	fd = t->sys->open(t->ctx, path, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	do
		r = t->sys->read(t->ctx, (int)fd, t->buf, BENCH_IO_SIZE);
	while (r > 0);
	t->sys->close(t->ctx, (int)fd);
	return r;
}

static long blogbench_prepare(struct bench_task *m, int nr_tasks)
{
	char dir[512];
	long r;

	(void)nr_tasks;
	bench_path(m, dir, "/blogbench");
	r = m->sys->mkdir(m->ctx, dir, 0755);
	memset(m->buf, 'b', sizeof(m->buf));
	for (int b = 0; b < BLOGS && !r; b++) {
		bench_path(m, dir, "/blogbench/blog-%d", b);
		r = m->sys->mkdir(m->ctx, dir, 0755);
		for (int k = 0; k < ITEMS && !r; k++) {
			r = write_file(m, dir, "article", k, 8192);
			if (!r)
				r = write_file(m, dir, "picture", k, 16384);
		}
	}
	return r;
}

static long blogbench_init(struct bench_task *t)
{
	memset(t->buf, 'w', sizeof(t->buf));
	return 0;
}

static void blog_write(struct bench_task *t, bool comment)
{
	unsigned long i = t->iter++;
	char dir[512];

	bench_path(t, dir, "/blogbench/blog-%lu", i % BLOGS);
	if (comment)
		bench_check(t, write_file(t, dir, "comment", (i / BLOGS) % COMMENTS, 4096));
	else
		bench_check(t, write_file(t, dir, i % 2 ? "picture" : "article",
					  (i / BLOGS) % ITEMS, i % 2 ? 16384 : 8192));
	t->score[1]++;
}

static void blog_read(struct bench_task *t)
{
	unsigned long i = t->iter++;
	char dir[512];
	long r;

	bench_path(t, dir, "/blogbench/blog-%lu", (i * 7 + t->id) % BLOGS);
	for (int k = 0; k < COMMENTS && (r = read_file(t, dir, "comment", k)) >= 0; k++)
		t->score[0]++;
	bench_check_noent(t, r);
	for (int k = 0; k < ITEMS; k++) {
		r = read_file(t, dir, "picture", k);
		bench_check_noent(t, r);
		r = read_file(t, dir, "article", k);
		bench_check_noent(t, r);
		if (r < 0)
			break;
		t->score[0] += 2;
	}
}

static void blogbench_run(struct bench_task *t, unsigned long n)
{
	while (n--) {
		if (t->nr == 1)
			t->iter % 2 ? blog_read(t) : blog_write(t, false);
		else if (t->id == 0)
			blog_write(t, false);
		else if (t->id == 1 && t->nr >= 4)
			blog_write(t, true);
		else
			blog_read(t);
	}
}

const struct workload workload_blogbench = {
	.name = "blogbench",
	.desc = "blogbench-like writers, commenters and readers on one fd table",
	.loop = "write a file (.tmp + rename) or read a whole blog (open/read/close each file)",
	.prepare = blogbench_prepare,
	.init = blogbench_init,
	.run = blogbench_run,
	.score_names = { "files_read", "files_written" },
};
