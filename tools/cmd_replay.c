// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab replay: the file syscalls of an `strace -f` log on vfslab. A
 * discovery pass builds the tree the log needs; --check replays the log
 * once more from that tree and compares every result with the log's; the
 * default mode loops each pid's calls on its own task and reports ops/s
 * (tools/replay/).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cmd.h"
#include "tools/interrupt.h"
#include "tools/replay/replay.h"
#include "vfs/vfs.h"

static void replay_usage(FILE *f)
{
	fprintf(f, "usage: vfslab replay LOG [options]\n\n"
		   "Replays the file syscalls of LOG, an `strace -f` log (-o, -y, -tt, -T are\n"
		   "fine), on vfslab. The tree the log needs is built first: every path a\n"
		   "successful call used, with the types, modes and sizes the log showed;\n"
		   "paths outside the traced directory (/etc, /usr, /proc...) are made the\n"
		   "same way, as plain files and directories. Each log pid is a vfslab task.\n\n"
		   "  --check            replay once in log order, single-threaded, and compare\n"
		   "                     every call's result (and stat fields) with the log's;\n"
		   "                     directory sizes only where the log shows tmpfs's\n"
		   "  --seconds S        throughput: each side runs S seconds (default 1)\n"
		   "  --tasks N          N copies of the program's streams (default 1)\n"
		   "  --share            the copies share one tree (default: one each)\n"
		   "  --variant SPEC     a vfslab side built with SPEC (repeatable)\n"
		   "  --peer kernel|none replay on the host too, chrooted into a directory\n"
		   "                     under --tmpdir (needs root; default none)\n"
		   "  --tmpdir DIR       the host side's directory (default /dev/shm)\n"
		   "  --entry-ns N       spend N ns at each vfslab syscall entry\n"
		   "  --format table|csv|json\n"
		   "  --no-pin           do not pin tasks to CPUs\n"
		   "  --cwd DIR          the first process's cwd when the log does not show it\n"
		   "                     (-y decorations and getcwd do; default /replay-cwd)\n"
		   "  --tree             print the tree the log needs\n"
		   "  --strict           malformed lines or syscalls not replayed are errors\n"
		   "  -v, --verbose      print what the discovery pass had to create\n");
}

struct replay_cmd {
	struct rp_stream_opts so; /* the throughput run's */
	bool check, show_tree, strict, verbose;
	const char *cwd, *file;
};

/* One option into the struct replay_cmd at ctx; -1 to go on, else the exit status. */
static int replay_option(void *ctx, int opt, const char *arg)
{
	struct replay_cmd *rc = ctx;
	struct rp_stream_opts *so = &rc->so;
	unsigned long long n;

	switch (opt) {
	case 'c':
		rc->check = true;
		break;
	case 's':
		if (cli_double("replay", "--seconds", arg, 0.03, 3600, &so->seconds))
			return 2;
		break;
	case 't':
		if (cli_ull("replay", "--tasks", arg, 1, BENCH_MAX_TASKS, &n))
			return 2;
		so->copies = (int)n;
		break;
	case 'S':
		so->share = true;
		break;
	case 'V':
		if (so->nr_variants == (int)ARRAY_SIZE(so->variants) ||
		    so->nr_variants == BENCH_MAX_SIDES - 1) {
			cli_error("replay", "too many variants");
			return 2;
		}
		so->variants[so->nr_variants++] = arg;
		break;
	case 'p':
		if (!strcmp(arg, "kernel")) {
			so->kernel = true;
		} else if (strcmp(arg, "none")) {
			cli_error("replay", "--peer: kernel or none, not '%s'", arg);
			return 2;
		}
		break;
	case 'T':
		so->tmpdir = arg;
		break;
	case 'e':
		if (cli_ull("replay", "--entry-ns", arg, 0, 1000000, &n))
			return 2;
		so->entry_ns = (long)n;
		break;
	case 'f':
		if (!strcmp(arg, "csv")) {
			so->format = BENCH_CSV;
		} else if (!strcmp(arg, "json")) {
			so->format = BENCH_JSON;
		} else if (strcmp(arg, "table")) {
			cli_error("replay", "--format: table, csv or json, not '%s'", arg);
			return 2;
		}
		break;
	case 'n':
		so->pin = false;
		break;
	case 'C':
		rc->cwd = arg;
		break;
	case 'r':
		rc->show_tree = true;
		break;
	case 'x':
		rc->strict = true;
		break;
	case 'v':
		rc->verbose = true;
		break;
	case 'h':
		replay_usage(stdout);
		return 0;
	default:
		replay_usage(stderr);
		return 2;
	}
	return -1;
}

