// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * difftest's mount and openat2 calls: new tmpfs instances, bind mounts
 * (recursive or not), remounts read-only per superblock and per mount,
 * umount2 with each flag, namespace calls across and onto mounts (EXDEV,
 * EBUSY, EROFS), and openat2 with every RESOLVE_ flag and its size rules.
 *
 * Mount targets are directories named m or n, which no other generator
 * names: a target is then never the scratch root itself, which is
 * vfslab's namespace root but only a directory on the host (an umount or
 * remount there would differ). Propagation flags other than MS_PRIVATE,
 * and MS_MOVE, are left out: vfslab's mounts are all private.
 */
#include <stdio.h>
#include <string.h>

#include "tools/difftest/gen.h"

static const char *const mnt_names[] = { "m", "n" };

/* Where a mount goes: m or n, at the top, under a name, or in another mount. */
static void gen_mountpoint(struct gen *g, char *buf)
{
	unsigned int r = gen_rnd(g, 100);

	if (r < 40)
		sprintf(buf, "%s", GEN_PICK(g, mnt_names));
	else if (r < 75)
		sprintf(buf, "%s/%s", GEN_PICK(g, gen_names), GEN_PICK(g, mnt_names));
	else
		sprintf(buf, "%s/%s", GEN_PICK(g, mnt_names), GEN_PICK(g, mnt_names));
}

/* A path through a mount point, or one of the usual ones. */
static void gen_mount_path(struct gen *g, char *buf)
{
	if (gen_chance(g, 30)) {
		gen_path(g, buf);
		return;
	}
	gen_mountpoint(g, buf);
	if (gen_chance(g, 75))
		sprintf(buf + strlen(buf), "/%s", GEN_PICK(g, gen_names));
	if (gen_chance(g, 20))
		sprintf(buf + strlen(buf), "/%s", GEN_PICK(g, gen_names));
}

static void gen_new_mount(struct gen *g, const char *target)
{
	static const char *const flags[] = {
		"0",	     "0",	   "0",	       "MS_RDONLY", "MS_NOSUID,MS_NODEV",
		"MS_NOEXEC", "MS_NOATIME", "MS_NOUSER"
	};
	static const char *const data[] = { "size=1m", "mode=0700", "mode=01777,uid=1000",
					    "size=8k", "bogus=1",   "size=x" };
	unsigned int r = gen_rnd(g, 100);

	gen_call(g, "mount");
	gen_arg(g, "none %s %s %s", target,
		r < 88 ? "tmpfs" :
		r < 94 ? "NULL" :
			 "nosuchfs",
		GEN_PICK(g, flags));
	if (gen_chance(g, 25))
		gen_arg(g, "%s", GEN_PICK(g, data));
}

static void gen_bind(struct gen *g, const char *target)
{
	char src[GEN_WORD];

	if (gen_chance(g, 5))
		strcpy(src, gen_chance(g, 50) ? "''" : "NULL");
	else
		gen_mount_path(g, src);
	gen_call(g, "mount");
	gen_arg(g, "%s %s NULL %s", src, target, gen_chance(g, 40) ? "MS_BIND,MS_REC" : "MS_BIND");
}

static void gen_remount(struct gen *g, const char *target)
{
	static const char *const flags[] = {
		"MS_REMOUNT,MS_RDONLY",
		"MS_REMOUNT,MS_RDONLY",
		"MS_REMOUNT",
		"MS_BIND,MS_REMOUNT,MS_RDONLY",
		"MS_BIND,MS_REMOUNT,MS_RDONLY",
		"MS_BIND,MS_REMOUNT",
		"MS_PRIVATE",
		"MS_PRIVATE,MS_REC",
		"MS_PRIVATE,MS_RDONLY",
	};

	gen_call(g, "mount");
	gen_arg(g, "none %s NULL %s", target, GEN_PICK(g, flags));
	if (gen_chance(g, 10))
		gen_arg(g, "size=2m");
}

static void gen_umount(struct gen *g, const char *target)
{
	static const char *const flags[] = { "0",	   "0",		 "0",
					     "MNT_DETACH", "MNT_DETACH", "UMOUNT_NOFOLLOW",
					     "MNT_FORCE",  "MNT_EXPIRE", "MNT_EXPIRE,MNT_DETACH",
					     "020" };

	gen_call(g, "umount2");
	gen_arg(g, "%s %s", target, GEN_PICK(g, flags));
}

