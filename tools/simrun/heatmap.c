// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cache-line heat map: vfslab sim --report html (a page, no network:
 * inline CSS, SVG and a few lines of script to switch the colouring) and
 * --report svg (the drawing alone, for papers and slides). Every number in
 * it is the contention report's (tools/simrun/c2c.c), divided by the run's
 * operations as c2c_print() divides; every name goes through esc().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/simrun/heatmap.h"

#define BYTE_W 8 /* px per byte: a line is 512 px */
#define ROW_H 24
#define ROW_GAP 4
#define LABEL_W 80
#define BAR_MAX 60
#define PANEL_W (LABEL_W + 64 * BYTE_W + 12 + BAR_MAX + 90)
#define PANEL_GAP 24
#define SIDE_HEAD 40
#define STRUCT_HEAD 22
#define LEGEND_H 64

enum metric { M_NS, M_XFER, M_NR };
static const char *const metric_key[M_NR] = { "ns", "xfer" };

struct section {
	char title[256], note[512], profile[64];
	bool scenario; /* its sides are before and after */
	int nr_sides, nr_tasks, cpus;
	char label[BENCH_MAX_SIDES][128];
	struct layout ls[BENCH_MAX_SIDES][LS_NR];
	bool have[BENCH_MAX_SIDES];
	struct c2c_heat heat[BENCH_MAX_SIDES];
	double ops[BENCH_MAX_SIDES];
	int tasks[64], top; /* tasks[top] is the heat's CPU count */
	double med[64][BENCH_MAX_SIDES], lo[64][BENCH_MAX_SIDES], hi[64][BENCH_MAX_SIDES];
	bool drawn[LS_NR];
	double max[M_NR], line_max[M_NR];
};

static struct section **sections;
static int nr_sections;

/* Text for HTML and SVG alike: the five specials as entities, controls as '?'. */
static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
		}
	}
}

static unsigned int nr_lines(const struct layout *l)
{
	unsigned int n = (l->size + 63) / 64;

	return n < C2C_HEAT_LINES ? n : C2C_HEAT_LINES;
}

static double field_val(const struct section *x, int s, int k, int i, enum metric m)
{
	const struct c2c_heat_field *f = &x->heat[s].f[k][i];

	return m == M_NS ? f->stall_ps / 1000.0 / x->ops[s] : f->events / x->ops[s];
}

static double line_val(const struct section *x, int s, int k, unsigned int line, enum metric m)
{
	return m == M_NS ? x->heat[s].line[k][line].stall_ps / 1000.0 / x->ops[s] :
			   x->heat[s].line[k][line].events / x->ops[s];
}

static const char *field_name(const struct layout *l, int i)
{
	return l->alias[i][0] ? l->alias[i] : l->desc->fields[i].name;
}

/* Pale yellow through orange to dark red: every channel falls as the heat rises. */
static const unsigned char ramp[3][3] = { { 255, 255, 224 }, { 253, 141, 60 }, { 189, 0, 38 } };

static double heat_t(double v, double max)
{
	double t = max > 0 ? v / max : 0;

	return t < 0 ? 0 : t > 1 ? 1 : t;
}

static void heat_rgb(double t, char *buf, size_t n)
{
	double u = 2 * t;
	int a = u >= 1 ? 1 : 0, c[3];

	u -= a;
	if (a == 1 && u > 1)
		u = 1;
	for (int j = 0; j < 3; j++)
		c[j] = (int)lround(ramp[a][j] + (ramp[a + 1][j] - ramp[a][j]) * u);
	snprintf(buf, n, "#%02x%02x%02x", c[0], c[1], c[2]);
}

