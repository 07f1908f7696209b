// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Where vfslab finds the simulator's program, vfslab-sim: beside itself in
 * a build tree, or, installed, in the package's libexec directory.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tools/simrun/calib.h"

int sim_helper_path(char *buf, size_t n)
{
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *dirs[2];
	char *slash;

	if (len <= 0)
		return -1;
	self[len] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	/* Run from where it is installed, vfslab looks in libexec first. */
	dirs[0] = strcmp(self, VFSLAB_BINDIR) ? self : VFSLAB_PKGLIBEXECDIR;
	dirs[1] = dirs[0] == self ? VFSLAB_PKGLIBEXECDIR : self;
	for (int i = 0; i < 2; i++) {
		if (snprintf(buf, n, "%s/vfslab-sim", dirs[i]) >= (int)n)
			return -1;
		if (!access(buf, X_OK))
			return 0;
	}
	return -1;
}
