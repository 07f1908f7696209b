// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab sim: run a bench workload or a seed scenario on a simulated
 * many-core machine and report simulated ops/s (the table, CSV, JSON and
 * plot of vfslab bench) and, with --report c2c, where the cache-line
 * transfers came from. Here: its usage and options; the simulations it
 * walks are tools/simrun/walk.c's, their output tools/simrun/report.c's.
 */
#include <getopt.h>
#include <sched.h>
#include <string.h>

#include "tools/cmd.h"
#include "tools/interrupt.h"
#include "tools/simrun/heatmap.h"
#include "tools/simrun/jobs.h"
#include "tools/simrun/simcli.h"

#define SIM_DEFAULT_OPS 1000
#define SIM_DEFAULT_TOP 4

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vfslab sim [WORKLOAD|SCENARIO] [options]\n"
		"       vfslab sim --all-scenarios [options]\n"
		"       vfslab sim --list-profiles\n"
		"       vfslab sim calibrate|validate [options]   (each with its own usage)\n\n"
		"Runs a bench workload (default stat2) on a simulated many-core machine: the\n"
		"real VFS code on N virtual CPUs, each basic block costing its instructions,\n"
		"stores through a store buffer, every miss through a MESI model with\n"
		"published latencies, scheduled deterministically (the same command\n"
		"prints the same output on a loaded or an idle machine). A SCENARIO (see\n"
		"`vfslab scenarios`) runs its before and after variants at the seed's CPU\n"
		"count and prints the predicted after/before beside the published ratio.\n\n"
		"  --workload NAME     run this workload (when a scenario has its name); with\n"
		"                      a scenario, run the scenario's variants on it\n"
		"  --scenario NAME     run this scenario\n"
		"  --all-scenarios     every scenario, with a summary\n"
		"  --variant SPEC      a side built with SPEC (repeatable; default: one default\n"
		"                      side); `vfslab help variants` lists the keys\n"
		"  --cpus LIST         virtual CPU counts: 1,2,4 or 1-4 (1 to %d; default\n"
		"                      1,2,4,8,16, a scenario's published count)\n"
		"  --ops N             iterations per virtual CPU (default %d; a scenario\n"
		"                      doubles 50-1000 until its ratio moves by under 1%%)\n"
		"  --seeds N           average N runs, each with its own draw of transfer\n"
		"                      times (the profile's xfer_jitter) and of where each\n"
		"                      vCPU starts (within 2 us) and, with --placement\n"
		"                      drawn, of where each slab's objects lie against the\n"
		"                      lines; and give the ratio's range over them (1 to 16;\n"
		"                      default 1; a scenario: 3)\n"
		"  --seed K            run only the K-th run of a --seeds set (its draws), to\n"
		"                      take one run of a range apart with --report c2c\n"
		"  --placement first|drawn  with --seeds: every size class of the simulated\n"
		"                      heap from its first slot in every run, as a lone run\n"
		"                      has it, or some slots in, drawn per run (default), as\n"
		"                      a slab cache's next object depends on how many it gave\n"
		"                      out before\n"
		"  --profile NAME|FILE|all  the machine: spr, zen4, clx, kunpeng920, or a profile\n"
		"                      file (`vfslab sim calibrate` writes one; default spr,\n"
		"                      a scenario's own machine)\n"
		"  --mode threads|processes\n"
		"  --report c2c        the contention report: hot lines, fields, functions\n"
		"  --report html FILE  the cache-line heat map as a self-contained page: each\n"
		"                      struct's lines, fields coloured by time lost per\n"
		"                      operation, sides next to each other, the curve\n"
		"  --report svg FILE   the heat map's drawing alone, as SVG\n"
		"  --top N             lines in the contention report (default %d)\n"
		"  --format table|csv|json|tsv (tsv: one line per result, for scripts)\n"
		"  --json FILE         also write JSON to FILE\n"
		"  --plot FILE         simulated ops/s against CPUs (.png or .svg, gnuplot)\n"
		"  --entry-ns N        syscall entry plus exit in ns (default: the profile's),\n"
		"                      as vfslab bench --entry-ns sets the native side's\n"
		"  --progress          a line on stderr per simulated run: what, how long\n"
		"  --jobs N            run the simulations (CPU counts, sides, profiles,\n"
		"                      scenarios) in N processes; the output is --jobs 1's\n"
		"                      (--all-scenarios: default one per CPU it may use)\n"
		"  --emit-jobs DIR     write DIR/jobs, one command line per simulation (for\n"
		"                      GNU parallel or a Slurm array), and run nothing\n"
		"  --collect DIR       the report from the results of DIR/jobs' lines\n"
		"  --job K --job-out FILE  run only this command's K-th simulation, its\n"
		"                      result to FILE (what DIR/jobs' lines do)\n",
		SIM_MAX_CPUS, SIM_DEFAULT_OPS, SIM_DEFAULT_TOP);
}

