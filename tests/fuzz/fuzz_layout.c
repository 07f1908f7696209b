// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: the input is a layout file (vfs/layout.h) or, on one
 * line, a layout spec (PRESET+FIELD@OFF, randomize:SEED). Every layout the
 * parser accepts must validate, and a VFS built with it must run a few
 * syscalls and tear down clean: a layout that passes the checks but breaks
 * the objects is a bug of the validator.
 *
 * Build and run with tests/fuzz/run.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vfs/check.h"
#include "vfs/layout.h"
#include "vfs/vfs.h"

#define MAX_INPUT 8192

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The accepted layout goes to vfs_new() as a file: this memfd. */
static int memfd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	memfd = memfd_create("fuzz_layout", 0);
	if (memfd < 0)
		abort();
	vfs_thread_enter();
	return 0;
}

static void __attribute__((noreturn)) die(const char *what, const char *msg)
{
	fprintf(stderr, "fuzz_layout: %s: %s\n", what, msg);
	abort();
}

/* A few calls that touch every struct: dentries, files, an fd table. */
static void exercise(struct vfs *vfs)
{
	struct task *t = task_create_init(vfs), *c;
	char name[64], err[1024];
	struct stat st;
	long fd;

	if (!t)
		die("task_create_init", "failed");
	sys_mkdir(t, "/d", 0755);
	for (int i = 0; i < 8; i++) {
		/* A long name too: an external d_name. */
		snprintf(name, sizeof(name), "/d/%s%d",
			 i & 1 ? "a-name-past-the-inline-array-" : "", i);
		fd = sys_open(t, name, O_CREAT | O_RDWR, 0644);
		if (fd >= 0) {
			sys_write(t, (int)fd, "x", 1);
			sys_dup2(t, (int)fd, 70);
			sys_close(t, (int)fd);
		}
		sys_stat(t, name, &st);
	}
	sys_rename(t, "/d/0", "/d/renamed");
	sys_unlink(t, "/d/2");
	c = task_fork(t, 0);
	if (c) {
		sys_close(c, 70);
		task_exit(c);
	}
	if (vfs_check_tree(vfs, err, sizeof(err)))
		die("vfs_check_tree", err);
	task_exit(t);
}

static void run_vfs(enum layout_struct s, const char *spec)
{
	struct vfs_config cfg;
	char err[1024], *dst;
	struct vfs *vfs;
	long leaked;

	vfs_config_default(&cfg);
	dst = s == LS_DENTRY ? cfg.dentry_layout :
	      s == LS_FILE   ? cfg.file_layout :
			       cfg.files_layout;
	snprintf(dst, VFS_LAYOUT_SPEC_MAX, "%s", spec);
	vfs = vfs_new(&cfg, err, sizeof(err));
	if (!vfs)
		die("vfs_new refused a layout the parser accepted", err);
	exercise(vfs);
	if (vfs_check_quiescent(vfs, err, sizeof(err)))
		die("vfs_check_quiescent", err);
	leaked = vfs_destroy(vfs);
	if (leaked) {
		snprintf(err, sizeof(err), "%ld objects leaked", leaked);
		die("vfs_destroy", err);
	}
}

/* Specs that would read a file are left out: only presets, + and randomize. */
static bool safe_spec(const char *spec)
{
	const struct layout_preset *p;
	unsigned int n;

	if (strchr(spec, '/') || strchr(spec, '\n'))
		return false;
	if (strchr(spec, '+') || !strncmp(spec, "randomize", 9))
		return true;
	p = layout_presets(&n);
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(p[i].name, spec))
			return true;
	return !strchr(spec, '.');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, err[1024], path[64];
	struct layout l;

	if (size > MAX_INPUT)
		return 0;
	text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	for (int s = 0; s < LS_NR; s++) {
		if (!layout_parse(&l, (enum layout_struct)s, text, "fuzz", err, sizeof(err))) {
			if (layout_validate(&l, err, sizeof(err)))
				die("layout_validate refused what layout_parse accepted", err);
			if (ftruncate(memfd, 0) || pwrite(memfd, text, strlen(text), 0) < 0)
				abort();
			snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
			run_vfs((enum layout_struct)s, path);
		}
		if (size < VFS_LAYOUT_SPEC_MAX && safe_spec(text) &&
		    !layout_build(&l, (enum layout_struct)s, text, err, sizeof(err))) {
			if (layout_validate(&l, err, sizeof(err)))
				die("layout_validate refused what layout_build accepted", err);
			run_vfs((enum layout_struct)s, text);
		}
	}
	free(text);
	return 0;
}
