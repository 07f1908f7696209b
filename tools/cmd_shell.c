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

static const char shell_usage[] = "usage: vfslab shell [--variant SPEC]\n";

/* One option: the variant into the const char * at ctx; -1 to go on, else the exit status. */
static int shell_option(void *ctx, int opt, const char *arg)
{
	switch (opt) {
	case 'v':
		*(const char **)ctx = arg;
		return -1;
	case 'h':
		printf("%s\n%s", shell_usage, shell_help);
		return 0;
	default:
		fputs(shell_usage, stderr);
		return 2;
	}
}

int cmd_shell(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *variant = NULL;
	int ret = cli_options(argc, argv, "h", opts, shell_option, &variant);

	if (ret >= 0)
		return ret;
	if (optind != argc) {
		fputs(shell_usage, stderr);
		return 2;
	}
	return cli_parse_only ? 0 : shell_run(variant);
}
