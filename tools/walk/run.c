// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab walk's run: a fresh VFS, the path built in it (directories 0755,
 * the last component a file), the -e lines run, then the walk as the
 * given user, printed by walk_print_trace().
 */
#include <stdio.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/fstest/fstest.h"
#include "tools/fstest/vfs.h"
#include "tools/walk/walk.h"
#include "vfs/vfs.h"

/* mkdir each directory of path and create its last component, quietly. */
static void build_path(struct fstest_vfs *fv, const char *p)
{
	FILE *null = fopen("/dev/null", "w");
	char line[4200];

	for (const char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		snprintf(line, sizeof(line), "mkdir %.*s 0755", (int)(s - p), p);
		fstest_run_line(&fstest_vfs_backend, fv, line, null, stderr, "walk", 0);
	}
	if (p[strlen(p) - 1] != '/') {
		snprintf(line, sizeof(line), "open %s O_CREAT,O_WRONLY 0644", p);
		fstest_run_line(&fstest_vfs_backend, fv, line, null, stderr, "walk", 0);
	}
	if (null)
		fclose(null);
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
		build_path(&fv, o->path);
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
	err = walk_print_trace(vfs, fstest_vfs_task(&fv), o->path, o->follow, o->steps);
	fstest_vfs_backend.end(&fv);
	fstest_vfs_fini(&fv);
	if (cli_vfs_destroy("walk", vfs))
		ret = 1;
	return err ? 1 : ret;
}
