/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The seeds as runnable comparisons: a workload, the kernel's variant before
 * and after a change, and what the change's authors measured.
 */
#ifndef VFSLAB_TOOLS_SCENARIOS_H
#define VFSLAB_TOOLS_SCENARIOS_H

#include <stdbool.h>

struct scenario {
	const char *name;
	const char *workload;
	bool processes;
	const char *before, *after; /* variant specs */
	const char *claim; /* one line: what the seed says */
	double published; /* after/before as published; 0: no figure */
	int published_cpus; /* at how many CPUs (threads or copies) */
	const char *source; /* who measured it, where */
	const char *explain; /* a paragraph: what the kernel changed and why */
};

const struct scenario *scenario_find(const char *name);
const struct scenario *scenario_all(unsigned int *nr);

#endif /* VFSLAB_TOOLS_SCENARIOS_H */
