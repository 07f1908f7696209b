// SPDX-License-Identifier: LGPL-2.1-or-later
/* CSV output by RFC 4180; see csv.h. */
#include <stdarg.h>
#include <string.h>

#include "tools/out/csv.h"

void csv_str(struct csv *c, const char *s)
{
	if (c->mid)
		fputc(',', c->f);
	c->mid = true;
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, c->f);
		return;
	}
	fputc('"', c->f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', c->f);
		fputc(*s, c->f);
	}
	fputc('"', c->f);
}

void csv_fmt(struct csv *c, const char *fmt, ...)
{
	char buf[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	csv_str(c, buf);
}

void csv_empty(struct csv *c)
{
	csv_str(c, "");
}

void csv_end(struct csv *c)
{
	fputc('\n', c->f);
	c->mid = false;
}
