// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab layout --check: rules that keep fields apart ("dentry: d_lockref
 * apart from d_name d_seq"), checked against a layout, for CI.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/layout/pahole.h"

#define SEP " \t:"

/* FIELD (index idx) against the field named other; 1 if they share a line, -1 if no such field. */
static int check_pair(const struct layout *l, const char *sname, const char *field, int idx,
		      const char *other, int lineno, FILE *out)
{
	int j = layout_field_index(l, other);

	if (j < 0) {
		fprintf(stderr, "vfslab layout: rule %d: struct %s has no field '%s'\n", lineno,
			sname, other);
		return -1;
	}
	for (unsigned int line = 0; line <= (l->size - 1) / PAHOLE_CL; line++) {
		if (pahole_on_line(l, idx, line) && pahole_on_line(l, j, line)) {
			fprintf(out,
				"FAIL rule %d: %s.%s (offset %u) shares cacheline %u with %s "
				"(offset %u) in layout %s\n",
				lineno, sname, field, l->off[idx], line, other, l->off[j], l->name);
			return 1;
		}
	}
	return 0;
}

/*
 * One rule: "STRUCT: FIELD apart from F1 F2 ..." - FIELD must share no
 * cache line with any of the others, however many. Returns violations
 * (or -1: bad rule).
 */
static int check_rule(char *rule, const struct layout *ls, int lineno, FILE *out)
{
	char *text = strdup(rule), *save = NULL, *w[4];
	int bad = 0, idx, r;
	enum layout_struct s;
	const struct layout *l;
	char *p;

	if (!text) {
		fprintf(stderr, "vfslab layout: out of memory\n");
		return -1;
	}
	for (int n = 0; n < 4; n++)
		w[n] = strtok_r(n ? NULL : rule, SEP, &save);
	p = strtok_r(NULL, SEP, &save);
	if (!p || strcmp(w[2], "apart") || strcmp(w[3], "from")) {
		fprintf(stderr,
			"vfslab layout: rule %d: expected 'STRUCT: FIELD apart from FIELD...'\n",
			lineno);
		bad = -1;
	} else if (layout_struct_find(w[0], &s)) {
		fprintf(stderr, "vfslab layout: rule %d: unknown struct '%s'\n", lineno, w[0]);
		bad = -1;
	} else if ((idx = layout_field_index(&ls[s], w[1])) < 0) {
		fprintf(stderr, "vfslab layout: rule %d: struct %s has no field '%s'\n", lineno,
			w[0], w[1]);
		bad = -1;
	} else {
		l = &ls[s];
		for (; p && bad >= 0; p = strtok_r(NULL, SEP, &save)) {
			r = check_pair(l, w[0], w[1], idx, p, lineno, out);
			bad = r < 0 ? -1 : bad + r;
		}
	}
	if (!bad)
		fprintf(out, "ok   rule %d: %s\n", lineno, text);
	free(text);
	return bad;
}

int pahole_check(FILE *in, const char *name, const struct layout *ls, FILE *out)
{
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, bad = 0, rules = 0, c = 0;

	/* getline(): a long rule stays one rule. */
	while (getline(&line, &cap, in) >= 0) {
		char *p = line + strspn(line, " \t");

		lineno++;
		p[strcspn(p, "\r\n#")] = '\0';
		if (!*p)
			continue;
		c = check_rule(p, ls, lineno, out);
		if (c < 0)
			break;
		bad += c;
		rules++;
	}
	free(line);
	if (c >= 0 && ferror(in)) {
		fprintf(stderr, "vfslab layout: --check: %s: %s\n", name, strerror(errno));
		c = -1;
	} else if (c >= 0 && !rules) {
		/* Passing on nothing would let a CI guard check nothing. */
		fprintf(stderr, "vfslab layout: --check: %s: no rules\n", name);
		c = -1;
	}
	if (c < 0)
		return -1;
	fprintf(out, "%s: %d violation%s\n", bad ? "FAILED" : "passed", bad, bad == 1 ? "" : "s");
	return bad;
}