static void list_profiles(void)
{
	unsigned int nr;
	const struct sim_profile *p = sim_profile_all(&nr);

	for (unsigned int i = 0; i < nr; i++) {
		printf("%-11s %s, %u CPUs\n", p[i].name, p[i].machine, sim_profile_cpus(&p[i]));
		printf("%11s transfer ns: SMT %.1f, cluster %.1f, die %.1f, socket %.1f, remote %.1f\n",
		       "", p[i].xfer_ns[SIM_DIST_SMT], p[i].xfer_ns[SIM_DIST_CLUSTER],
		       p[i].xfer_ns[SIM_DIST_DIE], p[i].xfer_ns[SIM_DIST_SOCKET],
		       p[i].xfer_ns[SIM_DIST_REMOTE]);
		printf("%11s %.2f GHz, %.2f cycles/instruction, store buffer %u; %u-byte lines, a "
		       "read of a modified one %s\n",
		       "", p[i].ghz, p[i].cpi, p[i].store_buffer, p[i].line_bytes,
		       p[i].dirty_read_moves ? "moves it" : "shares it");
		printf("%11s LLC %.1f, memory %.0f, atomic %.2f, pause %.2f, syscall %.0f ns, "
		       "upgrade %.2f of a transfer, transfers vary by %.3f,\n%11s a line just "
		       "received is held %.2f of a transfer while a request waits\n",
		       "", p[i].llc_ns, p[i].mem_ns, p[i].atomic_ns, p[i].pause_ns, p[i].syscall_ns,
		       p[i].upgrade, p[i].xfer_jitter, "", p[i].hold);
		printf("%11s %s (sources: tools/sim/profile.c)\n", "", p[i].notes);
	}
}

static int parse_cpus(struct sim_cli *c, const char *s)
{
	if (bench_cli_tasks(s, &c->o))
		return -1;
	for (int i = 0; i < c->o.nr_tasks; i++)
		if (c->o.tasks[i] > SIM_MAX_CPUS)
			return -1;
	return 0;
}

/* What the command line asked for (sim_option() fills it). */
struct sim_args {
	struct sim_cli c;
	int argc; /* the command line, for --report's file */
	char **argv;
	struct sim_jobs_opts jobs;
	const char *workload, *scenario;
	bool all, c2c, mode_set;
	char perr[512];
};

