// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * getdents64 and the directory offsets behind it. Models fs/readdir.c
 * (filldir64) and tmpfs' simple_offset directories (fs/libfs.c), in the
 * two shapes Linux has had (variant key readdir=):
 *
 *  v6.14 (the default; Linux 6.14 and later, checked against 6.18): "." is
 *   0, ".." 1, 2 means "the first entry", and each name gets the next
 *   offset of its directory (from 3) when it is linked there. Listing
 *   follows the directory's d_children list, newest first (a create, and
 *   the target of a rename, go to its head); f_pos is the offset of the
 *   next entry to list, DIR_OFFSET_EOD (2^31-1) past the last. A position
 *   resumes at the entry with the largest offset not above it (at the
 *   first entry if none is), so entries made during a listing are not
 *   seen, and a rename onto an existing name keeps that name's offset.
 *  v6.6 (Linux 6.6 to 6.13): entries listed by offset, oldest first, from
 *   2; a position resumes at the first offset at or after it.
 *
 * Every record's d_off is where the listing goes on after it (filldir64
 * writes the previous record's d_off with the position of the next one).
 *
 * Deviations from Linux: offsets never wrap (the kernel's cyclic
 * allocator reuses free ones after 2^31 names were made in a directory).
 */
#include <dirent.h>
#include <stdlib.h>

#include "vfs/internal.h"

/* fs/libfs.c, 6.14+ */
#define DIR_OFFSET_FIRST 2 /* find the first entry */
#define DIR_OFFSET_MIN 3 /* the lowest offset a name gets */
#define DIR_OFFSET_EOD 2147483647LL /* S32_MAX: past the last entry */

static bool v614(const struct vfs *v)
{
	return v->cfg.readdir == READDIR_V614;
}

static unsigned long *d_offset(const struct vfs *v, const struct dentry *d)
{
	return dentry_fsdata(v, d);
}

/* simple_positive(): listed (has an inode and a name). */
static bool d_listed(struct vfs *v, struct dentry *d)
{
	return d_inode(v, d) && !d_unhashed(v, d);
}

/*
 * Models simple_offset_add(): the next offset of @dir for its new child
 * @d, which (as a fresh dentry is) goes to the head of the d_children
 * list; @d is on it already. The move matters only when negative
 * dentries are cached (dcache-max-unused): tmpfs never reuses one.
 */
void simple_offset_add(struct vfs *v, struct inode *dir, struct dentry *d)
{
	VFS_PHASE(VFS_PH_DIR_OFFSET);
	struct dentry *parent = d_parent(v, d);
	unsigned long min = v614(v) ? DIR_OFFSET_MIN : 2;

	spin_lock(&dir->i_lock);
	if (dir->i_dir_offset < min)
		dir->i_dir_offset = min;
	*d_offset(v, d) = dir->i_dir_offset++;
	spin_unlock(&dir->i_lock);
	if (parent != d) {
		spin_lock(d_lock(v, parent));
		hlist_del(dentry_sib(v, d));
		hlist_add_head(dentry_sib(v, d), dentry_children(v, parent));
		spin_unlock(d_lock(v, parent));
	}
}

/*
 * Models simple_offset_rename(): the renamed dentry takes the offset of
 * the name it replaces, or a new one of @new_dir. The readdir=v6.6 variant
 * gives it a new offset in any case (simple_offset_add(), as before
 * simple_offset_rename() existed). Either way d_move() puts it at the
 * head of the new directory's list.
 */
void simple_offset_rename(struct vfs *v, struct inode *new_dir, struct dentry *old_dentry,
			  struct dentry *target)
{
	if (v614(v) && target) {
		*d_offset(v, old_dentry) = *d_offset(v, target);
		*d_offset(v, target) = 0;
		return;
	}
	simple_offset_add(v, new_dir, old_dentry);
}

