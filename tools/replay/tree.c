// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tree a log needs before it starts: directories, regular files of the
 * sizes its reads and stats saw (sparse: tmpfs and vfslab make pages on
 * write only), symlinks with their targets, device nodes where an open
 * failed with ENXIO. Built through vfslab's syscall table or the host's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tools/replay/replay.h"
#include "tools/sys/sys.h"
#include "vfs/vfs.h"

void rp_tree_init(struct rp_tree *tree)
{
	memset(tree, 0, sizeof(*tree));
	rp_tree_add(tree, -1, "", S_IFDIR | 0755);
}

void rp_tree_free(struct rp_tree *tree)
{
	for (size_t i = 0; i < tree->nr; i++) {
		free(tree->nodes[i].name);
		free(tree->nodes[i].target);
	}
	for (size_t i = 0; i < tree->nr_inj; i++) {
		free(tree->inj[i].path);
		free(tree->inj[i].target);
	}
	free(tree->nodes);
	free(tree->inj);
	free(tree->fds);
	free(tree->fdinj);
	free(tree->ino2node);
	memset(tree, 0, sizeof(*tree));
}

void *rp_grow(void *arr, size_t *cap, size_t nr, size_t size, size_t first)
{
	size_t n;

	if (nr < *cap)
		return arr;
	n = *cap ? *cap * 2 : first;
	arr = realloc(arr, n * size);
	if (arr)
		*cap = n;
	return arr;
}

int rp_tree_add(struct rp_tree *tree, int parent, const char *name, mode_t mode)
{
	struct rp_node *n;

	n = rp_grow(tree->nodes, &tree->cap, tree->nr, sizeof(*n), 256);
	if (!n)
		return -1;
	tree->nodes = n;
	n = &tree->nodes[tree->nr];
	memset(n, 0, sizeof(*n));
	n->parent = parent;
	n->name = strdup(name);
	n->mode = mode;
	n->holder_fd = -1;
	return (int)tree->nr++;
}

int rp_tree_find(const struct rp_tree *tree, int parent, const char *name)
{
	for (size_t i = 1; i < tree->nr; i++)
		if (tree->nodes[i].parent == parent && !strcmp(tree->nodes[i].name, name))
			return (int)i;
	return -1;
}

int rp_tree_mkpath(struct rp_tree *tree, const char *path, unsigned int line)
{
	char *copy = strdup(path), *save = NULL;
	int node = 0;

	if (!copy)
		return -1;
	for (char *c = strtok_r(copy, "/", &save); c && node >= 0; c = strtok_r(NULL, "/", &save)) {
		int next;

		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			if (tree->nodes[node].parent >= 0)
				node = tree->nodes[node].parent;
			continue;
		}
		next = rp_tree_find(tree, node, c);
		if (next < 0) {
			next = rp_tree_add(tree, node, c, S_IFDIR | 0755);
			if (next >= 0) {
				tree->nodes[next].line = line;
				tree->nodes[next].guessed = true;
			}
		}
		node = next;
	}
	free(copy);
	return node;
}

void rp_tree_path(const struct rp_tree *tree, int node, char *buf, size_t len)
{
	const char *parts[256];
	int n = 0;
	size_t o = 0;

	for (int k = node; k > 0 && n < 256; k = tree->nodes[k].parent)
		parts[n++] = tree->nodes[k].name;
	if (!n) {
		snprintf(buf, len, "/");
		return;
	}
	buf[0] = '\0';
	while (n-- > 0 && o < len)
		o += snprintf(buf + o, len - o, "/%s", parts[n]);
}

int rp_tree_node_of_ino(const struct rp_tree *tree, unsigned long ino)
{
	if (ino >= tree->nr_ino || !tree->ino2node[ino])
		return -1;
	return (int)tree->ino2node[ino] - 1;
}

void rp_tree_set_ino(struct rp_tree *tree, int node, unsigned long ino)
{
	if (ino >= tree->nr_ino) {
		size_t n = tree->nr_ino ? tree->nr_ino : 1024;
		unsigned long *m;

		while (n <= ino)
			n *= 2;
		m = realloc(tree->ino2node, n * sizeof(*m));
		if (!m)
			return;
		memset(m + tree->nr_ino, 0, (n - tree->nr_ino) * sizeof(*m));
		tree->ino2node = m;
		tree->nr_ino = n;
	}
	tree->ino2node[ino] = (unsigned long)node + 1;
	tree->nodes[node].ino = ino;
}

void rp_tree_add_fd(struct rp_tree *tree, int fd)
{
	int *f;

	if (rp_tree_has_fd(tree, fd))
		return;
	f = rp_grow(tree->fds, &tree->cap_fds, tree->nr_fds, sizeof(*f), 8);
	if (!f)
		return;
	tree->fds = f;
	tree->fds[tree->nr_fds++] = fd;
}

