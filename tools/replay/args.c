// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * strace's argument and result text as values: the symbols of flag
 * expressions, errno names, strings, descriptors, stat output, iovecs,
 * times. parse.c reads lines and calls; this file reads the pieces.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/compiler.h"
#include "tools/replay/args.h"
#include "tools/replay/replay.h"
#include "tools/sys/names.h"

/* ---- symbols strace prints in flag expressions ---- */

/*
 * strace's spellings that tools/sys/names has not: AT_FDCWD (no flag),
 * FASYNC and O_RSYNC (aliases), and O_LARGEFILE as glibc defines it (0 on
 * 64-bit: every open there is a large-file one).
 */
static const struct sys_name strace_syms[] = {
	{ "AT_FDCWD", AT_FDCWD },	{ "FASYNC", O_ASYNC }, { "O_RSYNC", O_RSYNC },
	{ "O_LARGEFILE", O_LARGEFILE }, { NULL, 0 },
};

static bool sym_lookup(const char *s, size_t len, long *v)
{
	static const struct sys_name *const tables[] = {
		strace_syms,	       sys_open_flags, sys_at_flags,   sys_access_modes,
		sys_seek_whences,      sys_fcntl_cmds, sys_fd_flags,   sys_rename_flags,
		sys_close_range_flags, sys_mode_bits,  sys_utime_nsec, sys_falloc_flags,
		sys_clone_flags,
	};

	/* Exit signals ride in clone flags; they never matter here. */
	if (len > 3 && !strncmp(s, "SIG", 3)) {
		*v = 0;
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
		const struct sys_name *n = sys_name_findn(tables[i], s, len);

		if (n) {
			*v = (long)n->value;
			return true;
		}
	}
	return false;
}

const char *rp_skip_ws(const char *s, const char *end)
{
	while (s < end && isspace((unsigned char)*s))
		s++;
	return s;
}

/* "O_RDONLY|O_CLOEXEC", "0644", "-1", "0x8000 /\* ... *\/": false if unknown. */
bool rp_parse_expr(const char *s, size_t len, long *out)
{
	const char *end = s + len, *c = memmem(s, len, "/*", 2);
	long v = 0;

	if (c)
		end = c;
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	s = rp_skip_ws(s, end);
	if (s == end)
		return false;
	while (s < end) {
		const char *bar = memchr(s, '|', end - s), *tend = bar ? bar : end;
		const char *t = rp_skip_ws(s, tend), *te = tend;
		long x;

		while (te > t && isspace((unsigned char)te[-1]))
			te--;
		if (t == te)
			return false;
		if (isdigit((unsigned char)*t) || *t == '-') {
			char buf[32], *e;

			if (te - t >= (long)sizeof(buf))
				return false;
			memcpy(buf, t, te - t);
			buf[te - t] = '\0';
			errno = 0;
			x = strtol(buf, &e, 0);
			if (*e || errno)
				return false;
		} else if (!sym_lookup(t, te - t, &x)) {
			return false;
		}
		v |= x;
		s = bar ? bar + 1 : end;
	}
	*out = v;
	return true;
}

/* ---- errno names ---- */

long rp_errno_lookup(const char *s, size_t len, bool *interrupted)
{
	char name[32];

	if (len >= sizeof(name))
		return 0;
	memcpy(name, s, len);
	name[len] = '\0';
	*interrupted = !strncmp(name, "ERESTART", 8) || !strcmp(name, "EINTR");
	if (!strcmp(name, "ERESTARTSYS"))
		return 512;
	if (!strcmp(name, "ERESTARTNOINTR"))
		return 513;
	if (!strcmp(name, "ERESTARTNOHAND"))
		return 514;
	if (!strcmp(name, "ERESTART_RESTARTBLOCK"))
		return 516;
	return sys_errno_by_name(name);
}

/* ---- strings ---- */

/*
 * Unescape the C string literal at s (s[0] == '"'); *end is set past it
 * and any "..." truncation mark. Returns a malloc'ed string (NUL bytes kept,
 * length in *outlen) or NULL if s is not a string.
 */
