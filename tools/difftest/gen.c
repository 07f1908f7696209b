// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * difftest's generator: random lines in fstest's language over a handful
 * of names (a, b, c, d, a few levels deep), run as root and as other uids,
 * so that creates, renames, links, removals and mode changes keep hitting
 * each other. A line never depends on what earlier lines returned, so any
 * subset of a script is a valid script: the shrinker relies on that.
 *
 * Left out because the answer is the host's, not Linux's VFS's:
 *  - inode numbers, times and blocks: stat asks only for type, mode,
 *    nlink, uid, gid and size (tmpfs directory sizes are exact);
 *  - fds 0-2, which are the host process's stdio: only close, close_range
 *    and dup2's target name them;
 *  - device nodes, which reach a host driver: mknod c/b only as a non-root
 *    uid, where it must fail with EPERM;
 *  - blocking: an O_RDONLY/O_WRONLY open that may meet a fifo is
 *    O_NONBLOCK, and a line that may hold a blocking fifo never reads;
 *  - fs.protected_*, and the host tmpfs' large folios and size: struct
 *    dt_policy;
 *  - pathconf and bind/connect, which the vfslab backend lacks.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "tools/difftest/difftest.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PICK(g, v) ((v)[rnd(g, ARRAY_SIZE(v))])
#define WORD 4200 /* one word: a path, a target, a flag list */

struct gen {
	uint64_t s;
	const struct dt_policy *pol;
	char line[DT_LINE_MAX];
	size_t len;
	unsigned int ncalls;
	unsigned int nfds; /* descriptors the line's calls have added */
	bool may_block; /* a descriptor may be a fifo without O_NONBLOCK */
	bool root;
	bool tmpfile, getdents, lseek; /* the line has: an O_TMPFILE open, ... */
};

static bool avoid(const struct gen *g, unsigned int what)
{
	return g->pol->avoid & what;
}

const struct dt_avoid_name *dt_avoid_names(void)
{
	static const struct dt_avoid_name names[] = {
		{ "o-direct", DT_AVOID_O_DIRECT, "O_DIRECT in open and F_SETFL" },
		{ "pos-max", DT_AVOID_POS_MAX, "offsets near LLONG_MAX (pread, pwrite, lseek)" },
		{ "utimes-nsec", DT_AVOID_UTIMES_NSEC,
		  "invalid nanoseconds in utimensat, futimens" },
		{ "tmpfile-getfl", DT_AVOID_TMPFILE_GETFL, "F_GETFL after an O_TMPFILE open" },
		{ "seek-hole", DT_AVOID_SEEK_HOLE, "lseek SEEK_DATA and SEEK_HOLE" },
		{ "tib", DT_AVOID_TIB, "file sizes and offsets of 1 TiB" },
		{ "setid", DT_AVOID_SETID, "S_ISUID and S_ISGID in modes" },
		{ "dir-seek", DT_AVOID_DIR_SEEK, "lseek and getdents in the same line" },
		{ "dents-eof", DT_AVOID_DENTS_EOF,
		  "getdents with a small buffer (EINVAL at the end)" },
		{ "fifo", DT_AVOID_FIFO,
		  "fifos (mkfifo, mknod f): their data outlives the last close" },
		{ NULL, 0, NULL },
	};

	return names;
}

