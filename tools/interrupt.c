// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Ctrl-C for the long commands: a flag the handler sets and the loops
 * poll, the scratch directories to remove, and the progress lines.
 */
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tools/interrupt.h"

#define MAX_SCRATCH 8

static const int caught_signals[] = { SIGINT, SIGTERM };
static bool handled[2]; /* not the ones ignored at start */
static int caught;

static struct {
	char *path[MAX_SCRATCH];
	pid_t owner; /* forked children must not remove their parent's */
	bool atexit_set;
} scratch;

/* Only async-signal-safe work: a store, and the default action for the next one. */
static void on_signal(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	__atomic_store_n(&caught, sig, __ATOMIC_RELAXED);
	for (size_t i = 0; i < sizeof(caught_signals) / sizeof(caught_signals[0]); i++)
		if (handled[i])
			sigaction(caught_signals[i], &dfl, NULL);
}

void intr_catch(void)
{
	struct sigaction sa = { .sa_handler = on_signal }, old;

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(caught_signals) / sizeof(caught_signals[0]); i++) {
		/* A signal ignored on entry (a background job of a script) stays ignored. */
		if (sigaction(caught_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		handled[i] = true;
		sigaction(caught_signals[i], &sa, NULL);
	}
}

int intr_pending(void)
{
	return __atomic_load_n(&caught, __ATOMIC_RELAXED);
}

int intr_status(void)
{
	return 128 + intr_pending();
}

const char *intr_name(void)
{
	return intr_pending() == SIGTERM ? "SIGTERM" : "SIGINT";
}

void intr_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(caught_signals) / sizeof(caught_signals[0]); i++)
		sigaddset(&set, caught_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void intr_restore(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

bool intr_sleep(double s)
{
	double end = now() + s, left;

	/* In slices: the signal may land in another thread and wake no sleep here. */
	while (!intr_pending() && (left = end - now()) > 0) {
		double d = left < 0.1 ? left : 0.1;
		struct timespec ts = { (time_t)d, (long)((d - (time_t)d) * 1e9) };

		nanosleep(&ts, NULL);
	}
	return !intr_pending();
}

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	remove(path);
	return 0; /* remove what can be, whatever could not */
}

static void scratch_rm_all(void)
{
	if (scratch.owner != getpid())
		return;
	for (int i = 0; i < MAX_SCRATCH; i++)
		if (scratch.path[i])
			intr_scratch_rm(scratch.path[i]);
}

void intr_scratch_add(const char *path)
{
	if (!scratch.atexit_set) {
		scratch.atexit_set = true;
		atexit(scratch_rm_all);
	}
	scratch.owner = getpid();
	for (int i = 0; i < MAX_SCRATCH; i++)
		if (!scratch.path[i]) {
			scratch.path[i] = strdup(path);
			return;
		}
}

void intr_scratch_rm(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	for (int i = 0; i < MAX_SCRATCH; i++)
		if (scratch.path[i] && !strcmp(scratch.path[i], path)) {
			free(scratch.path[i]);
			scratch.path[i] = NULL;
		}
}

char *intr_mkdtemp(char *tmpl)
{
	if (!mkdtemp(tmpl))
		return NULL;
	intr_scratch_add(tmpl);
	return tmpl;
}

void progress_init(struct progress *p, const char *cmd)
{
	p->cmd = cmd;
	p->on = isatty(STDERR_FILENO);
	p->t0 = now();
	p->next = p->t0 + PROGRESS_EVERY;
}

bool progress_due(struct progress *p)
{
	return p->on && now() >= p->next;
}

void progress_print(struct progress *p, const char *fmt, ...)
{
	double t = now();
	va_list ap;

	if (!p->on)
		return;
	p->next = t + PROGRESS_EVERY;
	fprintf(stderr, "vfslab %s: %.0f s: ", p->cmd, t - p->t0);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
