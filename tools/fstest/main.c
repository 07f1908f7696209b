// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab fstest's run: the backend its options chose, the scripts or the
 * one invocation it was given, and the exit status.
 */
#include <stdio.h>

#include "tools/cmd.h"
#include "tools/fstest/fstest.h"
#include "tools/fstest/vfs.h"
#include "tools/interrupt.h"
#include "vfs/vfs.h"

/* Every script in turn (stdin without one); the lines that got a diagnostic. */
static int run_inputs(const struct fstest_opts *o, const struct fstest_backend *be, void *ctx,
		      int *ret)
{
	int bad = 0, c;

	if (o->one_invocation)
		return fstest_run_argv(be, ctx, o->argc, o->argv, stdout, stderr);
	if (!o->argc)
		return fstest_run(be, ctx, stdin, stdout, stderr, "<stdin>");
	for (int i = 0; i < o->argc && !intr_pending(); i++) {
		FILE *in = fopen(o->argv[i], "r");

		if (!in) {
			cli_error("fstest", "%s: cannot open", o->argv[i]);
			*ret = 1;
			continue;
		}
		c = fstest_run(be, ctx, in, stdout, stderr, o->argv[i]);
		bad += c < 0 ? 1 : c;
		fclose(in);
	}
	return bad;
}

int fstest_main(const struct fstest_opts *o)
{
	struct fstest_host h;
	struct fstest_vfs fv;
	struct vfs_config cfg;
	struct vfs *vfs = NULL;
	int bad, ret = 0;

	if (o->host) {
		if (fstest_host_init(&h, o->chroot_cwd, stderr) < 0)
			return 1;
		bad = run_inputs(o, &fstest_host_backend, &h, &ret);
		fflush(stdout);
		fstest_host_fini(&h);
		if (intr_pending())
			return intr_status();
		return bad ? 1 : ret;
	}
	if (cli_config("fstest", o->variant, &cfg))
		return 2;
	vfs = cli_vfs_new("fstest", &cfg);
	if (!vfs)
		return 1;
	if (fstest_vfs_init(&fv, vfs)) {
		cli_error("fstest", "cannot create the initial task");
		cli_vfs_destroy("fstest", vfs);
		return 1;
	}
	bad = run_inputs(o, &fstest_vfs_backend, &fv, &ret);
	fflush(stdout);
	fstest_vfs_fini(&fv);
	if (cli_vfs_destroy("fstest", vfs))
		ret = 1;
	if (intr_pending())
		return intr_status();
	return bad ? 1 : ret;
}