/* A namespace call that meets a mount: across it, onto it, or inside a read-only one. */
static void gen_cross(struct gen *g)
{
	char a[GEN_WORD], b[GEN_WORD];
	unsigned int r = gen_rnd(g, 100);

	gen_mount_path(g, a);
	gen_mount_path(g, b);
	if (r < 20) {
		gen_call(g, "rename");
		gen_arg(g, "%s %s", a, b);
	} else if (r < 35) {
		gen_call(g, "link");
		gen_arg(g, "%s %s", a, b);
	} else if (r < 55) {
		gen_call(g, gen_chance(g, 50) ? "create" : "mkdir");
		gen_arg(g, "%s", a);
		gen_put_mode(g);
	} else if (r < 65) {
		gen_call(g, "rmdir");
		gen_arg(g, "%s", gen_chance(g, 50) ? a : GEN_PICK(g, mnt_names));
	} else if (r < 72) {
		gen_call(g, "unlink");
		gen_arg(g, "%s", a);
	} else if (r < 80) {
		gen_call(g, "symlink");
		gen_arg(g, "%s %s", b, a);
	} else if (r < 87) {
		gen_call(g, "chmod");
		gen_arg(g, "%s", a);
		gen_put_mode(g);
	} else if (r < 93) {
		gen_call(g, "truncate");
		gen_arg(g, "%s 0", a);
	} else {
		gen_call(g, "stat");
		gen_arg(g, "%s", a);
		gen_fields(g);
	}
}

/* One mount call, and sometimes what it does to the names around it. */
void gen_mountop(struct gen *g)
{
	char target[64];
	unsigned int r = gen_rnd(g, 100);

	gen_mountpoint(g, target);
	if (gen_chance(g, 30)) {
		/* The mount point itself, first. */
		gen_call(g, "mkdir");
		gen_arg(g, "%s 0755", target);
	}
	if (r < 30)
		gen_new_mount(g, target);
	else if (r < 50)
		gen_bind(g, target);
	else if (r < 65)
		gen_remount(g, target);
	else if (r < 85)
		gen_umount(g, target);
	else
		gen_cross(g);
	for (unsigned int n = gen_rnd(g, 3); n--;)
		gen_cross(g);
}

/* openat2(2): flags, mode, resolve and size, valid or not, over any path. */
void gen_openat2(struct gen *g)
{
	static const char *const flags[] = {
		"O_RDONLY,O_NONBLOCK",
		"O_RDONLY,O_NONBLOCK",
		"O_RDWR",
		"O_WRONLY,O_NONBLOCK",
		"O_PATH",
		"O_PATH,O_NOFOLLOW",
		"O_RDONLY,O_DIRECTORY",
		"O_RDONLY,O_NOFOLLOW,O_NONBLOCK",
		"O_CREAT,O_RDWR",
		"O_CREAT,O_EXCL,O_WRONLY",
		"O_RDWR,O_TRUNC",
		"O_TMPFILE,O_RDWR",
		"O_PATH,O_RDWR",
		"O_CREAT,O_DIRECTORY,O_RDONLY",
		"O_RDONLY,040000000000",
	};
	static const char *const res[] = {
		"RESOLVE_NO_XDEV", "RESOLVE_NO_MAGICLINKS", "RESOLVE_NO_SYMLINKS",
		"RESOLVE_BENEATH", "RESOLVE_IN_ROOT",	    "RESOLVE_CACHED",
	};
	static const unsigned int sizes[] = { 23, 32, 64, 4096, 4097 };
	const char *f = GEN_PICK(g, flags);
	bool create = strstr(f, "O_CREAT") || strstr(f, "O_TMPFILE");
	char path[GEN_WORD];
	unsigned int nres = 0;

	if (gen_chance(g, 45)) {
		char dir[GEN_WORD];

		gen_mount_path(g, dir);
		gen_call(g, "open");
		gen_arg(g, "%s O_RDONLY,O_DIRECTORY", dir);
		g->nfds++;
	}
	gen_mount_path(g, path);
	if (gen_chance(g, 10)) {
		memmove(path + 1, path, strlen(path) + 1);
		path[0] = '/';
	}
	gen_call(g, "openat2");
	gen_dirfd(g);
	gen_arg(g, "%s %s %s", path, f,
		create		  ? (gen_chance(g, 90) ? "0644" : "010644") :
		gen_chance(g, 95) ? "0" :
				    "0600");
	gen_put(g, " ");
	for (unsigned int i = 0; i < GEN_ARRAY_SIZE(res); i++) {
		if (gen_chance(g, 25)) {
			gen_put(g, "%s%s", nres ? "," : "", res[i]);
			nres++;
		}
	}
	if (!nres)
		gen_put(g, gen_chance(g, 95) ? "0" : "0100");
	if (gen_chance(g, 10))
		gen_arg(g, "%u", GEN_PICK(g, sizes));
	g->nfds++;
}
