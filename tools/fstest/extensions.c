// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab's extensions to pjdfstest's commands: descriptors, data, the
 * directory and the working directory; each one's call on the backend, what
 * it prints, and their table.
 */
/* Before any libc header: O_PATH, AT_*, RENAME_*, asprintf. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <linux/close_range.h>
#include <linux/openat2.h>

#include "tools/fstest/engine.h"

static long run_renameat2(struct run *r, const struct call *c)
{
	return fstest_ok0(r,
			  r->sys->renameat2(r->sc, FD(0), S(1), FD(2), S(3), (unsigned int)N(4)));
}

static long run_futimens(struct run *r, const struct call *c)
{
	struct timespec ts[2] = {
		{ .tv_sec = (time_t)N(1), .tv_nsec = (long)N(2) },
		{ .tv_sec = (time_t)N(3), .tv_nsec = (long)N(4) },
	};

	return fstest_ok0(r, r->sys->utimensat(r->sc, FD(0), NULL, ts, 0));
}

static long run_mount(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->mount(r->sc, S(0), S(1), S(2), (unsigned long)N(3),
					   c->a[4].present ? S(4) : NULL));
}

static long run_umount2(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->umount2(r->sc, S(0), (int)N(1)));
}

/*
 * openat2 DFD PATH FLAGS MODE RESOLVE [SIZE]: a struct open_how in a
 * zeroed buffer of SIZE bytes (OPEN_HOW_SIZE_VER0 when absent).
 */
static long run_openat2(struct run *r, const struct call *c)
{
	size_t size = c->a[5].present ? (size_t)N(5) : 24;
	struct open_how how = { .flags = (unsigned long long)N(2),
				.mode = (unsigned long long)N(3),
				.resolve = (unsigned long long)N(4) };
	char *buf = calloc(1, size > sizeof(how) ? (size < 8192 ? size : 8192) : sizeof(how));
	long res;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, &how, sizeof(how));
	res = r->sys->openat2(r->sc, FD(0), S(1), buf, size);
	free(buf);
	return fstest_ok0(r, res);
}

static long run_close(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->close(r->sc, FD(0)));
}

static long run_close_range(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->close_range(r->sc, (unsigned int)N(0), (unsigned int)N(1),
						 (unsigned int)N(2)));
}

/* A count beyond the buffer is a backend bug: report it as EIO. */
static long put_data(struct run *r, long res, const char *buf, size_t size)
{
	if (res < 0)
		return res;
	if ((size_t)res > size)
		return -EIO;
	fprintf(r->out, "%ld", res);
	if (res > 0) {
		fputc(' ', r->out);
		fstest_put_escaped(r->out, buf, (size_t)res);
	}
	fputc('\n', r->out);
	return res;
}

static long run_read(struct run *r, const struct call *c)
{
	size_t n = (size_t)N(1);
	char *buf = malloc(n ? n : 1);
	long res;

	if (!buf)
		return -ENOMEM;
	res = put_data(r, r->sys->read(r->sc, FD(0), buf, n), buf, n);
	free(buf);
	return res;
}

/* pjdfstest's buffer: what one pread may print. */
#define PJDFSTEST_PREAD_MAX 1024

/*
 * pjdfstest's pread: at most 1024 bytes, pread again until they are all
 * read or one returns 0, then the buffer as a C string (up to its first
 * NUL byte, unescaped).
 */
static long run_pread(struct run *r, const struct call *c)
{
	char buf[PJDFSTEST_PREAD_MAX + 1] = { 0 };
	size_t count = N(1) < PJDFSTEST_PREAD_MAX ? (size_t)N(1) : PJDFSTEST_PREAD_MAX, done = 0;
	long res;

	do {
		res = r->sys->pread64(r->sc, FD(0), buf + done, count - done,
				      (off_t)N(2) + (off_t)done);
		if (res < 0)
			return res;
		done += (size_t)res;
	} while (res);
	fwrite(buf, 1, strlen(buf), r->out);
	fputc('\n', r->out);
	return 0;
}

/* pjdfstest prints 0, not the byte count. */
static long run_pwrite(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->pwrite64(r->sc, FD(0), S(1), c->a[1].len, (off_t)N(2)));
}

