// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Shrinking a mismatch: delta debugging (Zeller's ddmin, complements only)
 * over the lines before the one that differs, then the same over the calls
 * of each remaining line. A candidate counts only if its last line shows
 * the very difference we started from (the same first differing output
 * line on each side, or the same kind of vfslab failure) and no line before
 * it differs: the reproducer then reads top to bottom. Lines that create
 * what the last one needs stay because removing them loses the difference.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/difftest/difftest.h"

/* Runs allowed for one shrink: each costs a host run of the candidate. */
#define SHRINK_MAX_TESTS 5000

struct shrink {
	struct dt_runner *r;
	const struct dt_diff *want;
	unsigned long tests;
	bool verbose;
	bool host_failed;
};

/* "vfs_check_tree: ..." -> "vfs_check_tree": what must stay the same. */
static size_t fail_class(const char *msg)
{
	const char *c = strchr(msg, ':');

	return c ? (size_t)(c - msg) : strlen(msg);
}

static bool same_fail(const char *a, const char *b)
{
	size_t n = fail_class(a);

	return n == fail_class(b) && !strncmp(a, b, n);
}

/* Does the script @v[0..n) still show sh->want? */
static bool interesting(struct shrink *sh, char **v, size_t n)
{
	const struct dt_diff *w = sh->want;
	struct dt_side vfs, host;
	struct dt_diff d;
	bool yes = false;

	if (!n || sh->host_failed || sh->tests >= SHRINK_MAX_TESTS || intr_pending())
		return false;
	if (progress_due(&sh->r->progress))
		progress_print(&sh->r->progress, "shrinking: %lu runs, %zu lines now", sh->tests,
			       n);
	sh->tests++;
	if (dt_run(sh->r, v, n, &vfs, &host)) {
		sh->host_failed = true;
		return false;
	}
	dt_compare(&vfs, &host, n, &d);
	/* The children may have seen the signal too: an answer to distrust. */
	if (d.line >= 0 && !intr_pending() && d.vfs_failed == w->vfs_failed &&
	    d.at_end == w->at_end) {
		if (w->vfs_failed)
			yes = same_fail(d.vfs, w->vfs) && (w->at_end || (size_t)d.line == n - 1);
		else
			yes = (size_t)d.line == n - 1 && !strcmp(d.host, w->host) &&
			      !strcmp(d.vfs, w->vfs);
	}
	dt_diff_free(&d);
	dt_side_free(&vfs);
	dt_side_free(&host);
	if (sh->verbose)
		fprintf(stderr, "  shrink: %zu lines: %s\n", n, yes ? "still differs" : "no");
	return yes;
}

/*
 * ddmin over @items[0..*n) (owned: removed ones are freed): keep removing
 * chunks while what is left, plus @tail if not NULL, is interesting.
 */
static void ddmin(struct shrink *sh, char **items, size_t *n, char *tail)
{
	size_t gran = 2;
	char **cand = malloc((*n + 1) * sizeof(*cand));

	if (!cand)
		return;
	while (*n > 0) {
		size_t chunk = (*n + gran - 1) / gran;
		bool reduced = false;

		for (size_t start = 0; start < *n; start += chunk) {
			size_t k = 0, end = start + chunk < *n ? start + chunk : *n;

			for (size_t i = 0; i < *n; i++)
				if (i < start || i >= end)
					cand[k++] = items[i];
			if (tail)
				cand[k++] = tail;
			if (interesting(sh, cand, k)) {
				for (size_t i = start; i < end; i++)
					free(items[i]);
				*n -= end - start;
				memmove(items + start, items + end, (*n - start) * sizeof(*items));
				gran = gran > 2 ? gran - 1 : 2;
				reduced = true;
				break;
			}
		}
		if (reduced)
			continue;
		if (gran >= *n)
			break;
		gran = 2 * gran < *n ? 2 * gran : *n;
	}
	free(cand);
}

