/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fstest backend over a vfslab VFS instance (tools/fstest/vfs.c). */
#ifndef VFSLAB_TOOLS_FSTEST_VFS_H
#define VFSLAB_TOOLS_FSTEST_VFS_H

#include "tools/fstest/fstest.h"

struct vfs;
struct task;

struct fstest_vfs {
	struct vfs *vfs;
	struct task *shell; /* holds the cwd and fds 0-2 between lines */
	/* The calls' ctx: the invocation running now, and DEADCODE's fault. */
	struct sys_vfs sys;
	/*
	 * Run every line in the shell task itself (vfslab shell): descriptors
	 * stay open from one line to the next; -u/-g/-U last one line.
	 */
	bool persistent;
	struct {
		bool creds_set, umask_set;
		mode_t umask;
	} saved;
};

extern const struct fstest_backend fstest_vfs_backend;

int fstest_vfs_init(struct fstest_vfs *fv, struct vfs *vfs);
void fstest_vfs_fini(struct fstest_vfs *fv);

/* The task lines run in now (the shell task between lines). */
struct task *fstest_vfs_task(struct fstest_vfs *fv);

#endif /* VFSLAB_TOOLS_FSTEST_VFS_H */