void heatmap_add(const struct heatmap_run *run)
{
	const struct bench_opts *o = run->o;
	struct section *x = calloc(1, sizeof(*x));
	struct section **v = realloc(sections, (nr_sections + 1) * sizeof(*v));
	char err[256];
	bool any = false;

	if (!x || !v)
		abort();
	sections = v;
	sections[nr_sections++] = x;
	snprintf(x->title, sizeof(x->title), "%s", run->title);
	snprintf(x->note, sizeof(x->note), "%s", run->note ? run->note : "");
	x->scenario = run->scenario;
	snprintf(x->profile, sizeof(x->profile), "%s", run->profile);
	x->nr_sides = o->nr_sides;
	x->nr_tasks = o->nr_tasks;
	for (int s = 0; s < o->nr_sides; s++) {
		snprintf(x->label[s], sizeof(x->label[s]), "%s", o->sides[s].label);
		if (vfs_config_layouts(&o->sides[s].cfg, x->ls[s], err, sizeof(err)))
			memset(x->ls[s], 0, sizeof(x->ls[s]));
	}
	for (int k = 0; k < o->nr_tasks; k++)
		x->tasks[k] = o->tasks[k];
	for (int i = 0; i < run->nr; i++)
		if (run->res[i].br.tasks > x->cpus)
			x->cpus = run->res[i].br.tasks;
	for (int i = 0; i < run->nr; i++) {
		const struct sim_result *r = &run->res[i];
		int s = r->br.side, k = i / o->nr_sides;

		if (k < 64 && s < BENCH_MAX_SIDES) {
			x->med[k][s] = r->br.median;
			x->lo[k][s] = r->br.min;
			x->hi[k][s] = r->br.max;
		}
		/* The heat of the largest CPU count, its first run if listed twice. */
		if (r->br.tasks == x->cpus && !x->have[s])
			x->top = k;
		if (r->br.tasks != x->cpus || x->have[s] || !r->c2c.heat || !x->ls[s][0].desc)
			continue;
		x->have[s] = true;
		x->heat[s] = *r->c2c.heat;
		x->ops[s] = r->ops ? (double)r->ops : 1;
	}
	for (int s = 0; s < x->nr_sides; s++) {
		for (int k = 0; x->have[s] && k < LS_NR; k++) {
			const struct layout *l = &x->ls[s][k];

			for (unsigned int i = 0; i < l->desc->nr_fields; i++)
				for (int m = 0; m < M_NR; m++)
					x->max[m] = fmax(x->max[m], field_val(x, s, k, i, m));
			for (unsigned int line = 0; line < nr_lines(l); line++) {
				for (int m = 0; m < M_NR; m++)
					x->line_max[m] =
						fmax(x->line_max[m], line_val(x, s, k, line, m));
				if (x->heat[s].line[k][line].events)
					any = x->drawn[k] = true;
			}
		}
	}
	/* Nothing took a miss: draw all three rather than none. */
	for (int k = 0; !any && k < LS_NR; k++)
		x->drawn[k] = true;
}

static int panel_x(int s)
{
	return 10 + s * (PANEL_W + PANEL_GAP);
}

static unsigned int block_lines(const struct section *x, int k)
{
	unsigned int n = 0;

	for (int s = 0; s < x->nr_sides; s++)
		if (x->ls[s][k].desc && nr_lines(&x->ls[s][k]) > n)
			n = nr_lines(&x->ls[s][k]);
	return n;
}

/* A value in both metrics as attributes: data-ns="..." data-xfer="...". */
static void attr_vals(FILE *f, const char *what, const double v[M_NR], const int decimals[M_NR])
{
	for (int m = 0; m < M_NR; m++)
		fprintf(f, " data-%s%s=\"%.*f\"", what, metric_key[m], decimals[m], v[m]);
}

static const int num_dec[M_NR] = { 3, 4 };

