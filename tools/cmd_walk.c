// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab walk: a teaching trace of one path walk. It builds the path in a
 * fresh VFS (or runs fstest lines given with -e), then walks it the way
 * stat() does and prints each step: the component and its hash, the dcache
 * answer and the d_seq it sampled, permission checks, symlinks, and where
 * and why the walk left RCU mode.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "tools/cmd.h"
#include "tools/walk/walk.h"

static void walk_usage(FILE *f)
{
	fprintf(f,
		"usage: vfslab walk [--trace] [--no-create] [-e FSTEST-LINE]... [--as UID[:GID]]\n"
		"                   [--nofollow] [--variant SPEC] PATH\n\n"
		"Creates PATH in a fresh VFS (directories 0755, the last component a\n"
		"file) unless --no-create, runs the -e lines (pjdfstest language, e.g.\n"
		"-e 'symlink /a/b /l'), then walks PATH as stat() does and prints the result; --trace prints\n"
		"every step: components, hashes, d_seq samples, permission checks,\n"
		"symlinks, and where and why the walk left RCU mode.\n\n"
		"PATH is taken byte for byte (spaces and ':' are name bytes), up to 4095\n"
		"bytes (ENAMETOOLONG beyond, as on Linux). In an -e line, a ':' word of its\n"
		"own separates calls, as in pjdfstest. --variant hash-salt=N gives hashes\n"
		"that are the same in every run (the default salt is the parent's address).\n");
}

/* One option into the struct walk_opts at ctx; -1 to go on, else the exit status. */
static int walk_option(void *ctx, int opt, const char *arg)
{
	struct walk_opts *o = ctx;

	switch (opt) {
	case 't':
		o->steps = true;
		break;
	case 'n':
		o->create = false;
		break;
	case 'l':
		o->follow = false;
		break;
	case 'e':
		if (o->nlines == WALK_MAX_LINES) {
			cli_error("walk", "at most 64 -e lines");
			return 2;
		}
		o->lines[o->nlines++] = arg;
		break;
	case 'a':
		if (cli_ids("walk", "--as", arg, &o->uid, &o->gid))
			return 2;
		break;
	case 'v':
		o->variant = arg;
		break;
	case 'h':
		walk_usage(stdout);
		return 0;
	default:
		walk_usage(stderr);
		return 2;
	}
	return -1;
}

/* The options into o; -1 to go on, else the exit status. */
static int walk_options(int argc, char **argv, struct walk_opts *o)
{
	static const struct option opts[] = {
		{ "trace", no_argument, NULL, 't' },
		{ "no-create", no_argument, NULL, 'n' },
		{ "nofollow", no_argument, NULL, 'l' },
		{ "as", required_argument, NULL, 'a' },
		{ "variant", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ret = cli_options(argc, argv, "e:h", opts, walk_option, o);

	if (ret >= 0)
		return ret;
	if (optind != argc - 1) {
		walk_usage(stderr);
		return 2;
	}
	o->path = argv[optind];
	return -1;
}

int cmd_walk(int argc, char **argv)
{
	struct walk_opts o = { .create = true, .follow = true };
	int ret = walk_options(argc, argv, &o);

	if (ret >= 0)
		return ret;
	return cli_parse_only ? 0 : walk_run(&o);
}
