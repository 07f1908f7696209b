// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Invariant checkers: what must hold of the dcache tree, the fd tables and
 * the reference counts between syscalls. `vfslab torture` runs them as it
 * goes and at quiescence; the tests run them on states they corrupt on
 * purpose. The kernel has no single equivalent; the pieces echo
 * d_walk()-based debugging (shrink_dcache_for_umount's "dentry still in
 * use" report), the fdtable sanity checks of alloc_fd(), and kmemleak's
 * "every allocated object is reachable".
 *
 * The exact walkers (vfs_check_tree and after) take no locks of the objects
 * they read, since their caller guarantees no syscall is in flight and a
 * lock left held by a corrupted state must not hang the report; the one
 * exception is the d_lookup() that checks a hashed name, which runs only
 * once that dentry's count is known to be right.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "vfs/check.h"
#include "vfs/mount.h"
#include "vfs/ptrmap.h"

/* vfs/namei.c's BOGO_DIRENT_SIZE: tmpfs' directory size per name. */
#define CK_DIRENT_SIZE 20
/* More dentries than this reachable from the root means a cycle. */
#define CK_MAX_DENTRIES (1u << 22)
#define CK_PATH_MAX 512

static __printf(3, 4) int ck_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* A dentry's path for messages; bounded, so a corrupt chain cannot hang it. */
static const char *ck_path(const struct vfs *v, const struct dentry *d, char *buf, size_t len)
{
	const struct dentry *chain[64];
	int n = 0;
	size_t pos = 0;

	while (n < (int)ARRAY_SIZE(chain) && !IS_ROOT(v, d)) {
		chain[n++] = d;
		d = d_parent(v, d);
	}
	buf[0] = '\0';
	if (!n)
		snprintf(buf, len, "/");
	if (n == (int)ARRAY_SIZE(chain))
		pos = snprintf(buf, len, "...");
	for (int i = n - 1; i >= 0 && pos < len; i--) {
		const struct qstr *q = dentry_name(v, chain[i]);
		unsigned int l = min_t(unsigned int, READ_ONCE(q->len), 255);

		pos += snprintf(buf + pos, len - pos, "/%.*s", (int)l, READ_ONCE(q->name));
	}
	return buf;
}

/*
 * A dentry someone holds a reference on: alive and, if positive, with a
 * type that matches its inode. Read under d_seq, since a negative dentry
 * may be instantiated meanwhile.
 */
static int ck_live_dentry(struct vfs *v, struct dentry *d, const char *who, bool want_positive,
			  char *err, size_t len)
{
	char p[CK_PATH_MAX];
	struct inode *inode;
	unsigned int seq, flags;
	int count = d_count(v, d);

	if (count <= 0 || (d_flags(v, d) & DCACHE_DENTRY_KILLED))
		return ck_fail(err, len, "%s: dentry %s is dead (d_count %d, d_flags 0x%x)", who,
			       ck_path(v, d, p, sizeof(p)), count, d_flags(v, d));
	do {
		seq = raw_seqcount_begin(dentry_seq(v, d));
		inode = d_inode_rcu(v, d);
		flags = d_flags(v, d);
	} while (read_seqcount_retry(dentry_seq(v, d), seq));
	if ((flags & DCACHE_ENTRY_TYPE) != d_flags_for_inode(inode))
		return ck_fail(err, len, "%s: dentry %s has type 0x%x but inode %lu (mode 0%o)",
			       who, ck_path(v, d, p, sizeof(p)), flags & DCACHE_ENTRY_TYPE,
			       inode ? inode->i_ino : 0, inode ? inode->i_mode : 0);
	if (want_positive && !inode)
		return ck_fail(err, len, "%s: dentry %s is negative", who,
			       ck_path(v, d, p, sizeof(p)));
	if (inode && atomic_read(&inode->i_count) <= 0)
		return ck_fail(err, len, "%s: inode %lu of %s has i_count %d", who, inode->i_ino,
			       ck_path(v, d, p, sizeof(p)), atomic_read(&inode->i_count));
	return 0;
}

/* A file whose reference (a slot's or ours) pins it. */
static int ck_held_file(struct vfs *v, struct file *f, int fd, char *err, size_t len)
{
	struct dentry *d = file_path(v, f)->dentry;
	char who[32], p[CK_PATH_MAX];

	snprintf(who, sizeof(who), "fd %d", fd);
	if (file_count(v, f) == 0)
		return ck_fail(err, len, "%s: installed file has f_count 0", who);
	if (ck_live_dentry(v, d, who, true, err, len))
		return -1;
	if (d_inode(v, d) != file_inode(v, f))
		return ck_fail(err, len, "%s: file's inode %lu is not its dentry %s's inode %lu",
			       who, file_inode(v, f)->i_ino, ck_path(v, d, p, sizeof(p)),
			       d_inode(v, d)->i_ino);
	return 0;
}

int vfs_check_fd(struct task *t, int fd, char *err, size_t len)
{
	struct vfs *v = t->vfs;
	struct file *f;
	int ret;

	if (fd < 0)
		return 1;
	f = fget_raw(t, fd);
	if (!f)
		return 1;
	ret = ck_held_file(v, f, fd, err, len);
	fput(v, f);
	return ret;
}

int vfs_check_path(struct task *t, const char *name, bool follow, char *err, size_t len)
{
	struct vfs *v = t->vfs;
	struct path path;
	char who[300];
	int ret;

	if (user_path_at(t, AT_FDCWD, name, follow ? LOOKUP_FOLLOW : 0, &path, NULL))
		return 1;
	snprintf(who, sizeof(who), "lookup of %s", name);
	ret = ck_live_dentry(v, path.dentry, who, true, err, len);
	path_put(v, &path);
	return ret;
}

int vfs_check_task_fds(struct task *t, char *err, size_t len)
{
	struct vfs *v = t->vfs;
	struct files_struct *files = t->files;
	struct fdtable *fdt;
	int ret = files_check_invariants(v, files, err, len);

	if (ret)
		return ret;
	/* The slots' references pin their files while file_lock is held. */
	spin_lock(files_file_lock(v, files));
	fdt = *files_fdt(v, files);
	for (unsigned int fd = 0; fd < fdt->max_fds && !ret; fd++) {
		struct file *f = rcu_dereference_raw(fdt->fd[fd]);

		if (f)
			ret = ck_held_file(v, f, fd, err, len);
	}
	spin_unlock(files_file_lock(v, files));
	return ret;
}

/* ---- the exact walk ---- */

struct ck_dentry {
	struct dentry *d;
	unsigned int parent; /* index; the root is its own parent */
	unsigned int children; /* on d_children, any state */
	unsigned int entries; /* hashed positive children: directory entries */
	unsigned int subdirs; /* ... of which directories */
	unsigned int files; /* struct files open on it */
	unsigned int fsrefs; /* fs_struct root and pwd */
	unsigned int mntrefs; /* mounts rooted here, and mounts on it */
	unsigned int mounted; /* hashed mounts on it: DCACHE_MOUNTED */
};

/* A mount and what should hold its mnt_count. */
struct ck_mount {
	struct mount *m;
	unsigned int children, holders;
};

/* A pointer with its multiplicity (after sorting) or an index. */
struct ck_ref {
	const void *p;
	unsigned int n; /* occurrences, or an index into ck.dent */
	unsigned int hashed; /* inodes: hashed aliases */
};

struct ck {
	struct vfs *v;
	char *err;
	size_t len;
	struct ck_dentry *dent;
	size_t nd, capd;
	struct ck_ref *didx; /* dentry -> index, sorted by pointer */
	struct ck_ref *inodes, *files, *fss, *fs;
	size_t ninodes, nfiles, nfss, nfs, ntasks;
	struct ck_mount *mnts;
	size_t nmnts, capm;
	struct ptrmap mpos; /* mount -> index into mnts */
};

static int cmp_ref(const void *a, const void *b)
{
	const struct ck_ref *x = a, *y = b;

	return x->p < y->p ? -1 : x->p > y->p;
}

/* Sort raw (p, 1) entries and merge equal pointers, summing n and hashed. */
static size_t ck_merge(struct ck_ref *r, size_t n)
{
	size_t out = 0;

	if (!n)
		return 0;
	qsort(r, n, sizeof(*r), cmp_ref);
	for (size_t i = 1; i < n; i++) {
		if (r[i].p == r[out].p) {
			r[out].n += r[i].n;
			r[out].hashed += r[i].hashed;
		} else {
			r[++out] = r[i];
		}
	}
	return out + 1;
}

static int ck_push_ref(struct ck_ref **r, size_t *n, size_t *cap, const void *p, unsigned int val,
		       unsigned int hashed)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		struct ck_ref *nr = realloc(*r, nc * sizeof(**r));

		if (!nr)
			return -1;
		*r = nr;
		*cap = nc;
	}
	(*r)[(*n)++] = (struct ck_ref){ p, val, hashed };
	return 0;
}

