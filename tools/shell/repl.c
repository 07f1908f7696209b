// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab shell's loop: pjdfstest lines run in one task that keeps its
 * descriptors from line to line, and the commands of inspect.c between
 * them; libedit's line editing and history on a terminal.
 */
#include <editline/readline.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/fstest/fstest.h"
#include "tools/fstest/vfs.h"
#include "tools/shell/shell.h"
#include "tools/walk/walk.h"
#include "vfs/vfs.h"

const char shell_help[] =
	"Any pjdfstest line runs in the shell's task; its descriptors stay open\n"
	"(refer to them as =N, e.g. `fstat =3 size`), and -u/-g/-U last one line:\n"
	"  mkdir /a 0755 : open /a/f O_CREAT,O_RDWR 0644\n"
	"Looking inside:\n"
	"  dentry PATH      a dentry: d_count, d_seq, d_flags, hash and hash chain\n"
	"  ldentry PATH     the same without following a trailing symlink\n"
	"  fdtable          the fd table: max_fds, next_fd, open/cloexec/full bitmaps\n"
	"  walk PATH        a traced stat() walk (as `vfslab walk --trace`)\n"
	"  layout [STRUCT]  the layouts this VFS uses, pahole-style\n"
	"  counters         this thread's VFS event counters\n"
	"  caches           dentries, inodes and files in use; unused-dentry LRU\n"
	"  help, quit\n";

static char *next_line(bool tty)
{
	static char buf[8192];

	if (tty)
		return readline("vfslab> ");
	if (!fgets(buf, sizeof(buf), stdin))
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	return strdup(buf);
}

/*
 * One of the shell's own commands: 1 if it failed, else 0; -1 if cmd is
 * none (a pjdfstest line).
 */
static int shell_command(struct vfs *vfs, const struct vfs_config *cfg, struct fstest_vfs *fv,
			 const char *cmd, const char *arg)
{
	if (!strcmp(cmd, "help")) {
		fputs(shell_help, stdout);
	} else if (!strcmp(cmd, "dentry") || !strcmp(cmd, "ldentry")) {
		if (*arg)
			shell_show_dentry(fv->shell, arg, cmd[0] == 'd');
		else
			printf("usage: %s PATH\n", cmd);
	} else if (!strcmp(cmd, "fdtable")) {
		shell_show_fdtable(fv->shell);
	} else if (!strcmp(cmd, "walk")) {
		if (*arg)
			walk_print_trace(vfs, fv->shell, arg, true, 0, true);
		else
			printf("usage: walk PATH\n");
	} else if (!strcmp(cmd, "layout")) {
		return shell_show_layouts(cfg, *arg ? arg : NULL) ? 1 : 0;
	} else if (!strcmp(cmd, "counters")) {
		shell_show_counters();
	} else if (!strcmp(cmd, "caches")) {
		shell_show_caches(vfs);
	} else {
		return -1;
	}
	return 0;
}

/* Read and run lines until the end or quit; the lines that failed. */
static int shell_loop(struct vfs *vfs, const struct vfs_config *cfg, struct fstest_vfs *fv,
		      bool tty)
{
	unsigned long lineno = 0;
	char *line;
	int bad = 0, failed;

	while ((line = next_line(tty))) {
		char *cmd = line + strspn(line, " \t"), *arg;

		lineno++;
		if (tty && *cmd)
			add_history(line);
		arg = cmd + strcspn(cmd, " \t");
		if (*arg)
			*arg++ = '\0';
		arg += strspn(arg, " \t");
		if (!*cmd || *cmd == '#') {
			;
		} else if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit")) {
			free(line);
			break;
		} else if ((failed = shell_command(vfs, cfg, fv, cmd, arg)) >= 0) {
			bad += failed;
		} else {
			/* Not ours: a pjdfstest line (restore what the split cut). */
			if (*arg)
				arg[-1] = ' ';
			bad += fstest_run_line(&fstest_vfs_backend, fv, cmd, stdout, stderr,
					       "shell", lineno);
		}
		fflush(stdout);
		free(line);
	}
	return bad;
}

int shell_run(const char *variant)
{
	bool tty = isatty(STDIN_FILENO);
	struct vfs_config cfg;
	struct fstest_vfs fv;
	struct vfs *vfs;
	int bad;

	if (cli_config("shell", variant, &cfg))
		return 2;
	vfs = cli_vfs_new("shell", &cfg);
	if (!vfs)
		return 1;
	if (fstest_vfs_init(&fv, vfs)) {
		cli_error("shell", "cannot create the shell task");
		cli_vfs_destroy("shell", vfs);
		return 1;
	}
	fv.persistent = true;
	if (tty)
		printf("vfslab shell: pjdfstest lines and `help`; the VFS is fresh and empty.\n");
	bad = shell_loop(vfs, &cfg, &fv, tty);
	fstest_vfs_fini(&fv);
	if (cli_vfs_destroy("shell", vfs))
		return 1;
	return bad && !tty ? 1 : 0;
}
