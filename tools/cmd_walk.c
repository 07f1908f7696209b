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
#include <string.h>

#include "tools/cmd.h"
#include "tools/sys/names.h"
#include "tools/walk/walk.h"

static void walk_usage(FILE *f)
{
	fprintf(f,
		"usage: vfslab walk [--trace] [--no-create] [-e FSTEST-LINE]... [--as UID[:GID]]\n"
		"                   [--nofollow] [--resolve FLAGS] [--variant SPEC] PATH\n\n"
		"Creates PATH in a fresh VFS (directories 0755, the last component a\n"
		"file) unless --no-create, runs the -e lines (pjdfstest language, e.g.\n"
		"-e 'symlink /a/b /l'), then walks PATH as stat() does and prints the result; --trace prints\n"
		"every step: components, hashes, d_seq samples, permission checks,\n"
		"symlinks, and where and why the walk left RCU mode.\n\n"
		"PATH is taken byte for byte (spaces and ':' are name bytes), up to 4095\n"
		"bytes (ENAMETOOLONG beyond, as on Linux). In an -e line, a ':' word of its\n"
		"own separates calls, as in pjdfstest. --variant hash-salt=N gives hashes\n"
		"that are the same in every run (the default salt is the parent's address).\n"
		"--resolve walks as openat2(2) with those RESOLVE_ flags, comma-separated\n"
		"(RESOLVE_BENEATH, RESOLVE_IN_ROOT, RESOLVE_NO_XDEV, RESOLVE_NO_SYMLINKS,\n"
		"RESOLVE_NO_MAGICLINKS, RESOLVE_CACHED), from the working directory.\n");
}

/* "RESOLVE_A,RESOLVE_B" into *out; 0, or -1 after cli_error naming the bad word. */
static int walk_resolve(const char *arg, unsigned int *out)
{
	const char *p = arg;

	*out = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		const struct sys_name *n = sys_name_findn(sys_resolve_flags, p, len);

		if (!n) {
			cli_error("walk", "--resolve: unknown flag '%.*s' in '%s'", (int)len, p,
				  arg);
			return -1;
		}
		*out |= (unsigned int)n->value;
		if (!p[len])
			return 0;
		p += len + 1;
	}
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
	case 'r':
		if (walk_resolve(arg, &o->resolve))
			return 2;
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
		{ "resolve", required_argument, NULL, 'r' },
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
