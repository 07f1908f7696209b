/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The vfslab subcommands. Each cmd_<name>() takes the arguments after the
 * subcommand's name (argv[0] is the name) and returns the exit status: 0
 * ok, 1 failure, 2 usage error. The helpers they share are tools/cli.h's.
 */
#ifndef VFSLAB_TOOLS_CMD_H
#define VFSLAB_TOOLS_CMD_H

#include "tools/cli.h"

int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_scenarios(int argc, char **argv);
int cmd_fstest(int argc, char **argv);
int cmd_walk(int argc, char **argv);
int cmd_layout(int argc, char **argv);
int cmd_shell(int argc, char **argv);
/* vfslab execs vfslab-sim (tools/cmd_sim.c), which runs it (tools/simrun/cmd.c). */
int cmd_sim(int argc, char **argv);
/* The same for vfslab advise (tools/advise/cmd.c). */
int cmd_advise(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_torture(int argc, char **argv);
int cmd_difftest(int argc, char **argv);

/* The program: the command named by argv[1]; returns the exit status. */
int vfslab_main(int argc, char **argv);

#endif /* VFSLAB_TOOLS_CMD_H */
