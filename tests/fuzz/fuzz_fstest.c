// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: the input is an fstest script (tools/fstest/fstest.h), run
 * by the interpreter through the vfslab backend on a fresh VFS. Besides
 * crashes, hangs and sanitizer reports, anything vfs/check.h finds wrong
 * after the script or at teardown, a WARN_ON, or a leaked object aborts.
 * A first line "#! shell" or "#! variant=SPEC" changes how it runs
 * (header() below).
 *
 * Build and run with tests/fuzz/run.sh.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/fstest/fstest.h"
#include "tools/fstest/vfs.h"
#include "vfs/check.h"
#include "vfs/vfs.h"

/* Longer scripts only make each run slower, not the search wider. */
#define MAX_INPUT 8192

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	vfs_thread_enter();
	return 0;
}

static void __attribute__((noreturn)) die(const char *what, const char *msg)
{
	fprintf(stderr, "fuzz_fstest: %s: %s\n", what, msg);
	abort();
}

/*
 * A first line "#! WORD..." (a comment to the interpreter) picks how the
 * script runs: "shell" keeps one task and its descriptors from line to
 * line (vfslab shell), "variant=SPEC" builds the VFS with those variant
 * keys. A spec the parser refuses leaves the defaults.
 */
static void header(const uint8_t *data, size_t size, struct vfs_config *cfg, bool *shell)
{
	char line[256], *save = NULL, err[256];
	size_t n = 0;

	*shell = false;
	if (size < 2 || data[0] != '#' || data[1] != '!')
		return;
	while (n < size && n < sizeof(line) - 1 && data[n] != '\n')
		n++;
	memcpy(line, data + 2, n - 2);
	line[n - 2] = '\0';
	for (char *w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(w, "shell"))
			*shell = true;
		else if (!strncmp(w, "variant=", 8) &&
			 vfs_config_parse(cfg, w + 8, err, sizeof(err)))
			vfs_config_default(cfg);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vfs_config cfg;
	struct fstest_vfs fv;
	char err[1024];
	struct vfs *vfs;
	bool shell;
	long leaked;
	FILE *in;

	if (!size || size > MAX_INPUT)
		return 0;
	vfs_config_default(&cfg);
	header(data, size, &cfg, &shell);
	vfs = vfs_new(&cfg, err, sizeof(err));
	if (!vfs)
		die("vfs_new", err);
	if (fstest_vfs_init(&fv, vfs))
		die("fstest_vfs_init", "cannot create the initial task");
	fv.persistent = shell;
	in = fmemopen((void *)data, size, "r");
	if (!in)
		abort();
	fstest_run(&fstest_vfs_backend, &fv, in, devnull, devnull, "fuzz");
	fclose(in);
	if (vfs_check_tree(vfs, err, sizeof(err)))
		die("vfs_check_tree", err);
	fstest_vfs_fini(&fv);
	if (vfs_check_quiescent(vfs, err, sizeof(err)))
		die("vfs_check_quiescent", err);
	leaked = vfs_destroy(vfs);
	if (leaked) {
		snprintf(err, sizeof(err), "%ld objects leaked", leaked);
		die("vfs_destroy", err);
	}
	if (vfs_check_warnings())
		die("WARN_ON", "a warning fired (see above)");
	return 0;
}
