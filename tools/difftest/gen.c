// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * difftest's generator: random lines in fstest's language over a handful
 * of names (a, b, c, d, a few levels deep), run as root and as other uids,
 * so that creates, renames, links, removals and mode changes keep hitting
 * each other. A line never depends on what earlier lines returned, so any
 * subset of a script is a valid script: the shrinker relies on that.
 *
 * Left out because the answer is the host's, not Linux's VFS's:
 *  - inode numbers, times and blocks: stat asks only for type, mode,
 *    nlink, uid, gid and size (tmpfs directory sizes are exact);
 *  - fds 0-2, which are the host process's stdio: only close, close_range
 *    and dup2's target name them;
 *  - device nodes, which reach a host driver: mknod c/b only as a non-root
 *    uid, where it must fail with EPERM;
 *  - blocking on the names above: an O_RDONLY/O_WRONLY open that may
 *    meet a fifo is O_NONBLOCK, and a line that may hold a blocking fifo
 *    never reads;
 *  - fs.protected_*, and the host tmpfs' large folios and size: struct
 *    dt_policy;
 *  - a socket that listens: bind makes socket inodes, connect is refused;
 *  - mounts on the scratch root, MS_MOVE and shared propagation
 *    (gen_mount.c).
 *
 * Blocking fifo pairs (gen_fifo_pair) are the one exception to "never
 * block": four lines of their own on a name no other line uses.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/difftest/gen.h"

bool gen_avoid(const struct gen *g, unsigned int what)
{
	return g->pol->avoid & what;
}

