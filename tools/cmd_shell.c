// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab shell: pjdfstest's language interactively, against one VFS whose
 * shell task keeps its descriptors from line to line, with commands to
 * look inside: a dentry and its hash chain, the fd table's bitmaps, the
 * struct layouts, a traced walk, the counters. Line editing and history
 * come from libedit.
 */
#include <editline/readline.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cmd.h"
#include "tools/fstest/fstest.h"
#include "tools/fstest/vfs.h"
#include "vfs/layout.h"
#include "vfs/vfs.h"

static const char shell_help[] =
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

static void show_dentry(struct task *t, const char *path, bool follow)
{
	struct dentry_info di;
	struct dentry_chain_info ch;
	int err = vfs_inspect_path(t, path, follow, &di, &ch);

	if (err) {
		printf("%s\n", fstest_strerror(-err));
		return;
	}
	printf("dentry \"%s\"%s%s\n", di.name, di.negative ? " (negative)" : "",
	       di.hashed ? "" : " (unhashed)");
	printf("  d_count %d (the caller's lookup reference excluded), d_seq %u%s\n", di.count,
	       di.seq, di.seq & 1 ? " (odd: a writer is inside)" : "");
	printf("  d_flags 0x%08x, type %s\n", di.flags,
	       (di.flags & 0x00700000) == 0x00200000 ? "directory" :
	       (di.flags & 0x00700000) == 0x00400000 ? "regular" :
	       (di.flags & 0x00700000) == 0x00600000 ? "symlink" :
	       (di.flags & 0x00700000) == 0x00500000 ? "special" :
						       "miss");
	printf("  d_name.hash 0x%08x, bucket %lu, position %u of %u in its chain\n", di.hash,
	       ch.bucket, ch.position, ch.length);
	if (!di.negative)
		printf("  inode %lu, mode %06o\n", di.ino, (unsigned int)di.mode);
	printf("  d_lockref at offset %u in this layout\n", di.lockref_offset);
}

static void show_fdtable(struct task *t)
{
	struct fdtable_info fi;

	vfs_inspect_fdtable(t, &fi);
	printf("files_struct: %d user%s, fdtable %s, max_fds %u, next_fd %u, %u open\n", fi.users,
	       fi.users == 1 ? " (fdget borrows: no refcount)" : "s (fdget takes references)",
	       fi.embedded ? "embedded (64 slots)" : "allocated", fi.max_fds, fi.next_fd,
	       fi.nr_open);
	for (unsigned int w = 0; w < 4 && w < fi.max_fds / 64; w++)
		printf("  open_fds[%u] %016lx  close_on_exec[%u] %016lx\n", w, fi.open_fds[w], w,
		       fi.close_on_exec[w]);
	printf("  full_fds_bits[0] %016lx\n", fi.full_fds_bits);
	for (int i = 0; i < fi.nr_fds; i++)
		printf("  fd %-4d ino %-6lu f_count %-3lu f_pos %-8lld f_flags 0%o%s\n",
		       fi.fds[i].fd, fi.fds[i].ino, fi.fds[i].count, fi.fds[i].pos, fi.fds[i].flags,
		       fi.fds[i].mode & 0x4000 ? " (O_PATH)" : "");
}

static void show_layouts(const struct vfs_config *cfg, const char *which)
{
	struct layout ls[LS_NR];
	char err[512];

	/* The VFS was built from cfg, so its layouts build. */
	if (vfs_config_layouts(cfg, ls, err, sizeof(err))) {
		printf("%s\n", err);
		return;
	}
	for (int s = 0; s < LS_NR; s++) {
		if (which && strcmp(which, layout_desc(s)->name))
			continue;
		cli_layout_print(&ls[s], stdout);
		cli_layout_warnings(&ls[s], stdout);
	}
}

static void show_counters(void)
{
	uint64_t ev[VFS_EV_NR];

	vfs_events_read_self(ev);
	for (int i = 0; i < VFS_EV_NR; i++)
		printf("  %-14s %llu\n", vfs_event_name(i), (unsigned long long)ev[i]);
}

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

int cmd_shell(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *variant = NULL;
	bool tty = isatty(STDIN_FILENO);
	struct vfs_config cfg;
	struct fstest_vfs fv;
	struct vfs *vfs;
	unsigned long lineno = 0;
	char *line;
	int c, bad = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			variant = optarg;
			break;
		case 'h':
			printf("usage: vfslab shell [--variant SPEC]\n\n%s", shell_help);
			return 0;
		default:
			fprintf(stderr, "usage: vfslab shell [--variant SPEC]\n");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "usage: vfslab shell [--variant SPEC]\n");
		return 2;
	}
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
		} else if (!strcmp(cmd, "help")) {
			fputs(shell_help, stdout);
		} else if (!strcmp(cmd, "dentry") || !strcmp(cmd, "ldentry")) {
			if (*arg)
				show_dentry(fv.shell, arg, cmd[0] == 'd');
			else
				printf("usage: %s PATH\n", cmd);
		} else if (!strcmp(cmd, "fdtable")) {
			show_fdtable(fv.shell);
		} else if (!strcmp(cmd, "walk")) {
			if (*arg)
				cli_walk_trace(vfs, fv.shell, arg, true, true);
			else
				printf("usage: walk PATH\n");
		} else if (!strcmp(cmd, "layout")) {
			show_layouts(&cfg, *arg ? arg : NULL);
		} else if (!strcmp(cmd, "counters")) {
			show_counters();
		} else if (!strcmp(cmd, "caches")) {
			struct vfs_cache_info ci[4];
			unsigned long unused;
			int nc = vfs_inspect_caches(vfs, ci, 4, &unused);

			for (int k = 0; k < nc; k++)
				printf("%-18s %8ld in use, %4zu bytes each\n", ci[k].name,
				       ci[k].in_use, ci[k].objsize);
			printf("%lu unused dentries on the LRU\n", unused);
		} else {
			/* Not ours: a pjdfstest line (restore what the split cut). */
			if (*arg)
				arg[-1] = ' ';
			bad += fstest_run_line(&fstest_vfs_backend, &fv, cmd, stdout, stderr,
					       "shell", lineno);
		}
		fflush(stdout);
		free(line);
	}
	fstest_vfs_fini(&fv);
	if (cli_vfs_destroy("shell", vfs))
		return 1;
	return bad && !tty ? 1 : 0;
}
