// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab sim: the simulator lives in a second program, tools/vfslab-sim,
 * built on an instrumented copy of lib/ and vfs/ (two copies of every VFS
 * symbol cannot share one binary). vfslab execs it from its own directory;
 * inside vfslab-sim this file is compiled with VFSLAB_SIM_TOOL and runs it.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cmd.h"

#ifdef VFSLAB_SIM_TOOL
#include "tools/sim/simrun.h"

int cmd_sim(int argc, char **argv)
{
	return sim_cmd(argc, argv);
}
#else
#include "tools/sim/calib.h"

int cmd_sim(int argc, char **argv)
{
	char self[PATH_MAX], path[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char **args = calloc(argc + 2, sizeof(*args));
	char *slash;

	/* These measure this machine: they run here, natively. */
	if (argc > 1 && !strcmp(argv[1], "calibrate")) {
		free(args);
		return sim_calibrate_cmd(argc - 1, argv + 1);
	}
	if (argc > 1 && !strcmp(argv[1], "validate")) {
		free(args);
		return sim_validate_cmd(argc - 1, argv + 1);
	}
	if (n <= 0 || !args) {
		cli_error("sim", "cannot find the vfslab-sim program");
		return 1;
	}
	self[n] = '\0';
	slash = strrchr(self, '/');
	*slash = '\0';
	snprintf(path, sizeof(path), "%s/vfslab-sim", self);
	args[0] = path;
	args[1] = "sim";
	for (int i = 1; i < argc; i++)
		args[i + 1] = argv[i];
	execv(path, args);
	cli_error("sim", "cannot run %s: %s", path, strerror(errno));
	free(args);
	return 1;
}
#endif
