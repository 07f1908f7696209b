// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The strace log parser. Lines look like
 *
 *   [pid  123] 12:34:56.789012 openat(AT_FDCWD</cwd>, "f", O_RDONLY) = 3</cwd/f> <0.000012>
 *
 * with the pid as "[pid N] " (strace -f to a terminal) or "N " (-f -o), an
 * optional -t/-tt/-ttt/-r timestamp, -y decorations after descriptors and
 * a -T duration. A call interrupted by another pid's output is split into
 * "NAME(args <unfinished ...>" and "<... NAME resumed>rest", joined here by
 * pid. Calls are ordered where they completed (their result line), except
 * clone and its kin, which are placed where they started: the child may
 * print before its parent's clone returns.
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
#include "tools/replay/sys.h"
#include "vfs/vfs.h"

/* ---- the parse state ---- */

struct pending {
	int pid;
	unsigned int line;
	unsigned long pos;
	char name[32];
	char *text; /* the arguments so far */
};

struct parser {
	struct rp_log *log;
	struct pending *pend;
	size_t nr_pend, cap_pend;
	unsigned long *pos; /* per call: where it sorts */
	size_t cap_pos;
	int *children; /* pids some clone returned */
	size_t nr_children, cap_children;
	bool unprefixed; /* lines without a pid were seen */
	bool root_known;
	/* cwd evidence for the first process, before anyone changes it */
	bool cwd_frozen;
};

static void count_unknown(struct rp_log *log, const char *name, size_t len)
{
	struct rp_count *u;

	if (len >= sizeof(u->name))
		len = sizeof(u->name) - 1;
	for (size_t i = 0; i < log->nr_unknown; i++)
		if (strlen(log->unknown[i].name) == len &&
		    !memcmp(log->unknown[i].name, name, len)) {
			log->unknown[i].n++;
			return;
		}
	u = realloc(log->unknown, (log->nr_unknown + 1) * sizeof(*u));
	if (!u)
		return;
	log->unknown = u;
	u += log->nr_unknown++;
	memcpy(u->name, name, len);
	u->name[len] = '\0';
	u->n = 1;
}

static void malformed(struct parser *ps, unsigned int line, const char *text)
{
	struct rp_log *log = ps->log;

	if (!log->malformed++) {
		log->first_malformed_line = line;
		snprintf(log->first_malformed, sizeof(log->first_malformed), "%s", text);
	}
}

static struct rp_call *new_call(struct parser *ps, unsigned long pos)
{
	struct rp_log *log = ps->log;

	if (log->nr == log->cap) {
		size_t cap = log->cap ? log->cap * 2 : 1024;
		struct rp_call *c = realloc(log->calls, cap * sizeof(*c));
		unsigned long *p = realloc(ps->pos, cap * sizeof(*p));

		if (c)
			log->calls = c;
		if (p)
			ps->pos = p;
		if (!c || !p)
			return NULL;
		log->cap = cap;
	}
	ps->pos[log->nr] = pos;
	memset(&log->calls[log->nr], 0, sizeof(log->calls[0]));
	return &log->calls[log->nr++];
}

/* The cwd a -y decoration reveals: "AT_FDCWD</cwd>", or "3</cwd/rel>" for rel. */
static void cwd_evidence(struct parser *ps, const char *cwd, size_t len)
{
	struct rp_log *log = ps->log;

	if (ps->cwd_frozen || log->cwd_known || !len || *cwd != '/' || len >= sizeof(log->cwd))
		return;
	memcpy(log->cwd, cwd, len);
	log->cwd[len] = '\0';
	log->cwd_known = true;
}