/* One field's box (its part on one line), its tooltip and name. */
static void draw_field(FILE *f, const struct section *x, int s, int k, int i, unsigned int line,
		       int px, int y)
{
	const struct layout *l = &x->ls[s][k];
	const struct c2c_heat_field *hf = &x->heat[s].f[k][i];
	unsigned int lo = l->off[i], hi = l->off[i] + l->slot[i];
	double v[M_NR], t[M_NR];
	char fill[M_NR][8], ink[M_NR][8];
	const char *name = field_name(l, i);
	int bx, w;

	if (lo < line * 64)
		lo = line * 64;
	if (hi > line * 64 + 64)
		hi = line * 64 + 64;
	if (lo >= hi)
		return;
	bx = px + LABEL_W + (int)(lo - line * 64) * BYTE_W;
	w = (int)(hi - lo) * BYTE_W;
	for (int m = 0; m < M_NR; m++) {
		v[m] = field_val(x, s, k, i, m);
		t[m] = heat_t(v[m], x->max[m]);
		heat_rgb(t[m], fill[m], sizeof(fill[m]));
		snprintf(ink[m], sizeof(ink[m]), "%s", t[m] > 0.6 ? "#ffffff" : "#000000");
	}
	fprintf(f, "<rect class=\"fb\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"",
		bx, y, w, ROW_H, fill[M_NS]);
	fprintf(f, " stroke=\"#ffffff\" data-side=\"%d\" data-struct=\"%s\" data-field=\"", s,
		l->desc->name);
	esc(f, name);
	fprintf(f, "\" data-line=\"%u\" data-heat=\"%.3f\"", line, v[M_NS]);
	attr_vals(f, "", v, num_dec);
	fprintf(f, " data-fill-ns=\"%s\" data-fill-xfer=\"%s\"><title>", fill[M_NS], fill[M_XFER]);
	esc(f, name);
	fprintf(f,
		" +%u, %u bytes, line %u: %.1f ns lost, %.3f transfers (HITM %.3f, RFO %.3f) per op",
		l->off[i], l->slot[i], line, v[M_NS], v[M_XFER], hf->hitm / x->ops[s],
		hf->rfo / x->ops[s]);
	for (unsigned int j = 0; j < hf->nfuncs; j++) {
		fputs("&#10;", f);
		esc(f, hf->funcs[j].name);
		fprintf(f, " (%s): %.1f ns, %.3f transfers per op",
			c2c_kind_name(hf->funcs[j].kinds),
			hf->funcs[j].stall_ps / 1000.0 / x->ops[s],
			hf->funcs[j].events / x->ops[s]);
	}
	fputs("</title></rect>\n", f);
	/* The name where it fits (under 7 px a character). */
	if ((int)strlen(name) * 67 / 10 + 3 <= w) {
		fprintf(f,
			"<text x=\"%d\" y=\"%d\" fill=\"%s\" data-fill-ns=\"%s\" data-fill-xfer=\"%s\" "
			"pointer-events=\"none\">",
			bx + 3, y + 15, ink[M_NS], ink[M_NS], ink[M_XFER]);
		esc(f, name);
		fputs("</text>\n", f);
	}
}

/* One line of one struct of one side: its label, its bytes, its fields, its total. */
static void draw_line(FILE *f, const struct section *x, int s, int k, unsigned int line, int px,
		      int y)
{
	const struct layout *l = &x->ls[s][k];
	unsigned int bytes = l->size - line * 64 > 64 ? 64 : l->size - line * 64;
	double v[M_NR], w[M_NR];
	static const char *const unit[M_NR] = { "ns/op", "xfer/op" };
	static const int unit_dec[M_NR] = { 1, 3 }, wdec[M_NR] = { 0, 0 };

	fprintf(f, "<text x=\"%d\" y=\"%d\">line %u +%u</text>\n", px, y + 15, line, line * 64);
	/* The line's bytes: what no field covers shows as a hole. */
	fprintf(f,
		"<rect class=\"hole\" x=\"%d\" y=\"%d\" width=\"%u\" height=\"%d\" fill=\"#e8e8e8\" "
		"stroke=\"#999999\" stroke-dasharray=\"3,2\"/>\n",
		px + LABEL_W, y, bytes * BYTE_W, ROW_H);
	for (unsigned int i = 0; i < l->desc->nr_fields; i++)
		draw_field(f, x, s, k, (int)i, line, px, y);
	for (int m = 0; m < M_NR; m++) {
		v[m] = line_val(x, s, k, line, m);
		w[m] = x->line_max[m] > 0 ? BAR_MAX * v[m] / x->line_max[m] : 0;
	}
	fprintf(f, "<g class=\"line\" data-side=\"%d\" data-struct=\"%s\" data-line=\"%u\"", s,
		l->desc->name, line);
	fprintf(f, " data-heat=\"%.3f\"", v[M_NS]);
	attr_vals(f, "", v, num_dec);
	fprintf(f, "><rect x=\"%d\" y=\"%d\" height=\"%d\" fill=\"#7f0000\" width=\"%.0f\"",
		px + LABEL_W + 64 * BYTE_W + 12, y + 6, ROW_H - 12, w[M_NS]);
	attr_vals(f, "w-", w, wdec);
	fprintf(f, "/><text x=\"%d\" y=\"%d\"", px + LABEL_W + 64 * BYTE_W + 16 + BAR_MAX, y + 15);
	for (int m = 0; m < M_NR; m++)
		fprintf(f, " data-t-%s=\"%.*f %s\"", metric_key[m], unit_dec[m], v[m], unit[m]);
	fprintf(f, ">%.1f %s", v[M_NS], unit[M_NS]);
	fputs("</text></g>\n", f);
}