static long ck_index(const struct ck *c, const struct dentry *d)
{
	struct ck_ref key = { d, 0, 0 };
	const struct ck_ref *r = c->nd ? bsearch(&key, c->didx, c->nd, sizeof(key), cmp_ref) : NULL;

	return r ? (long)r->n : -1;
}

static const char *ck_dpath(const struct ck *c, const struct dentry *d, char *buf)
{
	return ck_path(c->v, d, buf, CK_PATH_MAX);
}

static int ck_add_dentry(struct ck *c, struct dentry *d, unsigned int parent)
{
	if (c->nd == c->capd) {
		size_t nc = c->capd ? c->capd * 2 : 256;
		struct ck_dentry *nd = realloc(c->dent, nc * sizeof(*nd));

		if (!nd)
			return ck_fail(c->err, c->len, "out of memory");
		c->dent = nd;
		c->capd = nc;
	}
	c->dent[c->nd++] = (struct ck_dentry){ .d = d, .parent = parent };
	return 0;
}

/* ---- mounts ---- */

/* More than the kernel's fs.mount-max (100,000 by default) lets a namespace hold. */
#define CK_MAX_MOUNTS (1u << 17)

static long ck_mount_index(const struct ck *c, const struct mount *m)
{
	return ptrmap_find(&c->mpos, m);
}

