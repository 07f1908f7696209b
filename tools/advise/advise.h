/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * vfslab advise: a layout for one struct from what workloads do to its
 * fields on the simulator. A probe layout (each field on its own line)
 * gives each field's reads, writes and misses per operation at 1 CPU and
 * at N (probe.c); a search over field orders ranks candidates by a cost
 * model (search.c); the best few run on the simulator, in up to --jobs
 * processes (jobs.c), and the numbers printed are theirs (cmd.c).
 */
#ifndef VFSLAB_TOOLS_ADVISE_ADVISE_H
#define VFSLAB_TOOLS_ADVISE_ADVISE_H

#include <stdbool.h>
#include <stdio.h>

#include "tools/simrun/simrun.h"
#include "vfs/layout.h"

#define ADV_MAX_WL 8
#define ADV_MAX_ITEMS (LAYOUT_MAX_FIELDS + LAYOUT_MAX_PADS)
#define ADV_ALIGN (-1) /* a token: the next item starts a line */

struct adv_opts {
	enum layout_struct s;
	const char *key; /* the variant key: dentry, file, files */
	const struct workload *wl[ADV_MAX_WL];
	unsigned int nwl;
	unsigned int cpus;
	const struct sim_profile *prof;
	unsigned long ops; /* per vCPU, each run */
	unsigned int seeds; /* runs averaged per point, each its own draw */
	unsigned int jobs;
};

/* One simulated run: one workload, one CPU count, one layout. */
struct adv_run {
	double ops_s;
	uint64_t ops;
	struct c2c_struct_lines lines;
};

/* A layout's runs: [workload][0] at 1 CPU, [workload][1] at N. */
struct adv_result {
	bool ok;
	struct adv_run run[ADV_MAX_WL][2];
};

/* Simulate the layout files paths[0..n-1] (jobs.c); 0, or -1 if any run failed. */
int adv_simulate(const struct adv_opts *o, char *const *paths, unsigned int n,
		 struct adv_result *res);

/* What the workloads do to each field, per operation, from the probe runs. */
enum adv_class { ADV_COLD, ADV_HOT, ADV_SHARED };
struct adv_field {
	double r1, w1; /* reads, writes at 1 CPU */
	unsigned int objs1; /* objects whose field is touched at 1 CPU */
	double rn, wn, missn, stalln; /* at N CPUs: misses are HITM and RFOs */
	enum adv_class cls;
};

/* The probe layout's text for the struct (probe.c). */
char *adv_probe_text(const struct layout *in);
/* Each field's profile from the probe's result; printed to f. */
void adv_profile(const struct adv_opts *o, const struct layout *probe, const struct adv_result *r,
		 struct adv_field *fields, FILE *f);

/* A candidate: items (fields, then the input's pads) in order, ADV_ALIGN between. */
struct adv_cand {
	int tok[2 * ADV_MAX_ITEMS];
	unsigned int ntok;
	unsigned short off[ADV_MAX_ITEMS];
	unsigned int size, lines1;
	double cost;
	char how[48];
};

/*
 * Candidates from in and the profile (search.c): up to max of them into
 * out, best first, the input's own order not among them; how many orders
 * were built into *built.
 */
unsigned int adv_search(const struct layout *in, const struct adv_field *fields,
			struct adv_cand *out, unsigned int max, unsigned int *built);
/* The input's own order as a candidate. */
void adv_input(const struct layout *in, const struct adv_field *fields, struct adv_cand *c);
/* The layout file text of candidate c. */
char *adv_text(const struct layout *in, const struct adv_cand *c);
/* The field moves from in to c, as a diff of the orders. */
void adv_print_moves(FILE *f, const struct layout *in, const struct adv_cand *c);

#endif /* VFSLAB_TOOLS_ADVISE_ADVISE_H */
