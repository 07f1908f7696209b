// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab: one program, git-style subcommands. This file holds the command
 * table; each command lives in tools/cmd_<name>.c, the helpers they share
 * in tools/cli.c. Both programs, vfslab (tools/main.c) and the simulator's
 * vfslab-sim (tools/simrun/main.c), run vfslab_main().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cmd.h"
#include "vfs/vfs.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static int cmd_help(int argc, char **argv);

static const struct command commands[] = {
	{ "bench", cmd_bench,
	  "run a workload on vfslab and the host kernel; ops/s, ratios, counters" },
	{ "compare", cmd_compare,
	  "run a seed scenario: before vs after, and whether the seed's direction shows" },
	{ "scenarios", cmd_scenarios, "list the seed scenarios with what each kernel change did" },
	{ "fstest", cmd_fstest, "run pjdfstest-language scripts against vfslab or the host" },
	{ "shell", cmd_shell, "the fstest language interactively, and commands to look inside" },
	{ "walk", cmd_walk, "trace one path walk step by step (RCU walk, d_seq, fallbacks)" },
	{ "layout", cmd_layout, "print struct layouts pahole-style; list presets" },
	{ "replay", cmd_replay, "replay an strace -f log: --check results, or ops/s per variant" },
	{ "torture", cmd_torture,
	  "random concurrent syscalls with invariant checks; shrinks failures" },
	{ "difftest", cmd_difftest,
	  "random scripts on vfslab and the host kernel, compared; shrinks mismatches" },
	{ "sim", cmd_sim,
	  "simulate a workload or a seed on a many-core machine; contention report" },
	{ "advise", cmd_advise,
	  "propose a struct layout for workloads at N CPUs, checked on the simulator" },
	{ "help", cmd_help, "show help for vfslab or a command" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: vfslab COMMAND [ARGS]\n\n"
		   "vfslab rebuilds the Linux VFS object model (dentries, RCU path walk,\n"
		   "lockref, struct file, fd tables) in userspace, to run, compare and\n"
		   "look inside file-syscall workloads.\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n`vfslab help COMMAND` or `vfslab COMMAND --help` for details;\n"
		   "`vfslab help variants` for the --variant keys; `vfslab --version`.\n");
}

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int cmd_help(int argc, char **argv)
{
	const struct command *c;
	char *args[] = { NULL, "--help", NULL };

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "variants")) {
		printf("--variant takes KEY=VALUE items separated by commas:\n%s",
		       vfs_config_help());
		return 0;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf("usage: vfslab help [COMMAND|variants]\n\n"
		       "Prints the commands, COMMAND's --help, or the --variant keys.\n");
		return 0;
	}
	c = find(argv[1]);
	if (!c) {
		cli_error("help", "unknown command '%s'", argv[1]);
		return 2;
	}
	args[0] = (char *)c->name;
	return c->fn(2, args);
}

/* The command argv[1] names; its exit status. */
static int run(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("vfslab %s\n", PACKAGE_VERSION);
		return 0;
	}
	c = find(argv[1]);
	if (!c) {
		fprintf(stderr, "vfslab: unknown command '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	return c->fn(argc - 1, argv + 1);
}

int vfslab_main(int argc, char **argv)
{
	int ret = run(argc, argv);

	/*
	 * Output that never reached its file (a full disk, a closed pipe) is
	 * a failure whatever the command said. Flushed, not closed: a caller
	 * may print on.
	 */
	errno = 0;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "vfslab%s%s: cannot write to standard output%s%s\n",
			argc > 1 ? " " : "", argc > 1 ? argv[1] : "", errno ? ": " : "",
			errno ? strerror(errno) : "");
		return ret ? ret : 1;
	}
	return ret;
}
