// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab sim --jobs N, --emit-jobs DIR, --job K, --collect DIR: a dry walk
 * lists the points, jobs run them, a last walk prints them (see jobs.h).
 * A job's result travels as text, one "name values..." line each, doubles
 * in C99 hex (%a) so that they come back bit for bit on any machine; one
 * function (xfer_result) both writes and reads it, so the two cannot drift.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/interrupt.h"
#include "tools/simrun/jobs.h"

#define JOB_MAGIC "vfslab-sim-job 1"

enum mode {
	M_OFF, /* no jobs: every point simulated in turn */
	M_LIST, /* the dry walk that lists the points */
	M_ONE, /* a dry walk that simulates only point `want` */
	M_REPLAY, /* the walk that prints, every result from its job */
};

struct job {
	char *key;
	bool have;
	struct sim_result r;
	double rate[SIM_MAX_SEEDS];
};

static struct {
	enum mode mode;
	unsigned int i; /* points this walk has reached */
	unsigned int want; /* M_ONE: the point to simulate, from 1 */
	const char *out; /* M_ONE: where its result goes */
	bool wrote;
	struct job *v;
	unsigned int n, cap;
	unsigned int added; /* M_LIST: points this walk found that were not listed */
	bool unknown; /* a dry walk met a point without a result since sim_jobs_mark() */
	unsigned int *order; /* the last M_LIST walk's points, as indexes into v, in turn */
	unsigned int norder, caporder;
} st;

/* The last listing walk met point v[k] next: the walk that prints goes the same way. */
static void order_push(unsigned int k)
{
	if (st.norder == st.caporder) {
		st.caporder = st.caporder ? 2 * st.caporder : 64;
		st.order = realloc(st.order, st.caporder * sizeof(*st.order));
		if (!st.order)
			abort();
	}
	st.order[st.norder++] = k;
}

bool sim_jobs_wanted(const struct sim_jobs_opts *o)
{
	return o->jobs > 1 || o->emit_dir || o->collect_dir || o->job;
}

bool sim_jobs_dry(void)
{
	return st.mode == M_LIST || st.mode == M_ONE;
}

void sim_jobs_mark(void)
{
	st.unknown = false;
}

bool sim_jobs_unknown(void)
{
	return st.unknown;
}

bool sim_jobs_ready(void)
{
	return st.mode == M_REPLAY && st.i < st.norder && st.v[st.order[st.i]].have;
}

/* ---- a result as text, both ways ---- */

struct io {
	bool write;
	FILE *f; /* writing */
	char *p; /* reading: the next line */
	const char *name; /* the file, for messages */
	bool bad;
};

/* The next line, which must start with @name and a blank; its rest. */
static char *rd_line(struct io *io, const char *name)
{
	size_t n = strlen(name);
	char *line = io->p, *nl;

	if (io->bad || !line || !*line)
		goto bad;
	nl = strchr(line, '\n');
	if (!nl)
		goto bad;
	*nl = '\0';
	io->p = nl + 1;
	if (strncmp(line, name, n) || line[n] != ' ')
		goto bad;
	return line + n + 1;
bad:
	if (!io->bad)
		cli_error("sim", "%s: not a vfslab sim job's result (at '%s')", io->name, name);
	io->bad = true;
	return NULL;
}

static void io_ull(struct io *io, const char *name, unsigned long long *v)
{
	char *s, *end;

	if (io->write) {
		fprintf(io->f, "%s %llu\n", name, *v);
		return;
	}
	s = rd_line(io, name);
	if (!s)
		return;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || *end || end == s)
		io->bad = true;
}

/* Any integer member, through unsigned long long (a negative long wraps and comes back). */
#define IO_NUM(io, name, lv)                  \
	do {                                  \
		unsigned long long t_ = (lv); \
		io_ull(io, name, &t_);        \
		(lv) = (__typeof__(lv))t_;    \
	} while (0)

