// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * AF_UNIX sockets as far as the namespace sees them. Models the path half
 * of net/unix/af_unix.c: unix_bind_bsd() makes an S_IFSOCK inode at the
 * path and keeps the path; unix_find_bsd() resolves a path for connect,
 * checks MAY_WRITE on it, and finds the socket bound to that inode. There
 * is no data path: a socket is a struct file of its own (sockfs' inode,
 * here an unlinked inode of the instance) whose private_data says where it
 * is bound and whether it listens. A connect succeeds only to a listening
 * socket and queues nothing.
 */
#include <limits.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "vfs/internal.h"
#include "vfs/mount.h"

/* What pjdfstest's strncpy() leaves of a path in sun_path, NUL included. */
#define UNIX_PATH_MAX sizeof(((struct sockaddr_un *)0)->sun_path)

struct unix_sock {
	struct path path; /* bound to: a reference, as unix_sk(sk)->path */
	bool bound, listening, connected;
};

static struct unix_sock *file_sock(struct vfs *v, struct file *f)
{
	return *file_op(v, f) == &socket_file_ops ? *file_private_data(v, f) : NULL;
}

/* sock_read_iter(), sock_write_iter(): no data moves in vfslab. */
static long sock_read(struct vfs *v, struct file *f, void *buf, size_t n, long long *pos)
{
	struct unix_sock *u = *file_private_data(v, f);

	(void)buf, (void)n, (void)pos;
	return u->connected ? -EOPNOTSUPP : -ENOTCONN;
}

static long sock_write(struct vfs *v, struct file *f, const void *buf, size_t n, long long *pos)
{
	return sock_read(v, f, (void *)buf, n, pos);
}

/* unix_release_sock(): the inode stays, but nothing is bound to it. */
static void sock_release(struct vfs *v, struct file *f)
{
	struct unix_sock *u = *file_private_data(v, f);

	if (u->bound) {
		struct inode *inode = d_inode(v, u->path.dentry);

		spin_lock(&inode->i_lock);
		if (inode->i_socket == u)
			inode->i_socket = NULL;
		spin_unlock(&inode->i_lock);
		path_put(v, &u->path);
	}
	free(u);
}

const struct file_operations socket_file_ops = {
	.read = sock_read,
	.write = sock_write,
	.release = sock_release,
};

/* sock_alloc_file() on sockfs' inode: S_IFSOCK 0777, owned by the caller. */
static struct file *sock_alloc_file(struct task *t, struct unix_sock *u)
{
	static const struct qstr name = { .hash_len = hashlen_create(0, 1),
					  .name = (const unsigned char *)"/" };
	struct vfs *v = t->vfs;
	struct path path = { v->root_mnt, d_alloc(v, v->root, &name) };
	struct inode *inode;
	struct file *f;

	if (!path.dentry)
		return NULL;
	inode = new_inode(v->root_mnt->mnt_sb, &t->cred, NULL, S_IFSOCK | S_IRWXUGO, 0);
	if (!inode) {
		dput(v, path.dentry);
		return NULL;
	}
	inode->i_nlink = 0;
	d_instantiate(v, path.dentry, inode);
	f = alloc_file(v, &path, O_RDWR, &socket_file_ops, &t->cred);
	if (f) {
		path_get(v, &path);
		*file_private_data(v, f) = u;
	}
	dput(v, path.dentry);
	return f;
}

