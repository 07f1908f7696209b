/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the vfslab commands share (cli.c): errors in one format, numbers
 * parsed strictly (every numeric option goes through cli_ull or
 * cli_double), a VFS or a config from a --variant spec, and the bench
 * runner's options, which bench, compare and sim all take.
 */
#ifndef VFSLAB_TOOLS_CLI_H
#define VFSLAB_TOOLS_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "tools/bench/bench.h"

struct option;
struct vfs;
struct vfs_config;

/*
 * Set only by the argument fuzzer (tests/fuzz/fuzz_cli.c): each command
 * returns 0 once its arguments are parsed and checked, before its work.
 */
extern bool cli_parse_only;

/* Print "vfslab CMD: message" to stderr (printf-style). */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The whole of s as a number in [min, max], decimal or 0x hex: a sign,
 * junk after the digits or overflow is an error. 0, or -1 after
 * cli_error naming cmd's option opt ("--lines").
 */
int cli_ull(const char *cmd, const char *opt, const char *s, unsigned long long min,
	    unsigned long long max, unsigned long long *out);
/* "UID[:GID]" (GID defaults to UID), each 0 to 2^32-2; 0 or -1 after cli_error. */
int cli_ids(const char *cmd, const char *opt, const char *s, unsigned long *uid,
	    unsigned long *gid);
/* The same for a decimal fraction ("0.5", "2e3"); NaN and infinities are out of range. */
int cli_double(const char *cmd, const char *opt, const char *s, double min, double max,
	       double *out);

/* Close f, written as name; 0, or -1 after cli_error if any write failed. */
int cli_fclose(const char *cmd, const char *name, FILE *f);

/* Build a config from a variant spec (NULL: defaults); 0 or -1 after cli_error. */
int cli_config(const char *cmd, const char *spec, struct vfs_config *cfg);
int cli_config_apply(const char *cmd, const char *spec, struct vfs_config *cfg);

/* A VFS for a command: registers the thread with RCU. NULL after cli_error. */
struct vfs *cli_vfs_new(const char *cmd, const struct vfs_config *cfg);
/* Destroy it; returns 1 (and reports) if objects leaked. */
int cli_vfs_destroy(const char *cmd, struct vfs *vfs);

/*
 * getopt_long() over argv from its start, each option to one(ctx, opt,
 * optarg), which returns -1 to go on or the exit status that ends the
 * parse (0 after --help, 2 after a bad option). -1 when all went; optind
 * is then the first operand.
 */
int cli_options(int argc, char **argv, const char *shortopts, const struct option *opts,
		int (*one)(void *ctx, int opt, const char *arg), void *ctx);

/* bench_opts' defaults for command cmd: 0.5 s intervals, 5 rounds, pinned, /dev/shm. */
int bench_cli_defaults(struct bench_opts *o, const char *cmd);
/* The options bench, compare and sim share: --tasks --interval --rounds
 * --entry-ns --format (opt: 't', 'i', 'r', 'e', 'f'); 0 or -1 after cli_error. */
int bench_cli_option(struct bench_opts *o, int opt, const char *arg, enum bench_format *fmt);
/* "1,2,4" or "1-4" into o->tasks; 0 or -1. */
int bench_cli_tasks(const char *s, struct bench_opts *o);
/* One more vfslab side built from spec (NULL: the defaults); 0 or -1. */
int bench_cli_side(struct bench_opts *o, const char *spec);
/* After parsing: default task sweep, the host's entry cost, progress. */
void bench_cli_finish(struct bench_opts *o);

#endif /* VFSLAB_TOOLS_CLI_H */
