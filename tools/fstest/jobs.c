// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fstest's background lines: `LINE &` runs LINE while the lines after it
 * do, as a pjdfstest script's `${fstest} ... &` does, so that a line that
 * blocks (a fifo opened for reading waits for a writer) lets the script go
 * on to the line that unblocks it. A backend that forks per line runs it
 * in a child it does not wait for; an in-process one on a thread of its
 * own, with a context from job_ctx_new().
 *
 * `wait`, and the end of the script, let the background lines finish for
 * up to FSTEST_JOB_GRACE_MS, then kill those still blocked (a killed
 * process prints nothing for the call it died in), and print each line's
 * output in the order the lines started: a script's output does not depend
 * on how the lines' threads were scheduled.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tools/fstest/engine.h"

struct job {
	struct job *next;
	const struct fstest_backend *be;
	const char *name;
	unsigned long lineno;
	/* A child of a fork_per_line backend. */
	pid_t pid;
	struct child_buf *cb;
	/* A thread of an in-process backend, on its own ctx and its own tokens. */
	pthread_t thread;
	void *ctx;
	struct toks toks;
	struct line ln;
	char *out, *err;
	size_t out_len, err_len;
	bool done, killed;
	int rc;
};

bool fstest_one_cpu;

/* Started and not yet waited for, oldest first. */
static struct job *jobs, **jobs_tail = &jobs;

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void nap_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L };

	nanosleep(&ts, NULL);
}

static bool toks_copy(struct toks *dst, const struct toks *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->v = calloc((size_t)src->n + 1, sizeof(*dst->v));
	if (!dst->v)
		return false;
	dst->cap = src->n + 1;
	for (int i = 0; i < src->n; i++) {
		dst->v[i] = src->v[i];
		dst->v[i].s = malloc(src->v[i].len + 1);
		if (!dst->v[i].s)
			return false;
		memcpy(dst->v[i].s, src->v[i].s, src->v[i].len + 1);
		dst->n++;
	}
	return true;
}