bool rp_tree_has_fd(const struct rp_tree *tree, int fd)
{
	for (size_t i = 0; i < tree->nr_fds; i++)
		if (tree->fds[i] == fd)
			return true;
	return false;
}

void rp_tree_stats(const struct rp_tree *tree, unsigned long *dirs, unsigned long *files,
		   unsigned long *links, unsigned long *other, long long *bytes)
{
	*dirs = *files = *links = *other = 0;
	*bytes = 0;
	for (size_t i = 1; i < tree->nr; i++) {
		const struct rp_node *n = &tree->nodes[i];

		if (S_ISDIR(n->mode))
			(*dirs)++;
		else if (S_ISREG(n->mode)) {
			(*files)++;
			*bytes += n->size;
		} else if (S_ISLNK(n->mode))
			(*links)++;
		else
			(*other)++;
	}
}

/*
 * A device node either side could open would not be a model of ENXIO:
 * major 0 has no driver (1 is the mem devices', on vfslab too).
 */
const struct rp_build_ops rp_build_vfs = {
	.sys = &sys_ops_vfslab,
	.dev_major = 0,
	.dev_minor = 0,
};

const struct rp_build_ops rp_build_host = {
	.sys = &sys_ops_host,
	.dev_major = 0,
	.dev_minor = 0,
};

/* A regular file of size bytes (sparse), with mode's permission bits. */
static long mkfile(const struct sys_ops *sys, void *ctx, const char *path, mode_t mode,
		   long long size)
{
	long fd = sys->open(ctx, path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, mode);
	long r = 0;

	if (fd < 0)
		return fd;
	if (size)
		r = sys->ftruncate(ctx, (int)fd, size);
	if (!r)
		r = sys->fchmod(ctx, (int)fd, mode & 07777);
	sys->close(ctx, (int)fd);
	return r;
}

/* A device node, fifo or socket: devices get ops's number. */
static long mknode(const struct rp_build_ops *ops, void *ctx, const char *path, mode_t mode)
{
	return ops->sys->mknod(
		ctx, path, mode,
		S_ISCHR(mode) || S_ISBLK(mode) ? makedev(ops->dev_major, ops->dev_minor) : 0);
}

long rp_tree_build(const struct rp_tree *tree, const struct rp_build_ops *ops, void *ctx,
		   const char *prefix, bool prefix_targets)
{
	const struct sys_ops *sys = ops->sys;
	struct sys_vfs v = { .task = ctx }; /* the host's calls take none */
	char path[8192], target[8192];
	size_t pl = strlen(prefix);
	long r;

	if (pl) {
		r = sys->mkdir(&v, prefix, 0755);
		if (r < 0 && r != -EEXIST)
			return r;
	}
	snprintf(path, sizeof(path), "%s%s", prefix, RP_HIDDEN_DIR);
	r = sys->mkdir(&v, path, 0755);
	if (r < 0 && r != -EEXIST)
		return r;
	snprintf(path, sizeof(path), "%s%s", prefix, RP_PLACEHOLDER);
	r = mkfile(sys, &v, path, 0666, 0);
	if (r < 0 && r != -EEXIST)
		return r;
	/* the root's own mode */
	if (tree->nr && !pl) {
		r = sys->chmod(&v, "/", tree->nodes[0].mode & 07777);
		if (r < 0)
			return r;
	}
	for (size_t i = 1; i < tree->nr; i++) {
		const struct rp_node *n = &tree->nodes[i];

		memcpy(path, prefix, pl);
		rp_tree_path(tree, (int)i, path + pl, sizeof(path) - pl);
		switch (n->mode & S_IFMT) {
		case S_IFDIR:
			r = sys->mkdir(&v, path, n->mode & 07777);
			if (r == -EEXIST)
				r = 0;
			if (!r)
				r = sys->chmod(&v, path, n->mode & 07777);
			break;
		case S_IFREG:
			r = mkfile(sys, &v, path, n->mode, n->size);
			break;
		case S_IFLNK:
			if (n->target && n->target[0] == '/' && pl && prefix_targets)
				snprintf(target, sizeof(target), "%s%s", prefix, n->target);
			else
				snprintf(target, sizeof(target), "%s", n->target ? n->target : "?");
			r = sys->symlink(&v, target, path);
			break;
		default:
			r = mknode(ops, &v, path, n->mode);
			if (!r)
				r = sys->chmod(&v, path, n->mode & 07777);
			break;
		}
		if (r < 0)
			return r;
	}
	return 0;
}
