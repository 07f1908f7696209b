// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab sim: run a bench workload or a seed scenario on a simulated
 * many-core machine and report simulated ops/s (the table, CSV, JSON and
 * plot of vfslab bench) and, with --report c2c, where the cache-line
 * transfers came from.
 */
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tools/cmd.h"
#include "tools/interrupt.h"
#include "tools/scenarios.h"
#include "tools/simrun/heatmap.h"
#include "tools/simrun/jobs.h"
#include "tools/simrun/simrun.h"

#define SIM_DEFAULT_OPS 1000
#define SIM_DEFAULT_TOP 4
/*
 * Scenario runs converge: they start at about this many operations in all
 * (50 to 1000 per vCPU) and double them until the after/before ratio moves
 * by less than SIM_CONVERGE_TOL between two doublings, up to
 * SIM_CONVERGE_MAX_STEPS runs.
 */
#define SIM_SCENARIO_TOTAL_OPS 30000
#define SIM_CONVERGE_TOL 0.01
#define SIM_CONVERGE_MAX_STEPS 6
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

/* bench's results (big: their sample arrays), for its CSV, JSON and plot. */
static struct bench_result br[64 * BENCH_MAX_SIDES];

struct sim_cli {
	struct bench_opts o; /* workload, sides, task counts, mode */
	const struct sim_profile *profiles[4];
	int nr_profiles;
	unsigned long ops;
	bool ops_set;
	unsigned int seeds; /* perturbed runs averaged (sim_set_seed()); 1: one unperturbed */
	bool seeds_set;
	double entry_ns; /* < 0: the profile's syscall cost */
	unsigned int top;
	enum bench_format fmt;
	bool tsv; /* --format tsv: one line per result, for scripts */
	const char *json_file, *plot_file;
	const char *html_file, *svg_file; /* --report html|svg FILE: the heat map */
	bool progress;
	const struct scenario *scenario; /* the one being run, for the JSON */
	int done_tasks; /* CPU counts finished when Ctrl-C came */
	/* A scenario converging: the op counts tried and their ratios (last pair's). */
	bool converge;
	unsigned int steps;
	unsigned long conv_ops[SIM_CONVERGE_MAX_STEPS];
	double conv_ratio[SIM_CONVERGE_MAX_STEPS];
	bool converged;
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

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vfslab sim [WORKLOAD|SCENARIO] [options]\n"
		"       vfslab sim --all-scenarios [options]\n"
		"       vfslab sim --list-profiles\n"
		"       vfslab sim calibrate|validate [options]   (each with its own usage)\n\n"
		"Runs a bench workload (default stat2) on a simulated many-core machine: the\n"
		"real VFS code on N virtual CPUs, each basic block costing its instructions,\n"
		"stores through a store buffer, every miss through a MESI model with\n"
		"published latencies, scheduled deterministically (the same command\n"
		"prints the same output on a loaded or an idle machine). A SCENARIO (see\n"
		"`vfslab scenarios`) runs its before and after variants at the seed's CPU\n"
		"count and prints the predicted after/before beside the published ratio.\n\n"
		"  --workload NAME     run this workload (when a scenario has its name); with\n"
		"                      a scenario, run the scenario's variants on it\n"
		"  --scenario NAME     run this scenario\n"
		"  --all-scenarios     every scenario, with a summary\n"
		"  --variant SPEC      a side built with SPEC (repeatable; default: one default\n"
		"                      side); `vfslab help variants` lists the keys\n"
		"  --cpus LIST         virtual CPU counts: 1,2,4 or 1-4 (1 to %d; default\n"
		"                      1,2,4,8,16, a scenario's published count)\n"
		"  --ops N             iterations per virtual CPU (default %d; a scenario\n"
		"                      doubles 50-1000 until its ratio moves by under 1%%)\n"
		"  --seeds N           average N runs, each miss perturbed by 0-2 ns with its\n"
		"                      own seed, and give the ratio's range over them (1 to\n"
		"                      16; default 1, unperturbed; a scenario: 3)\n"
		"  --profile NAME|FILE|all  the machine: spr, zen4, clx, kunpeng920, or a profile\n"
		"                      file (`vfslab sim calibrate` writes one; default spr,\n"
		"                      a scenario's own machine)\n"
		"  --mode threads|processes\n"
		"  --report c2c        the contention report: hot lines, fields, functions\n"
		"  --report html FILE  the cache-line heat map as a self-contained page: each\n"
		"                      struct's lines, fields coloured by time lost per\n"
		"                      operation, sides next to each other, the curve\n"
		"  --report svg FILE   the heat map's drawing alone, as SVG\n"
		"  --top N             lines in the contention report (default %d)\n"
		"  --format table|csv|json|tsv (tsv: one line per result, for scripts)\n"
		"  --json FILE         also write JSON to FILE\n"
		"  --plot FILE         simulated ops/s against CPUs (.png or .svg, gnuplot)\n"
		"  --entry-ns N        syscall entry plus exit in ns (default: the profile's),\n"
		"                      as vfslab bench --entry-ns sets the native side's\n"
		"  --progress          a line on stderr per simulated run: what, how long\n"
		"  --jobs N            run the simulations (CPU counts, sides, profiles,\n"
		"                      scenarios) in N processes; the output is --jobs 1's\n"
		"                      (--all-scenarios: default one per CPU it may use)\n"
		"  --emit-jobs DIR     write DIR/jobs, one command line per simulation (for\n"
		"                      GNU parallel or a Slurm array), and run nothing\n"
		"  --collect DIR       the report from the results of DIR/jobs' lines\n"
		"  --job K --job-out FILE  run only this command's K-th simulation, its\n"
		"                      result to FILE (what DIR/jobs' lines do)\n",
		SIM_MAX_CPUS, SIM_DEFAULT_OPS, SIM_DEFAULT_TOP);
}

