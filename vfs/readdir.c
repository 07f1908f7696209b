// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * getdents64. Models fs/readdir.c with tmpfs' stable directory offsets
 * (fs/libfs.c offset_readdir): "." is 0, ".." is 1, and each name gets the
 * next offset of its directory when it is linked there, so a position
 * survives concurrent creates and unlinks.
 */
#include <dirent.h>
#include <stdlib.h>

#include "vfs/internal.h"

struct dir_entry {
	unsigned long off;
	unsigned long ino;
	unsigned char type;
	unsigned int len;
	char name[NAME_MAX_LEN + 1];
};

static unsigned char dtype(umode_t mode)
{
	return (mode & S_IFMT) >> 12; /* fs_umode_to_dtype() */
}

static int cmp_off(const void *a, const void *b)
{
	const struct dir_entry *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Snapshot the live names at or after pos, sorted by offset. */
static struct dir_entry *collect(struct vfs *v, struct dentry *dir, long long pos, size_t *nr)
{
	struct dir_entry *e = NULL;
	size_t n = 0, cap = 0;

	spin_lock(d_lock(v, dir));
	for (struct hlist_node *h = dentry_children(v, dir)->first; h; h = h->next) {
		struct dentry *c = (struct dentry *)((char *)h - v->dl.off[DENTRY_F_d_sib]);
		struct inode *inode = d_inode(v, c);
		const struct qstr *q = dentry_name(v, c);

		if (!inode || d_unhashed(v, c) || (long long)*dentry_fsdata(v, c) < pos)
			continue;
		if (n == cap) {
			struct dir_entry *ne = realloc(e, (cap = cap ? cap * 2 : 16) * sizeof(*e));

			if (!ne) {
				spin_unlock(d_lock(v, dir));
				free(e);
				return NULL;
			}
			e = ne;
		}
		e[n].off = *dentry_fsdata(v, c);
		e[n].ino = inode->i_ino;
		e[n].type = dtype(inode->i_mode);
		e[n].len = q->len;
		memcpy(e[n].name, q->name, q->len + 1);
		n++;
	}
	spin_unlock(d_lock(v, dir));
	if (n)
		qsort(e, n, sizeof(*e), cmp_off);
	*nr = n;
	return e ? e : calloc(1, sizeof(*e));
}

/* Models filldir64(): one record, 8-byte aligned; false when full. */
static bool emit(char *buf, size_t count, size_t *used, unsigned long ino, long long next,
		 unsigned char type, const char *name, unsigned int len)
{
	size_t reclen = ALIGN(offsetof(struct linux_dirent64, d_name) + len + 1, 8);
	struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + *used);

	if (*used + reclen > count)
		return false;
	d->d_ino = ino;
	d->d_off = next;
	d->d_reclen = reclen;
	d->d_type = type;
	memcpy(d->d_name, name, len);
	memset(d->d_name + len, 0, reclen - offsetof(struct linux_dirent64, d_name) - len);
	*used += reclen;
	return true;
}

long sys_getdents64(struct task *t, int fd, void *dirent, size_t count)
{
	struct vfs *v = t->vfs;
	struct fd f = fdget_pos(t, fd);
	struct file *file = fd_file(f);
	struct dentry *dir;
	struct inode *inode;
	struct dir_entry *e = NULL;
	long long *pos;
	size_t used = 0, nr = 0;
	long ret;

	if (fd < 0 || !file)
		return -EBADF;
	dir = file_path(v, file)->dentry;
	inode = d_inode(v, dir);
	pos = file_pos(v, file);
	ret = -ENOTDIR;
	if (!(*file_op(v, file))->iterate_shared)
		goto out;
	ret = -ENOENT;
	if (inode->i_flags & S_DEAD)
		goto out;
	/* Models dcache_readdir's dir_emit_dots() + offset_iterate_dir(). */
	if (*pos == 0) {
		if (!emit(dirent, count, &used, inode->i_ino, 1, DT_DIR, ".", 1))
			goto full;
		*pos = 1;
	}
	if (*pos == 1) {
		struct dentry *parent = dget_parent(v, dir);
		bool ok = emit(dirent, count, &used, d_inode(v, parent)->i_ino, 2, DT_DIR, "..", 2);

		dput(v, parent);
		if (!ok)
			goto full;
		*pos = 2;
	}
	e = collect(v, dir, *pos, &nr);
	ret = -ENOMEM;
	if (!e)
		goto out;
	for (size_t i = 0; i < nr; i++) {
		if (!emit(dirent, count, &used, e[i].ino, e[i].off + 1, e[i].type, e[i].name,
			  e[i].len))
			goto full;
		*pos = e[i].off + 1;
	}
	ret = used;
	goto out;
full:
	/* Not even the first record fits: EINVAL, as filldir64() says. */
	ret = used ? (long)used : -EINVAL;
out:
	free(e);
	fdput_pos(t, f);
	return ret;
}