char *rp_parse_string(const char *s, const char *lim, const char **end, unsigned int *outlen,
		      bool *trunc)
{
	char *out, *o;

	if (s >= lim || *s != '"')
		return NULL;
	out = o = malloc(lim - s + 1);
	if (!out)
		return NULL;
	for (s++; s < lim && *s != '"'; s++) {
		if (*s != '\\' || s + 1 >= lim) {
			*o++ = *s;
			continue;
		}
		s++;
		switch (*s) {
		case 'n':
			*o++ = '\n';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 'v':
			*o++ = '\v';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'x': {
			int v = 0, k = 0;

			while (k < 2 && s + 1 < lim && isxdigit((unsigned char)s[1])) {
				s++;
				v = v * 16 + (isdigit((unsigned char)*s) ?
						      *s - '0' :
						      (tolower(*s) - 'a' + 10));
				k++;
			}
			*o++ = (char)v;
			break;
		}
		default:
			if (*s >= '0' && *s <= '7') {
				int v = *s - '0', k = 1;

				while (k < 3 && s + 1 < lim && s[1] >= '0' && s[1] <= '7') {
					s++;
					v = v * 8 + (*s - '0');
					k++;
				}
				*o++ = (char)v;
			} else {
				*o++ = *s;
			}
		}
	}
	*o = '\0';
	if (s < lim)
		s++;
	*trunc = false;
	if (lim - s >= 3 && !memcmp(s, "...", 3)) {
		*trunc = true;
		s += 3;
	}
	if (end)
		*end = s;
	if (outlen)
		*outlen = o - out;
	return out;
}

/* ---- splitting a call's arguments ---- */

/*
 * Split the text after "NAME(" at top-level commas, up to the closing
 * parenthesis; strings, comments and (), [], {}, <> nest. Returns the text
 * after ')' or NULL.
 */
const char *rp_split_args(const char *s, struct args *a)
{
	const char *start = s;
	int depth = 0;

	a->n = 0;
	for (; *s; s++) {
		if (*s == '"') {
			for (s++; *s && *s != '"'; s++)
				if (*s == '\\' && s[1])
					s++;
			if (!*s)
				return NULL;
			continue;
		}
		if (s[0] == '/' && s[1] == '*') {
			const char *e = strstr(s + 2, "*/");

			if (!e)
				return NULL;
			s = e + 1;
			continue;
		}
		switch (*s) {
		case '(':
		case '[':
		case '{':
		case '<':
			depth++;
			break;
		case ']':
		case '}':
		case '>':
			depth--;
			break;
		case ')':
			if (depth-- > 0)
				break;
			/* the end of the arguments: as a comma */
			__attribute__((fallthrough));
		case ',':
			if (depth > 0)
				break;
			if (a->n < MAX_ARGS) {
				const char *b = rp_skip_ws(start, s), *e = s;

				while (e > b && isspace((unsigned char)e[-1]))
					e--;
				if (e > b || *s == ',' || a->n) {
					a->s[a->n] = b;
					a->len[a->n] = e - b;
					a->n++;
				}
			}
			if (*s == ')')
				return s + 1;
			start = s + 1;
			break;
		}
	}
	return NULL;
}

/* A descriptor argument: "3", "3</path>", "AT_FDCWD", "AT_FDCWD</cwd>". */
bool rp_parse_fd(const char *s, size_t len, long *fd, const char **deco, size_t *decolen)
{
	const char *lt = memchr(s, '<', len);

	if (deco)
		*deco = NULL;
	if (lt) {
		if (deco && s[len - 1] == '>') {
			*deco = lt + 1;
			*decolen = s + len - 1 - (lt + 1);
		}
		len = lt - s;
	}
	return rp_parse_expr(s, len, fd);
}

/*
 * tmpfs's st_dev (shown with strace -v) is an anonymous device, major 0,
 * and its directories are BOGO_DIRENT_SIZE (20) bytes an entry, "." and
 * ".." included; ext4's are whole blocks, btrfs's and xfs's neither.
 */
static bool tmpfs_like(long dev_major, mode_t mode, long long size)
{
	if (dev_major > 0)
		return false;
	return !S_ISDIR(mode) || (size >= 40 && size % 20 == 0 && size % 4096 != 0);
}

