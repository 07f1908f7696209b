// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A main() for a harness built without libFuzzer (any compiler, with or
 * without the sanitizers): runs each input once, every file of each
 * directory argument, as libFuzzer does when given files. `make check`
 * replays the command-line seeds with it (tests/fuzz_cli.sh).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read path whole and run it; 0, or -1 if it cannot be read. */
static int one(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];

	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		char *more = realloc(buf, len + n);

		if (!more) {
			free(buf);
			fclose(f);
			return -1;
		}
		buf = more;
		memcpy(buf + len, chunk, n);
		len += n;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long runs = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		struct dirent *e;

		if (!d) {
			if (one(argv[i])) {
				fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[i]);
				return 1;
			}
			runs++;
			continue;
		}
		while ((e = readdir(d))) {
			char path[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			if (one(path)) {
				fprintf(stderr, "%s: cannot read %s\n", argv[0], path);
				closedir(d);
				return 1;
			}
			runs++;
		}
		closedir(d);
	}
	fprintf(stderr, "%s: %lu inputs ran\n", argv[0], runs);
	return 0;
}
