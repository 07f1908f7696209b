// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The calls torture makes, how often, and the errnos Linux can give for
 * each of them here.
 */
#include "tools/torture/engine.h"

/*
 * The errnos each call can give here: Linux's documented set, less what
 * cannot happen on tmpfs with these arguments (valid buffers, names of at
 * most 40 bytes, no signals, quotas, fifos or devices to open, no memory
 * pressure). EACCES and EPERM come from the unprivileged task; mounts add
 * EXDEV (link, rename across them), EBUSY (a mountpoint removed),
 * EROFS (a mount made read-only) and ENOSPC (fs.mount-max reached).
 */
#define E_PATH ENOENT, ENOTDIR, ELOOP, EACCES

static const int e_open[] = { E_PATH, EEXIST, EISDIR, EMFILE, ENXIO, EINVAL, EROFS, 0 };
static const int e_openat[] = { E_PATH, EEXIST, EISDIR, EMFILE, ENXIO, EINVAL, EBADF, EROFS, 0 };
static const int e_close[] = { EBADF, 0 };
static const int e_dup[] = { EBADF, EMFILE, 0 };
static const int e_dup2[] = { EBADF, EBUSY, 0 };
static const int e_stat[] = { E_PATH, 0 };
static const int e_fstat[] = { EBADF, 0 };
static const int e_read[] = { EBADF, EINVAL, EISDIR, 0 };
static const int e_write[] = { EBADF, EINVAL, 0 };
static const int e_lseek[] = { EBADF, EINVAL, ENXIO, 0 };
static const int e_rename[] = { E_PATH, EBUSY, EINVAL, EISDIR, ENOTEMPTY,
				EEXIST, EPERM, EXDEV,  EROFS,  0 };
static const int e_unlink[] = { E_PATH, EISDIR, EPERM, EBUSY, EROFS, 0 };
static const int e_mkdir[] = { E_PATH, EEXIST, EROFS, 0 };
static const int e_rmdir[] = { E_PATH, EBUSY, EINVAL, ENOTEMPTY, EPERM, EROFS, 0 };
static const int e_link[] = { E_PATH, EEXIST, EPERM, EXDEV, EROFS, 0 };
static const int e_symlink[] = { E_PATH, EEXIST, EROFS, 0 };
static const int e_readlink[] = { E_PATH, EINVAL, 0 };
static const int e_chmod[] = { E_PATH, EPERM, EROFS, 0 };
static const int e_ftruncate[] = { EBADF, EINVAL, 0 };
static const int e_getdents[] = { EBADF, EINVAL, ENOENT, ENOTDIR, 0 };
static const int e_close_range[] = { EINVAL, 0 };
/* rm -rf: whatever its lstat, open, getdents64, unlink and rmdir may give. */
static const int e_rmtree[] = { E_PATH, EMFILE, EBUSY, EISDIR,	     ENOTEMPTY, EEXIST,
				EINVAL, EBADF,	EPERM, ENAMETOOLONG, EROFS,	0 };
static const int e_chdir[] = { E_PATH, 0 };
static const int e_fchdir[] = { EBADF, ENOTDIR, EACCES, 0 };
static const int e_linkat[] = { E_PATH, EEXIST, EPERM, EBADF, EXDEV, EROFS, 0 };
static const int e_mount[] = { E_PATH, EPERM, EINVAL, EBUSY, ENOSPC, 0 };
static const int e_umount[] = { E_PATH, EPERM, EINVAL, EBUSY, 0 };
static const int e_none[] = { 0 };

const struct op_desc torture_ops[OP_NR] = {
	[OP_OPEN] = { "open", 125, e_open },
	[OP_OPENAT] = { "openat", 25, e_openat },
	[OP_CLOSE] = { "close", 65, e_close },
	[OP_DUP] = { "dup", 25, e_dup },
	[OP_DUP2] = { "dup2", 30, e_dup2 },
	[OP_STAT] = { "stat", 60, e_stat },
	[OP_LSTAT] = { "lstat", 25, e_stat },
	[OP_FSTAT] = { "fstat", 50, e_fstat },
	[OP_READ] = { "read", 45, e_read },
	[OP_WRITE] = { "write", 50, e_write },
	[OP_PREAD] = { "pread", 25, e_read },
	[OP_PWRITE] = { "pwrite", 25, e_write },
	[OP_LSEEK] = { "lseek", 25, e_lseek },
	[OP_RENAME] = { "rename", 45, e_rename },
	[OP_EXCHANGE] = { "rename-exchange", 25, e_rename },
	[OP_NOREPLACE] = { "rename-noreplace", 20, e_rename },
	[OP_WHITEOUT] = { "rename-whiteout", 5, e_rename },
	[OP_UNLINK] = { "unlink", 55, e_unlink },
	[OP_MKDIR] = { "mkdir", 55, e_mkdir },
	[OP_RMDIR] = { "rmdir", 40, e_rmdir },
	[OP_LINK] = { "link", 30, e_link },
	[OP_SYMLINK] = { "symlink", 30, e_symlink },
	[OP_READLINK] = { "readlink", 20, e_readlink },
	[OP_CHMOD] = { "chmod", 20, e_chmod },
	[OP_FTRUNCATE] = { "ftruncate", 25, e_ftruncate },
	[OP_GETDENTS] = { "getdents64", 30, e_getdents },
	[OP_CLOSE_RANGE] = { "close_range", 4, e_close_range },
	[OP_RMTREE] = { "rm-rf", 2, e_rmtree },
	[OP_CHDIR] = { "chdir", 8, e_chdir },
	[OP_FCHDIR] = { "fchdir", 4, e_fchdir },
	[OP_LINKAT_FD] = { "linkat-empty-path", 6, e_linkat },
	[OP_LOOKUP_MISSING] = { "lookup-missing", 20, e_stat },
	[OP_FORK] = { "fork", 6, e_none },
	[OP_EXIT] = { "exit", 6, e_none },
	[OP_MOUNT] = { "mount", 6, e_mount },
	[OP_UMOUNT] = { "umount2", 6, e_umount },
	[OP_INIT] = { "init", 0, e_none },
	[OP_SPAWN] = { "spawn", 0, e_none },
};
