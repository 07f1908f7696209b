// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab advise STRUCT --workload W[,W...] --cpus N: profile, search,
 * simulate the best candidates and the input at 1 CPU and at N, print the
 * winner against the input and write it as a layout file. Runs in
 * vfslab-sim (vfslab execs it, as for sim).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/advise/advise.h"
#include "tools/cmd.h"

#define ADV_CANDIDATES 6
#define ADV_OPS 1000 /* vfslab sim's default */
/*
 * Runs averaged per rate: two layouts that put the same fields apart differ
 * by one run's phase noise (which CPU a line's queue serves next, up to 1%
 * at 128 CPUs); the mean of eight takes it well under the line margin.
 */
#define ADV_SEEDS 8
/* What one more line on the unshared path must buy at N CPUs. */
#define ADV_LINE_MARGIN 2 /* percent, the default of --line-margin */
#define ADV_SAME 1e-4

static void advise_usage(FILE *f)
{
	fprintf(f,
		"usage: vfslab advise STRUCT --workload W[,W...] --cpus N [--profile P]\n"
		"                     [--from LAYOUT] [--line-margin PCT] [--ops N]\n"
		"                     [--seeds N] [--jobs N] [--out FILE] [--html FILE]\n\n"
		"Proposes a layout for STRUCT (dentry, file or files_struct) from what the\n"
		"workloads do to its fields on the simulator: a probe layout with each field\n"
		"on its own line gives each field's reads, writes and misses per operation\n"
		"at 1 CPU and at N; field orders are searched (write-shared fields apart\n"
		"from the rest, the unshared path on few lines, holes and size in check,\n"
		"pinned fields together; also the input with only its write-shared\n"
		"fields moved); the best candidates and the input run on the simulator at\n"
		"1 CPU and at N; the best ratio at N whose unshared path touches no more\n"
		"lines than the input's, nor takes more in all, wins, unless one touching\n"
		"more beats it by over --line-margin (of those, the fewest lines within\n"
		"the margin of the best). Every number printed comes from those\n"
		"simulations.\n\n"
		"  --workload LIST  bench workloads, comma-separated (vfslab help bench)\n"
		"  --cpus N         the CPU count to optimise for (2 to 512)\n"
		"  --profile P      the simulated machine: spr (default), zen4, clx,\n"
		"                   kunpeng920 or a profile file\n"
		"  --from LAYOUT    the layout to start from and compare with: a preset,\n"
		"                   randomize:SEED, btf, pahole:FILE or a layout file\n"
		"                   (default: the struct's default preset)\n"
		"  --line-margin PCT\n"
		"                   what a layout touching more lines on the unshared path\n"
		"                   than the input must gain at N CPUs, in percent (0 to\n"
		"                   1000, default 2; 0: the best ratio wins whatever lines)\n"
		"  --ops N          iterations per virtual CPU in every run (10 to 100000,\n"
		"                   default 1000, as vfslab sim)\n"
		"  --seeds N        each rate the mean of N runs, each its own draw of transfer\n"
		"                   times, as vfslab sim --seeds (1 to 16, default 8; 1: one\n"
		"                   run)\n"
		"  --jobs N         simulate in N processes at once (1 to 64; same output)\n"
		"  --out FILE       write the winner there (default advised-STRUCT.layout)\n"
		"  --html FILE      the heat map of the input and the winner side by side at 1\n"
		"                   and N CPUs, on the first workload (vfslab sim --report html)\n");
}

struct advise_cmd {
	struct adv_opts o;
	const char *from, *out, *workloads, *html, *profile;
	double margin; /* --line-margin, a fraction */
	char outbuf[64];
};

