// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * difftest's calls on names: opens with their flags, and the namespace
 * calls (creates, links, renames, removals, mode and owner changes, stat)
 * that keep colliding over the generator's few names.
 */
#include <stdio.h>
#include <string.h>

#include "tools/difftest/gen.h"

static void gen_open_flags(struct gen *g, char *buf, bool *need_mode)
{
	static const char *const acc[] = { "O_RDONLY", "O_RDONLY", "O_WRONLY", "O_RDWR", "O_RDWR" };
	const char *a = GEN_PICK(g, acc);
	bool excl = false, creat = false, dir = false, nonblock = false;
	size_t n = 0;

#define F(name) (n += (size_t)sprintf(buf + n, "%s%s", n ? "," : "", name))
	*need_mode = false;
	if (gen_chance(g, 4)) {
		/* O_TMPFILE: always a regular file. */
		F("O_TMPFILE");
		g->tmpfile = true;
		F(gen_chance(g, 85) ? (gen_chance(g, 50) ? "O_RDWR" : "O_WRONLY") : "O_RDONLY");
		if (gen_chance(g, 25))
			F("O_EXCL");
		*need_mode = true;
		return;
	}
	if (gen_chance(g, 8)) {
		/* O_PATH ignores the rest, except these. */
		F("O_PATH");
		if (gen_chance(g, 25))
			F("O_DIRECTORY");
		if (gen_chance(g, 25))
			F("O_NOFOLLOW");
		if (gen_chance(g, 10))
			F("O_CLOEXEC");
		if (gen_chance(g, 5)) {
			F("O_CREAT");
			*need_mode = true;
		}
		return;
	}
	F(a);
	if (gen_chance(g, 35)) {
		F("O_CREAT");
		creat = *need_mode = true;
		if (gen_chance(g, 30))
			excl = true, F("O_EXCL");
	}
	if (gen_chance(g, 12))
		F("O_TRUNC");
	if (gen_chance(g, 10))
		F("O_APPEND");
	if (gen_chance(g, 8))
		dir = true, F("O_DIRECTORY");
	/* O_CREAT|O_NOFOLLOW of a symlink: may_create_in_sticky() before ELOOP. */
	if (gen_chance(g, creat ? 25 : 10))
		F("O_NOFOLLOW");
	if (gen_chance(g, 10))
		F("O_CLOEXEC");
	if (gen_chance(g, 3))
		F("O_NOATIME");
	if (gen_chance(g, 2))
		F("O_SYNC");
	if (gen_chance(g, 2) && !gen_avoid(g, DT_AVOID_O_DIRECT))
		F("O_DIRECT");
	if (gen_chance(g, 30))
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

void gen_open(struct gen *g)
{
	char p[GEN_WORD], fl[256];
	bool need_mode;
	bool at = gen_chance(g, 25);

	gen_call(g, at ? "openat" : "open");
	if (at)
		gen_dirfd(g);
	/* Half the opens at a plain name: most of a chain then runs. */
	if (gen_chance(g, 50))
		gen_short_path(g, p);
	else
		gen_path(g, p);
	gen_open_flags(g, fl, &need_mode);
	gen_arg(g, "%s %s", p, fl);
	if (need_mode)
		gen_put_mode(g);
	g->nfds++;
}

enum nsop {
	NS_CREATE,
	NS_MKDIR,
	NS_MKFIFO,
	NS_MKNOD,
	NS_BIND,
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
	NS_CONNECT,
	NS_STATFS,
	NS_PATHCONF,
	NS_NR
};

static const unsigned char ns_weight[NS_NR] = {
	[NS_CREATE] = 9,    [NS_MKDIR] = 11, [NS_MKFIFO] = 3,	 [NS_MKNOD] = 2,  [NS_SYMLINK] = 9,
	[NS_LINK] = 6,	    [NS_RENAME] = 9, [NS_RENAMEAT2] = 5, [NS_UNLINK] = 6, [NS_RMDIR] = 5,
	[NS_UNLINKAT] = 2,  [NS_CHMOD] = 7,  [NS_LCHMOD] = 1,	 [NS_CHOWN] = 5,  [NS_LCHOWN] = 2,
	[NS_TRUNCATE] = 3,  [NS_STAT] = 8,   [NS_LSTAT] = 5,	 [NS_ACCESS] = 4, [NS_READLINK] = 3,
	[NS_UTIMENSAT] = 2, [NS_BIND] = 3,   [NS_CONNECT] = 2,	 [NS_STATFS] = 1, [NS_PATHCONF] = 2,
};

static enum nsop pick_nsop(struct gen *g)
{
	unsigned int total = 0, r;

	for (int i = 0; i < NS_NR; i++)
		total += ns_weight[i];
	r = gen_rnd(g, total);
	for (int i = 0; i < NS_NR; i++) {
		if (r < ns_weight[i])
			return (enum nsop)i;
		r -= ns_weight[i];
	}
	return NS_STAT;
}

/* The calls that make a name: create, mkdir, mkfifo, mknod, symlink, link, rename. */
static void ns_make(struct gen *g, enum nsop op, bool at, const char *p)
{
	static const char *const rflags[] = { "0",
					      "RENAME_NOREPLACE",
					      "RENAME_NOREPLACE",
					      "RENAME_EXCHANGE",
					      "RENAME_EXCHANGE",
					      "RENAME_WHITEOUT",
					      "RENAME_NOREPLACE,RENAME_EXCHANGE",
					      "RENAME_NOREPLACE,RENAME_WHITEOUT" };
	char q[GEN_WORD];

	switch (op) {
	case NS_CREATE:
		gen_call(g, "create");
		gen_arg(g, "%s", p);
		gen_put_mode(g);
		break;
	case NS_MKDIR:
		gen_call(g, at ? "mkdirat" : "mkdir");
		if (at)
			gen_dirfd(g);
		gen_arg(g, "%s", p);
		gen_put_mode(g);
		break;
	case NS_MKFIFO:
		if (gen_avoid(g, DT_AVOID_FIFO)) {
			/* A socket inode instead: as inert, and it keeps no data. */
			gen_call(g, at ? "mknodat" : "mknod");
			if (at)
				gen_dirfd(g);
			gen_arg(g, "%s s", p);
			gen_put_mode(g);
			gen_arg(g, "0 0");
			break;
		}
		gen_call(g, at ? "mkfifoat" : "mkfifo");
		if (at)
			gen_dirfd(g);
		gen_arg(g, "%s", p);
		gen_put_mode(g);
		break;
	case NS_MKNOD:
		gen_call(g, at ? "mknodat" : "mknod");
		if (at)
			gen_dirfd(g);
		gen_arg(g, "%s", p);
		/*
		 * Devices where they must fail (EPERM), and as root the mem
		 * devices both sides drive alike: null, zero, full (random's
		 * bytes differ). A whiteout (0 0) has no driver on either side.
		 */
		if (!g->root && gen_chance(g, 30)) {
			gen_arg(g, "%s", gen_chance(g, 50) ? "c" : "b");
		} else if (g->root && !g->pol->no_devices && gen_chance(g, 40)) {
			static const char *const mem[] = { "1 3", "1 5", "1 7", "0 0" };

			gen_arg(g, "c");
			gen_put_mode(g);
			gen_arg(g, "%s", GEN_PICK(g, mem));
			break;
		} else {
			gen_arg(g, "%s",
				gen_chance(g, 60) && !gen_avoid(g, DT_AVOID_FIFO) ? "f" : "s");
		}
		gen_put_mode(g);
		gen_arg(g, "%s", gen_chance(g, 80) ? "0 0" : "1 3");
		break;
	case NS_BIND:
		/* pjdfstest's: a socket inode at p (nothing listens). */
		gen_call(g, "bind");
		gen_arg(g, "%s", p);
		break;
	case NS_SYMLINK:
		gen_target(g, q, p);
		gen_call(g, at ? "symlinkat" : "symlink");
		gen_arg(g, "%s", q);
		if (at)
			gen_dirfd(g);
		gen_arg(g, "%s", p);
		break;
	case NS_LINK:
		gen_path(g, q);
		if (at || gen_chance(g, 20)) {
			static const char *const lf[] = { "0", "0", "AT_SYMLINK_FOLLOW" };

			gen_call(g, "linkat");
			gen_dirfd(g);
			gen_arg(g, "%s", p);
			gen_dirfd(g);
			gen_arg(g, "%s %s", q, GEN_PICK(g, lf));
		} else {
			gen_call(g, "link");
			gen_arg(g, "%s %s", p, q);
		}
		break;
	case NS_RENAME:
		gen_path(g, q);
		if (at) {
			gen_call(g, "renameat");
			gen_dirfd(g);
			gen_arg(g, "%s", p);
			gen_dirfd(g);
			gen_arg(g, "%s", q);
		} else {
			gen_call(g, "rename");
			gen_arg(g, "%s %s", p, q);
		}
		break;
	case NS_RENAMEAT2:
		gen_path(g, q);
		gen_call(g, "renameat2");
		gen_dirfd(g);
		gen_arg(g, "%s", p);
		gen_dirfd(g);
		gen_arg(g, "%s %s", q, GEN_PICK(g, rflags));
		break;
	default:
		break;
	}
}

/* The calls that remove a name or change or look at what it names. */
static void ns_change(struct gen *g, enum nsop op, bool at, const char *p)
{
	static const char *const amodes[] = { "F_OK",	   "R_OK",	    "W_OK",
					      "X_OK",	   "R_OK,W_OK",	    "R_OK,X_OK",
					      "W_OK,X_OK", "R_OK,W_OK,X_OK" };
	static const char *const aflags[] = { "0", "0", "AT_EACCESS", "AT_SYMLINK_NOFOLLOW",
					      "AT_EACCESS,AT_SYMLINK_NOFOLLOW" };
	static const char *const nofollow[] = { "0", "0", "AT_SYMLINK_NOFOLLOW" };

	switch (op) {
	case NS_UNLINK:
		gen_call(g, at ? "unlinkat" : "unlink");
		if (at)
			gen_dirfd(g);
		gen_arg(g, "%s", p);
		if (at)
			gen_arg(g, "0");
		break;
	case NS_RMDIR:
		gen_call(g, at ? "unlinkat" : "rmdir");
		if (at)
			gen_dirfd(g);
		gen_arg(g, "%s", p);
		if (at)
			gen_arg(g, "AT_REMOVEDIR");
		break;
	case NS_UNLINKAT:
		gen_call(g, "unlinkat");
		gen_dirfd(g);
		gen_arg(g, "%s %s", p, gen_chance(g, 50) ? "0" : "AT_REMOVEDIR");
		break;
	case NS_CHMOD:
		if (at || gen_chance(g, 15)) {
			gen_call(g, "fchmodat");
			gen_dirfd(g);
			gen_arg(g, "%s", p);
			gen_put_mode(g);
			gen_arg(g, "%s", GEN_PICK(g, nofollow));
		} else {
			gen_call(g, "chmod");
			gen_arg(g, "%s", p);
			gen_put_mode(g);
		}
		break;
	case NS_LCHMOD:
		gen_call(g, "lchmod");
		gen_arg(g, "%s", p);
		gen_put_mode(g);
		break;
	case NS_CHOWN:
		if (at || gen_chance(g, 15)) {
			gen_call(g, "fchownat");
			gen_dirfd(g);
			gen_arg(g, "%s", p);
			gen_owner(g);
			gen_arg(g, "%s", GEN_PICK(g, nofollow));
		} else {
			gen_call(g, "chown");
			gen_arg(g, "%s", p);
			gen_owner(g);
		}
		break;
	case NS_LCHOWN:
		gen_call(g, "lchown");
		gen_arg(g, "%s", p);
		gen_owner(g);
		break;
	case NS_TRUNCATE:
		gen_call(g, "truncate");
		gen_arg(g, "%s", p);
		gen_length(g);
		break;
	case NS_STAT:
	case NS_LSTAT:
		if (at || gen_chance(g, 10)) {
			gen_call(g, "fstatat");
			gen_dirfd(g);
			gen_arg(g, "%s %s", p, GEN_PICK(g, nofollow));
		} else {
			gen_call(g, op == NS_STAT ? "stat" : "lstat");
			gen_arg(g, "%s", p);
		}
		gen_fields(g);
		break;
	case NS_ACCESS:
		if (at || gen_chance(g, 30)) {
			gen_call(g, "faccessat");
			gen_dirfd(g);
			gen_arg(g, "%s %s %s", p, GEN_PICK(g, amodes), GEN_PICK(g, aflags));
		} else {
			gen_call(g, "access");
			gen_arg(g, "%s %s", p, GEN_PICK(g, amodes));
		}
		break;
	case NS_READLINK:
		gen_call(g, at ? "readlinkat" : "readlink");
		if (at)
			gen_dirfd(g);
		gen_arg(g, "%s", p);
		if (gen_chance(g, 30))
			gen_arg(g, "%u", gen_chance(g, 50) ? 0 : 1 + gen_rnd(g, 4));
		break;
	case NS_CONNECT:
		gen_call(g, "connect");
		gen_arg(g, "%s", p);
		break;
	case NS_STATFS:
		/* Not the counts: the host's tmpfs holds other files. */
		gen_call(g, "statfs");
		gen_arg(g, "%s %s", p,
			gen_chance(g, 50) ? "type,bsize,namelen" : "frsize,flags,type");
		break;
	case NS_PATHCONF:
		gen_call(g, "pathconf");
		gen_arg(g, "%s %s", p, GEN_PICK(g, gen_pc_names));
		break;
	case NS_UTIMENSAT:
		gen_call(g, "utimensat");
		gen_dirfd(g);
		gen_arg(g, "%s", p);
		gen_times(g);
		gen_arg(g, "%s", gen_chance(g, 80) ? "0" : "AT_SYMLINK_NOFOLLOW");
		break;
	default:
		break;
	}
}

/* One namespace call; @at: through dirfd() where there is an *at form. */
void gen_nsop(struct gen *g, bool at)
{
	char p[GEN_WORD];
	enum nsop op = pick_nsop(g);

	gen_path(g, p);
	if (op < NS_UNLINK)
		ns_make(g, op, at, p);
	else
		ns_change(g, op, at, p);
}