/* splitmix64: one 64-bit state, good enough and reproducible. */
static uint64_t next(struct gen *g)
{
	uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

unsigned int gen_rnd(struct gen *g, size_t n)
{
	return (unsigned int)(next(g) % n);
}

bool gen_chance(struct gen *g, unsigned int pct)
{
	return gen_rnd(g, 100) < pct;
}

void __attribute__((format(printf, 2, 3))) gen_put(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(g->line + g->len, sizeof(g->line) - g->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		g->len += (size_t)n < sizeof(g->line) - g->len ? (size_t)n :
								 sizeof(g->line) - g->len - 1;
}

/* Start the next call of the chain. */
void gen_call(struct gen *g, const char *name)
{
	gen_put(g, "%s%s", g->ncalls ? " : " : "", name);
	g->ncalls++;
}

/* ---- arguments ---- */

const char *const gen_names[4] = { "a", "b", "c", "d" };

const char *const gen_pc_names[8] = {
	"_PC_NAME_MAX",	  "_PC_LINK_MAX", "_PC_ASYNC_IO", "_PC_FILESIZEBITS",
	"_PC_2_SYMLINKS", "_PC_PATH_MAX", "_PC_PIPE_BUF", "_PC_SYMLINK_MAX",
};

void gen_path(struct gen *g, char *buf)
{
	unsigned int r = gen_rnd(g, 1000), depth;
	size_t n = 0;

	if (r < 8) {
		strcpy(buf, "''"); /* ENOENT, or the fd itself with AT_EMPTY_PATH */
		return;
	}
	if (r < 16) {
		/* NAME_MAX and one past it. */
		sprintf(buf, "%s{%u*n}", gen_chance(g, 50) ? "a/" : "",
			gen_chance(g, 50) ? 255 : 256);
		return;
	}
	if (r < 24) {
		/* Deep: a chain that may exist, or past PATH_MAX. */
		static const unsigned int deep[] = { 5, 8, 40, 2047, 2048 };

		sprintf(buf, "%s{%u*%s/}%s", gen_chance(g, 20) ? "/" : "", GEN_PICK(g, deep),
			gen_chance(g, 70) ? GEN_PICK(g, gen_names) : "..", GEN_PICK(g, gen_names));
		return;
	}
	r = gen_rnd(g, 100);
	depth = r < 45 ? 1 : r < 75 ? 2 : r < 92 ? 3 : 4 + gen_rnd(g, 3);
	if (gen_chance(g, 8))
		buf[n++] = '/';
	for (unsigned int i = 0; i < depth; i++) {
		const char *c;

		r = gen_rnd(g, 100);
		c = r < 84 ? GEN_PICK(g, gen_names) : r < 91 ? ".." : r < 95 ? "." : "e";
		n += (size_t)sprintf(buf + n, "%s%s", i ? "/" : "", c);
	}
	if (gen_chance(g, 4))
		buf[n++] = '/';
	buf[n] = '\0';
}

/* A symlink's body: relative, absolute, dangling, looping, odd. */
void gen_target(struct gen *g, char *buf, const char *linkpath)
{
	unsigned int r = gen_rnd(g, 100);

	if (r < 50) {
		gen_path(g, buf);
	} else if (r < 62) {
		buf[0] = '/';
		gen_path(g, buf + 1);
		if (!strcmp(buf, "/''"))
			strcpy(buf, "/");
	} else if (r < 72) {
		strcpy(buf, "../");
		gen_path(g, buf + 3);
		if (!strcmp(buf, "../''"))
			strcpy(buf, "..");
	} else if (r < 80) {
		strcpy(buf, linkpath); /* itself: a loop */
	} else if (r < 86) {
		snprintf(buf, GEN_WORD, "%s/%.4000s", GEN_PICK(g, gen_names), linkpath);
	} else if (r < 90) {
		strcpy(buf, gen_chance(g, 50) ? "zz/y" : "zz");
	} else if (r < 95) {
		strcpy(buf, gen_chance(g, 50) ? "." : "..");
	} else if (r < 98) {
		sprintf(buf, "{%u*t}", gen_chance(g, 50) ? 4095 : 4096);
	} else {
		strcpy(buf, "''");
	}
}

/* Every mode the generator writes passes here: the policy's rules. */
unsigned int gen_allowed_mode(const struct gen *g, unsigned int m)
{
	if (gen_avoid(g, DT_AVOID_SETID))
		m &= ~(unsigned int)(S_ISUID | S_ISGID);
	return m;
}

unsigned int gen_mode(struct gen *g)
{
	static const unsigned int modes[] = {
		0644,  0600,  0755,  0777,  0700,  0444,  0000,	 0640,	0750,  0770,  0775,
		0707,  0070,  0007,  0111,  0222,  0666,  04755, 02755, 02775, 02770, 06777,
		04000, 02000, 01777, 01775, 01755, 01770, 01700, 03777, 07777, 07755,
	};

	return gen_allowed_mode(g, gen_chance(g, 10) ? gen_rnd(g, 010000) : GEN_PICK(g, modes));
}

void gen_put_mode(struct gen *g)
{
	gen_arg(g, "0%o", gen_mode(g));
}

void gen_owner(struct gen *g)
{
	static const char *const uids[] = { "-1", "0", "1000", "65534", "2000" };
	static const char *const gids[] = { "-1", "0", "100", "1000", "65534" };

	gen_arg(g, "%s %s", GEN_PICK(g, uids), GEN_PICK(g, gids));
}

/* stat's fields: never inode, blocks or times (the host's, not Linux's). */
void gen_fields(struct gen *g)
{
	static const char *const f[] = { "type", "mode", "nlink", "uid", "gid", "size" };
	unsigned int n = 1 + gen_rnd(g, 4), first = gen_rnd(g, GEN_ARRAY_SIZE(f));

	gen_put(g, " ");
	for (unsigned int i = 0; i < n; i++)
		gen_put(g, "%s%s", i ? "," : "",
			f[(first + i * (1 + gen_rnd(g, 2))) % GEN_ARRAY_SIZE(f)]);
}

/* A descriptor: mostly the latest this line added, never fd 0-2. */
void gen_fd(struct gen *g)
{
	static const char *const raw[] = {
		"BADFD", "=3", "=4", "=5", "=9", "=1023", "=1024", "=-5"
	};

	if (g->nfds && !gen_chance(g, 7))
		gen_arg(g, "%u", gen_chance(g, 60) ? g->nfds - 1 : gen_rnd(g, g->nfds));
	else
		gen_arg(g, "%s", GEN_PICK(g, raw));
}

void gen_dirfd(struct gen *g)
{
	if (!g->nfds || gen_chance(g, 35))
		gen_arg(g, "AT_FDCWD");
	else
		gen_fd(g);
}

void gen_put_path(struct gen *g)
{
	char p[GEN_WORD];

	gen_path(g, p);
	gen_arg(g, "%s", p);
}

void gen_data(struct gen *g)
{
	static const char *const s[] = { "x", "abc", "hello", "0123456789", "{100*z}", "''" };

	gen_arg(g, "%s", GEN_PICK(g, s));
}

void gen_offset(struct gen *g)
{
	static const char *const o[] = { "0",
					 "0",
					 "1",
					 "3",
					 "10",
					 "100",
					 "4096",
					 "8191",
					 "-1",
					 "0x7fffffffffffffff",
					 "1099511627776" };
	const char *v = GEN_PICK(g, o);

	/* The --avoid'ed values become ordinary ones: the stream stays the same. */
	if (v[1] == 'x' && gen_avoid(g, DT_AVOID_POS_MAX))
		v = "8192";
	if (strlen(v) > 10 && v[1] != 'x' && gen_avoid(g, DT_AVOID_TIB))
		v = "8192";
	gen_arg(g, "%s", v);
}

void gen_length(struct gen *g)
{
	static const char *const l[] = {
		"0", "0", "1", "5", "12", "100", "4096", "70000", "1099511627776", "-1"
	};
	const char *v = GEN_PICK(g, l);

	if (strlen(v) > 10 && gen_avoid(g, DT_AVOID_TIB))
		v = "1048576";
	gen_arg(g, "%s", v);
}

void gen_size(struct gen *g)
{
	static const unsigned int z[] = { 0, 1, 3, 10, 100, 100, 4096 };

	gen_arg(g, "%u", GEN_PICK(g, z));
}

/* utimensat's times: values, UTIME_NOW, UTIME_OMIT, out of range. */
void gen_times(struct gen *g)
{
	static const char *const ns[] = { "0",	       "0",	     "UTIME_NOW", "UTIME_OMIT",
					  "999999999", "1000000000", "-1" };

	for (int i = 0; i < 2; i++) {
		unsigned int sec = gen_chance(g, 50) ? 0 : 1000000000u;
		const char *n = GEN_PICK(g, ns);

		if ((n[0] == '1' || n[0] == '-') && gen_avoid(g, DT_AVOID_UTIMES_NSEC))
			n = "0";
		gen_arg(g, "%u %s", sec, n);
	}
}

/* A plain name one or two levels down: where setup lines build. */
void gen_short_path(struct gen *g, char *buf)
{
	if (gen_chance(g, 50))
		sprintf(buf, "%s", GEN_PICK(g, gen_names));
	else
		sprintf(buf, "%s/%s", GEN_PICK(g, gen_names), GEN_PICK(g, gen_names));
}

/* ---- lines ---- */

static void creds(struct gen *g)
{
	/* -u always with -g: otherwise the host's supplementary groups leak in. */
	static const char *const who[] = {
		"",
		"",
		"",
		"",
		"",
		"-u 0 -g 0 ",
		"-u 0 -g 100 ",
		"-u 1000 -g 1000 ",
		"-u 1000 -g 1000 ",
		"-u 1000 -g 1000,100 ",
		"-u 1000 -g 100,1000 ",
		"-u 65534 -g 65534 ",
		"-u 65534 -g 65534 ",
		"-u 65534 -g 65534,1000 ",
		"-u 65534 -g 1000 ",
		"-u 2000 -g 2000 ",
		"-u 2000 -g 100 ",
	};
	static const unsigned int umasks[] = { 022, 077, 002, 027, 0777, 07777, 01000 };
	const char *w = GEN_PICK(g, who);

	if (g->pol->uid >= 0) {
		/* --uid: every line but the set-up ones as that user. */
		g->root = g->pol->uid == 0;
		gen_put(g, "-u %ld -g %ld ", g->pol->uid, g->pol->gid);
	} else {
		g->root = !*w || !strncmp(w, "-u 0 ", 5);
		gen_put(g, "%s", w);
	}
	if (gen_chance(g, 12))
		gen_put(g, "-U 0%o ", GEN_PICK(g, umasks));
}

/*
 * Root building something at a short path, so that later lines find a
 * tree to work on rather than ENOENT everywhere.
 */
static void gen_setup(struct gen *g)
{
	static const unsigned int open_modes[] = { 0777, 0755, 0775, 0770, 01775 };
	char p[64], q[64];
	unsigned int r = gen_rnd(g, 100);

	g->root = true;
	gen_short_path(g, p);
	if (r < 8) {
		/* One level deeper down a chain: deep trees grow over a script. */
		gen_call(g, "mkdir");
		gen_arg(g, "{%u*%s/}%s 0%o", 1 + gen_rnd(g, 8), GEN_PICK(g, gen_names),
			GEN_PICK(g, gen_names), gen_allowed_mode(g, GEN_PICK(g, open_modes)));
	} else if (r < 55) {
		gen_call(g, "mkdir");
		gen_arg(g, "%s 0%o", p, gen_allowed_mode(g, GEN_PICK(g, open_modes)));
	} else if (r < 72) {
		gen_call(g, "create");
		gen_arg(g, "%s", p);
		gen_put_mode(g);
	} else if (r < 82) {
		gen_short_path(g, q);
		gen_call(g, "symlink");
		gen_arg(g, "%s %s", gen_chance(g, 70) ? q : "..", p);
	} else if (r < 87) {
		if (gen_avoid(g, DT_AVOID_FIFO)) {
			gen_call(g, "mknod");
			gen_arg(g, "%s s", p);
			gen_put_mode(g);
			gen_arg(g, "0 0");
		} else {
			gen_call(g, "mkfifo");
			gen_arg(g, "%s", p);
			gen_put_mode(g);
		}
	} else if (r < 92) {
		gen_short_path(g, q);
		gen_call(g, "link");
		gen_arg(g, "%s %s", q, p);
	} else if (r < 96 && !g->pol->no_devices) {
		/* null, zero or full: the devices both sides drive alike. */
		static const char *const mem[] = { "3", "5", "7" };

		gen_call(g, "mknod");
		gen_arg(g, "%s c", p);
		gen_put_mode(g);
		gen_arg(g, "1 %s", GEN_PICK(g, mem));
	} else {
		gen_call(g, "chown");
		gen_arg(g, "%s %s %s", p, gen_chance(g, 50) ? "1000" : "65534",
			gen_chance(g, 50) ? "1000" : "100");
	}
}

static void gen_line(struct gen *g, bool setup)
{
	unsigned int r, n;

	g->len = 0;
	g->line[0] = '\0';
	g->ncalls = g->nfds = 0;
	g->may_block = g->tmpfile = g->getdents = g->lseek = false;
	if (setup) {
		gen_setup(g);
		return;
	}
	creds(g);
	r = gen_rnd(g, 100);
	if (r < 10 && !g->pol->no_mounts && !gen_avoid(g, DT_AVOID_MOUNTS)) {
		/* Mounts (EPERM but as root) and openat2. */
		if (gen_chance(g, 55))
			gen_mountop(g);
		else
			gen_openat2(g);
	} else if (r < 42) {
		/* A few namespace calls, perhaps a look at the result. */
		n = 1 + gen_chance(g, 35) + gen_chance(g, 15);
		while (n--)
			gen_nsop(g, false);
		if (gen_chance(g, 25)) {
			gen_call(g, gen_chance(g, 50) ? "stat" : "lstat");
			gen_put_path(g);
			gen_fields(g);
		}
	} else if (r < 90) {
		/* An open and what can be done with its descriptor. */
		gen_open(g);
		n = 1 + gen_rnd(g, 6);
		while (n--)
			gen_fdop(g);
	} else if (r < 95) {
		gen_call(g, "chdir");
		gen_put_path(g);
		if (gen_chance(g, 40))
			gen_call(g, "getcwd");
		else
			gen_nsop(g, false);
	} else {
		/* Make a name, then use it through a descriptor. */
		gen_nsop(g, false);
		gen_open(g);
		n = 1 + gen_rnd(g, 3);
		while (n--)
			gen_fdop(g);
	}
}

/*
 * A blocking fifo pair on "q", which only these lines name: one end opened
 * in the background (it waits for the other), the other in the
 * foreground, then `wait`. Both ends as the same user on a fifo anyone
 * may open: they open or fail together, so nothing waits for long, and
 * which runs first changes no output. Returns the lines added, or -1.
 */
static int gen_fifo_pair(struct gen *g, struct dt_script *s)
{
	static const char *const data[] = { "x", "ping", "0123456789abcdef" };
	const char *d = GEN_PICK(g, data);
	bool bg_reads = gen_chance(g, 50);
	unsigned int n = 1 + gen_rnd(g, 20);
	char who[64] = "";
	char line[3][256];

	if (g->pol->uid >= 0)
		snprintf(who, sizeof(who), "-u %ld -g %ld ", g->pol->uid, g->pol->gid);
	snprintf(line[0], sizeof(line[0]), "%smkfifo q 0666", who);
	if (bg_reads) {
		snprintf(line[1], sizeof(line[1]), "%sopen q O_RDONLY : read 0 %u &", who, n);
		snprintf(line[2], sizeof(line[2]), "%sopen q O_WRONLY : write 0 %s", who, d);
	} else {
		snprintf(line[1], sizeof(line[1]), "%sopen q O_WRONLY : write 0 %s &", who, d);
		snprintf(line[2], sizeof(line[2]), "%sopen q O_RDONLY : read 0 %u", who, n);
	}
	if (dt_script_add(s, line[0], 1) || dt_script_add(s, line[1], 2) ||
	    dt_script_add(s, line[2], 2) || dt_script_add(s, "wait", 0))
		return -1;
	return 4;
}

int dt_generate(struct dt_script *s, uint64_t seed, size_t nlines, const struct dt_policy *pol)
{
	struct gen g = { .s = seed, .pol = pol };

	/* A tenth of the lines rebuild, most of them at the start. */
	size_t setup = nlines / 10 < 5 ? 5 : nlines / 10;

	for (size_t i = 0; i < nlines; i++) {
		if (i >= setup && i + 4 <= nlines && !gen_avoid(&g, DT_AVOID_FIFO) &&
		    gen_chance(&g, 2)) {
			int added = gen_fifo_pair(&g, s);

			if (added < 0)
				return -1;
			i += (size_t)added - 1;
			continue;
		}
		gen_line(&g, i < setup || gen_chance(&g, 7));
		if (dt_script_add(s, g.line, g.ncalls))
			return -1;
	}
	return 0;
}
