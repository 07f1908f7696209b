/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fstest's insides, shared by its files: a line is tokenized
 * (tokenize.c), parsed and checked against the command tables
 * (parse.c; pjdfstest.c and extensions.c hold the commands), then run
 * call by call on a backend (run.c), printing what pjdfstest prints
 * (output.c).
 */
#ifndef VFSLAB_TOOLS_FSTEST_ENGINE_H
#define VFSLAB_TOOLS_FSTEST_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include "tools/fstest/fstest.h"
#include "tools/sys/names.h"
#include "tools/sys/sys.h"

#define MAX_ARGS 8
/* Bounds on what a script may ask for in one call or one token. */
#define MAX_IO (1U << 20)
#define MAX_TOKEN (1U << 20)
#define MAX_DIRENTS 100000

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Names an argument takes: those of @t, or only the ones @only lists. */
struct names {
	const struct sys_name *t;
	const char *only; /* "A,B,C", or NULL for all */
};

struct diag {
	char msg[512];
};

/* ---- tokens ---- */

struct tok {
	char *s;
	size_t len;
	bool quoted; /* some part was quoted: NULL, DEADCODE, ':' are literal */
};

struct toks {
	struct tok *v;
	int n, cap;
};

/* ---- parsed lines ---- */

struct call;
struct run;

struct arg {
	const char *s; /* strings; NULL or FSTEST_BAD_PTR for paths */
	size_t len;
	long long n; /* number, flags, name value, descriptor index */
	bool raw_fd; /* descriptor given as AT_FDCWD, BADFD or =N */
	bool present; /* optional arguments may be absent */
};

enum {
	CMD_ADDS_FD = 1 << 0, /* success returns a descriptor for the table */
	CMD_TAIL = 1 << 1, /* one more word, read by the check (fcntl) */
};

/*
 * Argument letters: p path (NULL, DEADCODE allowed), s string, n number,
 * z size (0..MAX_IO), d descriptor, f flags from @flags1, g flags from
 * @flags2, e one name from @names or a number, k one name from @names,
 * t nanoseconds (UTIME_NOW, UTIME_OMIT or decimal); a trailing '?' makes
 * the last argument optional.
 */
struct cmd {
	const char *name;
	const char *args;
	long (*run)(struct run *r, const struct call *c);
	unsigned int flags;
	struct names flags1;
	struct names flags2;
	struct names names;
	/* The call it makes that a backend may lack, as SYS_NR_<call> + 1. */
	unsigned int need;
	/* Checks across arguments; @tail is the CMD_TAIL word or NULL. */
	bool (*check)(struct call *c, const struct tok *tail, struct diag *d);
};

/* struct cmd's need for a command that makes call m. */
#define NEED(m) (SYS_NR_##m + 1)

struct call {
	const struct cmd *cmd;
	struct arg a[MAX_ARGS];
	bool adds_fd;
};

struct line {
	bool is_cd;
	const char *cd_path;
	bool is_wait; /* `wait`: the background lines finish first */
	bool background; /* ended in `&`: runs while later lines do */
	struct fstest_cred cred;
	struct call *calls;
	int ncalls;
	/*
	 * A call after the first was malformed: as pjdfstest, which checks
	 * each call's arguments just before making it, the calls before it
	 * run and print, then (if they all succeeded) this diagnostic.
	 */
	bool malformed;
	struct diag bad;
};

struct run {
	const struct sys_ops *sys;
	void *sc; /* the sys_ops' ctx */
	FILE *out;
	int *fds;
	int nfds;
};

/* Descriptor, string and number arguments of the call being run. */
#define S(i) (c->a[i].s)
#define N(i) (c->a[i].n)
#define FD(i) fstest_fd(r, &c->a[i])

static inline int fstest_fd(const struct run *r, const struct arg *a)
{
	return a->raw_fd ? (int)a->n : r->fds[a->n];
}

/* The command tables, each ended by an entry without a name. */
extern const struct cmd fstest_pjdfstest_cmds[];
extern const struct cmd fstest_extension_cmds[];

/* What a call that succeeded prints: "0", or its value. */
long fstest_ok0(struct run *r, long res);
long fstest_oknum(struct run *r, long res);

/* ---- run.c ---- */

/*
 * Run a parsed chain on the backend in this process: 0, or 1 after a
 * diagnostic. With @killed set (another thread sets it), an EINTR ends
 * the chain silently, as the death of a killed pjdfstest would.
 */
int fstest_exec_chain(const struct fstest_backend *be, void *ctx, const struct line *ln, FILE *out,
		      FILE *err, const char *name, unsigned long lineno, const bool *killed);

/* What a forked child hands back: its stdout and stderr. */
#define CHILD_OUT_SIZE (4U << 20)
#define CHILD_ERR_SIZE (64U << 10)
struct child_buf {
	size_t out_len, err_len;
	bool out_trunc, err_trunc;
	char out[CHILD_OUT_SIZE];
	char err[CHILD_ERR_SIZE];
};

/* ---- jobs.c: lines run in the background ---- */

/* Start @ln (background) in a child or a thread: 0, or 1 after a diagnostic. */
int fstest_job_start(const struct fstest_backend *be, void *ctx, const struct toks *t,
		     const struct line *ln, FILE *err, const char *name, unsigned long lineno);
/*
 * Let every background line finish, for at most FSTEST_JOB_GRACE_MS in
 * all, then kill what is still blocked; print their outputs in the order
 * they started. Returns how many got a diagnostic.
 */
int fstest_jobs_wait(const struct fstest_backend *be, void *ctx, FILE *out, FILE *err);
#define FSTEST_JOB_GRACE_MS 2000

void __attribute__((format(printf, 2, 3))) fstest_diag(struct diag *d, const char *fmt, ...);
void fstest_report(FILE *err, const char *name, unsigned long lineno, const char *msg);

/* ---- parse.c ---- */

bool fstest_parse_ll(const char *s, int base, long long *v);
bool fstest_parse_flags(const struct names *t, const char *s, long long *v, struct diag *d);
bool fstest_parse_line(const struct fstest_backend *be, struct toks *t, struct line *ln,
		       struct diag *d);

/* ---- tokenize.c ---- */

bool fstest_tokenize(const char *line, struct toks *t, struct diag *d);
/* Words given one by one (a command line): false if out of memory. */
bool fstest_tokens_argv(struct toks *t, int argc, char *const argv[]);
void fstest_toks_free(struct toks *t);

/* ---- output.c ---- */

void fstest_put_escaped(FILE *out, const char *s, size_t len);
void fstest_put_flags(FILE *out, const struct sys_name *t, long long v);
void fstest_put_open_flags(FILE *out, long long v);
void fstest_put_stat(FILE *out, const struct stat *st, const char *what);

#endif /* VFSLAB_TOOLS_FSTEST_ENGINE_H */