/* m and every mount below it through mnt_mounts. */
static int ck_add_mount_tree(struct ck *c, struct mount *m)
{
	struct mount *p;
	size_t idx;

	if (ck_mount_index(c, m) >= 0)
		return 0;
	if (c->nmnts == c->capm) {
		size_t nc = c->capm ? c->capm * 2 : 16;
		struct ck_mount *nm = realloc(c->mnts, nc * sizeof(*nm));

		if (!nm)
			return ck_fail(c->err, c->len, "out of memory");
		c->mnts = nm;
		c->capm = nc;
	}
	if (c->nmnts >= CK_MAX_MOUNTS)
		return ck_fail(c->err, c->len, "more than %u mounts: a cycle?", CK_MAX_MOUNTS);
	idx = c->nmnts++;
	c->mnts[idx] = (struct ck_mount){ .m = m };
	if (ptrmap_add(&c->mpos, m, idx))
		return ck_fail(c->err, c->len, "out of memory");
	list_for_each_entry(p, &m->mnt_mounts, mnt_child) {
		if (p->mnt_parent != m)
			return ck_fail(c->err, c->len,
				       "mount %d is on the mnt_mounts of %d but its parent is %d",
				       p->mnt_id, m->mnt_id, p->mnt_parent->mnt_id);
		if (ck_add_mount_tree(c, p))
			return -1;
		c->mnts[idx].children++;
	}
	return 0;
}

/* The whole tree a path's mount is in: the namespace's, or one lazily detached. */
static int ck_add_path_mount(struct ck *c, const struct path *path)
{
	struct mount *m = real_mount(path->mnt);

	for (unsigned int n = 0; mnt_has_parent(m) && n < CK_MAX_MOUNTS; n++)
		m = m->mnt_parent;
	if (ck_add_mount_tree(c, m))
		return -1;
	c->mnts[ck_mount_index(c, real_mount(path->mnt))].holders++;
	return 0;
}

/*
 * Every mount a task can reach, with the paths that hold each: the
 * namespace's tree, and detached trees an fs_struct or a file still uses.
 */
static int ck_collect_mounts(struct ck *c)
{
	struct vfs *v = c->v;
	struct task *t;
	struct ck_ref *seen = NULL;
	size_t nseen = 0, cap = 0;
	int ret;

	ret = ck_add_mount_tree(c, v->mnt_ns->root);
	spin_lock(&v->task_lock);
	list_for_each_entry(t, &v->tasks, node) {
		struct fdtable *fdt = *files_fdt(v, t->files);

		if (ret)
			break;
		/* Each fs_struct and each file once, however many tasks share it. */
		if (!nseen ||
		    !bsearch(&(struct ck_ref){ t->fs }, seen, nseen, sizeof(*seen), cmp_ref)) {
			ret = ck_add_path_mount(c, &t->fs->root) ||
			      ck_add_path_mount(c, &t->fs->pwd) ||
			      ck_push_ref(&seen, &nseen, &cap, t->fs, 1, 0);
			nseen = ck_merge(seen, nseen);
		}
		for (unsigned int fd = 0; !ret && fd < fdt->max_fds; fd++) {
			struct file *f = fdt->fd[fd];

			if (!f || (nseen && bsearch(&(struct ck_ref){ f }, seen, nseen,
						    sizeof(*seen), cmp_ref)))
				continue;
			ret = ck_add_path_mount(c, file_path(v, f)) ||
			      ck_push_ref(&seen, &nseen, &cap, f, 1, 0);
			nseen = ck_merge(seen, nseen);
		}
	}
	spin_unlock(&v->task_lock);
	free(seen);
	return ret ? -1 : 0;
}

/*
 * The mount tree and mnt_count: every child hashed under (parent,
 * mountpoint) and found by __lookup_mnt(); counts of one for the
 * namespace (kept by a lazily detached tree's submounts until it goes),
 * one per child while in the namespace, one per path held (fs_struct,
 * file).
 */
