// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Run one script on both sides and compare.
 *
 * vfslab runs in a forked child with a fresh VFS, so that a BUG_ON, a
 * sanitizer report or a hang ends that run, not the command, and is a
 * result the shrinker can work on. The child sends each line's output back
 * through a pipe as soon as the line is done, and checks the dcache tree
 * (vfs/check.h) after every line and at teardown. The parent never touches
 * a VFS, so forking stays safe.
 *
 * The host runs the same lines through fstest's host backend: each line in
 * a child chrooted into a fresh directory, as pjdfstest would run it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/difftest/difftest.h"
#include "tools/fstest/fstest.h"
#include "tools/fstest/vfs.h"
#include "vfs/check.h"

/* ---- scripts ---- */

int dt_script_add(struct dt_script *s, const char *line, unsigned int calls)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		char **l = realloc(s->lines, cap * sizeof(*l));
		unsigned int *c;

		if (!l)
			return -1;
		s->lines = l;
		c = realloc(s->calls, cap * sizeof(*c));
		if (!c)
			return -1;
		s->calls = c;
		s->cap = cap;
	}
	s->lines[s->n] = strdup(line);
	if (!s->lines[s->n])
		return -1;
	s->calls[s->n++] = calls;
	return 0;
}

void dt_script_free(struct dt_script *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->lines[i]);
	free(s->lines);
	free(s->calls);
	memset(s, 0, sizeof(*s));
}

/* Calls in a line: a rough count (':' words), for the statistics. */
static unsigned int count_calls(const char *line)
{
	unsigned int n = 1;

	for (const char *p = line; (p = strstr(p, " : ")); p += 3)
		n++;
	return n;
}

int dt_script_read(struct dt_script *s, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (dt_script_add(s, line, count_calls(line))) {
			rc = -1;
			break;
		}
	}
	free(line);
	return ferror(f) ? -1 : rc;
}

void dt_script_print(const struct dt_script *s, FILE *f, const char *indent)
{
	for (size_t i = 0; i < s->n; i++)
		fprintf(f, "%s%s\n", indent, s->lines[i]);
}

void dt_side_free(struct dt_side *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->out[i]);
	free(s->out);
	free(s->fail);
	free(s->log);
	memset(s, 0, sizeof(*s));
}

static int side_add(struct dt_side *s, const char *text, size_t len)
{
	char **o = realloc(s->out, (s->n + 1) * sizeof(*o));

	if (!o)
		return -1;
	s->out = o;
	o[s->n] = strndup(text, len);
	if (!o[s->n])
		return -1;
	s->n++;
	return 0;
}

/* ---- the vfslab side ---- */

/*
 * A record from the child: 'L' a line's output, 'F' a failure found after
 * the last line sent, 'S' one before any line ran, 'T' one at teardown.
 */
struct rec_hdr {
	char kind;
	unsigned int len;
};

static void send_rec(int fd, char kind, const char *data, size_t len)
{
	struct rec_hdr h = { .kind = kind, .len = (unsigned int)len };
	const char *p = (const char *)&h;
	size_t left = sizeof(h);

	/* Header, then data; the parent reads until EOF. */
	for (int part = 0; part < 2; part++) {
		while (left) {
			ssize_t w = write(fd, p, left);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				_exit(3);
			p += w;
			left -= (size_t)w;
		}
		p = data;
		left = len;
	}
}

