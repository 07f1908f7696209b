// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Benchmark output: a table for people, CSV (will-it-scale's columns first:
 * tasks, then ops/s) and JSON for programs, and a gnuplot plot.
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
	fprintf(f, "tasks,workload,mode,side,ops_per_sec,min,max,ratio,ratio_min,ratio_max,"
		   "oversubscribed,entry_ns");
	for (int k = 0; k < VFS_EV_NR; k++)
		fprintf(f, ",%s_per_op", vfs_event_name(k));
	fprintf(f, ",score0_per_sec,score1_per_sec,errors\n");
	for (int i = 0; i < nr; i++) {
		const struct bench_result *x = &r[i];

		fprintf(f, "%d,%s,%s,\"%s\",%.0f,%.0f,%.0f,%.4f,%.4f,%.4f,%d,%ld", x->tasks,
			o->wl->name, mode_name(o), o->sides[x->side].label, x->median, x->min,
			x->max, x->ratio, x->ratio_min, x->ratio_max, x->oversubscribed,
			o->sides[x->side].kernel ? 0 : o->entry_ns);
		for (int k = 0; k < VFS_EV_NR; k++)
			fprintf(f, ",%.6f", x->ev_per_op[k]);
		fprintf(f, ",%.0f,%.0f,%lu\n", x->score[0], x->score[1], x->errors);
	}
}

/* A JSON string literal of s. */
void bench_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void report_json(FILE *f, const struct bench_opts *o, const struct bench_result *r, int nr)
{
	fprintf(f, "{\"workload\":");
	bench_json_str(f, o->wl->name);
	fprintf(f, ",\"description\":");
	bench_json_str(f, o->wl->desc);
	fprintf(f,
		",\"mode\":\"%s\",\"interval_s\":%.3f,\"rounds\":%d,\"entry_ns\":%ld,"
		"\"entry_ns_is_host_getppid\":%s,\"results\":[",
		mode_name(o), o->interval, o->rounds, o->entry_ns,
		o->entry_host ? "true" : "false");
	for (int i = 0; i < nr; i++) {
		const struct bench_result *x = &r[i];

		fprintf(f, "%s\n {\"side\":", i ? "," : "");
		bench_json_str(f, o->sides[x->side].label);
		fprintf(f,
			",\"kernel\":%s,\"tasks\":%d,\"ops_per_sec\":%.0f,\"min\":%.0f,"
			"\"max\":%.0f,\"ratio\":%.4f,\"ratio_min\":%.4f,\"ratio_max\":%.4f,"
			"\"oversubscribed\":%s,\"errors\":%lu,\"samples\":[",
			o->sides[x->side].kernel ? "true" : "false", x->tasks, x->median, x->min,
			x->max, x->ratio, x->ratio_min, x->ratio_max,
			x->oversubscribed ? "true" : "false", x->errors);
		for (int s = 0; s < x->nr_samples; s++)
			fprintf(f, "%s%.0f", s ? "," : "", x->samples[s]);
		fprintf(f, "],\"scores_per_sec\":[%.0f,%.0f],\"events_per_op\":{", x->score[0],
			x->score[1]);
		for (int k = 0; k < VFS_EV_NR; k++)
			fprintf(f, "%s\"%s\":%.6f", k ? "," : "", vfs_event_name(k),
				x->ev_per_op[k]);
		fprintf(f, "}}");
	}
	fprintf(f, "\n]}\n");
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
	case BENCH_JSON:
		report_json(f, o, r, nr);
		break;
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
			int nr)
{
	char title[512];

	/* No "set output": gnuplot's stdout is the file, so its name is never script text. */
	fprintf(p, "set terminal %s noenhanced size 900,560\n", svg ? "svg" : "pngcairo");
	snprintf(title, sizeof(title), "%s: %s (%s)", o->wl->name, o->wl->desc, mode_name(o));
	fprintf(p, "set title ");
	gp_str(p, title);
	fprintf(p, "\nset xlabel 'tasks'\nset ylabel 'ops/s'\n"
		   "set key top left\nset grid\nset yrange [0:*]\nset xtics 1\n"
		   "set format y '%%.1s%%c'\n");
	fprintf(p, "plot ");
	for (int s = 0; s < o->nr_sides; s++) {
		fprintf(p, "%s'-' using 1:2 with linespoints title ", s ? ", " : "");
		gp_str(p, o->sides[s].label);
	}
	fprintf(p, "\n");
	for (int s = 0; s < o->nr_sides; s++) {
		for (int i = 0; i < nr; i++)
			if (r[i].side == s)
				fprintf(p, "%d %.0f\n", r[i].tasks, r[i].median);
		fprintf(p, "e\n");
	}
}

/* Run gnuplot with the script on stdin and out as its stdout; its exit status, or -1. */
static int run_gnuplot(const char *gp, int out, bool svg, const struct bench_opts *o,
		       const struct bench_result *r, int nr)
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
		plot_script(p, svg, o, r, nr);
		fclose(p);
	} else {
		close(fds[1]);
	}
	sigaction(SIGPIPE, &old, NULL);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int bench_plot(const char *file, const struct bench_opts *o, const struct bench_result *r, int nr)
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
	rc = run_gnuplot(gp, out, svg, o, r, nr);
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