static int ck_mounts(struct ck *c)
{
	struct vfs *v = c->v;
	size_t hashed = 0, in_table = 0, in_ns = 0;
	char p[CK_PATH_MAX];

	for (size_t i = 0; i < c->nmnts; i++) {
		const struct ck_mount *e = &c->mnts[i];
		struct mount *m = e->m;
		/* Out of the namespace, children no longer hold their parent (umount_tree()). */
		long want = (m->mnt_ns ? e->children : 0) + e->holders, count = mnt_get_count(v, m);

		in_ns += m->mnt_ns != NULL;
		if (m->mnt_ns && m->mnt_ns != v->mnt_ns)
			return ck_fail(c->err, c->len, "mount %d is in another namespace",
				       m->mnt_id);
		if (m->mnt_ns || mnt_has_parent(m))
			want++;
		if (m->mnt_ns && !e->children != list_empty(&m->mnt_mounts))
			return ck_fail(c->err, c->len, "mount %d: children miscounted", m->mnt_id);
		if (ck_index(c, m->mnt.mnt_root) < 0)
			return ck_fail(c->err, c->len, "mount %d's root is not in its tree",
				       m->mnt_id);
		if (mnt_has_parent(m)) {
			struct mount *parent = m->mnt_parent;

			hashed++;
			if (!!parent->mnt_ns != !!m->mnt_ns)
				return ck_fail(c->err, c->len,
					       "mount %d and its parent %d disagree on mnt_ns",
					       m->mnt_id, parent->mnt_id);
			if (ck_index(c, m->mnt_mountpoint) < 0)
				return ck_fail(c->err, c->len,
					       "mount %d's mountpoint is not in any tree",
					       m->mnt_id);
			if (__lookup_mnt(v, &parent->mnt, m->mnt_mountpoint) != m)
				return ck_fail(
					c->err, c->len,
					"mount %d on %s is not what the mount hash finds there",
					m->mnt_id, ck_dpath(c, m->mnt_mountpoint, p));
		}
		if (count != want)
			return ck_fail(c->err, c->len,
				       "mount %d has mnt_count %ld, expected %ld (%s, %u children, "
				       "%u paths)",
				       m->mnt_id, count, want,
				       m->mnt_ns	 ? "in the namespace" :
				       mnt_has_parent(m) ? "detached with its parent" :
							   "detached",
				       e->children, e->holders);
	}
	for (unsigned int b = 0; b < 256; b++) {
		struct mount *m;

		hlist_for_each_entry(m, &v->mount_hashtable[b], mnt_hash)
			if (++in_table > hashed || ck_mount_index(c, m) < 0)
				return ck_fail(c->err, c->len,
					       "the mount hash holds mount %d no task can reach",
					       m->mnt_id);
	}
	if (in_ns != v->mnt_ns->mounts)
		return ck_fail(c->err, c->len, "the namespace counts %u mounts, %zu are in it",
			       v->mnt_ns->mounts, in_ns);
	if (in_table != hashed)
		return ck_fail(c->err, c->len, "%zu mounts have a parent, %zu are hashed", hashed,
			       in_table);
	return 0;
}

/*
 * Collect every dentry reachable from a superblock's root through
 * d_children: the root tmpfs and every other a mount uses.
 */
static int ck_walk_tree(struct ck *c)
{
	struct vfs *v = c->v;
	struct ptrmap roots = { 0 }; /* the superblocks' roots queued */
	char p[CK_PATH_MAX];

	if (!IS_ROOT(v, v->root))
		return ck_fail(c->err, c->len, "the root's d_parent is not itself");
	if (ck_collect_mounts(c))
		return -1;
	for (size_t i = 0; i < c->nmnts; i++) {
		struct dentry *root = c->mnts[i].m->mnt.mnt_sb->s_root;

		if (ptrmap_find(&roots, root) >= 0)
			continue;
		if (ptrmap_add(&roots, root, c->nd)) {
			ptrmap_free(&roots);
			return ck_fail(c->err, c->len, "out of memory");
		}
		if (ck_add_dentry(c, root, c->nd)) {
			ptrmap_free(&roots);
			return -1;
		}
	}
	ptrmap_free(&roots);
	/* dent[] doubles as the breadth-first queue. */
	for (size_t i = 0; i < c->nd; i++) {
		struct dentry *d = c->dent[i].d;
		struct hlist_node *n;

		if ((d_flags(v, d) & DCACHE_DENTRY_KILLED) || d_count(v, d) < 0)
			return ck_fail(c->err, c->len,
				       "killed dentry %s (d_count %d) is still on its parent's "
				       "d_children",
				       ck_dpath(c, d, p), d_count(v, d));
		for (n = dentry_children(v, d)->first; n; n = n->next) {
			struct dentry *child = d_from_sib(v, n);

			if (d_parent(v, child) != d) {
				char q[CK_PATH_MAX];

				return ck_fail(
					c->err, c->len,
					"%s is on the d_children of %s but its d_parent is %s",
					ck_dpath(c, child, p), ck_dpath(c, d, q),
					ck_path(v, d_parent(v, child), q, sizeof(q)));
			}
			if (c->nd >= CK_MAX_DENTRIES)
				return ck_fail(c->err, c->len,
					       "more than %u dentries under the root: a cycle?",
					       CK_MAX_DENTRIES);
			if (ck_add_dentry(c, child, i))
				return -1;
		}
	}
	c->didx = malloc(c->nd * sizeof(*c->didx));
	if (!c->didx)
		return ck_fail(c->err, c->len, "out of memory");
	for (size_t i = 0; i < c->nd; i++)
		c->didx[i] = (struct ck_ref){ c->dent[i].d, i, 0 };
	qsort(c->didx, c->nd, sizeof(*c->didx), cmp_ref);
	for (size_t i = 1; i < c->nd; i++)
		if (c->didx[i].p == c->didx[i - 1].p)
			return ck_fail(c->err, c->len, "dentry %s is reachable twice",
				       ck_dpath(c, c->didx[i].p, p));
	/* A mount pins its root; a hashed one pins its mountpoint too. */
	for (size_t i = 0; i < c->nmnts; i++) {
		struct mount *m = c->mnts[i].m;
		long r = ck_index(c, m->mnt.mnt_root), mp;

		if (r >= 0)
			c->dent[r].mntrefs++;
		if (mnt_has_parent(m) && (mp = ck_index(c, m->mnt_mountpoint)) >= 0) {
			c->dent[mp].mntrefs++;
			c->dent[mp].mounted++;
		}
	}
	return 0;
}

