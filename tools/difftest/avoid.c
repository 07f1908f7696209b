// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The classes of calls the generator can steer clear of (--avoid), by
 * name: the table, a list of names into a mask and back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/difftest/difftest.h"

const struct dt_avoid_name *dt_avoid_names(void)
{
	static const struct dt_avoid_name names[] = {
		{ "o-direct", DT_AVOID_O_DIRECT, "O_DIRECT in open and F_SETFL" },
		{ "pos-max", DT_AVOID_POS_MAX, "offsets near LLONG_MAX (pread, pwrite, lseek)" },
		{ "utimes-nsec", DT_AVOID_UTIMES_NSEC,
		  "invalid nanoseconds in utimensat, futimens" },
		{ "tmpfile-getfl", DT_AVOID_TMPFILE_GETFL, "F_GETFL after an O_TMPFILE open" },
		{ "seek-hole", DT_AVOID_SEEK_HOLE, "lseek SEEK_DATA and SEEK_HOLE" },
		{ "tib", DT_AVOID_TIB, "file sizes and offsets of 1 TiB" },
		{ "setid", DT_AVOID_SETID, "S_ISUID and S_ISGID in modes" },
		{ "dir-seek", DT_AVOID_DIR_SEEK, "lseek and getdents in the same line" },
		{ "dents-eof", DT_AVOID_DENTS_EOF,
		  "getdents with a small buffer (EINVAL at the end)" },
		{ "fifo", DT_AVOID_FIFO,
		  "fifos (mkfifo, mknod f): their data outlives the last close" },
		{ "mounts", DT_AVOID_MOUNTS, "mount, umount2 and openat2 lines" },
		{ NULL, 0, NULL },
	};

	return names;
}

/* NAME[,NAME...] of dt_avoid_names() into @mask. */
int dt_avoid_parse(const char *arg, unsigned int *mask)
{
	char *copy = strdup(arg), *save = NULL;

	if (!copy)
		return -1;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		const struct dt_avoid_name *a = dt_avoid_names();

		while (a->name && strcmp(a->name, w))
			a++;
		if (!a->name) {
			cli_error("difftest", "--avoid: unknown '%s' (vfslab difftest --help)", w);
			free(copy);
			return -1;
		}
		*mask |= a->flag;
	}
	free(copy);
	return 0;
}

/* The --avoid names in @mask, comma-separated, into @buf. */
void dt_avoid_string(unsigned int mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const struct dt_avoid_name *a = dt_avoid_names(); a->name; a++)
		if ((mask & a->flag) && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", a->name);
}
