// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The oracle: is a return value one Linux can give for the call here?
 */
#include "tools/torture/engine.h"

static bool errno_allowed(const int *errs, int e)
{
	for (; *errs; errs++)
		if (*errs == e)
			return true;
	return false;
}

static bool good_name(const char *s, size_t n)
{
	if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
		return true;
	if (n == 1 && s[0] >= 'a' && s[0] <= 'c')
		return true;
	if (n != LONG_NAME_LEN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] != 'x')
			return false;
	return true;
}

/* getdents64's records: lengths add up, names are ours, types are real. */
static int check_dirents(const char *buf, long n, char *msg, size_t len)
{
	const size_t hdr = offsetof(struct linux_dirent64, d_name);

	for (long off = 0; off < n;) {
		const struct linux_dirent64 *d = (const void *)(buf + off);
		size_t reclen, nl;

		if ((size_t)(n - off) < hdr + 1)
			return snprintf(msg, len, "record at %ld runs past the %ld bytes", off, n);
		reclen = d->d_reclen;
		if (reclen < hdr + 2 || reclen % 8 || off + (long)reclen > n)
			return snprintf(msg, len, "record at %ld has d_reclen %zu", off, reclen);
		nl = strnlen(d->d_name, reclen - hdr);
		if (nl == reclen - hdr)
			return snprintf(msg, len, "record at %ld: name not terminated", off);
		if (!good_name(d->d_name, nl))
			return snprintf(msg, len, "record at %ld: name '%.*s' was never created",
					off, (int)nl, d->d_name);
		if (d->d_type != DT_DIR && d->d_type != DT_REG && d->d_type != DT_LNK &&
		    d->d_type != DT_CHR)
			return snprintf(msg, len, "'%s' has d_type %u", d->d_name, d->d_type);
		if (!d->d_ino)
			return snprintf(msg, len, "'%s' has inode 0", d->d_name);
		off += reclen;
	}
	return 0;
}

static int check_stat(const struct op *op, const struct stat *st, char *msg, size_t len)
{
	mode_t type = st->st_mode & S_IFMT;

	if (!st->st_ino)
		return snprintf(msg, len, "st_ino 0");
	if (type != S_IFREG && type != S_IFDIR && type != S_IFLNK && type != S_IFCHR)
		return snprintf(msg, len, "st_mode 0%o: a type nothing creates", st->st_mode);
	if (type == S_IFLNK && op->kind == OP_STAT)
		return snprintf(msg, len, "stat() followed to a symlink");
	/* No st_nlink test: rmdir drops a directory's two links one by one. */
	if (type == S_IFDIR && (st->st_size < 40 || st->st_size % 20))
		return snprintf(msg, len, "a directory of size %lld", (long long)st->st_size);
	if (type == S_IFCHR && st->st_rdev)
		return snprintf(msg, len, "a char device %#lx; only whiteouts (0:0) are made",
				(unsigned long)st->st_rdev);
	if (st->st_size < 0)
		return snprintf(msg, len, "st_size %lld", (long long)st->st_size);
	return 0;
}

/* 0, or FK_* with msg filled. */
int torture_oracle(const struct torture *tt, const struct op *op, long ret, const char *buf,
		   const struct stat *st, char *msg, size_t len)
{
	const struct op_desc *d = &torture_ops[op->kind];
	char e[32];

	msg[0] = '\0';
	if (ret < 0) {
		int err = (int)-ret;

		if (ret < -4095 || !errno_allowed(d->errs, err)) {
			snprintf(msg, len, "%s returned %s: not an errno Linux gives for %s",
				 d->name, torture_ret_str(ret, e, sizeof(e)), d->name);
			return FK_ERRNO;
		}
		if (op->kind == tt->fail_on_op && err == tt->fail_on_errno) {
			snprintf(msg, len, "%s returned %s (--fail-on)", d->name,
				 torture_ret_str(ret, e, sizeof(e)));
			if (tt->fail_on_crash) {
				fprintf(stderr, "vfslab torture: --fail-on %s:%s:crash\n", d->name,
					sys_errno_name(err));
				abort();
			}
			if (tt->fail_on_hang)
				for (;;)
					pause();
			return FK_INJECTED;
		}
		return 0;
	}
	switch (op->kind) {
	case OP_OPEN:
	case OP_OPENAT:
	case OP_DUP:
		if (ret >= NOFILE)
			snprintf(msg, len, "fd %ld is past RLIMIT_NOFILE %d", ret, NOFILE);
		break;
	case OP_DUP2:
		if (ret != op->fd2)
			snprintf(msg, len, "dup2 to %d returned %ld", op->fd2, ret);
		break;
	case OP_STAT:
	case OP_LSTAT:
	case OP_FSTAT:
		if (ret)
			snprintf(msg, len, "returned %ld", ret);
		else
			check_stat(op, st, msg, len);
		break;
	case OP_LOOKUP_MISSING:
		snprintf(msg, len, "found a name nothing creates (returned %ld)", ret);
		break;
	case OP_READ:
	case OP_PREAD:
		if (ret > (long)op->count) {
			snprintf(msg, len, "read %ld bytes of %u asked", ret, op->count);
			break;
		}
		/* Only 'x' is ever written; holes and truncation read as zeros. */
		for (long i = 0; i < ret; i++)
			if (buf[i] != 'x' && buf[i]) {
				snprintf(msg, len, "byte %ld read is 0x%02x, never written", i,
					 (unsigned char)buf[i]);
				break;
			}
		break;
	case OP_WRITE:
	case OP_PWRITE:
		if (ret != (long)op->count)
			snprintf(msg, len, "wrote %ld bytes of %u", ret, op->count);
		break;
	case OP_LSEEK:
		if (op->flags == SEEK_SET && ret != op->off)
			snprintf(msg, len, "SEEK_SET to %" PRId64 " returned %ld", op->off, ret);
		break;
	case OP_READLINK:
		if (ret < 1 || ret > (long)op->count) {
			snprintf(msg, len, "returned %ld for a %u-byte buffer", ret, op->count);
			break;
		}
		for (long i = 0; i < ret; i++)
			if (!strchr("abcx/.", buf[i]) || !buf[i]) {
				snprintf(msg, len, "body byte %ld is 0x%02x", i,
					 (unsigned char)buf[i]);
				break;
			}
		break;
	case OP_GETDENTS:
		if (ret > (long)op->count)
			snprintf(msg, len, "returned %ld for a %u-byte buffer", ret, op->count);
		else
			check_dirents(buf, ret, msg, len);
		break;
	case OP_FORK:
	case OP_EXIT:
	case OP_INIT:
	case OP_SPAWN:
		break;
	default:
		if (ret)
			snprintf(msg, len, "returned %ld, not 0", ret);
	}
	if (msg[0]) {
		char tmp[1024];

		snprintf(tmp, sizeof(tmp), "%s: %s", d->name, msg);
		snprintf(msg, len, "%s", tmp);
		return FK_VALUE;
	}
	return 0;
}
