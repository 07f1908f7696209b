// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab layout: print struct dentry, struct file and struct files_struct
 * as a variant lays them out, the way pahole prints a struct, marking the
 * fields hot paths read and write; --check guards a layout in CI.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cmd.h"
#include "tools/layout/pahole.h"
#include "vfs/layout.h"
#include "vfs/vfs.h"

static void layout_usage(FILE *f)
{
	fprintf(f, "usage: vfslab layout [STRUCT...] [--variant SPEC]\n"
		   "       vfslab layout --list\n"
		   "       vfslab layout --check RULES [--variant SPEC]\n\n"
		   "STRUCT is dentry, file or files_struct (default: all three). Layouts come\n"
		   "from the variant (vfslab help variants): a preset, randomize:SEED, a\n"
		   "layout file, or PRESET+FIELD@OFFSET. RULES is a file (or '-') of lines\n"
		   "'STRUCT: FIELD apart from FIELD...'; exit status 1 on any violation.\n");
}

struct layout_cmd {
	const char *variant, *rules;
	bool list, want[LS_NR], some;
};

/* One option into the struct layout_cmd at ctx; -1 to go on, else the exit status. */
static int layout_option(void *ctx, int opt, const char *arg)
{
	struct layout_cmd *lc = ctx;

	switch (opt) {
	case 'v':
		lc->variant = arg;
		break;
	case 'l':
		lc->list = true;
		break;
	case 'c':
		lc->rules = arg;
		break;
	case 'h':
		layout_usage(stdout);
		return 0;
	default:
		layout_usage(stderr);
		return 2;
	}
	return -1;
}

/* The options into lc; -1 to go on, else the exit status. */
static int layout_options(int argc, char **argv, struct layout_cmd *lc)
{
	static const struct option opts[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "list", no_argument, NULL, 'l' },
		{ "check", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};

	return cli_options(argc, argv, "h", opts, layout_option, lc);
}

/* The STRUCT arguments into lc->want; 0 or 2. */
static int layout_structs(int argc, char **argv, struct layout_cmd *lc)
{
	for (int i = optind; i < argc; i++) {
		enum layout_struct s;

		if (layout_struct_find(argv[i], &s)) {
			cli_error("layout", "unknown struct '%s' (dentry, file, files_struct)",
				  argv[i]);
			return 2;
		}
		lc->want[s] = lc->some = true;
	}
	return 0;
}

static int layout_check(const char *rules, const struct layout *ls)
{
	FILE *in = strcmp(rules, "-") ? fopen(rules, "r") : stdin;
	int bad;

	if (!in) {
		cli_error("layout", "--check: cannot open '%s'", rules);
		return 2;
	}
	bad = pahole_check(in, rules, ls, stdout);
	if (in != stdin)
		fclose(in);
	return bad < 0 ? 2 : bad ? 1 : 0;
}

int cmd_layout(int argc, char **argv)
{
	struct layout_cmd lc = { 0 };
	struct layout ls[LS_NR];
	struct vfs_config cfg;
	char err[512];
	int ret = layout_options(argc, argv, &lc);

	if (ret >= 0)
		return ret;
	if (lc.list) {
		pahole_list_presets(stdout);
		return 0;
	}
	if (cli_config("layout", lc.variant, &cfg))
		return 2;
	if (vfs_config_layouts(&cfg, ls, err, sizeof(err))) {
		cli_error("layout", "%s", err);
		return 1;
	}
	if (lc.rules)
		return cli_parse_only ? 0 : layout_check(lc.rules, ls);
	if (layout_structs(argc, argv, &lc))
		return 2;
	for (int s = 0; s < LS_NR; s++) {
		if (lc.some && !lc.want[s])
			continue;
		pahole_print(&ls[s], stdout);
		pahole_warnings(&ls[s], stdout);
		printf("\n");
	}
	return 0;
}
