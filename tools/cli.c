// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the vfslab commands share: error messages, strict numbers in
 * options, a VFS from a --variant spec, and the options every bench-runner
 * command (bench, compare, sim) takes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/kstrtox.h"
#include "tools/cli.h"
#include "vfs/vfs.h"

bool cli_parse_only;

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vfslab %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_ull(const char *cmd, const char *opt, const char *s, unsigned long long min,
	    unsigned long long max, unsigned long long *out)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	unsigned long long v;
	int r = kstrtoull(s, hex ? 16 : 10, &v);

	if (r || v < min || v > max) {
		cli_error(cmd, "%s: expected a whole number from %llu to %llu, not '%s'%s", opt,
			  min, max, s, r == -ERANGE ? " (too large)" : "");
		return -1;
	}
	*out = v;
	return 0;
}

int cli_ids(const char *cmd, const char *opt, const char *s, unsigned long *uid, unsigned long *gid)
{
	char *copy = strdup(s), *colon = copy ? strchr(copy, ':') : NULL;
	unsigned long long u, g;
	int bad;

	if (!copy)
		return -1;
	if (colon)
		*colon = '\0';
	/* (uid_t)-1 means "no change" to setresuid(): not an id. */
	bad = kstrtoull(copy, 10, &u) || kstrtoull(colon ? colon + 1 : copy, 10, &g) ||
	      u > 0xfffffffeull || g > 0xfffffffeull;
	free(copy);
	if (bad) {
		cli_error(cmd, "%s: expected UID[:GID], each 0 to 4294967294, not '%s'", opt, s);
		return -1;
	}
	*uid = u;
	*gid = g;
	return 0;
}

int cli_double(const char *cmd, const char *opt, const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	/* strtod() takes leading space and signs: a number starts with a digit or '.'. */
	if ((*s != '.' && (*s < '0' || *s > '9')) || *end || errno || !(v >= min && v <= max)) {
		cli_error(cmd, "%s: expected a number from %g to %g, not '%s'", opt, min, max, s);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_fclose(const char *cmd, const char *name, FILE *f)
{
	bool bad = fflush(f) || ferror(f);
	int err = errno;

	if (fclose(f) && !bad) {
		bad = true;
		err = errno;
	}
	if (bad) {
		cli_error(cmd, "cannot write %s: %s", name, err ? strerror(err) : "a write failed");
		return -1;
	}
	return 0;
}

int cli_config(const char *cmd, const char *spec, struct vfs_config *cfg)
{
	vfs_config_default(cfg);
	return cli_config_apply(cmd, spec, cfg);
}

/* --variant SPEC over what cfg already holds (a command's own defaults). */
int cli_config_apply(const char *cmd, const char *spec, struct vfs_config *cfg)
{
	char err[512];

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
		char *dash = strchr(t, '-');
		unsigned long long a, b;

		if (dash)
			*dash = '\0';
		if (kstrtoull(t, 10, &a) || kstrtoull(dash ? dash + 1 : t, 10, &b) || a < 1 ||
		    b < a || b > BENCH_MAX_TASKS)
			ret = -1;
		for (unsigned long long n = a; !ret && n <= b; n++) {
			if (o->nr_tasks == (int)ARRAY_SIZE(o->tasks))
				ret = -1;
			else
				o->tasks[o->nr_tasks++] = (int)n;
		}
	}
	free(copy);
	return ret || !o->nr_tasks ? -1 : 0;
}

int bench_cli_side(struct bench_opts *o, const char *spec)
{
	struct bench_side *s;

	if (o->nr_sides == BENCH_MAX_SIDES) {
		cli_error(o->cmd, "at most %d sides", BENCH_MAX_SIDES);
		return -1;
	}
	s = &o->sides[o->nr_sides];
	memset(s, 0, sizeof(*s));
	if (cli_config(o->cmd, spec, &s->cfg))
		return -1;
	snprintf(s->label, sizeof(s->label), spec ? "vfslab %s" : "vfslab", spec);
	o->nr_sides++;
	return 0;
}

int bench_cli_defaults(struct bench_opts *o, const char *cmd)
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->interval = 0.5;
	o->rounds = 5;
	o->pin = true;
	o->tmpdir = "/dev/shm";
	return 0;
}

/* The options bench and compare share: --tasks --interval --rounds --entry-ns --format. */
int bench_cli_option(struct bench_opts *o, int opt, const char *arg, enum bench_format *fmt)
{
	unsigned long long n;

	switch (opt) {
	case 't':
		if (bench_cli_tasks(arg, o)) {
			cli_error(o->cmd, "--tasks: expected e.g. 1,2,4 or 1-4 (at most %d)",
				  BENCH_MAX_TASKS);
			return -1;
		}
		return 0;
	case 'i':
		return cli_double(o->cmd, "--interval", arg, 0.01, 60, &o->interval);
	case 'r':
		if (cli_ull(o->cmd, "--rounds", arg, 1, BENCH_MAX_ROUNDS, &n))
			return -1;
		o->rounds = (int)n;
		return 0;
	case 'e':
		if (!strcmp(arg, "host")) {
			o->entry_host = true;
			return 0;
		}
		if (cli_ull(o->cmd, "--entry-ns", arg, 0, 1000000, &n))
			return -1;
		o->entry_ns = (long)n;
		return 0;
	case 'f':
		if (!strcmp(arg, "csv"))
			*fmt = BENCH_CSV;
		else if (!strcmp(arg, "json"))
			*fmt = BENCH_JSON;
		else if (!strcmp(arg, "table"))
			*fmt = BENCH_TABLE;
		else {
			cli_error(o->cmd, "--format: table, csv or json, not '%s'", arg);
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
