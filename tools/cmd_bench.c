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
		"  --format table|csv|json\n"
		"  --plot FILE         ops/s against tasks, .png or .svg (needs gnuplot)\n"
		"  --json FILE         also write the results as JSON to FILE\n"
		"  --tmpdir DIR        the kernel side's directory (default /dev/shm)\n"
		"  --no-pin            do not pin tasks to CPUs\n"
		"  --tree N            instead: build a tree of N files; time and memory per file\n");
}

static void list_workloads(void)
{
	unsigned int nr;
	const struct workload *const *all = workload_all(&nr);

	for (unsigned int i = 0; i < nr; i++)
		printf("%-10s %s\n%10s loop: %s\n", all[i]->name, all[i]->desc, "", all[i]->loop);
}

int cmd_bench(int argc, char **argv)
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct bench_opts o;
	static struct bench_result res[64 * BENCH_MAX_SIDES];
	const char *variants[BENCH_MAX_SIDES], *plot = NULL, *json = NULL;
	int nr_variants = 0, c, nr = 0;
	bool peer = true;
	enum bench_format fmt = BENCH_TABLE;
	long tree = 0;
	char *end;

	bench_cli_defaults(&o);
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
		case 'i':
		case 'r':
		case 'e':
		case 'f':
			if (bench_cli_option(&o, c, optarg, &fmt))
				return 2;
			break;
		case 'm':
			if (!strcmp(optarg, "processes")) {
				o.processes = true;
			} else if (strcmp(optarg, "threads")) {
				cli_error("bench", "--mode: threads or processes, not '%s'",
					  optarg);
				return 2;
			}
			break;
		case 'v':
			if (nr_variants == BENCH_MAX_SIDES - 1) {
				cli_error("bench", "at most %d variants", BENCH_MAX_SIDES - 1);
				return 2;
			}
			variants[nr_variants++] = optarg;
			break;
		case 'p':
			if (!strcmp(optarg, "none")) {
				peer = false;
			} else if (strcmp(optarg, "kernel")) {
				cli_error("bench", "--peer: kernel or none, not '%s'", optarg);
				return 2;
			}
			break;
		case 'P':
			plot = optarg;
			break;
		case 'J':
			json = optarg;
			break;
		case 'T':
			o.tmpdir = optarg;
			break;
		case 'n':
			o.pin = false;
			break;
		case 'l':
			list_workloads();
			return 0;
		case 'R':
			tree = strtol(optarg, &end, 10);
			if (*end || tree < 1 || tree > 100000000) {
				cli_error("bench", "--tree: 1 to 100000000 files, not '%s'",
					  optarg);
				return 2;
			}
			break;
		case 'h':
			bench_usage(stdout);
			return 0;
		default:
			bench_usage(stderr);
			return 2;
		}
	}
	if (optind < argc - 1) {
		bench_usage(stderr);
		return 2;
	}
	if (tree)
		return bench_tree(tree, peer, o.tmpdir) ? 1 : 0;
	o.wl = workload_find(optind < argc ? argv[optind] : "stat2");
	if (!o.wl) {
		cli_error("bench", "unknown workload '%s' (see `vfslab bench --list`)",
			  argv[optind]);
		return 2;
	}
	if (peer) {
		o.sides[0].kernel = true;
		snprintf(o.sides[0].label, sizeof(o.sides[0].label), "kernel (%s)", o.tmpdir);
		o.nr_sides = 1;
	}
	if (!nr_variants && bench_cli_side(&o, NULL))
		return 2;
	for (int i = 0; i < nr_variants; i++)
		if (bench_cli_side(&o, variants[i]))
			return 2;
	bench_cli_finish(&o);
	if (bench_run(&o, res, &nr)) {
		cli_error("bench", "%s: the run failed", o.wl->name);
		return 1;
	}
	bench_report(stdout, fmt, &o, res, nr);
	if (json) {
		FILE *f = fopen(json, "w");

		if (!f) {
			cli_error("bench", "--json: cannot write %s", json);
			return 1;
		}
		bench_report(f, BENCH_JSON, &o, res, nr);
		fclose(f);
	}
	if (plot && bench_plot(plot, &o, res, nr))
		return 1;
	for (int i = 0; i < nr; i++)
		if (res[i].errors)
			return 1;
	return 0;
}