/* Convert the split arguments of a known call; false if they do not fit. */
static bool convert(struct parser *ps, struct rp_call *c, const char *sig, const struct args *a)
{
	int na = 0, np = 0;

	for (int i = 0; sig[i]; i++) {
		const char *s = i < a->n ? a->s[i] : NULL;
		size_t len = i < a->n ? a->len[i] : 0;
		const char *deco = NULL, *end;
		size_t decolen = 0;
		bool trunc = false, not_tmpfs;
		long v = 0;

		if (!s) {
			/* Trailing arguments strace leaves out (openat's mode). */
			if (sig[i] == 'n' || sig[i] == 'N')
				na++;
			continue;
		}
		switch (sig[i]) {
		case 'f':
			if (!rp_parse_fd(s, len, &v, &deco, &decolen))
				return false;
			if (v == AT_FDCWD && deco)
				cwd_evidence(ps, deco, decolen);
			c->a[na++] = v;
			break;
		case 'n':
			if (!rp_parse_expr(s, len, &v))
				return false;
			c->a[na++] = v;
			break;
		case 'N':
			if (!rp_parse_expr(s, len, &v))
				v = 0;
			c->a[na++] = v;
			break;
		case 'O':
			/* an offset pointer: NULL, "[4096]" or "[0] => [4096]" */
			c->a[na++] = len && *s == '[' ? strtol(s + 1, NULL, 0) : -1;
			break;
		case 'p':
			if (len == 4 && !memcmp(s, "NULL", 4)) {
				c->p[np++] = NULL;
				break;
			}
			c->p[np] = rp_parse_string(s, s + len, &end, NULL, &trunc);
			if (!c->p[np])
				return false;
			np++;
			break;
		case 'o':
			if (rp_parse_stat(s, len, &c->st_mode, &c->st_size, &not_tmpfs))
				c->flags |= RPC_ST_VALID | (not_tmpfs ? RPC_ST_NOT_TMPFS : 0);
			break;
		case 'r':
		case 'a':
			c->aux = rp_parse_string(s, s + len, &end, &c->auxlen, &trunc);
			if (trunc)
				c->flags |= RPC_AUX_TRUNC;
			break;
		case 'd': {
			const char *e = memmem(s, len, "/* ", 3);

			c->nents = e ? atoi(e + 3) : -1;
			break;
		}
		case 'v':
			c->a[na++] = rp_parse_iov(s, len);
			break;
		case 't':
			c->aux = rp_parse_times(s, len, &c->auxlen);
			c->a[na++] = c->aux != NULL;
			break;
		case 'P': {
			/* "[3, 4]" or "[3<pipe:[1]>, 4<pipe:[1]>]" */
			const char *k = s + 1;

			c->a[0] = 0;
			for (int j = 0; j < 2 && k < s + len; j++) {
				c->a[1 + j] = strtol(k, (char **)&k, 10);
				c->a[0]++;
				k = memchr(k, ',', s + len - k);
				if (!k)
					break;
				k++;
			}
			na = 3;
			break;
		}
		default:
			break;
		}
	}
	return true;
}

/*
 * A minimal POSIX ACL (owner, group, other: what chmod can say) as mode
 * bits, the way posix_acl_update_mode() applies it; -1 for anything else.
 */
static long acl_mode(const struct rp_call *c)
{
	const unsigned char *v = (const unsigned char *)c->aux;
	long mode = 0;

	if (!v || (c->flags & RPC_AUX_TRUNC) || c->auxlen < 4 || (c->auxlen - 4) % 8 || v[0] != 2 ||
	    v[1] || v[2] || v[3])
		return -1;
	for (unsigned int o = 4; o < c->auxlen; o += 8) {
		unsigned int tag = v[o] | v[o + 1] << 8, perm = (v[o + 2] | v[o + 3] << 8) & 7;

		switch (tag) {
		case 0x01: /* ACL_USER_OBJ */
			mode |= perm << 6;
			break;
		case 0x04: /* ACL_GROUP_OBJ */
			mode |= perm << 3;
			break;
		case 0x20: /* ACL_OTHER */
			mode |= perm;
			break;
		default: /* named users or groups, a mask: not a mode */
			return -1;
		}
	}
	return mode;
}