static void draw_legend(FILE *f, const struct section *x, int id, int y)
{
	static const char *const caption[M_NR] = { "time lost per operation (ns)",
						   "line transfers per operation" };
	char c[8];

	fprintf(f, "<defs><linearGradient id=\"heat-%d\">", id);
	for (int j = 0; j <= 8; j++) {
		heat_rgb(j / 8.0, c, sizeof(c));
		fprintf(f, "<stop offset=\"%d%%\" stop-color=\"%s\"/>", j * 100 / 8, c);
	}
	fprintf(f, "</linearGradient></defs>\n");
	fprintf(f,
		"<rect class=\"legend\" x=\"10\" y=\"%d\" width=\"240\" height=\"14\" "
		"fill=\"url(#heat-%d)\" stroke=\"#999999\"/>\n",
		y, id);
	for (int j = 0; j <= 2; j++) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\"", 10 + j * 120, y + 28);
		for (int m = 0; m < M_NR; m++)
			fprintf(f, " data-t-%s=\"%.4g\"", metric_key[m], x->max[m] * j / 2);
		fprintf(f, ">%.4g</text>\n", x->max[M_NS] * j / 2);
	}
	fprintf(f, "<text class=\"caption\" x=\"300\" y=\"%d\"", y + 11);
	for (int m = 0; m < M_NR; m++)
		fprintf(f, " data-t-%s=\"box colour: %s at %d CPUs of %s\"", metric_key[m],
			caption[m], x->cpus, x->profile);
	fprintf(f, ">box colour: %s at %d CPUs of %s</text>\n", caption[M_NS], x->cpus, x->profile);
	fprintf(f,
		"<text x=\"300\" y=\"%d\">bar: the line's total (misses on any of its bytes); "
		"dashed grey: a hole</text>\n",
		y + 27);
}

static void draw_size(const struct section *x, int *width, int *height)
{
	*width = panel_x(x->nr_sides) - PANEL_GAP + 10;
	*height = SIDE_HEAD + LEGEND_H;
	for (int k = 0; k < LS_NR; k++)
		if (x->drawn[k])
			*height += STRUCT_HEAD + (int)block_lines(x, k) * (ROW_H + ROW_GAP) + 12;
}

