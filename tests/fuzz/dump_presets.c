// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Writes fuzz_layout's seed corpus into the directory argv[1]: every
 * layout preset as the text vfs/layout.c holds, and a few specs
 * (PRESET+FIELD@OFFSET, randomize:SEED) on one line. Used by run.sh.
 */
#include <stdio.h>
#include <stdlib.h>

#include "vfs/layout.h"

static void put(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static const char *const specs[] = { "v6.10+d_lockref@64", "v6.15+f_ref@0",
					     "kernel+next_fd@128", "randomize:7", "randomize" };
	const struct layout_preset *p;
	unsigned int n;
	char name[128];

	if (argc != 2) {
		fprintf(stderr, "usage: dump_presets DIR\n");
		return 2;
	}
	p = layout_presets(&n);
	for (unsigned int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "preset-%s-%s", layout_desc(p[i].s)->name, p[i].name);
		put(argv[1], name, p[i].text);
	}
	for (unsigned int i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		snprintf(name, sizeof(name), "spec-%u", i);
		put(argv[1], name, specs[i]);
	}
	return 0;
}
