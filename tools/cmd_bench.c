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

int bench_cli_tasks(const char *s, struct bench_opts *o)
{
	char *copy = strdup(s), *save = NULL;
	int ret = 0;

	o->nr_tasks = 0;
	for (char *t = strtok_r(copy, ",", &save); t && !ret; t = strtok_r(NULL, ",", &save)) {
		char *end;
		long a = strtol(t, &end, 10), b = a;

		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (*end || a < 1 || b < a || b > BENCH_MAX_TASKS)
			ret = -1;
		for (long n = a; !ret && n <= b; n++) {
			if (o->nr_tasks == (int)ARRAY_SIZE(o->tasks))
				ret = -1;
			else
				o->tasks[o->nr_tasks++] = n;
		}
	}
	free(copy);
	return ret || !o->nr_tasks ? -1 : 0;
}

static void list_workloads(void)
{
	unsigned int nr;
	const struct workload *const *all = workload_all(&nr);

	for (unsigned int i = 0; i < nr; i++)
		printf("%-10s %s\n%10s loop: %s\n", all[i]->name, all[i]->desc, "", all[i]->loop);
}

int bench_cli_side(struct bench_opts *o, const char *spec)
{
	struct bench_side *s;

	if (o->nr_sides == BENCH_MAX_SIDES) {
		cli_error("bench", "at most %d sides", BENCH_MAX_SIDES);
		return -1;
	}
	s = &o->sides[o->nr_sides];
	memset(s, 0, sizeof(*s));
	if (cli_config("bench", spec, &s->cfg))
		return -1;
	snprintf(s->label, sizeof(s->label), spec ? "vfslab %s" : "vfslab", spec);
	o->nr_sides++;
	return 0;
}

int bench_cli_defaults(struct bench_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->interval = 0.5;
	o->rounds = 5;
	o->pin = true;
	o->tmpdir = "/dev/shm";
	return 0;
}

/* The options bench and compare share: --tasks --interval --rounds --entry-ns --format. */
int bench_cli_option(struct bench_opts *o, int opt, const char *arg, enum bench_format *fmt)
{
	char *end;

	switch (opt) {
	case 't':
		if (bench_cli_tasks(arg, o)) {
			cli_error("bench", "--tasks: expected e.g. 1,2,4 or 1-4 (at most %d)",
				  BENCH_MAX_TASKS);
			return -1;
		}
		return 0;
	case 'i':
		o->interval = strtod(arg, &end);
		if (*end || !(o->interval >= 0.01 && o->interval <= 60)) {
			cli_error("bench", "--interval: 0.01 to 60 seconds, not '%s'", arg);
			return -1;
		}
		return 0;
	case 'r':
		o->rounds = strtol(arg, &end, 10);
		if (*end || o->rounds < 1 || o->rounds > BENCH_MAX_ROUNDS) {
			cli_error("bench", "--rounds: 1 to %d, not '%s'", BENCH_MAX_ROUNDS, arg);
			return -1;
		}
		return 0;
	case 'e':
		if (!strcmp(arg, "host")) {
			o->entry_host = true;
			return 0;
		}
		o->entry_ns = strtol(arg, &end, 10);
		if (*end || o->entry_ns < 0 || o->entry_ns > 1000000) {
			cli_error("bench", "--entry-ns: host or 0..1000000, not '%s'", arg);
			return -1;
		}
		return 0;
	case 'f':
		if (!strcmp(arg, "csv"))
			*fmt = BENCH_CSV;
		else if (!strcmp(arg, "json"))
			*fmt = BENCH_JSON;
		else if (!strcmp(arg, "table"))
			*fmt = BENCH_TABLE;
		else {
			cli_error("bench", "--format: table, csv or json, not '%s'", arg);
			return -1;
		}
		return 0;
	}
	return -1;
}

/* After parsing: default task sweep, the host's entry cost, progress. */
void bench_cli_finish(struct bench_opts *o)
{
	if (!o->nr_tasks) {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		char range[32];

		snprintf(range, sizeof(range), "1-%ld", ncpu > 0 ? ncpu : 1);
		bench_cli_tasks(range, o);
	}
	if (o->entry_host)
		o->entry_ns = (long)(bench_host_syscall_ns() + 0.5);
	o->progress = isatty(STDERR_FILENO);
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