/* statfs's fields, comma-separated as stat's: "type,bsize,namelen". */
static long put_statfs(struct run *r, long res, const struct statfs *s, const char *what)
{
	const char *sep = "";

	if (res < 0)
		return res;
	for (const char *w = what; *w;) {
		size_t n = strcspn(w, ",");

#define F(name, fmt, val) \
	else if (n == strlen(name) && !strncmp(w, name, n)) fprintf(r->out, "%s" fmt, sep, val);
		if (0)
			;
		F("type", "0x%lx", (unsigned long)s->f_type)
		F("bsize", "%ld", (long)s->f_bsize)
		F("blocks", "%llu", (unsigned long long)s->f_blocks)
		F("bfree", "%llu", (unsigned long long)s->f_bfree)
		F("bavail", "%llu", (unsigned long long)s->f_bavail)
		F("files", "%llu", (unsigned long long)s->f_files)
		F("ffree", "%llu", (unsigned long long)s->f_ffree)
		F("namelen", "%ld", (long)s->f_namelen)
		F("frsize", "%ld", (long)s->f_frsize)
		F("flags", "0x%lx", (unsigned long)s->f_flags)
		else fprintf(r->out, "%sunknown", sep);
#undef F
		sep = ",";
		w += n;
		if (*w)
			w++;
	}
	fputc('\n', r->out);
	return res;
}

static long run_statfs(struct run *r, const struct call *c)
{
	struct statfs s;

	return put_statfs(r, r->sys->statfs(r->sc, S(0), &s), &s, S(1));
}

static long run_fstatfs(struct run *r, const struct call *c)
{
	struct statfs s;

	return put_statfs(r, r->sys->fstatfs(r->sc, FD(0), &s), &s, S(1));
}

static long run_lseek(struct run *r, const struct call *c)
{
	return fstest_oknum(r, r->sys->lseek(r->sc, FD(0), (off_t)N(1), (int)N(2)));
}

static long run_dup(struct run *r, const struct call *c)
{
	return fstest_oknum(r, r->sys->dup(r->sc, FD(0)));
}

static long run_dup2(struct run *r, const struct call *c)
{
	return fstest_oknum(r, r->sys->dup2(r->sc, FD(0), (int)N(1)));
}

static long run_dup3(struct run *r, const struct call *c)
{
	return fstest_oknum(r, r->sys->dup3(r->sc, FD(0), (int)N(1), (int)N(2)));
}

static long run_fcntl(struct run *r, const struct call *c)
{
	int cmd = (int)N(1);
	long res = r->sys->fcntl(r->sc, FD(0), cmd, (unsigned long)N(2));

	if (res < 0)
		return res;
	switch (cmd) {
	case F_GETFD:
		fstest_put_flags(r->out, sys_fd_flags, res);
		fputc('\n', r->out);
		break;
	case F_GETFL:
		fstest_put_open_flags(r->out, res);
		fputc('\n', r->out);
		break;
	case F_SETFD:
	case F_SETFL:
		fputs("0\n", r->out);
		break;
	default:
		fprintf(r->out, "%ld\n", res);
		break;
	}
	return res;
}

static long run_access(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->faccessat(r->sc, AT_FDCWD, S(0), (int)N(1), 0));
}

static long run_faccessat(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->faccessat(r->sc, FD(0), S(1), (int)N(2), (int)N(3)));
}

static long put_link(struct run *r, long res, const char *buf, size_t size)
{
	if (res >= 0 && (size_t)res > size)
		return -EIO;
	if (res >= 0) {
		fstest_put_escaped(r->out, buf, (size_t)res);
		fputc('\n', r->out);
	}
	return res;
}

/* readlink and readlinkat: the path is argument i, the optional size the next. */
static long do_readlink(struct run *r, const struct call *c, int dfd, int i)
{
	size_t n = c->a[i + 1].present ? (size_t)N(i + 1) : PATH_MAX;
	char *buf = malloc(n ? n : 1);
	long res;

	if (!buf)
		return -ENOMEM;
	res = put_link(r, r->sys->readlinkat(r->sc, dfd, S(i), buf, n), buf, n);
	free(buf);
	return res;
}

static long run_readlink(struct run *r, const struct call *c)
{
	return do_readlink(r, c, AT_FDCWD, 0);
}

static long run_readlinkat(struct run *r, const struct call *c)
{
	return do_readlink(r, c, FD(0), 1);
}

static long run_getcwd(struct run *r, const struct call *c)
{
	size_t n = c->a[0].present ? (size_t)N(0) : PATH_MAX;
	char *buf = malloc(n ? n : 1);
	long res;

	if (!buf)
		return -ENOMEM;
	res = r->sys->getcwd(r->sc, buf, n);
	/* The syscall counts the NUL. */
	if (res >= 0)
		res = put_link(r, res ? res - 1 : 0, buf, n);
	free(buf);
	return res;
}

