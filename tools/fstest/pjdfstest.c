// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pjdfstest's commands: each one's call on the backend and what it prints,
 * and the table that says how their arguments are read.
 */
/* Before any libc header: O_PATH, AT_*, RENAME_*, asprintf. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tools/fstest/engine.h"

/* mknod's type letter, as pjdfstest spells it ('s' is ours). */
static const struct sys_name mknod_types[] = {
	{ "c", S_IFCHR }, { "b", S_IFBLK },  { "f", S_IFIFO }, { "d", S_IFDIR },
	{ "o", S_IFREG }, { "s", S_IFSOCK }, { NULL, 0 },
};

static long run_open(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->openat(r->sc, AT_FDCWD, S(0), (int)N(1), (mode_t)N(2)));
}

static long run_openat(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->openat(r->sc, FD(0), S(1), (int)N(2), (mode_t)N(3)));
}

static long run_create(struct run *r, const struct call *c)
{
	long fd = r->sys->openat(r->sc, AT_FDCWD, S(0), O_CREAT | O_EXCL, (mode_t)N(1));

	if (fd >= 0)
		r->sys->close(r->sc, (int)fd);
	return fstest_ok0(r, fd);
}

static long run_unlink(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->unlinkat(r->sc, AT_FDCWD, S(0), 0));
}

static long run_unlinkat(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->unlinkat(r->sc, FD(0), S(1), (int)N(2)));
}

static long run_mkdir(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->mkdirat(r->sc, AT_FDCWD, S(0), (mode_t)N(1)));
}

static long run_mkdirat(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->mkdirat(r->sc, FD(0), S(1), (mode_t)N(2)));
}

static long run_rmdir(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->unlinkat(r->sc, AT_FDCWD, S(0), AT_REMOVEDIR));
}

static long run_link(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->linkat(r->sc, AT_FDCWD, S(0), AT_FDCWD, S(1), 0));
}

static long run_linkat(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->linkat(r->sc, FD(0), S(1), FD(2), S(3), (int)N(4)));
}

static long run_symlink(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->symlinkat(r->sc, S(0), AT_FDCWD, S(1)));
}

static long run_symlinkat(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->symlinkat(r->sc, S(0), FD(1), S(2)));
}

static long run_rename(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->renameat2(r->sc, AT_FDCWD, S(0), AT_FDCWD, S(1), 0));
}

static long run_renameat(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->renameat2(r->sc, FD(0), S(1), FD(2), S(3), 0));
}

/* glibc's mkfifo is mknodat(S_IFIFO | mode). */
static long run_mkfifo(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->mknodat(r->sc, AT_FDCWD, S(0), S_IFIFO | (mode_t)N(1), 0));
}

static long run_mkfifoat(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->mknodat(r->sc, FD(0), S(1), S_IFIFO | (mode_t)N(2), 0));
}

/* pjdfstest's mknod: type letter | mode, makedev(major, minor). */
static long do_mknod(struct run *r, const struct call *c, int dfd, int i)
{
	dev_t dev = makedev((unsigned int)N(i + 2), (unsigned int)N(i + 3));

	/* glibc refuses what the syscall's 32-bit dev cannot carry. */
	if (dev > UINT32_MAX)
		return -EINVAL;
	return fstest_ok0(r, r->sys->mknodat(r->sc, dfd, S(i - 1), (mode_t)(N(i) | N(i + 1)), dev));
}

static long run_mknod(struct run *r, const struct call *c)
{
	return do_mknod(r, c, AT_FDCWD, 1);
}

static long run_mknodat(struct run *r, const struct call *c)
{
	return do_mknod(r, c, FD(0), 2);
}

static long run_bind(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->bind(r->sc, S(0)));
}

static long run_connect(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->connect(r->sc, S(0)));
}

static long run_chmod(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->fchmodat(r->sc, AT_FDCWD, S(0), (mode_t)N(1), 0));
}

static long run_fchmod(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->fchmod(r->sc, FD(0), (mode_t)N(1)));
}

/* glibc's lchmod is fchmodat(AT_SYMLINK_NOFOLLOW): EOPNOTSUPP on links. */
static long run_lchmod(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->fchmodat(r->sc, AT_FDCWD, S(0), (mode_t)N(1),
					      AT_SYMLINK_NOFOLLOW));
}

static long run_fchmodat(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->fchmodat(r->sc, FD(0), S(1), (mode_t)N(2), (int)N(3)));
}

static long run_chown(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->fchownat(r->sc, AT_FDCWD, S(0), (uid_t)N(1), (gid_t)N(2), 0));
}

static long run_fchown(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->fchown(r->sc, FD(0), (uid_t)N(1), (gid_t)N(2)));
}

