// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/'s per-thread context (struct lib_thread, lib/arch.h).  A thread's
 * fields fill in lazily on first use; a port that switches contexts between
 * its CPUs gets them whole, so that nothing is allocated inside a run.
 */
#include <stdlib.h>

#include "lib/arch.h"
#include "lib/stats.h"

__thread struct lib_thread lib_thread_self;

struct lib_thread *lib_thread_new(void)
{
	struct lib_thread *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->stat = stat_block_new();
	if (!t->stat) {
		free(t);
		return NULL;
	}
	return t;
}

void lib_thread_switch(struct lib_thread *prev, const struct lib_thread *next)
{
	*prev = lib_thread_self;
	lib_thread_self = *next;
}
