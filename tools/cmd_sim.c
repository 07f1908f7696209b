// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab sim: the simulator lives in a helper program, vfslab-sim, built on
 * an instrumented copy of lib/ and vfs/ (two copies of every VFS symbol
 * cannot share one binary); its own cmd_sim() is tools/simrun/cmd.c. vfslab
 * execs it from the directory vfslab runs from, which is the build tree's
 * tools/, or, installed, from the package's libexec directory.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cmd.h"

int cmd_sim(int argc, char **argv)
{
	char self[PATH_MAX], path[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char **args = calloc(argc + 2, sizeof(*args));
	const char *dirs[2];

	if (n <= 0 || !args) {
		cli_error("sim", "cannot find the vfslab-sim program");
		return 1;
	}
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	/* Installed, the helper is in libexec; elsewhere, next to vfslab. */
	dirs[0] = strcmp(self, VFSLAB_BINDIR) ? self : VFSLAB_PKGLIBEXECDIR;
	dirs[1] = dirs[0] == self ? VFSLAB_PKGLIBEXECDIR : self;
	args[0] = path;
	args[1] = "sim";
	for (int i = 1; i < argc; i++)
		args[i + 1] = argv[i];
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/vfslab-sim", dirs[i]);
		execv(path, args);
	}
	cli_error("sim", "cannot run %s: %s", path, strerror(errno));
	free(args);
	return 1;
}
