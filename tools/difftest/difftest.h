/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * difftest: random scripts in fstest's language (tools/fstest/fstest.h), run
 * through vfslab and through the host kernel on tmpfs, compared line by
 * line; a mismatch is shrunk to a short script that still shows it.
 *
 * gen.c writes the scripts (gen_ns.c and gen_fd.c its calls), host.c
 * reads what the host's answers depend on, run.c runs one script on each
 * side, shrink.c delta-debugs a failing one, tools/cmd_difftest.c is the
 * command.
 */
#ifndef VFSLAB_TOOLS_DIFFTEST_DIFFTEST_H
#define VFSLAB_TOOLS_DIFFTEST_DIFFTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/interrupt.h"
#include "vfs/vfs.h"

/* The longest line the generator writes (long names use {N*X}). */
#define DT_LINE_MAX 1024

/*
 * What the host's answers depend on beyond Linux's VFS: its fs.protected_*
 * sysctls, which the vfslab side runs with too, and the tmpfs that holds
 * the host's scratch directories (its huge= and size=), where the
 * generator leaves out what vfslab does not model. Each rule is closed
 * under taking subsets of lines, so a shrunk script obeys it too.
 */
struct dt_policy {
	/* The host's fs.protected_symlinks, hardlinks, regular, fifos. */
	unsigned int protected_symlinks, protected_hardlinks;
	unsigned int protected_regular, protected_fifos;
	/*
	 * No device node that opens: the host's scratch directory is on a
	 * nodev mount, where every device open is EACCES.
	 */
	bool no_devices;
	/*
	 * No SEEK_DATA or SEEK_HOLE: the host's tmpfs may put a file in
	 * large folios (huge=always or within_size, or shmem_enabled=force),
	 * whose size the kernel picks as memory allows, and a folio is data
	 * or hole as a whole. vfslab has 4 KiB pages, as huge=never.
	 */
	bool no_seek_hole;
	/*
	 * No posix_fallocate of 1 TiB: the host's tmpfs is that big or has
	 * no size limit, so Linux would really allocate it. Otherwise both
	 * sides refuse it at once (ENOSPC): vfslab runs with the host tmpfs'
	 * size (tmpfs_size).
	 */
	bool no_big_fallocate;
	/*
	 * No mount calls: the host cannot give the run a mount namespace of
	 * its own (no CAP_SYS_ADMIN), where its mounts would stay private.
	 */
	bool no_mounts;
	/* The host tmpfs' size= in bytes (0: none), for vfslab's tmpfs-size=. */
	unsigned long long tmpfs_size;
	/* -1, or the uid (and gid) every line but root's set-up lines runs as. */
	long uid, gid;
	/* DT_AVOID_*: what --avoid keeps out (mismatches already reported). */
	unsigned int avoid;
};

/*
 * Classes of calls the generator can steer clear of, to look past a
 * mismatch while it is being fixed (`vfslab difftest --avoid NAME`; see
 * dt_avoid_names()). Every one of them was a vfslab bug, now fixed.
 */
#define DT_AVOID_O_DIRECT 0x001u /* no O_DIRECT */
#define DT_AVOID_POS_MAX 0x002u /* no file offsets near LLONG_MAX */
#define DT_AVOID_UTIMES_NSEC 0x004u /* utimensat: only valid nanoseconds */
#define DT_AVOID_TMPFILE_GETFL 0x008u /* no F_GETFL after an O_TMPFILE open */
#define DT_AVOID_SEEK_HOLE 0x010u /* no SEEK_DATA, SEEK_HOLE */
#define DT_AVOID_TIB 0x020u /* no sizes or offsets of 1 TiB */
#define DT_AVOID_SETID 0x040u /* no S_ISUID, S_ISGID */
#define DT_AVOID_DIR_SEEK 0x080u /* no lseek and getdents in one line */
#define DT_AVOID_DENTS_EOF 0x200u /* getdents: no buffer size given */
#define DT_AVOID_FIFO 0x100u /* no fifos made (mkfifo, mknod f) */
#define DT_AVOID_MOUNTS 0x400u /* no mount, umount2 or openat2 */

struct dt_avoid_name {
	const char *name;
	unsigned int flag;
	const char *what;
};

/* The --avoid names, NULL-terminated. */
const struct dt_avoid_name *dt_avoid_names(void);
/* NAME[,NAME...] into *mask; 0, or -1 after cli_error. */
int dt_avoid_parse(const char *arg, unsigned int *mask);
/* The names in mask, comma-separated, into buf. */
void dt_avoid_string(unsigned int mask, char *buf, size_t len);

/*
 * Both sides start from a root like a fresh tmpfs mount's: mode 01777,
 * owned by root, a sticky o+w directory.
 */
#define DT_ROOT_MODE 01777

/*
 * The policy for this host and scratch directory @tmpdir: read
 * /proc/sys/fs/protected_*, @tmpdir's mount (huge=, size=) and
 * /sys/kernel/mm/transparent_hugepage/shmem_enabled. @desc gets a
 * one-line summary.
 */
/*
 * Mount a tmpfs of its own on @dir (mode DT_ROOT_MODE, with the size= and
 * huge= of the tmpfs holding @tmpdir) and enter it; 0 or -errno.
 */
