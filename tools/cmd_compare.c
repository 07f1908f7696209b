// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab scenarios: list the seed scenarios. vfslab compare SCENARIO: run
 * one with its before and after variants alternating in one run, and say
 * whether the direction the seed reported shows here, and how strongly.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/bench/bench.h"
#include "tools/cmd.h"
#include "tools/interrupt.h"
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

/* What the ratio says, in words; the "after" side is expected to be faster. */
static const char *verdict(const struct bench_result *after)
{
	if (after->ratio_min > 1.0)
		return "yes: faster in every paired round";
	if (after->ratio >= 1.02)
		return "weakly: faster by median, within the noise in some rounds";
	if (after->ratio > 0.98)
		return "no measurable difference (within 2%)";
	if (after->ratio_max < 1.0)
		return "opposite: slower in every paired round";
	return "opposite by median, within the noise in some rounds";
}

static void compare_usage(FILE *f)
{
	fprintf(f,
		"usage: vfslab compare SCENARIO [--tasks LIST] [--rounds N] [--interval S]\n"
		"                      [--entry-ns N|host] [--peer kernel] [--format table|csv|json]\n\n"
		"Runs the scenario's workload with its before and after variants taking turns\n"
		"interval by interval, and reports after/before per task count with the range\n"
		"over paired rounds. `vfslab scenarios` lists the scenarios.\n");
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
		       res[i].ratio_max, verdict(&res[i]));
	}
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
	bench_cli_finish(o);
	intr_catch();
	ret = bench_run(o, res, &nr);
	if (ret < 0) {
		cli_error("compare", "%s: the run failed", s->name);
		return 1;
	}
	if (nr)
		bench_report(stdout, cc.fmt, o, res, nr);
	if (nr && cc.fmt == BENCH_TABLE)
		compare_verdicts(s, res, nr);
	if (ret == BENCH_INTERRUPTED) {
		bench_report_partial(stdout, cc.fmt, "compare", o, res, nr);
		return intr_status();
	}
	return 0;
}
