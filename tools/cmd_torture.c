// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab torture: the command line into struct torture, then
 * torture_main() (tools/torture/) runs it.
 */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tools/cmd.h"
#include "tools/interrupt.h"
#include "tools/torture/torture.h"

/* fs.mount-max for the torture's namespace unless --variant gives one. */
#define TORTURE_MOUNT_MAX 256

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vfslab torture [--tasks N] [--ops N] [--seconds S] [--seed N]\n"
		"                      [--variant SPEC] [--rss] [--verbose] [--check-every N]\n"
		"                      [--no-shrink] [--shrink-seconds S] [--hang-seconds S]\n"
		"                      [--fail-on CALL:ERRNO[:crash]]\n\n"
		"N threads, each with its own vfslab task (odd ones share the previous one's\n"
		"files with TASK_CLONE_FILES, the others are separate processes, every fourth\n"
		"is not root; tasks fork, with and without CLONE_FILES, and exit as they go),\n"
		"run seeded random open, openat, close, dup, dup2, stat, lstat, fstat, read,\n"
		"write, pread, pwrite, lseek, rename, renameat2 (EXCHANGE, NOREPLACE,\n"
		"WHITEOUT), unlink, mkdir, rmdir, link, linkat(AT_EMPTY_PATH), symlink,\n"
		"readlink, chmod, ftruncate, getdents64, close_range, chdir, fchdir, rm -rf,\n"
		"mount (tmpfs, bind, recursive bind, read-only bind) and umount2 (half of\n"
		"them MNT_DETACH; fs.mount-max is %d unless --variant sets mount-max) over\n"
		"a few names in a few directory levels, and stats of names nothing creates\n"
		"(lookup-missing: threads miss the same names at once, the lookups\n"
		"d_alloc_parallel() makes wait for each other; success is a failure).\n"
		"Each return must be one Linux can give for that call here; the\n"
		"invariants of vfs/check.h are checked after each op, in a stop-the-world\n"
		"pause every --check-every ops (default 1000; the slab counts, which need an\n"
		"rcu_barrier(), every tenth pause) and at the end, when every task has\n"
		"exited, before vfs_destroy() which must return 0.\n\n"
		"A failure prints the seed, the op and the invariant, replays the ops\n"
		"single-threaded, task after task, and shrinks them to a minimal sequence in\n"
		"the fstest language (or says the failure only occurs concurrently). Crashes\n"
		"(BUG_ON, sanitizers) and hangs are failures too.\n\n"
		"  --tasks N          threads (default 4, at most %d)\n"
		"  --ops N            ops in all, split evenly (default: 20000 if no --seconds)\n"
		"  --seconds S        stop after S seconds\n"
		"  --seed N           the seed (default: from the clock; always printed)\n"
		"  --variant SPEC     run under a variant (`vfslab help variants`)\n"
		"  --rss              print the process' RSS every second, and the curve\n"
		"  --verbose          with the summary, every errno each call returned\n"
		"  --check-every N    ops between stop-the-world checks (0: only at the end)\n"
		"  --no-shrink        replay a failure, but do not shrink it\n"
		"  --shrink-seconds S give up shrinking after S seconds (default 120)\n"
		"  --hang-seconds S   no op finishing for S seconds is a hang (default 60)\n"
		"  --fail-on C:E      treat errno E of call C as a failure (to exercise the\n"
		"                     shrinker, or find a sequence that gives E); :crash aborts,\n"
		"                     :hang sleeps forever there\n",
		TORTURE_MOUNT_MAX, MAX_THREADS);
}

/* Seconds: a week is more than any run needs and less than any overflow. */
#define MAX_SECONDS (7 * 24 * 3600.0)

int cmd_torture(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tasks", required_argument, NULL, 't' },
		{ "ops", required_argument, NULL, 'o' },
		{ "seconds", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },
		{ "variant", required_argument, NULL, 'v' },
		{ "rss", no_argument, NULL, 'r' },
		{ "check-every", required_argument, NULL, 'c' },
		{ "no-shrink", no_argument, NULL, 'n' },
		{ "shrink-seconds", required_argument, NULL, 'x' },
		{ "hang-seconds", required_argument, NULL, 'g' },
		{ "fail-on", required_argument, NULL, 'f' },
		{ "verbose", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct torture tt;
	const char *variant = NULL;
	bool seeded = false;
	unsigned long long n;
	double x;
	int c;

	memset(&tt, 0, sizeof(tt));
	tt.ntasks = 4;
	tt.check_every = 1000;
	tt.shrink = true;
	tt.shrink_seconds = 120;
	tt.hang_seconds = 60;
	tt.fail_on_op = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (cli_ull("torture", "--tasks", optarg, 1, MAX_THREADS, &n))
				return 2;
			tt.ntasks = (unsigned int)n;
			break;
		case 'o':
			if (cli_ull("torture", "--ops", optarg, 1, ULONG_MAX, &n))
				return 2;
			tt.ops = (unsigned long)n;
			break;
		case 's':
		case 'x':
		case 'g':
			if (cli_double("torture",
				       c == 's' ? "--seconds" :
				       c == 'x' ? "--shrink-seconds" :
						  "--hang-seconds",
				       optarg, 0.001, MAX_SECONDS, &x))
				return 2;
			*(c == 's' ? &tt.seconds :
			  c == 'x' ? &tt.shrink_seconds :
				     &tt.hang_seconds) = x;
			break;
		case 'S':
			if (cli_ull("torture", "--seed", optarg, 0, UINT64_MAX, &n))
				return 2;
			tt.seed = n;
			seeded = true;
			break;
		case 'v':
			variant = optarg;
			break;
		case 'r':
			tt.rss = true;
			break;
		case 'c':
			if (cli_ull("torture", "--check-every", optarg, 0, UINT_MAX, &n))
				return 2;
			tt.check_every = (unsigned int)n;
			break;
		case 'n':
			tt.shrink = false;
			break;
		case 'f':
			if (torture_parse_fail_on(&tt, optarg)) {
				cli_error("torture",
					  "--fail-on: CALL:ERRNO[:crash], e.g. rmdir:ENOTEMPTY");
				return 2;
			}
			break;
		case 'V':
			tt.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	/*
	 * The ops mount on a few names without end: stacks thousands deep
	 * within seconds, every walk past them __lookup_mnt()'s time. A small
	 * fs.mount-max bounds them and makes ENOSPC one of the outcomes; a
	 * --variant that sets mount-max overrides it.
	 */
	vfs_config_default(&tt.cfg);
	tt.cfg.mount_max = TORTURE_MOUNT_MAX;
	if (cli_config_apply("torture", variant, &tt.cfg))
		return 2;
	if (!tt.ops && !tt.seconds)
		tt.ops = 20000;
	if (!seeded)
		tt.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	if (cli_parse_only)
		return 0;
	intr_catch();
	return torture_main(&tt);
}
