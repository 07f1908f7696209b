// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab layout: print struct dentry, struct file and struct files_struct
 * as a variant lays them out, the way pahole prints a struct, marking the
 * fields hot paths read and write; --check guards a layout in CI.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cmd.h"
#include "vfs/layout.h"
#include "vfs/vfs.h"

#define CL 64u

static const char *access_tag(unsigned int a)
{
	static char buf[32];

	buf[0] = '\0';
	if (a & LA_RCU)
		strcat(buf, " rcu-read");
	if (a & LA_FD)
		strcat(buf, " fd-read");
	if (a & LA_REF)
		strcat(buf, " ref-write");
	if (a & LA_LOCK)
		strcat(buf, " lock-write");
	if (a & LA_WRITE)
		strcat(buf, " write");
	return buf;
}

struct item {
	unsigned int off, size;
	int field; /* -1: pad */
};

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	return (int)x->off - (int)y->off;
}

/* Does field i touch cache line n? */
static bool on_line(const struct layout *l, int i, unsigned int n)
{
	unsigned int s = l->off[i], e = l->off[i] + l->desc->fields[i].size - 1;

	return s / CL <= n && n <= e / CL;
}

/* Warn where a write-hot field shares a line with read-hot lookup fields. */
int cli_layout_warnings(const struct layout *l, FILE *f)
{
	const struct layout_desc *d = l->desc;
	int warnings = 0;

	for (unsigned int n = 0; n <= (l->size - 1) / CL; n++) {
		char writers[256] = "", readers[256] = "";

		for (unsigned int i = 0; i < d->nr_fields; i++) {
			if (!on_line(l, i, n))
				continue;
			if (d->fields[i].access & LA_WRITE_HOT) {
				strncat(writers, " ", sizeof(writers) - strlen(writers) - 1);
				strncat(writers, d->fields[i].name,
					sizeof(writers) - strlen(writers) - 1);
			} else if (d->fields[i].access & LA_READ_HOT) {
				strncat(readers, " ", sizeof(readers) - strlen(readers) - 1);
				strncat(readers, d->fields[i].name,
					sizeof(readers) - strlen(readers) - 1);
			}
		}
		if (writers[0] && readers[0]) {
			fprintf(f,
				"warning: cacheline %u: write-hot%s shares the line with "
				"read-mostly lookup fields%s\n",
				n, writers, readers);
			warnings++;
		}
	}
	return warnings;
}

