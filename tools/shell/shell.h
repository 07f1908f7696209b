/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * vfslab shell's engine: the loop (repl.c) and the commands that look
 * inside the VFS (inspect.c).
 */
#ifndef VFSLAB_TOOLS_SHELL_SHELL_H
#define VFSLAB_TOOLS_SHELL_SHELL_H

#include <stdbool.h>

struct task;
struct vfs;
struct vfs_config;

/* What `help` prints (and `vfslab shell --help` under its usage line). */
extern const char shell_help[];

/* A fresh VFS built with variant, lines from stdin; the exit status. */
int shell_run(const char *variant);

void shell_show_dentry(struct task *t, const char *path, bool follow);
void shell_show_fdtable(struct task *t);
/* The layouts cfg gives, or the one named which; -1 (said) if there is no such struct. */
int shell_show_layouts(const struct vfs_config *cfg, const char *which);
void shell_show_counters(void);
void shell_show_caches(struct vfs *vfs);

#endif /* VFSLAB_TOOLS_SHELL_SHELL_H */
