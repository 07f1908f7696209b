/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The simulator's front end, on the machine in tools/sim/: running a bench
 * workload on simulated CPUs (tools/simrun/run.c), the contention report
 * (tools/simrun/c2c.c) and vfslab sim's command line (tools/simrun/cmd.c,
 * whose cmd_sim() is the sim command of the vfslab-sim program).
 */
#ifndef VFSLAB_TOOLS_SIMRUN_SIMRUN_H
#define VFSLAB_TOOLS_SIMRUN_SIMRUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/bench/bench.h"
#include "tools/bench/workload.h"
#include "tools/out/json.h"
#include "tools/sim/profile.h"
#include "tools/sim/sim.h"
#include "vfs/layout.h"
#include "vfs/vfs.h"

/* The ctx of sys_ops_sim: the vCPU's task. */
struct sim_ctx {
	struct task *task;
};
extern const struct sys_ops sys_ops_sim;

#define SIM_SAMPLES 5
/* sim --seeds: perturbed runs of one point at most. */
#define SIM_MAX_SEEDS 16

/* The seed of run @i of @n averaged for one point: a lone run takes seed 0's draw. */
static inline unsigned int sim_seed_nth(unsigned int n, unsigned int i)
{
	return n > 1 ? i + 1 : 0;
}

struct sim_run_opts {
	const struct workload *wl;
	const struct sim_profile *prof;
	bool processes;
	unsigned int cpus;
	unsigned long ops; /* per vCPU */
	double entry_ns; /* syscall entry cost; < 0: the profile's */
	unsigned int seed; /* the draw of transfer times (sim_set_seed()) */
	bool first_slots; /* --placement first: the seed does not move the heap */
	unsigned int c2c_top; /* lines in the contention report; 0: none */
};

/* One hot cache line, resolved to an object and its fields. */
struct c2c_row {
	char field[40];
	char func[64];
	uint64_t events, hitm, rfo, inval, rmw_xfer;
	uint64_t stall_ps;
	unsigned int kinds;
};

struct c2c_line {
	char object[96]; /* dentry "stat2", filp, global next_cpu, ... */
	char fields[256]; /* what the line holds */
	unsigned int obj_off; /* the line's first byte in the object */
	struct coh_stats s; /* contribs cleared */
	struct c2c_row *rows;
	unsigned int nrows;
};

/*
 * Every access to the objects of one laid-out struct, by the line's index
 * in its object (hits included): what a layout's lines cost, and, with one
 * field a line, what each field costs (vfslab advise).
 */
#define C2C_OBJ_LINES 64
struct c2c_struct_lines {
	uint64_t touched; /* distinct lines of such objects accessed */
	struct {
		uint64_t objects; /* objects whose line this is that were accessed */
		uint64_t loads, stores, rmws, hitm, rfo, stall_ps;
	} line[C2C_OBJ_LINES];
};

/*
 * Every line's events summed per field of dentry, file and files_struct
 * (all objects of the type), for the heat map: the functions that took
 * them, most time lost first.
 */
#define C2C_HEAT_FUNCS 4
struct c2c_heat_field {
	uint64_t events, hitm, rfo, stall_ps;
	unsigned int nfuncs;
	struct {
		char name[64];
		uint64_t events, stall_ps;
		unsigned int kinds;
	} funcs[C2C_HEAT_FUNCS];
};

/* Lines are the struct's own 64-byte lines, as `vfslab layout` draws them. */
#define C2C_HEAT_LINES 32
struct c2c_heat {
	struct c2c_heat_field f[LS_NR][LAYOUT_MAX_FIELDS];
	struct {
		uint64_t events, stall_ps;
	} line[LS_NR][C2C_HEAT_LINES];
};

struct c2c_report {
	struct c2c_line *lines;
	unsigned int nlines;
	struct coh_stats total;
	uint64_t lines_with_events;
	struct c2c_struct_lines structs[LS_NR];
	struct c2c_heat *heat; /* NULL where no report was built */
};

struct sim_result {
	struct bench_result br; /* ops/s, samples, events per op, errors */
	uint64_t ops; /* measured operations, all vCPUs */
	double window_s; /* the steady window the rate comes from */
	double op_ns; /* mean time of one operation on one vCPU */
	struct {
		double hitm, rfo, inval, rmw_xfer, clean, stall_ns;
	} per_op;
	struct c2c_report c2c;
	uint64_t switches;
	/* The core model, per operation: instructions, store-buffer stalls. */
	double instrs_per_op, sb_stalls_per_op;
	double cpi; /* the cycles per instruction it ran at (the workload's own, if measured) */
	/* The simulator's own speed: accesses simulated, host seconds. */
	uint64_t accesses;
	uint64_t lines; /* distinct 64-byte lines the run touched */
	double host_s;
	/* The same summed over a point's perturbed runs (vfslab sim's speed report). */
	struct sim_speed {
		uint64_t accesses, ops;
		double s;
	} speed;
};

int sim_run_workload(const struct sim_run_opts *o, const struct vfs_config *cfg,
		     struct sim_result *out);

/* The report (tools/simrun/c2c.c). */
void c2c_build(struct c2c_report *r, const struct vfs_config *cfg, unsigned int top);
void c2c_free(struct c2c_report *r);
void c2c_print(FILE *f, const struct c2c_report *r, uint64_t ops, const char *label);
json_t *c2c_json(const struct c2c_report *r, uint64_t ops);
/* "load", "rmw", "load+store"...: the kinds of access in a mask of 1 << enum coh_kind. */
const char *c2c_kind_name(unsigned int mask);

#endif /* VFSLAB_TOOLS_SIMRUN_SIMRUN_H */