/* The drawing of one section (at @top in a larger SVG): a column per side, a block per struct. */
static void draw(FILE *f, const struct section *x, int id, bool standalone, int top)
{
	int width, height, y;

	draw_size(x, &width, &height);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"heatmap\" y=\"%d\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"11\">\n",
		top, width, height, width, height);
	if (standalone) {
		fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height);
		fprintf(f, "<title>");
		esc(f, x->title);
		fprintf(f, "</title>\n");
	}
	for (int s = 0; s < x->nr_sides; s++) {
		char ops[32];

		fprintf(f, "<text x=\"%d\" y=\"16\" font-weight=\"bold\" class=\"side\">%s",
			panel_x(s), x->scenario ? s ? "after: " : "before: " : "");
		esc(f, x->label[s]);
		bench_fmt_ops(ops, sizeof(ops), x->med[x->top][s]);
		fprintf(f, "</text>\n<text x=\"%d\" y=\"31\">%d CPUs of ", panel_x(s), x->cpus);
		esc(f, x->profile);
		fprintf(f, ": %s ops/s", ops);
		if (s && x->med[x->top][0] > 0)
			fprintf(f, ", %.3fx the first", x->med[x->top][s] / x->med[x->top][0]);
		fprintf(f, "%s</text>\n", x->have[s] ? "" : " (no contention report)");
	}
	y = SIDE_HEAD;
	for (int k = 0; k < LS_NR; k++) {
		if (!x->drawn[k])
			continue;
		for (int s = 0; s < x->nr_sides; s++) {
			const struct layout *l = &x->ls[s][k];

			if (!l->desc || !x->have[s])
				continue;
			fprintf(f, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">struct %s</text>",
				panel_x(s), y + 14, l->desc->name);
			fprintf(f, "<text x=\"%d\" y=\"%d\">layout ", panel_x(s) + 130, y + 14);
			esc(f, l->name);
			fprintf(f, ", %u bytes</text>\n", l->size);
			for (unsigned int line = 0; line < nr_lines(l); line++)
				draw_line(f, x, s, k, line, panel_x(s),
					  y + STRUCT_HEAD + (int)line * (ROW_H + ROW_GAP));
		}
		y += STRUCT_HEAD + (int)block_lines(x, k) * (ROW_H + ROW_GAP) + 12;
	}
	draw_legend(f, x, id, y + 8);
	fprintf(f, "</svg>\n");
}

static const char *const side_colour[BENCH_MAX_SIDES] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f",
};

/* ops/s against CPUs (log scale), a line per side, each point's min-max bar. */
static void curve(FILE *f, const struct section *x)
{
	const int l = 80, t = 20, pw = 440, ph = 200;
	int h = t + ph + 50 + 16 * x->nr_sides;
	double lo = INFINITY, hi = 0, ymax = 0;
	char buf[32];

	for (int k = 0; k < x->nr_tasks && k < 64; k++) {
		lo = fmin(lo, log2(x->tasks[k]));
		hi = fmax(hi, log2(x->tasks[k]));
		for (int s = 0; s < x->nr_sides; s++)
			ymax = fmax(ymax, x->hi[k][s]);
	}
	if (ymax <= 0)
		ymax = 1;
#define CX(c) (l + (hi > lo ? (log2(c) - lo) / (hi - lo) * pw : pw / 2.0))
#define CY(v) (t + ph - (v) / ymax * ph)
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"curve\" width=\"%d\" "
		"height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n",
		l + pw + 30, h);
	fprintf(f,
		"<path d=\"M%d %d V%d H%d\" fill=\"none\" stroke=\"#000000\"/>\n"
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">virtual CPUs (log scale)</text>\n"
		"<text transform=\"translate(14,%d) rotate(-90)\" text-anchor=\"middle\">simulated "
		"ops/s</text>\n",
		l, t, t + ph, l + pw, l + pw / 2, t + ph + 34, t + ph / 2);
	for (int j = 0; j <= 4; j++) {
		bench_fmt_ops(buf, sizeof(buf), ymax * j / 4);
		fprintf(f,
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text><path d=\"M%d %.1f "
			"H%d\" stroke=\"#dddddd\"/>\n",
			l - 6, CY(ymax * j / 4) + 4, buf, l + 1, CY(ymax * j / 4), l + pw);
	}
	for (int k = 0; k < x->nr_tasks && k < 64; k++)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
			CX(x->tasks[k]), t + ph + 16, x->tasks[k]);
	for (int s = 0; s < x->nr_sides; s++) {
		const char *col = side_colour[s % BENCH_MAX_SIDES];

		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
			col);
		for (int k = 0; k < x->nr_tasks && k < 64; k++)
			fprintf(f, "%s%.1f,%.1f", k ? " " : "", CX(x->tasks[k]), CY(x->med[k][s]));
		fprintf(f, "\"/>\n");
		for (int k = 0; k < x->nr_tasks && k < 64; k++) {
			fprintf(f,
				"<path d=\"M%.1f %.1f V%.1f\" stroke=\"%s\"/><circle cx=\"%.1f\" "
				"cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>",
				CX(x->tasks[k]), CY(x->lo[k][s]), CY(x->hi[k][s]), col,
				CX(x->tasks[k]), CY(x->med[k][s]), col);
			esc(f, x->label[s]);
			bench_fmt_ops(buf, sizeof(buf), x->med[k][s]);
			fprintf(f, ", %d CPUs: %s ops/s</title></circle>\n", x->tasks[k], buf);
		}
		fprintf(f,
			"<path d=\"M%d %d h24\" stroke=\"%s\" stroke-width=\"2\"/><text x=\"%d\" "
			"y=\"%d\">",
			l, t + ph + 50 + 16 * s, col, l + 30, t + ph + 54 + 16 * s);
		esc(f, x->label[s]);
		fprintf(f, "</text>\n");
	}