/* The tasks' files_structs, fs_structs and open files, with their users. */
static int ck_walk_tasks(struct ck *c)
{
	struct vfs *v = c->v;
	size_t capfss = 0, capfs = 0, capf = 0;
	char p[CK_PATH_MAX];
	struct task *t;
	int ret = 0;

	spin_lock(&v->task_lock);
	list_for_each_entry(t, &v->tasks, node) {
		c->ntasks++;
		if (ck_push_ref(&c->fss, &c->nfss, &capfss, t->files, 1, 0) ||
		    ck_push_ref(&c->fs, &c->nfs, &capfs, t->fs, 1, 0)) {
			ret = ck_fail(c->err, c->len, "out of memory");
			break;
		}
	}
	spin_unlock(&v->task_lock);
	if (ret)
		return ret;
	c->nfss = ck_merge(c->fss, c->nfss);
	c->nfs = ck_merge(c->fs, c->nfs);

	for (size_t i = 0; i < c->nfs; i++) {
		const struct fs_struct *fs = c->fs[i].p;
		const struct dentry *ds[2] = { fs->root.dentry, fs->pwd.dentry };

		if (fs->users != (int)c->fs[i].n)
			return ck_fail(c->err, c->len, "fs_struct has %d users but %u tasks use it",
				       fs->users, c->fs[i].n);
		for (int k = 0; k < 2; k++) {
			long idx = ck_index(c, ds[k]);

			if (idx < 0)
				return ck_fail(c->err, c->len,
					       "an fs_struct's %s is not reachable from the root",
					       k ? "pwd" : "root");
			c->dent[idx].fsrefs++;
		}
	}

	for (size_t i = 0; i < c->nfss; i++) {
		struct files_struct *files = (struct files_struct *)c->fss[i].p;
		struct fdtable *fdt = *files_fdt(v, files);
		int users = atomic_read(files_count(v, files));

		if (users != (int)c->fss[i].n)
			return ck_fail(c->err, c->len,
				       "files_struct has count %d but %u tasks share it", users,
				       c->fss[i].n);
		if (files_check_invariants(v, files, c->err, c->len))
			return -1;
		for (unsigned int fd = 0; fd < fdt->max_fds; fd++)
			if (fdt->fd[fd] &&
			    ck_push_ref(&c->files, &c->nfiles, &capf, fdt->fd[fd], 1, 0))
				return ck_fail(c->err, c->len, "out of memory");
	}
	c->nfiles = ck_merge(c->files, c->nfiles);

	for (size_t i = 0; i < c->nfiles; i++) {
		struct file *f = (struct file *)c->files[i].p;
		struct dentry *d = file_path(v, f)->dentry;
		unsigned long count = file_count(v, f);
		long idx = ck_index(c, d);

		if (count != c->files[i].n)
			return ck_fail(c->err, c->len,
				       "file on %s has f_count %lu but %u fd slots hold it",
				       idx < 0 ? "?" : ck_dpath(c, d, p), count, c->files[i].n);
		if (idx < 0)
			return ck_fail(c->err, c->len,
				       "an open file's dentry is not reachable from the root");
		if (d_inode(v, d) != file_inode(v, f))
			return ck_fail(c->err, c->len,
				       "file on %s has inode %lu, its dentry inode %lu",
				       ck_dpath(c, d, p), file_inode(v, f)->i_ino,
				       d_inode(v, d) ? d_inode(v, d)->i_ino : 0);
		c->dent[idx].files++;
	}
	return 0;
}