static long run_chdir(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->chdir(r->sc, S(0)));
}

static long run_fchdir(struct run *r, const struct call *c)
{
	return fstest_ok0(r, r->sys->fchdir(r->sc, FD(0)));
}

static long run_umask(struct run *r, const struct call *c)
{
	long res = r->sys->umask(r->sc, (mode_t)N(0));

	if (res >= 0)
		fprintf(r->out, "0%lo\n", (unsigned long)res);
	return res;
}

/* No syscall: the number a descriptor index stands for (BADFD is -1). */
static long run_fdnum(struct run *r, const struct call *c)
{
	fprintf(r->out, "%d\n", FD(0));
	return 0;
}

struct dent {
	char *name;
	unsigned char type;
};

static int dent_cmp(const void *a, const void *b)
{
	return strcmp(((const struct dent *)a)->name, ((const struct dent *)b)->name);
}

static const char *dtype_name(unsigned char t)
{
	switch (t) {
	case DT_FIFO:
		return "fifo";
	case DT_CHR:
		return "char";
	case DT_DIR:
		return "dir";
	case DT_BLK:
		return "block";
	case DT_REG:
		return "regular";
	case DT_LNK:
		return "symlink";
	case DT_SOCK:
		return "socket";
	case DT_WHT:
		return "whiteout";
	default:
		return "unknown";
	}
}

/*
 * Split one getdents64 buffer into @v.  Returns 0, or -EIO for records a
 * backend got wrong, so that a broken VFS shows up as a failure.
 */
static long collect_dents(const char *buf, long len, struct dent **v, size_t *n, size_t *cap)
{
	/* struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, name */
	const size_t hdr = 19;
	long pos = 0;

	while (pos < len) {
		unsigned short reclen;
		const char *name;

		if ((size_t)(len - pos) < hdr + 1)
			return -EIO;
		memcpy(&reclen, buf + pos + 16, sizeof(reclen));
		if (reclen < hdr + 1 || reclen > len - pos)
			return -EIO;
		name = buf + pos + hdr;
		if (!memchr(name, '\0', reclen - hdr))
			return -EIO;
		if (*n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 64;
			struct dent *nv;

			if (ncap > MAX_DIRENTS)
				return -EIO;
			nv = realloc(*v, ncap * sizeof(*nv));
			if (!nv)
				return -ENOMEM;
			*v = nv;
			*cap = ncap;
		}
		(*v)[*n].name = strdup(name);
		if (!(*v)[*n].name)
			return -ENOMEM;
		(*v)[*n].type = (unsigned char)buf[pos + 18];
		(*n)++;
		pos += reclen;
	}
	return 0;
}

static long run_getdents(struct run *r, const struct call *c)
{
	size_t size = c->a[1].present ? (size_t)N(1) : 32768;
	char *buf = malloc(size ? size : 1);
	struct dent *v = NULL;
	size_t n = 0, cap = 0;
	long res;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		res = r->sys->getdents64(r->sc, FD(0), buf, size);
		if (res <= 0)
			break;
		if (res > (long)size) {
			res = -EIO;
			break;
		}
		res = collect_dents(buf, res, &v, &n, &cap);
		if (res < 0)
			break;
	}
	if (res == 0) {
		if (n)
			qsort(v, n, sizeof(*v), dent_cmp);
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputc(',', r->out);
			fstest_put_escaped(r->out, v[i].name, strlen(v[i].name));
			fprintf(r->out, ":%s", dtype_name(v[i].type));
		}
		fputc('\n', r->out);
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	free(buf);
	return res;
}

/* fcntl's third word: open flags, FD_CLOEXEC or a number, per command. */
static bool check_fcntl(struct call *c, const struct tok *tail, struct diag *d)
{
	static const struct names open_flags = { sys_open_flags }, fd_flags = { sys_fd_flags };
	long long cmd = c->a[1].n;
	struct arg *a = &c->a[2];
	struct diag sub;
	bool ok;

	c->adds_fd = cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC;
	if (!tail)
		return true;
	a->present = true;
	if (cmd == F_SETFL) {
		ok = fstest_parse_flags(&open_flags, tail->s, &a->n, &sub);
	} else if (cmd == F_SETFD) {
		ok = fstest_parse_flags(&fd_flags, tail->s, &a->n, &sub);
	} else {
		ok = fstest_parse_ll(tail->s, 0, &a->n);
		fstest_diag(&sub, "number expected, got '%s'", tail->s);
	}
	if (!ok)
		fstest_diag(d, "argument 3: %s", sub.msg);
	return ok;
}

