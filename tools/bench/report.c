// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Benchmark output: a table for people, CSV (will-it-scale's columns first:
 * tasks, then ops/s), will-it-scale's own CSV and JSON for programs, and a
 * gnuplot plot.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/bench/bench.h"
#include "tools/out/csv.h"
#include "tools/out/json.h"
#include "tools/cli.h"
#include "tools/interrupt.h"

/* The counters a reader of a result wants per operation. */
static const enum vfs_event shown[] = {
	VFS_EV_LOCKREF_SLOW, VFS_EV_UNLAZY_FAIL,   VFS_EV_REF_WALK,
	VFS_EV_FGET_RETRY,   VFS_EV_ALLOC_FD_FAST,
};

/* Most lockref ops took the lock: the lockref has degraded (§1.4). */
#define LOCKED_ONLY_THRESHOLD 0.5

static const char *mode_name(const struct bench_opts *o)
{
	return o->processes ? "processes" : "threads";
}

void bench_fmt_ops(char *buf, size_t n, double v)
{
	if (v >= 1e6)
		snprintf(buf, n, "%.2fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, n, "%.1fk", v / 1e3);
	else
		snprintf(buf, n, "%.0f", v);
}

static void entry_desc(char *buf, size_t n, const struct bench_opts *o)
{
	if (o->entry_host)
		snprintf(buf, n, "%ld ns (the host's getppid cost)", o->entry_ns);
	else if (o->entry_ns)
		snprintf(buf, n, "%ld ns", o->entry_ns);
	else
		snprintf(buf, n, "0 (no syscall entry cost modelled)");
}

static void report_table(FILE *f, const struct bench_opts *o, const struct bench_result *r, int nr)
{
	char entry[96];
	bool degraded = false, over = false, errors = false;

	entry_desc(entry, sizeof(entry), o);
	fprintf(f, "%s: %s (%s)\n", o->wl->name, o->wl->desc, o->wl->loop);
	fprintf(f,
		"mode %s, %d x %.2fs samples after a warm-up round, sides alternating; "
		"entry cost %s\n\n",
		mode_name(o), o->rounds, o->interval, entry);
	fprintf(f, "%-34s %5s %10s %10s %10s %8s %15s", "side", "tasks", "ops/s", "min", "max",
		"ratio", "ratio range");
	for (size_t k = 0; k < ARRAY_SIZE(shown); k++)
		fprintf(f, " %13s", vfs_event_name(shown[k]));
	fprintf(f, "\n");
	for (int i = 0; i < nr; i++) {
		const struct bench_result *x = &r[i];
		char med[16], mn[16], mx[16], range[32];

		bench_fmt_ops(med, sizeof(med), x->median);
		bench_fmt_ops(mn, sizeof(mn), x->min);
		bench_fmt_ops(mx, sizeof(mx), x->max);
		snprintf(range, sizeof(range), "%.2f-%.2f", x->ratio_min, x->ratio_max);
		fprintf(f, "%-34.34s %4d%s %10s %10s %10s %7.2fx %15s", o->sides[x->side].label,
			x->tasks, x->oversubscribed ? "!" : " ", med, mn, mx, x->ratio, range);
		for (size_t k = 0; k < ARRAY_SIZE(shown); k++) {
			if (o->sides[x->side].kernel)
				fprintf(f, " %13s", "-");
			else
				fprintf(f, " %13.3f", x->ev_per_op[shown[k]]);
		}
		fprintf(f, "\n");
		if (!o->sides[x->side].kernel &&
		    x->ev_per_op[VFS_EV_LOCKREF_SLOW] > LOCKED_ONLY_THRESHOLD)
			degraded = true;
		over |= x->oversubscribed;
		errors |= x->errors != 0;
	}
	fprintf(f,
		"\nratio: against %s at the same task count (median of medians; range over "
		"paired rounds). Counters are per operation.\n",
		o->sides[0].label);
	if (over)
		fprintf(f, "!: more tasks than CPUs: oversubscribed, tasks share CPUs.\n");
	if (degraded)
		fprintf(f,
			"warning: lockref_slow above %.1f per op: a lockref has degraded to "
			"locked-only mode; layout comparisons are skewed by it.\n",
			LOCKED_ONLY_THRESHOLD);
	if (errors)
		for (int i = 0; i < nr; i++)
			if (r[i].errors)
				fprintf(f, "warning: %s, %d tasks: %lu failed calls (last: %s)\n",
					o->sides[r[i].side].label, r[i].tasks, r[i].errors,
					strerror((int)-r[i].last_error));
}

static void report_csv(FILE *f, const struct bench_opts *o, const struct bench_result *r, int nr)
{
	struct csv c;

	csv_start(&c, f);
	fprintf(f, "tasks,workload,mode,side,ops_per_sec,min,max,ratio,ratio_min,ratio_max,"
		   "oversubscribed,entry_ns");
	for (int k = 0; k < VFS_EV_NR; k++)
		fprintf(f, ",%s_per_op", vfs_event_name(k));
	fprintf(f, ",score0_per_sec,score1_per_sec,errors\n");
	for (int i = 0; i < nr; i++) {
		const struct bench_result *x = &r[i];
		bool kernel = o->sides[x->side].kernel;

		csv_fmt(&c, "%d", x->tasks);
		csv_str(&c, o->wl->name);
		csv_str(&c, mode_name(o));
		csv_str(&c, o->sides[x->side].label);
		csv_fmt(&c, "%.0f", x->median);
		csv_fmt(&c, "%.0f", x->min);
		csv_fmt(&c, "%.0f", x->max);
		csv_fmt(&c, "%.4f", x->ratio);
		csv_fmt(&c, "%.4f", x->ratio_min);
		csv_fmt(&c, "%.4f", x->ratio_max);
		csv_fmt(&c, "%d", x->oversubscribed);
		csv_fmt(&c, "%ld", kernel ? 0 : o->entry_ns);
		/* The kernel's VFS counters are not visible from here: not 0, empty. */
		for (int k = 0; k < VFS_EV_NR; k++)
			if (kernel)
				csv_empty(&c);
			else
				csv_fmt(&c, "%.6f", x->ev_per_op[k]);
		/* Scores only where the workload keeps them (blogbench's reads, writes). */
		for (int k = 0; k < 2; k++)
			if (o->wl->score_names[k])
				csv_fmt(&c, "%.0f", x->score[k]);
			else
				csv_empty(&c);
		csv_fmt(&c, "%lu", x->errors);
		csv_end(&c);
	}
}

/* The side --format wis writes: the one vfslab side (bench refuses more). */
static int wis_side(const struct bench_opts *o)
{
	for (int s = 0; s < o->nr_sides; s++)
		if (!o->sides[s].kernel)
			return s;
	return 0;
}

/*
 * will-it-scale's runtest.py CSV, for its plotting scripts: one mode was
 * run, so the other mode's column is empty, as are the idle columns
 * (vfslab does not sample the CPUs' idle time); linear is the 1-task
 * figure times the task count.
 */
static void report_wis(FILE *f, const struct bench_opts *o, const struct bench_result *r, int nr)
{
	int side = wis_side(o);
	double one = -1;
	struct csv c;

	csv_start(&c, f);
	fprintf(f, "tasks,processes,processes_idle,threads,threads_idle,linear\n");
	for (int i = 0; i < nr; i++)
		if (r[i].side == side && r[i].tasks == 1)
			one = r[i].median;
	for (int i = -1; i < nr; i++) {
		/* runtest.py's first row: no tasks, no work. */
		int tasks = i < 0 ? 0 : r[i].tasks;
		double ops = i < 0 ? 0 : r[i].median;

		if (i >= 0 && r[i].side != side)
			continue;
		csv_fmt(&c, "%d", tasks);
		for (int m = 0; m < 2; m++) {
			if (o->processes == !m)
				csv_fmt(&c, "%.0f", ops);
			else
				csv_empty(&c);
			csv_empty(&c);
		}
		if (one >= 0)
			csv_fmt(&c, "%.0f", one * tasks);
		else
			csv_empty(&c);
		csv_end(&c);
	}
}

/* A score per second, null where the workload keeps no such score. */
static json_t *score_json(const struct bench_opts *o, const struct bench_result *x, int k)
{
	return o->wl->score_names[k] ? out_json_num(x->score[k], 0) : json_null();
}

json_t *bench_json(const struct bench_opts *o, const struct bench_result *r, int nr)
{
	json_t *root = json_object(), *results = json_array();

	json_object_set_new(root, "workload", out_json_str(o->wl->name));
	json_object_set_new(root, "description", out_json_str(o->wl->desc));
	json_object_set_new(root, "mode", json_string(mode_name(o)));
	json_object_set_new(root, "interval_s", out_json_num(o->interval, 3));
	json_object_set_new(root, "rounds", json_integer(o->rounds));
	json_object_set_new(root, "entry_ns", json_integer(o->entry_ns));
	json_object_set_new(root, "entry_ns_is_host_getppid", json_boolean(o->entry_host));
	for (int i = 0; i < nr; i++) {
		const struct bench_result *x = &r[i];
		bool kernel = o->sides[x->side].kernel;
		json_t *row = json_object(), *samples = json_array(), *ev = json_object();

		out_json_set_name(row, "side", o->sides[x->side].label);
		json_object_set_new(row, "kernel", json_boolean(kernel));
		json_object_set_new(row, "tasks", json_integer(x->tasks));
		json_object_set_new(row, "ops_per_sec", out_json_num(x->median, 0));
		json_object_set_new(row, "min", out_json_num(x->min, 0));
		json_object_set_new(row, "max", out_json_num(x->max, 0));
		json_object_set_new(row, "ratio", out_json_num(x->ratio, 4));
		json_object_set_new(row, "ratio_min", out_json_num(x->ratio_min, 4));
		json_object_set_new(row, "ratio_max", out_json_num(x->ratio_max, 4));
		json_object_set_new(row, "oversubscribed", json_boolean(x->oversubscribed));
		json_object_set_new(row, "errors", json_integer((json_int_t)x->errors));
		for (int s = 0; s < x->nr_samples; s++)
			json_array_append_new(samples, out_json_num(x->samples[s], 0));
		json_object_set_new(row, "samples", samples);
		json_object_set_new(row, "scores_per_sec",
				    json_pack("[o,o]", score_json(o, x, 0), score_json(o, x, 1)));
		/* The kernel's VFS counters are not visible from here: null, not 0. */
		for (int k = 0; k < VFS_EV_NR; k++)
			json_object_set_new(ev, vfs_event_name(k),
					    kernel ? json_null() :
						     out_json_num(x->ev_per_op[k], 6));
		json_object_set_new(row, "events_per_op", ev);
		json_array_append_new(results, row);
	}
	json_object_set_new(root, "results", results);
	return root;
}

void bench_report(FILE *f, enum bench_format fmt, const struct bench_opts *o,
		  const struct bench_result *r, int nr)
{
	switch (fmt) {
	case BENCH_TABLE:
		report_table(f, o, r, nr);
		break;
	case BENCH_CSV:
		report_csv(f, o, r, nr);
		break;
	case BENCH_WIS:
		report_wis(f, o, r, nr);
		break;
	case BENCH_JSON: {
		json_t *j = bench_json(o, r, nr);

		out_json_dump(f, j);
		json_decref(j);
		break;
	}
	}
}

/*
 * s as a gnuplot single-quoted string: nothing is expanded inside one (no
 * backquote command, no @macro) and '' is a quote; a control character,
 * which could end the command, becomes '?'.
 */
static void gp_str(FILE *p, const char *s)
{
	fputc('\'', p);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("''", p);
		else
			fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, p);
	}
	fputc('\'', p);
}