/* Split a line into its options (may be "") and its calls, on " : ". */
static size_t split_calls(const char *line, char **opts, char ***calls)
{
	const char *p = line, *s;
	size_t n = 0;

	*calls = NULL;
	/* Options: -X VALUE pairs (or -XVALUE) and "--", before the call. */
	while (*p == '-') {
		const char *e = strchr(p, ' ');

		if (!e)
			break;
		if (e - p == 2 && p[1] != '-') {
			e = strchr(e + 1, ' ');
			if (!e)
				break;
		}
		p = e + 1;
	}
	*opts = strndup(line, (size_t)(p - line));
	for (;;) {
		char **c = realloc(*calls, (n + 1) * sizeof(*c));

		if (!c)
			break;
		*calls = c;
		s = strstr(p, " : ");
		c[n++] = strndup(p, s ? (size_t)(s - p) : strlen(p));
		if (!s)
			break;
		p = s + 3;
	}
	return n;
}

static char *join_calls(const char *opts, char **calls, size_t n, size_t skip)
{
	size_t len = strlen(opts) + 1;
	char *s;

	for (size_t i = 0; i < n; i++)
		len += strlen(calls[i]) + 3;
	s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, opts);
	for (size_t i = 0, k = 0; i < n; i++) {
		if (i == skip)
			continue;
		if (k++)
			strcat(s, " : ");
		strcat(s, calls[i]);
	}
	return s;
}

/* Drop calls from line @i of @v, one at a time, last first. */
static void shrink_calls(struct shrink *sh, char **v, size_t n, size_t i)
{
	char *opts, **calls;
	size_t nc = split_calls(v[i], &opts, &calls);

	for (size_t k = nc; k-- > 0 && nc > 1;) {
		char *old = v[i], *cand = join_calls(opts, calls, nc, k);

		if (!cand)
			break;
		v[i] = cand;
		if (interesting(sh, v, n)) {
			free(old);
			free(calls[k]);
			memmove(calls + k, calls + k + 1, (nc - k - 1) * sizeof(*calls));
			nc--;
		} else {
			v[i] = old;
			free(cand);
		}
	}
	/* And a umask that does not matter. */
	if (strstr(opts, "-U ")) {
		char *u = strstr(opts, "-U "), *e = strchr(u + 3, ' ');
		char *o2 = malloc(strlen(opts) + 1), *cand, *old = v[i];

		if (o2 && e) {
			sprintf(o2, "%.*s%s", (int)(u - opts), opts, e + 1);
			cand = join_calls(o2, calls, nc, (size_t)-1);
			v[i] = cand;
			if (cand && interesting(sh, v, n)) {
				free(old);
			} else {
				v[i] = old;
				free(cand);
			}
		}
		free(o2);
	}
	for (size_t k = 0; k < nc; k++)
		free(calls[k]);
	free(calls);
	free(opts);
}

int dt_shrink(struct dt_runner *r, const struct dt_script *s, const struct dt_diff *d,
	      struct dt_script *out, bool verbose)
{
	struct shrink sh = { .r = r, .want = d, .verbose = verbose };
	size_t end = d->at_end ? s->n : (size_t)d->line;
	size_t n = end;
	char **v = malloc((n + 1) * sizeof(*v)), *tail = NULL;
	int rc = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++)
		v[i] = strdup(s->lines[i]);
	/* Lines after the one that differs cannot matter: gone at once. */
	if (!d->at_end)
		tail = strdup(s->lines[d->line]);
	ddmin(&sh, v, &n, tail);
	if (tail)
		v[n++] = tail;
	for (size_t i = 0; i < n; i++)
		shrink_calls(&sh, v, n, i);
	/* Fewer calls may have made more lines unnecessary. */
	if (!d->at_end) {
		tail = v[--n];
		ddmin(&sh, v, &n, tail);
		v[n++] = tail;
	} else {
		ddmin(&sh, v, &n, NULL);
	}
	if (sh.host_failed)
		rc = -1;
	for (size_t i = 0; i < n && !rc; i++)
		if (dt_script_add(out, v[i], 0))
			rc = -1;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	if (verbose)
		fprintf(stderr, "  shrink: %lu runs\n", sh.tests);
	return rc;
}