/* Normalise the few calls whose arguments the engine wants in other slots. */
static void fixup(struct rp_call *c)
{
	const struct rp_sysdesc *d = rp_sys(c->sys);

	if (d->flags & RPS_ACL)
		c->a[d->mode_arg - 1] = acl_mode(c);
	/* the iovec count's slot (so preadv's offset, a[2], is read as 0) */
	if (d->flags & RPS_VEC)
		c->a[2] = c->a[3];
	/* socket(), eventfd()...: the result is the one descriptor */
	if (d->fdop == RPD_FOREIGN && !c->a[0] && c->ret >= 0) {
		c->a[0] = 1;
		c->a[1] = c->ret;
	}
}

static unsigned long clone_flags(const char *name, const char *args)
{
	const char *f;
	long v = 0;

	if (!strcmp(name, "fork"))
		return 0;
	if (!strcmp(name, "vfork"))
		return CLONE_VM | CLONE_VFORK;
	f = strstr(args, "flags=");
	if (f) {
		const char *e = f + 6;

		while (*e && *e != ',' && *e != '}' && *e != ')')
			e++;
		if (!rp_parse_expr(f + 6, e - (f + 6), &v))
			v = 0;
	}
	return (unsigned long)v;
}

/* Parse "= RET [ERRNO (text)] [<decoration>] [<duration>]" into c. */
static bool parse_return(const char *s, struct rp_call *c, const char **deco, size_t *decolen)
{
	char *e;
	long v;

	*deco = NULL;
	s = rp_skip_ws(s, s + strlen(s));
	if (*s != '=')
		return false;
	s = rp_skip_ws(s + 1, s + strlen(s));
	if (*s == '?') {
		c->flags |= RPC_RET_UNKNOWN;
		s++;
		v = 0;
	} else {
		errno = 0;
		v = strtol(s, &e, 0);
		if (e == s || errno)
			return false;
		s = e;
	}
	if (*s == '<') {
		const char *gt = strchr(s, '>');

		/* nested -yy decorations end at the last '>' before a space */
		const char *sp = strchr(s, ' ');

		if (sp) {
			const char *k = sp;

			while (k > s && k[-1] != '>')
				k--;
			if (k > s)
				gt = k - 1;
		} else {
			gt = strrchr(s, '>');
		}
		if (gt) {
			*deco = s + 1;
			*decolen = gt - (s + 1);
			s = gt + 1;
		}
	}
	s = rp_skip_ws(s, s + strlen(s));
	if (*s == 'E' && (v == -1 || (c->flags & RPC_RET_UNKNOWN))) {
		const char *n = s;
		bool intr = false;
		long err;

		while (isalnum((unsigned char)*s) || *s == '_')
			s++;
		err = rp_errno_lookup(n, s - n, &intr);
		if (intr)
			c->flags |= RPC_INTERRUPTED;
		if (!err)
			return false;
		v = -err;
		c->flags &= ~RPC_RET_UNKNOWN;
	}
	c->ret = v;
	return true;
}

static bool is_child(struct parser *ps, int pid)
{
	for (size_t i = 0; i < ps->nr_children; i++)
		if (ps->children[i] == pid)
			return true;
	return false;
}

static void add_child(struct parser *ps, int pid)
{
	int *n = rp_grow(ps->children, &ps->cap_children, ps->nr_children, sizeof(*n), 64);

	if (!n)
		return;
	ps->children = n;
	ps->children[ps->nr_children++] = pid;
}

/*
 * A complete call: name, the text after "NAME(", its line and where it
 * sorts. Unknown names are counted.
 */
static bool is_clone(const char *name)
{
	unsigned int sys;
	const char *sig;

	return rp_sys_find(name, strlen(name), &sys, &sig) && sys == RP_CLONE;
}

