// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the vfslab commands share: error messages, a VFS from a --variant
 * spec, and the options every bench-runner command (bench, compare, sim)
 * takes.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cli.h"
#include "vfs/vfs.h"

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vfslab %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_config(const char *cmd, const char *spec, struct vfs_config *cfg)
{
	char err[512];

	vfs_config_default(cfg);
	if (spec && vfs_config_parse(cfg, spec, err, sizeof(err))) {
		cli_error(cmd, "--variant: %s", err);
		return -1;
	}
	return 0;
}

struct vfs *cli_vfs_new(const char *cmd, const struct vfs_config *cfg)
{
	char err[512];
	struct vfs *vfs;

	vfs_thread_enter();
	vfs = vfs_new(cfg, err, sizeof(err));
	if (!vfs) {
		cli_error(cmd, "%s", err);
		vfs_thread_exit();
	}
	return vfs;
}

int cli_vfs_destroy(const char *cmd, struct vfs *vfs)
{
	long leaked = vfs_destroy(vfs);

	vfs_thread_exit();
	if (leaked) {
		cli_error(cmd, "%ld objects leaked or still in use at teardown", leaked);
		return 1;
	}
	return 0;
}

int cli_options(int argc, char **argv, const char *shortopts, const struct option *opts,
		int (*one)(void *ctx, int opt, const char *arg), void *ctx)
{
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		ret = one(ctx, c, optarg);
		if (ret >= 0)
			return ret;
	}
	return -1;
}

/* ---- the bench runner's options ---- */

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
