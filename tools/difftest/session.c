// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A difftest session: scripts (random ones, or one from a file) run on
 * both sides, each mismatch printed with both outputs, shrunk, and its
 * reproducer printed and run once more; the counts for the summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/difftest/difftest.h"

/* Drop the lines holding any of @ex. */
void dt_exclude_lines(struct dt_script *s, const char *const *ex, int nex)
{
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++) {
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
bool dt_host_usable(struct dt_runner *r)
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

/*
 * Report a mismatch in @s (from @name), shrink it and print the
 * reproducer. Returns 0, or -1 if the host side failed while shrinking.
 */
static int report(struct dt_session *t, const struct dt_script *s, const char *name,
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
	printf("reproducer (%zu lines, %lu runs to shrink; the %s differs%s):\n", small.n,
	       t->r.runs - runs, d->at_end ? "teardown" : "last line",
	       intr_pending() ? "; shrinking INTERRUPTED, not minimal" : "");
	printf("----8<----\n");
	dt_script_print(&small, stdout, "");
	printf("----8<----\n");
	if (!intr_pending())
		show_diff(&t->r, &small);
	if (t->out_file) {
		FILE *f = fopen(t->out_file, "w");

		if (f) {
			dt_script_print(&small, f, "");
			if (!cli_fclose("difftest", t->out_file, f))
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

/*
 * Run @s on both sides; 1 if they differ, 0 if not, -1 on trouble, 2 if a
 * signal came while it ran (the children may have seen it: no verdict).
 */
static int check_script(struct dt_session *t, const struct dt_script *s, const char *name)
{
	struct dt_side vfs, host;
	struct dt_diff d;
	int rc = 0;

	if (dt_run(&t->r, s->lines, s->n, &vfs, &host))
		return -1;
	if (intr_pending()) {
		dt_side_free(&vfs);
		dt_side_free(&host);
		return 2;
	}
	/* Each call that ran printed one line on the host side. */
	for (size_t i = 0; i < host.n; i++)
		for (const char *p = host.out[i]; (p = strchr(p, '\n')); p++)
			t->executed++;
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

int dt_session_file(struct dt_session *t, const char *file)
{
	struct dt_script s = { 0 };
	FILE *f = fopen(file, "r");
	int c;

	if (!f) {
		cli_error("difftest", "%s: cannot open", file);
		return -1;
	}
	c = dt_script_read(&s, f);
	fclose(f);
	if (c) {
		cli_error("difftest", "%s: read error", file);
		dt_script_free(&s);
		return -1;
	}
	for (size_t i = 0; i < s.n; i++)
		t->gen_calls += s.calls[i];
	if (!t->gen_calls) {
		/* Nothing compared is no evidence of agreement. */
		cli_error("difftest", "%s: no calls to run (empty, or only comments)", file);
		dt_script_free(&s);
		return -1;
	}
	t->gen_lines = s.n;
	t->nscripts = 1;
	c = check_script(t, &s, file);
	if (c == 2) /* interrupted: nothing compared */
		t->nscripts = t->gen_lines = t->gen_calls = 0;
	t->mismatches += c == 1;
	dt_script_free(&s);
	return c < 0 ? -1 : 0;
}

int dt_session_random(struct dt_session *t, unsigned long long seed, unsigned long long lines)
{
	unsigned long long scripts = t->scripts, calls = t->calls;
	int rc = 0;

	if (!scripts && !calls)
		scripts = 1;
	if (calls)
		printf("difftest: seed %llu, %llu lines per script, until %llu calls ran\n", seed,
		       lines, calls);
	else
		printf("difftest: seed %llu, %llu lines per script, %llu script%s\n", seed, lines,
		       scripts, scripts == 1 ? "" : "s");
	fflush(stdout);
	for (unsigned long long k = 0;; k++) {
		struct dt_script s = { 0 };
		unsigned long long sc = 0;
		char name[512];
		int c;

		if (calls ? t->executed >= calls : k >= scripts)
			break;
		if (intr_pending())
			break;
		if (progress_due(&t->r.progress))
			progress_print(&t->r.progress,
				       "%llu scripts, %lu calls ran, %llu mismatch%s", t->nscripts,
				       t->executed, t->mismatches, t->mismatches == 1 ? "" : "es");
		if (dt_generate(&s, seed + k, lines, t->pol)) {
			cli_error("difftest", "out of memory");
			rc = 1;
			break;
		}
		dt_exclude_lines(&s, t->exclude, t->nexclude);
		for (size_t i = 0; i < s.n; i++)
			sc += s.calls[i];
		snprintf(name, sizeof(name), "seed %llu (--seed %llu --lines %llu%s%s%s)", seed + k,
			 seed + k, lines, *t->avoids ? " --avoid " : "", t->avoids, t->uidopt);
		c = check_script(t, &s, name);
		if (c == 2) {
			dt_script_free(&s);
			break;
		}
		t->nscripts++;
		t->gen_calls += sc;
		t->gen_lines += s.n;
		dt_script_free(&s);
		if (t->verbose)
			printf("difftest: seed %llu: %llu calls, %s\n", seed + k, sc,
			       c ? "MISMATCH" : "same");
		if (c < 0) {
			rc = 1;
			break;
		}
		if (c > 0) {
			t->mismatches++;
			if (!t->keep_going)
				break;
		}
	}
	return rc;
}