int dt_host_private_root(const char *dir, const char *tmpdir);
void dt_policy_from_host(struct dt_policy *p, const char *tmpdir, char *desc, size_t len);

/* A script: lines without '\n', each with the number of calls it holds. */
struct dt_script {
	char **lines;
	unsigned int *calls;
	size_t n, cap;
};

int dt_script_add(struct dt_script *s, const char *line, unsigned int calls);
void dt_script_free(struct dt_script *s);
/* Read a script file: every line kept as it is, comments included. */
int dt_script_read(struct dt_script *s, FILE *f);
void dt_script_print(const struct dt_script *s, FILE *f, const char *indent);

/* Append @nlines random lines drawn from @seed. */
int dt_generate(struct dt_script *s, uint64_t seed, size_t nlines, const struct dt_policy *pol);

/* What one side printed for each line of a script. */
struct dt_side {
	size_t n; /* lines that ran (fewer than the script's if the run died) */
	char **out; /* stdout of each line, then its diagnostics */
	/*
	 * Set when the run did not end normally: vfslab crashed or hung
	 * while running line n, or failed an invariant check after line n-1
	 * (vfs/check.h) or at teardown, or the host side could not run.
	 */
	char *fail;
	/* The line at fault for fail: the one running, or just run; -1: teardown. */
	long fail_line;
	/* stderr of vfslab's run (BUG_ON, sanitizer reports), for fail. */
	char *log;
};

void dt_side_free(struct dt_side *s);

struct dt_runner {
	struct vfs_config cfg; /* the vfslab side's variant */
	const char *tmpdir; /* where the host side's scratch directories go */
	unsigned int timeout; /* seconds for one vfslab run; host lines: 10 s each */
	unsigned long runs; /* scripts run on both sides so far */
	struct progress progress; /* off unless progress_init() */
	/*
	 * The host side's scratch directory is a tmpfs of its own, in the run's
	 * own mount namespace: a line's remount (of a bind of it) then reaches
	 * that tmpfs only, never the one holding tmpdir. Needed where mount
	 * lines are generated.
	 */
	bool private_root;
};

/*
 * Run @lines through a fresh VFS (in a forked child, so that a crash or a
 * hang is a result) and through the host kernel in a fresh directory
 * under r->tmpdir (each line in a child chrooted there; needs root).
 * Returns 0 (the results may still differ), or -1 if the host side could
 * not be set up (message on stderr).
 */
int dt_run(struct dt_runner *r, char *const *lines, size_t n, struct dt_side *vfs,
	   struct dt_side *host);

/* Where the two sides first part. */
struct dt_diff {
	long line; /* index into the script; -1: they agree */
	/*
	 * The first output line of that script line where they differ, as
	 * each side printed it ("" if it printed nothing there), or vfslab's
	 * failure message with host's output.
	 */
	char *host, *vfs;
	bool vfs_failed; /* vfslab crashed, hung or broke an invariant */
	bool at_end; /* ... at teardown, after the last line */
};

/* Compare @vfs with @host over a script of @n lines; fill @d. */
void dt_compare(const struct dt_side *vfs, const struct dt_side *host, size_t n, struct dt_diff *d);
void dt_diff_free(struct dt_diff *d);

/*
 * Shrink @s, whose line @d->line shows @d, to a script whose last line
 * shows the same difference and whose other lines are each needed for it:
 * delta debugging over the lines before it, then over the calls of each
 * line. Runs both sides every time. @out gets the result, the shortest so
 * far if a signal stops it (intr_pending()).
 * Returns 0, or -1 if the host side failed.
 */
int dt_shrink(struct dt_runner *r, const struct dt_script *s, const struct dt_diff *d,
	      struct dt_script *out, bool verbose);

/* ---- a session (session.c) ---- */

struct dt_session {
	struct dt_runner r;
	const struct dt_policy *pol;
	bool shrink; /* shrink each mismatch to a reproducer */
	bool verbose, keep_going;
	const char *out_file; /* the (last) reproducer goes there */
	const char *const *exclude; /* generated lines holding these are dropped */
	int nexclude;
	const char *avoids, *uidopt; /* the options that reproduce a seed's script */
	unsigned long long scripts, calls; /* random: run this many, or until these ran */
	/* counts */
	unsigned long long nscripts, gen_lines, gen_calls, mismatches;
	unsigned long executed;
};

/* Drop the lines holding any of ex. */
void dt_exclude_lines(struct dt_script *s, const char *const *ex, int nex);
/*
 * Can the host side become another uid in a chroot? Not everywhere root
 * can; false (said on stdout) when it cannot.
 */
bool dt_host_usable(struct dt_runner *r);
/* Compare the script in file; 0, or -1 (said) if it cannot be read, runs no
 * call, or the run failed. */
int dt_session_file(struct dt_session *t, const char *file);
/* Compare random scripts from seed on; 1 on trouble, else 0. */
int dt_session_random(struct dt_session *t, unsigned long long seed, unsigned long long lines);

#endif /* VFSLAB_TOOLS_DIFFTEST_DIFFTEST_H */