/* Models __sys_socket() for the one kind vfslab has. */
long sys_socket(struct task *t, int family, int type, int protocol)
{
	int flags = type & (SOCK_CLOEXEC | SOCK_NONBLOCK);
	struct unix_sock *u;
	struct file *f;
	int fd;

	type &= ~(SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (family != AF_UNIX)
		return -EAFNOSUPPORT;
	if (type != SOCK_STREAM)
		return -ESOCKTNOSUPPORT;
	if (protocol && protocol != PF_UNIX)
		return -EPROTONOSUPPORT;
	fd = get_unused_fd_flags(t, flags & SOCK_CLOEXEC ? O_CLOEXEC : 0);
	if (fd < 0)
		return fd;
	u = calloc(1, sizeof(*u));
	f = u ? sock_alloc_file(t, u) : NULL;
	if (!f) {
		free(u);
		put_unused_fd(t, fd);
		return -ENFILE;
	}
	if (flags & SOCK_NONBLOCK)
		*file_flags(t->vfs, f) |= O_NONBLOCK;
	fd_install(t, fd, f);
	return fd;
}

/* The socket behind fd: EBADF, or ENOTSOCK for another kind of file. */
static struct unix_sock *sockfd_lookup(struct task *t, int fd, struct fd *f)
{
	struct unix_sock *u;

	*f = fdget(t, fd);
	if (fd < 0 || !fd_file(*f))
		return ERR_PTR(-EBADF);
	u = file_sock(t->vfs, fd_file(*f));
	if (!u) {
		fdput(t, *f);
		return ERR_PTR(-ENOTSOCK);
	}
	return u;
}

/* unix_mkname_bsd(): a path that fills sun_path has no room for its NUL. */
static int unix_mkname(const char *path)
{
	if (!path)
		return -EFAULT;
	if (strnlen(path, UNIX_PATH_MAX) >= UNIX_PATH_MAX)
		return -EINVAL;
	return 0;
}

/* Models unix_bind() of a path (unix_bind_bsd()). */
long sys_bind_path(struct task *t, int fd, const char *path)
{
	struct vfs *v = t->vfs;
	struct unix_sock *u;
	struct path res;
	struct fd f;
	long err;

	u = sockfd_lookup(t, fd, &f);
	if (IS_ERR(u))
		return PTR_ERR(u);
	err = unix_mkname(path);
	/* An empty sun_path is the abstract namespace: nothing in the tree. */
	if (!err && !*path)
		err = u->bound ? -EINVAL : 0;
	else if (!err && u->bound)
		err = -EINVAL;
	else if (!err)
		err = vfs_mknod_socket(t, path, S_IRWXUGO, &res);
	if (!err && *path) {
		struct inode *inode = d_inode(v, res.dentry);

		u->path = res;
		u->bound = true;
		spin_lock(&inode->i_lock);
		inode->i_socket = u;
		spin_unlock(&inode->i_lock);
	}
	fdput(t, f);
	return err;
}

/* Models unix_listen(): only a bound socket listens. */
long sys_listen(struct task *t, int fd, int backlog)
{
	struct unix_sock *u;
	struct fd f;
	long err = 0;

	(void)backlog;
	u = sockfd_lookup(t, fd, &f);
	if (IS_ERR(u))
		return PTR_ERR(u);
	if (!u->bound || u->connected)
		err = -EINVAL;
	else
		WRITE_ONCE(u->listening, true);
	fdput(t, f);
	return err;
}

/* Models unix_find_bsd() and unix_stream_connect()'s first checks. */
long sys_connect_path(struct task *t, int fd, const char *path)
{
	struct vfs *v = t->vfs;
	struct unix_sock *u, *peer;
	struct inode *inode;
	struct path p;
	struct fd f;
	long err;

	u = sockfd_lookup(t, fd, &f);
	if (IS_ERR(u))
		return PTR_ERR(u);
	err = unix_mkname(path);
	if (!err && !*path)
		err = -ECONNREFUSED; /* no abstract socket listens in vfslab */
	if (!err)
		err = user_path_at(t, AT_FDCWD, path, LOOKUP_FOLLOW, &p, NULL);
	if (err)
		goto out;
	inode = d_inode(v, p.dentry);
	err = inode_permission(&t->cred, inode, MAY_WRITE);
	if (!err && !S_ISSOCK(READ_ONCE(inode->i_mode)))
		err = -ECONNREFUSED;
	if (!err) {
		spin_lock(&inode->i_lock);
		peer = inode->i_socket;
		if (!peer || !READ_ONCE(peer->listening))
			err = -ECONNREFUSED;
		spin_unlock(&inode->i_lock);
	}
	path_put(v, &p);
	if (!err && u->connected)
		err = -EISCONN;
	if (!err)
		u->connected = true;
out:
	fdput(t, f);
	return err;
}

/* pjdfstest's bind and connect: a new socket, sun_path as strncpy() fills it. */
static long pjdfstest_socket_op(struct task *t, const char *path, bool bind)
{
	char sun_path[UNIX_PATH_MAX] = { 0 };
	long fd;

	if (path)
		strncpy(sun_path, path, sizeof(sun_path) - 1);
	fd = sys_socket(t, AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return fd;
	return bind ? sys_bind_path(t, (int)fd, sun_path) : sys_connect_path(t, (int)fd, sun_path);
}

long sys_bind(struct task *t, const char *path)
{
	return pjdfstest_socket_op(t, path, true);
}

long sys_connect(struct task *t, const char *path)
{
	return pjdfstest_socket_op(t, path, false);
}
