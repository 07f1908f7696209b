// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab layout --check: rules that keep fields apart ("dentry: d_lockref
 * apart from d_name d_seq"), checked against a layout, for CI.
 */
#include <stdio.h>
#include <string.h>

#include "tools/layout/pahole.h"

/*
 * One rule: "STRUCT: FIELD apart from F1 F2 ..." - FIELD must share no
 * cache line with any of the others. Returns violations (or -1: bad rule).
 */
static int check_rule(const char *rule, const struct layout *ls, int lineno, FILE *out)
{
	char buf[512], *save = NULL, *w[40];
	int n = 0, bad = 0, idx;
	enum layout_struct s;
	const struct layout *l;

	snprintf(buf, sizeof(buf), "%s", rule);
	for (char *p = strtok_r(buf, " \t:", &save); p && n < 40; p = strtok_r(NULL, " \t:", &save))
		w[n++] = p;
	if (n < 5 || strcmp(w[2], "apart") || strcmp(w[3], "from")) {
		fprintf(stderr,
			"vfslab layout: rule %d: expected 'STRUCT: FIELD apart from FIELD...'\n",
			lineno);
		return -1;
	}
	if (layout_struct_find(w[0], &s)) {
		fprintf(stderr, "vfslab layout: rule %d: unknown struct '%s'\n", lineno, w[0]);
		return -1;
	}
	l = &ls[s];
	idx = layout_field_index(l, w[1]);
	if (idx < 0) {
		fprintf(stderr, "vfslab layout: rule %d: struct %s has no field '%s'\n", lineno,
			w[0], w[1]);
		return -1;
	}
	for (int k = 4; k < n; k++) {
		int j = layout_field_index(l, w[k]);

		if (j < 0) {
			fprintf(stderr, "vfslab layout: rule %d: struct %s has no field '%s'\n",
				lineno, w[0], w[k]);
			return -1;
		}
		for (unsigned int line = 0; line <= (l->size - 1) / PAHOLE_CL; line++) {
			if (pahole_on_line(l, idx, line) && pahole_on_line(l, j, line)) {
				fprintf(out,
					"FAIL rule %d: %s.%s (offset %u) shares cacheline %u "
					"with %s (offset %u) in layout %s\n",
					lineno, w[0], w[1], l->off[idx], line, w[k], l->off[j],
					l->name);
				bad++;
				break;
			}
		}
	}
	if (!bad)
		fprintf(out, "ok   rule %d: %s\n", lineno, rule);
	return bad;
}

int pahole_check(FILE *in, const struct layout *ls, FILE *out)
{
	char line[512];
	int lineno = 0, bad = 0, c;

	while (fgets(line, sizeof(line), in)) {
		char *p = line + strspn(line, " \t");

		lineno++;
		p[strcspn(p, "\r\n#")] = '\0';
		if (!*p)
			continue;
		c = check_rule(p, ls, lineno, out);
		if (c < 0)
			return -1;
		bad += c;
	}
	fprintf(out, "%s: %d violation%s\n", bad ? "FAILED" : "passed", bad, bad == 1 ? "" : "s");
	return bad;
}