/* One dentry against its parent, the hash table and the counts. */
static int ck_dentry(struct ck *c, size_t i)
{
	struct vfs *v = c->v;
	const struct ck_dentry *e = &c->dent[i];
	struct dentry *d = e->d;
	struct inode *inode = d_inode(v, d);
	unsigned int flags = d_flags(v, d);
	bool root = IS_ROOT(v, d), hashed = !d_unhashed(v, d);
	bool pin = !root && inode && hashed;
	long want = e->children + pin + e->files + e->fsrefs + root + e->mntrefs;
	int count = d_count(v, d);
	char p[CK_PATH_MAX];

	if (flags & DCACHE_PAR_LOOKUP)
		return ck_fail(c->err, c->len, "%s is still in lookup with no lookup running",
			       ck_dpath(c, d, p));
	if ((flags & DCACHE_ENTRY_TYPE) != d_flags_for_inode(inode))
		return ck_fail(c->err, c->len, "%s has type 0x%x but inode %lu (mode 0%o)",
			       ck_dpath(c, d, p), flags & DCACHE_ENTRY_TYPE,
			       inode ? inode->i_ino : 0, inode ? inode->i_mode : 0);
	if (!(flags & DCACHE_MOUNTED) != !e->mounted)
		return ck_fail(c->err, c->len, "%s: DCACHE_MOUNTED %s, %u mounts on it",
			       ck_dpath(c, d, p), flags & DCACHE_MOUNTED ? "set" : "clear",
			       e->mounted);
	if (raw_read_seqcount(dentry_seq(v, d)) & 1)
		return ck_fail(c->err, c->len, "%s: d_seq is odd with no writer running",
			       ck_dpath(c, d, p));
	if (!root) {
		struct dentry *parent = c->dent[e->parent].d;
		const struct qstr *q = dentry_name(v, d);
		struct qstr name = *q;
		/* The O_TMPFILE dentry is named "/" and never hashed. */
		bool tmpfile = !hashed && q->len == 1 && q->name[0] == '/';

		if (!q->len || q->len > NAME_MAX_LEN ||
		    (!tmpfile && memchr(q->name, '/', q->len)) || memchr(q->name, '\0', q->len) ||
		    q->name[q->len])
			return ck_fail(c->err, c->len, "%s: malformed d_name (len %u)",
				       ck_dpath(c, d, p), q->len);
		if (hashed &&
		    q->hash != full_name_hash(name_hash_salt(v, parent, d_inode(v, parent)),
					      (const char *)q->name, q->len))
			return ck_fail(c->err, c->len,
				       "%s: d_name.hash 0x%08x is not the hash of its name under "
				       "its parent",
				       ck_dpath(c, d, p), q->hash);
		if (hashed) {
			struct dentry *found;
			unsigned int seq;

			rcu_read_lock();
			found = __d_lookup_rcu(v, parent, &name, &seq);
			rcu_read_unlock();
			if (found != d)
				return ck_fail(c->err, c->len,
					       "%s is hashed but an RCU lookup under its parent "
					       "finds %s",
					       ck_dpath(c, d, p),
					       found ? "another dentry of that name" : "nothing");
		}
	}
	if (count != want)
		return ck_fail(c->err, c->len,
			       "%s%s has d_count %d, expected %ld (%u children, pin %d, %u files, "
			       "%u fs refs%s, %u mounts)",
			       ck_dpath(c, d, p), hashed || root ? "" : " (unhashed)", count, want,
			       e->children, pin, e->files, e->fsrefs, root ? ", root 1" : "",
			       e->mntrefs);
	if (!count && !(flags & DCACHE_LRU_LIST))
		return ck_fail(c->err, c->len, "%s is unused but neither killed nor on the LRU",
			       ck_dpath(c, d, p));
	/*
	 * And the ref-walk lookup, once the count is known right: the pin
	 * keeps its dput() from killing anything, even in a corrupted tree.
	 */
	if (pin) {
		const struct qstr name = *dentry_name(v, d);
		struct dentry *found = d_lookup(v, c->dent[e->parent].d, &name);

		if (found)
			dput(v, found);
		if (found != d)
			return ck_fail(c->err, c->len,
				       "%s is hashed but d_lookup() under its parent finds %s",
				       ck_dpath(c, d, p),
				       found ? "another dentry of that name" : "nothing");
	}
	return 0;
}

