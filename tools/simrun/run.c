// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A bench workload on N simulated CPUs, will-it-scale style: vCPU 0 builds
 * the VFS and runs the workload's prepare step, every vCPU forks its task
 * and runs init, and all start together (a barrier) and do --ops
 * iterations each, the faster ones going on until the slowest is done, as
 * bench's tasks all run for a round's time. The rate is measured over the
 * window from the moment every vCPU is past its warm-up (the first tenth of
 * its iterations, or the workload's own warm-up if longer, up to half) to
 * the moment the slowest is done, split into SIM_SAMPLES equal intervals.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/compiler.h"
#include "tools/simrun/simrun.h"

#define SIM_BASE "/tmp/vfslab-sim"

/* How far past its own iterations a vCPU goes on while others are not done. */
#define SIM_RUN_ON 4
/* The spread of the vCPUs' start: a few operations, a thread wake-up's scale. */
#define SIM_START_SPAN_NS 2000

struct worker;

struct run {
	const struct sim_run_opts *o;
	const struct vfs_config *cfg;
	struct vfs *vfs;
	struct task *main_task;
	struct sim_ctx main_ctx;
	struct bench_task *main;
	char *base;
	int err;
	uint64_t ev0[VFS_EV_NR], ev1[VFS_EV_NR];
	unsigned int finished; /* vCPUs past their --ops iterations */
	struct worker *w;
	struct sim_result *out;
};

struct worker {
	struct run *r;
	unsigned int id;
	struct sim_ctx ctx;
	struct bench_task *t;
	uint64_t *done; /* when each iteration finished, ps */
	unsigned long n, cap; /* iterations done; room in done[] */
	uint64_t start;
	uint64_t instrs, sb_stalls; /* during the measured iterations */
};

static void fail(struct run *r, int err, const char *what)
{
	if (!r->err) {
		r->err = err ? err : -1;
		fprintf(stderr, "vfslab sim: %s: %s\n", what, strerror(err < 0 ? -err : err));
	}
}

static int grow_done(struct worker *w)
{
	uint64_t *d = realloc(w->done, 2 * w->cap * sizeof(*d));

	if (!d)
		return -1;
	w->done = d;
	w->cap *= 2;
	return 0;
}

/* vCPU 0: the VFS, the main task, the base directory, the workload's files. */
static void setup(struct run *r)
{
	struct vfs_config cfg = *r->cfg;
	char err[512];
	long e;

	if (r->o->wl->vfs_variant &&
	    vfs_config_parse(&cfg, r->o->wl->vfs_variant, err, sizeof(err))) {
		fprintf(stderr, "vfslab sim: %s: %s\n", r->o->wl->name, err);
		r->err = -EINVAL;
		return;
	}
	r->vfs = vfs_new(&cfg, err, sizeof(err));
	if (!r->vfs) {
		fprintf(stderr, "vfslab sim: %s\n", err);
		r->err = -EINVAL;
		return;
	}
	sim_arena_tag(r->vfs, "struct vfs");
	r->main_task = task_create_init(r->vfs);
	if (!r->main_task) {
		fail(r, -ENOMEM, "task_create_init");
		return;
	}
	r->main_ctx.task = r->main_task;
	r->main = sim_arena_alloc(sizeof(*r->main), 64);
	memset(r->main, 0, sizeof(*r->main));
	r->main->sys = &sys_ops_sim;
	r->main->ctx = &r->main_ctx;
	r->main->shared_fd = -1;
	r->main->fd = -1;
	r->main->nr = r->o->cpus;
	r->main->threads = !r->o->processes;
	r->base = sim_arena_alloc(sizeof(SIM_BASE), 16);
	memcpy(r->base, SIM_BASE, sizeof(SIM_BASE));
	r->main->base = r->base;
	/* The same depth as bench's /dev/shm/vfslab-bench.XXXXXX. */
	e = r->main->sys->mkdir(r->main->ctx, "/tmp", 0777);
	if (e < 0 && e != -EEXIST)
		return fail(r, (int)e, "mkdir /tmp");
	e = r->main->sys->mkdir(r->main->ctx, r->base, 0755);
	if (e < 0)
		return fail(r, (int)e, "mkdir " SIM_BASE);
	if (r->o->wl->prepare) {
		e = r->o->wl->prepare(r->main, r->o->cpus);
		if (e < 0)
			fail(r, (int)e, "prepare");
	}
}

static void teardown(struct run *r)
{
	long leaked;

	if (r->main && r->main->shared_fd >= 0)
		r->main->sys->close(r->main->ctx, r->main->shared_fd);
	if (r->main_task)
		task_exit(r->main_task);
	if (!r->vfs)
		return;
	leaked = vfs_destroy(r->vfs);
	if (leaked)
		fprintf(stderr, "vfslab sim: %ld objects leaked at teardown\n", leaked);
}

static void vcpu_fn(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->r;
	struct sim_vcpu *v = sim_self;
	const struct workload *wl = r->o->wl;
	struct bench_task *t = NULL;

	if (w->id == 0)
		setup(r);
	sim_barrier();
	if (!r->err) {
		w->ctx.task = task_fork(r->main_task,
					r->o->processes ? 0 : TASK_CLONE_FILES | TASK_CLONE_FS);
		if (!w->ctx.task)
			fail(r, -ENOMEM, "task_fork");
	}
	if (!r->err) {
		t = w->t = sim_arena_alloc(sizeof(*t), 64);
		memset(t, 0, offsetof(struct bench_task, buf));
		t->sys = &sys_ops_sim;
		t->ctx = &w->ctx;
		t->base = r->base;
		t->id = w->id;
		t->nr = r->o->cpus;
		t->threads = !r->o->processes;
		t->fd = -1;
		t->shared_fd = r->main->shared_fd;
		if (wl->init) {
			long e = wl->init(t);

			if (e < 0)
				fail(r, (int)e, "init");
		}
	}
	sim_barrier();
	if (!r->err) {
		if (w->id == 0) {
			/* Everyone is at the same clock and vCPU 0 goes first. */
			SIM_IGNORED(vfs_events_read(r->ev0));
			coh_stats_reset(&sim.coh, true);
		}
		/*
		 * Threads do not start in lockstep: each vCPU starts within
		 * SIM_START_SPAN_NS of the others, drawn from the seed, so a
		 * run's phase is as much a draw as its transfer times and
		 * --seeds averages over both; without it, every seed of a
		 * scenario started from the one phase the set-up code left.
		 */
		sim_stagger(SIM_START_SPAN_NS * 1000);
		w->start = v->clock;
		w->instrs = v->instrs;
		w->sb_stalls = v->sb_stalls;
		v->measuring = true;
		/*
		 * Like bench's rounds, every vCPU keeps running until the slowest
		 * has done its iterations, so all of them load the machine the
		 * whole time the rate is measured (blogbench's writer and reader
		 * take very different times an iteration), up to SIM_RUN_ON
		 * times their own count (a starved vCPU must not make the
		 * others run for ever).
		 */
		for (w->n = 0; w->n < r->o->ops ||
			       (r->finished < r->o->cpus && w->n < SIM_RUN_ON * r->o->ops);
		     w->n++) {
			if (w->n == w->cap && grow_done(w)) {
				fail(r, -ENOMEM, "iterations");
				break;
			}
			wl->run(t, 1);
			w->done[w->n] = v->clock;
			if (w->n + 1 == r->o->ops)
				r->finished++;
		}
		v->measuring = false;
		w->instrs = v->instrs - w->instrs;
		w->sb_stalls = v->sb_stalls - w->sb_stalls;
	}
	sim_barrier();
	if (t && t->fd >= 0)
		t->sys->close(t->ctx, t->fd);
	if (w->ctx.task)
		task_exit(w->ctx.task);
	sim_barrier();
	if (w->id)
		return;
	if (!r->err) {
		SIM_IGNORED(vfs_events_read(r->ev1));
		if (r->o->c2c_top)
			SIM_IGNORED(c2c_build(&r->out->c2c, r->cfg, r->o->c2c_top));
	}
	teardown(r);
}

/* Iterations of @w that finished in (t0, t1]. */
static uint64_t done_in(const struct worker *w, uint64_t t0, uint64_t t1)
{
	uint64_t c = 0;

	for (unsigned long i = 0; i < w->n; i++)
		c += w->done[i] > t0 && w->done[i] <= t1;
	return c;
}

static void sum_stats(void *ctx, struct coh_line *l, uint64_t line)
{
	struct coh_stats *s = ctx;

	(void)line;
	s->hitm_local += l->st->hitm_local;
	s->hitm_remote += l->st->hitm_remote;
	s->rfo += l->st->rfo;
	s->inval += l->st->inval;
	s->rmw_xfer += l->st->rmw_xfer;
	s->clean_fetch += l->st->clean_fetch;
	s->stall_ps += l->st->stall_ps;
}

static void results(struct run *r, struct sim_result *out)
{
	const struct sim_run_opts *o = r->o;
	unsigned long n = o->ops, warm = n / 10;
	uint64_t t0 = 0, t1 = 0, tend = 0, tstart = UINT64_MAX, ops = 0, total_ops = 0;
	uint64_t stop = UINT64_MAX;
	struct bench_result *br = &out->br;
	struct coh_stats s = { 0 };
	double busy = 0, instrs = 0, stalls = 0;

	if (o->wl->warmup > warm)
		warm = o->wl->warmup < n / 2 ? o->wl->warmup : n / 2;
	for (unsigned int i = 0; i < o->cpus; i++) {
		struct worker *w = &r->w[i];

		/*
		 * Every vCPU runs until the last has done its n, or until it
		 * stops at SIM_RUN_ON times n: the first of these ends the window.
		 */
		if (w->done[warm ? warm - 1 : 0] > t0)
			t0 = w->done[warm ? warm - 1 : 0];
		if (w->done[n - 1] > t1)
			t1 = w->done[n - 1];
		if (w->n == SIM_RUN_ON * n && w->done[w->n - 1] < stop)
			stop = w->done[w->n - 1];
		if (w->done[w->n - 1] > tend)
			tend = w->done[w->n - 1];
		if (w->start < tstart)
			tstart = w->start;
		busy += (double)(w->done[w->n - 1] - w->start);
		total_ops += w->n;
		instrs += (double)w->instrs;
		stalls += (double)w->sb_stalls;
		br->errors += w->t ? w->t->errors : 0;
		if (w->t && w->t->last_error)
			br->last_error = w->t->last_error;
		br->score[0] += w->t ? w->t->score[0] : 0;
		br->score[1] += w->t ? w->t->score[1] : 0;
	}
	if (stop < t1)
		t1 = stop;
	if (t1 <= t0) {
		/* No time after every warm-up: use it all. */
		t0 = tstart;
		t1 = tend;
	}
	for (unsigned int k = 0; k < SIM_SAMPLES; k++) {
		uint64_t a = t0 + (t1 - t0) * k / SIM_SAMPLES;
		uint64_t b = t0 + (t1 - t0) * (k + 1) / SIM_SAMPLES, c = 0;

		for (unsigned int i = 0; i < o->cpus; i++)
			c += done_in(&r->w[i], a, b);
		br->samples[k] = b > a ? c / ((b - a) * 1e-12) : 0;
		ops += c;
	}
	br->nr_samples = SIM_SAMPLES;
	/* The rate over the whole window; min and max are its intervals'. */
	br->median = ops / ((t1 - t0) * 1e-12);
	br->min = br->max = br->samples[0];
	for (unsigned int k = 0; k < SIM_SAMPLES; k++) {
		if (br->samples[k] < br->min)
			br->min = br->samples[k];
		if (br->samples[k] > br->max)
			br->max = br->samples[k];
	}
	for (int k = 0; k < VFS_EV_NR; k++)
		br->ev_per_op[k] = (double)(r->ev1[k] - r->ev0[k]) / total_ops;
	for (int k = 0; k < 2; k++)
		br->score[k] = br->score[k] / ((tend - tstart) * 1e-12);
	br->tasks = o->cpus;
	out->ops = total_ops;
	out->window_s = (t1 - t0) * 1e-12;
	out->op_ns = busy / total_ops / 1000;
	out->instrs_per_op = instrs / total_ops;
	out->sb_stalls_per_op = stalls / total_ops;
	coh_for_each_stats(&sim.coh, sum_stats, &s);
	out->per_op.hitm = (double)(s.hitm_local + s.hitm_remote) / total_ops;
	out->per_op.rfo = (double)s.rfo / total_ops;
	out->per_op.inval = (double)s.inval / total_ops;
	out->per_op.rmw_xfer = (double)s.rmw_xfer / total_ops;
	out->per_op.clean = (double)s.clean_fetch / total_ops;
	out->per_op.stall_ns = s.stall_ps / 1000.0 / total_ops;
	out->switches = sim.switches;
}

int sim_run_workload(const struct sim_run_opts *o, const struct vfs_config *cfg,
		     struct sim_result *out)
{
	/* Static: an address that does not move with the host's stack or heap. */
	static struct layout built[LS_NR];
	struct vfs_config c = *cfg;
	struct run r = { .o = o, .cfg = &c, .out = out };
	struct sim_profile prof = *o->prof;
	char lerr[512];
	void **args;
	int err;

	memset(out, 0, sizeof(*out));
	/*
	 * The layouts, built here rather than on the simulated CPU: reading a
	 * layout file there would move every allocation after it, and with
	 * them which objects share a line.
	 */
	if (o->wl->vfs_variant && vfs_config_parse(&c, o->wl->vfs_variant, lerr, sizeof(lerr))) {
		fprintf(stderr, "vfslab sim: %s: %s\n", o->wl->name, lerr);
		return -1;
	}
	if (vfs_config_layouts(&c, built, lerr, sizeof(lerr))) {
		fprintf(stderr, "vfslab sim: %s\n", lerr);
		return -1;
	}
	c.layouts = built;
	/* The workload's own speed where the profile measured it. */
	prof.cpi = sim_profile_cpi(o->prof, o->wl->name);
	out->cpi = prof.cpi;
	if (!o->ops || sim_setup(&prof, o->cpus))
		return -1;
	if (o->entry_ns >= 0)
		sim_set_entry_ns(o->entry_ns);
	sim_set_seed(o->seed);
	sim_arena_place(o->first_slots ? 0 : o->seed);
	r.w = calloc(o->cpus, sizeof(*r.w));
	args = calloc(o->cpus, sizeof(*args));
	if (!r.w || !args)
		return -1;
	for (unsigned int i = 0; i < o->cpus; i++) {
		r.w[i].r = &r;
		r.w[i].id = i;
		r.w[i].cap = o->ops;
		r.w[i].done = calloc(o->ops, sizeof(uint64_t));
		if (!r.w[i].done)
			return -1;
		args[i] = &r.w[i];
	}
	{
		struct timespec t0, t1;

		/* CPU time: what the simulator costs, not what else the host ran. */
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		sim_run(vcpu_fn, args);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
		out->host_s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
	}
	out->accesses = sim.accesses;
	out->lines = sim.coh.used;
	err = r.err;
	if (!err)
		results(&r, out);
	for (unsigned int i = 0; i < o->cpus; i++)
		free(r.w[i].done);
	free(r.w);
	free(args);
	coh_stats_reset(&sim.coh, false);
	return err ? -1 : 0;
}
