// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab sim's walk: every point (profile, CPU count, side) of a workload's
 * sweep or of a scenario's before and after, each simulated here or taken
 * from its job (tools/simrun/jobs.h), its perturbed runs averaged; a
 * scenario's op count doubled until its ratio converges.
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "tools/cli.h"
#include "tools/interrupt.h"
#include "tools/simrun/jobs.h"
#include "tools/simrun/simcli.h"

/* Scenario runs: the mean of this many perturbed runs (sim_set_seed()). */
#define SIM_SCENARIO_SEEDS 3

/* Which profile stands for the machine each seed was measured on. */
static const struct {
	const char *scenario, *profile, *why;
	int cpus; /* for seeds without a CPU count */
	unsigned long ops; /* where to start converging, if not the default */
} scenario_machine[] = {
	{ "d_lockref", "spr", "Sapphire Rapids, as published", 0, 0 },
	{ "dcount", "spr", "no published machine; 20 CPUs of the SPR profile", 20, 0 },
	{ "dcount-atomic", "spr", "no published machine; 20 CPUs of the SPR profile", 20, 0 },
	{ "file_ref", "zen4", "EPYC 9754, as published", 0, 0 },
	{ "f_count", "kunpeng920", "Kunpeng 920, as published", 0, 0 },
	{ "f_count-private", "kunpeng920", "Kunpeng 920, as f_count", 24, 0 },
	{ "f_ref", "spr", "an Intel 64C/128T machine; the SPR profile", 0, 0 },
	/*
	 * A blogbench iteration is a few hundred syscalls (18,000 accesses),
	 * and open3's collapse into file_lock's thundering herd: few iterations.
	 */
	{ "alloc_fd", "spr", "Ice Lake 160 cores; no Ice Lake profile, the SPR one", 0, 10 },
	{ "alloc_fd-open3", "spr", "Sapphire Rapids, as published", 0, 50 },
};

/*
 * Ctrl-C (or SIGTERM) stops a simulation between runs: what finished is
 * reported, marked, and the status is 128 + the signal. Under a table on
 * standard output; on standard error for CSV, JSON and TSV.
 */
