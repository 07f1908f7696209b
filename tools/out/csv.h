/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CSV output by RFC 4180 (csv.c): a field holding a comma, a double quote,
 * CR or LF is quoted, its quotes doubled; other fields, bytes included, go
 * out as they are. Records end in LF, as Unix tools expect (RFC 4180's
 * readers, Python's csv module among them, take it).
 */
#ifndef VFSLAB_TOOLS_OUT_CSV_H
#define VFSLAB_TOOLS_OUT_CSV_H

#include <stdbool.h>
#include <stdio.h>

struct csv {
	FILE *f;
	bool mid; /* a field is already on this record */
};

static inline void csv_start(struct csv *c, FILE *f)
{
	c->f = f;
	c->mid = false;
}

/* One field of text, quoted where it must be. */
void csv_str(struct csv *c, const char *s);
/* One field, printf-formatted (a number), quoted where it must be. */
void csv_fmt(struct csv *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An empty field: a value not measured. */
void csv_empty(struct csv *c);
/* End the record. */
void csv_end(struct csv *c);

#endif /* VFSLAB_TOOLS_OUT_CSV_H */
