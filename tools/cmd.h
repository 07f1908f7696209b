/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The vfslab subcommands and the helpers they share. Each cmd_<name>()
 * takes the arguments after the subcommand's name (argv[0] is the name)
 * and returns the exit status: 0 ok, 1 failure, 2 usage error.
 */
#ifndef VFSLAB_TOOLS_CMD_H
#define VFSLAB_TOOLS_CMD_H

#include <stdbool.h>
#include <stdio.h>

struct layout;
struct vfs;
struct vfs_config;

int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_scenarios(int argc, char **argv);
int cmd_fstest(int argc, char **argv);
int cmd_walk(int argc, char **argv);
int cmd_layout(int argc, char **argv);
int cmd_shell(int argc, char **argv);
/* vfslab execs vfslab-sim (tools/cmd_sim.c), which runs it (tools/simrun/cmd.c). */
int cmd_sim(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_torture(int argc, char **argv);
int cmd_difftest(int argc, char **argv);

/* The program: the command named by argv[1]; returns the exit status. */
int vfslab_main(int argc, char **argv);

/* Print "vfslab CMD: message" to stderr (printf-style). */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Build a config from a variant spec (NULL: defaults); 0 or -1 after cli_error. */
int cli_config(const char *cmd, const char *spec, struct vfs_config *cfg);

/* A VFS for a command: registers the thread with RCU. NULL after cli_error. */
struct vfs *cli_vfs_new(const char *cmd, const struct vfs_config *cfg);
/* Destroy it; returns 1 (and reports) if objects leaked. */
int cli_vfs_destroy(const char *cmd, struct vfs *vfs);

/* Walk path in t, printing the result (and each step with steps); 0 or -errno. */
struct task;
int cli_walk_trace(struct vfs *vfs, struct task *t, const char *path, bool follow, bool steps);

/* pahole-style printing of a layout, and its hot-line warnings (count). */
void cli_layout_print(const struct layout *l, FILE *f);
int cli_layout_warnings(const struct layout *l, FILE *f);

#endif /* VFSLAB_TOOLS_CMD_H */