static void plot_script(FILE *p, bool svg, const struct bench_opts *o, const struct bench_result *r,
			int nr, const char *sim_profile)
{
	char title[512];

	/* No "set output": gnuplot's stdout is the file, so its name is never script text. */
	fprintf(p, "set terminal %s noenhanced size 900,560\n", svg ? "svg" : "pngcairo");
	snprintf(title, sizeof(title), "%s: %s (%s)%s%s%s", o->wl->name, o->wl->desc, mode_name(o),
		 sim_profile ? ", simulated on the " : "", sim_profile ? sim_profile : "",
		 sim_profile ? " profile" : "");
	fprintf(p, "set title ");
	gp_str(p, title);
	/* The key below the axes, off the data. */
	fprintf(p,
		"\nset xlabel '%s'\nset ylabel '%sops/s'\n"
		"set key outside below\nset grid\nset yrange [0:*]\nset xtics 1\n"
		"set format y '%%.1s%%c'\n",
		sim_profile ? "virtual CPUs" : "tasks", sim_profile ? "simulated " : "");
	fprintf(p, "plot ");
	for (int s = 0; s < o->nr_sides; s++) {
		fprintf(p, "%s'-' using 1:2:3:4 with yerrorlines title ", s ? ", " : "");
		gp_str(p, o->sides[s].label);
	}
	fprintf(p, "\n");
	/* Task count, median, min, max: the line and its min-max bars. */
	for (int s = 0; s < o->nr_sides; s++) {
		for (int i = 0; i < nr; i++)
			if (r[i].side == s)
				fprintf(p, "%d %.0f %.0f %.0f\n", r[i].tasks, r[i].median, r[i].min,
					r[i].max);
		fprintf(p, "e\n");
	}
}

