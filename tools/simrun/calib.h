/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `vfslab sim calibrate` and `vfslab sim validate`: they run in vfslab
 * itself (the native VFS, real threads, real cores) and ask the simulator
 * program for its predictions of the same runs.
 */
#ifndef VFSLAB_TOOLS_SIMRUN_CALIB_H
#define VFSLAB_TOOLS_SIMRUN_CALIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tools/sim/profile.h"

struct sim_tsv_row {
	int cpus;
	char side[128];
	double ops_per_sec, ratio, instrs_per_op, ns_per_op;
	double ratio_min, ratio_max; /* over the perturbed runs (--seeds) */
	unsigned long ops; /* per vCPU */
};

/*
 * The simulator's program, vfslab-sim, in @buf: 0, or -1 if it is not where
 * it should be (@buf then names the last place looked, if it fits).
 */
int sim_helper_path(char *buf, size_t n);

/*
 * Run `vfslab-sim sim ARGS... --format tsv` and read its rows into
 * @rows (at most @max). The number of rows, or -1 after a message.
 */
int sim_predict(const char *const *args, struct sim_tsv_row *rows, int max);

struct calib_opts {
	double interval; /* seconds per bench sample */
	int rounds;
	const char *workloads; /* comma list; NULL: all */
	bool quiet;
};

/* Measure this host into @p (name "host"). 0 or -1 after a message. */
int sim_calibrate(struct sim_profile *p, const struct calib_opts *o, FILE *log);

/* Is @name in the comma-separated @list? */
bool sim_listed(const char *list, const char *name);

int sim_calibrate_cmd(int argc, char **argv);
int sim_validate_cmd(int argc, char **argv);

#endif /* VFSLAB_TOOLS_SIMRUN_CALIB_H */
