// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab sim: the simulator lives in a helper program, vfslab-sim, built on
 * an instrumented copy of lib/ and vfs/ (two copies of every VFS symbol
 * cannot share one binary); its own cmd_sim() is tools/simrun/cmd.c. vfslab
 * execs it (tools/simrun/helper.c finds it), except for the commands that
 * measure this machine.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cmd.h"
#include "tools/simrun/calib.h"

int cmd_sim(int argc, char **argv)
{
	char path[PATH_MAX + 16] = "";
	char **args;

	/* These measure this machine: they run here, natively. */
	if (argc > 1 && !strcmp(argv[1], "calibrate"))
		return sim_calibrate_cmd(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "validate"))
		return sim_validate_cmd(argc - 1, argv + 1);
	args = calloc(argc + 2, sizeof(*args));
	if (!args || (sim_helper_path(path, sizeof(path)) && !path[0])) {
		cli_error("sim", "cannot find the vfslab-sim program");
		free(args);
		return 1;
	}
	/* vfslab-sim parses the rest. */
	if (cli_parse_only) {
		free(args);
		return 0;
	}
	args[0] = path;
	args[1] = "sim";
	for (int i = 1; i < argc; i++)
		args[i + 1] = argv[i];
	execv(path, args);
	cli_error("sim", "cannot run %s: %s", path, strerror(errno));
	free(args);
	return 1;
}