/* st_dev=makedev(0x8, 0x1), st_dev=0x801 (raw) or stx_dev_major=8: the major, or -1. */
static long parse_dev_major(const char *k, size_t kl, const char *v, size_t vl)
{
	if (kl == 6 && !memcmp(k, "st_dev", 6)) {
		unsigned long long dev;

		if (vl > 8 && !memcmp(v, "makedev(", 8))
			return strtol(v + 8, NULL, 0);
		dev = strtoull(v, NULL, 0);
		return (long)(((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfffULL));
	}
	if (kl == 13 && !memcmp(k, "stx_dev_major", 13))
		return strtol(v, NULL, 0);
	return -1;
}

/*
 * "{st_mode=S_IFREG|0644, st_size=3, ...}" (or stx_mode/stx_size);
 * not_tmpfs: the st_dev or the directory size shown is not tmpfs's.
 */
bool rp_parse_stat(const char *s, size_t len, mode_t *mode, long long *size, bool *not_tmpfs)
{
	bool have_mode = false;
	const char *end = s + len;
	long major = -1;

	if (!len || *s != '{')
		return false;
	*size = 0;
	for (const char *k = s + 1; k < end;) {
		const char *eq, *comma;

		k = rp_skip_ws(k, end);
		comma = memchr(k, ',', end - k);
		if (!comma)
			comma = end - 1;
		eq = memchr(k, '=', comma - k);
		if (eq) {
			size_t kl = eq - k;
			long v;

			if ((kl == 7 && !memcmp(k, "st_mode", 7)) ||
			    (kl == 8 && !memcmp(k, "stx_mode", 8))) {
				if (rp_parse_expr(eq + 1, comma - eq - 1, &v)) {
					*mode = (mode_t)v;
					have_mode = true;
				}
			} else if ((kl == 7 && !memcmp(k, "st_size", 7)) ||
				   (kl == 8 && !memcmp(k, "stx_size", 8))) {
				*size = strtoll(eq + 1, NULL, 0);
			} else if (major < 0) {
				major = parse_dev_major(k, kl, eq + 1, comma - eq - 1);
			}
		}
		k = comma + 1;
	}
	*not_tmpfs = have_mode && !tmpfs_like(major, *mode, *size);
	return have_mode;
}

/* "[{iov_base=..., iov_len=5}, {...}]": the sum of iov_len. */
long rp_parse_iov(const char *s, size_t len)
{
	long sum = 0;
	const char *end = s + len;

	for (const char *k = s; (k = memmem(k, end - k, "iov_len=", 8)); k += 8)
		sum += strtol(k + 8, NULL, 0);
	return sum;
}

/* "[{tv_sec=1, tv_nsec=2} /\* ... *\/, ...]", "[UTIME_NOW, UTIME_NOW]", "NULL". */
char *rp_parse_times(const char *s, size_t len, unsigned int *outlen)
{
	struct timespec *ts;
	const char *end = s + len, *k = s;

	if (len == 4 && !memcmp(s, "NULL", 4))
		return NULL;
	ts = calloc(2, sizeof(*ts));
	if (!ts)
		return NULL;
	for (int i = 0; i < 2 && k < end; i++) {
		const char *sec, *nsec;

		k = rp_skip_ws(k + (i == 0 && *k == '['), end);
		if (!strncmp(k, "UTIME_NOW", 9)) {
			ts[i].tv_nsec = UTIME_NOW;
		} else if (!strncmp(k, "UTIME_OMIT", 10)) {
			ts[i].tv_nsec = UTIME_OMIT;
		} else {
			sec = memmem(k, end - k, "tv_sec=", 7);
			nsec = memmem(k, end - k, "tv_nsec=", 8);
			if (sec)
				ts[i].tv_sec = strtoll(sec + 7, NULL, 0);
			if (nsec) {
				long v = 0;
				const char *ne = nsec + 8, *e = ne;

				while (e < end && *e != '}' && *e != ',')
					e++;
				if (rp_parse_expr(ne, e - ne, &v))
					ts[i].tv_nsec = v;
			}
		}
		/* the next element starts after a top-level comma */
		{
			int depth = 0;

			for (; k < end; k++) {
				if (*k == '{')
					depth++;
				else if (*k == '}')
					depth--;
				else if (*k == ',' && !depth) {
					k++;
					break;
				}
			}
		}
	}
	*outlen = sizeof(*ts) * 2;
	return (char *)ts;
}

/* ---- the syscalls ---- */