/* n doubles, the trailing zeros left out. */
static void io_doubles(struct io *io, const char *name, double *v, unsigned int n)
{
	char *s, *end;
	unsigned int k, used = n;

	if (io->write) {
		while (used && v[used - 1] == 0 && !signbit(v[used - 1]))
			used--;
		fprintf(io->f, "%s %u", name, used);
		for (k = 0; k < used; k++)
			fprintf(io->f, " %a", v[k]);
		fputc('\n', io->f);
		return;
	}
	s = rd_line(io, name);
	if (!s)
		return;
	used = (unsigned int)strtoul(s, &end, 10);
	if (end == s || used > n) {
		io->bad = true;
		return;
	}
	for (k = 0; k < n; k++) {
		s = end;
		v[k] = k < used ? strtod(s, &end) : 0;
		if (k < used && end == s)
			io->bad = true;
	}
	if (*end)
		io->bad = true;
}

static void io_double(struct io *io, const char *name, double *v)
{
	io_doubles(io, name, v, 1);
}

/* A string, bytes outside '!'..'~' and '%' as %XX. */
static void io_str(struct io *io, const char *name, char *buf, size_t size)
{
	char *s;
	size_t n = 0;

	if (io->write) {
		fprintf(io->f, "%s ", name);
		for (const unsigned char *c = (const unsigned char *)buf; *c; c++)
			fprintf(io->f, *c > ' ' && *c < 0x7f && *c != '%' ? "%c" : "%%%02X", *c);
		fputc('\n', io->f);
		return;
	}
	s = rd_line(io, name);
	if (!s)
		return;
	for (; *s && n + 1 < size; s++) {
		unsigned int x;

		if (*s == '%' && sscanf(s + 1, "%2x", &x) == 1) {
			buf[n++] = (char)x;
			s += 2;
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
	if (*s)
		io->bad = true;
}

static void xfer_stats(struct io *io, struct coh_stats *s)
{
	IO_NUM(io, "loads", s->loads);
	IO_NUM(io, "stores", s->stores);
	IO_NUM(io, "rmws", s->rmws);
	IO_NUM(io, "hitm_local", s->hitm_local);
	IO_NUM(io, "hitm_remote", s->hitm_remote);
	IO_NUM(io, "clean_fetch", s->clean_fetch);
	IO_NUM(io, "mem_fetch", s->mem_fetch);
	IO_NUM(io, "rfo", s->rfo);
	IO_NUM(io, "upgrade", s->upgrade);
	IO_NUM(io, "inval", s->inval);
	IO_NUM(io, "rmw_xfer", s->rmw_xfer);
	IO_NUM(io, "stall_ps", s->stall_ps);
	IO_NUM(io, "queue_ps", s->queue_ps);
}

static void xfer_c2c(struct io *io, struct c2c_report *c)
{
	unsigned int have_heat = c->heat != NULL;

	xfer_stats(io, &c->total);
	IO_NUM(io, "lines_with_events", c->lines_with_events);
	IO_NUM(io, "nlines", c->nlines);
	if (!io->write && !io->bad) {
		c->lines = calloc(c->nlines ? c->nlines : 1, sizeof(*c->lines));
		if (!c->lines || c->nlines > 1000000)
			abort();
	}
	for (unsigned int i = 0; i < c->nlines && !io->bad; i++) {
		struct c2c_line *l = &c->lines[i];

		io_str(io, "object", l->object, sizeof(l->object));
		io_str(io, "holds", l->fields, sizeof(l->fields));
		IO_NUM(io, "obj_off", l->obj_off);
		xfer_stats(io, &l->s);
		IO_NUM(io, "nrows", l->nrows);
		if (!io->write && !io->bad && !(l->rows = calloc(l->nrows + 1, sizeof(*l->rows))))
			abort();
		for (unsigned int k = 0; k < l->nrows && !io->bad; k++) {
			struct c2c_row *w = &l->rows[k];

			io_str(io, "field", w->field, sizeof(w->field));
			io_str(io, "function", w->func, sizeof(w->func));
			IO_NUM(io, "events", w->events);
			IO_NUM(io, "hitm", w->hitm);
			IO_NUM(io, "rfo", w->rfo);
			IO_NUM(io, "inval", w->inval);
			IO_NUM(io, "rmw_xfer", w->rmw_xfer);
			IO_NUM(io, "stall_ps", w->stall_ps);
			IO_NUM(io, "kinds", w->kinds);
		}
	}
	IO_NUM(io, "heat", have_heat);
	if (!have_heat || io->bad)
		return;
	if (!io->write && !(c->heat = calloc(1, sizeof(*c->heat))))
		abort();
	for (int k = 0; k < LS_NR; k++) {
		for (int i = 0; i < LAYOUT_MAX_FIELDS; i++) {
			struct c2c_heat_field *h = &c->heat->f[k][i];

			IO_NUM(io, "f.events", h->events);
			IO_NUM(io, "f.hitm", h->hitm);
			IO_NUM(io, "f.rfo", h->rfo);
			IO_NUM(io, "f.stall_ps", h->stall_ps);
			IO_NUM(io, "f.nfuncs", h->nfuncs);
			for (unsigned int j = 0; j < h->nfuncs && j < C2C_HEAT_FUNCS; j++) {
				io_str(io, "fn", h->funcs[j].name, sizeof(h->funcs[j].name));
				IO_NUM(io, "fn.events", h->funcs[j].events);
				IO_NUM(io, "fn.stall_ps", h->funcs[j].stall_ps);
				IO_NUM(io, "fn.kinds", h->funcs[j].kinds);
			}
		}
		for (int line = 0; line < C2C_HEAT_LINES; line++) {
			IO_NUM(io, "l.events", c->heat->line[k][line].events);
			IO_NUM(io, "l.stall_ps", c->heat->line[k][line].stall_ps);
		}
	}
}

/* Every member of a result that the reports print. */
static void xfer_result(struct io *io, struct sim_result *r)
{
	struct bench_result *b = &r->br;

	IO_NUM(io, "side", b->side);
	IO_NUM(io, "tasks", b->tasks);
	io_double(io, "median", &b->median);
	io_double(io, "min", &b->min);
	io_double(io, "max", &b->max);
	io_doubles(io, "samples", b->samples, BENCH_MAX_ROUNDS);
	IO_NUM(io, "nr_samples", b->nr_samples);
	io_doubles(io, "score", b->score, 2);
	io_doubles(io, "score_samples0", b->score_samples[0], BENCH_MAX_ROUNDS);
	io_doubles(io, "score_samples1", b->score_samples[1], BENCH_MAX_ROUNDS);
	io_double(io, "ratio", &b->ratio);
	io_double(io, "ratio_min", &b->ratio_min);
	io_double(io, "ratio_max", &b->ratio_max);
	io_doubles(io, "ev_per_op", b->ev_per_op, VFS_EV_NR);
	IO_NUM(io, "oversubscribed", b->oversubscribed);
	IO_NUM(io, "errors", b->errors);
	IO_NUM(io, "last_error", b->last_error);
	IO_NUM(io, "ops", r->ops);
	io_double(io, "window_s", &r->window_s);
	io_double(io, "op_ns", &r->op_ns);
	io_double(io, "per_op.hitm", &r->per_op.hitm);
	io_double(io, "per_op.rfo", &r->per_op.rfo);
	io_double(io, "per_op.inval", &r->per_op.inval);
	io_double(io, "per_op.rmw_xfer", &r->per_op.rmw_xfer);
	io_double(io, "per_op.clean", &r->per_op.clean);
	io_double(io, "per_op.stall_ns", &r->per_op.stall_ns);
	IO_NUM(io, "switches", r->switches);
	io_double(io, "instrs_per_op", &r->instrs_per_op);
	io_double(io, "sb_stalls_per_op", &r->sb_stalls_per_op);
	io_double(io, "cpi", &r->cpi);
	IO_NUM(io, "accesses", r->accesses);
	IO_NUM(io, "lines", r->lines);
	io_double(io, "host_s", &r->host_s);
	IO_NUM(io, "speed.accesses", r->speed.accesses);
	IO_NUM(io, "speed.ops", r->speed.ops);
	io_double(io, "speed.s", &r->speed.s);
	xfer_c2c(io, &r->c2c);
}

static void xfer_job(struct io *io, char *key, size_t keysize, struct sim_result *r, double *rate,
		     unsigned int *seeds)
{
	io_str(io, "key", key, keysize);
	IO_NUM(io, "seeds", *seeds);
	if (*seeds > SIM_MAX_SEEDS)
		io->bad = true;
	else
		io_doubles(io, "rate", rate, *seeds);
	xfer_result(io, r);
}

/* The result of point st.want into st.out (through a temporary: no half file). */
static int write_result(const char *path, const char *key, const struct sim_result *r,
			const double *rate, unsigned int seeds)
{
	char tmp[4096], k[1024];
	struct io io = { .write = true, .name = path };
	struct sim_result copy = *r;
	double rates[SIM_MAX_SEEDS] = { 0 };

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	snprintf(k, sizeof(k), "%s", key);
	memcpy(rates, rate, seeds * sizeof(*rate));
	io.f = fopen(tmp, "w");
	if (!io.f) {
		cli_error("sim", "--job-out: cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(io.f, "%s\n", JOB_MAGIC);
	xfer_job(&io, k, sizeof(k), &copy, rates, &seeds);
	fprintf(io.f, "end\n");
	if (cli_fclose("sim", tmp, io.f))
		return -1;
	if (rename(tmp, path)) {
		cli_error("sim", "--job-out: cannot rename %s to %s: %s", tmp, path,
			  strerror(errno));
		return -1;
	}
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - n < 65536) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap + 1);
			if (!buf)
				abort();
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* Job @j's result from @path, checked against the point it must be. */
static int read_result(struct job *j, const char *path)
{
	char *text = slurp(path), key[1024];
	struct io io = { .name = path };
	unsigned int seeds = 0;
	int ret = -1;

	if (!text) {
		cli_error("sim", "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	io.p = text;
	if (strncmp(text, JOB_MAGIC "\n", sizeof(JOB_MAGIC))) {
		cli_error("sim", "%s: not a vfslab sim job's result", path);
		goto out;
	}
	io.p += sizeof(JOB_MAGIC);
	memset(&j->r, 0, sizeof(j->r));
	xfer_job(&io, key, sizeof(key), &j->r, j->rate, &seeds);
	if (!io.bad && strcmp(io.p, "end\n")) {
		cli_error("sim", "%s: cut short or followed by junk", path);
		io.bad = true;
	}
	if (io.bad) {
		if (!strstr(io.p ? io.p : "", "end"))
			cli_error("sim", "%s: cannot be read back", path);
		c2c_free(&j->r.c2c);
		goto out;
	}
	if (strcmp(key, j->key)) {
		cli_error("sim", "%s is the result of '%s', not of this command's '%s'", path, key,
			  j->key);
		c2c_free(&j->r.c2c);
		goto out;
	}
	j->have = true;
	ret = 0;
out:
	free(text);
	return ret;
}

/* ---- the walks ---- */

/* The listed point with this key, or NULL. */
static struct job *find(const char *key)
{
	for (unsigned int k = 0; k < st.n; k++)
		if (!strcmp(st.v[k].key, key))
			return &st.v[k];
	return NULL;
}

/*
 * A result a job made, for a walk that only needs it to go on (a
 * converging scenario's next step depends on it): the numbers without the
 * contention report, which stays with the job for the walk that prints.
 */
static enum sim_point_act lend(const struct job *j, struct sim_result *r, double *rate,
			       unsigned int seeds)
{
	*r = j->r;
	memset(&r->c2c, 0, sizeof(r->c2c));
	memcpy(rate, j->rate, seeds * sizeof(*rate));
	return SIM_POINT_TAKEN;
}

enum sim_point_act sim_jobs_point(const char *key, struct sim_result *r, double *rate,
				  unsigned int seeds)
{
	struct job *j;

	switch (st.mode) {
	case M_OFF:
		return SIM_POINT_RUN;
	case M_LIST:
		/*
		 * Points with results let the walk go where they lead (a
		 * scenario converging over more steps); a new one is listed.
		 */
		j = find(key);
		st.i++;
		if (j)
			order_push((unsigned int)(j - st.v));
		if (j && j->have)
			return lend(j, r, rate, seeds);
		st.unknown = true;
		if (j)
			return SIM_POINT_SKIP;
		if (st.n == st.cap) {
			st.cap = st.cap ? 2 * st.cap : 64;
			st.v = realloc(st.v, st.cap * sizeof(*st.v));
			if (!st.v)
				abort();
		}
		memset(&st.v[st.n], 0, sizeof(st.v[st.n]));
		st.v[st.n].key = strdup(key);
		order_push(st.n);
		st.n++;
		st.added++;
		return SIM_POINT_SKIP;
	case M_ONE:
		st.i++;
		if (!strcmp(key, st.v[st.want - 1].key))
			return SIM_POINT_MINE;
		j = find(key);
		if (j && j->have)
			return lend(j, r, rate, seeds);
		st.unknown = true;
		return SIM_POINT_SKIP;
	case M_REPLAY:
		break;
	}
	j = st.i < st.norder ? &st.v[st.order[st.i]] : NULL;
	st.i++;
	if (!j || !j->have || strcmp(j->key, key)) {
		/* After a Ctrl-C the walk stops at the first: not an error. */
		if (!intr_pending())
			cli_error("sim", "simulation %u (%s) has no result", st.i, key);
		return SIM_POINT_LOST;
	}
	*r = j->r;
	memcpy(rate, j->rate, seeds * sizeof(*rate));
	/* The walk frees what it is given. */
	memset(&j->r.c2c, 0, sizeof(j->r.c2c));
	j->have = false;
	return SIM_POINT_TAKEN;
}

int sim_jobs_done(const struct sim_result *r, const double *rate, unsigned int seeds)
{
	st.wrote = true;
	return write_result(st.out, st.v[st.want - 1].key, r, rate, seeds);
}

/* Walk with standard output discarded: 0, or the walk's status. */
static int dry_walk(int (*walk)(void *), void *ctx, const void *snap, size_t size, enum mode mode)
{
	int null = open("/dev/null", O_WRONLY), saved, ret;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (null < 0 || saved < 0) {
		cli_error("sim", "cannot open /dev/null: %s", strerror(errno));
		return 1;
	}
	dup2(null, STDOUT_FILENO);
	close(null);
	memcpy(ctx, snap, size);
	st.mode = mode;
	st.i = 0;
	if (mode == M_LIST)
		st.norder = 0;
	ret = walk(ctx);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	return ret;
}

/* In a forked process: run point @k alone into @path, and exit. */
static void child(unsigned int k, const char *path, int (*walk)(void *), void *ctx,
		  const void *snap, size_t size)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	static char line[4096];
	int ret;

	/* Ctrl-C at a terminal stops the children at once, as the parent. */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			signal(sigs[i], SIG_DFL);
	}
	/* --progress: whole lines, not interleaved halves. */
	setvbuf(stderr, line, _IOLBF, sizeof(line));
	st.want = k;
	st.out = path;
	st.wrote = false;
	ret = dry_walk(walk, ctx, snap, size, M_ONE);
	fflush(NULL);
	_exit(ret || !st.wrote ? 1 : 0);
}

static void job_path(char *buf, size_t n, const char *dir, unsigned int k)
{
	snprintf(buf, n, "%s/job-%u.res", dir, k);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Every listed point in up to @procs processes, results through files in a
 * scratch directory. Ctrl-C kills the running ones; the points done stay.
 * 0, or -1 after cli_error when a job failed.
 */
static int run_local(unsigned int procs, int (*walk)(void *), void *ctx, const void *snap,
		     size_t size)
{
	char dir[4096], path[4200];
	const char *tmp = getenv("TMPDIR");
	pid_t *pid = calloc(procs, sizeof(*pid));
	unsigned int *which = calloc(procs, sizeof(*which)), next = 1, running = 0;
	int ret = 0;

	snprintf(dir, sizeof(dir), "%s/vfslab-sim-jobs.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!pid || !which || !intr_mkdtemp(dir)) {
		cli_error("sim", "--jobs: cannot make a scratch directory %s: %s", dir,
			  strerror(errno));
		free(pid);
		free(which);
		return -1;
	}
	/* This round's points: those no earlier round ran. */
	while (next <= st.n && st.v[next - 1].have)
		next++;
	for (;;) {
		int status;
		pid_t p;
		unsigned int slot;

		while (!ret && !intr_pending() && running < procs && next <= st.n) {
			for (slot = 0; pid[slot]; slot++)
				;
			job_path(path, sizeof(path), dir, next);
			fflush(NULL);
			p = fork();
			if (p == 0)
				child(next, path, walk, ctx, snap, size);
			if (p < 0) {
				cli_error("sim", "--jobs: fork: %s", strerror(errno));
				ret = -1;
				break;
			}
			pid[slot] = p;
			which[slot] = next;
			for (next++; next <= st.n && st.v[next - 1].have; next++)
				;
			running++;
		}
		if (!running)
			break;
		p = waitpid(-1, &status, WNOHANG);
		if (p <= 0) {
			/* A failure or Ctrl-C: the others are not waited for. */
			for (slot = 0; (ret || intr_pending()) && slot < procs; slot++)
				if (pid[slot])
					kill(pid[slot], SIGKILL);
			if (p < 0 && errno != EINTR)
				break;
			sleep_ms(20);
			continue;
		}
		for (slot = 0; slot < procs && pid[slot] != p; slot++)
			;
		if (slot == procs)
			continue;
		pid[slot] = 0;
		running--;
		job_path(path, sizeof(path), dir, which[slot]);
		/* Killed after its result was in place (renamed whole): it counts. */
		if ((WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
		    (intr_pending() && !access(path, F_OK))) {
			if (read_result(&st.v[which[slot] - 1], path))
				ret = -1;
		} else if (!ret && !intr_pending() &&
			   !(WIFSIGNALED(status) &&
			     (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM))) {
			cli_error("sim", "--jobs: simulation %u (%s) failed", which[slot],
				  st.v[which[slot] - 1].key);
			ret = -1;
		}
	}
	/* A child killed by a Ctrl-C at the terminal: the parent's flag may lag. */
	for (int k = 0; k < 10 && !ret && !intr_pending() && next <= st.n; k++)
		sleep_ms(20);
	if (!ret && !intr_pending() && next <= st.n) {
		cli_error("sim", "--jobs: simulations were killed");
		ret = -1;
	}
	intr_scratch_rm(dir);
	free(pid);
	free(which);
	return ret;
}

/* ---- --emit-jobs and --collect ---- */

/* The long option @arg names (exact, or a prefix of one only), as getopt_long takes it. */
static const struct option *which_option(const struct option *opts, const char *arg)
{
	size_t n = strcspn(arg, "=");
	const struct option *hit = NULL;
	int hits = 0;

	for (const struct option *o = opts; o->name; o++) {
		if (strncmp(o->name, arg, n))
			continue;
		if (strlen(o->name) == n)
			return o;
		hit = o;
		hits++;
	}
	return hits == 1 ? hit : NULL;
}

/* A word for sh: in single quotes unless it needs none. */
static void sh_word(FILE *f, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_-+=,.:/@%") == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++)
		fputs(*s == '\'' ? "'\\''" : (char[]){ *s, '\0' }, f);
	fputc('\'', f);
}

/*
 * The command's arguments less --emit-jobs and, for a job (@job), less
 * those that say where and how results are reported.
 */
static void sh_args(FILE *f, int argc, char **argv, const struct option *opts, bool job)
{
	static const char *const drop[] = { "emit-jobs", "jobs", "collect", "job",
					    "job-out",	 "json", "plot",    "format" };

	for (int i = 1; i < argc; i++) {
		const struct option *o = NULL;
		bool skip = false;

		if (!strcmp(argv[i], "--")) {
			for (; i < argc; i++) {
				fputc(' ', f);
				sh_word(f, argv[i]);
			}
			break;
		}
		if (!strncmp(argv[i], "--", 2) && argv[i][2])
			o = which_option(opts, argv[i] + 2);
		for (size_t k = 0; o && k < (job ? sizeof(drop) / sizeof(drop[0]) : 1); k++)
			skip |= !strcmp(o->name, drop[k]);
		if (job && o && !strcmp(o->name, "report")) {
			const char *v = strchr(argv[i], '=') ? strchr(argv[i], '=') + 1 :
							       argv[i + 1];

			/* --report html FILE: the file is one more word. */
			skip = true;
			if (v && (!strcmp(v, "html") || !strcmp(v, "svg")))
				i += !strchr(argv[i], '=');
			else if (v && strcmp(v, "c2c"))
				skip = false;
		}
		if (skip) {
			i += o->has_arg == required_argument && !strchr(argv[i], '=');
			continue;
		}
		fputc(' ', f);
		sh_word(f, argv[i]);
		if (o && o->has_arg == required_argument && !strchr(argv[i], '=') && i + 1 < argc) {
			fputc(' ', f);
			sh_word(f, argv[++i]);
		}
	}
}

static int emit(const char *dir, int argc, char **argv, const struct option *opts)
{
	char path[4096];
	FILE *f;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		cli_error("sim", "--emit-jobs: cannot make %s: %s", dir, strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/jobs", dir);
	f = fopen(path, "w");
	if (!f) {
		cli_error("sim", "--emit-jobs: cannot write %s: %s", path, strerror(errno));
		return 1;
	}
	for (unsigned int k = 1; k <= st.n; k++) {
		fputs("vfslab sim", f);
		sh_args(f, argc, argv, opts, true);
		fprintf(f, " --job %u --job-out job-%u.res\n", k, k);
	}
	if (cli_fclose("sim", path, f))
		return 1;
	printf("vfslab sim: %u simulations, one command a line, in %s; each writes job-K.res in "
	       "the directory it runs in.\nRun them in %s (e.g. cd ",
	       st.n, path, dir);
	sh_word(stdout, dir);
	printf(" && parallel < jobs), then merge the results into the report:\n  vfslab sim");
	sh_args(stdout, argc, argv, opts, false);
	printf(" --collect ");
	sh_word(stdout, dir);
	printf("\n");
	return 0;
}

static int collect(const char *dir)
{
	char path[4200];

	for (unsigned int k = 1; k <= st.n; k++) {
		job_path(path, sizeof(path), dir, k);
		if (access(path, F_OK)) {
			cli_error("sim", "--collect: %s is missing: run line %u of %s/jobs", path,
				  k, dir);
			return -1;
		}
		if (read_result(&st.v[k - 1], path))
			return -1;
	}
	return 0;
}

int sim_jobs_drive(const struct sim_jobs_opts *o, int (*walk)(void *ctx), void *ctx,
		   size_t ctx_size, int argc, char **argv, const struct option *opts)
{
	void *snap = malloc(ctx_size);
	int ret;

	if (!snap)
		abort();
	memcpy(snap, ctx, ctx_size);
	ret = dry_walk(walk, ctx, snap, ctx_size, M_LIST);
	if (ret)
		goto out;
	if (o->job) {
		if (o->job > st.n) {
			cli_error("sim", "--job %u: this command runs %u simulations", o->job,
				  st.n);
			ret = 2;
			goto out;
		}
		st.want = o->job;
		st.out = o->job_out;
		ret = dry_walk(walk, ctx, snap, ctx_size, M_ONE);
		if (!ret && !st.wrote)
			ret = 1;
		goto out;
	}
	if (o->emit_dir) {
		ret = emit(o->emit_dir, argc, argv, opts);
		goto out;
	}
	if (o->collect_dir) {
		if (collect(o->collect_dir)) {
			ret = 1;
			goto out;
		}
		/* A scenario whose ratio the jobs' results did not settle needs more. */
		st.added = 0;
		ret = dry_walk(walk, ctx, snap, ctx_size, M_LIST);
		if (!ret && st.added) {
			cli_error("sim",
				  "--collect: with these results a scenario doubles its operations "
				  "again (%u more simulations, the first: %s); give --ops N to "
				  "--emit-jobs and --collect for a fixed count",
				  st.added, st.v[st.n - st.added].key);
			ret = 1;
		}
		if (ret)
			goto out;
	} else {
		/*
		 * Rounds: run what the walk listed, then walk again with the
		 * results, which may lead a converging scenario to points the
		 * last walk could not see, until a walk finds none.
		 */
		for (;;) {
			if (run_local(o->jobs, walk, ctx, snap, ctx_size)) {
				ret = 1;
				goto out;
			}
			if (intr_pending())
				break;
			st.added = 0;
			ret = dry_walk(walk, ctx, snap, ctx_size, M_LIST);
			if (ret)
				goto out;
			if (!st.added)
				break;
		}
	}
	memcpy(ctx, snap, ctx_size);
	st.mode = M_REPLAY;
	st.i = 0;
	ret = walk(ctx);
out:
	st.mode = M_OFF;
	for (unsigned int k = 0; k < st.n; k++) {
		free(st.v[k].key);
		if (st.v[k].have)
			c2c_free(&st.v[k].r.c2c);
	}
	free(st.v);
	free(st.order);
	memset(&st, 0, sizeof(st));
	free(snap);
	return ret;
}
