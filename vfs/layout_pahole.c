// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A kernel struct's members from pahole's text output (`pahole -C dentry
 * vmlinux`, from DWARF or BTF): each member line ends in a comment
 * "offset size" (a bit-field's "offset: bit size"); anonymous structs and
 * unions open with '{' and close with "};" and their extent; a named inline
 * union ("} d_u;") is one member.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vfs/layout_import.h"

#define PAHOLE_DEPTH 16

/* "offset size" or "offset: bit size" from the comment ending a line; 0 if none. */
static int extent(const char *line, unsigned int *off, unsigned int *size)
{
	const char *c = strrchr(line, '/');
	unsigned int bit;

	c = c ? strstr(line, "/*") : NULL;
	while (c && strstr(c + 2, "/*"))
		c = strstr(c + 2, "/*");
	if (!c)
		return 0;
	if (sscanf(c, "/* %u: %u %u */", off, &bit, size) == 3)
		return 1;
	return sscanf(c, "/* %u %u */", off, size) == 2;
}

/* The member's name in a declaration "type name[N]:bits __attribute__((...))". */
static void decl_name(const char *decl, char *name, size_t len, unsigned int *bits)
{
	char buf[256], *p, *e;

	snprintf(buf, sizeof(buf), "%s", decl);
	p = strstr(buf, "__attribute__");
	if (p)
		*p = '\0';
	*bits = 0;
	p = strrchr(buf, ':');
	if (p) {
		*bits = strtoul(p + 1, NULL, 10);
		*p = '\0';
	}
	p = strstr(buf, "(*");
	if (p) {
		/* A function pointer: "ret (*name)(args)". */
		p += 2;
		e = p + strcspn(p, ")");
	} else {
		p = buf + strcspn(buf, "[");
		while (p > buf && isspace((unsigned char)p[-1]))
			p--;
		e = p;
		while (p > buf && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			p--;
	}
	snprintf(name, len, "%.*s", (int)(e - p), p);
}

static int add(struct kstruct *ks, const char *name, char kind, int parent, const char *path,
	       char *err, size_t errlen)
{
	struct kmember *m;

	if (ks->nr == KSTRUCT_MAX_MEMBERS) {
		snprintf(err, errlen, "pahole:%s: struct %s: more than %d members", path, ks->name,
			 KSTRUCT_MAX_MEMBERS);
		return -1;
	}
	m = &ks->m[ks->nr++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->kind = kind;
	m->parent = parent;
	return 0;
}

/* The lines of struct ks->name's body from f; 0, or -1 with err. */
static int body(struct kstruct *ks, FILE *f, const char *path, unsigned int *lineno, char *err,
		size_t errlen)
{
	int stack[PAHOLE_DEPTH], depth = 0;
	char line[512];

	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t"), decl[256], name[48];
		unsigned int off, size, bits;
		struct kmember *m;

		(*lineno)++;
		if (line[0] == '}') {
			if (depth)
				break;
			return 0;
		}
		if (!strncmp(p, "/* size:", 8)) {
			sscanf(p, "/* size: %u", &ks->size);
			continue;
		}
		if (*p == '/' || *p == '\n' || !*p)
			continue;
		if (p[strcspn(p, "{")] == '{' && !strchr(p, ';')) {
			if (depth == PAHOLE_DEPTH)
				break;
			if (add(ks, "", strncmp(p, "union", 5) ? 's' : 'u',
				depth ? stack[depth - 1] : -1, path, err, errlen))
				return -1;
			stack[depth++] = ks->nr - 1;
			continue;
		}
		if (!extent(p, &off, &size))
			break;
		snprintf(decl, sizeof(decl), "%.*s", (int)strcspn(p, ";"), p);
		if (*p == '}') {
			if (!depth)
				break;
			m = &ks->m[stack[--depth]];
			m->off = off;
			m->size = size;
			/* "} d_u;": a named inline union, one member. */
			decl_name(decl + 1, name, sizeof(name), &bits);
			if (name[0]) {
				snprintf(m->name, sizeof(m->name), "%s", name);
				m->kind = 'm';
			}
			continue;
		}
		decl_name(decl, name, sizeof(name), &bits);
		if (!name[0])
			break;
		if (add(ks, name, 'm', depth ? stack[depth - 1] : -1, path, err, errlen))
			return -1;
		m = &ks->m[ks->nr - 1];
		m->off = off;
		m->size = size;
		m->bits = bits;
	}
	snprintf(err, errlen, "pahole:%s:%u: not pahole's output for struct %s", path, *lineno,
		 ks->name);
	return -1;
}

int kstruct_from_pahole(struct kstruct *ks, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[512], head[64];
	unsigned int lineno = 0;
	int ret = -1;

	if (!f) {
		snprintf(err, errlen, "pahole:%s: %s", path, strerror(errno));
		return -1;
	}
	ks->nr = 0;
	ks->size = 0;
	snprintf(err, errlen, "pahole:%s: no struct %s in it", path, ks->name);
	snprintf(head, sizeof(head), "struct %s {", ks->name);
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (strncmp(line, head, strlen(head)))
			continue;
		ret = body(ks, f, path, &lineno, err, errlen);
		if (!ret && !ks->size) {
			snprintf(err, errlen, "pahole:%s: struct %s has no '/* size: N' line", path,
				 ks->name);
			ret = -1;
		}
		break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "pahole:%s: read error", path);
		ret = -1;
	}
	fclose(f);
	return ret;
}
