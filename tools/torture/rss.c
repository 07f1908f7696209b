// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * --rss: the process' resident set, sampled every second while it runs.
 */
#include "tools/torture/engine.h"

static long rss_kib(void)
{
	long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &size, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

void *torture_rss_main(void *arg)
{
	struct rss_sampler *s = arg;
	struct timespec next;

	clock_gettime(CLOCK_REALTIME, &next);
	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		next.tv_sec++;
		if (pthread_cond_timedwait(&s->cond, &s->lock, &next) == 0 && s->stop)
			break;
		if (s->stop)
			break;
		if (s->n < RSS_MAX_SAMPLES) {
			struct vfs_cache_info ci[4];
			int nc = vfs_inspect_caches(s->vfs, ci, 4, NULL);

			s->kib[s->n] = rss_kib();
			printf("rss %4us %8ld KiB", s->n + 1, s->kib[s->n]);
			/* Racy counts, but they tell live state from allocator growth. */
			for (int i = 0; i < nc; i++)
				printf("%s%s %ld", i ? ", " : "  (in use: ", ci[i].name,
				       ci[i].in_use);
			printf("%s\n", nc ? ")" : "");
			fflush(stdout);
			s->n++;
		}
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

void torture_rss_summary(const struct rss_sampler *s)
{
	long lo = LONG_MAX, hi = 0;
	unsigned int warm = s->n > 4 ? s->n / 4 : 0;

	if (!s->n) {
		printf("rss: no sample (the run took under a second)\n");
		return;
	}
	printf("rss curve (KiB, one sample a second):");
	for (unsigned int i = 0; i < s->n; i++) {
		printf("%s%ld", i % 12 ? " " : "\n  ", s->kib[i]);
		lo = s->kib[i] < lo ? s->kib[i] : lo;
		hi = s->kib[i] > hi ? s->kib[i] : hi;
	}
	printf("\nrss: min %ld KiB, max %ld KiB; after the first quarter (warm-up) it went %ld -> %ld "
	       "KiB (%+.1f%%)\n",
	       lo, hi, s->kib[warm], s->kib[s->n - 1],
	       s->kib[warm] ? 100.0 * (s->kib[s->n - 1] - s->kib[warm]) / s->kib[warm] : 0.0);
}