#undef CX
#undef CY
	fprintf(f, "</svg>\n");
}

/* The fields that took misses, side by side, with every function behind each. */
static void table(FILE *f, const struct section *x)
{
	fprintf(f, "<table class=\"fields\"><thead><tr><th>side</th><th>struct</th><th>field</th>"
		   "<th>offset</th><th>bytes</th><th>ns lost/op</th><th>transfers/op</th>"
		   "<th>HITM/op</th><th>RFO/op</th><th>functions (access; ns lost/op)</th></tr>"
		   "</thead><tbody>\n");
	for (int s = 0; s < x->nr_sides; s++) {
		for (int k = 0; k < LS_NR && x->have[s]; k++) {
			const struct layout *l = &x->ls[s][k];

			for (unsigned int off = 0; off < l->size; off++) {
				for (unsigned int i = 0; i < l->desc->nr_fields; i++) {
					const struct c2c_heat_field *hf = &x->heat[s].f[k][i];

					if (l->off[i] != off || !hf->events)
						continue;
					fputs("<tr><td>", f);
					esc(f, x->label[s]);
					fprintf(f, "</td><td>%s</td><td class=\"name\">",
						l->desc->name);
					esc(f, field_name(l, (int)i));
					fprintf(f,
						"</td><td>%u</td><td>%u</td><td>%.1f</td><td>%.3f</td>"
						"<td>%.3f</td><td>%.3f</td><td>",
						l->off[i], l->slot[i],
						field_val(x, s, k, (int)i, M_NS),
						field_val(x, s, k, (int)i, M_XFER),
						hf->hitm / x->ops[s], hf->rfo / x->ops[s]);
					for (unsigned int j = 0; j < hf->nfuncs; j++) {
						fputs(j ? "<br>" : "", f);
						esc(f, hf->funcs[j].name);
						fprintf(f, " (%s; %.1f)",
							c2c_kind_name(hf->funcs[j].kinds),
							hf->funcs[j].stall_ps / 1000.0 / x->ops[s]);
					}
					fputs("</td></tr>\n", f);
				}
			}
		}
	}
	fprintf(f, "</tbody></table>\n");
}

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em;color:#111}\n"
	"h2{margin-top:2em;border-bottom:1px solid #ccc}\n"
	"svg.heatmap,svg.curve{display:block;margin:0.5em 0}\n"
	"table.fields{border-collapse:collapse;font-size:0.85em}\n"
	"table.fields td,table.fields th{border:1px solid #ccc;padding:2px 6px;"
	"vertical-align:top;text-align:right}\n"
	"table.fields td:nth-child(-n+3),table.fields td:last-child{text-align:left;"
	"font-family:monospace}\n"
	"rect.fb:hover{stroke:#000000;stroke-width:2}\n";