static void complete_call(struct parser *ps, int pid, const char *name, size_t namelen,
			  const char *text, unsigned int line, unsigned long pos)
{
	unsigned int sys;
	const char *sig;
	struct rp_call tmp, *c;
	struct args a;
	const char *rest, *deco;
	size_t decolen = 0;
	char nm[32];

	if (!rp_sys_find(name, namelen, &sys, &sig)) {
		count_unknown(ps->log, name, namelen);
		return;
	}
	memset(&tmp, 0, sizeof(tmp));
	tmp.pid = pid;
	tmp.sys = sys;
	tmp.line = line;
	rest = rp_split_args(text, &a);
	if (!rest || !parse_return(rest, &tmp, &deco, &decolen)) {
		malformed(ps, line, text);
		return;
	}
	if (sys == RP_CLONE) {
		snprintf(nm, sizeof(nm), "%.*s", (int)namelen, name);
		tmp.a[0] = (long)clone_flags(nm, text);
		if (tmp.ret > 0)
			add_child(ps, (int)tmp.ret);
	} else if (!convert(ps, &tmp, sig, &a)) {
		free(tmp.p[0]);
		free(tmp.p[1]);
		free(tmp.aux);
		malformed(ps, line, text);
		return;
	}
	if ((rp_sys(sys)->flags & RPS_ACL) &&
	    (!tmp.p[1] || strcmp(tmp.p[1], "system.posix_acl_access"))) {
		free(tmp.p[0]);
		free(tmp.p[1]);
		free(tmp.aux);
		count_unknown(ps->log, name, namelen);
		return;
	}
	fixup(&tmp);
	/* "openat(AT_FDCWD, "rel", ...) = 3</cwd/rel>" reveals the cwd. */
	if (deco && tmp.ret >= 0 &&
	    (sys == RP_OPEN || (sys == RP_OPENAT && tmp.a[0] == AT_FDCWD)) && tmp.p[0] &&
	    tmp.p[0][0] != '/' && strcmp(tmp.p[0], ".") && !strstr(tmp.p[0], "..")) {
		size_t rl = strlen(tmp.p[0]);

		if (decolen > rl + 1 && !memcmp(deco + decolen - rl, tmp.p[0], rl) &&
		    deco[decolen - rl - 1] == '/')
			cwd_evidence(ps, deco, decolen - rl - 1);
	}
	if (sys == RP_GETCWD && tmp.ret > 0 && tmp.aux && !(tmp.flags & RPC_AUX_TRUNC))
		cwd_evidence(ps, tmp.aux, strlen(tmp.aux));
	if ((sys == RP_CHDIR || sys == RP_FCHDIR) && tmp.ret == 0)
		ps->cwd_frozen = true;
	c = new_call(ps, pos);
	if (!c) {
		free(tmp.p[0]);
		free(tmp.p[1]);
		free(tmp.aux);
		return;
	}
	*c = tmp;
}

static struct pending *find_pending(struct parser *ps, int pid)
{
	for (size_t i = 0; i < ps->nr_pend; i++)
		if (ps->pend[i].pid == pid)
			return &ps->pend[i];
	return NULL;
}

static void drop_pending(struct parser *ps, struct pending *p)
{
	free(p->text);
	*p = ps->pend[--ps->nr_pend];
}

/* Skip a -t/-tt/-ttt/-r timestamp: digits, ':' and '.' then a space. */
static const char *skip_timestamp(const char *s)
{
	const char *k = s;

	while (isdigit((unsigned char)*k) || *k == ':' || *k == '.')
		k++;
	if (k > s && *k == ' ' && (memchr(s, ':', k - s) || memchr(s, '.', k - s)))
		return rp_skip_ws(k, k + strlen(k));
	return s;
}

/*
 * The pid a line starts with ("[pid N] ", "N "), past it and any
 * timestamp in *sp; -1 for the first process while its number is unknown.
 * The first prefixed pid tells which one the first process is. False for
 * a malformed prefix.
 */
