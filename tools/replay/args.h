/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The text of strace's arguments and results as values (args.c): flag
 * expressions, errno names, C strings, descriptors with their -y
 * decorations, stat output, iovec lengths, utimensat times.
 */
#ifndef VFSLAB_TOOLS_REPLAY_ARGS_H
#define VFSLAB_TOOLS_REPLAY_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A call's arguments, split at top-level commas. */
#define MAX_ARGS 12

struct args {
	const char *s[MAX_ARGS];
	size_t len[MAX_ARGS];
	int n;
};

const char *rp_skip_ws(const char *s, const char *end);
/* "O_RDONLY|O_CLOEXEC", "0644", "-1", "0x8000 /\* ... *\/": false if unknown. */
bool rp_parse_expr(const char *s, size_t len, long *out);
/* An errno name's number; *interrupted for ERESTARTSYS and its kin. */
long rp_errno_lookup(const char *s, size_t len, bool *interrupted);
/* A C string literal, malloc'ed (length in *outlen), or NULL; *end past it. */
char *rp_parse_string(const char *s, const char *lim, const char **end, unsigned int *outlen,
		      bool *trunc);
/* Split the text after "NAME(" into a; the text after ')' or NULL. */
const char *rp_split_args(const char *s, struct args *a);
/* A descriptor argument: "3", "3</path>", "AT_FDCWD", "AT_FDCWD</cwd>". */
bool rp_parse_fd(const char *s, size_t len, long *fd, const char **deco, size_t *decolen);
/*
 * "{st_mode=S_IFREG|0644, st_size=3, ...}" (or stx_mode/stx_size);
 * *not_tmpfs: the st_dev or the directory size shown is not tmpfs's.
 */
bool rp_parse_stat(const char *s, size_t len, mode_t *mode, long long *size, bool *not_tmpfs);
/* "[{iov_base=..., iov_len=5}, {...}]": the sum of iov_len. */
long rp_parse_iov(const char *s, size_t len);
/* utimensat's times as a malloc'ed struct timespec[2], or NULL. */
char *rp_parse_times(const char *s, size_t len, unsigned int *outlen);

#endif /* VFSLAB_TOOLS_REPLAY_ARGS_H */