static long run_lchown(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->fchownat(r->sc, AT_FDCWD, S(0), (uid_t)N(1), (gid_t)N(2),
					      AT_SYMLINK_NOFOLLOW));
}

static long run_fchownat(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->fchownat(r->sc, FD(0), S(1), (uid_t)N(2), (gid_t)N(3),
					      (int)N(4)));
}

static long run_truncate(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->truncate(r->sc, S(0), (off_t)N(1)));
}

static long run_ftruncate(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->ftruncate(r->sc, FD(0), (off_t)N(1)));
}

static long run_posix_fallocate(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->fallocate(r->sc, FD(0), 0, (off_t)N(1), (off_t)N(2)));
}

static long put_stat_res(struct run *r, long res, const struct stat *st, const char *what)
{
	if (res >= 0)
		fstest_put_stat(r->out, st, what);
	return res;
}

static long run_stat(struct run *r, const struct call *c)
{
	struct stat st;

	return put_stat_res(r, r->sys->fstatat(r->sc, AT_FDCWD, S(0), &st, 0), &st, S(1));
}

static long run_lstat(struct run *r, const struct call *c)
{
	struct stat st;

	return put_stat_res(r, r->sys->fstatat(r->sc, AT_FDCWD, S(0), &st, AT_SYMLINK_NOFOLLOW),
			    &st, S(1));
}

static long run_fstat(struct run *r, const struct call *c)
{
	struct stat st;

	return put_stat_res(r, r->sys->fstat(r->sc, FD(0), &st), &st, S(1));
}

static long run_fstatat(struct run *r, const struct call *c)
{
	struct stat st;

	return put_stat_res(r, r->sys->fstatat(r->sc, FD(0), S(1), &st, (int)N(2)), &st, S(3));
}

static long put_pathconf(struct run *r, long res, long value)
{
	if (res < 0)
		return res;
	if (value == -1)
		fputs("unlimited\n", r->out);
	else
		fprintf(r->out, "%ld\n", value);
	return res;
}

static long run_pathconf(struct run *r, const struct call *c)
{
	long v = -1, res = r->sys->pathconf(r->sc, S(0), (int)N(1), &v);

	return put_pathconf(r, res, v);
}

static long run_fpathconf(struct run *r, const struct call *c)
{
	long v = -1, res = r->sys->fpathconf(r->sc, FD(0), (int)N(1), &v);

	return put_pathconf(r, res, v);
}

/* pjdfstest prints 0, not the byte count. */
static long run_write(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->write(r->sc, FD(0), S(1), c->a[1].len));
}

static long run_utimensat(struct run *r, const struct call *c)
{
	struct timespec ts[2] = {
		{ .tv_sec = (time_t)N(2), .tv_nsec = (long)N(3) },
		{ .tv_sec = (time_t)N(4), .tv_nsec = (long)N(5) },
	};

	/* What glibc's wrapper answers before making the syscall. */
	if (!S(1))
		return -EINVAL;
	return fstest_ok0(r, r->sys->utimensat(r->sc, FD(0), S(1), ts, (int)N(6)));
}

/* pjdfstest wants a mode exactly when the file may be created. */
static bool check_open(struct call *c, const struct tok *tail, struct diag *d)
{
	int fi = c->cmd->run == run_open ? 1 : 2;
	long long fl = c->a[fi].n;
	bool need_mode = (fl & O_CREAT) || (fl & O_TMPFILE) == O_TMPFILE;

	(void)tail;
	if (need_mode && !c->a[fi + 1].present) {
		fstest_diag(d, "too few arguments (mode needed)");
		return false;
	}
	if (!need_mode && c->a[fi + 1].present) {
		fstest_diag(d, "too many arguments (mode without O_CREAT)");
		return false;
	}
	return true;
}