static int advise_workloads(struct advise_cmd *a, const char *list)
{
	char *copy = strdup(list), *save = NULL;
	int ret = -1;

	a->o.nwl = 0;
	if (!copy)
		return 2;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (a->o.nwl == ADV_MAX_WL) {
			cli_error("advise", "--workload: at most %d workloads", ADV_MAX_WL);
			ret = 2;
			break;
		}
		a->o.wl[a->o.nwl] = workload_find(w);
		if (!a->o.wl[a->o.nwl]) {
			cli_error("advise", "--workload: unknown workload '%s' (vfslab help bench)",
				  w);
			ret = 2;
			break;
		}
		a->o.nwl++;
	}
	if (ret < 0 && !a->o.nwl) {
		cli_error("advise", "--workload: no workload in '%s'", list);
		ret = 2;
	}
	free(copy);
	return ret;
}

static int advise_option(void *ctx, int opt, const char *arg)
{
	struct advise_cmd *a = ctx;
	unsigned long long n;
	char err[256];

	switch (opt) {
	case 'w':
		return advise_workloads(a, arg);
	case 'c':
		if (cli_ull("advise", "--cpus", arg, 2, 512, &n))
			return 2;
		a->o.cpus = n;
		return -1;
	case 'p':
		a->profile = arg;
		a->o.prof = sim_profile_get(arg, err, sizeof(err));
		if (!a->o.prof) {
			cli_error("advise", "--profile: %s", err);
			return 2;
		}
		return -1;
	case 'f':
		a->from = arg;
		return -1;
	case 'm':
		if (cli_ull("advise", "--line-margin", arg, 0, 1000, &n))
			return 2;
		a->margin = n / 100.0;
		return -1;
	case 'n':
		if (cli_ull("advise", "--ops", arg, 10, 100000, &n))
			return 2;
		a->o.ops = n;
		return -1;
	case 's':
		if (cli_ull("advise", "--seeds", arg, 1, SIM_MAX_SEEDS, &n))
			return 2;
		a->o.seeds = n;
		return -1;
	case 'j':
		if (cli_ull("advise", "--jobs", arg, 1, 64, &n))
			return 2;
		a->o.jobs = n;
		return -1;
	case 'o':
		a->out = arg;
		return -1;
	case 'H':
		a->html = arg;
		return -1;
	case 'h':
		advise_usage(stdout);
		return 0;
	default:
		advise_usage(stderr);
		return 2;
	}
}

static int advise_options(int argc, char **argv, struct advise_cmd *a)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "profile", required_argument, NULL, 'p' },
		{ "from", required_argument, NULL, 'f' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "line-margin", required_argument, NULL, 'm' },
		{ "ops", required_argument, NULL, 'n' },
		{ "seeds", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "html", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ret = cli_options(argc, argv, "h", opts, advise_option, a);

	if (ret >= 0)
		return ret;
	if (optind + 1 != argc || layout_struct_find(argv[optind], &a->o.s)) {
		cli_error("advise", "expected one STRUCT: dentry, file or files_struct");
		return 2;
	}
	if (!a->o.nwl || !a->o.cpus) {
		cli_error("advise", "--workload and --cpus are required");
		return 2;
	}
	a->o.key = a->o.s == LS_FILES ? "files" : layout_desc(a->o.s)->name;
	if (!a->out) {
		snprintf(a->outbuf, sizeof(a->outbuf), "advised-%s.layout",
			 layout_desc(a->o.s)->name);
		a->out = a->outbuf;
	}
	return -1;
}

/* Write text to dir/name; the path into path, or -1 after cli_error. */
static int save(const char *dir, const char *name, const char *text, char **path)
{
	FILE *f;

	if (asprintf(path, "%s/%s", dir, name) < 0) {
		*path = NULL;
		cli_error("advise", "out of memory");
		return -1;
	}
	f = fopen(*path, "w");
	if (!f) {
		cli_error("advise", "%s: %s", *path, strerror(errno));
		return -1;
	}
	fputs(text, f);
	return cli_fclose("advise", *path, f);
}

/*
 * --html: `vfslab sim W --cpus 1,N --variant KEY=INPUT --variant KEY=WINNER
 * --report html FILE`, run as a reader would run it, so the page's numbers
 * are that simulation's and anyone can redo it from the printed command.
 */
