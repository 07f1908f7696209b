// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab difftest: random fstest scripts through vfslab and through the
 * host kernel on tmpfs, compared line by line; a mismatch is shrunk to a
 * short reproducer (tools/difftest/).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include <linux/magic.h>

#include "tools/cmd.h"
#include "tools/difftest/difftest.h"

/* Exit status of a run that could not happen here (Automake's SKIP). */
#define EXIT_SKIP 77
#define MAX_EXCLUDE 32

/* NAME[,NAME...] of dt_avoid_names() into @mask. */
static int parse_avoid(const char *arg, unsigned int *mask)
{
	char *copy = strdup(arg), *save = NULL;

	if (!copy)
		return -1;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		const struct dt_avoid_name *a = dt_avoid_names();

		while (a->name && strcmp(a->name, w))
			a++;
		if (!a->name) {
			cli_error("difftest", "--avoid: unknown '%s' (vfslab difftest --help)", w);
			free(copy);
			return -1;
		}
		*mask |= a->flag;
	}
	free(copy);
	return 0;
}

/* Drop the lines holding any of @ex (never the pinned ones). */
static void exclude_lines(struct dt_script *s, const char *const *ex, int nex)
{
	size_t k = s->pinned;

	for (size_t i = s->pinned; i < s->n; i++) {
		bool drop = false;

		for (int j = 0; j < nex && !drop; j++)
			drop = strstr(s->lines[i], ex[j]) != NULL;
		if (drop) {
			free(s->lines[i]);
			continue;
		}
		s->calls[k] = s->calls[i];
		s->lines[k++] = s->lines[i];
	}
	s->n = k;
}

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
		   "fs.protected_* where it differs from vfslab's, SEEK_DATA/SEEK_HOLE\n"
		   "where the host tmpfs may use large folios, a 1 TiB fallocate where it\n"
		   "could hold one) is never generated; the vfslab side gets the host\n"
		   "tmpfs' size (tmpfs-size=) unless --variant sets one.\n\n"
		   "  --seed N       first script's seed (default: from the clock; printed);\n"
		   "                 script k uses seed N+k\n"
		   "  --lines N      lines per script (default 200)\n"
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
		   "Exit status: 0 no mismatch, 1 mismatches, 2 usage, 77 skipped (not root).\n");
}

/* The --avoid names in @mask, comma-separated, into @buf. */
static void avoid_string(unsigned int mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const struct dt_avoid_name *a = dt_avoid_names(); a->name; a++)
		if ((mask & a->flag) && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", a->name);
}

/* Print the outputs of one script line, side by side. */
static void print_outputs(const char *line, const struct dt_side *vfs, const struct dt_side *host,
			  size_t i)
{
	printf("  line:   %s\n", line);
	printf("  linux:  %s", i < host->n ? host->out[i] : "(not run)\n");
	if (vfs->fail && (vfs->fail_line == (long)i || vfs->fail_line < 0))
		printf("  vfslab: %s%s(%s)\n", i < vfs->n ? vfs->out[i] : "",
		       i < vfs->n ? "        " : "", vfs->fail);
	else
		printf("  vfslab: %s", i < vfs->n ? vfs->out[i] : "(not run)\n");
}

/* Indent a multi-line output after its first line. */
static void fix_newlines(struct dt_side *s)
{
	for (size_t i = 0; i < s->n; i++) {
		size_t len = strlen(s->out[i]), extra = 0;
		char *o, *p;

		for (size_t k = 0; k + 1 < len; k++)
			extra += s->out[i][k] == '\n';
		if (len && s->out[i][len - 1] == '\n' && !extra)
			continue;
		o = malloc(len + extra * 10 + 2);
		if (!o)
			continue;
		p = o;
		for (size_t k = 0; k < len; k++) {
			*p++ = s->out[i][k];
			if (s->out[i][k] == '\n' && k + 1 < len)
				p += sprintf(p, "          ");
		}
		if (p == o || p[-1] != '\n')
			*p++ = '\n';
		*p = '\0';
		free(s->out[i]);
		s->out[i] = o;
	}
}

