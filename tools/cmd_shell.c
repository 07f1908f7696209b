// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab shell: pjdfstest's language interactively, against one VFS whose
 * shell task keeps its descriptors from line to line, with commands to
 * look inside: a dentry and its hash chain, the fd table's bitmaps, the
 * struct layouts, a traced walk, the counters. Line editing and history
 * come from libedit.
 */
#include <getopt.h>
#include <stdio.h>

#include "tools/cmd.h"
#include "tools/shell/shell.h"

int cmd_shell(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *variant = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			variant = optarg;
			break;
		case 'h':
			printf("usage: vfslab shell [--variant SPEC]\n\n%s", shell_help);
			return 0;
		default:
			fprintf(stderr, "usage: vfslab shell [--variant SPEC]\n");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "usage: vfslab shell [--variant SPEC]\n");
		return 2;
	}
	return shell_run(variant);
}