static int advise_html(const struct advise_cmd *a, const char *from)
{
	const struct adv_opts *o = &a->o;
	char cpus[32], ops[32], seeds[16], before[VFS_LAYOUT_SPEC_MAX + 16],
		after[VFS_LAYOUT_SPEC_MAX + 16];
	char *argv[20];
	int argc = 0, status;
	pid_t pid;

	snprintf(cpus, sizeof(cpus), "1,%u", o->cpus);
	snprintf(ops, sizeof(ops), "%lu", o->ops);
	snprintf(seeds, sizeof(seeds), "%u", o->seeds);
	snprintf(before, sizeof(before), "%s=%s", o->key, from);
	snprintf(after, sizeof(after), "%s=%s", o->key, a->out);
	argv[argc++] = "vfslab-sim";
	argv[argc++] = "sim";
	argv[argc++] = (char *)o->wl[0]->name;
	argv[argc++] = "--cpus";
	argv[argc++] = cpus;
	argv[argc++] = "--ops";
	argv[argc++] = ops;
	argv[argc++] = "--seeds";
	argv[argc++] = seeds;
	argv[argc++] = "--profile";
	argv[argc++] = (char *)(a->profile ? a->profile : o->prof->name);
	argv[argc++] = "--variant";
	argv[argc++] = before;
	argv[argc++] = "--variant";
	argv[argc++] = after;
	argv[argc++] = "--report";
	argv[argc++] = "html";
	argv[argc++] = (char *)a->html;
	argv[argc] = NULL;
	printf("heat map: vfslab");
	for (int i = 1; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		cli_error("advise", "--html: cannot fork: %s", strerror(errno));
		return 1;
	}
	if (!pid) {
		/* Its table is the one above; only the page is wanted. */
		if (!freopen("/dev/null", "w", stdout))
			_exit(1);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		cli_error("advise", "--html: the simulation for %s failed", a->html);
		return 1;
	}
	printf("wrote %s\n", a->html);
	return 0;
}

/* The geometric mean over the workloads of a's rate over b's at k (0: 1 CPU, 1: N). */
static double ratio(const struct adv_opts *o, const struct adv_result *a,
		    const struct adv_result *b, int k)
{
	double sum = 0;

	for (unsigned int w = 0; w < o->nwl; w++)
		sum += log(a->run[w][k].ops_s / b->run[w][k].ops_s);
	return exp(sum / o->nwl);
}

/* a touches no more lines than b: on the unshared path, and in all (its size). */
static bool no_more_lines(const struct adv_opts *o, const struct adv_result *a,
			  const struct adv_cand *ca, const struct adv_result *b,
			  const struct adv_cand *cb)
{
	if ((ca->size + 63) / 64 > (cb->size + 63) / 64)
		return false;
	for (unsigned int w = 0; w < o->nwl; w++)
		if (a->run[w][0].lines.touched > b->run[w][0].lines.touched)
			return false;
	return true;
}

/* The lines the unshared path touches, over the workloads. */
static uint64_t lines_touched(const struct adv_opts *o, const struct adv_result *r)
{
	uint64_t l = 0;

	for (unsigned int w = 0; w < o->nwl; w++)
		l += r->run[w][0].lines.touched;
	return l;
}

/* Is candidate a (result ra) better than b: its ratio at N, then fewer lines, then size. */
static bool better(const struct adv_opts *o, const struct adv_result *ra, const struct adv_cand *a,
		   const struct adv_result *rb, const struct adv_cand *b)
{
	double r = ratio(o, ra, rb, 1);
	uint64_t la = lines_touched(o, ra), lb = lines_touched(o, rb);

	/* Closer than 0.01%: the same to the simulator's precision. */
	if (r > 1 + ADV_SAME || r < 1 - ADV_SAME)
		return r > 1;
	if (la != lb)
		return la < lb;
	return a->size < b->size;
}

