// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Ops as lines of the fstest language, and return values by name.
 */
#include "tools/torture/engine.h"

static const char *const short_names[] = { "a", "b", "c" };

static size_t put_name(char *buf, size_t pos, size_t len, unsigned int name, bool pretty)
{
	if (name < 3)
		pos += snprintf(buf + pos, pos < len ? len - pos : 0, "%s", short_names[name]);
	else if (pretty)
		pos += snprintf(buf + pos, pos < len ? len - pos : 0, "{%d*x}", LONG_NAME_LEN);
	else
		pos += snprintf(buf + pos, pos < len ? len - pos : 0, "%.*s", LONG_NAME_LEN,
				"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	return pos;
}

/* The path a code stands for; pretty writes the long name as {40*x}. */
const char *torture_path_str(unsigned int code, char *buf, size_t len, bool pretty)
{
	size_t pos = 0;

	if (code == PC_ROOT) {
		snprintf(buf, len, "/");
		return buf;
	}
	buf[0] = '\0';
	if ((code & PC_REL) && (code & PC_DOTDOT))
		pos += snprintf(buf + pos, len - pos, "../");
	for (unsigned int i = 0; i < PC_DEPTH(code); i++) {
		if (i || !(code & PC_REL))
			pos += snprintf(buf + pos, pos < len ? len - pos : 0, "/");
		pos = put_name(buf, pos, len, PC_NAME(code, i), pretty);
	}
	if (!(code & PC_REL) && (code & PC_DOTDOT))
		pos += snprintf(buf + pos, pos < len ? len - pos : 0, "/..");
	if (code & PC_SLASH)
		snprintf(buf + pos, pos < len ? len - pos : 0, "/");
	return buf;
}

static void oflags_str(int flags, char *buf, size_t len)
{
	const char *acc = sys_name_of(sys_open_flags, flags & O_ACCMODE);
	size_t pos = snprintf(buf, len, "%s", acc ? acc : "3");

	if ((flags & O_TMPFILE) == O_TMPFILE) {
		pos += snprintf(buf + pos, len - pos, ",O_TMPFILE");
		flags &= ~O_TMPFILE;
	}
	flags &= ~O_ACCMODE;
	if (flags && pos + 1 < len) {
		buf[pos++] = ',';
		sys_flags_format(buf + pos, len - pos, sys_open_flags, flags);
	}
}

static const char *whence_str(int whence, char *buf, size_t len)
{
	const char *name = sys_name_of(sys_seek_whences, whence);

	if (name)
		return name;
	snprintf(buf, len, "%d", whence);
	return buf;
}

static const char *fd_str(int fd, char *buf, size_t len)
{
	if (fd == AT_FDCWD)
		return "AT_FDCWD";
	snprintf(buf, len, "=%d", fd);
	return buf;
}

/* lookup-missing's path: its directory and the missing name. */
const char *torture_missing_str(const struct op *op, char *buf, size_t len, bool pretty)
{
	size_t n;

	torture_path_str(op->p1, buf, len, pretty);
	n = strlen(buf);
	snprintf(buf + n, n < len ? len - n : 0, "/m%u", op->count);
	return buf;
}

/* An op as a line of the fstest language (a comment where it has none). */
void torture_fmt_op(const struct op *op, char *buf, size_t len)
{
	char a[PATH_BUF], b[PATH_BUF], f[160], fdb[16];

	torture_path_str(op->p1, a, sizeof(a), true);
	torture_path_str(op->p2, b, sizeof(b), true);
	if (op->kind == OP_OPEN && op->p1 == PC_ROOT) {
		/* Only the set-up opens "/": vfslab shell starts with these fds too. */
		snprintf(buf, len, "# open / O_PATH (fds 0-2, as vfslab shell has them)");
		return;
	}
	switch (op->kind) {
	case OP_OPEN:
	case OP_OPENAT:
		oflags_str(op->flags, f, sizeof(f));
		if (op->kind == OP_OPEN)
			snprintf(buf, len, "open %s %s", a, f);
		else
			snprintf(buf, len, "openat %s %s %s", fd_str(op->fd, fdb, sizeof(fdb)), a,
				 f);
		if (op->flags & (O_CREAT | (O_TMPFILE & ~O_DIRECTORY)))
			snprintf(buf + strlen(buf), len - strlen(buf), " 0%o", op->mode);
		break;
	case OP_CLOSE:
	case OP_DUP:
		snprintf(buf, len, "%s =%d", torture_ops[op->kind].name, op->fd);
		break;
	case OP_DUP2:
		snprintf(buf, len, "dup2 =%d %d", op->fd, op->fd2);
		break;
	case OP_STAT:
	case OP_LSTAT:
		snprintf(buf, len, "%s %s type,mode,nlink,size", torture_ops[op->kind].name, a);
		break;
	case OP_LOOKUP_MISSING:
		snprintf(buf, len, "stat %s type,mode,nlink,size",
			 torture_missing_str(op, a, sizeof(a), true));
		break;
	case OP_FSTAT:
		snprintf(buf, len, "fstat =%d type,mode,nlink,size", op->fd);
		break;
	case OP_READ:
		snprintf(buf, len, "read =%d %u", op->fd, op->count);
		break;
	case OP_PREAD:
		snprintf(buf, len, "pread =%d %u %" PRId64, op->fd, op->count, op->off);
		break;
	case OP_WRITE:
	case OP_PWRITE:
		if (op->count)
			snprintf(f, sizeof(f), "{%u*x}", op->count);
		else
			snprintf(f, sizeof(f), "''");
		if (op->kind == OP_WRITE)
			snprintf(buf, len, "write =%d %s", op->fd, f);
		else
			snprintf(buf, len, "pwrite =%d %s %" PRId64, op->fd, f, op->off);
		break;
	case OP_LSEEK:
		snprintf(buf, len, "lseek =%d %" PRId64 " %s", op->fd, op->off,
			 whence_str(op->flags, f, sizeof(f)));
		break;
	case OP_RENAME:
	case OP_LINK:
		snprintf(buf, len, "%s %s %s", torture_ops[op->kind].name, a, b);
		break;
	case OP_EXCHANGE:
	case OP_NOREPLACE:
	case OP_WHITEOUT:
		snprintf(buf, len, "renameat2 AT_FDCWD %s AT_FDCWD %s %s", a, b,
			 op->kind == OP_EXCHANGE  ? "RENAME_EXCHANGE" :
			 op->kind == OP_NOREPLACE ? "RENAME_NOREPLACE" :
						    "RENAME_WHITEOUT");
		break;
	case OP_UNLINK:
	case OP_RMDIR:
		snprintf(buf, len, "%s %s", torture_ops[op->kind].name, a);
		break;
	case OP_MKDIR:
	case OP_CHMOD:
		snprintf(buf, len, "%s %s 0%o", torture_ops[op->kind].name, a, op->mode);
		break;
	case OP_SYMLINK:
		snprintf(buf, len, "symlink %s %s", a, b);
		break;
	case OP_READLINK:
		snprintf(buf, len, "readlink %s %u", a, op->count);
		break;
	case OP_FTRUNCATE:
		snprintf(buf, len, "ftruncate =%d %" PRId64, op->fd, op->off);
		break;
	case OP_GETDENTS:
		/* fstest's getdents reads to the end; the op is one call of COUNT bytes. */
		snprintf(buf, len, "getdents =%d %u", op->fd, op->count);
		break;
	case OP_CLOSE_RANGE:
		snprintf(buf, len, "close_range %d %u %s", op->fd, (unsigned int)op->fd2,
			 op->flags == (int)CLOSE_RANGE_UNSHARE ? "CLOSE_RANGE_UNSHARE" :
			 op->flags == (int)CLOSE_RANGE_CLOEXEC ? "CLOSE_RANGE_CLOEXEC" :
								 "0");
		break;
	case OP_RMTREE:
		snprintf(buf, len, "# rm -rf %s (lstat, open, getdents64, unlink, rmdir)", a);
		break;
	case OP_CHDIR:
		snprintf(buf, len, "chdir %s", a);
		break;
	case OP_FCHDIR:
		snprintf(buf, len, "fchdir =%d", op->fd);
		break;
	case OP_LINKAT_FD:
		snprintf(buf, len, "linkat =%d '' AT_FDCWD %s AT_EMPTY_PATH", op->fd, b);
		break;
	case OP_FORK:
		snprintf(buf, len, "# fork%s", op->flags ? " CLONE_FILES" : "");
		break;
	case OP_MOUNT:
		if (op->flags == MOUNT_TMPFS)
			snprintf(buf, len, "mount none %s tmpfs 0", a);
		else if (op->flags == MOUNT_RDONLY)
			snprintf(buf, len, "mount none %s NULL MS_BIND,MS_REMOUNT,MS_RDONLY", a);
		else
			snprintf(buf, len, "mount %s %s NULL MS_BIND%s", b, a,
				 op->flags == MOUNT_RBIND ? ",MS_REC" : "");
		break;
	case OP_UMOUNT:
		snprintf(buf, len, "umount2 %s %s", a, op->flags ? "MNT_DETACH" : "0");
		break;
	case OP_EXIT:
		snprintf(buf, len, "# exit");
		break;
	case OP_INIT:
		snprintf(buf, len, "# init task: uid 0, umask 0, cwd /");
		break;
	case OP_SPAWN:
		snprintf(buf, len, "# spawn from T%d.0%s, uid %u", op->fd,
			 op->flags ? " with CLONE_FILES" : " (a separate process)", op->mode);
		break;
	default:
		snprintf(buf, len, "# op %u?", op->kind);
	}
}

const char *torture_ret_str(long ret, char *buf, size_t len)
{
	if (ret == RET_SKIP)
		return "skipped";
	return sys_ret_name(ret, buf, len);
}
