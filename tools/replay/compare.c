// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What differs beyond a call's return value: stat fields, listing sizes,
 * readlink and getcwd bodies; and the mismatch list the report prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/replay/engine.h"
#include "tools/replay/sys.h"
#include "vfs/vfs.h"

/* ---- comparing ---- */

static bool pseudo_prefix(const char *p)
{
	if (!p || !strncmp(p, "/dev/shm/", 9) || !strcmp(p, "/dev/shm"))
		return false;
	return !strncmp(p, "/proc/", 6) || !strncmp(p, "/sys/", 5) || !strncmp(p, "/dev/", 5) ||
	       !strcmp(p, "/proc") || !strcmp(p, "/sys") || !strcmp(p, "/dev");
}

/* /proc, /sys and /dev are not tmpfs: what they answer, a tree cannot. */
static bool pseudo_path(struct engine *e, const struct rp_call *c)
{
	long ofd = rp_object_fd(c);
	const struct rp_fdent *fe;
	struct proc *p = rp_proc_find(e, c->pid);
	char path[8192];

	if (pseudo_prefix(c->p[0]) || pseudo_prefix(c->p[1]))
		return true;
	if (!p)
		return false;
	if (ofd >= 0 && (fe = rp_fdmap_get(p->map, ofd)) && pseudo_prefix(fe->path))
		return true;
	{
		struct pspec s[2];
		int n = rp_path_specs(c, s);

		for (int i = 0; i < n; i++)
			if (rp_abs_path(p, s[i].dfd, s[i].path, path, sizeof(path)) &&
			    pseudo_prefix(path))
				return true;
	}
	return false;
}

void rp_add_mismatch(struct engine *e, long r, const char *what)
{
	struct rp_result *res = e->res;
	struct rp_mismatch *m;

	m = rp_grow(res->mm, &res->cap_mm, res->nr_mm, sizeof(*m), 32);
	if (!m)
		return;
	res->mm = m;
	m = &res->mm[res->nr_mm++];
	m->call = e->cur;
	m->got = r;
	m->pseudo = pseudo_path(e, &e->log->calls[e->cur]);
	snprintf(m->what, sizeof(m->what), "%s", what ? what : "");
}

/* Fields beyond the return value: stat output, readlink and getcwd bodies. */
bool rp_fields_differ(struct engine *e, const struct rp_call *c, long r, char *what, size_t len)
{
	const struct stat *st = &e->x.st;
	unsigned int out = rp_sys(c->sys)->out;

	if (r < 0 || r != c->ret)
		return false;
	if (out == RPX_STAT && (c->flags & RPC_ST_VALID)) {
		bool injected = rp_tree_node_of_ino(e->tree, st->st_ino) >= 0;

		if ((st->st_mode & (S_IFMT | 07777)) != (c->st_mode & (S_IFMT | 07777))) {
			snprintf(what, len, "st_mode %06o, vfslab %06o", (unsigned int)c->st_mode,
				 (unsigned int)st->st_mode);
			return true;
		}
		/* a directory's size is its filesystem's; compare tmpfs's only */
		if (S_ISDIR(c->st_mode) && !injected && (c->flags & RPC_ST_NOT_TMPFS)) {
			if (!e->discover && !e->res->dir_sizes_skipped++) {
				e->res->first_skipped_line = c->line;
				e->res->first_skipped_size = c->st_size;
			}
			return false;
		}
		if ((S_ISREG(c->st_mode) || S_ISLNK(c->st_mode) ||
		     (S_ISDIR(c->st_mode) && !injected)) &&
		    st->st_size != c->st_size) {
			snprintf(what, len, "st_size %lld, vfslab %lld", c->st_size,
				 (long long)st->st_size);
			return true;
		}
	}
	if (out == RPX_DENTS && c->nents >= 0) {
		/* the same bytes can hold other entries: count them too */
		int n = 0;

		for (long o = 0; o < r && o + 19 <= (long)e->x.bufsz;) {
			const struct linux_dirent64 *d = (const void *)(e->x.buf + o);

			if (!d->d_reclen)
				break;
			o += d->d_reclen;
			n++;
		}
		if (n != c->nents) {
			snprintf(what, len, "%d entries, vfslab %d", c->nents, n);
			return true;
		}
	}
	if ((out == RPX_LINK || out == RPX_CWD) && c->aux && r > 0) {
		size_t n = out == RPX_CWD ? (size_t)r - 1 : (size_t)r;
		size_t known = strlen(c->aux);

		if (c->flags & RPC_AUX_TRUNC)
			n = known < n ? known : n;
		if (memcmp(e->x.buf, c->aux, n)) {
			snprintf(what, len, "\"%.*s\", vfslab \"%.*s\"", (int)(n < 60 ? n : 60),
				 c->aux, (int)(n < 60 ? n : 60), e->x.buf);
			return true;
		}
	}
	return false;
}
