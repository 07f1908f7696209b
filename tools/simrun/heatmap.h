/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * vfslab sim --report html|svg (tools/simrun/heatmap.c): each struct drawn
 * as its 64-byte lines, fields as boxes sized by bytes and coloured by the
 * time lost (or the transfers) on them per operation, every side of a run
 * next to the others, from the contention report's per-field sums
 * (struct c2c_heat). The HTML page adds the functions behind each field and
 * the throughput curve; the SVG is the drawing alone.
 */
#ifndef VFSLAB_TOOLS_SIMRUN_HEATMAP_H
#define VFSLAB_TOOLS_SIMRUN_HEATMAP_H

#include <stdbool.h>

#include "tools/simrun/simrun.h"

struct heatmap_run {
	const char *title; /* "d_lockref on spr" */
	const char *note; /* a scenario's claim, or NULL */
	bool scenario; /* the sides are a scenario's before and after */
	const char *profile;
	const struct bench_opts *o;
	const struct sim_result *res; /* in run order: CPU count, then side */
	int nr;
};

/* Keep one run (a section of the page): its heat at its largest CPU count and its curve. */
void heatmap_add(const struct heatmap_run *run);
/* Write every section kept, as a page or an SVG; 0, or 1 after cli_error. */
int heatmap_write(const char *file, bool svg);

#endif /* VFSLAB_TOOLS_SIMRUN_HEATMAP_H */