/* splitmix64: one 64-bit state, good enough and reproducible. */
static uint64_t next(struct gen *g)
{
	uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rnd(struct gen *g, size_t n)
{
	return (unsigned int)(next(g) % n);
}

static bool chance(struct gen *g, unsigned int pct)
{
	return rnd(g, 100) < pct;
}

static void __attribute__((format(printf, 2, 3))) put(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(g->line + g->len, sizeof(g->line) - g->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		g->len += (size_t)n < sizeof(g->line) - g->len ? (size_t)n :
								 sizeof(g->line) - g->len - 1;
}

/* Start the next call of the chain. */
static void call(struct gen *g, const char *name)
{
	put(g, "%s%s", g->ncalls ? " : " : "", name);
	g->ncalls++;
}

#define arg(g, ...) put(g, " " __VA_ARGS__)

/* ---- arguments ---- */

static const char *const names[] = { "a", "b", "c", "d" };

static void path(struct gen *g, char *buf)
{
	unsigned int r = rnd(g, 1000), depth;
	size_t n = 0;

	if (r < 8) {
		strcpy(buf, "''"); /* ENOENT, or the fd itself with AT_EMPTY_PATH */
		return;
	}
	if (r < 16) {
		/* NAME_MAX and one past it. */
		sprintf(buf, "%s{%u*n}", chance(g, 50) ? "a/" : "", chance(g, 50) ? 255 : 256);
		return;
	}
	if (r < 24) {
		/* Deep: a chain that may exist, or past PATH_MAX. */
		static const unsigned int deep[] = { 5, 8, 40, 2047, 2048 };

		sprintf(buf, "%s{%u*%s/}%s", chance(g, 20) ? "/" : "", PICK(g, deep),
			chance(g, 70) ? PICK(g, names) : "..", PICK(g, names));
		return;
	}
	r = rnd(g, 100);
	depth = r < 45 ? 1 : r < 75 ? 2 : r < 92 ? 3 : 4 + rnd(g, 3);
	if (chance(g, 8))
		buf[n++] = '/';
	for (unsigned int i = 0; i < depth; i++) {
		const char *c;

		r = rnd(g, 100);
		c = r < 84 ? PICK(g, names) : r < 91 ? ".." : r < 95 ? "." : "e";
		n += (size_t)sprintf(buf + n, "%s%s", i ? "/" : "", c);
	}
	if (chance(g, 4))
		buf[n++] = '/';
	buf[n] = '\0';
}

/* A symlink's body: relative, absolute, dangling, looping, odd. */
static void target(struct gen *g, char *buf, const char *linkpath)
{
	unsigned int r = rnd(g, 100);

	if (r < 50) {
		path(g, buf);
	} else if (r < 62) {
		buf[0] = '/';
		path(g, buf + 1);
		if (!strcmp(buf, "/''"))
			strcpy(buf, "/");
	} else if (r < 72) {
		strcpy(buf, "../");
		path(g, buf + 3);
		if (!strcmp(buf, "../''"))
			strcpy(buf, "..");
	} else if (r < 80) {
		strcpy(buf, linkpath); /* itself: a loop */
	} else if (r < 86) {
		snprintf(buf, WORD, "%s/%.4000s", PICK(g, names), linkpath);
	} else if (r < 90) {
		strcpy(buf, chance(g, 50) ? "zz/y" : "zz");
	} else if (r < 95) {
		strcpy(buf, chance(g, 50) ? "." : "..");
	} else if (r < 98) {
		sprintf(buf, "{%u*t}", chance(g, 50) ? 4095 : 4096);
	} else {
		strcpy(buf, "''");
	}
}

/* Every mode the generator writes passes here: the policy's rules. */
static unsigned int allowed_mode(const struct gen *g, unsigned int m)
{
	if (avoid(g, DT_AVOID_SETID))
		m &= ~(unsigned int)(S_ISUID | S_ISGID);
	if (m & S_ISVTX) {
		if (g->pol->no_sticky_ow)
			m &= ~(unsigned int)S_IWOTH;
		if (g->pol->no_sticky_gw)
			m &= ~(unsigned int)S_IWGRP;
	}
	return m;
}

static unsigned int mode(struct gen *g)
{
	static const unsigned int modes[] = {
		0644,  0600,  0755,  0777,  0700,  0444,  0000,	 0640,	0750,  0770,  0775,
		0707,  0070,  0007,  0111,  0222,  0666,  04755, 02755, 02775, 02770, 06777,
		04000, 02000, 01777, 01775, 01755, 01770, 01700, 03777, 07777, 07755,
	};

	return allowed_mode(g, chance(g, 10) ? rnd(g, 010000) : PICK(g, modes));
}

static void put_mode(struct gen *g)
{
	arg(g, "0%o", mode(g));
}

static void owner(struct gen *g)
{
	static const char *const uids[] = { "-1", "0", "1000", "65534", "2000" };
	static const char *const gids[] = { "-1", "0", "100", "1000", "65534" };

	arg(g, "%s %s", PICK(g, uids), PICK(g, gids));
}

/* stat's fields: never inode, blocks or times (the host's, not Linux's). */
static void fields(struct gen *g)
{
	static const char *const f[] = { "type", "mode", "nlink", "uid", "gid", "size" };
	unsigned int n = 1 + rnd(g, 4), first = rnd(g, ARRAY_SIZE(f));

	put(g, " ");
	for (unsigned int i = 0; i < n; i++)
		put(g, "%s%s", i ? "," : "", f[(first + i * (1 + rnd(g, 2))) % ARRAY_SIZE(f)]);
}

/* A descriptor: mostly the latest this line added, never fd 0-2. */
static void fd(struct gen *g)
{
	static const char *const raw[] = {
		"BADFD", "=3", "=4", "=5", "=9", "=1023", "=1024", "=-5"
	};

	if (g->nfds && !chance(g, 7))
		arg(g, "%u", chance(g, 60) ? g->nfds - 1 : rnd(g, g->nfds));
	else
		arg(g, "%s", PICK(g, raw));
}

static void dirfd(struct gen *g)
{
	if (!g->nfds || chance(g, 35))
		arg(g, "AT_FDCWD");
	else
		fd(g);
}

static void put_path(struct gen *g)
{
	char p[WORD];

	path(g, p);
	arg(g, "%s", p);
}

static void data(struct gen *g)
{
	static const char *const s[] = { "x", "abc", "hello", "0123456789", "{100*z}", "''" };

	arg(g, "%s", PICK(g, s));
}

static void offset(struct gen *g)
{
	static const char *const o[] = { "0",
					 "0",
					 "1",
					 "3",
					 "10",
					 "100",
					 "4096",
					 "8191",
					 "-1",
					 "0x7fffffffffffffff",
					 "1099511627776" };
	const char *v = PICK(g, o);

	/* The --avoid'ed values become ordinary ones: the stream stays the same. */
	if (v[1] == 'x' && avoid(g, DT_AVOID_POS_MAX))
		v = "8192";
	if (strlen(v) > 10 && v[1] != 'x' && avoid(g, DT_AVOID_TIB))
		v = "8192";
	arg(g, "%s", v);
}

static void length(struct gen *g)
{
	static const char *const l[] = {
		"0", "0", "1", "5", "12", "100", "4096", "70000", "1099511627776", "-1"
	};
	const char *v = PICK(g, l);

	if (strlen(v) > 10 && avoid(g, DT_AVOID_TIB))
		v = "1048576";
	arg(g, "%s", v);
}

static void size(struct gen *g)
{
	static const unsigned int z[] = { 0, 1, 3, 10, 100, 100, 4096 };

	arg(g, "%u", PICK(g, z));
}

/* utimensat's times: values, UTIME_NOW, UTIME_OMIT, out of range. */
static void times(struct gen *g)
{
	static const char *const ns[] = { "0",	       "0",	     "UTIME_NOW", "UTIME_OMIT",
					  "999999999", "1000000000", "-1" };

	for (int i = 0; i < 2; i++) {
		unsigned int sec = chance(g, 50) ? 0 : 1000000000u;
		const char *n = PICK(g, ns);

		if ((n[0] == '1' || n[0] == '-') && avoid(g, DT_AVOID_UTIMES_NSEC))
			n = "0";
		arg(g, "%u %s", sec, n);
	}
}

/* ---- calls ---- */

static void open_flags(struct gen *g, char *buf, bool *need_mode)
{
	static const char *const acc[] = { "O_RDONLY", "O_RDONLY", "O_WRONLY", "O_RDWR", "O_RDWR" };
	const char *a = PICK(g, acc);
	bool excl = false, creat = false, dir = false, nonblock = false;
	size_t n = 0;

#define F(name) (n += (size_t)sprintf(buf + n, "%s%s", n ? "," : "", name))
	*need_mode = false;
	if (chance(g, 4)) {
		/* O_TMPFILE: always a regular file. */
		F("O_TMPFILE");
		g->tmpfile = true;
		F(chance(g, 85) ? (chance(g, 50) ? "O_RDWR" : "O_WRONLY") : "O_RDONLY");
		if (chance(g, 25))
			F("O_EXCL");
		*need_mode = true;
		return;
	}
	if (chance(g, 8)) {
		/* O_PATH ignores the rest, except these. */
		F("O_PATH");
		if (chance(g, 25))
			F("O_DIRECTORY");
		if (chance(g, 25))
			F("O_NOFOLLOW");
		if (chance(g, 10))
			F("O_CLOEXEC");
		if (chance(g, 5)) {
			F("O_CREAT");
			*need_mode = true;
		}
		return;
	}
	F(a);
	if (chance(g, 35)) {
		F("O_CREAT");
		creat = *need_mode = true;
		if (chance(g, 30))
			excl = true, F("O_EXCL");
	}
	if (chance(g, 12))
		F("O_TRUNC");
	if (chance(g, 10))
		F("O_APPEND");
	if (chance(g, 8))
		dir = true, F("O_DIRECTORY");
	if (chance(g, 10))
		F("O_NOFOLLOW");
	if (chance(g, 10))
		F("O_CLOEXEC");
	if (chance(g, 3))
		F("O_NOATIME");
	if (chance(g, 2))
		F("O_SYNC");
	if (chance(g, 2) && !avoid(g, DT_AVOID_O_DIRECT))
		F("O_DIRECT");
	if (chance(g, 30))
		nonblock = true, F("O_NONBLOCK");
	/*
	 * A fifo opened for reading or writing alone waits for its peer on
	 * Linux (vfslab fails with ENXIO instead, see README): never wait.
	 * O_RDWR does not wait, but reading it would: the line stops reading.
	 */
	if (!nonblock && !dir && !(creat && excl)) {
		if (strcmp(a, "O_RDWR"))
			F("O_NONBLOCK");
		else
			g->may_block = true;
	}
#undef F
}

/* A plain name one or two levels down: where setup lines build. */
static void short_path(struct gen *g, char *buf)
{
	if (chance(g, 50))
		sprintf(buf, "%s", PICK(g, names));
	else
		sprintf(buf, "%s/%s", PICK(g, names), PICK(g, names));
}

static void gen_open(struct gen *g)
{
	char p[WORD], fl[256];
	bool need_mode;
	bool at = chance(g, 25);

	call(g, at ? "openat" : "open");
	if (at)
		dirfd(g);
	/* Half the opens at a plain name: most of a chain then runs. */
	if (chance(g, 50))
		short_path(g, p);
	else
		path(g, p);
	open_flags(g, fl, &need_mode);
	arg(g, "%s %s", p, fl);
	if (need_mode)
		put_mode(g);
	g->nfds++;
}

enum nsop {
	NS_CREATE,
	NS_MKDIR,
	NS_MKFIFO,
	NS_MKNOD,
	NS_SYMLINK,
	NS_LINK,
	NS_RENAME,
	NS_RENAMEAT2,
	NS_UNLINK,
	NS_RMDIR,
	NS_UNLINKAT,
	NS_CHMOD,
	NS_LCHMOD,
	NS_CHOWN,
	NS_LCHOWN,
	NS_TRUNCATE,
	NS_STAT,
	NS_LSTAT,
	NS_ACCESS,
	NS_READLINK,
	NS_UTIMENSAT,
	NS_NR
};

static const unsigned char ns_weight[NS_NR] = {
	[NS_CREATE] = 9,    [NS_MKDIR] = 11, [NS_MKFIFO] = 3,	 [NS_MKNOD] = 2,  [NS_SYMLINK] = 9,
	[NS_LINK] = 6,	    [NS_RENAME] = 9, [NS_RENAMEAT2] = 5, [NS_UNLINK] = 6, [NS_RMDIR] = 5,
	[NS_UNLINKAT] = 2,  [NS_CHMOD] = 7,  [NS_LCHMOD] = 1,	 [NS_CHOWN] = 5,  [NS_LCHOWN] = 2,
	[NS_TRUNCATE] = 3,  [NS_STAT] = 8,   [NS_LSTAT] = 5,	 [NS_ACCESS] = 4, [NS_READLINK] = 3,
	[NS_UTIMENSAT] = 2,
};

static enum nsop pick_nsop(struct gen *g)
{
	unsigned int total = 0, r;

	for (int i = 0; i < NS_NR; i++)
		total += ns_weight[i];
	r = rnd(g, total);
	for (int i = 0; i < NS_NR; i++) {
		if (r < ns_weight[i])
			return (enum nsop)i;
		r -= ns_weight[i];
	}
	return NS_STAT;
}

/* One namespace call; @at: through dirfd() where there is an *at form. */
static void gen_nsop(struct gen *g, bool at)
{
	static const char *const rflags[] = { "0",
					      "RENAME_NOREPLACE",
					      "RENAME_NOREPLACE",
					      "RENAME_EXCHANGE",
					      "RENAME_EXCHANGE",
					      "RENAME_WHITEOUT",
					      "RENAME_NOREPLACE,RENAME_EXCHANGE",
					      "RENAME_NOREPLACE,RENAME_WHITEOUT" };
	static const char *const amodes[] = { "F_OK",	   "R_OK",	    "W_OK",
					      "X_OK",	   "R_OK,W_OK",	    "R_OK,X_OK",
					      "W_OK,X_OK", "R_OK,W_OK,X_OK" };
	static const char *const aflags[] = { "0", "0", "AT_EACCESS", "AT_SYMLINK_NOFOLLOW",
					      "AT_EACCESS,AT_SYMLINK_NOFOLLOW" };
	static const char *const nofollow[] = { "0", "0", "AT_SYMLINK_NOFOLLOW" };
	char p[WORD], q[WORD];
	enum nsop op = pick_nsop(g);

	/* Hard links of others' files depend on protected_hardlinks. */
	if (op == NS_LINK && g->pol->root_links && !g->root)
		op = NS_STAT;
	path(g, p);
	switch (op) {
	case NS_CREATE:
		call(g, "create");
		arg(g, "%s", p);
		put_mode(g);
		break;
	case NS_MKDIR:
		call(g, at ? "mkdirat" : "mkdir");
		if (at)
			dirfd(g);
		arg(g, "%s", p);
		put_mode(g);
		break;
	case NS_MKFIFO:
		if (avoid(g, DT_AVOID_FIFO)) {
			/* A socket inode instead: as inert, and it keeps no data. */
			call(g, at ? "mknodat" : "mknod");
			if (at)
				dirfd(g);
			arg(g, "%s s", p);
			put_mode(g);
			arg(g, "0 0");
			break;
		}
		call(g, at ? "mkfifoat" : "mkfifo");
		if (at)
			dirfd(g);
		arg(g, "%s", p);
		put_mode(g);
		break;
	case NS_MKNOD:
		call(g, at ? "mknodat" : "mknod");
		if (at)
			dirfd(g);
		arg(g, "%s", p);
		/* Devices only where they must fail: no host driver is reached. */
		if (!g->root && chance(g, 30))
			arg(g, "%s", chance(g, 50) ? "c" : "b");
		else
			arg(g, "%s", chance(g, 60) && !avoid(g, DT_AVOID_FIFO) ? "f" : "s");
		put_mode(g);
		arg(g, "%s", chance(g, 80) ? "0 0" : "1 3");
		break;
	case NS_SYMLINK:
		target(g, q, p);
		call(g, at ? "symlinkat" : "symlink");
		arg(g, "%s", q);
		if (at)
			dirfd(g);
		arg(g, "%s", p);
		break;
	case NS_LINK:
		path(g, q);
		if (at || chance(g, 20)) {
			static const char *const lf[] = { "0", "0", "AT_SYMLINK_FOLLOW" };

			call(g, "linkat");
			dirfd(g);
			arg(g, "%s", p);
			dirfd(g);
			arg(g, "%s %s", q, PICK(g, lf));
		} else {
			call(g, "link");
			arg(g, "%s %s", p, q);
		}
		break;
	case NS_RENAME:
		path(g, q);
		if (at) {
			call(g, "renameat");
			dirfd(g);
			arg(g, "%s", p);
			dirfd(g);
			arg(g, "%s", q);
		} else {
			call(g, "rename");
			arg(g, "%s %s", p, q);
		}
		break;
	case NS_RENAMEAT2:
		path(g, q);
		call(g, "renameat2");
		dirfd(g);
		arg(g, "%s", p);
		dirfd(g);
		arg(g, "%s %s", q, PICK(g, rflags));
		break;
	case NS_UNLINK:
		call(g, at ? "unlinkat" : "unlink");
		if (at)
			dirfd(g);
		arg(g, "%s", p);
		if (at)
			arg(g, "0");
		break;
	case NS_RMDIR:
		call(g, at ? "unlinkat" : "rmdir");
		if (at)
			dirfd(g);
		arg(g, "%s", p);
		if (at)
			arg(g, "AT_REMOVEDIR");
		break;
	case NS_UNLINKAT:
		call(g, "unlinkat");
		dirfd(g);
		arg(g, "%s %s", p, chance(g, 50) ? "0" : "AT_REMOVEDIR");
		break;
	case NS_CHMOD:
		if (at || chance(g, 15)) {
			call(g, "fchmodat");
			dirfd(g);
			arg(g, "%s", p);
			put_mode(g);
			arg(g, "%s", PICK(g, nofollow));
		} else {
			call(g, "chmod");
			arg(g, "%s", p);
			put_mode(g);
		}
		break;
	case NS_LCHMOD:
		call(g, "lchmod");
		arg(g, "%s", p);
		put_mode(g);
		break;
	case NS_CHOWN:
		if (at || chance(g, 15)) {
			call(g, "fchownat");
			dirfd(g);
			arg(g, "%s", p);
			owner(g);
			arg(g, "%s", PICK(g, nofollow));
		} else {
			call(g, "chown");
			arg(g, "%s", p);
			owner(g);
		}
		break;
	case NS_LCHOWN:
		call(g, "lchown");
		arg(g, "%s", p);
		owner(g);
		break;
	case NS_TRUNCATE:
		call(g, "truncate");
		arg(g, "%s", p);
		length(g);
		break;
	case NS_STAT:
	case NS_LSTAT:
		if (at || chance(g, 10)) {
			call(g, "fstatat");
			dirfd(g);
			arg(g, "%s %s", p, PICK(g, nofollow));
		} else {
			call(g, op == NS_STAT ? "stat" : "lstat");
			arg(g, "%s", p);
		}
		fields(g);
		break;
	case NS_ACCESS:
		if (at || chance(g, 30)) {
			call(g, "faccessat");
			dirfd(g);
			arg(g, "%s %s %s", p, PICK(g, amodes), PICK(g, aflags));
		} else {
			call(g, "access");
			arg(g, "%s %s", p, PICK(g, amodes));
		}
		break;
	case NS_READLINK:
		call(g, at ? "readlinkat" : "readlink");
		if (at)
			dirfd(g);
		arg(g, "%s", p);
		if (chance(g, 30))
			arg(g, "%u", chance(g, 50) ? 0 : 1 + rnd(g, 4));
		break;
	case NS_UTIMENSAT:
		call(g, "utimensat");
		dirfd(g);
		arg(g, "%s", p);
		times(g);
		arg(g, "%s", chance(g, 80) ? "0" : "AT_SYMLINK_NOFOLLOW");
		break;
	case NS_NR:
		break;
	}
}

static void fcntl_call(struct gen *g)
{
	static const char *const setfl[] = { "0",	 "O_APPEND", "O_NONBLOCK", "O_NOATIME",
					     "O_DIRECT", "O_ASYNC",  "O_RDWR",	   "O_TRUNC" };
	unsigned int r = rnd(g, 100);

	call(g, "fcntl");
	fd(g);
	if (r < 20) {
		arg(g, "F_GETFD");
	} else if (r < 32) {
		arg(g, "F_SETFD %s", chance(g, 60) ? "FD_CLOEXEC" : "0");
	} else if (r < 60) {
		arg(g, "%s",
		    g->tmpfile && avoid(g, DT_AVOID_TMPFILE_GETFL) ? "F_GETFD" : "F_GETFL");
	} else if (r < 82) {
		const char *f = PICK(g, setfl);

		if (!strcmp(f, "O_DIRECT") && avoid(g, DT_AVOID_O_DIRECT))
			f = "O_APPEND";

		/* Clearing O_NONBLOCK may leave a fifo that blocks: no reads then. */
		if (!strcmp(f, "O_NONBLOCK") || (!strcmp(f, "0") && chance(g, 50))) {
			arg(g, "F_SETFL O_NONBLOCK");
		} else if (strcmp(f, "0") && chance(g, 50)) {
			arg(g, "F_SETFL %s,O_NONBLOCK", f);
		} else {
			arg(g, "F_SETFL %s", f);
			g->may_block = true;
		}
	} else {
		static const char *const min[] = { "0", "3", "10", "1023", "1024" };

		arg(g, "%s %s", chance(g, 50) ? "F_DUPFD" : "F_DUPFD_CLOEXEC", PICK(g, min));
		g->nfds++;
	}
}

enum fdop {
	FD_FSTAT,
	FD_READ,
	FD_WRITE,
	FD_PREAD,
	FD_PWRITE,
	FD_LSEEK,
	FD_FTRUNCATE,
	FD_FCHMOD,
	FD_FCHOWN,
	FD_DUP,
	FD_DUP2,
	FD_DUP3,
	FD_FCNTL,
	FD_CLOSE,
	FD_FDNUM,
	FD_GETDENTS,
	FD_FCHDIR,
	FD_AT,
	FD_EMPTY_PATH,
	FD_FUTIMENS,
	FD_FALLOCATE,
	FD_CLOSE_RANGE,
	FD_OPEN,
	FD_NR
};

static const unsigned char fd_weight[FD_NR] = {
	[FD_FSTAT] = 9,	    [FD_READ] = 8,	  [FD_WRITE] = 9,      [FD_PREAD] = 4,
	[FD_PWRITE] = 4,    [FD_LSEEK] = 6,	  [FD_FTRUNCATE] = 4,  [FD_FCHMOD] = 3,
	[FD_FCHOWN] = 3,    [FD_DUP] = 4,	  [FD_DUP2] = 4,       [FD_DUP3] = 2,
	[FD_FCNTL] = 7,	    [FD_CLOSE] = 5,	  [FD_FDNUM] = 2,      [FD_GETDENTS] = 4,
	[FD_FCHDIR] = 3,    [FD_AT] = 10,	  [FD_EMPTY_PATH] = 3, [FD_FUTIMENS] = 1,
	[FD_FALLOCATE] = 2, [FD_CLOSE_RANGE] = 1, [FD_OPEN] = 5,
};

static enum fdop pick_fdop(struct gen *g)
{
	unsigned int total = 0, r;

	for (int i = 0; i < FD_NR; i++)
		total += fd_weight[i];
	r = rnd(g, total);
	for (int i = 0; i < FD_NR; i++) {
		if (r < fd_weight[i])
			return (enum fdop)i;
		r -= fd_weight[i];
	}
	return FD_FSTAT;
}

static void gen_fdop(struct gen *g)
{
	static const char *const whence[] = { "SEEK_SET", "SEEK_SET",  "SEEK_CUR",
					      "SEEK_END", "SEEK_DATA", "SEEK_HOLE" };
	static const char *const newfd[] = { "3", "4", "5", "7", "10", "1", "1023", "1024", "-1" };
	enum fdop op = pick_fdop(g);

	if (op == FD_READ && g->may_block)
		op = FD_PREAD; /* pread on a fifo is ESPIPE: it never waits */
	if ((op == FD_LSEEK && g->getdents) || (op == FD_GETDENTS && g->lseek)) {
		if (avoid(g, DT_AVOID_DIR_SEEK))
			op = FD_FSTAT;
	}
	switch (op) {
	case FD_FSTAT:
		call(g, "fstat");
		fd(g);
		fields(g);
		break;
	case FD_READ:
		call(g, "read");
		fd(g);
		size(g);
		break;
	case FD_WRITE:
		call(g, "write");
		fd(g);
		data(g);
		break;
	case FD_PREAD:
		call(g, "pread");
		fd(g);
		size(g);
		offset(g);
		break;
	case FD_PWRITE:
		call(g, "pwrite");
		fd(g);
		data(g);
		offset(g);
		break;
	case FD_LSEEK: {
		const char *w;

		g->lseek = true;
		call(g, "lseek");
		fd(g);
		offset(g);
		w = PICK(g, whence);
		if ((!strcmp(w, "SEEK_DATA") || !strcmp(w, "SEEK_HOLE")) &&
		    (avoid(g, DT_AVOID_SEEK_HOLE) || g->pol->no_seek_hole))
			w = "SEEK_SET";
		arg(g, "%s", w);
		break;
	}
	case FD_FTRUNCATE:
		call(g, "ftruncate");
		fd(g);
		length(g);
		break;
	case FD_FCHMOD:
		call(g, "fchmod");
		fd(g);
		put_mode(g);
		break;
	case FD_FCHOWN:
		call(g, "fchown");
		fd(g);
		owner(g);
		break;
	case FD_DUP:
		call(g, "dup");
		fd(g);
		g->nfds++;
		break;
	case FD_DUP2:
		call(g, "dup2");
		fd(g);
		arg(g, "%s", PICK(g, newfd));
		g->nfds++;
		break;
	case FD_DUP3:
		call(g, "dup3");
		fd(g);
		arg(g, "%s %s", PICK(g, newfd), chance(g, 50) ? "O_CLOEXEC" : "0");
		g->nfds++;
		break;
	case FD_FCNTL:
		fcntl_call(g);
		break;
	case FD_CLOSE:
		call(g, "close");
		fd(g);
		break;
	case FD_FDNUM:
		call(g, "fdnum");
		fd(g);
		break;
	case FD_GETDENTS:
		g->getdents = true;
		call(g, "getdents");
		fd(g);
		if (chance(g, 30)) {
			unsigned int z = chance(g, 50) ? 24 + rnd(g, 20) : 1 + rnd(g, 23);

			if (!avoid(g, DT_AVOID_DENTS_EOF))
				arg(g, "%u", z);
		}
		break;
	case FD_FCHDIR:
		call(g, "fchdir");
		fd(g);
		if (chance(g, 40)) {
			call(g, "getcwd");
		} else {
			/* Relative paths now start at the descriptor. */
			gen_nsop(g, false);
		}
		break;
	case FD_AT:
		gen_nsop(g, true);
		break;
	case FD_EMPTY_PATH: {
		unsigned int r = rnd(g, 100);

		if (r < 40) {
			call(g, "fstatat");
			fd(g);
			arg(g, "'' %s", chance(g, 80) ? "AT_EMPTY_PATH" : "0");
			fields(g);
		} else if (r < 55) {
			call(g, "fchownat");
			fd(g);
			arg(g, "''");
			owner(g);
			arg(g, "AT_EMPTY_PATH");
		} else if (r < 65) {
			call(g, "fchmodat");
			fd(g);
			arg(g, "''");
			put_mode(g);
			arg(g, "AT_EMPTY_PATH");
		} else {
			/* Gives a name to an O_TMPFILE (or any file: EEXIST, ENOENT). */
			call(g, "linkat");
			fd(g);
			arg(g, "''");
			dirfd(g);
			put_path(g);
			arg(g, "AT_EMPTY_PATH");
		}
		break;
	}
	case FD_FUTIMENS:
		call(g, "futimens");
		fd(g);
		times(g);
		break;
	case FD_FALLOCATE:
		call(g, "posix_fallocate");
		fd(g);
		offset(g);
		if (chance(g, 4) && !avoid(g, DT_AVOID_TIB) && !g->pol->no_big_fallocate)
			arg(g, "1099511627776"); /* more than the tmpfs holds: ENOSPC */
		else
			arg(g, "%u", chance(g, 10) ? 0 : 1 + rnd(g, 9000));
		break;
	case FD_CLOSE_RANGE: {
		static const char *const cr[] = { "3 3",	  "3 4294967295", "4 10",
						  "0 4294967295", "5 3",	  "1024 2000" };
		static const char *const crf[] = { "0", "0", "CLOSE_RANGE_CLOEXEC",
						   "CLOSE_RANGE_UNSHARE" };

		call(g, "close_range");
		arg(g, "%s %s", PICK(g, cr), PICK(g, crf));
		break;
	}
	case FD_OPEN:
		gen_open(g);
		break;
	case FD_NR:
		break;
	}
}

static void creds(struct gen *g)
{
	/* -u always with -g: otherwise the host's supplementary groups leak in. */
	static const char *const who[] = {
		"",
		"",
		"",
		"",
		"",
		"-u 0 -g 0 ",
		"-u 0 -g 100 ",
		"-u 1000 -g 1000 ",
		"-u 1000 -g 1000 ",
		"-u 1000 -g 1000,100 ",
		"-u 1000 -g 100,1000 ",
		"-u 65534 -g 65534 ",
		"-u 65534 -g 65534 ",
		"-u 65534 -g 65534,1000 ",
		"-u 65534 -g 1000 ",
		"-u 2000 -g 2000 ",
		"-u 2000 -g 100 ",
	};
	static const unsigned int umasks[] = { 022, 077, 002, 027, 0777, 07777, 01000 };
	const char *w = PICK(g, who);

	if (g->pol->uid >= 0) {
		/* --uid: every line but the set-up ones as that user. */
		g->root = g->pol->uid == 0;
		put(g, "-u %ld -g %ld ", g->pol->uid, g->pol->gid);
	} else {
		g->root = !*w || !strncmp(w, "-u 0 ", 5);
		put(g, "%s", w);
	}
	if (chance(g, 12))
		put(g, "-U 0%o ", PICK(g, umasks));
}

/*
 * Root building something at a short path, so that later lines find a
 * tree to work on rather than ENOENT everywhere.
 */
static void gen_setup(struct gen *g)
{
	static const unsigned int open_modes[] = { 0777, 0755, 0775, 0770, 01775 };
	char p[64], q[64];
	unsigned int r = rnd(g, 100);

	g->root = true;
	short_path(g, p);
	if (r < 8) {
		/* One level deeper down a chain: deep trees grow over a script. */
		call(g, "mkdir");
		arg(g, "{%u*%s/}%s 0%o", 1 + rnd(g, 8), PICK(g, names), PICK(g, names),
		    allowed_mode(g, PICK(g, open_modes)));
	} else if (r < 55) {
		call(g, "mkdir");
		arg(g, "%s 0%o", p, allowed_mode(g, PICK(g, open_modes)));
	} else if (r < 72) {
		call(g, "create");
		arg(g, "%s", p);
		put_mode(g);
	} else if (r < 82) {
		short_path(g, q);
		call(g, "symlink");
		arg(g, "%s %s", chance(g, 70) ? q : "..", p);
	} else if (r < 87) {
		if (avoid(g, DT_AVOID_FIFO)) {
			call(g, "mknod");
			arg(g, "%s s", p);
			put_mode(g);
			arg(g, "0 0");
		} else {
			call(g, "mkfifo");
			arg(g, "%s", p);
			put_mode(g);
		}
	} else if (r < 92) {
		short_path(g, q);
		call(g, "link");
		arg(g, "%s %s", q, p);
	} else {
		call(g, "chown");
		arg(g, "%s %s %s", p, chance(g, 50) ? "1000" : "65534",
		    chance(g, 50) ? "1000" : "100");
	}
}

static void gen_line(struct gen *g, bool setup)
{
	unsigned int r, n;

	g->len = 0;
	g->line[0] = '\0';
	g->ncalls = g->nfds = 0;
	g->may_block = g->tmpfile = g->getdents = g->lseek = false;
	if (setup) {
		gen_setup(g);
		return;
	}
	creds(g);
	r = rnd(g, 100);
	if (r < 42) {
		/* A few namespace calls, perhaps a look at the result. */
		n = 1 + chance(g, 35) + chance(g, 15);
		while (n--)
			gen_nsop(g, false);
		if (chance(g, 25)) {
			call(g, chance(g, 50) ? "stat" : "lstat");
			put_path(g);
			fields(g);
		}
	} else if (r < 90) {
		/* An open and what can be done with its descriptor. */
		gen_open(g);
		n = 1 + rnd(g, 6);
		while (n--)
			gen_fdop(g);
	} else if (r < 95) {
		call(g, "chdir");
		put_path(g);
		if (chance(g, 40))
			call(g, "getcwd");
		else
			gen_nsop(g, false);
	} else {
		/* Make a name, then use it through a descriptor. */
		gen_nsop(g, false);
		gen_open(g);
		n = 1 + rnd(g, 3);
		while (n--)
			gen_fdop(g);
	}
}

int dt_generate(struct dt_script *s, uint64_t seed, size_t nlines, const struct dt_policy *pol)
{
	struct gen g = { .s = seed, .pol = pol };

	/* A tenth of the lines rebuild, most of them at the start. */
	size_t setup = nlines / 10 < 5 ? 5 : nlines / 10;

	if (pol->no_sticky_ow && !s->n) {
		if (dt_script_add(s, DT_ROOT_FIX, 1))
			return -1;
		s->pinned = 1;
	}

	for (size_t i = 0; i < nlines; i++) {
		gen_line(&g, i < setup || chance(&g, 7));
		if (dt_script_add(s, g.line, g.ncalls))
			return -1;
	}
	return 0;
}

static int read_sysctl(const char *name, int dflt)
{
	char path[128];
	FILE *f;
	int v;

	snprintf(path, sizeof(path), "/proc/sys/fs/%s", name);
	f = fopen(path, "r");
	if (!f)
		return dflt;
	if (fscanf(f, "%d", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

/*
 * The super options of the mount @path is on ("rw,size=...,huge=..."),
 * from /proc/self/mountinfo: the longest mount point that holds it.
 */
static bool mount_options(const char *path, char *opts, size_t len)
{
	char real[PATH_MAX], *line = NULL;
	size_t cap = 0, best = 0;
	FILE *f;

	if (!realpath(path, real))
		return false;
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0) {
		char mnt[PATH_MAX], *sep = strstr(line, " - ");
		char fstype[64], source[PATH_MAX], super[1024];
		size_t n;

		if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(sep + 3, "%63s %4095s %1023s", fstype, source, super) != 3)
			continue;
		n = strlen(mnt);
		if (strncmp(real, mnt, n) || (real[n] && real[n] != '/' && n > 1) || n < best)
			continue;
		best = n;
		snprintf(opts, len, "%s", super);
	}
	free(line);
	fclose(f);
	return best > 0;
}

/* The value of option @key= in a comma-separated @opts, into @val. */
static bool mount_option(const char *opts, const char *key, char *val, size_t len)
{
	size_t k = strlen(key);

	for (const char *o = opts; o && *o; o = strchr(o, ',') ? strchr(o, ',') + 1 : NULL) {
		if (!strncmp(o, key, k) && o[k] == '=') {
			size_t n = strcspn(o + k + 1, ",");

			snprintf(val, len, "%.*s", (int)n, o + k + 1);
			return true;
		}
	}
	return false;
}

/*
 * May the tmpfs holding @tmpdir put file data in large folios? Its huge=
 * (never when not given), unless shmem_enabled forces or denies them.
 */
static bool host_large_folios(const char *opts, char *huge, size_t len)
{
	char line[256] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/shmem_enabled", "r");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	if (!mount_option(opts, "huge", huge, len))
		snprintf(huge, len, "never");
	if (strstr(line, "[force]")) {
		snprintf(huge, len, "force");
		return true;
	}
	if (strstr(line, "[deny]"))
		return false;
	return !strcmp(huge, "always") || !strcmp(huge, "within_size");
}

void dt_policy_from_host(struct dt_policy *p, const char *tmpdir, char *desc, size_t len)
{
	int sym = read_sysctl("protected_symlinks", 1),
	    hard = read_sysctl("protected_hardlinks", 1);
	int reg = read_sysctl("protected_regular", 0), fifo = read_sysctl("protected_fifos", 0);
	char opts[1024] = "", huge[32] = "never";
	struct statfs sfs;
	size_t n;

	p->no_sticky_ow = sym != 1 || reg >= 1 || fifo >= 1;
	p->no_sticky_gw = reg >= 2 || fifo >= 2;
	p->root_links = hard != 1;
	p->uid = p->gid = -1;
	if (tmpdir && mount_options(tmpdir, opts, sizeof(opts)))
		p->no_seek_hole = host_large_folios(opts, huge, sizeof(huge));
	p->tmpfs_size = 0;
	if (tmpdir && statfs(tmpdir, &sfs) == 0)
		p->tmpfs_size = (unsigned long long)sfs.f_blocks * (unsigned long long)sfs.f_bsize;
	p->no_big_fallocate = !p->tmpfs_size || p->tmpfs_size >= (1ull << 40);
	n = (size_t)snprintf(desc, len,
			     "host fs.protected_symlinks=%d hardlinks=%d regular=%d fifos=%d "
			     "(vfslab: 1 1 0 0), tmpfs huge=%s size=%llu",
			     sym, hard, reg, fifo, huge, p->tmpfs_size);
	if (n < len && (p->no_sticky_ow || p->no_sticky_gw || p->root_links || p->no_seek_hole ||
			p->no_big_fallocate))
		snprintf(desc + n, len - n, "; not generated:%s%s%s%s%s",
			 p->no_sticky_ow ? " sticky o+w directories," : "",
			 p->no_sticky_gw ? " sticky g+w directories," : "",
			 p->root_links ? " link() as non-root," : "",
			 p->no_seek_hole ? " SEEK_DATA/SEEK_HOLE (large folios)," : "",
			 p->no_big_fallocate ? " 1 TiB fallocate (the tmpfs holds it)," : "");
	n = strlen(desc);
	if (n && desc[n - 1] == ',')
		desc[n - 1] = '\0';
}
