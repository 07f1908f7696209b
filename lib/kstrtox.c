// SPDX-License-Identifier: LGPL-2.1-or-later
/* Strict number parsing (lib/kstrtox.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "lib/kstrtox.h"

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v;
	char *end;

	/* strtoull() would take a sign or leading space: refuse both. */
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, (int)base);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*res = v;
	return 0;
}