/* Run @s once more and print where it differs, with both outputs. */
static void show_diff(struct dt_runner *r, const struct dt_script *s)
{
	struct dt_side vfs, host;
	struct dt_diff d;

	if (dt_run(r, s->lines, s->n, &vfs, &host))
		return;
	dt_compare(&vfs, &host, s->n, &d);
	fix_newlines(&vfs);
	fix_newlines(&host);
	if (d.line >= 0)
		print_outputs(s->lines[d.line], &vfs, &host, (size_t)d.line);
	if (vfs.log && d.vfs_failed)
		printf("vfslab's stderr:\n%s\n", vfs.log);
	dt_diff_free(&d);
	dt_side_free(&vfs);
	dt_side_free(&host);
}

/*
 * Can the host side become another uid in a chroot? Not everywhere root
 * can (user namespaces without a full id map, seccomp): then every line
 * with -u would differ for the host's sake, so the run is skipped.
 */
static bool host_usable(struct dt_runner *r)
{
	char *probe[] = { "-u 65534 -g 65534,1000 getcwd" };
	struct dt_side vfs, host;
	bool ok;

	if (dt_run(r, probe, 1, &vfs, &host))
		return false;
	ok = host.n == 1 && !strcmp(host.out[0], "/\n");
	if (!ok)
		printf("vfslab difftest: skipped: the host side cannot run as uid 65534 in a "
		       "chroot here: %s",
		       host.n ? host.out[0] : "no answer\n");
	dt_side_free(&vfs);
	dt_side_free(&host);
	return ok;
}

struct difftest {
	struct dt_runner r;
	bool shrink, verbose;
	const char *out_file;
};

/*
 * Report a mismatch in @s (from @name), shrink it and print the
 * reproducer. Returns 0, or -1 if the host side failed while shrinking.
 */
static int report(struct difftest *t, const struct dt_script *s, const char *name,
		  struct dt_side *vfs, struct dt_side *host, const struct dt_diff *d)
{
	struct dt_script small = { 0 };
	unsigned long runs = t->r.runs;
	int rc;

	fix_newlines(vfs);
	fix_newlines(host);
	printf("MISMATCH in %s, line %ld of %zu%s:\n", name, d->line + 1, s->n,
	       d->at_end ? " (at teardown)" : "");
	print_outputs(s->lines[d->line], vfs, host, (size_t)d->line);
	if (vfs->log && d->vfs_failed)
		printf("vfslab's stderr:\n%s\n", vfs->log);
	if (!t->shrink)
		return 0;
	printf("shrinking...\n");
	fflush(stdout);
	rc = dt_shrink(&t->r, s, d, &small, t->verbose);
	if (rc) {
		dt_script_free(&small);
		return -1;
	}
	printf("reproducer (%zu lines, %lu runs to shrink; the %s differs):\n", small.n,
	       t->r.runs - runs, d->at_end ? "teardown" : "last line");
	printf("----8<----\n");
	dt_script_print(&small, stdout, "");
	printf("----8<----\n");
	show_diff(&t->r, &small);
	if (t->out_file) {
		FILE *f = fopen(t->out_file, "w");

		if (f) {
			dt_script_print(&small, f, "");
			fclose(f);
			printf("written to %s: vfslab difftest --script %s\n", t->out_file,
			       t->out_file);
		} else {
			cli_error("difftest", "cannot write %s", t->out_file);
		}
	}
	dt_script_free(&small);
	fflush(stdout);
	return 0;
}

/* Run @s on both sides; 1 if they differ, 0 if not, -1 on trouble. */
static int check_script(struct difftest *t, const struct dt_script *s, const char *name,
			unsigned long *executed)
{
	struct dt_side vfs, host;
	struct dt_diff d;
	int rc = 0;

	if (dt_run(&t->r, s->lines, s->n, &vfs, &host))
		return -1;
	/* Each call that ran printed one line on the host side. */
	for (size_t i = 0; i < host.n; i++)
		for (const char *p = host.out[i]; (p = strchr(p, '\n')); p++)
			(*executed)++;
	dt_compare(&vfs, &host, s->n, &d);
	if (d.line >= 0) {
		rc = 1;
		if (report(t, s, name, &vfs, &host, &d))
			rc = -1;
	}
	dt_diff_free(&d);
	dt_side_free(&vfs);
	dt_side_free(&host);
	return rc;
}

