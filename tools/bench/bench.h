/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The benchmark runner (tools/bench/runner.c) and its report
 * (tools/bench/report.c).
 *
 * One run measures a workload at each task count of a sweep, for a list of
 * sides: vfslab variants and, with --peer kernel, the host kernel on a tmpfs
 * directory laid out the same way. All sides' tasks exist at once and take
 * turns interval by interval, so machine noise lands on all of them alike;
 * the first round is warm-up and is discarded.
 */
#ifndef VFSLAB_TOOLS_BENCH_BENCH_H
#define VFSLAB_TOOLS_BENCH_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/bench/workload.h"
#include "tools/out/json.h"
#include "vfs/vfs.h"

#define BENCH_MAX_SIDES 8
#define BENCH_MAX_ROUNDS 1000
#define BENCH_MAX_TASKS 1024

struct bench_side {
	char label[128];
	bool kernel;
	struct vfs_config cfg; /* vfslab sides */
};

struct bench_opts {
	const char *cmd; /* the command running it, for messages: "bench", "compare"... */
	const struct workload *wl;
	struct bench_side sides[BENCH_MAX_SIDES];
	int nr_sides;
	int tasks[64];
	int nr_tasks;
	bool processes; /* private fd tables (fork), else threads */
	double interval; /* seconds per sample */
	int rounds; /* samples per side, after one warm-up round */
	long entry_ns; /* spent at each vfslab syscall entry */
	bool entry_host; /* entry_ns is the host's measured getppid cost */
	bool pin;
	bool progress;
	const char *tmpdir; /* where the kernel peer's directory goes */
};

struct bench_result {
	int side, tasks;
	double median, min, max; /* ops/s */
	double samples[BENCH_MAX_ROUNDS];
	int nr_samples;
	/* The workload's scores per second (blogbench's reads, writes). */
	double score[2];
	double score_samples[2][BENCH_MAX_ROUNDS];
	/* Against side 0 at the same task count: ratio of medians, and the
	 * spread of the per-round ratios. */
	double ratio, ratio_min, ratio_max;
	/* vfslab sides: event counters per operation. */
	double ev_per_op[VFS_EV_NR];
	bool oversubscribed;
	unsigned long errors;
	long last_error;
};

/*
 * Run the sweep; results in out[], one per side and task count. 0, -1, or
 * BENCH_INTERRUPTED when a signal cut it short (tools/interrupt.h): out[]
 * then holds the task counts measured so far, the last one over the rounds
 * every side finished (nr_samples).
 */
#define BENCH_INTERRUPTED 1
int bench_run(const struct bench_opts *o, struct bench_result *out, int *nr_out);

/* BENCH_WIS: will-it-scale's runtest.py CSV of the one vfslab side. */
enum bench_format { BENCH_TABLE, BENCH_CSV, BENCH_JSON, BENCH_WIS };
void bench_report(FILE *f, enum bench_format fmt, const struct bench_opts *o,
		  const struct bench_result *r, int nr);
/* The JSON document of a run, for a caller to add to (compare, sim). */
json_t *bench_json(const struct bench_opts *o, const struct bench_result *r, int nr);
/* ops/s as the table prints it: "1.23M", "4.5k", "678". */
void bench_fmt_ops(char *buf, size_t n, double v);

/*
 * After an interrupted run: what the report holds, marked partial, under
 * the table (fmt BENCH_TABLE) or on stderr (csv, json: stdout stays data).
 */
void bench_report_partial(FILE *out, enum bench_format fmt, const char *cmd,
			  const struct bench_opts *o, const struct bench_result *r, int nr);

/*
 * Plot ops/s against tasks, min-max bars, with gnuplot into file (.png or
 * .svg); sim_profile names the simulated machine (NULL: a native run).
 * 0, or -1 after a message.
 */
int bench_plot(const char *file, const struct bench_opts *o, const struct bench_result *r, int nr,
	       const char *sim_profile);

/* ns per getppid() on this host, and spin iterations per ns. */
double bench_host_syscall_ns(void);
double bench_spin_per_ns(void);

/* bench --tree N: what to build and measure. */
struct tree_opts {
	long n; /* files */
	bool peer; /* the host's tmpfs too */
	bool phases; /* --phases: time each call and step */
	const char *tmpdir; /* the host side's directory */
	const char *variant; /* the vfslab side's --variant, or NULL */
};

/* Build a tree of o->n files in vfslab (and on the host); print time and memory. */
int bench_tree(const struct tree_opts *o);

#endif /* VFSLAB_TOOLS_BENCH_BENCH_H */
