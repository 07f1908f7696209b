// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * difftest's calls on descriptors: I/O, seeks, dups, fcntl, getdents,
 * fchdir and the *at calls through a dirfd or on the fd itself.
 */
#include <stdio.h>
#include <string.h>

#include "tools/difftest/gen.h"

static void gen_fcntl_call(struct gen *g)
{
	static const char *const setfl[] = { "0",	 "O_APPEND", "O_NONBLOCK", "O_NOATIME",
					     "O_DIRECT", "O_ASYNC",  "O_RDWR",	   "O_TRUNC" };
	unsigned int r = gen_rnd(g, 100);

	gen_call(g, "fcntl");
	gen_fd(g);
	if (r < 20) {
		gen_arg(g, "F_GETFD");
	} else if (r < 32) {
		gen_arg(g, "F_SETFD %s", gen_chance(g, 60) ? "FD_CLOEXEC" : "0");
	} else if (r < 60) {
		gen_arg(g, "%s",
			g->tmpfile && gen_avoid(g, DT_AVOID_TMPFILE_GETFL) ? "F_GETFD" : "F_GETFL");
	} else if (r < 82) {
		const char *f = GEN_PICK(g, setfl);

		if (!strcmp(f, "O_DIRECT") && gen_avoid(g, DT_AVOID_O_DIRECT))
			f = "O_APPEND";

		/* Clearing O_NONBLOCK may leave a fifo that blocks: no reads then. */
		if (!strcmp(f, "O_NONBLOCK") || (!strcmp(f, "0") && gen_chance(g, 50))) {
			gen_arg(g, "F_SETFL O_NONBLOCK");
		} else if (strcmp(f, "0") && gen_chance(g, 50)) {
			gen_arg(g, "F_SETFL %s,O_NONBLOCK", f);
		} else {
			gen_arg(g, "F_SETFL %s", f);
			g->may_block = true;
		}
	} else {
		static const char *const min[] = { "0", "3", "10", "1023", "1024" };

		gen_arg(g, "%s %s", gen_chance(g, 50) ? "F_DUPFD" : "F_DUPFD_CLOEXEC",
			GEN_PICK(g, min));
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
	FD_FSTATFS,
	FD_FPATHCONF,
	FD_NR
};

static const unsigned char fd_weight[FD_NR] = {
	[FD_FSTAT] = 9,	    [FD_READ] = 8,	  [FD_WRITE] = 9,      [FD_PREAD] = 4,
	[FD_PWRITE] = 4,    [FD_LSEEK] = 6,	  [FD_FTRUNCATE] = 4,  [FD_FCHMOD] = 3,
	[FD_FCHOWN] = 3,    [FD_DUP] = 4,	  [FD_DUP2] = 4,       [FD_DUP3] = 2,
	[FD_FCNTL] = 7,	    [FD_CLOSE] = 5,	  [FD_FDNUM] = 2,      [FD_GETDENTS] = 4,
	[FD_FCHDIR] = 3,    [FD_AT] = 10,	  [FD_EMPTY_PATH] = 3, [FD_FUTIMENS] = 1,
	[FD_FALLOCATE] = 2, [FD_CLOSE_RANGE] = 1, [FD_OPEN] = 5,       [FD_FSTATFS] = 1,
	[FD_FPATHCONF] = 2,
};

static enum fdop pick_fdop(struct gen *g)
{
	unsigned int total = 0, r;

	for (int i = 0; i < FD_NR; i++)
		total += fd_weight[i];
	r = gen_rnd(g, total);
	for (int i = 0; i < FD_NR; i++) {
		if (r < fd_weight[i])
			return (enum fdop)i;
		r -= fd_weight[i];
	}
	return FD_FSTAT;
}

/* Data, seeks, attributes and dups on the descriptor. */
static void fd_io(struct gen *g, enum fdop op)
{
	static const char *const whence[] = { "SEEK_SET", "SEEK_SET",  "SEEK_CUR",
					      "SEEK_END", "SEEK_DATA", "SEEK_HOLE" };
	static const char *const newfd[] = { "3", "4", "5", "7", "10", "1", "1023", "1024", "-1" };

	switch (op) {
	case FD_FSTAT:
		gen_call(g, "fstat");
		gen_fd(g);
		gen_fields(g);
		break;
	case FD_READ:
		gen_call(g, "read");
		gen_fd(g);
		gen_size(g);
		break;
	case FD_WRITE:
		gen_call(g, "write");
		gen_fd(g);
		gen_data(g);
		break;
	case FD_PREAD:
		gen_call(g, "pread");
		gen_fd(g);
		gen_size(g);
		gen_offset(g);
		break;
	case FD_PWRITE:
		gen_call(g, "pwrite");
		gen_fd(g);
		gen_data(g);
		gen_offset(g);
		break;
	case FD_LSEEK: {
		const char *w;

		g->lseek = true;
		gen_call(g, "lseek");
		gen_fd(g);
		gen_offset(g);
		w = GEN_PICK(g, whence);
		if ((!strcmp(w, "SEEK_DATA") || !strcmp(w, "SEEK_HOLE")) &&
		    (gen_avoid(g, DT_AVOID_SEEK_HOLE) || g->pol->no_seek_hole))
			w = "SEEK_SET";
		gen_arg(g, "%s", w);
		break;
	}
	case FD_FTRUNCATE:
		gen_call(g, "ftruncate");
		gen_fd(g);
		gen_length(g);
		break;
	case FD_FCHMOD:
		gen_call(g, "fchmod");
		gen_fd(g);
		gen_put_mode(g);
		break;
	case FD_FCHOWN:
		gen_call(g, "fchown");
		gen_fd(g);
		gen_owner(g);
		break;
	case FD_DUP:
		gen_call(g, "dup");
		gen_fd(g);
		g->nfds++;
		break;
	case FD_DUP2:
		gen_call(g, "dup2");
		gen_fd(g);
		gen_arg(g, "%s", GEN_PICK(g, newfd));
		g->nfds++;
		break;
	case FD_DUP3:
		gen_call(g, "dup3");
		gen_fd(g);
		gen_arg(g, "%s %s", GEN_PICK(g, newfd), gen_chance(g, 50) ? "O_CLOEXEC" : "0");
		g->nfds++;
		break;
	default:
		break;
	}
}

/* fcntl, close, listings, fchdir, *at calls through it, fallocate, opens. */
static void fd_more(struct gen *g, enum fdop op)
{
	switch (op) {
	case FD_FCNTL:
		gen_fcntl_call(g);
		break;
	case FD_CLOSE:
		gen_call(g, "close");
		gen_fd(g);
		break;
	case FD_FDNUM:
		gen_call(g, "fdnum");
		gen_fd(g);
		break;
	case FD_GETDENTS:
		g->getdents = true;
		gen_call(g, "getdents");
		gen_fd(g);
		if (gen_chance(g, 30)) {
			unsigned int z = gen_chance(g, 50) ? 24 + gen_rnd(g, 20) :
							     1 + gen_rnd(g, 23);

			if (!gen_avoid(g, DT_AVOID_DENTS_EOF))
				gen_arg(g, "%u", z);
		}
		break;
	case FD_FCHDIR:
		gen_call(g, "fchdir");
		gen_fd(g);
		if (gen_chance(g, 40)) {
			gen_call(g, "getcwd");
		} else {
			/* Relative paths now start at the descriptor. */
			gen_nsop(g, false);
		}
		break;
	case FD_AT:
		gen_nsop(g, true);
		break;
	case FD_EMPTY_PATH: {
		unsigned int r = gen_rnd(g, 100);

		if (r < 40) {
			gen_call(g, "fstatat");
			gen_fd(g);
			gen_arg(g, "'' %s", gen_chance(g, 80) ? "AT_EMPTY_PATH" : "0");
			gen_fields(g);
		} else if (r < 55) {
			gen_call(g, "fchownat");
			gen_fd(g);
			gen_arg(g, "''");
			gen_owner(g);
			gen_arg(g, "AT_EMPTY_PATH");
		} else if (r < 65) {
			gen_call(g, "fchmodat");
			gen_fd(g);
			gen_arg(g, "''");
			gen_put_mode(g);
			gen_arg(g, "AT_EMPTY_PATH");
		} else {
			/* Gives a name to an O_TMPFILE (or any file: EEXIST, ENOENT). */
			gen_call(g, "linkat");
			gen_fd(g);
			gen_arg(g, "''");
			gen_dirfd(g);
			gen_put_path(g);
			gen_arg(g, "AT_EMPTY_PATH");
		}
		break;
	}
	case FD_FUTIMENS:
		gen_call(g, "futimens");
		gen_fd(g);
		gen_times(g);
		break;
	case FD_FALLOCATE:
		gen_call(g, "posix_fallocate");
		gen_fd(g);
		gen_offset(g);
		if (gen_chance(g, 4) && !gen_avoid(g, DT_AVOID_TIB) && !g->pol->no_big_fallocate)
			gen_arg(g, "1099511627776"); /* more than the tmpfs holds: ENOSPC */
		else
			gen_arg(g, "%u", gen_chance(g, 10) ? 0 : 1 + gen_rnd(g, 9000));
		break;
	case FD_CLOSE_RANGE: {
		static const char *const cr[] = { "3 3",	  "3 4294967295", "4 10",
						  "0 4294967295", "5 3",	  "1024 2000" };
		static const char *const crf[] = { "0", "0", "CLOSE_RANGE_CLOEXEC",
						   "CLOSE_RANGE_UNSHARE" };

		gen_call(g, "close_range");
		gen_arg(g, "%s %s", GEN_PICK(g, cr), GEN_PICK(g, crf));
		break;
	}
	case FD_OPEN:
		gen_open(g);
		break;
	case FD_FSTATFS:
		gen_call(g, "fstatfs");
		gen_fd(g);
		gen_arg(g, "type,bsize,namelen,frsize,flags");
		break;
	case FD_FPATHCONF:
		gen_call(g, "fpathconf");
		gen_fd(g);
		gen_arg(g, "%s", GEN_PICK(g, gen_pc_names));
		break;
	default:
		break;
	}
}

void gen_fdop(struct gen *g)
{
	enum fdop op = pick_fdop(g);

	if (op == FD_READ && g->may_block)
		op = FD_PREAD; /* pread on a fifo is ESPIPE: it never waits */
	if ((op == FD_LSEEK && g->getdents) || (op == FD_GETDENTS && g->lseek)) {
		if (gen_avoid(g, DT_AVOID_DIR_SEEK))
			op = FD_FSTAT;
	}
	if (op < FD_FCNTL)
		fd_io(g, op);
	else
		fd_more(g, op);
}