static void list_profiles(void)
{
	unsigned int nr;
	const struct sim_profile *p = sim_profile_all(&nr);

	for (unsigned int i = 0; i < nr; i++) {
		printf("%-11s %s, %u CPUs\n", p[i].name, p[i].machine, sim_profile_cpus(&p[i]));
		printf("%11s transfer ns: SMT %.1f, cluster %.1f, die %.1f, socket %.1f, remote %.1f\n",
		       "", p[i].xfer_ns[SIM_DIST_SMT], p[i].xfer_ns[SIM_DIST_CLUSTER],
		       p[i].xfer_ns[SIM_DIST_DIE], p[i].xfer_ns[SIM_DIST_SOCKET],
		       p[i].xfer_ns[SIM_DIST_REMOTE]);
		printf("%11s %.2f GHz, %.2f cycles/instruction, store buffer %u; %u-byte lines, a "
		       "read of a modified one %s\n",
		       "", p[i].ghz, p[i].cpi, p[i].store_buffer, p[i].line_bytes,
		       p[i].dirty_read_moves ? "moves it" : "shares it");
		printf("%11s LLC %.1f, memory %.0f, atomic %.2f, pause %.2f, syscall %.0f ns, "
		       "upgrade %.2f of a transfer\n",
		       "", p[i].llc_ns, p[i].mem_ns, p[i].atomic_ns, p[i].pause_ns, p[i].syscall_ns,
		       p[i].upgrade);
		printf("%11s %s (sources: tools/sim/profile.c)\n", "", p[i].notes);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * The simulator's own speed, which depends on this machine and so is not
 * part of the (deterministic) result: after each table, in the JSON, and
 * on standard error once per command.
 */
static struct sim_speed speed;

static void speed_add(struct sim_speed *sum, const struct sim_speed *x)
{
	sum->accesses += x->accesses;
	sum->ops += x->ops;
	sum->s += x->s;
}

static double speed_acc_per_s(const struct sim_speed *x)
{
	return x->s ? x->accesses / x->s : 0;
}

static double speed_us_per_op(const struct sim_speed *x)
{
	return x->ops ? x->s * 1e6 / x->ops : 0;
}

static void speed_print(FILE *f, const char *prefix, const struct sim_speed *x)
{
	fprintf(f,
		"%s%.1f M simulated accesses/s, %.2f us of host CPU time per simulated operation "
		"(%.2f s of CPU in all)\n",
		prefix, speed_acc_per_s(x) / 1e6, speed_us_per_op(x), x->s);
}

static json_t *speed_json(const struct sim_speed *x)
{
	return json_pack("{s:o,s:o,s:o,s:I,s:I}", "host_cpu_s", out_json_num(x->s, 3),
			 "accesses_per_s", out_json_num(speed_acc_per_s(x), 0),
			 "host_cpu_us_per_op", out_json_num(speed_us_per_op(x), 3), "accesses",
			 (json_int_t)x->accesses, "ops", (json_int_t)x->ops);
}

static void speed_report(void)
{
	if (speed.s && speed.ops)
		speed_print(stderr, "vfslab sim: ", &speed);
}

/* Add run @x into the sum @r (the perturbed runs of one point). */
static void result_add(struct sim_result *r, const struct sim_result *x)
{
	r->br.median += x->br.median;
	r->br.min += x->br.min;
	r->br.max += x->br.max;
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
	r->br.min /= n;
	r->br.max /= n;
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

	for (unsigned int seed = 0; seed < n; seed++) {
		struct sim_run_opts ro = {
			.wl = o->wl,
			.prof = p,
			.processes = o->processes,
			.cpus = o->tasks[k],
			.ops = c->ops,
			.entry_ns = c->entry_ns,
			.seed = n > 1 ? seed + 1 : 0,
			.c2c_top = seed ? 0 : c->top,
		};
		struct sim_result *x = seed ? &tmp : r;
		double t0 = now_s();

		if (c->progress)
			fprintf(stderr, "%s: %s, %d CPUs of %s%s...", o->wl->name,
				o->sides[s].label, o->tasks[k], p->name,
				n > 1 ? ", perturbed" : "");
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
		speed_add(&speed, &x->speed);
		if (seed)
			speed_add(&r->speed, &x->speed);
		rate[seed] = x->br.median;
		if (seed) {
			/* ops and accesses stay the first run's: its c2c report divides by them. */
			result_add(r, x);
			c2c_free(&x->c2c);
		}
	}
	if (n > 1)
		result_div(r, n);
	r->br.side = s;
	return 0;
}

/* A point of the walk: simulated here, or in a job (tools/simrun/jobs.h). */
static int run_point(struct sim_cli *c, const struct sim_profile *p, int k, int s,
		     struct sim_result *r, double *rate)
{
	char key[512];

	snprintf(key, sizeof(key), "%s%s%s on %s, %s, %d CPUs, %lu ops, %u seeds, entry %g ns",
		 c->scenario ? c->scenario->name : "", c->scenario ? ": " : "", c->o.wl->name,
		 p->name, c->o.sides[s].label, c->o.tasks[k], c->ops, c->seeds, c->entry_ns);
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
			speed_add(&speed, &r->speed);
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

static const enum vfs_event shown[] = {
	VFS_EV_LOCKREF_SLOW,
	VFS_EV_UNLAZY_FAIL,
	VFS_EV_FGET_RETRY,
	VFS_EV_ALLOC_FD_FAST,
};

static void table(FILE *f, const struct sim_cli *c, const struct sim_profile *p,
		  const struct sim_result *res, int nr)
{
	const struct bench_opts *o = &c->o;

	fprintf(f, "%s: %s (%s), simulated\n", o->wl->name, o->wl->desc, o->wl->loop);
	fprintf(f, "machine %s: %s\n", p->name, p->machine);
	fprintf(f,
		"mode %s, %lu iterations per virtual CPU, rate over the window where all "
		"run past warm-up\n",
		o->processes ? "processes" : "threads", c->ops);
	if (c->seeds > 1)
		fprintf(f,
			"each row the mean of %u runs, every miss perturbed by 0-2 ns (a seed each; "
			"min and max the runs' means); the ratio's range is over the runs\n",
			c->seeds);
	fprintf(f, "profile %s\n", p->notes);
	{
		int most = 0;

		for (int k = 0; k < o->nr_tasks; k++)
			most = o->tasks[k] > most ? o->tasks[k] : most;
		if ((unsigned int)most > sim_profile_cpus(p))
			fprintf(f,
				"note: %d CPUs exceed this machine's %u: the extra ones are placed as "
				"further sockets of the same kind, cross-socket from the rest\n",
				most, sim_profile_cpus(p));
	}
	fprintf(f, "\n");
	fprintf(f, "%-30s %4s %9s %9s %9s %7s %8s %7s %7s %7s %8s", "side", "cpus", "ops/s", "min",
		"max", "ratio", "ns/op", "HITM", "RFO", "inval", "RMW-xfer");
	for (size_t k = 0; k < ARRAY_SIZE(shown); k++)
		fprintf(f, " %13s", vfs_event_name(shown[k]));
	fprintf(f, "\n");
	for (int i = 0; i < nr; i++) {
		const struct sim_result *r = &res[i];
		char med[16], mn[16], mx[16];

		bench_fmt_ops(med, sizeof(med), r->br.median);
		bench_fmt_ops(mn, sizeof(mn), r->br.min);
		bench_fmt_ops(mx, sizeof(mx), r->br.max);
		fprintf(f, "%-30.30s %4d %9s %9s %9s %6.3fx %8.1f %7.3f %7.3f %7.3f %8.3f",
			o->sides[r->br.side].label, r->br.tasks, med, mn, mx, r->br.ratio, r->op_ns,
			r->per_op.hitm, r->per_op.rfo, r->per_op.inval, r->per_op.rmw_xfer);
		for (size_t k = 0; k < ARRAY_SIZE(shown); k++)
			fprintf(f, " %13.3f", r->br.ev_per_op[shown[k]]);
		fprintf(f, "\n");
	}
	if (o->wl->score_names[0]) {
		fprintf(f, "\n%-30s %4s %12s %12s\n", "scores per second", "cpus",
			o->wl->score_names[0], o->wl->score_names[1] ? o->wl->score_names[1] : "");
		for (int i = 0; i < nr; i++)
			fprintf(f, "%-30.30s %4d %12.0f %12.0f\n", o->sides[res[i].br.side].label,
				res[i].br.tasks, res[i].br.score[0], res[i].br.score[1]);
	}
	fprintf(f, "\n%-30s %4s %10s %6s %9s %14s %12s\n", "core model", "cpus", "instrs/op", "CPI",
		"SB-stall", "accesses/op", "KiB touched");
	for (int i = 0; i < nr; i++) {
		const struct sim_result *r = &res[i];

		fprintf(f, "%-30.30s %4d %10.1f %6.3f %9.4f %14.1f %12.1f\n",
			o->sides[r->br.side].label, r->br.tasks, r->instrs_per_op, r->cpi,
			r->sb_stalls_per_op, r->ops ? (double)r->accesses / r->ops : 0,
			r->lines * (double)p->line_bytes / 1024.0);
	}
	fprintf(f,
		"\nratio: against %s at the same CPU count. ns/op: one operation on one "
		"virtual CPU.\nHITM, RFO (ownership requests), inval, RMW-xfer: coherence "
		"events per operation.\ninstrs/op: instructions the core model charged; CPI: the "
		"cycles per instruction they\nran at (the workload's own where the profile measured "
		"it); SB-stall: "
		"stores that found the store buffer full;\naccesses/op: memory accesses simulated "
		"(the whole run, set-up included) per measured operation; KiB touched: every\n"
		"line any CPU touched (caches are not finite in the model: compare with a private L2).\n",
		o->sides[0].label);
	{
		struct sim_speed sum = { 0 };

		for (int i = 0; i < nr; i++)
			speed_add(&sum, &res[i].speed);
		speed_print(f, "simulator speed (this machine's, not part of the result): ", &sum);
	}
	for (int i = 0; i < nr; i++)
		if (res[i].br.errors)
			fprintf(f, "warning: %s, %d CPUs: %lu failed calls (last: %s)\n",
				o->sides[res[i].br.side].label, res[i].br.tasks, res[i].br.errors,
				strerror((int)-res[i].br.last_error));
}

static double judged_ratio(const struct sim_cli *c, const struct sim_result *res, int i);
static const char *direction(double predicted, double published);

/* A scenario's figure and what each prediction says about it. */
static json_t *scenario_json(const struct sim_cli *c, const struct sim_result *res, int nr)
{
	const struct scenario *s = c->scenario;
	json_t *sc = out_json_scenario(s), *pred = json_array();

	for (int i = 1; i < nr; i += 2) {
		double ratio = judged_ratio(c, res, i);

		json_array_append_new(pred, json_pack("{s:i,s:o,s:s}", "cpus", res[i].br.tasks,
						      "predicted_ratio", out_json_num(ratio, 4),
						      "label", direction(ratio, s->published)));
	}
	json_object_set_new(sc, "predictions", pred);
	if (c->converge) {
		json_t *steps = json_array();

		for (unsigned int k = 0; k < c->steps; k++)
			json_array_append_new(steps, json_pack("{s:I,s:o}", "ops_per_cpu",
							       (json_int_t)c->conv_ops[k], "ratio",
							       out_json_num(c->conv_ratio[k], 4)));
		json_object_set_new(sc, "convergence",
				    json_pack("{s:o,s:b,s:o}", "tolerance",
					      out_json_num(SIM_CONVERGE_TOL, 4), "converged",
					      c->converged, "steps", steps));
	}
	return sc;
}

static void json(FILE *f, const struct sim_cli *c, const struct sim_profile *p,
		 const struct sim_result *res, int nr)
{
	json_t *root = json_object(), *coh = json_array();
	struct sim_speed sum = { 0 };

	json_object_set_new(root, "simulated", json_true());
	out_json_set_name(root, "profile", p->name);
	json_object_set_new(root, "ops_per_cpu", json_integer((json_int_t)c->ops));
	for (int i = 0; i < nr; i++)
		br[i] = res[i].br;
	json_object_set_new(root, "bench", bench_json(&c->o, br, nr));
	for (int i = 0; i < nr; i++) {
		const struct sim_result *r = &res[i];
		json_t *row = json_object();

		json_object_set_new(row, "side", json_integer(r->br.side));
		json_object_set_new(row, "cpus", json_integer(r->br.tasks));
		json_object_set_new(row, "ns_per_op", out_json_num(r->op_ns, 3));
		json_object_set_new(row, "hitm_per_op", out_json_num(r->per_op.hitm, 6));
		json_object_set_new(row, "rfo_per_op", out_json_num(r->per_op.rfo, 6));
		json_object_set_new(row, "inval_per_op", out_json_num(r->per_op.inval, 6));
		json_object_set_new(row, "rmw_xfer_per_op", out_json_num(r->per_op.rmw_xfer, 6));
		json_object_set_new(row, "window_s", out_json_num(r->window_s, 9));
		json_object_set_new(row, "instrs_per_op", out_json_num(r->instrs_per_op, 3));
		json_object_set_new(row, "sb_stalls_per_op", out_json_num(r->sb_stalls_per_op, 6));
		json_object_set_new(row, "accesses", json_integer((json_int_t)r->accesses));
		json_object_set_new(row, "contention", c2c_json(&r->c2c, r->ops));
		json_object_set_new(row, "simulator_speed", speed_json(&r->speed));
		json_array_append_new(coh, row);
		speed_add(&sum, &r->speed);
	}
	json_object_set_new(root, "coherence", coh);
	json_object_set_new(root, "simulator_speed", speed_json(&sum));
	if (c->scenario)
		json_object_set_new(root, "scenario", scenario_json(c, res, nr));
	out_json_dump(f, root);
	json_decref(root);
}

/*
 * A scenario's after/before: the throughput ratio, or for a workload with
 * its own score (blogbench's reads) the ratio of that score.
 */
static double judged_ratio(const struct sim_cli *c, const struct sim_result *res, int i)
{
	if (c->o.wl->score_names[0] && res[i].br.side && res[i - res[i].br.side].br.score[0])
		return res[i].br.score[0] / res[i - res[i].br.side].br.score[0];
	return res[i].br.ratio;
}

/* --format tsv: what sim validate and calibrate read back. */
static void tsv(FILE *f, const struct sim_cli *c, const struct sim_result *res, int nr)
{
	fprintf(f, "cpus\tside\tops_per_sec\tratio\tinstrs_per_op\tns_per_op\tops_per_cpu\n");
	for (int i = 0; i < nr; i++)
		fprintf(f, "%d\t%s\t%.1f\t%.6f\t%.3f\t%.3f\t%lu\n", res[i].br.tasks,
			c->o.sides[res[i].br.side].label, res[i].br.median, judged_ratio(c, res, i),
			res[i].instrs_per_op, res[i].op_ns, c->ops);
}

static void report(FILE *f, const struct sim_cli *c, const struct sim_profile *p,
		   const struct sim_result *res, int nr, bool c2c)
{
	if (c->tsv)
		return tsv(f, c, res, nr);
	switch (c->fmt) {
	case BENCH_TABLE:
		table(f, c, p, res, nr);
		for (int i = 0; c2c && i < nr; i++) {
			char label[256];

			snprintf(label, sizeof(label), "%s, %d CPUs of %s",
				 c->o.sides[res[i].br.side].label, res[i].br.tasks, p->name);
			c2c_print(f, &res[i].c2c, res[i].ops, label);
		}
		break;
	case BENCH_CSV:
	case BENCH_WIS:
		for (int i = 0; i < nr; i++)
			br[i] = res[i].br;
		bench_report(f, c->fmt, &c->o, br, nr);
		break;
	case BENCH_JSON:
		json(f, c, p, res, nr);
		break;
	}
}

static int parse_cpus(struct sim_cli *c, const char *s)
{
	if (bench_cli_tasks(s, &c->o))
		return -1;
	for (int i = 0; i < c->o.nr_tasks; i++)
		if (c->o.tasks[i] > SIM_MAX_CPUS)
			return -1;
	return 0;
}

/* The largest change of a judged ratio between two runs of every point. */
static double ratio_change(const struct sim_cli *c, const struct sim_result *res, int nr,
			   const double *prev)
{
	double most = 0;

	for (int i = 1; i < nr; i += 2) {
		double d = fabs(judged_ratio(c, res, i) / prev[i / 2] - 1);

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
		c->conv_ratio[c->steps] = *nr > 1 ? judged_ratio(c, res, *nr - 1) : 1;
		if (c->steps++ && (unknown || ratio_change(c, res, *nr, prev) < SIM_CONVERGE_TOL)) {
			c->converged = true;
			return 0;
		}
		if (c->steps == SIM_CONVERGE_MAX_STEPS)
			return 0;
		for (int i = 1; i < *nr; i += 2)
			prev[i / 2] = judged_ratio(c, res, i);
		for (int i = 0; i < *nr; i++)
			c2c_free(&res[i].c2c);
		c->ops *= 2;
	}
}

/* How a converging scenario got to its op count: one line. */
static void convergence_print(FILE *f, const struct sim_cli *c)
{
	fprintf(f, "iterations per virtual CPU, doubled until the ratio moves by under %.0f%%:",
		100 * SIM_CONVERGE_TOL);
	for (unsigned int k = 0; k < c->steps; k++) {
		fprintf(f, " %lu: %.4fx", c->conv_ops[k], c->conv_ratio[k]);
		if (k)
			fprintf(f, " (%+.2f%%)",
				100 * (c->conv_ratio[k] / c->conv_ratio[k - 1] - 1));
		fprintf(f, k + 1 < c->steps ? "," : "");
	}
	fprintf(f, c->converged ? "; converged at %lu\n" : "; NOT converged: stopped at %lu\n",
		c->ops);
}

/* The run behind one profile: table/CSV/JSON, the JSON file, the plot. */
static int run_profile(struct sim_cli *c, const struct sim_profile *p, bool c2c,
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
			report(stdout, c, p, res, *nr, c2c);
		snprintf(what, sizeof(what), "%d of %d CPU counts on %s", c->done_tasks,
			 c->o.nr_tasks, p->name);
		return interrupted(c, what);
	}
	report(stdout, c, p, res, *nr, c2c);
	/* A dry walk (tools/simrun/jobs.h) lists the simulations: no files. */
	if (sim_jobs_dry())
		return 0;
	if (c->json_file) {
		FILE *f = fopen(c->json_file, "w");

		if (!f) {
			cli_error("sim", "--json: cannot write %s", c->json_file);
			return 1;
		}
		json(f, c, p, res, *nr);
		if (cli_fclose("sim", c->json_file, f))
			return 1;
	}
	if (c->plot_file) {
		for (int i = 0; i < *nr; i++)
			br[i] = res[i].br;
		if (bench_plot(c->plot_file, &c->o, br, *nr, p->name))
			return 1;
	}
	if (c->html_file || c->svg_file) {
		char title[256];
		struct heatmap_run h = {
			.title = title, .profile = p->name, .o = &c->o, .res = res, .nr = *nr
		};

		snprintf(title, sizeof(title), "%s on %s",
			 c->scenario ? c->scenario->name : c->o.wl->name, p->name);
		h.note = c->scenario ? c->scenario->claim : NULL;
		h.scenario = c->scenario != NULL;
		heatmap_add(&h);
	}
	return 0;
}

struct verdict {
	const char *name;
	int cpus;
	const char *profile;
	double predicted, published;
	unsigned long ops;
	bool unconverged;
};

/*
 * What a prediction says about a published figure: "reproduced" only where
 * the gain is within 2x of the published gain, "direction only" where just
 * the sign agrees, "opposite" where it does not.
 */
static const char *direction(double predicted, double published)
{
	double k;

	if (!published)
		return predicted > 1.02 ? "after faster" :
		       predicted < 0.98 ? "after slower" :
					  "no change";
	if (fabs(predicted - 1.0) < 0.005)
		return "flat";
	if ((predicted > 1.0) != (published > 1.0))
		return "opposite";
	k = (predicted - 1.0) / (published - 1.0);
	return k >= 0.5 && k <= 2.0 ? "reproduced" : "direction only";
}

static int run_scenario(struct sim_cli *base, const struct scenario *s, bool c2c, struct verdict *v)
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
		ret = run_profile(&c, p, c2c, res, &nr);
		if (ret)
			return ret;
		if (c.converge && c.fmt == BENCH_TABLE)
			convergence_print(stdout, &c);
		for (int i = 1; i < nr; i += 2) {
			struct verdict *w = v ? &v[k] : NULL;
			double ratio = judged_ratio(&c, res, i);

			res[i].br.ratio = ratio;
			if (c.fmt == BENCH_TABLE) {
				printf("\npredicted after/before at %d CPUs of %s: %.3fx%s%s",
				       res[i].br.tasks, p->name, ratio,
				       c.o.wl->score_names[0] ? " in " : "",
				       c.o.wl->score_names[0] ? c.o.wl->score_names[0] : "");
				if (c.seeds > 1 && !c.o.wl->score_names[0])
					printf(" (%.3f-%.3f over %u perturbed runs)",
					       res[i].br.ratio_min, res[i].br.ratio_max, c.seeds);
				if (s->published)
					printf("; published %.3fx at %d CPUs (%s)", s->published,
					       s->published_cpus, s->source);
				printf(": %s\n", direction(ratio, s->published));
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

static int all_scenarios(struct sim_cli *c, bool c2c)
{
	unsigned int n;
	const struct scenario *s = scenario_all(&n);
	struct verdict v[64][4];
	int nprof = c->nr_profiles ? c->nr_profiles : 1;

	unsigned int done = 0;
	int ret = 0;

	memset(v, 0, sizeof(v));
	for (; done < n && done < 64 && !ret; done++)
		ret = run_scenario(c, &s[done], c2c, v[done]);
	if (ret && !intr_pending())
		return ret;
	if (c->fmt != BENCH_TABLE)
		return ret;
	printf("gain ratio: (predicted - 1) / (published - 1); reproduced: 0.5 to 2.0; direction "
	       "only: the sign alone agrees\n");
	printf("ops/vCPU: the iterations per virtual CPU it converged at (* where it did not)\n");
	printf("== summary ==\n%-16s %-11s %5s %10s %10s %10s %9s  %s\n", "scenario", "profile",
	       "cpus", "predicted", "published", "gain ratio", "ops/vCPU", "label");
	for (unsigned int i = 0; i < n && i < 64; i++) {
		for (int k = 0; k < nprof; k++) {
			const struct verdict *w = &v[i][k];
			char pub[16] = "-", gain[16] = "-";

			if (!w->name)
				continue;
			if (w->published) {
				snprintf(pub, sizeof(pub), "%.3fx", w->published);
				snprintf(gain, sizeof(gain), "%.2f",
					 (w->predicted - 1) / (w->published - 1));
			}
			printf("%-16s %-11s %5d %9.3fx %10s %10s %8lu%s  %s\n", w->name, w->profile,
			       w->cpus, w->predicted, pub, gain, w->ops, w->unconverged ? "*" : " ",
			       direction(w->predicted, w->published));
		}
	}
	speed_print(stdout, "simulator speed (this machine's, not part of the result): ", &speed);
	if (ret) {
		char what[64];

		/* The scenario that was running when Ctrl-C came is not in it. */
		snprintf(what, sizeof(what), "%u of %u scenarios", done - 1, n);
		return interrupted(c, what);
	}
	return 0;
}

/* What the command line asked for (sim_option() fills it). */
struct sim_args {
	struct sim_cli c;
	int argc; /* the command line, for --report's file */
	char **argv;
	struct sim_jobs_opts jobs;
	const char *workload, *scenario;
	bool all, c2c, mode_set;
	char perr[512];
};

/* One option into @ctx (a struct sim_args): -1 to go on, else the exit status. */
static int sim_option(void *ctx, int opt, const char *arg)
{
	struct sim_args *x = ctx;
	unsigned long long n;

	switch (opt) {
	case 'w':
		x->workload = arg;
		return -1;
	case 's':
		x->scenario = arg;
		return -1;
	case 'A':
		x->all = true;
		return -1;
	case 'v':
		if (bench_cli_side(&x->c.o, arg))
			return 2;
		return -1;
	case 'c':
		if (parse_cpus(&x->c, arg)) {
			cli_error("sim", "--cpus: counts from 1 to %d, e.g. 1,2,4 or 1-8",
				  SIM_MAX_CPUS);
			return 2;
		}
		return -1;
	case 'n':
		if (cli_ull("sim", "--ops", arg, 1, 10000000, &n))
			return 2;
		x->c.ops = n;
		x->c.ops_set = true;
		return -1;
	case 'p':
		if (!strcmp(arg, "all")) {
			unsigned int np;
			const struct sim_profile *p = sim_profile_all(&np);

			for (unsigned int i = 0; i < np && i < 4; i++)
				x->c.profiles[i] = &p[i];
			x->c.nr_profiles = np < 4 ? np : 4;
		} else if (!(x->c.profiles[0] = sim_profile_get(arg, x->perr, sizeof(x->perr)))) {
			cli_error("sim", "--profile: %s", x->perr);
			return 2;
		} else {
			x->c.nr_profiles = 1;
		}
		return -1;
	case 'm':
		if (!strcmp(arg, "threads") || !strcmp(arg, "processes")) {
			x->c.o.processes = arg[0] == 'p';
			x->mode_set = true;
		} else {
			cli_error("sim", "--mode: threads or processes");
			return 2;
		}
		return -1;
	case 'r':
		if (!strcmp(arg, "c2c")) {
			x->c2c = true;
			return -1;
		}
		if (strcmp(arg, "html") && strcmp(arg, "svg")) {
			cli_error("sim", "--report: c2c, html FILE or svg FILE");
			return 2;
		}
		/* The file is the next word: getopt goes on after it. */
		if (optind >= x->argc || !x->argv[optind][0]) {
			cli_error("sim", "--report %s: which file? (--report %s FILE)", arg, arg);
			return 2;
		}
		*(arg[0] == 'h' ? &x->c.html_file : &x->c.svg_file) = x->argv[optind++];
		return -1;
	case 't':
		if (cli_ull("sim", "--top", arg, 1, 100000, &n))
			return 2;
		x->c.top = (unsigned int)n;
		return -1;
	case 'f':
		x->c.tsv = !strcmp(arg, "tsv");
		if (!x->c.tsv && bench_cli_option(&x->c.o, opt, arg, &x->c.fmt))
			return 2;
		if (x->c.tsv)
			x->c.fmt = BENCH_CSV; /* no tables, no summaries */
		return -1;
	case 'j':
		x->c.json_file = arg;
		return -1;
	case 'P':
		x->c.plot_file = arg;
		return -1;
	case 'S':
		if (cli_ull("sim", "--seeds", arg, 1, SIM_MAX_SEEDS, &n))
			return 2;
		x->c.seeds = (unsigned int)n;
		x->c.seeds_set = true;
		return -1;
	case 'e':
		return cli_double("sim", "--entry-ns", arg, 0, 1e6, &x->c.entry_ns) ? 2 : -1;
	case 'J':
		if (cli_ull("sim", "--jobs", arg, 1, 1024, &n))
			return 2;
		x->jobs.jobs = (unsigned int)n;
		return -1;
	case 'E':
		x->jobs.emit_dir = arg;
		return -1;
	case 'C':
		x->jobs.collect_dir = arg;
		return -1;
	case 'k':
		if (cli_ull("sim", "--job", arg, 1, 1000000, &n))
			return 2;
		x->jobs.job = (unsigned int)n;
		return -1;
	case 'o':
		x->jobs.job_out = arg;
		return -1;
	case 'L':
		list_profiles();
		return 0;
	case 'g':
		x->c.progress = true;
		return -1;
	case 'h':
		usage(stdout);
		return 0;
	default:
		usage(stderr);
		return 2;
	}
}

/* Run what @x asked for: a scenario, all of them, or a workload's sweep. */
static int sim_run_args(struct sim_args *x)
{
	static struct sim_result res[64 * BENCH_MAX_SIDES];
	struct sim_cli *c = &x->c;
	int nr, ret = 0;

	if (x->workload && !(c->o.wl = workload_find(x->workload))) {
		cli_error("sim", "unknown workload '%s' (see `vfslab bench --list`)", x->workload);
		return 2;
	}
	if (x->all || x->scenario) {
		const struct scenario *s = x->scenario ? scenario_find(x->scenario) : NULL;

		if (c->o.nr_sides) {
			cli_error("sim", "a scenario brings its own variants; drop --variant");
			return 2;
		}
		if (x->mode_set) {
			cli_error("sim", "a scenario brings its own mode; drop --mode");
			return 2;
		}
		if (x->all)
			return all_scenarios(c, x->c2c);
		if (!s) {
			cli_error("sim", "unknown scenario '%s' (see `vfslab scenarios`)",
				  x->scenario);
			return 2;
		}
		return run_scenario(c, s, x->c2c, NULL);
	}
	if (!c->o.wl)
		c->o.wl = workload_find("stat2");
	if (!c->o.nr_sides && bench_cli_side(&c->o, NULL))
		return 2;
	if (!c->o.nr_tasks)
		parse_cpus(c, "1,2,4,8,16");
	if (!c->nr_profiles) {
		c->profiles[0] = sim_profile_find("spr");
		c->nr_profiles = 1;
	}
	for (int k = 0; k < c->nr_profiles && !ret; k++) {
		ret = run_profile(c, c->profiles[k], x->c2c, res, &nr);
		for (int i = 0; !ret && i < nr; i++)
			c2c_free(&res[i].c2c);
	}
	return ret;
}

/* The command: its simulations, then the heat map, which wants them all. */
static int sim_walk(void *ctx)
{
	struct sim_args *x = ctx;
	int ret = sim_run_args(x);

	if (sim_jobs_dry())
		return ret;
	if (!ret && x->c.html_file)
		ret = heatmap_write(x->c.html_file, false);
	if (!ret && x->c.svg_file)
		ret = heatmap_write(x->c.svg_file, true);
	return ret;
}

static bool jobs_conflict(const struct sim_jobs_opts *j)
{
	if (j->emit_dir && j->collect_dir) {
		cli_error("sim", "--emit-jobs writes the jobs, --collect reads their results: one "
				 "at a time");
		return true;
	}
	if (j->jobs > 1 && (j->emit_dir || j->collect_dir || j->job)) {
		cli_error("sim", "--jobs runs the simulations here: not with --emit-jobs, "
				 "--collect or --job");
		return true;
	}
	if (j->job && (j->emit_dir || j->collect_dir)) {
		cli_error("sim", "--job runs one simulation: not with --emit-jobs or --collect");
		return true;
	}
	if (!j->job != !j->job_out) {
		cli_error("sim", "--job K and --job-out FILE go together");
		return true;
	}
	return false;
}

static int sim_cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "scenario", required_argument, NULL, 's' },
		{ "all-scenarios", no_argument, NULL, 'A' },
		{ "variant", required_argument, NULL, 'v' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "ops", required_argument, NULL, 'n' },
		{ "seeds", required_argument, NULL, 'S' },
		{ "profile", required_argument, NULL, 'p' },
		{ "mode", required_argument, NULL, 'm' },
		{ "report", required_argument, NULL, 'r' },
		{ "top", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'f' },
		{ "json", required_argument, NULL, 'j' },
		{ "plot", required_argument, NULL, 'P' },
		{ "entry-ns", required_argument, NULL, 'e' },
		{ "list-profiles", no_argument, NULL, 'L' },
		{ "progress", no_argument, NULL, 'g' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "emit-jobs", required_argument, NULL, 'E' },
		{ "collect", required_argument, NULL, 'C' },
		{ "job", required_argument, NULL, 'k' },
		{ "job-out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct sim_args x;
	bool isolate = false;
	int ret;

	memset(&x, 0, sizeof(x));
	bench_cli_defaults(&x.c.o, "sim");
	x.c.ops = SIM_DEFAULT_OPS;
	x.c.seeds = 1;
	x.c.entry_ns = -1;
	x.c.top = SIM_DEFAULT_TOP;
	x.c.fmt = BENCH_TABLE;
	x.argc = argc;
	x.argv = argv;
	ret = cli_options(argc, argv, "h", opts, sim_option, &x);
	if (ret >= 0)
		return ret;
	if (optind < argc - 1) {
		usage(stderr);
		return 2;
	}
	if (optind == argc - 1) {
		if (scenario_find(argv[optind]) && !x.scenario)
			x.scenario = argv[optind];
		else
			x.workload = argv[optind];
	}
	if (jobs_conflict(&x.jobs))
		return 2;
	/*
	 * Every scenario is its own simulations, each in a process of its own
	 * (so none depends on what ran before it) and, unless told otherwise,
	 * on every CPU this process may use: the output is the same.
	 */
	if (x.all && !x.jobs.emit_dir && !x.jobs.collect_dir && !x.jobs.job) {
		cpu_set_t set;

		isolate = true;
		if (!x.jobs.jobs)
			x.jobs.jobs = !sched_getaffinity(0, sizeof(set), &set) ?
					      (unsigned int)(CPU_COUNT(&set) < 64 ?
								     CPU_COUNT(&set) :
								     64) :
					      1;
	}
	intr_catch();
	if (isolate || sim_jobs_wanted(&x.jobs))
		return sim_jobs_drive(&x.jobs, sim_walk, &x, sizeof(x), argc, argv, opts);
	return sim_walk(&x);
}

int cmd_sim(int argc, char **argv)
{
	int ret;

	memset(&speed, 0, sizeof(speed));
	ret = sim_cmd_run(argc, argv);
	speed_report();
	if (sim_blocks_unknown())
		fprintf(stderr,
			"vfslab sim: %llu basic blocks ran that the block table lacks (each counted "
			"as one instruction): rebuild vfslab-sim\n",
			(unsigned long long)sim_blocks_unknown());
	return ret;
}