/* Models simple_offset_rename_exchange(): the two names swap offsets. */
void simple_offset_rename_exchange(struct vfs *v, struct dentry *a, struct dentry *b)
{
	unsigned long o = *d_offset(v, a);

	*d_offset(v, a) = *d_offset(v, b);
	*d_offset(v, b) = o;
}

/* Models offset_dir_llseek(): SEEK_SET and SEEK_CUR only, never negative. */
long long offset_dir_llseek(struct vfs *v, struct file *f, long long offset, int whence)
{
	long long *fpos = file_pos(v, f);

	switch (whence) {
	case SEEK_CUR:
		/* The kernel's sum wraps (-fno-strict-overflow): negative, EINVAL. */
		if (__builtin_add_overflow(offset, *fpos, &offset))
			return -EINVAL;
		break;
	case SEEK_SET:
		break;
	default:
		return -EINVAL;
	}
	if (offset < 0)
		return -EINVAL;
	*fpos = offset; /* vfs_setpos() */
	return offset;
}

/* Models struct getdents_callback64 and filldir64(). */
struct dir_ctx {
	long long pos; /* ctx->pos */
	char *buf;
	size_t count, used;
	struct linux_dirent64 *prev;
	bool full; /* a record did not fit (buf->error = -EINVAL) */
};

/* One record, 8-byte aligned; false when it does not fit. */
static bool dir_emit(struct dir_ctx *ctx, const char *name, unsigned int len, unsigned long ino,
		     unsigned char type)
{
	size_t reclen = ALIGN(offsetof(struct linux_dirent64, d_name) + len + 1, 8);
	struct linux_dirent64 *d = (struct linux_dirent64 *)(ctx->buf + ctx->used);

	if (ctx->used + reclen > ctx->count) {
		ctx->full = true;
		return false;
	}
	/* The previous record goes on here. */
	if (ctx->prev)
		ctx->prev->d_off = ctx->pos;
	d->d_ino = ino;
	d->d_off = 0;
	d->d_reclen = reclen;
	d->d_type = type;
	memcpy(d->d_name, name, len);
	memset(d->d_name + len, 0, reclen - offsetof(struct linux_dirent64, d_name) - len);
	ctx->prev = d;
	ctx->used += reclen;
	return true;
}

static unsigned char dtype(umode_t mode)
{
	return (mode & S_IFMT) >> 12; /* fs_umode_to_dtype() */
}

static bool emit_dentry(struct vfs *v, struct dir_ctx *ctx, struct dentry *c)
{
	const struct qstr *q = dentry_name(v, c);
	struct inode *inode = d_inode(v, c);

	return dir_emit(ctx, (const char *)q->name, q->len, inode->i_ino,
			dtype(READ_ONCE(inode->i_mode)));
}

/* The first listed dentry at or after @h on the d_children list. */
static struct dentry *find_positive(struct vfs *v, struct hlist_node *h)
{
	for (; h; h = h->next)
		if (d_listed(v, d_from_sib(v, h)))
			return d_from_sib(v, h);
	return NULL;
}

/*
 * Models offset_dir_lookup() and offset_iterate_dir() (6.14+): start at
 * the listed child with the largest offset not above ctx->pos (the first
 * child for DIR_OFFSET_FIRST, or when there is none), then follow the
 * list. The directory's d_lock is held.
 */
static void iterate_v614(struct vfs *v, struct dentry *dir, struct dir_ctx *ctx)
{
	struct hlist_node *first = dentry_children(v, dir)->first;
	struct dentry *c = NULL;

	if (ctx->pos != DIR_OFFSET_FIRST) {
		unsigned long best = 0;

		for (struct hlist_node *h = first; h; h = h->next) {
			struct dentry *d = d_from_sib(v, h);
			unsigned long off = *d_offset(v, d);

			if (d_listed(v, d) && off <= (unsigned long long)ctx->pos && off >= best) {
				best = off;
				c = d;
			}
		}
	}
	for (c = c ? c : find_positive(v, first); c; c = find_positive(v, dentry_sib(v, c)->next)) {
		ctx->pos = *d_offset(v, c);
		if (!emit_dentry(v, ctx, c))
			return;
	}
	ctx->pos = DIR_OFFSET_EOD;
}

