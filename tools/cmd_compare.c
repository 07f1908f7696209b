// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab scenarios: list the seed scenarios. vfslab compare SCENARIO: run
 * one with its before and after variants alternating in one run, and say
 * whether the direction the seed reported shows here, and how strongly.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/bench/bench.h"
#include "tools/cmd.h"
#include "tools/interrupt.h"
#include "tools/out/json.h"
#include "tools/scenarios.h"

int cmd_scenarios(int argc, char **argv)
{
	unsigned int nr;
	const struct scenario *s = scenario_all(&nr);

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: vfslab scenarios\n\nLists the seed scenarios `vfslab compare` runs.\n");
		return 0;
	}
	if (argc > 1) {
		cli_error("scenarios", "takes no arguments");
		return 2;
	}
	for (unsigned int i = 0; i < nr; i++) {
		printf("%s: %s\n", s[i].name, s[i].claim);
		printf("  workload %s (%s), %s -> %s\n", s[i].workload,
		       s[i].processes ? "processes" : "threads", s[i].before, s[i].after);
		if (s[i].published)
			printf("  published: %.2fx at %d CPUs (%s)\n", s[i].published,
			       s[i].published_cpus, s[i].source);
		else
			printf("  source: %s\n", s[i].source);
		printf("%s\n", s[i].explain);
	}
	return 0;
}

/* What the ratio says: a key for programs, words for people. */
struct verdict {
	const char *key, *text;
};

/* The "after" side is expected to be faster; one round has no spread to judge noise by. */
static struct verdict verdict(const struct bench_result *after)
{
	if (after->nr_samples < 2) {
		if (after->ratio >= 1.02)
			return (struct verdict){ "one-round-faster",
						 "faster in the one round run: no spread to "
						 "judge noise by (--rounds 2 or more)" };
		if (after->ratio > 0.98)
			return (struct verdict){ "none", "no measurable difference (within 2%) "
							 "in the one round run" };
		return (struct verdict){ "one-round-slower",
					 "slower in the one round run: no spread to "
					 "judge noise by (--rounds 2 or more)" };
	}
	if (after->ratio_min > 1.0)
		return (struct verdict){ "yes", "yes: faster in every paired round" };
	if (after->ratio >= 1.02)
		return (struct verdict){ "weakly", "weakly: faster by median, within the noise "
						   "in some rounds" };
	if (after->ratio > 0.98)
		return (struct verdict){ "none", "no measurable difference (within 2%)" };
	if (after->ratio_max < 1.0)
		return (struct verdict){ "opposite", "opposite: slower in every paired round" };
	return (struct verdict){ "opposite-weakly",
				 "opposite by median, within the noise in some rounds" };
}

static void compare_usage(FILE *f)
{
	fprintf(f,
		"usage: vfslab compare SCENARIO [--tasks LIST] [--rounds N] [--interval S]\n"
		"                      [--entry-ns N|host] [--peer kernel] [--format table|csv|json]\n\n"
		"Runs the scenario's workload with its before and after variants taking turns\n"
		"interval by interval, and reports after/before per task count with the range\n"
		"over paired rounds, and LKP's before \xc2\xb1%%stddev, %%change, after \xc2\xb1%%stddev.\n"
		"The JSON adds the scenario, its published figure and a verdict per task\n"
		"count. `vfslab scenarios` lists the scenarios.\n");
}

struct compare_cmd {
	struct bench_opts o;
	enum bench_format fmt;
	bool kernel; /* --peer kernel: the host as a third side */
	const char *scenario;
};

/* One option into the struct compare_cmd at ctx; -1 to go on, else the exit status. */
static int compare_option(void *ctx, int opt, const char *arg)
{
	struct compare_cmd *cc = ctx;

	switch (opt) {
	case 't':
	case 'r':
	case 'i':
	case 'e':
	case 'f':
		if (bench_cli_option(&cc->o, opt, arg, &cc->fmt))
			return 2;
		break;
	case 'p':
		if (strcmp(arg, "kernel")) {
			cli_error("compare", "--peer: only kernel, not '%s'", arg);
			return 2;
		}
		cc->kernel = true;
		break;
	case 'h':
		compare_usage(stdout);
		return 0;
	default:
		compare_usage(stderr);
		return 2;
	}
	return -1;
}

