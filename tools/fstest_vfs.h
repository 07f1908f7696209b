/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fstest backend over a vfslab VFS instance (tools/fstest_vfs.c). */
#ifndef VFSLAB_TOOLS_FSTEST_VFS_H
#define VFSLAB_TOOLS_FSTEST_VFS_H

#include "tools/fstest.h"

struct vfs;
struct task;

struct fstest_vfs {
	struct vfs *vfs;
	struct task *shell;	/* holds the cwd and fds 0-2 between lines */
	struct task *cur;	/* the invocation running now */
};

extern const struct fstest_backend fstest_vfs_backend;

int fstest_vfs_init(struct fstest_vfs *fv, struct vfs *vfs);
void fstest_vfs_fini(struct fstest_vfs *fv);

#endif /* VFSLAB_TOOLS_FSTEST_VFS_H */