/* i_count against the aliases, i_nlink and directory i_size against the names. */
static int ck_inodes(struct ck *c)
{
	struct vfs *v = c->v;
	size_t cap = 0;
	char p[CK_PATH_MAX];

	for (size_t i = 0; i < c->nd; i++) {
		struct dentry *d = c->dent[i].d;
		struct inode *inode = d_inode(v, d);

		if (inode && ck_push_ref(&c->inodes, &c->ninodes, &cap, inode, 1,
					 !d_unhashed(v, d) || IS_ROOT(v, d)))
			return ck_fail(c->err, c->len, "out of memory");
	}
	c->ninodes = ck_merge(c->inodes, c->ninodes);
	for (size_t i = 0; i < c->ninodes; i++) {
		struct inode *inode = (struct inode *)c->inodes[i].p;
		int icount = atomic_read(&inode->i_count);

		if (icount != (int)c->inodes[i].n)
			return ck_fail(c->err, c->len, "inode %lu has i_count %d but %u dentries",
				       inode->i_ino, icount, c->inodes[i].n);
		if (!S_ISDIR(inode->i_mode)) {
			if (inode->i_nlink != c->inodes[i].hashed)
				return ck_fail(c->err, c->len,
					       "inode %lu (mode 0%o) has i_nlink %u but %u names",
					       inode->i_ino, inode->i_mode, inode->i_nlink,
					       c->inodes[i].hashed);
		}
	}
	/* Directories: one alias each, so walk the dentries. */
	for (size_t i = 0; i < c->nd; i++) {
		const struct ck_dentry *e = &c->dent[i];
		struct inode *inode = d_inode(v, e->d);
		bool hashed = !d_unhashed(v, e->d) || IS_ROOT(v, e->d);
		unsigned int want_nlink = 2 + e->subdirs;
		long long want_size = CK_DIRENT_SIZE * (2 + (long long)e->entries);

		if (!inode || !S_ISDIR(inode->i_mode))
			continue;
		if (atomic_read(&inode->i_count) != 1)
			return ck_fail(c->err, c->len, "directory %s has %d aliases",
				       ck_dpath(c, e->d, p), atomic_read(&inode->i_count));
		if (inode->i_flags & S_DEAD) {
			if (hashed || e->entries || inode->i_nlink)
				return ck_fail(c->err, c->len,
					       "removed directory %s: hashed %d, %u entries, "
					       "i_nlink %u",
					       ck_dpath(c, e->d, p), hashed, e->entries,
					       inode->i_nlink);
			continue;
		}
		if (!hashed)
			return ck_fail(c->err, c->len, "directory %s is unhashed but not S_DEAD",
				       ck_dpath(c, e->d, p));
		if (inode->i_nlink != want_nlink)
			return ck_fail(
				c->err, c->len,
				"directory %s has i_nlink %u, expected %u (%u subdirectories)",
				ck_dpath(c, e->d, p), inode->i_nlink, want_nlink, e->subdirs);
		if (inode->i_size != want_size)
			return ck_fail(c->err, c->len,
				       "directory %s has i_size %lld, expected %lld (%u entries)",
				       ck_dpath(c, e->d, p), inode->i_size, want_size, e->entries);
	}
	return 0;
}

/* The LRU holds exactly the dentries flagged DCACHE_LRU_LIST, all reachable. */
static int ck_lru(struct ck *c)
{
	struct vfs *v = c->v;
	unsigned long on_list = 0, flagged = 0;
	struct list_head *n;
	char p[CK_PATH_MAX];

	for (size_t i = 0; i < c->nd; i++)
		flagged += !!(d_flags(v, c->dent[i].d) & DCACHE_LRU_LIST);
	for (n = v->lru.next; n != &v->lru; n = n->next) {
		struct dentry *d = (struct dentry *)((char *)n - v->dl.off[DENTRY_F_d_lru]);

		if (++on_list > c->nd)
			return ck_fail(c->err, c->len, "the LRU is longer than the tree");
		if (ck_index(c, d) < 0)
			return ck_fail(c->err, c->len, "a dentry on the LRU is not in the tree");
		if (!(d_flags(v, d) & DCACHE_LRU_LIST))
			return ck_fail(c->err, c->len, "%s is on the LRU without DCACHE_LRU_LIST",
				       ck_dpath(c, d, p));
	}
	if (on_list != v->nr_unused || on_list != flagged)
		return ck_fail(c->err, c->len,
			       "LRU: %lu on the list, nr_unused %lu, %lu flagged DCACHE_LRU_LIST",
			       on_list, v->nr_unused, flagged);
	return 0;
}

/* Every dentry in the hash table is a hashed one of the tree: no orphans. */
static int ck_hash_table(struct ck *c)
{
	struct vfs *v = c->v;
	size_t in_tree = 0, in_table = 0;

	for (size_t i = 0; i < c->nd; i++)
		in_tree += !d_unhashed(v, c->dent[i].d);
	for (unsigned long b = 0; b < 1ul << v->d_hash_shift; b++) {
		for (struct hlist_bl_node *n = hlist_bl_first(&v->d_hash_table[b]); n;
		     n = n->next) {
			struct dentry *d =
				(struct dentry *)((char *)n - v->dl.off[DENTRY_F_d_hash]);

			if (++in_table > in_tree || ck_index(c, d) < 0)
				return ck_fail(
					c->err, c->len,
					"hash bucket %lu holds a dentry the tree does not (or more "
					"than the tree has hashed)",
					b);
		}
	}
	if (in_table != in_tree)
		return ck_fail(c->err, c->len, "%zu hashed dentries in the tree, %zu in the table",
			       in_tree, in_table);
	return 0;
}

