// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fstest - pjdfstest's command language over a pluggable backend: running
 * a line.
 *
 * A line is parsed and checked completely before anything runs (syntax,
 * argument counts, numbers, flag names, descriptor indexes, backend
 * support).  Then, like one run of pjdfstest's binary, the chain runs call
 * by call: each success prints its line, the first failure prints its
 * errno name and ends the chain.  A malformed call prints nothing, but as
 * in pjdfstest, which checks a call's arguments only when it gets to it,
 * the calls before it run first.  A line ending in `&` runs in the
 * background (tools/fstest/jobs.c), as pjdfstest's scripts use the shell's.
 */
/* Before any libc header: O_PATH, AT_*, RENAME_*, asprintf. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/fstest/engine.h"
#include "tools/interrupt.h"

void fstest_diag(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
}

void fstest_report(FILE *err, const char *name, unsigned long lineno, const char *msg)
{
	if (lineno)
		fprintf(err, "%s:%lu: %s\n", name, lineno, msg);
	else
		fprintf(err, "%s: %s\n", name, msg);
}

long fstest_ok0(struct run *r, long res)
{
	if (res >= 0)
		fputs("0\n", r->out);
	return res;
}

long fstest_oknum(struct run *r, long res)
{
	if (res >= 0)
		fprintf(r->out, "%ld\n", res);
	return res;
}

int fstest_exec_chain(const struct fstest_backend *be, void *ctx, const struct line *ln, FILE *out,
		      FILE *err, const char *name, unsigned long lineno, const bool *killed)
{
	struct run r = { .sys = be->sys, .sc = be->sys_ctx(ctx), .out = out };
	char msg[128];
	int res, i;

	r.fds = calloc((size_t)ln->ncalls, sizeof(*r.fds));
	if (!r.fds) {
		fstest_report(err, name, lineno, "out of memory");
		return 1;
	}
	res = be->begin(ctx, &ln->cred);
	if (res < 0) {
		snprintf(msg, sizeof(msg), "cannot start the invocation: %s", strerror(-res));
		fstest_report(err, name, lineno, msg);
		free(r.fds);
		return 1;
	}
	for (i = 0; i < ln->ncalls && !(killed && __atomic_load_n(killed, __ATOMIC_ACQUIRE)); i++) {
		const struct call *c = &ln->calls[i];
		long ret = c->cmd->run(&r, c);

		if (ret < 0) {
			/* A killed process prints nothing for the call it died in. */
			if (ret == -EINTR && killed && __atomic_load_n(killed, __ATOMIC_ACQUIRE))
				break;
			/* Like pjdfstest: print the error, run nothing more. */
			fprintf(out, "%s\n", fstest_strerror(ret < -INT_MAX ? INT_MAX : (int)-ret));
			break;
		}
		if (c->adds_fd)
			r.fds[r.nfds++] = (int)ret;
	}
	be->end(ctx);
	free(r.fds);
	if (ln->malformed && i == ln->ncalls) {
		fstest_report(err, name, lineno, ln->bad.msg);
		return 1;
	}
	return 0;
}

static size_t child_stream_done(FILE *f, bool *trunc)
{
	long pos;

	*trunc = fflush(f) != 0 || ferror(f);
	pos = ftell(f);
	fclose(f);
	return pos > 0 ? (size_t)pos : 0;
}

/*
 * Run the chain in a forked child, as pjdfstest runs in a process of its
 * own.  The child's output comes back through shared memory, not a pipe,
 * so the child's fd table holds nothing of ours.
 */
static int fork_chain(const struct fstest_backend *be, void *ctx, const struct line *ln, FILE *out,
		      FILE *err, const char *name, unsigned long lineno)
{
	struct child_buf *cb;
	char msg[128];
	int status, rc = 0;
	pid_t pid;

	cb = mmap(NULL, sizeof(*cb), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cb == MAP_FAILED) {
		fstest_report(err, name, lineno, "cannot map the child's buffer");
		return 1;
	}
	fflush(out);
	fflush(err);
	pid = fork();
	if (pid < 0) {
		fstest_report(err, name, lineno, "fork failed");
		munmap(cb, sizeof(*cb));
		return 1;
	}
	if (pid == 0) {
		FILE *o = fmemopen(cb->out, sizeof(cb->out), "w");
		FILE *e = fmemopen(cb->err, sizeof(cb->err), "w");

		if (!o || !e)
			_exit(2);
		/* A write to a pipe nobody reads is EPIPE, not death. */
		signal(SIGPIPE, SIG_IGN);
		rc = fstest_exec_chain(be, ctx, ln, o, e, name, lineno, NULL);
		cb->out_len = child_stream_done(o, &cb->out_trunc);
		cb->err_len = child_stream_done(e, &cb->err_trunc);
		_exit(rc);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fstest_report(err, name, lineno, "waitpid failed");
			munmap(cb, sizeof(*cb));
			return 1;
		}
	}
	fwrite(cb->out, 1, cb->out_len, out);
	fwrite(cb->err, 1, cb->err_len, err);
	if (WIFSIGNALED(status)) {
		snprintf(msg, sizeof(msg), "child killed by signal %d%s", WTERMSIG(status),
			 WTERMSIG(status) == SIGALRM ? " (timed out)" : "");
		fstest_report(err, name, lineno, msg);
		rc = 1;
	} else if (WEXITSTATUS(status) != 0) {
		if (WEXITSTATUS(status) == 2)
			fstest_report(err, name, lineno, "child could not start");
		rc = 1;
	}
	if (cb->out_trunc || cb->err_trunc) {
		fstest_report(err, name, lineno, "output truncated");
		rc = 1;
	}
	munmap(cb, sizeof(*cb));
	return rc;
}