/* Switch every box, bar and label between the two metrics the page carries. */
static const char script[] =
	"function show(m) {\n"
	"\tdocument.querySelectorAll('[data-fill-' + m + ']').forEach(function (e) {\n"
	"\t\te.setAttribute('fill', e.getAttribute('data-fill-' + m));\n"
	"\t});\n"
	"\tdocument.querySelectorAll('[data-' + m + ']').forEach(function (e) {\n"
	"\t\te.setAttribute('data-heat', e.getAttribute('data-' + m));\n"
	"\t});\n"
	"\tdocument.querySelectorAll('[data-w-' + m + ']').forEach(function (e) {\n"
	"\t\te.setAttribute('width', e.getAttribute('data-w-' + m));\n"
	"\t});\n"
	"\tdocument.querySelectorAll('[data-t-' + m + ']').forEach(function (e) {\n"
	"\t\te.textContent = e.getAttribute('data-t-' + m);\n"
	"\t});\n"
	"}\n"
	"document.querySelectorAll('input[name=metric]').forEach(function (r) {\n"
	"\tr.addEventListener('change', function () { show(r.value); });\n"
	"});\n";

static void page(FILE *f)
{
	fprintf(f,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>vfslab sim: cache-line heat map</title>\n<style>\n%s</style>\n</head>\n"
		"<body>\n<h1>vfslab sim: cache-line heat map</h1>\n",
		css);
	fprintf(f, "<p>Each struct is drawn as its 64-byte lines (offsets from the struct's start, "
		   "as <code>vfslab layout</code> prints them), each field a box as wide as its "
		   "bytes and coloured by what the simulated CPUs lost on it per operation, summed "
		   "over every object of the type, at the run's largest CPU count. Hover over a "
		   "box for the functions behind it; the table lists them all.</p>\n"
		   "<form class=\"metric\">colour by: <label><input type=\"radio\" name=\"metric\" "
		   "value=\"ns\" checked> time lost per operation</label> <label><input "
		   "type=\"radio\" name=\"metric\" value=\"xfer\"> line transfers per "
		   "operation</label></form>\n");
	for (int n = 0; n < nr_sections; n++) {
		const struct section *x = sections[n];

		fprintf(f, "<section class=\"run\" id=\"run-%d\">\n<h2>", n + 1);
		esc(f, x->title);
		fprintf(f, "</h2>\n");
		if (x->note[0]) {
			fprintf(f, "<p>");
			esc(f, x->note);
			fprintf(f, "</p>\n");
		}
		draw(f, x, n + 1, false, 0);
		if (x->nr_tasks > 1) {
			fprintf(f, "<h3>Throughput</h3>\n");
			curve(f, x);
		}
		fprintf(f, "<h3>Fields that took misses at %d CPUs</h3>\n", x->cpus);
		table(f, x);
		fprintf(f, "</section>\n");
	}
	fprintf(f, "<script>\n%s</script>\n</body>\n</html>\n", script);
}

/* The drawings one under another, in one SVG document. */
static void svg(FILE *f)
{
	int width = 0, height = 0, w, h;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	if (nr_sections == 1) {
		draw(f, sections[0], 1, true, 0);
		return;
	}
	for (int n = 0; n < nr_sections; n++) {
		draw_size(sections[n], &w, &h);
		width = w > width ? w : width;
		height += h;
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">\n", width,
		height);
	height = 0;
	for (int n = 0; n < nr_sections; n++) {
		draw(f, sections[n], n + 1, true, height);
		draw_size(sections[n], &w, &h);
		height += h;
	}
	fprintf(f, "</svg>\n");
}

int heatmap_write(const char *file, bool as_svg)
{
	FILE *f = fopen(file, "w");

	if (!f) {
		cli_error("sim", "--report %s: cannot write %s", as_svg ? "svg" : "html", file);
		return 1;
	}
	if (as_svg)
		svg(f);
	else
		page(f);
	return cli_fclose("sim", file, f) ? 1 : 0;
}
