/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What vfslab sim's command line (tools/simrun/cmd.c), its walk over the
 * simulations (tools/simrun/walk.c) and their output
 * (tools/simrun/report.c) share: the command's state and each one's calls.
 */
#ifndef VFSLAB_TOOLS_SIMRUN_SIMCLI_H
#define VFSLAB_TOOLS_SIMRUN_SIMCLI_H

#include <stdbool.h>
#include <stdio.h>

#include "tools/scenarios.h"
#include "tools/simrun/simrun.h"

/*
 * Scenario runs converge: they start at about this many operations in all
 * (50 to 1000 per vCPU) and double them until the after/before ratio moves
 * by less than SIM_CONVERGE_TOL between two doublings, up to
 * SIM_CONVERGE_MAX_STEPS runs.
 */
#define SIM_SCENARIO_TOTAL_OPS 30000
#define SIM_CONVERGE_TOL 0.01
#define SIM_CONVERGE_MAX_STEPS 6

struct sim_cli {
	struct bench_opts o; /* workload, sides, task counts, mode */
	const struct sim_profile *profiles[4];
	int nr_profiles;
	unsigned long ops;
	bool ops_set;
	unsigned int seeds; /* runs averaged, each its own draw (sim_set_seed()) */
	bool seeds_set;
	bool first_slots; /* --placement first */
	unsigned int seed_only; /* --seed K: that run of a --seeds set alone; 0: none */
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

/* One scenario's prediction on one profile, for the --all-scenarios summary. */
struct verdict {
	const char *name;
	int cpus;
	const char *profile;
	double predicted, published;
	unsigned long ops;
	bool unconverged;
};

/*
 * tools/simrun/walk.c, each returning the exit status (128 + the signal
 * after Ctrl-C). One profile's sweep, res[] its results; a scenario on each
 * of its profiles, @v (or NULL) its verdicts, one a profile; every scenario
 * and the summary.
 */
int sim_run_profile(struct sim_cli *c, const struct sim_profile *p, bool c2c,
		    struct sim_result *res, int *nr);
int sim_run_scenario(struct sim_cli *base, const struct scenario *s, bool c2c, struct verdict *v);
int sim_all_scenarios(struct sim_cli *c, bool c2c);

/* tools/simrun/report.c: a profile's results on @f in --format's format. */
void sim_report(FILE *f, const struct sim_cli *c, const struct sim_profile *p,
		const struct sim_result *res, int nr, bool c2c);
int sim_report_files(const struct sim_cli *c, const struct sim_profile *p,
		     const struct sim_result *res, int nr);
double sim_judged_ratio(const struct sim_cli *c, const struct sim_result *res, int i);
const char *sim_direction(double predicted, double published);
void sim_convergence_print(FILE *f, const struct sim_cli *c);
void sim_scenario_summary(struct verdict (*v)[4], unsigned int n, int nprof);
/* The simulator's own speed: summed, counted in the command's total, its line. */
void sim_speed_add(struct sim_speed *sum, const struct sim_speed *x);
void sim_speed_count(const struct sim_speed *x);
void sim_speed_reset(void);
void sim_speed_report(void);

#endif /* VFSLAB_TOOLS_SIMRUN_SIMCLI_H */
