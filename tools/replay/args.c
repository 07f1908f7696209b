// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * strace's argument and result text as values: the symbols of flag
 * expressions, errno names, strings, descriptors, stat output, iovecs,
 * times. parse.c reads lines and calls; this file reads the pieces.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/compiler.h"
#include "tools/replay/args.h"
#include "tools/replay/replay.h"
#include "vfs/vfs.h"

/* ---- symbols strace prints in flag expressions ---- */

struct sym {
	const char *name;
	long value;
};

#define S(x)                  \
	{                     \
#x, (long)(x) \
	}
static const struct sym syms[] = {
	S(O_RDONLY),
	S(O_WRONLY),
	S(O_RDWR),
	S(O_CREAT),
	S(O_EXCL),
	S(O_NOCTTY),
	S(O_TRUNC),
	S(O_APPEND),
	S(O_NONBLOCK),
	S(O_NDELAY),
	S(O_DSYNC),
	S(O_SYNC),
	S(O_RSYNC),
	S(O_DIRECT),
	S(O_LARGEFILE),
	S(O_DIRECTORY),
	S(O_NOFOLLOW),
	S(O_NOATIME),
	S(O_CLOEXEC),
	S(O_PATH),
	S(O_TMPFILE),
	S(O_ASYNC),
	{ "FASYNC", O_ASYNC },
	S(AT_FDCWD),
	S(AT_SYMLINK_NOFOLLOW),
	S(AT_REMOVEDIR),
	S(AT_SYMLINK_FOLLOW),
	S(AT_NO_AUTOMOUNT),
	S(AT_EMPTY_PATH),
	S(AT_EACCESS),
	S(AT_STATX_SYNC_AS_STAT),
	S(AT_STATX_FORCE_SYNC),
	S(AT_STATX_DONT_SYNC),
	{ "AT_RECURSIVE", 0x8000 },
	S(F_OK),
	S(R_OK),
	S(W_OK),
	S(X_OK),
	S(SEEK_SET),
	S(SEEK_CUR),
	S(SEEK_END),
	S(SEEK_DATA),
	S(SEEK_HOLE),
	S(F_DUPFD),
	S(F_GETFD),
	S(F_SETFD),
	S(F_GETFL),
	S(F_SETFL),
	S(F_GETLK),
	S(F_SETLK),
	S(F_SETLKW),
	S(F_SETOWN),
	S(F_GETOWN),
	S(F_SETSIG),
	S(F_GETSIG),
	S(F_SETLEASE),
	S(F_GETLEASE),
	S(F_NOTIFY),
	S(F_DUPFD_CLOEXEC),
	S(F_SETPIPE_SZ),
	S(F_GETPIPE_SZ),
	S(F_OFD_GETLK),
	S(F_OFD_SETLK),
	S(F_OFD_SETLKW),
	{ "F_ADD_SEALS", 1033 },
	{ "F_GET_SEALS", 1034 },
	S(FD_CLOEXEC),
	S(RENAME_NOREPLACE),
	S(RENAME_EXCHANGE),
	S(RENAME_WHITEOUT),
	{ "CLOSE_RANGE_UNSHARE", CLOSE_RANGE_UNSHARE },
	{ "CLOSE_RANGE_CLOEXEC", CLOSE_RANGE_CLOEXEC },
	S(S_IFREG),
	S(S_IFDIR),
	S(S_IFLNK),
	S(S_IFCHR),
	S(S_IFBLK),
	S(S_IFIFO),
	S(S_IFSOCK),
	S(S_ISUID),
	S(S_ISGID),
	S(S_ISVTX),
	S(S_IRWXU),
	S(S_IRUSR),
	S(S_IWUSR),
	S(S_IXUSR),
	S(S_IRWXG),
	S(S_IRGRP),
	S(S_IWGRP),
	S(S_IXGRP),
	S(S_IRWXO),
	S(S_IROTH),
	S(S_IWOTH),
	S(S_IXOTH),
	S(UTIME_NOW),
	S(UTIME_OMIT),
	{ "FALLOC_FL_KEEP_SIZE", 0x01 },
	{ "FALLOC_FL_PUNCH_HOLE", 0x02 },
	{ "FALLOC_FL_ZERO_RANGE", 0x10 },
	S(CLONE_VM),
	S(CLONE_FS),
	S(CLONE_FILES),
	S(CLONE_SIGHAND),
	S(CLONE_PIDFD),
	S(CLONE_PTRACE),
	S(CLONE_VFORK),
	S(CLONE_PARENT),
	S(CLONE_THREAD),
	S(CLONE_NEWNS),
	S(CLONE_SYSVSEM),
	S(CLONE_SETTLS),
	S(CLONE_PARENT_SETTID),
	S(CLONE_CHILD_CLEARTID),
	S(CLONE_DETACHED),
	S(CLONE_UNTRACED),
	S(CLONE_CHILD_SETTID),
	S(CLONE_NEWCGROUP),
	S(CLONE_NEWUTS),
	S(CLONE_NEWIPC),
	S(CLONE_NEWUSER),
	S(CLONE_NEWPID),
	S(CLONE_NEWNET),
	S(CLONE_IO),
	{ "CLONE_CLEAR_SIGHAND", 0x100000000L },
	{ "CLONE_INTO_CGROUP", 0x200000000L },
};
#undef S

static bool sym_lookup(const char *s, size_t len, long *v)
{
	/* Exit signals ride in clone flags; they never matter here. */
	if (len > 3 && !strncmp(s, "SIG", 3)) {
		*v = 0;
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(syms); i++)
		if (strlen(syms[i].name) == len && !memcmp(syms[i].name, s, len)) {
			*v = syms[i].value;
			return true;
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
	for (int e = 1; e < 200; e++) {
		const char *n = strerrorname_np(e);

		if (n && !strcmp(n, name))
			return e;
	}
	return 0;
}

const char *rp_errname(long ret, char *buf, size_t len)
{
	const char *n;

	if (ret >= 0) {
		snprintf(buf, len, "%ld", ret);
		return buf;
	}
	n = strerrorname_np((int)-ret);
	if (n)
		return n;
	snprintf(buf, len, "errno %ld", -ret);
	return buf;
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

/* "{st_mode=S_IFREG|0644, st_size=3, ...}" (or stx_mode/stx_size). */
bool rp_parse_stat(const char *s, size_t len, mode_t *mode, long long *size)
{
	bool have_mode = false;
	const char *end = s + len;

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
			}
		}
		k = comma + 1;
	}
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