/* The commands vfslab's fcntl implements. */
#define FCNTL_CMDS "F_DUPFD,F_DUPFD_CLOEXEC,F_GETFD,F_SETFD,F_GETFL,F_SETFL"

const struct cmd fstest_extension_cmds[] = {
	{ .name = "close", .args = "d", .run = run_close, .need = NEED(close) },
	{ .name = "close_range",
	  .args = "nnf",
	  .run = run_close_range,
	  .flags1 = { sys_close_range_flags },
	  .need = NEED(close_range) },
	{ .name = "read", .args = "dz", .run = run_read, .need = NEED(read) },
	{ .name = "pread", .args = "dzn", .run = run_pread, .need = NEED(pread64) },
	{ .name = "pwrite", .args = "dsn", .run = run_pwrite, .need = NEED(pwrite64) },
	{ .name = "lseek",
	  .args = "dne",
	  .run = run_lseek,
	  .names = { sys_seek_whences },
	  .need = NEED(lseek) },
	{ .name = "dup", .args = "d", .run = run_dup, .flags = CMD_ADDS_FD, .need = NEED(dup) },
	{ .name = "dup2", .args = "dn", .run = run_dup2, .flags = CMD_ADDS_FD, .need = NEED(dup2) },
	{ .name = "dup3",
	  .args = "dnf",
	  .run = run_dup3,
	  .flags = CMD_ADDS_FD,
	  .flags1 = { sys_open_flags, "O_CLOEXEC" },
	  .need = NEED(dup3) },
	{ .name = "fcntl",
	  .args = "de",
	  .run = run_fcntl,
	  .flags = CMD_TAIL,
	  .names = { sys_fcntl_cmds, FCNTL_CMDS },
	  .need = NEED(fcntl),
	  .check = check_fcntl },
	{ .name = "access",
	  .args = "pf",
	  .run = run_access,
	  .flags1 = { sys_access_modes },
	  .need = NEED(faccessat) },
	{ .name = "faccessat",
	  .args = "dpfg",
	  .run = run_faccessat,
	  .flags1 = { sys_access_modes },
	  .flags2 = { sys_at_flags, "AT_EACCESS,AT_SYMLINK_NOFOLLOW,AT_EMPTY_PATH" },
	  .need = NEED(faccessat) },
	{ .name = "readlink", .args = "pz?", .run = run_readlink, .need = NEED(readlinkat) },
	{ .name = "readlinkat", .args = "dpz?", .run = run_readlinkat, .need = NEED(readlinkat) },
	{ .name = "renameat2",
	  .args = "dpdpf",
	  .run = run_renameat2,
	  .flags1 = { sys_rename_flags },
	  .need = NEED(renameat2) },
	{ .name = "getcwd", .args = "z?", .run = run_getcwd, .need = NEED(getcwd) },
	{ .name = "chdir", .args = "p", .run = run_chdir, .need = NEED(chdir) },
	{ .name = "fchdir", .args = "d", .run = run_fchdir, .need = NEED(fchdir) },
	{ .name = "umask", .args = "n", .run = run_umask, .need = NEED(umask) },
	{ .name = "getdents", .args = "dz?", .run = run_getdents, .need = NEED(getdents64) },
	{ .name = "futimens", .args = "dntnt", .run = run_futimens, .need = NEED(utimensat) },
	{ .name = "fdnum", .args = "d", .run = run_fdnum },
	{ .name = "statfs", .args = "ps", .run = run_statfs, .need = NEED(statfs) },
	{ .name = "fstatfs", .args = "ds", .run = run_fstatfs, .need = NEED(fstatfs) },
	{ .name = "mount",
	  .args = "pppfp?",
	  .run = run_mount,
	  .flags1 = { sys_mount_flags },
	  .need = NEED(mount) },
	{ .name = "umount2",
	  .args = "pf",
	  .run = run_umount2,
	  .flags1 = { sys_umount_flags },
	  .need = NEED(umount2) },
	{ .name = "openat2",
	  .args = "dpfngn?",
	  .run = run_openat2,
	  .flags = CMD_ADDS_FD,
	  .flags1 = { sys_open_flags },
	  .flags2 = { sys_resolve_flags },
	  .need = NEED(openat2) },
	{ .name = NULL },
};