static const char *default_tmpdir(void)
{
	return access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
}

int cmd_difftest(int argc, char **argv)
{
	static const struct option opts[] = {
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
	struct difftest t = { .shrink = true };
	const char *variant = NULL, *script = NULL;
	unsigned long long seed = 0, lines = 200, calls = 0, scripts = 0;
	unsigned long long gen_calls = 0, gen_lines = 0, nscripts = 0, mismatches = 0;
	unsigned long executed = 0;
	bool have_seed = false, print = false, keep_going = false;
	struct dt_policy pol;
	char desc[512], avoids[256], uidopt[48] = "", *end;
	const char *exclude[MAX_EXCLUDE];
	unsigned int avoid_mask = 0;
	long uid = -1, gid = -1;
	int nexclude = 0;
	struct statfs sfs;
	time_t t0;
	int c, rc = 0;

	t.r.timeout = 120;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+vh", opts, NULL)) != -1) {
		unsigned long long *num = NULL;

		switch (c) {
		case 's':
			num = &seed;
			have_seed = true;
			break;
		case 'l':
			num = &lines;
			break;
		case 'c':
			num = &calls;
			break;
		case 'n':
			num = &scripts;
			break;
		case 'f':
			script = optarg;
			break;
		case 'p':
			print = true;
			break;
		case 'V':
			variant = optarg;
			break;
		case 'k':
			keep_going = true;
			break;
		case 'S':
			t.shrink = false;
			break;
		case 'o':
			t.out_file = optarg;
			break;
		case 't':
			t.r.tmpdir = optarg;
			break;
		case 'v':
			t.verbose = true;
			break;
		case 'a':
			if (parse_avoid(optarg, &avoid_mask))
				return 2;
			break;
		case 'u': {
			char *colon;

			errno = 0;
			uid = strtol(optarg, &end, 10);
			gid = uid;
			colon = end;
			if (*colon == ':')
				gid = strtol(colon + 1, &end, 10);
			if (errno || end == optarg || *end || uid < 0 || gid < 0 ||
			    uid > 0xfffffffeL || gid > 0xfffffffeL ||
			    (*colon == ':' && end == colon + 1)) {
				cli_error("difftest", "--uid: expected UID[:GID], got '%s'",
					  optarg);
				return 2;
			}
			break;
		}
		case 'x':
			if (nexclude == MAX_EXCLUDE) {
				cli_error("difftest", "at most %d --exclude", MAX_EXCLUDE);
				return 2;
			}
			exclude[nexclude++] = optarg;
			break;
		case 'h':
			difftest_usage(stdout);
			return 0;
		default:
			difftest_usage(stderr);
			return 2;
		}
		if (num) {
			*num = strtoull(optarg, &end, 0);
			if (*end || !*optarg) {
				cli_error("difftest", "--%s: number expected, got '%s'",
					  opts[c == 's' ? 0 :
					       c == 'l' ? 1 :
					       c == 'c' ? 2 :
							  3]
						  .name,
					  optarg);
				return 2;
			}
		}
	}
	if (optind < argc || !lines) {
		difftest_usage(stderr);
		return 2;
	}
	if (!have_seed)
		seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 16);
	if (!t.r.tmpdir)
		t.r.tmpdir = default_tmpdir();
	dt_policy_from_host(&pol, t.r.tmpdir, desc, sizeof(desc));
	pol.avoid = avoid_mask;
	pol.uid = uid;
	pol.gid = gid;
	avoid_string(avoid_mask, avoids, sizeof(avoids));
	if (uid >= 0)
		snprintf(uidopt, sizeof(uidopt), " --uid %ld:%ld", uid, gid);

	if (print) {
		struct dt_script s = { 0 };

		if (dt_generate(&s, seed, lines, &pol)) {
			cli_error("difftest", "out of memory");
			return 1;
		}
		exclude_lines(&s, exclude, nexclude);
		printf("# vfslab difftest --seed %llu --lines %llu%s%s%s\n# %s\n", seed, lines,
		       *avoids ? " --avoid " : "", avoids, uidopt, desc);
		dt_script_print(&s, stdout, "");
		dt_script_free(&s);
		return 0;
	}
	if (geteuid() != 0) {
		printf("vfslab difftest: skipped: the host side needs root (it switches "
		       "uids and chroots)\n");
		return EXIT_SKIP;
	}
	if (cli_config("difftest", variant, &t.r.cfg))
		return 2;
	/* vfslab's tmpfs as big as the host's: fallocate's ENOSPC agrees. */
	if (!variant || !strstr(variant, "tmpfs-size="))
		t.r.cfg.tmpfs_size = pol.tmpfs_size;
	if (statfs(t.r.tmpdir, &sfs) == 0 && sfs.f_type != TMPFS_MAGIC)
		fprintf(stderr,
			"vfslab difftest: note: %s is not tmpfs: Linux's answers may differ\n",
			t.r.tmpdir);
	printf("difftest: %s\n", desc);
	if (*avoids)
		printf("difftest: avoiding known mismatches: %s\n", avoids);

	if (!host_usable(&t.r))
		return EXIT_SKIP;
	t0 = time(NULL);
	if (script) {
		struct dt_script s = { 0 };
		FILE *f = fopen(script, "r");

		if (!f) {
			cli_error("difftest", "%s: cannot open", script);
			return 1;
		}
		c = dt_script_read(&s, f);
		fclose(f);
		if (c) {
			cli_error("difftest", "%s: read error", script);
			dt_script_free(&s);
			return 1;
		}
		for (size_t i = 0; i < s.n; i++)
			gen_calls += s.calls[i];
		gen_lines = s.n;
		nscripts = 1;
		c = check_script(&t, &s, script, &executed);
		mismatches += c > 0;
		if (c < 0)
			rc = 1;
		dt_script_free(&s);
	} else {
		if (!scripts && !calls)
			scripts = 1;
		if (calls)
			printf("difftest: seed %llu, %llu lines per script, until %llu calls ran\n",
			       seed, lines, calls);
		else
			printf("difftest: seed %llu, %llu lines per script, %llu script%s\n", seed,
			       lines, scripts, scripts == 1 ? "" : "s");
		fflush(stdout);
		for (unsigned long long k = 0;; k++) {
			struct dt_script s = { 0 };
			unsigned long long sc = 0;
			char name[512];

			if (calls ? executed >= calls : k >= scripts)
				break;
			if (dt_generate(&s, seed + k, lines, &pol)) {
				cli_error("difftest", "out of memory");
				rc = 1;
				break;
			}
			exclude_lines(&s, exclude, nexclude);
			for (size_t i = 0; i < s.n; i++)
				sc += s.calls[i];
			snprintf(name, sizeof(name), "seed %llu (--seed %llu --lines %llu%s%s%s)",
				 seed + k, seed + k, lines, *avoids ? " --avoid " : "", avoids,
				 uidopt);
			c = check_script(&t, &s, name, &executed);
			nscripts++;
			gen_calls += sc;
			gen_lines += s.n;
			dt_script_free(&s);
			if (t.verbose)
				printf("difftest: seed %llu: %llu calls, %s\n", seed + k, sc,
				       c ? "MISMATCH" : "same");
			if (c < 0) {
				rc = 1;
				break;
			}
			if (c > 0) {
				mismatches++;
				if (!keep_going)
					break;
			}
		}
	}
	printf("difftest: %llu script%s, %llu lines, %llu calls (%lu ran), %llu mismatch%s, "
	       "%ld s\n",
	       nscripts, nscripts == 1 ? "" : "s", gen_lines, gen_calls, executed, mismatches,
	       mismatches == 1 ? "" : "es", (long)(time(NULL) - t0));
	return rc ? 1 : mismatches ? 1 : 0;
}