const struct cmd fstest_pjdfstest_cmds[] = {
	{ .name = "open",
	  .args = "pfn?",
	  .run = run_open,
	  .flags = CMD_ADDS_FD,
	  .flags1 = { sys_open_flags },
	  .need = NEED(openat),
	  .check = check_open },
	{ .name = "openat",
	  .args = "dpfn?",
	  .run = run_openat,
	  .flags = CMD_ADDS_FD,
	  .flags1 = { sys_open_flags },
	  .need = NEED(openat),
	  .check = check_open },
	{ .name = "create", .args = "pn", .run = run_create, .need = NEED(openat) },
	{ .name = "unlink", .args = "p", .run = run_unlink, .need = NEED(unlinkat) },
	{ .name = "unlinkat",
	  .args = "dpf",
	  .run = run_unlinkat,
	  .flags1 = { sys_at_flags, "AT_REMOVEDIR" },
	  .need = NEED(unlinkat) },
	{ .name = "mkdir", .args = "pn", .run = run_mkdir, .need = NEED(mkdirat) },
	{ .name = "mkdirat", .args = "dpn", .run = run_mkdirat, .need = NEED(mkdirat) },
	{ .name = "rmdir", .args = "p", .run = run_rmdir, .need = NEED(unlinkat) },
	{ .name = "link", .args = "pp", .run = run_link, .need = NEED(linkat) },
	{ .name = "linkat",
	  .args = "dpdpf",
	  .run = run_linkat,
	  .flags1 = { sys_at_flags, "AT_SYMLINK_FOLLOW,AT_EMPTY_PATH" },
	  .need = NEED(linkat) },
	{ .name = "symlink", .args = "pp", .run = run_symlink, .need = NEED(symlinkat) },
	{ .name = "symlinkat", .args = "pdp", .run = run_symlinkat, .need = NEED(symlinkat) },
	{ .name = "rename", .args = "pp", .run = run_rename, .need = NEED(renameat2) },
	{ .name = "renameat", .args = "dpdp", .run = run_renameat, .need = NEED(renameat2) },
	{ .name = "mkfifo", .args = "pn", .run = run_mkfifo, .need = NEED(mknodat) },
	{ .name = "mkfifoat", .args = "dpn", .run = run_mkfifoat, .need = NEED(mknodat) },
	{ .name = "mknod",
	  .args = "pknnn",
	  .run = run_mknod,
	  .names = { mknod_types },
	  .need = NEED(mknodat) },
	{ .name = "mknodat",
	  .args = "dpknnn",
	  .run = run_mknodat,
	  .names = { mknod_types },
	  .need = NEED(mknodat) },
	{ .name = "bind", .args = "s", .run = run_bind, .need = NEED(bind) },
	{ .name = "connect", .args = "s", .run = run_connect, .need = NEED(connect) },
	{ .name = "chmod", .args = "pn", .run = run_chmod, .need = NEED(fchmodat) },
	{ .name = "fchmod", .args = "dn", .run = run_fchmod, .need = NEED(fchmod) },
	{ .name = "lchmod", .args = "pn", .run = run_lchmod, .need = NEED(fchmodat) },
	{ .name = "fchmodat",
	  .args = "dpnf",
	  .run = run_fchmodat,
	  .flags1 = { sys_at_flags, "AT_SYMLINK_NOFOLLOW,AT_EMPTY_PATH" },
	  .need = NEED(fchmodat) },
	{ .name = "chown", .args = "pnn", .run = run_chown, .need = NEED(fchownat) },
	{ .name = "fchown", .args = "dnn", .run = run_fchown, .need = NEED(fchown) },
	{ .name = "lchown", .args = "pnn", .run = run_lchown, .need = NEED(fchownat) },
	{ .name = "fchownat",
	  .args = "dpnnf",
	  .run = run_fchownat,
	  .flags1 = { sys_at_flags, "AT_SYMLINK_NOFOLLOW,AT_EMPTY_PATH" },
	  .need = NEED(fchownat) },
	{ .name = "truncate", .args = "pn", .run = run_truncate, .need = NEED(truncate) },
	{ .name = "ftruncate", .args = "dn", .run = run_ftruncate, .need = NEED(ftruncate) },
	{ .name = "posix_fallocate",
	  .args = "dnn",
	  .run = run_posix_fallocate,
	  .need = NEED(fallocate) },
	{ .name = "stat", .args = "ps", .run = run_stat, .need = NEED(fstatat) },
	{ .name = "fstat", .args = "ds", .run = run_fstat, .need = NEED(fstat) },
	{ .name = "lstat", .args = "ps", .run = run_lstat, .need = NEED(fstatat) },
	{ .name = "fstatat",
	  .args = "dpfs",
	  .run = run_fstatat,
	  .flags1 = { sys_at_flags, "AT_SYMLINK_NOFOLLOW,AT_EMPTY_PATH" },
	  .need = NEED(fstatat) },
	{ .name = "pathconf",
	  .args = "pk",
	  .run = run_pathconf,
	  .names = { sys_pathconf_names },
	  .need = NEED(pathconf) },
	{ .name = "fpathconf",
	  .args = "dk",
	  .run = run_fpathconf,
	  .names = { sys_pathconf_names },
	  .need = NEED(fpathconf) },
	{ .name = "write", .args = "ds", .run = run_write, .need = NEED(write) },
	{ .name = "utimensat",
	  .args = "dpntntf",
	  .run = run_utimensat,
	  .flags1 = { sys_at_flags, "AT_SYMLINK_NOFOLLOW" },
	  .need = NEED(utimensat) },
	{ .name = NULL },
};
