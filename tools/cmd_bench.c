// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab bench: run a will-it-scale-style workload on vfslab variants and,
 * beside them in the same run, on the host kernel; report ops/s, ratios and
 * the VFS event counters per operation.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/bench/bench.h"
#include "tools/cmd.h"
#include "tools/interrupt.h"

static void bench_usage(FILE *f)
{
	fprintf(f,
		"usage: vfslab bench [WORKLOAD] [options]\n"
		"       vfslab bench --list\n\n"
		"Runs WORKLOAD (default stat2) on vfslab and on the host kernel (a tmpfs\n"
		"directory) in one run, the sides taking turns interval by interval.\n\n"
		"  --tasks LIST        task counts: 1,2,4 or 1-4 (default: 1 to the CPU count)\n"
		"  --mode threads|processes\n"
		"                      threads share one fd table; processes have their own\n"
		"  --variant SPEC      a vfslab side built with SPEC (repeatable; see\n"
		"                      `vfslab help variants`); default: one default side\n"
		"  --peer kernel|none  measure the host kernel too (default: kernel)\n"
		"  --interval SECONDS  one sample (default 0.5)\n"
		"  --rounds N          samples per side after one warm-up round (default 5)\n"
		"  --entry-ns N|host   spend N ns at each vfslab syscall entry, or the host's\n"
		"                      measured getppid() cost (default 0)\n"
		"  --format table|csv|json|wis\n"
		"                      wis: will-it-scale's runtest.py CSV of the vfslab side\n"
		"  --plot FILE         ops/s against tasks, .png or .svg (needs gnuplot)\n"
		"  --json FILE         also write the results as JSON to FILE\n"
		"  --tmpdir DIR        the kernel side's directory (default /dev/shm)\n"
		"  --no-pin            do not pin tasks to CPUs\n"
		"  --tree N            instead: build a tree of N files; time and memory per file\n"
		"                      (one --variant at most; the dentry hash sized to the tree\n"
		"                      unless it sets hash-shift)\n"
		"  --phases            with --tree: time each call and each step of the open\n");
}

static void list_workloads(void)
{
	unsigned int nr;
	const struct workload *const *all = workload_all(&nr);
	int width = 0;

	for (unsigned int i = 0; i < nr; i++)
		width = max_t(int, width, (int)strlen(all[i]->name));
	for (unsigned int i = 0; i < nr; i++)
		printf("%-*s %s\n%*s loop: %s\n", width, all[i]->name, all[i]->desc, width, "",
		       all[i]->loop);
}

struct bench_cmd {
	struct bench_opts o;
	const char *variants[BENCH_MAX_SIDES], *plot, *json, *workload;
	int nr_variants;
	bool peer;
	enum bench_format fmt;
	long tree; /* --tree N: build N files instead */
	bool phases; /* --phases: the tree's time call by call, step by step */
};

/* One option (c) into bc; -1 to go on, else the exit status. */
static int bench_option(void *ctx, int c, const char *arg)
{
	struct bench_cmd *bc = ctx;
	unsigned long long n;

	switch (c) {
	case 't':
	case 'i':
	case 'r':
	case 'e':
		return bench_cli_option(&bc->o, c, arg, &bc->fmt) ? 2 : -1;
	case 'f':
		if (!strcmp(arg, "wis")) {
			bc->fmt = BENCH_WIS;
			return -1;
		}
		if (strcmp(arg, "table") && strcmp(arg, "csv") && strcmp(arg, "json")) {
			cli_error("bench", "--format: table, csv, json or wis, not '%s'", arg);
			return 2;
		}
		return bench_cli_option(&bc->o, c, arg, &bc->fmt) ? 2 : -1;
	case 'm':
		if (!strcmp(arg, "processes")) {
			bc->o.processes = true;
		} else if (strcmp(arg, "threads")) {
			cli_error("bench", "--mode: threads or processes, not '%s'", arg);
			return 2;
		}
		return -1;
	case 'v':
		if (bc->nr_variants == BENCH_MAX_SIDES - 1) {
			cli_error("bench", "at most %d variants", BENCH_MAX_SIDES - 1);
			return 2;
		}
		bc->variants[bc->nr_variants++] = arg;
		return -1;
	case 'p':
		if (!strcmp(arg, "none")) {
			bc->peer = false;
		} else if (strcmp(arg, "kernel")) {
			cli_error("bench", "--peer: kernel or none, not '%s'", arg);
			return 2;
		}
		return -1;
	case 'P':
		bc->plot = arg;
		return -1;
	case 'J':
		bc->json = arg;
		return -1;
	case 'T':
		bc->o.tmpdir = arg;
		return -1;
	case 'n':
		bc->o.pin = false;
		return -1;
	case 'l':
		list_workloads();
		return 0;
	case 'R':
		if (cli_ull("bench", "--tree", arg, 1, 100000000, &n))
			return 2;
		bc->tree = (long)n;
		return -1;
	case 'H':
		bc->phases = true;
		return -1;
	case 'h':
		bench_usage(stdout);
		return 0;
	default:
		bench_usage(stderr);
		return 2;
	}
}

