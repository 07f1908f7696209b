/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * vfslab sim's simulations spread over processes and machines
 * (tools/simrun/jobs.c). The command's own walk - its scenarios, profiles,
 * CPU counts and sides, each point one run_point() - is first done dry
 * (nothing simulated, standard output discarded) to list the points; each
 * point is then a job: run in one of N forked processes (--jobs N), or
 * written out as one command line (--emit-jobs DIR) that runs it alone
 * (--job K --job-out FILE) wherever vfslab is installed. The walk is then
 * done once more with every point's result read back from its job (--collect
 * DIR for the emitted ones), so what it prints is what --jobs 1 prints.
 */
#ifndef VFSLAB_TOOLS_SIMRUN_JOBS_H
#define VFSLAB_TOOLS_SIMRUN_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "tools/simrun/simrun.h"

struct option;

struct sim_jobs_opts {
	unsigned int jobs; /* --jobs N: processes at once; 0 or 1: none forked */
	const char *emit_dir; /* --emit-jobs DIR */
	const char *collect_dir; /* --collect DIR */
	unsigned int job; /* --job K: run the K-th point alone (from 1); 0: none */
	const char *job_out; /* --job-out FILE: its result */
};

/* Does the command go through sim_jobs_drive()? */
bool sim_jobs_wanted(const struct sim_jobs_opts *o);

/*
 * Run the command whose walk is walk(ctx) through jobs. ctx (ctx_size
 * bytes) is restored before each walk, so that every walk starts from the
 * parsed command line. argv and opts (the command's long options) give the
 * command lines --emit-jobs writes. Returns the command's exit status.
 */
int sim_jobs_drive(const struct sim_jobs_opts *o, int (*walk)(void *ctx), void *ctx,
		   size_t ctx_size, int argc, char **argv, const struct option *opts);

/* What run_point() does with the walk's next point. */
enum sim_point_act {
	SIM_POINT_RUN, /* simulate it, as without jobs */
	SIM_POINT_SKIP, /* a dry walk's other point: zeroes, nothing simulated */
	SIM_POINT_MINE, /* simulate it, then hand it to sim_jobs_done() */
	SIM_POINT_TAKEN, /* its job's result is in *r and rate[0..seeds) */
	SIM_POINT_LOST, /* its job has no result (an error was printed) */
};
/* key names the point (profile, sides, CPUs...): a result is checked against it. */
enum sim_point_act sim_jobs_point(const char *key, struct sim_result *r, double *rate,
				  unsigned int seeds);
/* The point run_point() simulated for SIM_POINT_MINE: 0, or -1 after cli_error. */
int sim_jobs_done(const struct sim_result *r, const double *rate, unsigned int seeds);
/* A walk that only lists or runs points: write no files, add no heat map. */
bool sim_jobs_dry(void);
/*
 * In a dry walk: did a point since sim_jobs_mark() have no result yet? A
 * converging scenario stops doubling there; the next round goes on.
 */
void sim_jobs_mark(void);
bool sim_jobs_unknown(void);
/* The next point's result is at hand: an interrupted sweep still reports it. */
bool sim_jobs_ready(void);

#endif /* VFSLAB_TOOLS_SIMRUN_JOBS_H */
