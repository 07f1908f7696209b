// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab fstest: pjdfstest's command language, one invocation per line,
 * against one vfslab VFS (default) or the host kernel (--host).
 */
#include <getopt.h>
#include <string.h>

#include "tools/cmd.h"
#include "tools/fstest/fstest.h"
#include "tools/interrupt.h"

static void fstest_usage(FILE *f)
{
	fprintf(f,
		"usage: vfslab fstest [--host [--no-chroot]] [--variant SPEC] [FILE...]\n"
		"       vfslab fstest [options] -- [-U umask] [-u uid] [-g gids] CALL ARGS [: ...]\n\n"
		"Reads pjdfstest invocations, one per line (stdin when no FILE), and prints\n"
		"what pjdfstest prints on Linux. All lines of a run share one VFS; `cd PATH`\n"
		"lines change the directory later lines start in.\n\n"
		"  --host         run the calls through the host kernel, in the current\n"
		"                 directory (each line in a forked child with its credentials;\n"
		"                 as root the child is chrooted there)\n"
		"  --no-chroot    with --host: do not chroot\n"
		"  --variant SPEC build the VFS with these variant keys (vfslab help variants)\n");
}

int cmd_fstest(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "host", no_argument, NULL, 'H' },
		{ "no-chroot", no_argument, NULL, 'C' },
		{ "variant", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fstest_opts o = { .chroot_cwd = true };
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'H':
			o.host = true;
			break;
		case 'C':
			o.chroot_cwd = false;
			break;
		case 'v':
			o.variant = optarg;
			break;
		case 'h':
			fstest_usage(stdout);
			return 0;
		default:
			fstest_usage(stderr);
			return 2;
		}
	}
	if (o.host && o.variant) {
		cli_error("fstest", "--variant applies to vfslab, not to --host");
		return 2;
	}
	/* "--" then one invocation on the command line, like pjdfstest. */
	o.one_invocation = optind > 1 && !strcmp(argv[optind - 1], "--");
	o.argc = argc - optind;
	o.argv = argv + optind;
	if (cli_parse_only)
		return 0;
	intr_catch();
	return fstest_main(&o);
}
