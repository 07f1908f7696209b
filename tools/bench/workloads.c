// SPDX-License-Identifier: LGPL-2.1-or-later
/* The workload table (from workloads.def) and helpers workloads share. */
#include <stdarg.h>
#include <string.h>

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