/* The options into cc; -1 to go on, else the exit status. */
static int compare_options(int argc, char **argv, struct compare_cmd *cc)
{
	static const struct option opts[] = {
		{ "tasks", required_argument, NULL, 't' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "interval", required_argument, NULL, 'i' },
		{ "entry-ns", required_argument, NULL, 'e' },
		{ "peer", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ret = cli_options(argc, argv, "h", opts, compare_option, cc);

	if (ret >= 0)
		return ret;
	if (optind != argc - 1) {
		compare_usage(stderr);
		return 2;
	}
	cc->scenario = argv[optind];
	return -1;
}

/* Mean and standard deviation (n - 1) of a result's per-round samples, as LKP takes them. */
static void mean_stddev(const struct bench_result *r, double *mean, double *sd)
{
	double sum = 0, sq = 0;

	for (int i = 0; i < r->nr_samples; i++)
		sum += r->samples[i];
	*mean = r->nr_samples ? sum / r->nr_samples : 0;
	for (int i = 0; i < r->nr_samples; i++)
		sq += (r->samples[i] - *mean) * (r->samples[i] - *mean);
	*sd = r->nr_samples > 1 ? sqrt(sq / (r->nr_samples - 1)) : 0;
}

/* "± N%" of a mean, blank where one round gives no deviation. */
static void fmt_stddev(char *buf, size_t n, const struct bench_result *r, double mean, double sd)
{
	if (r->nr_samples < 2 || !(mean > 0))
		snprintf(buf, n, "%5s", "");
	else
		snprintf(buf, n, "\xc2\xb1%3.0f%%", 100 * sd / mean);
}

/*
 * The LKP test robot's shape: base mean ± %stddev, %change of the means,
 * new mean ± %stddev, and the metric, for readers used to its reports.
 */
static void compare_lkp(const struct bench_opts *o, const struct bench_result *res, int nr)
{
	printf("\nLKP's shape, before = %s, after = %s (mean of the rounds):\n", o->sides[0].label,
	       o->sides[1].label);
	printf("%12s %27s\n", "before", "after");
	printf("---------------- ---------------------------\n");
	printf("%16s %11s %15s\n", "%stddev", "%change", "%stddev");
	printf("%16s %10s %16s\n", "\\", "|", "\\");
	for (int i = 0; i < nr; i++) {
		const struct bench_result *a = &res[i], *b = &res[i - res[i].side];
		double ma, sa, mb, sb;
		char da[16], db[16];

		if (a->side != 1)
			continue;
		mean_stddev(b, &mb, &sb);
		mean_stddev(a, &ma, &sa);
		fmt_stddev(db, sizeof(db), b, mb, sb);
		fmt_stddev(da, sizeof(da), a, ma, sa);
		printf("%10.0f %s %+9.1f%% %10.0f %s  %s.ops_per_sec.%d_%s\n", mb, db,
		       mb > 0 ? 100 * (ma - mb) / mb : 0.0, ma, da, o->wl->name, a->tasks,
		       o->processes ? "processes" : "threads");
	}
}

/* Under the table: the seed's claim, the published figure, the verdict per task count. */
static void compare_verdicts(const struct scenario *s, const struct bench_result *res, int nr)
{
	printf("\n%s: %s\n", s->name, s->claim);
	if (s->published)
		printf("published: %.2fx at %d CPUs (%s)\n", s->published, s->published_cpus,
		       s->source);
	for (int i = 0; i < nr; i++) {
		if (res[i].side != 1)
			continue;
		printf("here, %d task%s: after/before %.3fx (paired rounds %.3f-%.3f) - %s\n",
		       res[i].tasks, res[i].tasks > 1 ? "s" : "", res[i].ratio, res[i].ratio_min,
		       res[i].ratio_max, verdict(&res[i]).text);
	}
}

/* bench's JSON with the scenario, its published figure and the verdicts. */
static int compare_json(const struct scenario *s, const struct bench_opts *o,
			const struct bench_result *res, int nr)
{
	json_t *root = bench_json(o, res, nr), *v = json_array();
	int ret;

	json_object_set_new(root, "scenario", out_json_scenario(s));
	for (int i = 0; i < nr; i++) {
		struct verdict w = verdict(&res[i]);

		if (res[i].side != 1)
			continue;
		json_array_append_new(
			v, json_pack("{s:i,s:o,s:o,s:o,s:i,s:s,s:s}", "tasks", res[i].tasks,
				     "ratio", out_json_num(res[i].ratio, 4), "ratio_min",
				     out_json_num(res[i].ratio_min, 4), "ratio_max",
				     out_json_num(res[i].ratio_max, 4), "rounds", res[i].nr_samples,
				     "verdict", w.key, "text", w.text));
	}
	json_object_set_new(root, "verdicts", v);
	ret = out_json_dump(stdout, root);
	json_decref(root);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	static struct compare_cmd cc;
	static struct bench_result res[64 * BENCH_MAX_SIDES];
	struct bench_opts *o = &cc.o;
	const struct scenario *s;
	int ret, nr = 0;

	memset(&cc, 0, sizeof(cc));
	cc.fmt = BENCH_TABLE;
	bench_cli_defaults(o, "compare");
	ret = compare_options(argc, argv, &cc);
	if (ret >= 0)
		return ret;
	s = scenario_find(cc.scenario);
	if (!s) {
		cli_error("compare", "unknown scenario '%s' (see `vfslab scenarios`)", cc.scenario);
		return 2;
	}
	o->wl = workload_find(s->workload);
	o->processes = s->processes;
	if (bench_cli_side(o, s->before) || bench_cli_side(o, s->after))
		return 2;
	if (cc.kernel) {
		o->sides[2].kernel = true;
		snprintf(o->sides[2].label, sizeof(o->sides[2].label), "kernel (%s)", o->tmpdir);
		o->nr_sides = 3;
	}
	if (cli_parse_only)
		return 0;
	bench_cli_finish(o);
	intr_catch();
	ret = bench_run(o, res, &nr);
	if (ret < 0) {
		cli_error("compare", "%s: the run failed", s->name);
		return 1;
	}
	if (nr && cc.fmt == BENCH_JSON && compare_json(s, o, res, nr))
		return 1;
	if (nr && cc.fmt != BENCH_JSON)
		bench_report(stdout, cc.fmt, o, res, nr);
	if (nr && cc.fmt == BENCH_TABLE) {
		compare_lkp(o, res, nr);
		compare_verdicts(s, res, nr);
	}
	if (ret == BENCH_INTERRUPTED) {
		bench_report_partial(stdout, cc.fmt, "compare", o, res, nr);
		return intr_status();
	}
	return 0;
}