/* One option into @ctx (a struct sim_args): -1 to go on, else the exit status. */
static int sim_option(void *ctx, int opt, const char *arg)
{
	struct sim_args *x = ctx;
	unsigned long long n;

	switch (opt) {
	case 'w':
		x->workload = arg;
		return -1;
	case 's':
		x->scenario = arg;
		return -1;
	case 'A':
		x->all = true;
		return -1;
	case 'v':
		if (bench_cli_side(&x->c.o, arg))
			return 2;
		return -1;
	case 'c':
		if (parse_cpus(&x->c, arg)) {
			cli_error("sim", "--cpus: counts from 1 to %d, e.g. 1,2,4 or 1-8",
				  SIM_MAX_CPUS);
			return 2;
		}
		return -1;
	case 'n':
		if (cli_ull("sim", "--ops", arg, 1, 10000000, &n))
			return 2;
		x->c.ops = n;
		x->c.ops_set = true;
		return -1;
	case 'p':
		if (!strcmp(arg, "all")) {
			unsigned int np;
			const struct sim_profile *p = sim_profile_all(&np);

			for (unsigned int i = 0; i < np && i < 4; i++)
				x->c.profiles[i] = &p[i];
			x->c.nr_profiles = np < 4 ? np : 4;
		} else if (!(x->c.profiles[0] = sim_profile_get(arg, x->perr, sizeof(x->perr)))) {
			cli_error("sim", "--profile: %s", x->perr);
			return 2;
		} else {
			x->c.nr_profiles = 1;
		}
		return -1;
	case 'm':
		if (!strcmp(arg, "threads") || !strcmp(arg, "processes")) {
			x->c.o.processes = arg[0] == 'p';
			x->mode_set = true;
		} else {
			cli_error("sim", "--mode: threads or processes");
			return 2;
		}
		return -1;
	case 'l':
		if (!strcmp(arg, "first") || !strcmp(arg, "drawn")) {
			x->c.first_slots = arg[0] == 'f';
		} else {
			cli_error("sim", "--placement: first or drawn, not '%s'", arg);
			return 2;
		}
		return -1;
	case 'r':
		if (!strcmp(arg, "c2c")) {
			x->c2c = true;
			return -1;
		}
		if (strcmp(arg, "html") && strcmp(arg, "svg")) {
			cli_error("sim", "--report: c2c, html FILE or svg FILE");
			return 2;
		}
		/* The file is the next word: getopt goes on after it. */
		if (optind >= x->argc || !x->argv[optind][0]) {
			cli_error("sim", "--report %s: which file? (--report %s FILE)", arg, arg);
			return 2;
		}
		*(arg[0] == 'h' ? &x->c.html_file : &x->c.svg_file) = x->argv[optind++];
		return -1;
	case 't':
		if (cli_ull("sim", "--top", arg, 1, 100000, &n))
			return 2;
		x->c.top = (unsigned int)n;
		return -1;
	case 'f':
		x->c.tsv = !strcmp(arg, "tsv");
		if (!x->c.tsv && bench_cli_option(&x->c.o, opt, arg, &x->c.fmt))
			return 2;
		if (x->c.tsv)
			x->c.fmt = BENCH_CSV; /* no tables, no summaries */
		return -1;
	case 'j':
		x->c.json_file = arg;
		return -1;
	case 'P':
		x->c.plot_file = arg;
		return -1;
	case 'S':
		if (cli_ull("sim", "--seeds", arg, 1, SIM_MAX_SEEDS, &n))
			return 2;
		x->c.seeds = (unsigned int)n;
		x->c.seeds_set = true;
		return -1;
	case 'K':
		if (cli_ull("sim", "--seed", arg, 1, SIM_MAX_SEEDS, &n))
			return 2;
		x->c.seed_only = (unsigned int)n;
		return -1;
	case 'e':
		return cli_double("sim", "--entry-ns", arg, 0, 1e6, &x->c.entry_ns) ? 2 : -1;
	case 'J':
		if (cli_ull("sim", "--jobs", arg, 1, 1024, &n))
			return 2;
		x->jobs.jobs = (unsigned int)n;
		return -1;
	case 'E':
		x->jobs.emit_dir = arg;
		return -1;
	case 'C':
		x->jobs.collect_dir = arg;
		return -1;
	case 'k':
		if (cli_ull("sim", "--job", arg, 1, 1000000, &n))
			return 2;
		x->jobs.job = (unsigned int)n;
		return -1;
	case 'o':
		x->jobs.job_out = arg;
		return -1;
	case 'L':
		list_profiles();
		return 0;
	case 'g':
		x->c.progress = true;
		return -1;
	case 'h':
		usage(stdout);
		return 0;
	default:
		usage(stderr);
		return 2;
	}
}

/* Run what @x asked for: a scenario, all of them, or a workload's sweep. */
static int sim_run_args(struct sim_args *x)
{
	static struct sim_result res[64 * BENCH_MAX_SIDES];
	struct sim_cli *c = &x->c;
	int nr, ret = 0;

	if (x->workload && !(c->o.wl = workload_find(x->workload))) {
		cli_error("sim", "unknown workload '%s' (see `vfslab bench --list`)", x->workload);
		return 2;
	}
	if (x->all || x->scenario) {
		const struct scenario *s = x->scenario ? scenario_find(x->scenario) : NULL;

		if (c->o.nr_sides) {
			cli_error("sim", "a scenario brings its own variants; drop --variant");
			return 2;
		}
		if (x->mode_set) {
			cli_error("sim", "a scenario brings its own mode; drop --mode");
			return 2;
		}
		if (x->all)
			return sim_all_scenarios(c, x->c2c);
		if (!s) {
			cli_error("sim", "unknown scenario '%s' (see `vfslab scenarios`)",
				  x->scenario);
			return 2;
		}
		return sim_run_scenario(c, s, x->c2c, NULL);
	}
	if (!c->o.wl)
		c->o.wl = workload_find("stat2");
	if (!c->o.nr_sides && bench_cli_side(&c->o, NULL))
		return 2;
	if (!c->o.nr_tasks)
		parse_cpus(c, "1,2,4,8,16");
	if (!c->nr_profiles) {
		c->profiles[0] = sim_profile_find("spr");
		c->nr_profiles = 1;
	}
	for (int k = 0; k < c->nr_profiles && !ret; k++) {
		ret = sim_run_profile(c, c->profiles[k], x->c2c, res, &nr);
		for (int i = 0; !ret && i < nr; i++)
			c2c_free(&res[i].c2c);
	}
	return ret;
}