static int interrupted(const struct sim_cli *c, const char *what)
{
	FILE *f = c->fmt == BENCH_TABLE && !c->tsv ? stdout : stderr;

	fprintf(f, "vfslab sim: INTERRUPTED by %s: partial result: %s\n", intr_name(), what);
	return intr_status();
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Add run @x into the sum @r (the perturbed runs of one point). */
static void result_add(struct sim_result *r, const struct sim_result *x)
{
	r->br.median += x->br.median;
	for (int k = 0; k < 2; k++)
		r->br.score[k] += x->br.score[k];
	for (int k = 0; k < VFS_EV_NR; k++)
		r->br.ev_per_op[k] += x->br.ev_per_op[k];
	r->br.errors += x->br.errors;
	r->op_ns += x->op_ns;
	r->per_op.hitm += x->per_op.hitm;
	r->per_op.rfo += x->per_op.rfo;
	r->per_op.inval += x->per_op.inval;
	r->per_op.rmw_xfer += x->per_op.rmw_xfer;
	r->per_op.clean += x->per_op.clean;
	r->per_op.stall_ns += x->per_op.stall_ns;
	r->instrs_per_op += x->instrs_per_op;
	r->sb_stalls_per_op += x->sb_stalls_per_op;
}

/* The mean of @n runs summed by result_add(). */
static void result_div(struct sim_result *r, unsigned int n)
{
	r->br.median /= n;
	for (int k = 0; k < 2; k++)
		r->br.score[k] /= n;
	for (int k = 0; k < VFS_EV_NR; k++)
		r->br.ev_per_op[k] /= n;
	r->op_ns /= n;
	r->per_op.hitm /= n;
	r->per_op.rfo /= n;
	r->per_op.inval /= n;
	r->per_op.rmw_xfer /= n;
	r->per_op.clean /= n;
	r->per_op.stall_ns /= n;
	r->instrs_per_op /= n;
	r->sb_stalls_per_op /= n;
}

/* One side at one CPU count, perturbed @c->seeds times; its rate per seed in @rate. */
static int simulate_point(struct sim_cli *c, const struct sim_profile *p, int k, int s,
			  struct sim_result *r, double *rate)
{
	static struct sim_result tmp;
	struct bench_opts *o = &c->o;
	unsigned int n = c->seeds;
	double lo = 0, hi = 0; /* the runs' rates */

	for (unsigned int seed = 0; seed < n; seed++) {
		struct sim_run_opts ro = {
			.wl = o->wl,
			.prof = p,
			.processes = o->processes,
			.cpus = o->tasks[k],
			.ops = c->ops,
			.entry_ns = c->entry_ns,
			.seed = c->seed_only ? c->seed_only : sim_seed_nth(n, seed),
			.first_slots = c->first_slots,
			.c2c_top = seed ? 0 : c->top,
		};
		struct sim_result *x = seed ? &tmp : r;
		double t0 = now_s();

		if (c->progress)
			fprintf(stderr, "%s: %s, %d CPUs of %s, run %u of %u...", o->wl->name,
				o->sides[s].label, o->tasks[k], p->name, seed + 1, n);
		if (sim_run_workload(&ro, &o->sides[s].cfg, x)) {
			if (c->progress)
				fputc('\n', stderr);
			cli_error("sim", "%s, %d CPUs: the run failed", o->sides[s].label,
				  o->tasks[k]);
			return -1;
		}
		if (c->progress)
			fprintf(stderr, " %.1f s, %llu switches\n", now_s() - t0,
				(unsigned long long)x->switches);
		x->speed = (struct sim_speed){ x->accesses, x->ops, x->host_s };
		sim_speed_count(&x->speed);
		if (seed)
			sim_speed_add(&r->speed, &x->speed);
		/* What the ratio judges: the score where the workload has one (blogbench's reads). */
		rate[seed] = o->wl->score_names[0] ? x->br.score[0] : x->br.median;
		lo = seed && lo < x->br.median ? lo : x->br.median;
		hi = seed && hi > x->br.median ? hi : x->br.median;
		if (seed) {
			/* ops and accesses stay the first run's: its c2c report divides by them. */
			result_add(r, x);
			c2c_free(&x->c2c);
		}
	}
	if (n > 1) {
		result_div(r, n);
		/* The columns' min and max: the slowest and the fastest run. */
		r->br.min = lo;
		r->br.max = hi;
	}
	r->br.side = s;
	return 0;
}

/* A point of the walk: simulated here, or in a job (tools/simrun/jobs.h). */
static int run_point(struct sim_cli *c, const struct sim_profile *p, int k, int s,
		     struct sim_result *r, double *rate)
{
	char key[512];

	snprintf(key, sizeof(key),
		 "%s%s%s on %s, %s, %d CPUs, %lu ops, %u seeds (run %u)%s, entry %g ns",
		 c->scenario ? c->scenario->name : "", c->scenario ? ": " : "", c->o.wl->name,
		 p->name, c->o.sides[s].label, c->o.tasks[k], c->ops, c->seeds, c->seed_only,
		 c->first_slots ? ", first slots" : "", c->entry_ns);
	switch (sim_jobs_point(key, r, rate, c->seeds)) {
	case SIM_POINT_RUN:
		return simulate_point(c, p, k, s, r, rate);
	case SIM_POINT_MINE:
		if (simulate_point(c, p, k, s, r, rate))
			return -1;
		return sim_jobs_done(r, rate, c->seeds);
	case SIM_POINT_SKIP:
		memset(r, 0, sizeof(*r));
		r->br.tasks = c->o.tasks[k];
		r->br.side = s;
		return 0;
	case SIM_POINT_TAKEN:
		/* A job simulated it: its speed counts in the summary all the same. */
		if (!sim_jobs_dry())
			sim_speed_count(&r->speed);
		return 0;
	default:
		return -1;
	}
}

/* One profile: every side at every CPU count. res[i] in bench order. */
static int run_all(struct sim_cli *c, const struct sim_profile *p, struct sim_result *res, int *nr)
{
	struct bench_opts *o = &c->o;
	static double rate[BENCH_MAX_SIDES][SIM_MAX_SEEDS];

	*nr = 0;
	for (int k = 0; k < o->nr_tasks; k++) {
		int base = *nr;

		for (int s = 0; s < o->nr_sides; s++) {
			/* Ctrl-C: keep the CPU counts every side finished. */
			if (intr_pending() && !sim_jobs_ready()) {
				*nr = base;
				c->done_tasks = k;
				return 1;
			}
			if (run_point(c, p, k, s, &res[*nr], rate[s]))
				return -1;
			(*nr)++;
		}
		/*
		 * Ratios against side 0 at the same CPU count: of the means,
		 * ranging over the perturbed runs (seed by seed) or, with one
		 * run, over its intervals.
		 */
		for (int s = 0; s < o->nr_sides; s++) {
			struct bench_result *b = &res[base + s].br, *b0 = &res[base].br;

			b->ratio = b0->median ? b->median / b0->median : 0;
			b->ratio_min = b->ratio_max = 0;
			if (c->seeds > 1) {
				for (unsigned int k2 = 0; k2 < c->seeds; k2++) {
					double q = rate[0][k2] ? rate[s][k2] / rate[0][k2] : 0;

					if (!k2 || q < b->ratio_min)
						b->ratio_min = q;
					if (!k2 || q > b->ratio_max)
						b->ratio_max = q;
				}
				continue;
			}
			for (int k2 = 0; k2 < b->nr_samples; k2++) {
				double q = b0->samples[k2] ? b->samples[k2] / b0->samples[k2] : 0;

				if (!k2 || q < b->ratio_min)
					b->ratio_min = q;
				if (!k2 || q > b->ratio_max)
					b->ratio_max = q;
			}
		}
	}
	return 0;
}

/* The largest change of a judged ratio between two runs of every point. */
static double ratio_change(const struct sim_cli *c, const struct sim_result *res, int nr,
			   const double *prev)
{
	double most = 0;

	for (int i = 1; i < nr; i += 2) {
		double d = fabs(sim_judged_ratio(c, res, i) / prev[i / 2] - 1);

		most = d > most ? d : most;
	}
	return most;
}

/*
 * run_all() from c->ops, doubling until no ratio moves by SIM_CONVERGE_TOL
 * between two runs (or SIM_CONVERGE_MAX_STEPS runs): res holds the last.
 */
static int run_converged(struct sim_cli *c, const struct sim_profile *p, struct sim_result *res,
			 int *nr)
{
	double prev[32 * BENCH_MAX_SIDES];
	int ret;

	c->steps = 0;
	c->converged = false;
	for (;;) {
		bool unknown;

		sim_jobs_mark();
		ret = run_all(c, p, res, nr);
		if (ret)
			return ret;
		/* A dry walk with results still to come: the next round goes on from here. */
		unknown = sim_jobs_dry() && sim_jobs_unknown();
		c->conv_ops[c->steps] = c->ops;
		c->conv_ratio[c->steps] = *nr > 1 ? sim_judged_ratio(c, res, *nr - 1) : 1;
		if (c->steps++ && (unknown || ratio_change(c, res, *nr, prev) < SIM_CONVERGE_TOL)) {
			c->converged = true;
			return 0;
		}
		if (c->steps == SIM_CONVERGE_MAX_STEPS)
			return 0;
		for (int i = 1; i < *nr; i += 2)
			prev[i / 2] = sim_judged_ratio(c, res, i);
		for (int i = 0; i < *nr; i++)
			c2c_free(&res[i].c2c);
		c->ops *= 2;
	}
}

/* The run behind one profile: table/CSV/JSON, the JSON file, the plot. */
int sim_run_profile(struct sim_cli *c, const struct sim_profile *p, bool c2c,
		    struct sim_result *res, int *nr)
{
	int ret;

	/* bench's CSV and JSON call it the entry cost: here, the syscall's. */
	c->o.entry_ns = (long)((c->entry_ns >= 0 ? c->entry_ns : p->syscall_ns) + 0.5);
	c->o.rounds = SIM_SAMPLES;
	ret = c->converge ? run_converged(c, p, res, nr) : run_all(c, p, res, nr);
	if (ret < 0)
		return 1;
	if (ret) {
		char what[96];

		/* No --json or --plot file: they would not say they are partial. */
		if (*nr)
			sim_report(stdout, c, p, res, *nr, c2c);
		snprintf(what, sizeof(what), "%d of %d CPU counts on %s", c->done_tasks,
			 c->o.nr_tasks, p->name);
		return interrupted(c, what);
	}
	sim_report(stdout, c, p, res, *nr, c2c);
	/* A dry walk (tools/simrun/jobs.h) lists the simulations: no files. */
	if (sim_jobs_dry())
		return 0;
	return sim_report_files(c, p, res, *nr);
}

int sim_run_scenario(struct sim_cli *base, const struct scenario *s, bool c2c, struct verdict *v)
{
	static struct sim_result res[64 * BENCH_MAX_SIDES];
	struct sim_cli c = *base;
	const struct sim_profile *profiles[4];
	int nprof = c.nr_profiles, nr, ret = 0;
	const char *why = NULL;
	int def_cpus = s->published_cpus;
	unsigned long start = 0;

	for (size_t i = 0; i < ARRAY_SIZE(scenario_machine); i++) {
		if (strcmp(scenario_machine[i].scenario, s->name))
			continue;
		why = scenario_machine[i].why;
		start = scenario_machine[i].ops;
		if (!def_cpus)
			def_cpus = scenario_machine[i].cpus;
		if (!nprof) {
			profiles[0] = sim_profile_find(scenario_machine[i].profile);
			nprof = 1;
		}
	}
	if (c.nr_profiles)
		memcpy(profiles, c.profiles, sizeof(profiles));
	if (!nprof) {
		profiles[0] = sim_profile_find("spr");
		nprof = 1;
	}
	if (!def_cpus)
		def_cpus = 20;
	c.o.wl = base->o.wl ? base->o.wl : workload_find(s->workload);
	if (!c.o.wl) {
		cli_error("sim", "%s: workload %s is not built in", s->name, s->workload);
		return 1;
	}
	c.o.processes = s->processes;
	c.scenario = s;
	c.o.nr_sides = 0;
	if (bench_cli_side(&c.o, s->before) || bench_cli_side(&c.o, s->after))
		return 2;
	if (!c.o.nr_tasks) {
		c.o.tasks[0] = def_cpus > SIM_MAX_CPUS ? SIM_MAX_CPUS : def_cpus;
		c.o.nr_tasks = 1;
	}
	if (!c.seeds_set)
		c.seeds = SIM_SCENARIO_SEEDS;
	c.converge = !c.ops_set;
	if (c.converge) {
		c.ops = SIM_SCENARIO_TOTAL_OPS / c.o.tasks[c.o.nr_tasks - 1];
		c.ops = c.ops < 50 ? 50 : c.ops > 1000 ? 1000 : c.ops;
		if (start)
			c.ops = start;
	}
	start = c.ops;
	for (int k = 0; k < nprof; k++) {
		const struct sim_profile *p = profiles[k];

		c.ops = start;

		if (c.fmt == BENCH_TABLE) {
			printf("== scenario %s on %s ==\n%s\n", s->name, p->name, s->claim);
			if (c.o.wl != workload_find(s->workload))
				printf("workload %s instead of the scenario's %s (--workload)\n",
				       c.o.wl->name, s->workload);
		}
		ret = sim_run_profile(&c, p, c2c, res, &nr);
		if (ret)
			return ret;
		if (c.converge && c.fmt == BENCH_TABLE)
			sim_convergence_print(stdout, &c);
		for (int i = 1; i < nr; i += 2) {
			struct verdict *w = v ? &v[k] : NULL;
			double ratio = sim_judged_ratio(&c, res, i);

			res[i].br.ratio = ratio;
			if (c.fmt == BENCH_TABLE) {
				printf("\npredicted after/before at %d CPUs of %s: %.3fx%s%s",
				       res[i].br.tasks, p->name, ratio,
				       c.o.wl->score_names[0] ? " in " : "",
				       c.o.wl->score_names[0] ? c.o.wl->score_names[0] : "");
				if (c.seeds > 1)
					printf(" (%.3f-%.3f over %u perturbed runs)",
					       res[i].br.ratio_min, res[i].br.ratio_max, c.seeds);
				if (s->published)
					printf("; published %.3fx at %d CPUs (%s)", s->published,
					       s->published_cpus, s->source);
				printf(": %s\n", sim_direction(ratio, s->published));
			}
			if (w && i == nr - 1) {
				w->name = s->name;
				w->cpus = res[i].br.tasks;
				w->profile = p->name;
				w->predicted = ratio;
				w->published = s->published;
				w->ops = c.ops;
				w->unconverged = c.converge && !c.converged;
			}
		}
		if (c.fmt == BENCH_TABLE)
			printf("ran on: the %s profile (%s), %d CPUs%s%s\n\n", p->name, p->machine,
			       c.o.tasks[c.o.nr_tasks - 1], why ? "; for the seed: " : "",
			       why ? why : "");
		for (int i = 0; i < nr; i++)
			c2c_free(&res[i].c2c);
	}
	return 0;
}

int sim_all_scenarios(struct sim_cli *c, bool c2c)
{
	unsigned int n;
	const struct scenario *s = scenario_all(&n);
	struct verdict v[64][4];
	int nprof = c->nr_profiles ? c->nr_profiles : 1;

	unsigned int done = 0;
	int ret = 0;

	memset(v, 0, sizeof(v));
	for (; done < n && done < 64 && !ret; done++)
		ret = sim_run_scenario(c, &s[done], c2c, v[done]);
	if (ret && !intr_pending())
		return ret;
	if (c->fmt != BENCH_TABLE)
		return ret;
	sim_scenario_summary(v, n, nprof);
	if (ret) {
		char what[64];

		/* The scenario that was running when Ctrl-C came is not in it. */
		snprintf(what, sizeof(what), "%u of %u scenarios", done - 1, n);
		return interrupted(c, what);
	}
	return 0;
}
