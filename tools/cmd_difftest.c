// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab difftest: random fstest scripts through vfslab and through the
 * host kernel on tmpfs, compared line by line; a mismatch is shrunk to a
 * short reproducer (tools/difftest/).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include <linux/magic.h>

#include "tools/cmd.h"
#include "tools/difftest/difftest.h"

/* Exit status of a run that could not happen here (Automake's SKIP). */
#define EXIT_SKIP 77
#define MAX_EXCLUDE 32
/* Bounds that keep a typo from running for ever: a script of 100000
 * lines takes minutes, 10^12 calls days. */
#define MAX_LINES 100000ull
#define MAX_CALLS 1000000000000ull

static void difftest_usage(FILE *f)
{
	fprintf(f, "usage: vfslab difftest [--seed N] [--lines N] [--calls N | --scripts N]\n"
		   "                       [--uid UID[:GID]] [--avoid NAMES] [--variant SPEC]\n"
		   "                       [--keep-going] [--no-shrink] [-v]\n"
		   "       vfslab difftest --script FILE\n"
		   "       vfslab difftest --print [--seed N] [--lines N] [--uid UID]\n"
		   "                       [--avoid NAMES]\n\n"
		   "Generates random fstest scripts (many uids, deep paths, symlinks, renames,\n"
		   "links, modes and owners, fd juggling) over a few colliding names, runs each\n"
		   "through vfslab and through the host kernel in a fresh directory on tmpfs,\n"
		   "and compares them line by line. A mismatch is shrunk to a short script\n"
		   "whose last line differs. Needs root (the host side switches uids and\n"
		   "chroots); exits 77 when not root. A long run:\n\n"
		   "  vfslab difftest --calls 100000 --seed 1 --lines 500\n\n"
		   "Lines run as root and as other uids and groups, each with its own\n"
		   "credentials; --uid runs all but the set-up lines as one user.\n"
		   "What depends on the host rather than on Linux (inode numbers, times,\n"
		   "SEEK_DATA/SEEK_HOLE where the host tmpfs may use large folios, a 1 TiB\n"
		   "fallocate where it could hold one) is never generated; the vfslab side\n"
		   "gets the host tmpfs' size (tmpfs-size=) and its fs.protected_* sysctls\n"
		   "(the protected-* keys) unless --variant sets them.\n\n"
		   "  --seed N       first script's seed (default: from the clock; printed);\n"
		   "                 script k uses seed N+k\n"
		   "  --lines N      lines per script (default 200, at most 100000)\n"
		   "  --calls N      run scripts until N calls ran (a chain stops at its\n"
		   "                 first error: fewer run than are generated)\n"
		   "  --scripts N    run N scripts (default 1 without --calls)\n"
		   "  --uid UID[:GID] every line but root's set-up lines as this user\n"
		   "                 (and group; default the uid), not a mix of users\n"
		   "  --script FILE  compare this script instead of random ones\n"
		   "  --print        print the script for --seed and --lines, run nothing\n"
		   "  --variant SPEC vfslab's variant keys (vfslab help variants)\n"
		   "  --keep-going   go on after a mismatch (each is shrunk and counted)\n"
		   "  --no-shrink    report mismatches as found\n"
		   "  --out FILE     write the (last) reproducer there\n"
		   "  --tmpdir DIR   where host scratch directories go (default /dev/shm)\n"
		   "  --exclude TEXT drop generated lines containing TEXT (repeatable)\n"
		   "  --avoid NAME[,NAME...]  generate around a mismatch (all fixed):\n");
	for (const struct dt_avoid_name *a = dt_avoid_names(); a->name; a++)
		fprintf(f, "      %-14s %s\n", a->name, a->what);
	fprintf(f, "  -v, --verbose  a line per script, and the shrinker's progress\n\n"
		   "Exit status: 0 no mismatch, 1 mismatches or a failed run (a --script\n"
		   "with no call in it), 2 usage, 77 skipped (not root), 130 interrupted\n"
		   "by Ctrl-C (143: SIGTERM; the counts so far are printed).\n");
}

static const char *default_tmpdir(void)
{
	return access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
}

struct difftest_cmd {
	struct dt_session t;
	const char *variant, *script;
	unsigned long long seed, lines;
	bool have_seed, print;
	const char *exclude[MAX_EXCLUDE];
	unsigned int avoid_mask;
	long uid, gid;
};

