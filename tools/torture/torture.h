/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * vfslab torture: what a run is asked to do (tools/cmd_torture.c parses the
 * options into struct torture) and the call that runs it.
 */
#ifndef VFSLAB_TOOLS_TORTURE_TORTURE_H
#define VFSLAB_TOOLS_TORTURE_TORTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "vfs/vfs.h"

#define MAX_THREADS 64

struct torture {
	struct vfs_config cfg; /* the torture's defaults, then --variant */
	uint64_t seed;
	unsigned int ntasks;
	unsigned long ops; /* in all; 0: until --seconds */
	double seconds;
	unsigned int check_every;
	bool rss, shrink, verbose;
	double shrink_seconds, hang_seconds;
	int fail_on_op, fail_on_errno;
	bool fail_on_crash, fail_on_hang;
};

/* --fail-on CALL:ERRNO[:crash|:hang] into tt: 0, or -1 if it names none. */
int torture_parse_fail_on(struct torture *tt, const char *spec);

/* Run, replay and shrink a failure: the command's exit status. */
int torture_main(struct torture *tt);

#endif /* VFSLAB_TOOLS_TORTURE_TORTURE_H */
