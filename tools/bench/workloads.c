// SPDX-License-Identifier: LGPL-2.1-or-later
/* The workload table (from workloads.def) and helpers workloads share. */
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "tools/bench/workload.h"

#define WORKLOAD(name) &workload_##name,
static const struct workload *const all[] = {
#include "tools/workloads/workloads.def"
};
#undef WORKLOAD

const struct workload *const *workload_all(unsigned int *nr)
{
	*nr = ARRAY_SIZE(all);
	return all;
}

const struct workload *workload_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

void bench_path(const struct bench_task *t, char *dst, const char *fmt, ...)
{
	size_t n = strlen(t->base);
	va_list ap;

	memcpy(dst, t->base, n);
	va_start(ap, fmt);
	vsnprintf(dst + n, 512 - n, fmt, ap);
	va_end(ap);
}

long bench_create(struct bench_task *t, const char *path, long size)
{
	long fd = t->sys->open(t->ctx, path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	long r = 0;

	if (fd < 0)
		return fd;
	memset(t->buf, 'x', sizeof(t->buf));
	for (long done = 0; done < size && r >= 0; done += r)
		r = t->sys->write(t->ctx, (int)fd, t->buf,
				  size - done < BENCH_IO_SIZE ? size - done : BENCH_IO_SIZE);
	t->sys->close(t->ctx, (int)fd);
	return r < 0 ? r : 0;
}

long bench_open(struct bench_task *t, const char *path, int flags, int *fd)
{
	long r = t->sys->open(t->ctx, path, flags, 0);

	if (r < 0)
		return r;
	*fd = (int)r;
	return 0;
}

long bench_create_open(struct bench_task *t, const char *path, long size, int flags, int *fd)
{
	long r = bench_create(t, path, size);

	return r < 0 ? r : bench_open(t, path, flags, fd);
}

long bench_mkdir_own(struct bench_task *t, const char *prefix)
{
	char dir[512];

	bench_path(t, dir, "/%s.%d", prefix, t->id);
	return t->sys->mkdir(t->ctx, dir, 0755);
}

/* The loops the will-it-scale workloads share; each call is one iteration. */

void bench_stat_loop(struct bench_task *t, unsigned long n)
{
	struct stat st;

	while (n--)
		bench_check(t, t->sys->stat(t->ctx, t->path, &st));
}

void bench_fstat_loop(struct bench_task *t, int fd, unsigned long n)
{
	struct stat st;

	while (n--)
		bench_check(t, t->sys->fstat(t->ctx, fd, &st));
}

void bench_access_loop(struct bench_task *t, unsigned long n)
{
	while (n--)
		bench_check(t, t->sys->access(t->ctx, t->path, R_OK));
}

void bench_open_close_loop(struct bench_task *t, unsigned long n)
{
	while (n--) {
		long fd = t->sys->open(t->ctx, t->path, O_RDWR, 0);

		bench_check(t, fd);
		if (fd >= 0)
			t->sys->close(t->ctx, (int)fd);
	}
}

void bench_dup_close_loop(struct bench_task *t, int fd, unsigned long n)
{
	while (n--) {
		long nfd = t->sys->dup(t->ctx, fd);

		bench_check(t, nfd);
		if (nfd >= 0)
			t->sys->close(t->ctx, (int)nfd);
	}
}

void bench_lseek_loop(struct bench_task *t, unsigned long n)
{
	while (n--)
		bench_check(t, t->sys->lseek(t->ctx, t->fd, 0, SEEK_SET));
}

void bench_read_loop(struct bench_task *t, unsigned long n)
{
	while (n--) {
		long r = t->sys->read(t->ctx, t->fd, t->buf, BENCH_IO_SIZE);

		bench_check(t, r);
		if (r != BENCH_IO_SIZE)
			t->sys->lseek(t->ctx, t->fd, 0, SEEK_SET);
	}
}

void bench_pread_loop(struct bench_task *t, int fd, long long off, unsigned long n)
{
	while (n--)
		bench_check(t, t->sys->pread64(t->ctx, fd, t->buf, BENCH_IO_SIZE, off));
}

void bench_create_unlink_loop(struct bench_task *t, unsigned long n)
{
	while (n--) {
		long fd = t->sys->open(t->ctx, t->path, O_CREAT | O_RDWR, 0600);

		bench_check(t, fd);
		if (fd >= 0)
			t->sys->close(t->ctx, (int)fd);
		bench_check(t, t->sys->unlink(t->ctx, t->path));
	}
}

/* UnixBench's syscall "mix": close(dup(fd)), getpid, getuid, umask(022). */
void bench_unixbench_mix(struct bench_task *t, int fd, unsigned long n)
{
	while (n--) {
		long nfd = t->sys->dup(t->ctx, fd);

		bench_check(t, nfd);
		if (nfd >= 0)
			t->sys->close(t->ctx, (int)nfd);
		t->sys->getpid(t->ctx);
		t->sys->getuid(t->ctx);
		t->sys->umask(t->ctx, 022);
	}
}