static int cmp_off(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * Models the 6.6-6.13 offset_iterate_dir(): by offset, from ctx->pos on
 * (the xarray/maple tree walk, here a sorted snapshot of the children).
 * The directory's d_lock is held. -ENOMEM, or 0.
 */
static int iterate_v66(struct vfs *v, struct dentry *dir, struct dir_ctx *ctx)
{
	struct {
		unsigned long off;
		struct dentry *d;
	} *e = NULL;
	size_t n = 0, cap = 0;

	for (struct hlist_node *h = dentry_children(v, dir)->first; h; h = h->next) {
		struct dentry *d = d_from_sib(v, h);

		if (!d_listed(v, d) || (long long)*d_offset(v, d) < ctx->pos)
			continue;
		if (n == cap) {
			void *ne = realloc(e, (cap = cap ? 2 * cap : 16) * sizeof(*e));

			if (!ne) {
				free(e);
				return -ENOMEM;
			}
			e = ne;
		}
		e[n].off = *d_offset(v, d);
		e[n++].d = d;
	}
	if (n)
		qsort(e, n, sizeof(*e), cmp_off);
	for (size_t i = 0; i < n; i++) {
		ctx->pos = e[i].off;
		if (!emit_dentry(v, ctx, e[i].d))
			break;
		ctx->pos++;
	}
	free(e);
	return 0;
}

/*
 * Models getdents64() + iterate_dir() (the directory's i_rwsem shared,
 * file_accessed() after) + offset_readdir() (dir_emit_dots(), then the
 * names).
 */
long sys_getdents64(struct task *t, int fd, void *dirent, size_t count)
{
	struct vfs *v = t->vfs;
	struct fd f = fdget_pos(t, fd);
	struct file *file = fd_file(f);
	struct dir_ctx ctx = { .buf = dirent, .count = count };
	struct dentry *dir;
	struct inode *inode;
	long long *pos;
	long ret;

	if (fd < 0 || !file)
		return -EBADF;
	dir = file_path(v, file)->dentry;
	inode = d_inode(v, dir);
	pos = file_pos(v, file);
	ret = -ENOTDIR;
	if (!(*file_op(v, file))->iterate_shared)
		goto out;
	inode_lock_shared(inode);
	ret = -ENOENT;
	if (READ_ONCE(inode->i_flags) & S_DEAD)
		goto unlock;
	ctx.pos = *pos;
	if (ctx.pos == 0) {
		if (!dir_emit(&ctx, ".", 1, inode->i_ino, DT_DIR))
			goto done;
		ctx.pos = 1;
	}
	if (ctx.pos == 1) {
		struct dentry *parent = dget_parent(v, dir);
		bool ok = dir_emit(&ctx, "..", 2, d_inode(v, parent)->i_ino, DT_DIR);

		dput(v, parent);
		if (!ok)
			goto done;
		ctx.pos = 2;
	}
	if (v614(v) && ctx.pos == DIR_OFFSET_EOD)
		goto done;
	spin_lock(d_lock(v, dir));
	if (v614(v))
		iterate_v614(v, dir, &ctx);
	else
		ret = iterate_v66(v, dir, &ctx);
	spin_unlock(d_lock(v, dir));
	if (ret == -ENOMEM)
		goto accessed;
done:
	*pos = ctx.pos;
	/* The last record goes on where the listing stopped. */
	if (ctx.prev)
		ctx.prev->d_off = ctx.pos;
	/* Not even the first record fits: EINVAL, as filldir64() says. */
	ret = ctx.used ? (long)ctx.used : ctx.full ? -EINVAL : 0;
accessed:
	file_accessed(v, file);
unlock:
	inode_unlock_shared(inode);
out:
	fdput_pos(t, f);
	return ret;
}