static int run_tokens(const struct fstest_backend *be, void *ctx, struct toks *t, FILE *out,
		      FILE *err, const char *name, unsigned long lineno)
{
	struct line ln;
	struct diag d;
	int rc;

	if (!t->n)
		return 0;
	if (!fstest_parse_line(be, t, &ln, &d)) {
		fstest_report(err, name, lineno, d.msg);
		free(ln.calls);
		return 1;
	}
	if (!be->begin || !be->end || !be->cd) {
		fstest_report(err, name, lineno, "backend without begin, end or cd");
		free(ln.calls);
		return 1;
	}
	if (ln.is_wait) {
		free(ln.calls);
		return fstest_jobs_wait(be, ctx, out, err) ? 1 : 0;
	}
	if (ln.background) {
		rc = fstest_job_start(be, ctx, t, &ln, err, name, lineno);
		free(ln.calls);
		return rc;
	}
	if (ln.is_cd) {
		rc = be->cd(ctx, ln.cd_path);
		if (rc < 0) {
			snprintf(d.msg, sizeof(d.msg), "cd %s: %s", ln.cd_path,
				 fstest_strerror(-rc));
			fstest_report(err, name, lineno, d.msg);
			return 1;
		}
		return 0;
	}
	if (be->fork_per_line) {
		rc = fork_chain(be, ctx, &ln, out, err, name, lineno);
	} else {
		rc = fstest_exec_chain(be, ctx, &ln, out, err, name, lineno, NULL);
		/* Should the VFS crash, what it printed so far is kept. */
		fflush(out);
	}
	free(ln.calls);
	return rc;
}

int fstest_run_line(const struct fstest_backend *be, void *ctx, const char *line, FILE *out,
		    FILE *err, const char *name, unsigned long lineno)
{
	struct toks t = { 0 };
	struct diag d;
	int rc;

	if (!fstest_tokenize(line, &t, &d)) {
		fstest_report(err, name, lineno, d.msg);
		fstest_toks_free(&t);
		return 1;
	}
	rc = run_tokens(be, ctx, &t, out, err, name, lineno);
	fstest_toks_free(&t);
	return rc;
}

int fstest_run_argv(const struct fstest_backend *be, void *ctx, int argc, char *const argv[],
		    FILE *out, FILE *err)
{
	struct toks t = { 0 };
	int rc = 1;

	if (!fstest_tokens_argv(&t, argc, argv)) {
		fstest_report(err, "fstest", 0, "out of memory");
		goto out;
	}
	if (!t.n) {
		fstest_report(err, "fstest", 0, "too few arguments: no syscall");
		goto out;
	}
	rc = run_tokens(be, ctx, &t, out, err, "fstest", 0);
	rc |= fstest_jobs_wait(be, ctx, out, err) ? 1 : 0;
out:
	fstest_toks_free(&t);
	return rc;
}

int fstest_run(const struct fstest_backend *be, void *ctx, FILE *in, FILE *out, FILE *err,
	       const char *name)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	int bad = 0;

	while (!intr_pending() && getline(&line, &cap, in) >= 0) {
		lineno++;
		bad += fstest_run_line(be, ctx, line, out, err, name, lineno);
	}
	free(line);
	/* The script is over: its background lines end too (killed if blocked). */
	bad += fstest_jobs_wait(be, ctx, out, err);
	if (intr_pending()) {
		fflush(out);
		fprintf(err,
			"%s: INTERRUPTED by %s after line %lu: the lines after it did not run\n",
			name, intr_name(), lineno);
		return bad;
	}
	if (ferror(in)) {
		fstest_report(err, name, lineno + 1, "read error");
		return -1;
	}
	fflush(out);
	return bad;
}
