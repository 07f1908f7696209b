// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fstest's parser: a tokenized line into credentials and a chain of calls,
 * each checked completely (syntax, argument counts, numbers, flag names,
 * descriptor indexes, backend support) before anything runs.
 */
/* Before any libc header: O_PATH, AT_*, RENAME_*, asprintf. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/fstest/engine.h"

/* strtoll(base 0) over the whole string, as pjdfstest reads numbers. */
bool fstest_parse_ll(const char *s, int base, long long *v)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(s, &end, base);
	if (end == s || errno == ERANGE)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0')
		return false;
	*v = x;
	return true;
}

/* Is @s one of the comma-separated words of @list? */
static bool listed(const char *list, const char *s)
{
	size_t n = strlen(s);

	for (const char *p = list;; p++) {
		if (strncmp(p, s, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
		p = strchr(p, ',');
		if (!p)
			return false;
	}
}

static const struct sys_name *find_name(const struct names *t, const char *s)
{
	const struct sys_name *f = t->t ? sys_name_find(t->t, s) : NULL;

	return f && (!t->only || listed(t->only, s)) ? f : NULL;
}

/*
 * pjdfstest's str2flags(): names joined by ',' or '|', "none" or "0" for
 * none.  Numbers are accepted too, so scripts can pass unknown bits.
 */
bool fstest_parse_flags(const struct names *t, const char *s, long long *v, struct diag *d)
{
	char *copy, *tok, *save;
	long long flags = 0, n;
	bool ok = true;

	if (strcmp(s, "none") == 0 || strcmp(s, "0") == 0) {
		*v = 0;
		return true;
	}
	copy = strdup(s);
	if (!copy) {
		fstest_diag(d, "out of memory");
		return false;
	}
	for (tok = strtok_r(copy, ",|", &save); tok; tok = strtok_r(NULL, ",|", &save)) {
		const struct sys_name *f = find_name(t, tok);

		if (f) {
			flags |= f->value;
		} else if (fstest_parse_ll(tok, 0, &n)) {
			flags |= n;
		} else {
			fstest_diag(d, "unknown flag '%s'", tok);
			ok = false;
			break;
		}
	}
	free(copy);
	*v = flags;
	return ok;
}

static bool tok_is(const struct tok *t, const char *s)
{
	return !t->quoted && strcmp(t->s, s) == 0;
}

static bool parse_groups(const char *s, struct fstest_cred *cred, struct diag *d)
{
	const char *p = s;

	cred->ngroups = 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		char word[32];
		long long v;

		if (n) {
			if (cred->ngroups == FSTEST_MAX_GROUPS) {
				fstest_diag(d, "-g: more than %d groups", FSTEST_MAX_GROUPS);
				return false;
			}
			snprintf(word, sizeof(word), "%.*s",
				 (int)(n < sizeof(word) ? n : sizeof(word) - 1), p);
			if (n >= sizeof(word) || !fstest_parse_ll(word, 0, &v) || v < 0 ||
			    v > UINT32_MAX - 1) {
				fstest_diag(d, "-g: invalid gid '%.*s'", (int)n, p);
				return false;
			}
			cred->groups[cred->ngroups++] = (gid_t)v;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	if (!cred->ngroups) {
		fstest_diag(d, "-g: no gid given");
		return false;
	}
	cred->has_groups = true;
	cred->gid = cred->groups[0];
	return true;
}

/* pjdfstest's options; they end at the first word not starting with '-'. */
static int parse_options(struct toks *t, struct fstest_cred *cred, struct diag *d)
{
	int i = 0;

	memset(cred, 0, sizeof(*cred));
	while (i < t->n && !t->v[i].quoted && t->v[i].s[0] == '-') {
		const char *o = t->v[i].s, *val;
		long long v;

		if (strcmp(o, "--") == 0)
			return i + 1;
		if (strlen(o) < 2 || !strchr("Uug", o[1])) {
			fstest_diag(d, "unknown option '%s'", o);
			return -1;
		}
		if (o[2]) {
			val = o + 2;
		} else if (i + 1 < t->n) {
			val = t->v[++i].s;
		} else {
			fstest_diag(d, "option -%c needs a value", o[1]);
			return -1;
		}
		i++;
		if (o[1] == 'g') {
			if (!parse_groups(val, cred, d))
				return -1;
			continue;
		}
		if (!fstest_parse_ll(val, 0, &v) || v < -1 || v > UINT32_MAX - 1) {
			fstest_diag(d, "invalid %s '%s' - number expected",
				    o[1] == 'u' ? "uid" : "umask", val);
			return -1;
		}
		if (o[1] == 'u') {
			/* pjdfstest takes -1 as "no -u". */
			cred->has_uid = v != -1;
			cred->uid = (uid_t)v;
		} else {
			if (v < 0) {
				fstest_diag(d, "invalid umask '%s'", val);
				return -1;
			}
			cred->has_umask = true;
			cred->umask = (mode_t)v;
		}
	}
	return i;
}

static bool parse_fd(const struct tok *t, struct arg *a, int nfds, struct diag *d)
{
	long long v;

	if (tok_is(t, "AT_FDCWD")) {
		a->n = AT_FDCWD;
		a->raw_fd = true;
		return true;
	}
	if (tok_is(t, "BADFD")) {
		a->n = -1;
		a->raw_fd = true;
		return true;
	}
	/* "=N" names fd number N itself (ours). */
	if (!t->quoted && t->s[0] == '=') {
		if (!fstest_parse_ll(t->s + 1, 0, &v) || v < INT_MIN || v > INT_MAX) {
			fstest_diag(d, "invalid fd number '%s'", t->s);
			return false;
		}
		a->n = v;
		a->raw_fd = true;
		return true;
	}
	if (!fstest_parse_ll(t->s, 0, &v)) {
		fstest_diag(d, "descriptor index expected, got '%s'", t->s);
		return false;
	}
	if (v < 0 || v >= nfds) {
		fstest_diag(d, "invalid descriptor %lld (%d opened before it)", v, nfds);
		return false;
	}
	a->n = v;
	return true;
}

static bool parse_arg(const struct cmd *cmd, char type, const struct tok *t, struct arg *a,
		      int nfds, struct diag *d)
{
	static const struct names utime = { sys_utime_nsec };
	const struct sys_name *f;

	a->present = true;
	a->s = t->s;
	a->len = t->len;
	switch (type) {
	case 'p':
		if (tok_is(t, "NULL"))
			a->s = NULL;
		else if (tok_is(t, "DEADCODE"))
			a->s = FSTEST_BAD_PTR;
		return true;
	case 's':
		return true;
	case 'n':
		if (fstest_parse_ll(t->s, 0, &a->n))
			return true;
		fstest_diag(d, "number expected, got '%s'", t->s);
		return false;
	case 'z':
		if (fstest_parse_ll(t->s, 0, &a->n) && a->n >= 0 && a->n <= MAX_IO)
			return true;
		fstest_diag(d, "size 0..%u expected, got '%s'", MAX_IO, t->s);
		return false;
	case 'd':
		return parse_fd(t, a, nfds, d);
	case 'f':
		return fstest_parse_flags(&cmd->flags1, t->s, &a->n, d);
	case 'g':
		return fstest_parse_flags(&cmd->flags2, t->s, &a->n, d);
	case 'e':
	case 'k':
		f = find_name(&cmd->names, t->s);
		if (f) {
			a->n = f->value;
			return true;
		}
		if (type == 'e' && fstest_parse_ll(t->s, 0, &a->n))
			return true;
		fstest_diag(d, "unknown name '%s'", t->s);
		return false;
	case 't':
		f = find_name(&utime, t->s);
		if (f) {
			a->n = f->value;
			return true;
		}
		if (fstest_parse_ll(t->s, 10, &a->n))
			return true;
		fstest_diag(d, "nanoseconds expected, got '%s'", t->s);
		return false;
	}
	return false;
}

static const struct cmd *find_cmd(const char *name)
{
	static const struct cmd *const tables[] = { fstest_pjdfstest_cmds, fstest_extension_cmds };

	for (size_t i = 0; i < ARRAY_SIZE(tables); i++)
		for (const struct cmd *c = tables[i]; c->name; c++)
			if (strcmp(c->name, name) == 0)
				return c;
	return NULL;
}

static bool parse_call(const struct fstest_backend *be, struct toks *t, int start, int end,
		       int nfds, struct call *c, struct diag *d)
{
	const struct tok *name = &t->v[start], *tail = NULL;
	const struct cmd *cmd = name->quoted ? NULL : find_cmd(name->s);
	const char *spec;
	int i = start + 1, k = 0;
	struct diag sub;

	memset(c, 0, sizeof(*c));
	if (!cmd) {
		fstest_diag(d, "syscall '%s' not supported", name->s);
		return false;
	}
	c->cmd = cmd;
	for (spec = cmd->args; *spec && *spec != '?'; spec++, k++) {
		if (i >= end) {
			if (spec[1] == '?')
				break;
			fstest_diag(d, "%s: too few arguments", cmd->name);
			return false;
		}
		if (!parse_arg(cmd, *spec, &t->v[i], &c->a[k], nfds, &sub)) {
			fstest_diag(d, "%s: argument %d: %s", cmd->name, k + 1, sub.msg);
			return false;
		}
		i++;
	}
	if ((cmd->flags & CMD_TAIL) && i < end)
		tail = &t->v[i++];
	if (i < end) {
		fstest_diag(d, "%s: too many arguments [%s]", cmd->name, t->v[i].s);
		return false;
	}
	c->adds_fd = cmd->flags & CMD_ADDS_FD;
	if (cmd->check && !cmd->check(c, tail, &sub)) {
		fstest_diag(d, "%s: %s", cmd->name, sub.msg);
		return false;
	}
	if (cmd->need && !sys_ops_has(be->sys, (enum sys_nr)(cmd->need - 1))) {
		fstest_diag(d, "%s: not supported by the %s backend", cmd->name, be->name);
		return false;
	}
	return true;
}

bool fstest_parse_line(const struct fstest_backend *be, struct toks *t, struct line *ln,
		       struct diag *d)
{
	int i, nfds = 0, ncalls = 1;

	memset(ln, 0, sizeof(*ln));
	if (tok_is(&t->v[0], "cd")) {
		if (t->n != 2) {
			fstest_diag(d, "cd: exactly one directory expected");
			return false;
		}
		ln->is_cd = true;
		ln->cd_path = t->v[1].s;
		return true;
	}
	if (tok_is(&t->v[0], "wait")) {
		if (t->n != 1) {
			fstest_diag(d, "wait: no arguments expected");
			return false;
		}
		ln->is_wait = true;
		return true;
	}
	/* A trailing `&` of its own: the shell's background job. */
	if (t->n > 1 && tok_is(&t->v[t->n - 1], "&")) {
		ln->background = true;
		free(t->v[--t->n].s);
	}
	i = parse_options(t, &ln->cred, d);
	if (i < 0)
		return false;
	if (i >= t->n) {
		fstest_diag(d, "too few arguments: no syscall");
		return false;
	}
	for (int k = i; k < t->n; k++)
		if (tok_is(&t->v[k], ":"))
			ncalls++;
	ln->calls = calloc((size_t)ncalls, sizeof(*ln->calls));
	if (!ln->calls) {
		fstest_diag(d, "out of memory");
		return false;
	}
	while (i <= t->n) {
		int end = i;

		while (end < t->n && !tok_is(&t->v[end], ":"))
			end++;
		if (end == i) {
			fstest_diag(d, "empty call %s ':'", i == t->n ? "after" : "before");
			return false;
		}
		if (!parse_call(be, t, i, end, nfds, &ln->calls[ln->ncalls], d)) {
			if (!ln->ncalls)
				return false;
			ln->malformed = true;
			ln->bad = *d;
			return true;
		}
		if (ln->calls[ln->ncalls].adds_fd)
			nfds++;
		ln->ncalls++;
		i = end + 1;
	}
	return true;
}