static void __attribute__((format(printf, 3, 4))) send_fail(int fd, char kind, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	send_rec(fd, kind, msg, n < 0 ? 0 : (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
}

static void __attribute__((noreturn))
vfs_child(const struct dt_runner *r, char *const *lines, size_t n, int wfd)
{
	char err[1024];
	struct fstest_vfs fv;
	struct vfs *vfs;
	unsigned long warned;
	long leaked;

	if (r->timeout)
		alarm(r->timeout);
	vfs_thread_enter();
	vfs = vfs_new(&r->cfg, err, sizeof(err));
	if (!vfs) {
		send_fail(wfd, 'S', "vfs_new: %s", err);
		_exit(1);
	}
	if (fstest_vfs_init(&fv, vfs)) {
		send_fail(wfd, 'S', "cannot create the initial task");
		_exit(1);
	}
	warned = vfs_check_warnings();
	for (size_t i = 0; i < n; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (!m)
			_exit(1);
		fstest_run_line(&fstest_vfs_backend, &fv, lines[i], m, m, "difftest", i + 1);
		fclose(m);
		send_rec(wfd, 'L', buf, len);
		free(buf);
		/* A background line may be mid-call: the tree waits for `wait`. */
		if (!fstest_jobs_pending() && vfs_check_tree(vfs, err, sizeof(err))) {
			send_fail(wfd, 'F', "vfs_check_tree: %s", err);
			_exit(0);
		}
		if (vfs_check_warnings() != warned) {
			send_fail(wfd, 'F', "WARN_ON: %lu warnings (see the log)",
				  vfs_check_warnings() - warned);
			_exit(0);
		}
	}
	fstest_jobs_end(&fstest_vfs_backend, &fv);
	fstest_vfs_fini(&fv);
	if (vfs_check_quiescent(vfs, err, sizeof(err))) {
		send_fail(wfd, 'T', "vfs_check_quiescent: %s", err);
		_exit(0);
	}
	leaked = vfs_destroy(vfs);
	vfs_thread_exit();
	if (leaked)
		send_fail(wfd, 'T', "vfs_destroy: %ld objects leaked at teardown", leaked);
	_exit(0);
}

static char *read_all(int fd, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);

	while (buf) {
		ssize_t r;

		if (n == cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	*len = n;
	return buf;
}

/* The end of what the child wrote on stderr: BUG_ON or a sanitizer report. */
static char *read_log(FILE *f)
{
	long size;
	size_t keep = 16384, got;
	char *buf;

	fflush(f);
	size = ftell(f);
	if (size <= 0)
		return NULL;
	if ((size_t)size < keep)
		keep = (size_t)size;
	buf = malloc(keep + 1);
	if (!buf || fseek(f, size - (long)keep, SEEK_SET)) {
		free(buf);
		return NULL;
	}
	got = fread(buf, 1, keep, f);
	buf[got] = '\0';
	return buf;
}

static int run_vfs(const struct dt_runner *r, char *const *lines, size_t n, struct dt_side *side)
{
	FILE *log = tmpfile();
	int p[2], status;
	size_t len, off = 0;
	char *buf;
	pid_t pid;

	memset(side, 0, sizeof(*side));
	side->fail_line = -1;
	if (!log || pipe(p)) {
		perror("vfslab difftest: pipe/tmpfile");
		if (log)
			fclose(log);
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		perror("vfslab difftest: fork");
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		dup2(fileno(log), STDERR_FILENO);
		signal(SIGPIPE, SIG_IGN);
		vfs_child(r, lines, n, p[1]);
	}
	close(p[1]);
	buf = read_all(p[0], &len);
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	while (buf && off + sizeof(struct rec_hdr) <= len) {
		struct rec_hdr h;

		memcpy(&h, buf + off, sizeof(h));
		off += sizeof(h);
		if (h.len > len - off)
			break;
		if (h.kind == 'L') {
			side_add(side, buf + off, h.len);
		} else if (!side->fail) {
			side->fail = strndup(buf + off, h.len);
			side->fail_line = h.kind == 'T' ? -1 :
					  h.kind == 'S' ? 0 :
							  (long)side->n - 1;
		}
		off += h.len;
	}
	free(buf);
	if (!side->fail && WIFSIGNALED(status)) {
		char msg[128];

		if (WTERMSIG(status) == SIGALRM)
			snprintf(msg, sizeof(msg), "hung: no answer in %u s", r->timeout);
		else
			snprintf(msg, sizeof(msg), "crashed: %s", strsignal(WTERMSIG(status)));
		side->fail = strdup(msg);
		side->fail_line = side->n < n ? (long)side->n : -1;
	} else if (!side->fail && (WEXITSTATUS(status) || side->n != n)) {
		char msg[128];

		snprintf(msg, sizeof(msg), "exited with status %d after %zu of %zu lines",
			 WEXITSTATUS(status), side->n, n);
		side->fail = strdup(msg);
		side->fail_line = side->n < n ? (long)side->n : -1;
	}
	if (side->fail)
		side->log = read_log(log);
	fclose(log);
	return 0;
}

/* ---- the host side ---- */

static int run_host(const struct dt_runner *r, char *const *lines, size_t n, struct dt_side *side)
{
	char dir[PATH_MAX];
	struct fstest_host h;
	int back, rc = -1;

	memset(side, 0, sizeof(*side));
	side->fail_line = -1;
	snprintf(dir, sizeof(dir), "%s/vfslab-difftest.XXXXXX", r->tmpdir);
	if (!intr_mkdtemp(dir)) {
		fprintf(stderr, "vfslab difftest: mkdtemp %s: %s\n", dir, strerror(errno));
		return -1;
	}
	back = open(".", O_RDONLY | O_DIRECTORY);
	/* The root the lines see: like vfslab's, a tmpfs root. */
	if (back < 0 || chmod(dir, DT_ROOT_MODE) || chdir(dir)) {
		fprintf(stderr, "vfslab difftest: %s: %s\n", dir, strerror(errno));
		goto out;
	}
	if (fstest_host_init(&h, true, stderr) < 0 || !h.root) {
		fprintf(stderr, "vfslab difftest: cannot chroot into %s\n", dir);
		goto out;
	}
	if (r->private_root && (rc = dt_host_private_root(dir, r->tmpdir)) < 0) {
		fprintf(stderr, "vfslab difftest: cannot mount a tmpfs of its own on %s: %s\n", dir,
			strerror(-rc));
		rc = -1;
		fstest_host_fini(&h);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (!m)
			break;
		fstest_run_line(&fstest_host_backend, &h, lines[i], m, m, "difftest", i + 1);
		fclose(m);
		rc = side_add(side, buf, len);
		free(buf);
		if (rc)
			break;
	}
	fstest_jobs_end(&fstest_host_backend, &h);
	fstest_host_fini(&h);
out:
	if (back >= 0) {
		if (fchdir(back))
			rc = -1;
		close(back);
	}
	intr_scratch_rm(dir);
	return rc;
}

int dt_run(struct dt_runner *r, char *const *lines, size_t n, struct dt_side *vfs,
	   struct dt_side *host)
{
	r->runs++;
	if (run_host(r, lines, n, host)) {
		dt_side_free(host);
		return -1;
	}
	if (run_vfs(r, lines, n, vfs)) {
		dt_side_free(host);
		return -1;
	}
	return 0;
}

/* ---- comparing ---- */

/* The @i-th line of @text (without '\n'), or "" past its end. */
static char *nth_line(const char *text, size_t i)
{
	const char *e;

	while (i-- && text) {
		text = strchr(text, '\n');
		if (text)
			text++;
	}
	if (!text)
		return strdup("");
	e = strchr(text, '\n');
	return strndup(text, e ? (size_t)(e - text) : strlen(text));
}

/* Index of the first output line where @a and @b differ. */
static size_t first_diff_line(const char *a, const char *b)
{
	size_t i = 0, k = 0;

	for (; a[k] && a[k] == b[k]; k++)
		if (a[k] == '\n')
			i++;
	return i;
}

void dt_compare(const struct dt_side *vfs, const struct dt_side *host, size_t n, struct dt_diff *d)
{
	size_t m = vfs->n < host->n ? vfs->n : host->n;

	memset(d, 0, sizeof(*d));
	d->line = -1;
	for (size_t i = 0; i < m; i++) {
		size_t k;

		if (!strcmp(vfs->out[i], host->out[i]))
			continue;
		k = first_diff_line(vfs->out[i], host->out[i]);
		d->line = (long)i;
		d->host = nth_line(host->out[i], k);
		d->vfs = nth_line(vfs->out[i], k);
		return;
	}
	if (vfs->fail) {
		d->vfs_failed = true;
		d->at_end = vfs->fail_line < 0;
		d->line = d->at_end ? (long)n - 1 : vfs->fail_line;
		d->vfs = strdup(vfs->fail);
		d->host =
			strdup(d->line >= 0 && (size_t)d->line < host->n ? host->out[d->line] : "");
		if (d->line < 0)
			d->line = 0;
	}
}

void dt_diff_free(struct dt_diff *d)
{
	free(d->host);
	free(d->vfs);
	memset(d, 0, sizeof(*d));
	d->line = -1;
}