static void *job_thread(void *arg)
{
	struct job *j = arg;
	FILE *out = open_memstream(&j->out, &j->out_len);
	FILE *err = open_memstream(&j->err, &j->err_len);

	if (j->be->thread_enter)
		j->be->thread_enter();
	if (out && err)
		j->rc = fstest_exec_chain(j->be, j->ctx, &j->ln, out, err, j->name, j->lineno,
					  &j->killed);
	else
		j->rc = 1;
	if (j->be->thread_exit)
		j->be->thread_exit();
	if (out)
		fclose(out);
	if (err)
		fclose(err);
	__atomic_store_n(&j->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/* The child: the line's output goes straight to the shared buffer, unbuffered, so a kill loses none of it. */
static void job_child(const struct fstest_backend *be, void *ctx, const struct line *ln,
		      struct job *j)
{
	FILE *o = fmemopen(j->cb->out, sizeof(j->cb->out) - 1, "w");
	FILE *e = fmemopen(j->cb->err, sizeof(j->cb->err) - 1, "w");
	int rc;

	if (!o || !e)
		_exit(2);
	setvbuf(o, NULL, _IONBF, 0);
	setvbuf(e, NULL, _IONBF, 0);
	signal(SIGPIPE, SIG_IGN);
	rc = fstest_exec_chain(be, ctx, ln, o, e, j->name, j->lineno, NULL);
	_exit(rc);
}

static void job_free(struct job *j)
{
	if (j->cb)
		munmap(j->cb, sizeof(*j->cb));
	if (j->ctx && j->be->job_ctx_free)
		j->be->job_ctx_free(j->ctx);
	free(j->ln.calls);
	fstest_toks_free(&j->toks);
	free(j->out);
	free(j->err);
	free(j);
}

int fstest_job_start(const struct fstest_backend *be, void *ctx, const struct toks *t,
		     const struct line *ln, FILE *err, const char *name, unsigned long lineno)
{
	struct job *j = calloc(1, sizeof(*j));
	struct diag d;

	if (!j) {
		fstest_report(err, name, lineno, "out of memory");
		return 1;
	}
	j->be = be;
	j->name = name;
	j->lineno = lineno;
	if (be->fork_per_line) {
		j->cb = mmap(NULL, sizeof(*j->cb), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (j->cb == MAP_FAILED) {
			j->cb = NULL;
			fstest_report(err, name, lineno, "cannot map the child's buffer");
			job_free(j);
			return 1;
		}
		fflush(stdout);
		fflush(err);
		j->pid = fork();
		if (j->pid == 0)
			job_child(be, ctx, ln, j);
		if (j->pid < 0) {
			fstest_report(err, name, lineno, "fork failed");
			job_free(j);
			return 1;
		}
	} else {
		j->ctx = be->job_ctx_new ? be->job_ctx_new(ctx) : NULL;
		if (!j->ctx) {
			fstest_report(
				err, name, lineno,
				fstest_one_cpu ?
					"no background lines on one simulated CPU (use vfslab)" :
					"this backend cannot run a line in the background");
			job_free(j);
			return 1;
		}
		/* The line's own tokens: the caller's go with the line. */
		if (!toks_copy(&j->toks, t) || !fstest_parse_line(be, &j->toks, &j->ln, &d)) {
			fstest_report(err, name, lineno, "out of memory");
			job_free(j);
			return 1;
		}
		if (pthread_create(&j->thread, NULL, job_thread, j)) {
			fstest_report(err, name, lineno, "cannot start a thread");
			job_free(j);
			return 1;
		}
	}
	*jobs_tail = j;
	jobs_tail = &j->next;
	return 0;
}

static bool job_done(struct job *j)
{
	int status;

	if (!j->pid)
		return __atomic_load_n(&j->done, __ATOMIC_ACQUIRE);
	if (j->done)
		return true;
	if (waitpid(j->pid, &status, WNOHANG) != j->pid)
		return false;
	j->done = true;
	j->rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	return true;
}

/* Kill a blocked line: the child with SIGKILL, the thread's calls with EINTR. */
static void job_kill(struct job *j, void *ctx)
{
	int status;

	if (j->pid) {
		kill(j->pid, SIGKILL);
		while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
			;
		j->done = true;
		j->rc = 0;
		return;
	}
	__atomic_store_n(&j->killed, true, __ATOMIC_RELEASE);
	/* A call that starts blocking after one kill is caught by the next. */
	while (!job_done(j)) {
		if (j->be->kill_blocked)
			j->be->kill_blocked(ctx);
		nap_ms(1);
	}
}

static void job_print(struct job *j, FILE *out, FILE *err)
{
	if (j->pid) {
		fwrite(j->cb->out, 1, strnlen(j->cb->out, sizeof(j->cb->out)), out);
		fwrite(j->cb->err, 1, strnlen(j->cb->err, sizeof(j->cb->err)), err);
		return;
	}
	pthread_join(j->thread, NULL);
	if (j->out)
		fwrite(j->out, 1, j->out_len, out);
	if (j->err)
		fwrite(j->err, 1, j->err_len, err);
}

bool fstest_jobs_pending(void)
{
	return jobs != NULL;
}

void fstest_jobs_end(const struct fstest_backend *be, void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *sink;

	if (!jobs)
		return;
	sink = open_memstream(&buf, &len);
	fstest_jobs_wait(be, ctx, sink ? sink : stderr, sink ? sink : stderr);
	if (sink)
		fclose(sink);
	free(buf);
}

int fstest_jobs_wait(const struct fstest_backend *be, void *ctx, FILE *out, FILE *err)
{
	long deadline = now_ms() + FSTEST_JOB_GRACE_MS;
	int bad = 0;

	(void)be;
	for (struct job *j = jobs; j; j = j->next) {
		while (!job_done(j) && now_ms() < deadline)
			nap_ms(1);
		if (!job_done(j))
			job_kill(j, ctx);
	}
	while (jobs) {
		struct job *j = jobs;

		jobs = j->next;
		job_print(j, out, err);
		bad += j->rc != 0;
		job_free(j);
	}
	jobs_tail = &jobs;
	fflush(out);
	return bad;
}
