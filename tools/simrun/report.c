// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab sim's output: a profile's results as a table (with the contention
 * report under it), CSV, JSON or TSV; the --json and --plot files and the
 * heat map's share; how a scenario converged; the --all-scenarios summary;
 * and the simulator's own speed.
 */
#include <math.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/simrun/heatmap.h"
#include "tools/simrun/simcli.h"

/* bench's results (big: their sample arrays), for its CSV, JSON and plot. */
static struct bench_result br[64 * BENCH_MAX_SIDES];

/*
 * The simulator's own speed, which depends on this machine and so is not
 * part of the (deterministic) result: after each table, in the JSON, and
 * on standard error once per command.
 */
static struct sim_speed speed;

void sim_speed_add(struct sim_speed *sum, const struct sim_speed *x)
{
	sum->accesses += x->accesses;
	sum->ops += x->ops;
	sum->s += x->s;
}

/* Count @x in the command's total (standard error's line, the summary's). */
void sim_speed_count(const struct sim_speed *x)
{
	sim_speed_add(&speed, x);
}

void sim_speed_reset(void)
{
	memset(&speed, 0, sizeof(speed));
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

void sim_speed_report(void)
{
	if (speed.s && speed.ops)
		speed_print(stderr, "vfslab sim: ", &speed);
}

static const enum vfs_event shown[] = {
	VFS_EV_LOCKREF_SLOW,
	VFS_EV_UNLAZY_FAIL,
	VFS_EV_FGET_RETRY,
	VFS_EV_ALLOC_FD_FAST,
};

/* Whether the runs drew where the heap's objects lie: a lone run keeps every class at its first slot. */
static bool placement_drawn(const struct sim_cli *c)
{
	return (c->seeds > 1 || c->seed_only) && !c->first_slots;
}

#define PLACEMENT_DRAWN " and of where the heap's objects lie against the lines"

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
	if (c->seed_only)
		fprintf(f, "run %u of a --seeds set alone: its own draw of transfer times%s\n",
			c->seed_only, placement_drawn(c) ? PLACEMENT_DRAWN : "");
	else if (c->seeds > 1)
		fprintf(f,
			"each row the mean of %u runs, each its own draw of transfer times%s (a seed "
			"each; min and max the slowest and the fastest run); the ratio's range is over "
			"the runs\n",
			c->seeds, placement_drawn(c) ? PLACEMENT_DRAWN : "");
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
			sim_speed_add(&sum, &res[i].speed);
		speed_print(f, "simulator speed (this machine's, not part of the result): ", &sum);
	}
	for (int i = 0; i < nr; i++)
		if (res[i].br.errors)
			fprintf(f, "warning: %s, %d CPUs: %lu failed calls (last: %s)\n",
				o->sides[res[i].br.side].label, res[i].br.tasks, res[i].br.errors,
				strerror((int)-res[i].br.last_error));
}

/* A scenario's figure and what each prediction says about it. */
static json_t *scenario_json(const struct sim_cli *c, const struct sim_result *res, int nr)
{
	const struct scenario *s = c->scenario;
	json_t *sc = out_json_scenario(s), *pred = json_array();

	for (int i = 1; i < nr; i += 2) {
		double ratio = sim_judged_ratio(c, res, i);

		json_array_append_new(pred, json_pack("{s:i,s:o,s:s}", "cpus", res[i].br.tasks,
						      "predicted_ratio", out_json_num(ratio, 4),
						      "label", sim_direction(ratio, s->published)));
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
	/* What the runs drew: a lone run keeps every class at its first slot. */
	json_object_set_new(root, "seeds", json_integer(c->seeds));
	if (c->seed_only)
		json_object_set_new(root, "seed", json_integer(c->seed_only));
	out_json_set_name(root, "placement", placement_drawn(c) ? "drawn" : "first");
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
		sim_speed_add(&sum, &r->speed);
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
double sim_judged_ratio(const struct sim_cli *c, const struct sim_result *res, int i)
{
	if (c->o.wl->score_names[0] && res[i].br.side && res[i - res[i].br.side].br.score[0])
		return res[i].br.score[0] / res[i - res[i].br.side].br.score[0];
	return res[i].br.ratio;
}

/* --format tsv: what sim validate and calibrate read back. */
static void tsv(FILE *f, const struct sim_cli *c, const struct sim_result *res, int nr)
{
	fprintf(f, "cpus\tside\tops_per_sec\tratio\tinstrs_per_op\tns_per_op\tops_per_cpu\t"
		   "ratio_min\tratio_max\n");
	for (int i = 0; i < nr; i++)
		fprintf(f, "%d\t%s\t%.1f\t%.6f\t%.3f\t%.3f\t%lu\t%.6f\t%.6f\n", res[i].br.tasks,
			c->o.sides[res[i].br.side].label, res[i].br.median,
			sim_judged_ratio(c, res, i), res[i].instrs_per_op, res[i].op_ns, c->ops,
			res[i].br.ratio_min, res[i].br.ratio_max);
}

void sim_report(FILE *f, const struct sim_cli *c, const struct sim_profile *p,
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

/* How a converging scenario got to its op count: one line. */
void sim_convergence_print(FILE *f, const struct sim_cli *c)
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

/*
 * What a prediction says about a published figure: "reproduced" only where
 * the gain is within 2x of the published gain, "direction only" where just
 * the sign agrees, "opposite" where it does not.
 */
const char *sim_direction(double predicted, double published)
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

/* --all-scenarios' table: each prediction against its published figure. */
void sim_scenario_summary(struct verdict (*v)[4], unsigned int n, int nprof)
{
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
			       sim_direction(w->predicted, w->published));
		}
	}
	speed_print(stdout, "simulator speed (this machine's, not part of the result): ", &speed);
}

/* --json's file, --plot's and the heat map's share of one profile's run. */
int sim_report_files(const struct sim_cli *c, const struct sim_profile *p,
		     const struct sim_result *res, int nr)
{
	if (c->json_file) {
		FILE *f = fopen(c->json_file, "w");

		if (!f) {
			cli_error("sim", "--json: cannot write %s", c->json_file);
			return 1;
		}
		json(f, c, p, res, nr);
		if (cli_fclose("sim", c->json_file, f))
			return 1;
	}
	if (c->plot_file) {
		for (int i = 0; i < nr; i++)
			br[i] = res[i].br;
		if (bench_plot(c->plot_file, &c->o, br, nr, p->name))
			return 1;
	}
	if (c->html_file || c->svg_file) {
		char title[256];
		struct heatmap_run h = {
			.title = title, .profile = p->name, .o = &c->o, .res = res, .nr = nr
		};

		snprintf(title, sizeof(title), "%s on %s",
			 c->scenario ? c->scenario->name : c->o.wl->name, p->name);
		h.note = c->scenario ? c->scenario->claim : NULL;
		h.scenario = c->scenario != NULL;
		heatmap_add(&h);
	}
	return 0;
}
