/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Strict number parsing, as include/linux/kstrtox.h has it: the whole
 * string is the number, or it is an error - where strtoull() takes "-1"
 * for 2^64-1, skips leading space and stops quietly at junk.
 */
#ifndef VFSLAB_LIB_KSTRTOX_H
#define VFSLAB_LIB_KSTRTOX_H

/**
 * kstrtoull - the whole of @s as an unsigned number
 * @s: digits only: no sign, no space, nothing after them
 * @base: as strtoull()'s (0: a 0x prefix is hex, a leading 0 octal)
 * @res: the value, set only on success
 *
 * Models kstrtoull() (lib/kstrtox.c), less its trailing newline.
 * Returns 0, -EINVAL (empty, a sign, junk) or -ERANGE (over 2^64-1).
 */
int kstrtoull(const char *s, unsigned int base, unsigned long long *res);

#endif /* VFSLAB_LIB_KSTRTOX_H */
