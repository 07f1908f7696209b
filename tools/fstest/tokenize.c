// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fstest's tokenizer: a line into words, with pjdfstest's quoting and
 * vfslab's escapes and repeats (tests/fstest/README).
 */
/* Before any libc header: O_PATH, AT_*, RENAME_*, asprintf. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/fstest/engine.h"

struct sbuf {
	char *s;
	size_t len, cap;
};

static bool sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > MAX_TOKEN)
		return false;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *ns;

		while (cap < b->len + n + 1)
			cap *= 2;
		ns = realloc(b->s, cap);
		if (!ns)
			return false;
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return true;
}

void fstest_toks_free(struct toks *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->v[i].s);
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}

static bool toks_push(struct toks *t, struct sbuf *b, bool quoted)
{
	if (t->n == t->cap) {
		int cap = t->cap ? t->cap * 2 : 16;
		struct tok *nv = realloc(t->v, (size_t)cap * sizeof(*nv));

		if (!nv)
			return false;
		t->v = nv;
		t->cap = cap;
	}
	if (!b->s && !sb_add(b, "", 0))
		return false;
	t->v[t->n].s = b->s;
	t->v[t->n].len = b->len;
	t->v[t->n].quoted = quoted;
	t->n++;
	b->s = NULL;
	b->len = b->cap = 0;
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool too_long(struct diag *d)
{
	fstest_diag(d, "out of memory or word longer than %u bytes", MAX_TOKEN);
	return false;
}

/*
 * If @s (up to @end) opens `{N*TEXT}`, append TEXT N times and return
 * the length consumed; 0 if it is no such thing, -1 on overflow.
 */
static long add_repeat(struct sbuf *b, const char *s, const char *end)
{
	const char *close = memchr(s, '}', (size_t)(end - s));
	const char *star = close ? memchr(s, '*', (size_t)(close - s)) : NULL;
	unsigned long count = 0;
	const char *p;

	if (!star || star == s + 1 || star + 1 == close)
		return 0;
	for (p = s + 1; p < star && isdigit((unsigned char)*p); p++) {
		count = count * 10 + (unsigned long)(*p - '0');
		if (count > MAX_TOKEN)
			return 0;
	}
	if (p != star)
		return 0;
	while (count--)
		if (!sb_add(b, star + 1, (size_t)(close - star - 1)))
			return -1;
	return close + 1 - s;
}

/*
 * An unquoted run of text: `{N*TEXT}` stands for TEXT repeated N times
 * (long names without kilobyte-long lines); other text is literal.
 */
static bool add_unquoted(struct sbuf *b, const char *s, size_t n, struct diag *d)
{
	const char *end = s + n;

	while (s < end) {
		const char *open = memchr(s, '{', (size_t)(end - s));
		long used;

		if (!open)
			return sb_add(b, s, (size_t)(end - s)) || too_long(d);
		if (!sb_add(b, s, (size_t)(open - s)))
			return too_long(d);
		used = add_repeat(b, open, end);
		if (used < 0)
			return too_long(d);
		if (!used && !sb_add(b, "{", 1))
			return too_long(d);
		s = open + (used ? used : 1);
	}
	return true;
}

/* A "..." string at *@pp: \\ \" \n \t \r \xHH are its escapes. */
static bool add_double(struct sbuf *b, const char **pp, struct diag *d)
{
	const char *p = *pp + 1;

	for (; *p && *p != '"'; p++) {
		char ch = *p;
		int hi, lo;

		if (ch == '\\') {
			switch (*++p) {
			case '\\':
			case '"':
				ch = *p;
				break;
			case 'n':
				ch = '\n';
				break;
			case 't':
				ch = '\t';
				break;
			case 'r':
				ch = '\r';
				break;
			case 'x':
				hi = hexval(p[1]);
				lo = hi < 0 ? -1 : hexval(p[2]);
				if (lo < 0) {
					fstest_diag(d, "bad \\x escape");
					return false;
				}
				ch = (char)(hi * 16 + lo);
				p += 2;
				break;
			default:
				fstest_diag(d, "unknown escape '\\%c'", *p ? *p : ' ');
				return false;
			}
		}
		if (!sb_add(b, &ch, 1))
			return too_long(d);
	}
	if (*p != '"') {
		fstest_diag(d, "unterminated \"");
		return false;
	}
	*pp = p + 1;
	return true;
}

/*
 * Split a line into words: blanks separate, '...' is literal, "..." has
 * escapes, and an unquoted word starting with '#' starts a comment.
 */
bool fstest_tokenize(const char *line, struct toks *t, struct diag *d)
{
	const char *p = line;
	struct sbuf b = { 0 };

	for (;;) {
		bool quoted = false;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			return true;
		while (*p && !isspace((unsigned char)*p)) {
			const char *e;
			size_t n;

			if (*p == '"') {
				if (!add_double(&b, &p, d))
					goto fail;
				quoted = true;
			} else if (*p == '\'') {
				e = strchr(p + 1, '\'');
				if (!e) {
					fstest_diag(d, "unterminated '");
					goto fail;
				}
				if (!sb_add(&b, p + 1, (size_t)(e - p - 1))) {
					too_long(d);
					goto fail;
				}
				quoted = true;
				p = e + 1;
			} else {
				n = strcspn(p, "'\" \t\n\r\v\f");
				if (!add_unquoted(&b, p, n, d))
					goto fail;
				p += n;
			}
		}
		if (!toks_push(t, &b, quoted)) {
			too_long(d);
			goto fail;
		}
	}
fail:
	free(b.s);
	return false;
}

bool fstest_tokens_argv(struct toks *t, int argc, char *const argv[])
{
	for (int i = 0; i < argc; i++) {
		struct sbuf b = { 0 };

		if (!sb_add(&b, argv[i], strlen(argv[i])) || !toks_push(t, &b, false)) {
			free(b.s);
			return false;
		}
	}
	return true;
}