static void print_table(const struct advise_cmd *a, const struct adv_cand *c,
			const struct adv_result *r, unsigned int n)
{
	const struct adv_opts *o = &a->o;

	printf("\n  %-4s %-11s %-9s %14s %14s %8s %8s %6s %5s  %s\n", "cand", "workload", "",
	       "ops/s 1 CPU", "ops/s N CPUs", "ratio 1", "ratio N", "lines", "size", "order");
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int w = 0; w < o->nwl; w++) {
			printf("  %-4u %-11s %-9s %14.1f %14.1f %8.3f %8.3f %6llu %5u  %s\n", i,
			       o->wl[w]->name, i ? "" : "(input)", r[i].run[w][0].ops_s,
			       r[i].run[w][1].ops_s, r[i].run[w][0].ops_s / r[0].run[w][0].ops_s,
			       r[i].run[w][1].ops_s / r[0].run[w][1].ops_s,
			       (unsigned long long)r[i].run[w][0].lines.touched, c[i].size,
			       c[i].how);
		}
	}
}

static int advise_run(struct advise_cmd *a)
{
	struct adv_opts *o = &a->o;
	struct layout in, probe;
	struct adv_field fields[LAYOUT_MAX_FIELDS];
	struct adv_cand cand[ADV_CANDIDATES + 1];
	struct adv_result *res = calloc(ADV_CANDIDATES + 2, sizeof(*res));
	char dir[] = "/tmp/vfslab-advise.XXXXXX", err[512];
	char *files[ADV_CANDIDATES + 2] = { 0 }; /* [0]: the probe, then the candidates */
	char *first[2], *text = NULL;
	unsigned int n = 0, built, win = 0, more = ~0u;
	double margin = a->margin > ADV_SAME ? a->margin : ADV_SAME;
	int ret = 1;

	if (!res || !mkdtemp(dir)) {
		cli_error("advise", "cannot make a scratch directory: %s", strerror(errno));
		free(res);
		return 1;
	}
	if (layout_build(&in, o->s, a->from, err, sizeof(err))) {
		cli_error("advise", "--from: %s", err);
		goto out;
	}
	printf("vfslab advise: struct %s from %s; ", layout_desc(o->s)->name, in.name);
	for (unsigned int w = 0; w < o->nwl; w++)
		printf("%s%s", w ? "," : "", o->wl[w]->name);
	printf(" at 1 and %u CPUs of %s, %lu operations per CPU a run", o->cpus, o->prof->name,
	       o->ops);
	if (o->seeds > 1)
		printf(", each rate the mean of %u perturbed runs", o->seeds);
	printf("\n\n");

	/* The probe and the input: the profile, and what every candidate is compared with. */
	text = adv_probe_text(&in);
	if (!text || layout_parse(&probe, o->s, text, "probe", err, sizeof(err))) {
		cli_error("advise", "the probe layout: %s", text ? err : "out of memory");
		goto out;
	}
	if (save(dir, "probe.layout", text, &files[0]))
		goto out;
	first[0] = files[0];
	first[1] = (char *)(a->from ? a->from : layout_default_name(o->s));
	if (adv_simulate(o, first, 2, res)) {
		cli_error("advise", "the profile's simulations failed");
		goto out;
	}
	adv_profile(o, &probe, &res[0], fields, stdout);

	adv_input(&in, fields, &cand[0]);
	n = adv_search(&in, fields, cand + 1, ADV_CANDIDATES, &built);
	res[0] = res[1];
	for (unsigned int i = 1; i <= n; i++) {
		char name[32];

		free(text);
		text = adv_text(&in, &cand[i]);
		snprintf(name, sizeof(name), "cand%u.layout", i);
		if (!text || save(dir, name, text, &files[i]))
			goto out;
	}
	printf("\nsearch: %u field orders built and improved; the %u the model ranks best, "
	       "simulated beside the input:\n",
	       built, n);
	if (adv_simulate(o, files + 1, n, res + 1)) {
		cli_error("advise", "a candidate's simulation failed");
		goto out;
	}
	print_table(a, cand, res, n + 1);

	/*
	 * The best ratio at N among those whose unshared path touches no more
	 * lines than the input's; one touching more wins only by a margin.
	 */
	for (unsigned int i = 1; i <= n; i++) {
		unsigned int *best = no_more_lines(o, &res[i], &cand[i], &res[0], &cand[0]) ? &win :
											      &more;

		if (*best == ~0u || better(o, &res[i], &cand[i], &res[*best], &cand[*best]))
			*best = i;
	}
	/*
	 * If the best of those touching more beats the best that does not by
	 * the margin, the one with the fewest lines within the margin of it
	 * (and still beating that by the margin) wins.
	 */
	if (more != ~0u && ratio(o, &res[more], &res[win], 1) > 1 + margin) {
		unsigned int top = more;

		for (unsigned int i = 1; i <= n; i++) {
			if (no_more_lines(o, &res[i], &cand[i], &res[0], &cand[0]) ||
			    ratio(o, &res[i], &res[win], 1) <= 1 + margin ||
			    ratio(o, &res[i], &res[top], 1) * (1 + a->margin) < 1)
				continue;
			if (lines_touched(o, &res[i]) < lines_touched(o, &res[more]) ||
			    (lines_touched(o, &res[i]) == lines_touched(o, &res[more]) &&
			     better(o, &res[i], &cand[i], &res[more], &cand[more])))
				more = i;
		}
		printf("\ncandidate %u touches more lines than the input (at 1 CPU, or in all), and its "
		       "ratio at %u CPUs is %.3f times the best that does not (candidate %u): "
		       "more than the %.0f%% a line must buy\n",
		       more, o->cpus, ratio(o, &res[more], &res[win], 1), win, a->margin * 100);
		win = more;
	}
	printf("\nwinner: candidate %u (%s)\n", win, win ? cand[win].how : "the input itself");
	printf("  predicted ratio against %s: %.3f at 1 CPU, %.3f at %u CPUs%s\n", in.name,
	       ratio(o, &res[win], &res[0], 0), ratio(o, &res[win], &res[0], 1), o->cpus,
	       o->nwl > 1 ? " (geometric means over the workloads)" : "");
	for (unsigned int w = 0; w < o->nwl; w++)
		printf("  %s: lines of struct %s the unshared path touches (1 CPU): %llu before, "
		       "%llu after\n",
		       o->wl[w]->name, layout_desc(o->s)->name,
		       (unsigned long long)res[0].run[w][0].lines.touched,
		       (unsigned long long)res[win].run[w][0].lines.touched);
	printf("  size: %u bytes before, %u after\n\n", in.size, cand[win].size);
	adv_print_moves(stdout, &in, &cand[win]);

	free(text);
	text = adv_text(&in, &cand[win]);
	{
		FILE *f = text ? fopen(a->out, "w") : NULL;

		if (!f) {
			cli_error("advise", "%s: %s", a->out, text ? strerror(errno) : "no text");
			goto out;
		}
		fputs(text, f);
		if (cli_fclose("advise", a->out, f))
			goto out;
	}
	printf("\nwrote %s (vfslab layout %s --variant %s=%s)\n", a->out, layout_desc(o->s)->name,
	       o->key, a->out);
	if (a->html && advise_html(a, first[1]))
		goto out;
	ret = 0;
out:
	for (unsigned int i = 0; i <= n; i++) {
		if (files[i])
			unlink(files[i]);
		free(files[i]);
	}
	rmdir(dir);
	free(text);
	free(res);
	return ret;
}

int cmd_advise(int argc, char **argv)
{
	struct advise_cmd a = { .o = { .jobs = 1, .ops = ADV_OPS, .seeds = ADV_SEEDS },
				.margin = ADV_LINE_MARGIN / 100.0 };
	int ret;

	a.o.prof = sim_profile_find("spr");
	ret = advise_options(argc, argv, &a);
	if (ret >= 0)
		return ret;
	if (cli_parse_only)
		return 0;
	return advise_run(&a);
}
