// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab walk's run: a fresh VFS, the path built in it (directories 0755,
 * the last component a file), the -e lines run, then the walk as the
 * given user, printed by walk_print_trace().
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/fstest/fstest.h"
#include "tools/fstest/vfs.h"
#include "tools/walk/walk.h"
#include "vfs/vfs.h"

/*
 * mkdir each directory of path and create its last component, quietly
 * (what exists stays; the walk reports what failed). By syscall, not as
 * an fstest line: the path is any bytes, spaces and ':' included.
 */
static void build_path(struct task *t, const char *p)
{
	size_t len = strlen(p);
	char *dir = malloc(len + 1);
	long fd;

	if (!dir)
		return;
	for (const char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		memcpy(dir, p, s - p);
		dir[s - p] = '\0';
		sys_mkdir(t, dir, 0755);
	}
	free(dir);
	if (p[len - 1] != '/') {
		fd = sys_openat(t, AT_FDCWD, p, O_CREAT | O_WRONLY, 0644);
		if (fd >= 0)
			sys_close(t, (int)fd);
	}
}

/* Become uid:gid (umask 022) for the walk. */
static void become(struct fstest_vfs *fv, unsigned long uid, unsigned long gid)
{
	struct fstest_cred cred = { 0 };

	cred.has_uid = uid != 0;
	cred.uid = uid;
	cred.has_groups = gid != 0;
	cred.gid = gid;
	cred.ngroups = 1;
	cred.groups[0] = gid;
	cred.umask = 022;
	fstest_vfs_backend.begin(fv, &cred);
}

int walk_run(const struct walk_opts *o)
{
	struct vfs_config cfg;
	struct fstest_vfs fv;
	struct vfs *vfs;
	int ret = 0, err;

	if (cli_config("walk", o->variant, &cfg))
		return 2;
	vfs = cli_vfs_new("walk", &cfg);
	if (!vfs)
		return 1;
	if (fstest_vfs_init(&fv, vfs)) {
		cli_error("walk", "cannot create the initial task");
		cli_vfs_destroy("walk", vfs);
		return 1;
	}
	if (o->create && o->path[0] == '/')
		build_path(fstest_vfs_task(&fv), o->path);
	for (int i = 0; i < o->nlines; i++) {
		printf("setup: %s -> ", o->lines[i]);
		fflush(stdout);
		if (fstest_run_line(&fstest_vfs_backend, &fv, o->lines[i], stdout, stderr, "-e",
				    i + 1))
			ret = 1;
	}
	become(&fv, o->uid, o->gid);
	printf("walk \"%s\" as uid %lu gid %lu (%s)\n", o->path, o->uid, o->gid,
	       o->follow ? "stat: a trailing symlink is followed" : "lstat: not followed");
	err = walk_print_trace(vfs, fstest_vfs_task(&fv), o->path, o->follow, o->resolve, o->steps);
	fstest_vfs_backend.end(&fv);
	fstest_vfs_fini(&fv);
	if (cli_vfs_destroy("walk", vfs))
		ret = 1;
	return err ? 1 : ret;
}