/* Run gnuplot with the script on stdin and out as its stdout; its exit status, or -1. */
static int run_gnuplot(const char *gp, int out, bool svg, const char *sim_profile,
		       const struct bench_opts *o, const struct bench_result *r, int nr)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	int fds[2], status;
	pid_t pid;
	FILE *p;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		if (dup2(fds[0], STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0)
			_exit(127);
		close(fds[0]);
		close(fds[1]);
		close(out);
		execl(gp, "gnuplot", (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	/* A gnuplot that stops reading early is an error to report, not a SIGPIPE. */
	sigaction(SIGPIPE, &ign, &old);
	p = fdopen(fds[1], "w");
	if (p) {
		plot_script(p, svg, o, r, nr, sim_profile);
		fclose(p);
	} else {
		close(fds[1]);
	}
	sigaction(SIGPIPE, &old, NULL);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int bench_plot(const char *file, const struct bench_opts *o, const struct bench_result *r, int nr,
	       const char *sim_profile)
{
	const char *gp = GNUPLOT_PATH;
	size_t n = strlen(file);
	bool svg = n > 4 && !strcmp(file + n - 4, ".svg");
	struct stat st;
	int out, rc;
	bool reg;

	if (!gp[0] || access(gp, X_OK)) {
		cli_error(o->cmd, "--plot needs gnuplot, which was not found at configure time "
				  "(apt-get install gnuplot-nox, then reconfigure)");
		return -1;
	}
	if (!svg && !(n > 4 && !strcmp(file + n - 4, ".png"))) {
		cli_error(o->cmd, "--plot: %s: the file must end in .png or .svg", file);
		return -1;
	}
	out = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (out < 0) {
		cli_error(o->cmd, "--plot: cannot write %s: %s", file, strerror(errno));
		return -1;
	}
	rc = run_gnuplot(gp, out, svg, sim_profile, o, r, nr);
	/* Only a regular file is checked for content, and removed after a failure. */
	reg = !fstat(out, &st) && S_ISREG(st.st_mode);
	if (rc == 0 && reg && st.st_size == 0)
		rc = -2;
	close(out);
	if (rc) {
		if (rc == -2)
			cli_error(o->cmd, "--plot: gnuplot wrote nothing to %s", file);
		else if (rc < 0)
			cli_error(o->cmd, "--plot: cannot run %s: %s", gp, strerror(errno));
		else
			cli_error(o->cmd, "--plot: gnuplot failed (status %d); %s not written", rc,
				  file);
		if (reg)
			unlink(file);
		return -1;
	}
	return 0;
}

void bench_report_partial(FILE *out, enum bench_format fmt, const char *cmd,
			  const struct bench_opts *o, const struct bench_result *r, int nr)
{
	int counts = o->nr_sides ? nr / o->nr_sides : 0;
	FILE *f = fmt == BENCH_TABLE ? out : stderr;

	if (fmt == BENCH_TABLE)
		fputc('\n', f);
	else
		fprintf(f, "vfslab %s: ", cmd);
	if (!nr) {
		fprintf(f, "INTERRUPTED by %s before a round was measured: no result\n",
			intr_name());
		return;
	}
	fprintf(f,
		"INTERRUPTED by %s: partial result: %d of %d task count%s, the last over %d "
		"of %d rounds\n",
		intr_name(), counts, o->nr_tasks, o->nr_tasks > 1 ? "s" : "", r[nr - 1].nr_samples,
		o->rounds);
}
