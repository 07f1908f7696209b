// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What fstest prints, as pjdfstest prints it: errno names, escaped data,
 * flags by name, stat fields.
 */
/* Before any libc header: O_PATH, AT_*, RENAME_*, asprintf. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "tools/fstest/engine.h"

const char *fstest_strerror(int err)
{
	static char num[16];

	if (sys_errno_pjdfstest(err))
		return sys_errno_name(err);
	snprintf(num, sizeof(num), "%d", err);
	return num;
}

void fstest_put_escaped(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\')
			fputs("\\\\", out);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

/* Names of the set bits of @v from @t, leftover bits in octal, or "0". */
void fstest_put_flags(FILE *out, const struct sys_name *t, long long v)
{
	char buf[512];

	sys_flags_format(buf, sizeof(buf), t, v);
	fputs(buf, out);
}

/* F_GETFL's answer: access mode first, then the status flags. */
void fstest_put_open_flags(FILE *out, long long v)
{
	char buf[512];

	sys_flag_word_format(buf, sizeof(buf), &sys_file_flags, v, SYS_FLAGS_FSTEST);
	fputs(buf, out);
}

static const char *type_name(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFIFO:
		return "fifo";
	case S_IFCHR:
		return "char";
	case S_IFDIR:
		return "dir";
	case S_IFBLK:
		return "block";
	case S_IFREG:
		return "regular";
	case S_IFLNK:
		return "symlink";
	case S_IFSOCK:
		return "socket";
	default:
		return "unknown";
	}
}

/* pjdfstest's show_stat(): one field, by name; "unknown" for others. */
static void put_stat_field(FILE *out, const struct stat *st, const char *w, size_t n)
{
#define IS(name) (n == sizeof(name) - 1 && memcmp(w, name, n) == 0)
	if (IS("mode"))
		fprintf(out, "0%o", (unsigned int)(st->st_mode & 07777));
	else if (IS("inode"))
		fprintf(out, "%lld", (long long)st->st_ino);
	else if (IS("nlink"))
		fprintf(out, "%lld", (long long)st->st_nlink);
	else if (IS("uid"))
		fprintf(out, "%d", (int)st->st_uid);
	else if (IS("gid"))
		fprintf(out, "%d", (int)st->st_gid);
	else if (IS("size"))
		fprintf(out, "%lld", (long long)st->st_size);
	else if (IS("blocks"))
		fprintf(out, "%lld", (long long)st->st_blocks);
	else if (IS("atime"))
		fprintf(out, "%lld", (long long)st->st_atim.tv_sec);
	else if (IS("atime_ns"))
		fprintf(out, "%lld", (long long)st->st_atim.tv_nsec);
	else if (IS("ctime"))
		fprintf(out, "%lld", (long long)st->st_ctim.tv_sec);
	else if (IS("ctime_ns"))
		fprintf(out, "%lld", (long long)st->st_ctim.tv_nsec);
	else if (IS("mtime"))
		fprintf(out, "%lld", (long long)st->st_mtim.tv_sec);
	else if (IS("mtime_ns"))
		fprintf(out, "%lld", (long long)st->st_mtim.tv_nsec);
	else if (IS("major"))
		fprintf(out, "%u", (unsigned int)major(st->st_rdev));
	else if (IS("minor"))
		fprintf(out, "%u", (unsigned int)minor(st->st_rdev));
	else if (IS("type"))
		fputs(type_name(st->st_mode), out);
	else
		fputs("unknown", out);
#undef IS
}

/* Fields split on ',' with empty ones skipped, as strtok() does. */
void fstest_put_stat(FILE *out, const struct stat *st, const char *what)
{
	const char *sep = "";

	while (*what) {
		size_t n = strcspn(what, ",");

		if (n) {
			fputs(sep, out);
			put_stat_field(out, st, what, n);
			sep = ",";
		}
		what += n;
		if (*what == ',')
			what++;
	}
	fputc('\n', out);
}
