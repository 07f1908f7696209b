// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Mounts and openat2: the mount tree, mnt_count, read-only mounts, lazy
 * umount and every RESOLVE_ flag. The errnos are the ones Linux 6.18 gave
 * on tmpfs for the same calls (tests/mounts.sh replays them on the host).
 */
#include <sys/sysmacros.h>

#include "tests/vfs_test.h"
#include "vfs/mount.h"

/* The mount a path resolves to, and its count, with the lookup's reference dropped. */
static struct mount *vt_mnt(struct task *t, const char *path)
{
	struct path p;
	struct mount *m;

	VT_EQ(user_path_at(t, AT_FDCWD, path, LOOKUP_FOLLOW, &p, NULL), 0);
	m = real_mount(p.mnt);
	path_put(t->vfs, &p);
	return m;
}

static long vt_dev(struct task *t, const char *path)
{
	struct stat st;

	VT_EQ(sys_stat(t, path, &st), 0);
	return (long)st.st_dev;
}

static void test_mount_tree(const char *spec)
{
	struct vt e;
	struct mount *m, *root;
	char buf[64];

	vt_begin(&e, spec);
	VT_EQ(sys_mkdir(e.t, "/a", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/b", 0755), 0);
	root = vt_mnt(e.t, "/");
	VT_EQ(sys_mount(e.t, "none", "/a", "tmpfs", 0, NULL), 0);
	/* A new superblock: its own anonymous device, major 0. */
	ck_assert_int_ne(vt_dev(e.t, "/a"), vt_dev(e.t, "/"));
	ck_assert_int_eq(major(vt_dev(e.t, "/a")), 0);
	m = vt_mnt(e.t, "/a");
	ck_assert_ptr_eq(m->mnt_parent, root);
	ck_assert(d_mountpoint(e.v, m->mnt_mountpoint));
	/* One reference for the namespace: every walk gave its own back. */
	ck_assert_int_eq(mnt_get_count(e.v, m), 1);
	/* The root: the namespace, its child, and the init task's root and cwd. */
	ck_assert_int_eq(mnt_get_count(e.v, root), 4);
	VT_EQ(sys_mkdir(e.t, "/a/x", 0700), 0);
	VT_EQ(sys_chdir(e.t, "/a/x"), 0);
	VT_EQ(sys_getcwd(e.t, buf, sizeof(buf)), 5);
	ck_assert_str_eq(buf, "/a/x");
	/* ".." from the mount's root goes up to the mountpoint's parent. */
	VT_EQ(sys_chdir(e.t, "../.."), 0);
	VT_EQ(sys_getcwd(e.t, buf, sizeof(buf)), 2);
	ck_assert_str_eq(buf, "/");
	/* The cwd inside holds the mount: EBUSY. */
	VT_EQ(sys_chdir(e.t, "/a"), 0);
	VT_EQ(sys_umount2(e.t, "/a", 0), -EBUSY);
	VT_EQ(sys_chdir(e.t, "/"), 0);
	VT_EQ(sys_rmdir(e.t, "/a"), -EBUSY);
	VT_EQ(sys_rename(e.t, "/b", "/a"), -EBUSY);
	VT_EQ(sys_umount2(e.t, "/b", 0), -EINVAL);
	VT_EQ(sys_umount2(e.t, "/a", 0), 0);
	VT_EQ(sys_stat(e.t, "/a/x", &(struct stat){ 0 }), -ENOENT);
	ck_assert_int_eq(mnt_get_count(e.v, root), 3);
	vt_end(&e);
}

START_TEST(test_mount_tree_percpu)
{
	test_mount_tree("");
}
END_TEST

START_TEST(test_mount_tree_atomic)
{
	test_mount_tree("mnt-count=atomic");
}
END_TEST

START_TEST(test_stacked_and_bind)
{
	struct vt e;

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/a", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/b", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/b/s", 0755), 0);
	vt_touch(e.t, "/b/f");
	/* A second mount on the same place goes on top of the first. */
	VT_EQ(sys_mount(e.t, "none", "/a", "tmpfs", 0, NULL), 0);
	vt_touch(e.t, "/a/lower");
	VT_EQ(sys_mount(e.t, "none", "/a", "tmpfs", 0, NULL), 0);
	VT_EQ(sys_stat(e.t, "/a/lower", &(struct stat){ 0 }), -ENOENT);
	VT_EQ(sys_umount2(e.t, "/a", 0), 0);
	VT_OK(vt_ino(e.t, "/a/lower"));
	VT_EQ(sys_umount2(e.t, "/a", 0), 0);
	/* A bind mount shows the same inodes under another name. */
	VT_EQ(sys_mount(e.t, "none", "/b/s", "tmpfs", 0, NULL), 0);
	vt_touch(e.t, "/b/s/deep");
	VT_EQ(sys_mount(e.t, "/b", "/a", NULL, MS_BIND, NULL), 0);
	ck_assert_int_eq(vt_ino(e.t, "/a/f"), vt_ino(e.t, "/b/f"));
	ck_assert_int_eq(vt_dev(e.t, "/a"), vt_dev(e.t, "/"));
	/* Without MS_REC the submount stays behind. */
	VT_EQ(sys_stat(e.t, "/a/s/deep", &(struct stat){ 0 }), -ENOENT);
	VT_EQ(sys_link(e.t, "/b/f", "/a/g"), -EXDEV);
	VT_EQ(sys_rename(e.t, "/a/f", "/b/g"), -EXDEV);
	VT_EQ(sys_umount2(e.t, "/a", 0), 0);
	VT_EQ(sys_mount(e.t, "/b", "/a", NULL, MS_BIND | MS_REC, NULL), 0);
	ck_assert_int_eq(vt_ino(e.t, "/a/s/deep"), vt_ino(e.t, "/b/s/deep"));
	/* Busy with a child mount. */
	VT_EQ(sys_umount2(e.t, "/a", 0), -EBUSY);
	VT_EQ(sys_umount2(e.t, "/a/s", 0), 0);
	VT_EQ(sys_umount2(e.t, "/a", 0), 0);
	/* A directory on a file, a file on a directory: ENOTDIR. */
	VT_EQ(sys_mount(e.t, "/b/f", "/a", NULL, MS_BIND, NULL), -ENOTDIR);
	VT_EQ(sys_mount(e.t, "/b", "/b/f", NULL, MS_BIND, NULL), -ENOTDIR);
	VT_EQ(sys_mount(e.t, "none", "/a", "ext4", 0, NULL), -ENODEV);
	VT_EQ(sys_mount(e.t, "none", "/a", NULL, 0, NULL), -EINVAL);
	VT_EQ(sys_mount(e.t, "none", "/a", "tmpfs", 0, "bogus=1"), -EINVAL);
	VT_EQ(sys_mount(e.t, "", "/a", NULL, MS_BIND, NULL), -EINVAL);
	VT_EQ(sys_mount(e.t, "none", "/nope", "tmpfs", 0, NULL), -ENOENT);
	vt_end(&e);
}
END_TEST

/* fs.mount-max, as Linux 6.18 applied it in a mount namespace (count_mounts()). */
START_TEST(test_mount_max)
{
	struct vt e;
	char err[128];
	struct vfs_config cfg;

	vfs_config_default(&cfg);
	ck_assert_int_eq(vfs_config_parse(&cfg, "mount-max=0", err, sizeof(err)), -1);
	ck_assert_int_eq(vfs_config_parse(&cfg, "mount-max=2147483648", err, sizeof(err)), -1);
	/* The namespace's root mount counts: room for three more. */
	vt_begin(&e, "mount-max=4");
	VT_EQ(sys_mkdir(e.t, "/a", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/b", 0755), 0);
	vt_touch(e.t, "/f");
	VT_EQ(sys_mount(e.t, "none", "/a", "tmpfs", 0, NULL), 0);
	VT_EQ(sys_mkdir(e.t, "/a/s", 0755), 0);
	VT_EQ(sys_mount(e.t, "none", "/a/s", "tmpfs", 0, NULL), 0);
	/* One more fits: a bind copies one mount, a recursive one both. */
	VT_EQ(sys_mount(e.t, "/a", "/b", NULL, MS_BIND | MS_REC, NULL), -ENOSPC);
	VT_EQ(sys_mount(e.t, "/a", "/b", NULL, MS_BIND, NULL), 0);
	VT_EQ(sys_mount(e.t, "none", "/b", "tmpfs", 0, NULL), -ENOSPC);
	VT_EQ(sys_mount(e.t, "/a", "/b", NULL, MS_BIND, NULL), -ENOSPC);
	/* A file on a directory is ENOTDIR before the count. */
	VT_EQ(sys_mount(e.t, "/f", "/b", NULL, MS_BIND, NULL), -ENOTDIR);
	VT_EQ(sys_umount2(e.t, "/b", 0), 0);
	/* A lazy umount of a tree gives back all of it. */
	VT_EQ(sys_umount2(e.t, "/a", MNT_DETACH), 0);
	VT_EQ(sys_mount(e.t, "none", "/a", "tmpfs", 0, NULL), 0);
	VT_EQ(sys_mount(e.t, "none", "/b", "tmpfs", 0, NULL), 0);
	VT_EQ(sys_mount(e.t, "none", "/b", "tmpfs", 0, NULL), 0);
	VT_EQ(sys_mount(e.t, "none", "/b", "tmpfs", 0, NULL), -ENOSPC);
	VT_EQ(sys_umount2(e.t, "/b", 0), 0);
	VT_EQ(sys_umount2(e.t, "/b", 0), 0);
	VT_EQ(sys_umount2(e.t, "/a", 0), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_read_only)
{
	struct vt e;
	struct task *u;
	long fd;

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/a", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/b", 0777), 0);
	VT_EQ(sys_mount(e.t, "none", "/a", "tmpfs", 0, NULL), 0);
	vt_touch(e.t, "/a/f");
	VT_EQ(sys_mkdir(e.t, "/a/d", 0755), 0);
	/* A file open for write keeps the superblock writable. */
	fd = VT_OK(sys_open(e.t, "/a/f", O_WRONLY, 0));
	VT_EQ(sys_mount(e.t, NULL, "/a", NULL, MS_REMOUNT | MS_RDONLY, NULL), -EBUSY);
	VT_EQ(sys_close(e.t, fd), 0);
	VT_EQ(sys_mount(e.t, NULL, "/a", NULL, MS_REMOUNT | MS_RDONLY, NULL), 0);
	VT_EQ(sys_mkdir(e.t, "/a/x", 0755), -EROFS);
	VT_EQ(sys_mkdir(e.t, "/a/d", 0755), -EEXIST); /* the lookup's error first */
	VT_EQ(sys_open(e.t, "/a/f", O_WRONLY, 0), -EROFS);
	VT_EQ(sys_open(e.t, "/a/new", O_CREAT | O_WRONLY, 0644), -EROFS);
	VT_EQ(sys_open(e.t, "/a/f", O_CREAT | O_EXCL | O_WRONLY, 0644), -EEXIST);
	VT_EQ(sys_unlink(e.t, "/a/f"), -EROFS);
	VT_EQ(sys_rmdir(e.t, "/a/d"), -EROFS);
	VT_EQ(sys_rmdir(e.t, "/a/none"), -EROFS);
	VT_EQ(sys_chmod(e.t, "/a/f", 0600), -EROFS);
	VT_EQ(sys_chown(e.t, "/a/f", 1, 1), -EROFS);
	VT_EQ(sys_truncate(e.t, "/a/f", 0), -EROFS);
	VT_EQ(sys_utimensat(e.t, AT_FDCWD, "/a/f", NULL, 0), -EROFS);
	VT_EQ(sys_rename(e.t, "/a/f", "/a/g"), -EROFS);
	VT_EQ(sys_symlink(e.t, "x", "/a/l"), -EROFS);
	fd = VT_OK(sys_open(e.t, "/a/f", O_RDONLY, 0));
	VT_EQ(sys_fchmod(e.t, (int)fd, 0600), -EROFS);
	VT_EQ(sys_close(e.t, fd), 0);
	/* Writable again. */
	VT_EQ(sys_mount(e.t, NULL, "/a", NULL, MS_REMOUNT, NULL), 0);
	VT_EQ(sys_mkdir(e.t, "/a/x", 0755), 0);
	/* Per mount: a read-only bind of a writable superblock. */
	VT_EQ(sys_mount(e.t, "/a", "/b", NULL, MS_BIND, NULL), 0);
	VT_EQ(sys_mount(e.t, NULL, "/b", NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL), 0);
	VT_EQ(sys_mkdir(e.t, "/b/y", 0755), -EROFS);
	VT_EQ(sys_mkdir(e.t, "/a/y", 0755), 0);
	/* Permission before a read-only mount's EROFS: the superblock is writable. */
	u = task_fork(e.t, 0);
	VT_EQ(task_set_creds(u, 1000, 1000, 1000, 1000, NULL, 0), 0);
	VT_EQ(sys_open(u, "/b/f", O_WRONLY, 0), -EACCES);
	VT_EQ(sys_mount(u, "none", "/b", "tmpfs", 0, NULL), -EPERM);
	VT_EQ(sys_umount2(u, "/b", 0), -EPERM);
	VT_EQ(sys_umount2(u, "/nope", 0), -ENOENT);
	task_exit(u);
	VT_EQ(sys_umount2(e.t, "/b", 0), 0);
	VT_EQ(sys_umount2(e.t, "/a", 0), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_lazy_umount)
{
	struct vt e;
	struct mount *m;
	long fd, dfd;
	char buf[8];

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/a", 0755), 0);
	VT_EQ(sys_mount(e.t, "none", "/a", "tmpfs", 0, NULL), 0);
	VT_EQ(sys_mkdir(e.t, "/a/s", 0755), 0);
	VT_EQ(sys_mount(e.t, "none", "/a/s", "tmpfs", 0, NULL), 0);
	vt_put(e.t, "/a/s/f", "hi", 2);
	m = vt_mnt(e.t, "/a");
	fd = VT_OK(sys_open(e.t, "/a/s/f", O_RDONLY, 0));
	dfd = VT_OK(sys_open(e.t, "/a", O_RDONLY | O_DIRECTORY, 0));
	ck_assert_int_eq(mnt_get_count(e.v, m), 3); /* namespace, child, dfd */
	VT_EQ(sys_umount2(e.t, "/a", MNT_EXPIRE | MNT_DETACH), -EINVAL);
	VT_EQ(sys_umount2(e.t, "/a", MNT_DETACH), 0);
	/* Gone from the namespace... */
	VT_EQ(sys_stat(e.t, "/a/s", &(struct stat){ 0 }), -ENOENT);
	ck_assert(!d_mountpoint(e.v, vt_mnt(e.t, "/")->mnt.mnt_root));
	/* ...but alive for what holds it, submount included. */
	VT_EQ(sys_read(e.t, (int)fd, buf, sizeof(buf)), 2);
	ck_assert_ptr_null(m->mnt_ns);
	VT_EQ(sys_fstatat(e.t, (int)dfd, "s/f", &(struct stat){ 0 }, 0), 0);
	ck_assert_int_eq(mnt_get_count(e.v, m), 1); /* only dfd now */
	VT_EQ(sys_close(e.t, fd), 0);
	VT_EQ(sys_close(e.t, dfd), 0); /* the last reference frees both mounts */
	vt_end(&e);
}
END_TEST

START_TEST(test_expire)
{
	struct vt e;

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/a", 0755), 0);
	VT_EQ(sys_mount(e.t, "none", "/a", "tmpfs", 0, NULL), 0);
	/* The first call marks the mount, the second unmounts it; any use in between clears the mark. */
	VT_EQ(sys_umount2(e.t, "/a", MNT_EXPIRE), -EAGAIN);
	VT_EQ(sys_stat(e.t, "/a", &(struct stat){ 0 }), 0);
	VT_EQ(sys_umount2(e.t, "/a", MNT_EXPIRE), -EAGAIN);
	VT_EQ(sys_umount2(e.t, "/a", 0x10), -EINVAL);
	VT_EQ(sys_umount2(e.t, "/a", MNT_EXPIRE), 0);
	vt_end(&e);
}
END_TEST

static long vt_openat2(struct task *t, int dfd, const char *path, uint64_t flags, uint64_t mode,
		       uint64_t resolve)
{
	struct open_how how = { flags, mode, resolve };
	long fd = sys_openat2(t, dfd, path, &how, sizeof(how));

	if (fd < 0)
		return fd;
	VT_EQ(sys_close(t, (int)fd), 0);
	return 0; /* opened */
}

START_TEST(test_openat2_sizes_and_flags)
{
	struct vt e;
	unsigned char big[64] = { 0 };
	struct open_how how = { O_RDONLY, 0, 0 };

	vt_begin(&e, "");
	vt_touch(e.t, "/f");
	memcpy(big, &how, sizeof(how));
	VT_EQ(sys_openat2(e.t, AT_FDCWD, "/f", big, 23), -EINVAL);
	VT_EQ(sys_openat2(e.t, AT_FDCWD, "/f", big, 4097), -E2BIG);
	VT_EQ(sys_close(e.t, (int)VT_OK(sys_openat2(e.t, AT_FDCWD, "/f", big, sizeof(big)))), 0);
	big[40] = 1; /* a newer field this kernel does not know, set */
	VT_EQ(sys_openat2(e.t, AT_FDCWD, "/f", big, sizeof(big)), -E2BIG);
	VT_EQ(vt_openat2(e.t, AT_FDCWD, "/f", 1ull << 40, 0, 0), -EINVAL);
	VT_EQ(vt_openat2(e.t, AT_FDCWD, "/f", O_RDONLY, 0644, 0), -EINVAL);
	VT_EQ(vt_openat2(e.t, AT_FDCWD, "/g", O_CREAT | O_WRONLY, 010000, 0), -EINVAL);
	VT_EQ(vt_openat2(e.t, AT_FDCWD, "/f", O_RDONLY, 0, 0x40), -EINVAL);
	VT_EQ(vt_openat2(e.t, AT_FDCWD, "/f", O_RDONLY, 0, RESOLVE_BENEATH | RESOLVE_IN_ROOT),
	      -EINVAL);
	VT_EQ(vt_openat2(e.t, AT_FDCWD, "/f", O_PATH | O_RDWR, 0, 0), -EINVAL);
	VT_EQ(vt_openat2(e.t, AT_FDCWD, "/f", O_RDONLY | O_TRUNC, 0, RESOLVE_CACHED), -EAGAIN);
	VT_EQ(vt_openat2(e.t, AT_FDCWD, "/g", O_CREAT | O_RDWR, 0644, RESOLVE_CACHED), -EAGAIN);
	VT_EQ(vt_openat2(e.t, AT_FDCWD, "/f", O_RDONLY, 0, RESOLVE_CACHED), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_openat2_resolve)
{
	struct vt e;
	long d;

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/r", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/r/sub", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/r/m", 0755), 0);
	vt_touch(e.t, "/r/f");
	vt_touch(e.t, "/top");
	VT_EQ(sys_symlink(e.t, "/f", "/r/abs"), 0);
	VT_EQ(sys_symlink(e.t, "sub/../f", "/r/rel"), 0);
	VT_EQ(sys_symlink(e.t, "../top", "/r/up"), 0);
	VT_EQ(sys_mount(e.t, "none", "/r/m", "tmpfs", 0, NULL), 0);
	vt_touch(e.t, "/r/m/g");
	d = VT_OK(sys_open(e.t, "/r", O_RDONLY | O_DIRECTORY, 0));
	/* RESOLVE_BENEATH: no absolute paths, no escape by ".." or a link. */
	VT_EQ(vt_openat2(e.t, (int)d, "f", O_RDONLY, 0, RESOLVE_BENEATH), 0);
	VT_EQ(vt_openat2(e.t, (int)d, "rel", O_RDONLY, 0, RESOLVE_BENEATH), 0);
	VT_EQ(vt_openat2(e.t, (int)d, "sub/../f", O_RDONLY, 0, RESOLVE_BENEATH), 0);
	VT_EQ(vt_openat2(e.t, (int)d, "../top", O_RDONLY, 0, RESOLVE_BENEATH), -EXDEV);
	VT_EQ(vt_openat2(e.t, (int)d, "up", O_RDONLY, 0, RESOLVE_BENEATH), -EXDEV);
	VT_EQ(vt_openat2(e.t, (int)d, "abs", O_RDONLY, 0, RESOLVE_BENEATH), -EXDEV);
	VT_EQ(vt_openat2(e.t, (int)d, "/top", O_RDONLY, 0, RESOLVE_BENEATH), -EXDEV);
	VT_EQ(vt_openat2(e.t, (int)d, "m/g", O_RDONLY, 0, RESOLVE_BENEATH), 0);
	/* RESOLVE_IN_ROOT: "/" and ".." stop at dfd, as in a chroot there. */
	VT_EQ(vt_openat2(e.t, (int)d, "abs", O_RDONLY, 0, RESOLVE_IN_ROOT), 0);
	VT_EQ(vt_openat2(e.t, (int)d, "/f", O_RDONLY, 0, RESOLVE_IN_ROOT), 0);
	VT_EQ(vt_openat2(e.t, (int)d, "../../f", O_RDONLY, 0, RESOLVE_IN_ROOT), 0);
	VT_EQ(vt_openat2(e.t, (int)d, "up", O_RDONLY, 0, RESOLVE_IN_ROOT), -ENOENT);
	VT_EQ(vt_openat2(e.t, (int)d, "/top", O_RDONLY, 0, RESOLVE_IN_ROOT), -ENOENT);
	/* RESOLVE_NO_XDEV: any crossing, down, up, or by an absolute jump. */
	VT_EQ(vt_openat2(e.t, (int)d, "m/g", O_RDONLY, 0, RESOLVE_NO_XDEV), -EXDEV);
	VT_EQ(vt_openat2(e.t, (int)d, "m", O_RDONLY, 0, RESOLVE_NO_XDEV), -EXDEV);
	/* An absolute link is a jump to another place: EXDEV even onto the same mount. */
	VT_EQ(vt_openat2(e.t, (int)d, "abs", O_RDONLY, 0, RESOLVE_NO_XDEV), -EXDEV);
	VT_EQ(vt_openat2(e.t, AT_FDCWD, "/r/f", O_RDONLY, 0, RESOLVE_NO_XDEV), 0);
	VT_EQ(sys_chdir(e.t, "/r/m"), 0);
	VT_EQ(vt_openat2(e.t, AT_FDCWD, "../f", O_RDONLY, 0, RESOLVE_NO_XDEV), -EXDEV);
	VT_EQ(vt_openat2(e.t, AT_FDCWD, "/top", O_RDONLY, 0, RESOLVE_NO_XDEV), 0);
	VT_EQ(sys_symlink(e.t, "/top", "/r/m/abs"), 0);
	VT_EQ(vt_openat2(e.t, AT_FDCWD, "abs", O_RDONLY, 0, RESOLVE_NO_XDEV), -EXDEV);
	VT_EQ(sys_chdir(e.t, "/"), 0);
	/* RESOLVE_NO_SYMLINKS: any link on the way; O_PATH|O_NOFOLLOW opens the link itself. */
	VT_EQ(vt_openat2(e.t, (int)d, "rel", O_RDONLY, 0, RESOLVE_NO_SYMLINKS), -ELOOP);
	VT_EQ(vt_openat2(e.t, (int)d, "rel", O_PATH | O_NOFOLLOW, 0, RESOLVE_NO_SYMLINKS), 0);
	VT_EQ(vt_openat2(e.t, (int)d, "f", O_RDONLY, 0, RESOLVE_NO_MAGICLINKS), 0);
	/* RESOLVE_CACHED: a dcache miss is EAGAIN (tmpfs keeps no negative dentries). */
	VT_EQ(vt_openat2(e.t, (int)d, "nope", O_RDONLY, 0, RESOLVE_CACHED), -EAGAIN);
	/*
	 * Following a link whose atime relatime would move needs ref-walk
	 * (pick_link()), so RESOLVE_CACHED says EAGAIN; whether "now" is past
	 * the link's ctime depends on the coarse clock's tick, so pin atime.
	 */
	{
		struct timespec ts[2] = { { 0, 0 }, { 0, UTIME_OMIT } };

		VT_EQ(sys_utimensat(e.t, (int)d, "rel", ts, AT_SYMLINK_NOFOLLOW), 0);
		VT_EQ(vt_openat2(e.t, (int)d, "rel", O_RDONLY, 0, RESOLVE_CACHED), -EAGAIN);
		current_time(&ts[0]);
		ts[0].tv_sec += 3600;
		VT_EQ(sys_utimensat(e.t, (int)d, "rel", ts, AT_SYMLINK_NOFOLLOW), 0);
		VT_EQ(vt_openat2(e.t, (int)d, "rel", O_RDONLY, 0, RESOLVE_CACHED), 0);
	}
	VT_EQ(vt_openat2(e.t, (int)d, "m/g", O_RDONLY, 0, RESOLVE_CACHED), 0);
	VT_EQ(sys_close(e.t, (int)d), 0);
	VT_EQ(sys_umount2(e.t, "/r/m", 0), 0);
	vt_end(&e);
}
END_TEST

static Suite *mount_suite(void)
{
	Suite *s = suite_create("mount");
	TCase *tc = tcase_create("mount");

	tcase_add_test(tc, test_mount_tree_percpu);
	tcase_add_test(tc, test_mount_tree_atomic);
	tcase_add_test(tc, test_stacked_and_bind);
	tcase_add_test(tc, test_mount_max);
	tcase_add_test(tc, test_read_only);
	tcase_add_test(tc, test_lazy_umount);
	tcase_add_test(tc, test_expire);
	tcase_add_test(tc, test_openat2_sizes_and_flags);
	tcase_add_test(tc, test_openat2_resolve);
	suite_add_tcase(s, tc);
	return s;
}

VT_MAIN(mount_suite)