static bool line_pid(struct parser *ps, char **sp, unsigned int line, int *pidp)
{
	struct rp_log *log = ps->log;
	char *s = *sp;
	int pid = 0;

	if (!strncmp(s, "[pid ", 5)) {
		pid = (int)strtol(s + 5, &s, 10);
		if (*s != ']') {
			malformed(ps, line, s);
			return false;
		}
		s = (char *)rp_skip_ws(s + 1, s + strlen(s));
	} else if (isdigit((unsigned char)*s)) {
		char *e;
		long v = strtol(s, &e, 10);

		/* "123  call(" with -f -o; a bare timestamp has ':' or '.' */
		if (*e == ' ') {
			pid = (int)v;
			s = (char *)rp_skip_ws(e, e + strlen(e));
		}
	}
	/* -r pads its relative timestamps with spaces */
	s = (char *)skip_timestamp(rp_skip_ws(s, s + strlen(s)));
	*sp = s;
	if (!pid) {
		ps->unprefixed = true;
		pid = -1; /* the first process, whatever its number */
	} else if (!ps->root_known) {
		struct pending *rp = find_pending(ps, -1);
		const char *body = skip_timestamp(s);

		/*
		 * Unprefixed lines are the first process's while it was alone.
		 * The first prefixed pid is it, unless its clone is still
		 * pending: then that is the child, and the first process is
		 * the pid that resumes the clone.
		 */
		if (rp && is_clone(rp->name) &&
		    !(!strncmp(body, "<... ", 5) &&
		      !strncmp(body + 5, rp->name, strlen(rp->name)) && !find_pending(ps, pid)))
			goto known;
		if (ps->unprefixed && !is_child(ps, pid)) {
			/* unprefixed lines were this process's: alias them */
			for (size_t i = 0; i < log->nr; i++)
				if (log->calls[i].pid == -1)
					log->calls[i].pid = pid;
			for (size_t i = 0; i < ps->nr_pend; i++)
				if (ps->pend[i].pid == -1)
					ps->pend[i].pid = pid;
		}
		log->root_pid = pid;
		ps->root_known = true;
	}
known:
	if (pid == -1 && ps->root_known)
		pid = log->root_pid;
	*pidp = pid;
	return true;
}

/* "<... NAME resumed>rest": the pid's pending call, completed. */
static void resume_call(struct parser *ps, char *s, int pid, unsigned int line, unsigned long pos)
{
	char *r = strstr(s, " resumed>");
	struct pending *p = find_pending(ps, pid);
	char *text;

	if (!r || !p || strncmp(p->name, s + 5, r - (s + 5)) ||
	    strlen(p->name) != (size_t)(r - (s + 5))) {
		malformed(ps, line, s);
		return;
	}
	r += 9;
	if (strstr(r, "<unfinished ...>")) {
		/* resumed and interrupted again: keep waiting */
		return;
	}
	text = malloc(strlen(p->text) + strlen(r) + 2);
	if (!text)
		return;
	strcpy(text, p->text);
	strcat(text, r);
	{
		struct pending pp = *p;
		bool clone = is_clone(pp.name);

		p->text = NULL;
		drop_pending(ps, p);
		complete_call(ps, pid, pp.name, strlen(pp.name), text, pp.line,
			      clone ? pp.pos : pos);
		free(pp.text);
	}
	free(text);
}

/* "NAME(args <unfinished ...>" (u points at the marker): wait for its rest. */
static void suspend_call(struct parser *ps, char *s, char *u, const char *paren, int pid,
			 unsigned int line, unsigned long pos)
{
	struct pending *np, *p = find_pending(ps, pid);
	size_t nl = paren - s;

	if (p) {
		ps->log->lost_unfinished++;
		drop_pending(ps, p);
	}
	if (nl >= sizeof(p->name)) {
		malformed(ps, line, s);
		return;
	}
	np = rp_grow(ps->pend, &ps->cap_pend, ps->nr_pend, sizeof(*np), 16);
	if (!np)
		return;
	ps->pend = np;
	p = &ps->pend[ps->nr_pend++];
	p->pid = pid;
	p->line = line;
	p->pos = pos - 1; /* before anything printed after it */
	memcpy(p->name, s, nl);
	p->name[nl] = '\0';
	*u = '\0';
	while (u > paren + 1 && isspace((unsigned char)u[-1]))
		*--u = '\0';
	p->text = strdup(paren + 1);
}