/* The options into bc; -1 to go on, else the exit status. */
static int bench_options(int argc, char **argv, struct bench_cmd *bc)
{
	static const struct option opts[] = {
		{ "tasks", required_argument, NULL, 't' },
		{ "mode", required_argument, NULL, 'm' },
		{ "variant", required_argument, NULL, 'v' },
		{ "peer", required_argument, NULL, 'p' },
		{ "interval", required_argument, NULL, 'i' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "entry-ns", required_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'f' },
		{ "plot", required_argument, NULL, 'P' },
		{ "json", required_argument, NULL, 'J' },
		{ "tmpdir", required_argument, NULL, 'T' },
		{ "no-pin", no_argument, NULL, 'n' },
		{ "list", no_argument, NULL, 'l' },
		{ "tree", required_argument, NULL, 'R' },
		{ "phases", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ret = cli_options(argc, argv, "h", opts, bench_option, bc);

	if (ret >= 0)
		return ret;
	if (optind < argc - 1) {
		bench_usage(stderr);
		return 2;
	}
	bc->workload = optind < argc ? argv[optind] : NULL;
	return -1;
}

/* The sides: the kernel's first (unless --peer none), then each variant's; 0 or 2. */
static int bench_sides(struct bench_cmd *bc)
{
	struct bench_opts *o = &bc->o;

	if (bc->peer) {
		o->sides[0].kernel = true;
		snprintf(o->sides[0].label, sizeof(o->sides[0].label), "kernel (%s)", o->tmpdir);
		o->nr_sides = 1;
	}
	if (!bc->nr_variants && bench_cli_side(o, NULL))
		return 2;
	for (int i = 0; i < bc->nr_variants; i++)
		if (bench_cli_side(o, bc->variants[i]))
			return 2;
	if (bc->fmt == BENCH_WIS && bc->nr_variants > 1) {
		cli_error("bench",
			  "--format wis: will-it-scale's CSV holds one side, not %d "
			  "variants",
			  bc->nr_variants);
		return 2;
	}
	return 0;
}

/* Run the workload and report it (table, JSON file, plot); the exit status. */
static int bench_go(struct bench_cmd *bc)
{
	static struct bench_result res[64 * BENCH_MAX_SIDES];
	const struct bench_opts *o = &bc->o;
	int nr = 0, rc = bench_run(o, res, &nr);

	if (rc < 0) {
		cli_error("bench", "%s: the run failed", o->wl->name);
		return 1;
	}
	if (nr)
		bench_report(stdout, bc->fmt, o, res, nr);
	if (rc == BENCH_INTERRUPTED) {
		/* No --json or --plot file: they would not say they are partial. */
		bench_report_partial(stdout, bc->fmt, "bench", o, res, nr);
		return intr_status();
	}
	if (bc->json) {
		FILE *f = fopen(bc->json, "w");

		if (!f) {
			cli_error("bench", "--json: cannot write %s", bc->json);
			return 1;
		}
		bench_report(f, BENCH_JSON, o, res, nr);
		if (cli_fclose("bench", bc->json, f))
			return 1;
	}
	if (bc->plot && bench_plot(bc->plot, o, res, nr, NULL))
		return 1;
	for (int i = 0; i < nr; i++)
		if (res[i].errors)
			return 1;
	return 0;
}

/* bench --tree N: one vfslab side (at most one --variant), the kernel's beside it. */
static int bench_tree_go(struct bench_cmd *bc)
{
	struct tree_opts t = { .n = bc->tree,
			       .peer = bc->peer,
			       .phases = bc->phases,
			       .tmpdir = bc->o.tmpdir,
			       .variant = bc->nr_variants ? bc->variants[0] : NULL };
	struct vfs_config cfg;
	int ret;

	if (bc->nr_variants > 1) {
		cli_error("bench", "--tree builds one vfslab side: one --variant, not %d",
			  bc->nr_variants);
		return 2;
	}
	if (t.variant && cli_config("bench", t.variant, &cfg))
		return 2;
	if (cli_parse_only)
		return 0;
	intr_catch();
	ret = bench_tree(&t) ? 1 : 0;
	return intr_pending() ? intr_status() : ret;
}

int cmd_bench(int argc, char **argv)
{
	static struct bench_cmd bc;
	int ret;

	memset(&bc, 0, sizeof(bc));
	bc.peer = true;
	bc.fmt = BENCH_TABLE;
	bench_cli_defaults(&bc.o, "bench");
	ret = bench_options(argc, argv, &bc);
	if (ret >= 0)
		return ret;
	if (bc.phases && !bc.tree) {
		cli_error("bench", "--phases goes with --tree N");
		return 2;
	}
	if (bc.tree)
		return bench_tree_go(&bc);
	bc.o.wl = workload_find(bc.workload ? bc.workload : "stat2");
	if (!bc.o.wl) {
		cli_error("bench", "unknown workload '%s' (see `vfslab bench --list`)",
			  bc.workload);
		return 2;
	}
	if (bench_sides(&bc))
		return 2;
	if (cli_parse_only)
		return 0;
	intr_catch();
	bench_cli_finish(&bc.o);
	return bench_go(&bc);
}
