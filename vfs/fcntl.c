// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fcntl: duplicating descriptors, close-on-exec and the status flags.
 * Models fs/fcntl.c.
 */
#include "vfs/internal.h"

/* Models setfl(). */
static long setfl(struct task *t, struct file *f, unsigned long arg)
{
	struct vfs *v = t->vfs;
	unsigned int *flags = file_flags(v, f);

	if ((arg & O_NOATIME) && !(*flags & O_NOATIME) &&
	    !inode_owner_or_capable(&t->cred, file_inode(v, f)))
		return -EPERM;
	/* A fifo takes O_DIRECT (pipe packet mode), though open() refused it. */
	if ((arg & O_DIRECT) && !S_ISFIFO(READ_ONCE(file_inode(v, f)->i_mode)) &&
	    !(file_fmode(v, f) & FMODE_CAN_ODIRECT))
		return -EINVAL;
	/* Only a file with ->fasync (here: fifos) keeps FASYNC. */
	if (*file_op(v, f) != &fifo_operations)
		arg &= ~FASYNC;
	spin_lock(file_lock(v, f));
	*flags = (arg & FILE_SETFL_MASK) | (*flags & ~FILE_SETFL_MASK);
	spin_unlock(file_lock(v, f));
	return 0;
}

/* The commands an O_PATH descriptor allows (check_fcntl_cmd()). */
static bool check_fcntl_cmd(int cmd)
{
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
	case F_GETFD:
	case F_SETFD:
	case F_GETFL:
		return true;
	}
	return false;
}

long sys_fcntl(struct task *t, int fd, int cmd, unsigned long arg)
{
	struct fd f = fdget_raw(t, fd);
	struct file *file = fd_file(f);
	long err = -EBADF;

	if (fd < 0 || !file)
		return -EBADF;
	if ((file_fmode(t->vfs, file) & FMODE_PATH) && !check_fcntl_cmd(cmd))
		goto out;
	switch (cmd) {
	case F_DUPFD:
		err = f_dupfd(t, (unsigned int)(int)arg, file, 0);
		break;
	case F_DUPFD_CLOEXEC:
		err = f_dupfd(t, (unsigned int)(int)arg, file, O_CLOEXEC);
		break;
	case F_GETFD:
		err = get_close_on_exec(t, fd) ? FD_CLOEXEC : 0;
		break;
	case F_SETFD:
		err = 0;
		set_close_on_exec(t, fd, arg & FD_CLOEXEC);
		break;
	case F_GETFL:
		err = *file_flags(t->vfs, file);
		break;
	case F_SETFL:
		err = setfl(t, file, arg);
		break;
	default:
		err = -EINVAL;
		break;
	}
out:
	fdput(t, f);
	return err;
}