/* The command: its simulations, then the heat map, which wants them all. */
static int sim_walk(void *ctx)
{
	struct sim_args *x = ctx;
	int ret = sim_run_args(x);

	if (sim_jobs_dry())
		return ret;
	if (!ret && x->c.html_file)
		ret = heatmap_write(x->c.html_file, false);
	if (!ret && x->c.svg_file)
		ret = heatmap_write(x->c.svg_file, true);
	return ret;
}

static bool jobs_conflict(const struct sim_jobs_opts *j)
{
	if (j->emit_dir && j->collect_dir) {
		cli_error("sim", "--emit-jobs writes the jobs, --collect reads their results: one "
				 "at a time");
		return true;
	}
	if (j->jobs > 1 && (j->emit_dir || j->collect_dir || j->job)) {
		cli_error("sim", "--jobs runs the simulations here: not with --emit-jobs, "
				 "--collect or --job");
		return true;
	}
	if (j->job && (j->emit_dir || j->collect_dir)) {
		cli_error("sim", "--job runs one simulation: not with --emit-jobs or --collect");
		return true;
	}
	if (!j->job != !j->job_out) {
		cli_error("sim", "--job K and --job-out FILE go together");
		return true;
	}
	return false;
}

static int sim_cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "scenario", required_argument, NULL, 's' },
		{ "all-scenarios", no_argument, NULL, 'A' },
		{ "variant", required_argument, NULL, 'v' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "ops", required_argument, NULL, 'n' },
		{ "seeds", required_argument, NULL, 'S' },
		{ "seed", required_argument, NULL, 'K' },
		{ "placement", required_argument, NULL, 'l' },
		{ "profile", required_argument, NULL, 'p' },
		{ "mode", required_argument, NULL, 'm' },
		{ "report", required_argument, NULL, 'r' },
		{ "top", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'f' },
		{ "json", required_argument, NULL, 'j' },
		{ "plot", required_argument, NULL, 'P' },
		{ "entry-ns", required_argument, NULL, 'e' },
		{ "list-profiles", no_argument, NULL, 'L' },
		{ "progress", no_argument, NULL, 'g' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "emit-jobs", required_argument, NULL, 'E' },
		{ "collect", required_argument, NULL, 'C' },
		{ "job", required_argument, NULL, 'k' },
		{ "job-out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct sim_args x;
	bool isolate = false;
	int ret;

	memset(&x, 0, sizeof(x));
	bench_cli_defaults(&x.c.o, "sim");
	x.c.ops = SIM_DEFAULT_OPS;
	x.c.seeds = 1;
	x.c.entry_ns = -1;
	x.c.top = SIM_DEFAULT_TOP;
	x.c.fmt = BENCH_TABLE;
	x.argc = argc;
	x.argv = argv;
	ret = cli_options(argc, argv, "h", opts, sim_option, &x);
	if (ret >= 0)
		return ret;
	if (optind < argc - 1) {
		usage(stderr);
		return 2;
	}
	if (optind == argc - 1) {
		if (scenario_find(argv[optind]) && !x.scenario)
			x.scenario = argv[optind];
		else
			x.workload = argv[optind];
	}
	if (jobs_conflict(&x.jobs))
		return 2;
	if (x.c.seed_only) {
		if (x.c.seeds_set && x.c.seeds > 1) {
			cli_error("sim", "--seed K runs one run alone: not with --seeds");
			return 2;
		}
		x.c.seeds = 1;
		x.c.seeds_set = true;
	}
	/*
	 * Every scenario is its own simulations, each in a process of its own
	 * (so none depends on what ran before it) and, unless told otherwise,
	 * on every CPU this process may use: the output is the same.
	 */
	if (x.all && !x.jobs.emit_dir && !x.jobs.collect_dir && !x.jobs.job) {
		cpu_set_t set;

		isolate = true;
		if (!x.jobs.jobs)
			x.jobs.jobs = !sched_getaffinity(0, sizeof(set), &set) ?
					      (unsigned int)(CPU_COUNT(&set) < 64 ?
								     CPU_COUNT(&set) :
								     64) :
					      1;
	}
	intr_catch();
	if (isolate || sim_jobs_wanted(&x.jobs))
		return sim_jobs_drive(&x.jobs, sim_walk, &x, sizeof(x), argc, argv, opts);
	return sim_walk(&x);
}

int cmd_sim(int argc, char **argv)
{
	int ret;

	sim_speed_reset();
	ret = sim_cmd_run(argc, argv);
	sim_speed_report();
	if (sim_blocks_unknown())
		fprintf(stderr,
			"vfslab sim: %llu basic blocks ran that the block table lacks (each counted "
			"as one instruction): rebuild vfslab-sim\n",
			(unsigned long long)sim_blocks_unknown());
	return ret;
}