static void parse_line(struct parser *ps, char *s, unsigned int line)
{
	unsigned long pos = (unsigned long)line * 2;
	const char *paren;
	char *u;
	int pid;
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	if (!n)
		return;
	if (!strncmp(s, "strace: ", 8))
		return;
	if (!line_pid(ps, &s, line, &pid))
		return;
	if (!strncmp(s, "+++ ", 4)) {
		struct rp_call *c;

		if (strstr(s, "exited with") || strstr(s, "killed by")) {
			c = new_call(ps, pos);
			if (c) {
				c->pid = pid;
				c->sys = RP_EXIT;
				c->line = line;
			}
		}
		return;
	}
	if (!strncmp(s, "--- ", 4))
		return; /* signals */
	if (!strncmp(s, "<... ", 5)) {
		resume_call(ps, s, pid, line, pos);
		return;
	}
	paren = s;
	while (isalnum((unsigned char)*paren) || *paren == '_')
		paren++;
	if (*paren != '(' || paren == s) {
		malformed(ps, line, s);
		return;
	}
	u = strstr(s, " <unfinished ...>");
	if (u)
		suspend_call(ps, s, u, paren, pid, line, pos);
	else
		complete_call(ps, pid, s, paren - s, paren + 1, line, pos);
}

/* Sort calls by position; a stable merge sort keeps ties in order. */
static void sort_calls(struct parser *ps)
{
	struct rp_log *log = ps->log;
	size_t n = log->nr;
	size_t *idx = malloc(n * sizeof(*idx)), *tmp = malloc(n * sizeof(*tmp));
	struct rp_call *sorted = malloc(n * sizeof(*sorted));

	if (!idx || !tmp || !sorted) {
		free(idx);
		free(tmp);
		free(sorted);
		return;
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				tmp[k++] = ps->pos[idx[j]] < ps->pos[idx[i]] ? idx[j++] : idx[i++];
			while (i < mid)
				tmp[k++] = idx[i++];
			while (j < hi)
				tmp[k++] = idx[j++];
		}
		memcpy(idx, tmp, n * sizeof(*idx));
	}
	for (size_t i = 0; i < n; i++)
		sorted[i] = log->calls[idx[i]];
	free(log->calls);
	log->calls = sorted;
	log->cap = n;
	free(idx);
	free(tmp);
}

/* A call that makes a descriptor (a number the lookahead must stop at). */
static bool creates_fd(const struct rp_call *c)
{
	unsigned int fdop = rp_sys(c->sys)->fdop;

	return c->ret >= 0 && ((rp_makes_lowest_fd(c) && fdop != RPD_FOREIGN) || fdop == RPD_DUP2);
}

/*
 * What an opened descriptor turned out to be, from the same pid's later
 * calls on it: the tree builder creates the right type the first time.
 */
static void lookahead_hints(struct rp_log *log)
{
	for (size_t i = 0; i < log->nr; i++) {
		struct rp_call *c = &log->calls[i];
		const struct rp_sysdesc *d = rp_sys(c->sys);
		long fd = c->ret;

		/* open, openat, creat: the calls that open a path */
		if (d->fdop != RPD_NEW || !d->npath || fd < 0)
			continue;
		for (size_t j = i + 1; j < log->nr && j < i + 2000; j++) {
			const struct rp_call *u = &log->calls[j];
			const struct rp_sysdesc *ud = rp_sys(u->sys);
			bool empty_path;

			if (u->pid != c->pid)
				continue;
			if (u->sys == RP_EXIT || u->sys == RP_EXECVE)
				break;
			if (creates_fd(u) && u->ret == fd)
				break;
			if (!rp_uses_fd(u, fd))
				continue;
			if (ud->fdop == RPD_CLOSE)
				break;
			empty_path = ud->out == RPX_STAT && ud->npath && u->p[0] && !u->p[0][0];
			/* fstat, or fstatat on the fd itself */
			if (ud->out == RPX_STAT && (!ud->npath || empty_path) &&
			    (u->flags & RPC_ST_VALID) && u->ret == 0) {
				c->hint_mode = u->st_mode;
				c->hint_size = u->st_size;
				c->flags |= RPC_HINT_VALID | RPC_HINT_SIZE;
				break;
			}
			if ((ud->flags & RPS_DIRFD) && u->ret >= 0) {
				c->hint_mode = S_IFDIR | 0755;
				c->flags |= RPC_HINT_VALID;
				break;
			}
			if (u->a[0] == fd && u->p[0] && u->p[0][0] && u->p[0][0] != '/' &&
			    ud->path[0].dfd == 1 && ud->path[0].name == 0 && u->ret >= 0 &&
			    !empty_path) {
				/* a dirfd that resolved a relative path */
				c->hint_mode = S_IFDIR | 0755;
				c->flags |= RPC_HINT_VALID;
				break;
			}
		}
	}
}

