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

/* Exec vfslab-sim's command name with argv's arguments; returns only on failure. */
static int run_helper(const char *name, int argc, char **argv)
{
	char path[PATH_MAX + 16] = "";
	char **args = calloc(argc + 2, sizeof(*args));

	if (!args || (sim_helper_path(path, sizeof(path)) && !path[0])) {
		cli_error(name, "cannot find the vfslab-sim program");
		free(args);
		return 1;
	}
	/* vfslab-sim parses the rest. */
	if (cli_parse_only) {
		free(args);
		return 0;
	}
	args[0] = path;
	args[1] = (char *)name;
	for (int i = 1; i < argc; i++)
		args[i + 1] = argv[i];
	execv(path, args);
	cli_error(name, "cannot run %s: %s", path, strerror(errno));
	free(args);
	return 1;
}

int cmd_sim(int argc, char **argv)
{
	/* These measure this machine: they run here, natively. */
	if (argc > 1 && !strcmp(argv[1], "calibrate"))
		return sim_calibrate_cmd(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "validate"))
		return sim_validate_cmd(argc - 1, argv + 1);
	return run_helper("sim", argc, argv);
}

/* vfslab advise runs its simulations in vfslab-sim too (tools/advise/cmd.c). */
int cmd_advise(int argc, char **argv)
{
	return run_helper("advise", argc, argv);
}