/* The options into rc; -1 to go on, else the exit status. */
static int replay_options(int argc, char **argv, struct replay_cmd *rc)
{
	static const struct option opts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "seconds", required_argument, NULL, 's' },
		{ "tasks", required_argument, NULL, 't' },
		{ "share", no_argument, NULL, 'S' },
		{ "variant", required_argument, NULL, 'V' },
		{ "peer", required_argument, NULL, 'p' },
		{ "tmpdir", required_argument, NULL, 'T' },
		{ "entry-ns", required_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'f' },
		{ "no-pin", no_argument, NULL, 'n' },
		{ "cwd", required_argument, NULL, 'C' },
		{ "tree", no_argument, NULL, 'r' },
		{ "strict", no_argument, NULL, 'x' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ret = cli_options(argc, argv, "hv", opts, replay_option, rc);

	if (ret >= 0)
		return ret;
	if (optind != argc - 1) {
		replay_usage(stderr);
		return 2;
	}
	rc->file = argv[optind];
	return -1;
}

/* Options that cannot go together; 0 or 2. */
static int replay_validate(const struct replay_cmd *rc)
{
	const struct rp_stream_opts *so = &rc->so;

	if (rc->cwd && rc->cwd[0] != '/') {
		cli_error("replay", "--cwd: an absolute path, not '%s'", rc->cwd);
		return 2;
	}
	if (rc->check && (so->copies > 1 || so->kernel || so->nr_variants > 1)) {
		cli_error("replay", "--check replays once on one vfslab: no --tasks, --peer, "
				    "or more than one --variant");
		return 2;
	}
	if (so->kernel && geteuid()) {
		cli_error("replay", "--peer kernel chroots each host task into its copy of the "
				    "tree: it needs root");
		return 2;
	}
	return 0;
}

/* Parse the log and print what it holds on info; 0, or the exit status. */
static int replay_load(const struct replay_cmd *rc, struct rp_log *log, FILE *info)
{
	const char *origin;
	FILE *f = fopen(rc->file, "r");

	if (!f) {
		cli_error("replay", "%s: %s", rc->file, strerror(errno));
		return 1;
	}
	if (rp_parse(f, log)) {
		cli_error("replay", "%s: read error", rc->file);
		fclose(f);
		return 1;
	}
	fclose(f);
	origin = log->cwd_known ? "from the log" : "assumed";
	if (rc->cwd) {
		snprintf(log->cwd, sizeof(log->cwd), "%s", rc->cwd);
		origin = "--cwd";
	}
	rp_print_log_summary(info, rc->file, log, origin);
	if (rc->strict && (log->malformed || log->nr_unknown || log->lost_unfinished)) {
		cli_error("replay", "--strict: %lu malformed lines, %zu syscalls not replayed",
			  log->malformed, log->nr_unknown);
		rp_log_free(log);
		return 1;
	}
	if (!log->replayable) {
		cli_error("replay", "%s: no file syscalls to replay", rc->file);
		rp_log_free(log);
		return 1;
	}
	return 0;
}

int cmd_replay(int argc, char **argv)
{
	struct replay_cmd rc = {
		.so = { .copies = 1, .seconds = 1, .pin = true, .tmpdir = "/dev/shm" },
	};
	struct rp_stream_opts *so = &rc.so;
	struct rp_log log;
	struct rp_tree tree;
	struct rp_result disc, res;
	struct vfs_config cfg;
	FILE *info;
	int ret = replay_options(argc, argv, &rc);

	if (ret >= 0)
		return ret;
	if (replay_validate(&rc))
		return 2;
	if (cli_parse_only)
		return 0;
	/* csv and json are for programs: what the log held goes to stderr */
	info = rc.check || so->format == BENCH_TABLE ? stdout : stderr;
	ret = replay_load(&rc, &log, info);
	if (ret)
		return ret;
	if (cli_config("replay", so->nr_variants ? so->variants[0] : NULL, &cfg)) {
		rp_log_free(&log);
		return 2;
	}
	ret = rp_discover_and_check(&cfg, &log, &tree, rc.verbose, &disc, &res);
	if (ret < 0) {
		rp_tree_free(&tree);
		rp_log_free(&log);
		return 1;
	}
	if (rc.show_tree)
		rp_print_tree(&log, &tree);
	if (!ret && rc.check) {
		if (rp_print_check(&log, &tree, &disc, &res))
			ret = 1;
	} else if (!ret) {
		const char *slash = strrchr(rc.file, '/');

		rp_print_check_line(info, &tree, &res);
		so->log = &log;
		so->tree = &tree;
		so->res = &res;
		so->label = slash ? slash + 1 : rc.file;
		intr_catch();
		ret = rp_stream_run(so, stdout);
	}
	rp_result_free(&disc);
	rp_result_free(&res);
	rp_tree_free(&tree);
	rp_log_free(&log);
	return ret;
}