void cli_layout_print(const struct layout *l, FILE *f)
{
	const struct layout_desc *d = l->desc;
	struct item items[LAYOUT_MAX_FIELDS + LAYOUT_MAX_PADS];
	unsigned int n = 0, pos = 0, holes = 0, hole_bytes = 0, line = 0;

	for (unsigned int i = 0; i < d->nr_fields; i++)
		items[n++] = (struct item){ l->off[i], l->slot[i], (int)i };
	for (unsigned int i = 0; i < l->nr_pads; i++)
		items[n++] = (struct item){ l->pads[i].off, l->pads[i].size, -1 };
	qsort(items, n, sizeof(items[0]), cmp_item);

	fprintf(f, "struct %s {\t/* layout %s */\n", d->name, l->name);
	for (unsigned int k = 0; k < n; k++) {
		const struct item *it = &items[k];
		char label[80];

		if (it->off > pos) {
			fprintf(f, "\n\t/* XXX %u bytes hole, try to pack */\n\n", it->off - pos);
			holes++;
			hole_bytes += it->off - pos;
		}
		while ((line + 1) * CL <= it->off) {
			line++;
			if (line * CL == it->off)
				fprintf(f, "\t/* --- cacheline %u boundary (%u bytes) --- */\n",
					line, line * CL);
			else
				fprintf(f,
					"\t/* --- cacheline %u boundary (%u bytes) was %u bytes ago --- */\n",
					line, line * CL, it->off - line * CL);
		}
		if (it->field < 0) {
			fprintf(f, "\t%-32s %-20s /* %5u %5u */\n", "char", "__pad[]", it->off,
				it->size);
		} else {
			const struct layout_field_desc *fd = &d->fields[it->field];

			snprintf(label, sizeof(label), "%s%s%s%s", fd->name,
				 l->slot[it->field] > fd->size ? "[]" : "",
				 l->alias[it->field][0] ? " as " : "", l->alias[it->field]);
			fprintf(f, "\t%-32s %-20s /* %5u %5u */%s\n", fd->type, label, it->off,
				it->size, access_tag(fd->access));
		}
		if (it->off + it->size > pos)
			pos = it->off + it->size;
	}
	if (l->size > pos) {
		fprintf(f, "\n\t/* XXX %u bytes hole at the end */\n", l->size - pos);
		hole_bytes += l->size - pos;
	}
	fprintf(f, "\n\t/* size: %u, cachelines: %u, members: %u */\n", l->size,
		(l->size + CL - 1) / CL, d->nr_fields);
	if (holes || hole_bytes)
		fprintf(f, "\t/* holes: %u, sum holes: %u */\n", holes, hole_bytes);
	if (layout_stride(l) != l->size)
		fprintf(f, "\t/* slab stride: %u (aligned to %u) */\n", layout_stride(l), l->align);
	fprintf(f, "};\n");
}

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
		for (unsigned int line = 0; line <= (l->size - 1) / CL; line++) {
			if (on_line(l, idx, line) && on_line(l, j, line)) {
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

static void layout_usage(FILE *f)
{
	fprintf(f, "usage: vfslab layout [STRUCT...] [--variant SPEC]\n"
		   "       vfslab layout --list\n"
		   "       vfslab layout --check RULES [--variant SPEC]\n\n"
		   "STRUCT is dentry, file or files_struct (default: all three). Layouts come\n"
		   "from the variant (vfslab help variants): a preset, randomize:SEED, a\n"
		   "layout file, or PRESET+FIELD@OFFSET. RULES is a file (or '-') of lines\n"
		   "'STRUCT: FIELD apart from FIELD...'; exit status 1 on any violation.\n");
}

int cmd_layout(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "list", no_argument, NULL, 'l' },
		{ "check", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *variant = NULL, *rules = NULL;
	struct layout ls[LS_NR];
	struct vfs_config cfg;
	bool list = false, want[LS_NR] = { false };
	char err[512];
	int c, ret = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			variant = optarg;
			break;
		case 'l':
			list = true;
			break;
		case 'c':
			rules = optarg;
			break;
		case 'h':
			layout_usage(stdout);
			return 0;
		default:
			layout_usage(stderr);
			return 2;
		}
	}
	if (list) {
		unsigned int nr;
		const struct layout_preset *p = layout_presets(&nr);

		for (unsigned int i = 0; i < nr; i++)
			printf("%-13s %-12s %s%s\n", layout_desc(p[i].s)->name, p[i].name,
			       p[i].summary,
			       !strcmp(p[i].name, layout_default_name(p[i].s)) ? " [default]" : "");
		return 0;
	}
	if (cli_config("layout", variant, &cfg))
		return 2;
	if (vfs_config_layouts(&cfg, ls, err, sizeof(err))) {
		cli_error("layout", "%s", err);
		return 1;
	}
	if (rules) {
		FILE *in = strcmp(rules, "-") ? fopen(rules, "r") : stdin;
		char line[512];
		int lineno = 0, bad = 0;

		if (!in) {
			cli_error("layout", "--check: cannot open '%s'", rules);
			return 2;
		}
		while (fgets(line, sizeof(line), in)) {
			char *p = line + strspn(line, " \t");

			lineno++;
			p[strcspn(p, "\r\n#")] = '\0';
			if (!*p)
				continue;
			c = check_rule(p, ls, lineno, stdout);
			if (c < 0) {
				ret = 2;
				break;
			}
			bad += c;
		}
		if (in != stdin)
			fclose(in);
		if (ret)
			return ret;
		printf("%s: %d violation%s\n", bad ? "FAILED" : "passed", bad, bad == 1 ? "" : "s");
		return bad ? 1 : 0;
	}
	for (int i = optind; i < argc; i++) {
		enum layout_struct s;

		if (layout_struct_find(argv[i], &s)) {
			cli_error("layout", "unknown struct '%s' (dentry, file, files_struct)",
				  argv[i]);
			return 2;
		}
		want[s] = true;
	}
	for (int s = 0; s < LS_NR; s++) {
		if (optind < argc && !want[s])
			continue;
		cli_layout_print(&ls[s], stdout);
		cli_layout_warnings(&ls[s], stdout);
		printf("\n");
	}
	return ret;
}
