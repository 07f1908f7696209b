// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab fstest: pjdfstest's command language, one invocation per line,
 * against one vfslab VFS (default) or the host kernel (--host).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cmd.h"
#include "tools/fstest.h"
#include "tools/fstest_vfs.h"
#include "vfs/vfs.h"

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
	const char *variant = NULL;
	bool host = false, chroot_cwd = true;
	struct fstest_host h;
	struct fstest_vfs fv;
	struct vfs_config cfg;
	struct vfs *vfs = NULL;
	const struct fstest_backend *be;
	void *ctx;
	int c, bad = 0, ret = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'H':
			host = true;
			break;
		case 'C':
			chroot_cwd = false;
			break;
		case 'v':
			variant = optarg;
			break;
		case 'h':
			fstest_usage(stdout);
			return 0;
		default:
			fstest_usage(stderr);
			return 2;
		}
	}
	if (host && variant) {
		cli_error("fstest", "--variant applies to vfslab, not to --host");
		return 2;
	}
	if (host) {
		if (fstest_host_init(&h, chroot_cwd, stderr) < 0)
			return 1;
		be = &fstest_host_backend;
		ctx = &h;
	} else {
		if (cli_config("fstest", variant, &cfg))
			return 2;
		vfs = cli_vfs_new("fstest", &cfg);
		if (!vfs)
			return 1;
		if (fstest_vfs_init(&fv, vfs)) {
			cli_error("fstest", "cannot create the initial task");
			cli_vfs_destroy("fstest", vfs);
			return 1;
		}
		be = &fstest_vfs_backend;
		ctx = &fv;
	}
	/* "--" then one invocation on the command line, like pjdfstest. */
	if (optind > 1 && !strcmp(argv[optind - 1], "--")) {
		bad = fstest_run_argv(be, ctx, argc - optind, argv + optind, stdout, stderr);
	} else if (optind == argc) {
		bad = fstest_run(be, ctx, stdin, stdout, stderr, "<stdin>");
	} else {
		for (int i = optind; i < argc; i++) {
			FILE *in = fopen(argv[i], "r");

			if (!in) {
				cli_error("fstest", "%s: cannot open", argv[i]);
				ret = 1;
				continue;
			}
			c = fstest_run(be, ctx, in, stdout, stderr, argv[i]);
			bad += c < 0 ? 1 : c;
			fclose(in);
		}
	}
	fflush(stdout);
	if (host) {
		fstest_host_fini(&h);
	} else {
		fstest_vfs_fini(&fv);
		if (cli_vfs_destroy("fstest", vfs))
			ret = 1;
	}
	if (bad)
		ret = 1;
	return ret;
}