/* No lookup runs: d_alloc_parallel()'s in-lookup hash is empty. */
static int ck_in_lookup_hash(struct ck *c)
{
	for (unsigned int b = 0; b < ARRAY_SIZE(c->v->in_lookup_hashtable); b++)
		if (hlist_bl_first(&c->v->in_lookup_hashtable[b]))
			return ck_fail(c->err, c->len,
				       "in-lookup hash bucket %u holds a dentry with no lookup "
				       "running",
				       b);
	return 0;
}

static void ck_free(struct ck *c)
{
	free(c->dent);
	free(c->didx);
	free(c->inodes);
	free(c->files);
	free(c->fss);
	free(c->fs);
	free(c->mnts);
	ptrmap_free(&c->mpos);
}

static int ck_run(struct ck *c)
{
	if (ck_walk_tree(c) || ck_walk_tasks(c) || ck_mounts(c))
		return -1;
	for (size_t i = 1; i < c->nd; i++) {
		struct ck_dentry *parent = &c->dent[c->dent[i].parent];
		struct dentry *d = c->dent[i].d;

		if (c->dent[i].parent == i)
			continue; /* another superblock's root */
		parent->children++;
		if (!d_unhashed(c->v, d) && d_is_positive(c->v, d)) {
			parent->entries++;
			parent->subdirs += d_is_dir(c->v, d);
		}
	}
	for (size_t i = 0; i < c->nd; i++)
		if (ck_dentry(c, i))
			return -1;
	/* The table has 2^d_hash_shift buckets: scan it while that is cheap. */
	if (ck_inodes(c) || ck_lru(c) || ck_in_lookup_hash(c) ||
	    (c->v->d_hash_shift <= 20 && ck_hash_table(c)))
		return -1;
	return 0;
}

int vfs_check_tree(struct vfs *v, char *err, size_t len)
{
	struct ck c = { .v = v, .err = err, .len = len };
	int ret = ck_run(&c);

	ck_free(&c);
	return ret;
}

static int ck_slab(struct ck *c, struct kmem_cache *cache, size_t reachable)
{
	long inuse = kmem_cache_inuse(cache);

	if (inuse != (long)reachable)
		return ck_fail(c->err, c->len, "%s: %ld objects in use, %zu reachable%s",
			       kmem_cache_name(cache), inuse, reachable,
			       inuse > (long)reachable ? " (leaked)" : " (freed while in use)");
	return 0;
}

static int ck_slabs(struct ck *c)
{
	struct vfs *v = c->v;

	/* Frees queued with call_rcu() count as in use until they run. */
	rcu_barrier();
	if (ck_run(c) || ck_slab(c, v->dentry_cache, c->nd) ||
	    ck_slab(c, v->inode_cache, c->ninodes) || ck_slab(c, v->file_cache, c->nfiles) ||
	    ck_slab(c, v->files_cache, c->nfss) || ck_slab(c, v->fs_cache, c->nfs) ||
	    ck_slab(c, v->task_cache, c->ntasks))
		return -1;
	return 0;
}

int vfs_check_slabs(struct vfs *v, char *err, size_t len)
{
	struct ck c = { .v = v, .err = err, .len = len };
	int ret = ck_slabs(&c);

	ck_free(&c);
	return ret;
}

int vfs_check_quiescent(struct vfs *v, char *err, size_t len)
{
	struct ck c = { .v = v, .err = err, .len = len };
	char p[CK_PATH_MAX];
	int ret;

	if (!list_empty(&v->tasks))
		return ck_fail(err, len, "tasks are still live");
	ret = ck_slabs(&c);
	/*
	 * With no task, nothing holds an unhashed dentry, every name is in
	 * place, but the root of a bind mount whose source was removed, and
	 * the removed directories above it that its d_parent chain pins.
	 */
	for (size_t i = 1; !ret && i < c.nd; i++)
		if (d_unhashed(v, c.dent[i].d) && !IS_ROOT(v, c.dent[i].d) && !c.dent[i].mntrefs &&
		    !c.dent[i].children)
			ret = ck_fail(err, len, "unhashed dentry %s survives with no task",
				      ck_dpath(&c, c.dent[i].d, p));
	if (!ret && c.nfiles)
		ret = ck_fail(err, len, "%zu files open with no task", c.nfiles);
	ck_free(&c);
	return ret;
}

unsigned long vfs_check_warnings(void)
{
	return bug_warn_count();
}