/* The first umask() anyone calls returns what the first process started with. */
static void infer_umask(struct rp_log *log)
{
	log->umask = 022;
	for (size_t i = 0; i < log->nr; i++)
		if (log->calls[i].sys == RP_UMASK && log->calls[i].ret >= 0) {
			log->umask = (mode_t)log->calls[i].ret;
			return;
		}
}

int rp_parse(FILE *f, struct rp_log *log)
{
	struct parser ps;
	char *line = NULL, *carry = NULL;
	size_t cap = 0, carry_len = 0;
	unsigned int lineno = 0, carry_line = 0;

	memset(log, 0, sizeof(*log));
	memset(&ps, 0, sizeof(ps));
	ps.log = log;
	log->root_pid = -1;
	while (getline(&line, &cap, f) >= 0) {
		char *msg = strstr(line, "strace: Process ");

		lineno++;
		/*
		 * Without -o, strace's own "Process N attached" can land in the
		 * middle of a call's line ("vfork(strace: Process 9 attached\n
		 * <unfinished ...>"): keep the call's part, join the next line.
		 */
		if (msg && msg > line) {
			size_t n = msg - line;
			char *c = realloc(carry, carry_len + n + 1);

			if (!c)
				break;
			if (!carry_len)
				carry_line = lineno;
			carry = c;
			memcpy(carry + carry_len, line, n);
			carry_len += n;
			carry[carry_len] = '\0';
			continue;
		}
		if (carry_len) {
			char *c = realloc(carry, carry_len + strlen(line) + 1);

			if (!c)
				break;
			carry = c;
			strcpy(carry + carry_len, line);
			parse_line(&ps, carry, carry_line);
			carry_len = 0;
			continue;
		}
		parse_line(&ps, line, lineno);
	}
	if (carry_len)
		parse_line(&ps, carry, carry_line);
	free(carry);
	free(line);
	log->lines = lineno;
	log->lost_unfinished += ps.nr_pend;
	for (size_t i = 0; i < ps.nr_pend; i++)
		free(ps.pend[i].text);
	free(ps.pend);
	if (ferror(f)) {
		free(ps.pos);
		free(ps.children);
		return -1;
	}
	sort_calls(&ps);
	free(ps.pos);
	if (log->root_pid == -1 && log->nr)
		log->root_pid = log->calls[0].pid;
	for (size_t i = 0; i < log->nr; i++)
		if (log->calls[i].pid == -1)
			log->calls[i].pid = log->root_pid;
	/* count pids and replayable calls */
	{
		int *seen = NULL;
		size_t nseen = 0;

		for (size_t i = 0; i < log->nr; i++) {
			const struct rp_call *c = &log->calls[i];
			bool found = false;

			if (c->sys < RP_CLONE)
				log->replayable++;
			for (size_t k = 0; k < nseen && !found; k++)
				found = seen[k] == c->pid;
			if (!found) {
				int *ns = realloc(seen, (nseen + 1) * sizeof(*ns));

				if (ns) {
					seen = ns;
					seen[nseen++] = c->pid;
				}
			}
		}
		log->nr_pids = (int)nseen;
		free(seen);
	}
	free(ps.children);
	lookahead_hints(log);
	infer_umask(log);
	if (!log->cwd_known)
		snprintf(log->cwd, sizeof(log->cwd), "/replay-cwd");
	return 0;
}

void rp_log_free(struct rp_log *log)
{
	for (size_t i = 0; i < log->nr; i++) {
		free(log->calls[i].p[0]);
		free(log->calls[i].p[1]);
		free(log->calls[i].aux);
	}
	free(log->calls);
	free(log->unknown);
	memset(log, 0, sizeof(*log));
}