/* --uid UID[:GID] into dc; 0 or -1 after cli_error. */
static int parse_uid(const char *arg, struct difftest_cmd *dc)
{
	unsigned long uid, gid;

	if (cli_ids("difftest", "--uid", arg, &uid, &gid))
		return -1;
	dc->uid = (long)uid;
	dc->gid = (long)gid;
	return 0;
}

/* --tmpdir: a directory the host side can make its scratch directories in. */
static int parse_tmpdir(const char *arg, struct difftest_cmd *dc)
{
	const char *why = NULL;
	struct stat st;

	if (stat(arg, &st))
		why = strerror(errno);
	else if (!S_ISDIR(st.st_mode))
		why = "not a directory";
	else if (access(arg, W_OK | X_OK))
		why = strerror(errno);
	if (why) {
		cli_error("difftest", "--tmpdir: %s: %s", arg, why);
		return -1;
	}
	dc->t.r.tmpdir = arg;
	return 0;
}

static const struct option difftest_opts[] = {
	{ "seed", required_argument, NULL, 's' },
	{ "lines", required_argument, NULL, 'l' },
	{ "calls", required_argument, NULL, 'c' },
	{ "scripts", required_argument, NULL, 'n' },
	{ "script", required_argument, NULL, 'f' },
	{ "print", no_argument, NULL, 'p' },
	{ "variant", required_argument, NULL, 'V' },
	{ "keep-going", no_argument, NULL, 'k' },
	{ "no-shrink", no_argument, NULL, 'S' },
	{ "out", required_argument, NULL, 'o' },
	{ "tmpdir", required_argument, NULL, 't' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "exclude", required_argument, NULL, 'x' },
	{ "avoid", required_argument, NULL, 'a' },
	{ "uid", required_argument, NULL, 'u' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* One option (c) into dc; -1 to go on, else the exit status. */
static int difftest_option(void *ctx, int c, const char *arg)
{
	struct difftest_cmd *dc = ctx;

	switch (c) {
	case 's':
		dc->have_seed = true;
		return cli_ull("difftest", "--seed", arg, 0, ULLONG_MAX, &dc->seed) ? 2 : -1;
	case 'l':
		return cli_ull("difftest", "--lines", arg, 1, MAX_LINES, &dc->lines) ? 2 : -1;
	case 'c':
		return cli_ull("difftest", "--calls", arg, 1, MAX_CALLS, &dc->t.calls) ? 2 : -1;
	case 'n':
		return cli_ull("difftest", "--scripts", arg, 1, MAX_CALLS, &dc->t.scripts) ? 2 : -1;
	case 'f':
		dc->script = arg;
		break;
	case 'p':
		dc->print = true;
		break;
	case 'V':
		dc->variant = arg;
		break;
	case 'k':
		dc->t.keep_going = true;
		break;
	case 'S':
		dc->t.shrink = false;
		break;
	case 'o':
		dc->t.out_file = arg;
		break;
	case 't':
		return parse_tmpdir(arg, dc) ? 2 : -1;
	case 'v':
		dc->t.verbose = true;
		break;
	case 'a':
		return dt_avoid_parse(arg, &dc->avoid_mask) ? 2 : -1;
	case 'u':
		return parse_uid(arg, dc) ? 2 : -1;
	case 'x':
		if (dc->t.nexclude == MAX_EXCLUDE) {
			cli_error("difftest", "at most %d --exclude", MAX_EXCLUDE);
			return 2;
		}
		dc->exclude[dc->t.nexclude++] = arg;
		break;
	case 'h':
		difftest_usage(stdout);
		return 0;
	default:
		difftest_usage(stderr);
		return 2;
	}
	return -1;
}

/* The options into dc; -1 to go on, else the exit status. */
static int difftest_options(int argc, char **argv, struct difftest_cmd *dc)
{
	int ret = cli_options(argc, argv, "+vh", difftest_opts, difftest_option, dc);

	if (ret >= 0)
		return ret;
	if (optind < argc) {
		difftest_usage(stderr);
		return 2;
	}
	return -1;
}

/* --print: the script, run nothing. */
static int difftest_print(const struct difftest_cmd *dc, const char *desc)
{
	struct dt_script s = { 0 };

	if (dt_generate(&s, dc->seed, dc->lines, dc->t.pol)) {
		cli_error("difftest", "out of memory");
		return 1;
	}
	dt_exclude_lines(&s, dc->exclude, dc->t.nexclude);
	printf("# vfslab difftest --seed %llu --lines %llu%s%s%s\n# %s\n", dc->seed, dc->lines,
	       *dc->t.avoids ? " --avoid " : "", dc->t.avoids, dc->t.uidopt, desc);
	dt_script_print(&s, stdout, "");
	dt_script_free(&s);
	return 0;
}

/* The vfslab side's config and what is said before a run; -1 to go on, else the exit status. */
static int difftest_setup(struct difftest_cmd *dc, const struct dt_policy *pol, const char *desc)
{
	struct dt_runner *r = &dc->t.r;
	struct statfs sfs;

	if (geteuid() != 0) {
		printf("vfslab difftest: skipped: the host side needs root (it switches "
		       "uids and chroots)\n");
		return EXIT_SKIP;
	}
	if (cli_config("difftest", dc->variant, &r->cfg))
		return 2;
	/* vfslab's tmpfs as big as the host's: fallocate's ENOSPC agrees. */
	if (!dc->variant || !strstr(dc->variant, "tmpfs-size="))
		r->cfg.tmpfs_size = pol->tmpfs_size;
	/* The host's fs.protected_*, unless --variant names them. */
	if (!dc->variant || !strstr(dc->variant, "protected-")) {
		r->cfg.protected_symlinks = pol->protected_symlinks;
		r->cfg.protected_hardlinks = pol->protected_hardlinks;
		r->cfg.protected_regular = pol->protected_regular;
		r->cfg.protected_fifos = pol->protected_fifos;
	}
	if (statfs(r->tmpdir, &sfs) == 0 && sfs.f_type != TMPFS_MAGIC)
		fprintf(stderr,
			"vfslab difftest: note: %s is not tmpfs: Linux's answers may differ\n",
			r->tmpdir);
	printf("difftest: %s\n", desc);
	if (*dc->t.avoids)
		printf("difftest: avoiding known mismatches: %s\n", dc->t.avoids);
	if (!dt_host_usable(r))
		return EXIT_SKIP;
	return -1;
}

int cmd_difftest(int argc, char **argv)
{
	static struct difftest_cmd dc;
	struct dt_session *t = &dc.t;
	struct dt_policy pol;
	char desc[512], avoids[256], uidopt[48] = "";
	time_t t0;
	int rc;

	memset(&dc, 0, sizeof(dc));
	dc.lines = 200;
	dc.uid = dc.gid = -1;
	t->shrink = true;
	t->r.timeout = 120;
	t->exclude = dc.exclude;
	rc = difftest_options(argc, argv, &dc);
	if (rc >= 0)
		return rc;
	if (cli_parse_only)
		return 0;
	if (!dc.have_seed)
		dc.seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 16);
	if (!t->r.tmpdir)
		t->r.tmpdir = default_tmpdir();
	dt_policy_from_host(&pol, t->r.tmpdir, desc, sizeof(desc));
	pol.avoid = dc.avoid_mask;
	t->r.private_root = !pol.no_mounts && !(pol.avoid & DT_AVOID_MOUNTS);
	pol.uid = dc.uid;
	pol.gid = dc.gid;
	dt_avoid_string(dc.avoid_mask, avoids, sizeof(avoids));
	if (dc.uid >= 0)
		snprintf(uidopt, sizeof(uidopt), " --uid %ld:%ld", dc.uid, dc.gid);
	t->pol = &pol;
	t->avoids = avoids;
	t->uidopt = uidopt;
	if (dc.print)
		return difftest_print(&dc, desc);
	intr_catch();
	rc = difftest_setup(&dc, &pol, desc);
	if (rc >= 0)
		return rc;
	t0 = time(NULL);
	progress_init(&t->r.progress, "difftest");
	rc = dc.script ? dt_session_file(t, dc.script) : dt_session_random(t, dc.seed, dc.lines);
	if (rc < 0)
		return intr_pending() ? intr_status() : 1;
	if (intr_pending())
		printf("difftest: INTERRUPTED by %s: partial result: the scripts that ran to the "
		       "end\n",
		       intr_name());
	printf("difftest: %llu script%s, %llu lines, %llu calls (%lu ran), %llu mismatch%s, "
	       "%ld s\n",
	       t->nscripts, t->nscripts == 1 ? "" : "s", t->gen_lines, t->gen_calls, t->executed,
	       t->mismatches, t->mismatches == 1 ? "" : "es", (long)(time(NULL) - t0));
	if (intr_pending())
		return intr_status();
	return rc ? 1 : t->mismatches ? 1 : 0;
}
