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

#include "tools/bench/bench.h"
#include "tools/cmd.h"
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
		   "                     every call's result (and stat fields) with the log's\n"
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

static int cmp_count(const void *a, const void *b)
{
	const struct rp_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void print_log_summary(FILE *f, const char *file, struct rp_log *log, const char *cwd_origin)
{
	fprintf(f, "replay: %s\n", file);
	fprintf(f,
		"log: %lu lines, %zu calls (%lu replayable) in %d pids; cwd %s (%s), umask %03o\n",
		log->lines, log->nr, log->replayable, log->nr_pids, log->cwd, cwd_origin,
		(unsigned int)log->umask);
	qsort(log->unknown, log->nr_unknown, sizeof(*log->unknown), cmp_count);
	fprintf(f, "not replayed:");
	if (!log->nr_unknown)
		fprintf(f, " none");
	for (size_t i = 0; i < log->nr_unknown; i++)
		fprintf(f, "%s %s %lu", i ? "," : "", log->unknown[i].name, log->unknown[i].n);
	fprintf(f, "\n");
	fprintf(f, "malformed lines: %lu", log->malformed);
	if (log->malformed)
		fprintf(f, " (first at line %u: %.60s)", log->first_malformed_line,
			log->first_malformed);
	if (log->lost_unfinished)
		fprintf(f, "; unfinished calls never resumed: %lu", log->lost_unfinished);
	fprintf(f, "\n");
}

static void print_tree(const struct rp_log *log, const struct rp_tree *tree)
{
	char path[8192];

	for (size_t i = 1; i < tree->nr; i++) {
		const struct rp_node *n = &tree->nodes[i];

		rp_tree_path(tree, (int)i, path, sizeof(path));
		printf("  %06o %10lld %s", (unsigned int)n->mode, n->size, path);
		if (S_ISLNK(n->mode))
			printf(" -> %s", n->target ? n->target : "?");
		printf("%s (line %u)\n", n->guessed ? " [type guessed]" : "", n->line);
	}
	for (size_t i = 0; i < tree->nr_fdinj; i++)
		printf("  fd %d of pid %d, made by an untraced call before line %u\n",
		       tree->fdinj[i].fd, tree->fdinj[i].pid,
		       log->calls[tree->fdinj[i].before].line);
	for (size_t i = 0; i < tree->nr_inj; i++)
		printf("  %06o %10lld %s [created before call %zu, pid %d]\n",
		       (unsigned int)tree->inj[i].mode, tree->inj[i].size, tree->inj[i].path,
		       tree->inj[i].before, tree->inj[i].pid);
}

/* Prints the check; returns the mismatches not explained by a pseudo-fs path. */
static unsigned long print_check(const struct rp_log *log, const struct rp_tree *tree,
				 const struct rp_result *disc, const struct rp_result *res)
{
	unsigned long real = 0;

	unsigned long dirs, files, links, other, calls = 0;
	long long bytes;
	const unsigned long *o = res->outcome;

	rp_tree_stats(tree, &dirs, &files, &links, &other, &bytes);
	printf("tree: %lu directories, %lu files (%lld bytes), %lu symlinks, %lu other; "
	       "%zu created mid-log; %zu fds from untraced calls; inherited fds:",
	       dirs, files, bytes, links, other, tree->nr_inj, tree->nr_fdinj);
	for (size_t i = 0; i < tree->nr_fds; i++)
		printf(" %d", tree->fds[i]);
	printf("%s\n", tree->nr_fds ? "" : " none");
	printf("discovery: %lu repairs, %lu mismatches left\n", disc->repairs,
	       disc->outcome[RP_MISMATCH]);
	for (int k = 0; k < RP_NR_OUTCOMES; k++)
		calls += o[k];
	printf("check: %lu calls: %lu match, %lu mismatch, %lu with other fields differing "
	       "(stat, listing entries, readlink/getcwd bodies); skipped: %lu on foreign fds, "
	       "%lu interrupted, %lu unsupported\n",
	       calls, o[RP_MATCH], o[RP_MISMATCH], res->field_mismatches, o[RP_SKIP_FOREIGN],
	       o[RP_SKIP_INTERRUPTED], o[RP_SKIP_UNSUPPORTED] + o[RP_SKIP_NOTASK]);
	if (res->pids_without_clone)
		printf("note: %lu pids had no clone line; forked from the first process\n",
		       res->pids_without_clone);
	for (size_t i = 0; i < res->nr_mm; i++)
		real += !res->mm[i].pseudo;
	if (res->nr_mm)
		printf("mismatches (%lu on /proc, /sys or /dev paths: not tmpfs, expected):\n",
		       (unsigned long)res->nr_mm - real);
	for (size_t i = 0; i < res->nr_mm; i++) {
		const struct rp_mismatch *m = &res->mm[i];
		const struct rp_call *c = &log->calls[m->call];
		char call[700], e1[32], e2[32];

		rp_call_format(c, call, sizeof(call));
		if (m->what[0])
			printf("  line %u pid %d: %s = %s: %s%s\n", c->line, c->pid, call,
			       rp_errname(c->ret, e1, sizeof(e1)), m->what,
			       m->pseudo ? " [pseudo-fs path]" : "");
		else
			printf("  line %u pid %d: %s = %s, vfslab %s%s\n", c->line, c->pid, call,
			       rp_errname(c->ret, e1, sizeof(e1)),
			       rp_errname(m->got, e2, sizeof(e2)),
			       m->pseudo ? " [pseudo-fs path]" : "");
	}
	if (calls) {
		uint64_t done = o[RP_MATCH] + o[RP_MISMATCH];

		printf("events per call:");
		for (int k = 0; k < VFS_EV_NR && k < 16; k++)
			printf(" %s %.3f", vfs_event_name(k),
			       done ? (double)res->events[k] / done : 0);
		printf("\n");
	}
	return real;
}

int cmd_replay(int argc, char **argv)
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
	struct rp_stream_opts so;
	bool check = false, show_tree = false, strict = false, verbose = false;
	const char *cwd = NULL, *file, *origin;
	struct rp_log log;
	struct rp_tree tree;
	struct rp_result disc, res;
	struct vfs_config cfg;
	struct vfs *vfs;
	char *end;
	FILE *f, *info;
	int c, ret = 0;

	memset(&so, 0, sizeof(so));
	so.copies = 1;
	so.seconds = 1;
	so.pin = true;
	so.tmpdir = "/dev/shm";
	optind = 1;
	while ((c = getopt_long(argc, argv, "hv", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			check = true;
			break;
		case 's':
			so.seconds = strtod(optarg, &end);
			if (*end || !(so.seconds >= 0.03 && so.seconds <= 3600)) {
				cli_error("replay", "--seconds: 0.03 to 3600, not '%s'", optarg);
				return 2;
			}
			break;
		case 't':
			so.copies = (int)strtol(optarg, &end, 10);
			if (*end || so.copies < 1 || so.copies > BENCH_MAX_TASKS) {
				cli_error("replay", "--tasks: 1 to %d, not '%s'", BENCH_MAX_TASKS,
					  optarg);
				return 2;
			}
			break;
		case 'S':
			so.share = true;
			break;
		case 'V':
			if (so.nr_variants == (int)ARRAY_SIZE(so.variants) ||
			    so.nr_variants == BENCH_MAX_SIDES - 1) {
				cli_error("replay", "too many variants");
				return 2;
			}
			so.variants[so.nr_variants++] = optarg;
			break;
		case 'p':
			if (!strcmp(optarg, "kernel")) {
				so.kernel = true;
			} else if (strcmp(optarg, "none")) {
				cli_error("replay", "--peer: kernel or none, not '%s'", optarg);
				return 2;
			}
			break;
		case 'T':
			so.tmpdir = optarg;
			break;
		case 'e':
			so.entry_ns = strtol(optarg, &end, 10);
			if (*end || so.entry_ns < 0 || so.entry_ns > 1000000) {
				cli_error("replay", "--entry-ns: 0..1000000, not '%s'", optarg);
				return 2;
			}
			break;
		case 'f':
			if (!strcmp(optarg, "csv")) {
				so.format = BENCH_CSV;
			} else if (!strcmp(optarg, "json")) {
				so.format = BENCH_JSON;
			} else if (strcmp(optarg, "table")) {
				cli_error("replay", "--format: table, csv or json, not '%s'",
					  optarg);
				return 2;
			}
			break;
		case 'n':
			so.pin = false;
			break;
		case 'C':
			cwd = optarg;
			break;
		case 'r':
			show_tree = true;
			break;
		case 'x':
			strict = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			replay_usage(stdout);
			return 0;
		default:
			replay_usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		replay_usage(stderr);
		return 2;
	}
	if (cwd && cwd[0] != '/') {
		cli_error("replay", "--cwd: an absolute path, not '%s'", cwd);
		return 2;
	}
	if (check && (so.copies > 1 || so.kernel || so.nr_variants > 1)) {
		cli_error("replay", "--check replays once on one vfslab: no --tasks, --peer, "
				    "or more than one --variant");
		return 2;
	}
	if (so.kernel && geteuid()) {
		cli_error("replay", "--peer kernel chroots each host task into its copy of the "
				    "tree: it needs root");
		return 2;
	}
	file = argv[optind];
	f = fopen(file, "r");
	if (!f) {
		cli_error("replay", "%s: %s", file, strerror(errno));
		return 1;
	}
	if (rp_parse(f, &log)) {
		cli_error("replay", "%s: read error", file);
		fclose(f);
		return 1;
	}
	fclose(f);
	origin = log.cwd_known ? "from the log" : "assumed";
	if (cwd) {
		snprintf(log.cwd, sizeof(log.cwd), "%s", cwd);
		origin = "--cwd";
	}
	/* csv and json are for programs: what the log held goes to stderr */
	info = check || so.format == BENCH_TABLE ? stdout : stderr;
	print_log_summary(info, file, &log, origin);
	if (strict && (log.malformed || log.nr_unknown || log.lost_unfinished)) {
		cli_error("replay", "--strict: %lu malformed lines, %zu syscalls not replayed",
			  log.malformed, log.nr_unknown);
		rp_log_free(&log);
		return 1;
	}
	if (!log.replayable) {
		cli_error("replay", "%s: no file syscalls to replay", file);
		rp_log_free(&log);
		return 1;
	}

	/* discovery: the tree this log needs */
	if (cli_config("replay", so.nr_variants ? so.variants[0] : NULL, &cfg)) {
		rp_log_free(&log);
		return 2;
	}
	rp_tree_init(&tree);
	rp_tree_mkpath(&tree, log.cwd, 0);
	rp_prescan_fds(&log, &tree);
	vfs = cli_vfs_new("replay", &cfg);
	if (!vfs) {
		rp_tree_free(&tree);
		rp_log_free(&log);
		return 1;
	}
	if (rp_replay(vfs, &log, &tree, RP_DISCOVER, verbose, &disc))
		ret = 1;
	if (cli_vfs_destroy("replay", vfs))
		ret = 1;
	/* again from that tree: now listings can be completed */
	vfs = ret ? NULL : cli_vfs_new("replay", &cfg);
	if (vfs) {
		unsigned long repairs = disc.repairs;

		rp_result_free(&disc);
		if (rp_replay(vfs, &log, &tree, RP_DISCOVER_LISTINGS, verbose, &disc))
			ret = 1;
		disc.repairs += repairs;
		if (cli_vfs_destroy("replay", vfs))
			ret = 1;
	}

	/* the check: a fresh VFS from that tree, no repairs */
	vfs = ret ? NULL : cli_vfs_new("replay", &cfg);
	if (vfs) {
		if (rp_replay(vfs, &log, &tree, RP_CHECK, false, &res))
			ret = 1;
		if (cli_vfs_destroy("replay", vfs))
			ret = 1;
	} else {
		memset(&res, 0, sizeof(res));
		ret = 1;
	}
	if (show_tree)
		print_tree(&log, &tree);
	if (!ret && check) {
		if (print_check(&log, &tree, &disc, &res))
			ret = 1;
	} else if (!ret) {
		unsigned long dirs, files, links, other;
		long long bytes;
		const char *slash = strrchr(file, '/');

		rp_tree_stats(&tree, &dirs, &files, &links, &other, &bytes);
		fprintf(info,
			"tree: %lu directories, %lu files, %lu symlinks, %lu other; "
			"check: %lu of %lu calls match the log\n\n",
			dirs, files, links, other, res.outcome[RP_MATCH],
			res.outcome[RP_MATCH] + res.outcome[RP_MISMATCH]);
		fflush(info);
		so.log = &log;
		so.tree = &tree;
		so.res = &res;
		so.label = slash ? slash + 1 : file;
		ret = rp_stream_run(&so, stdout);
	}
	rp_result_free(&disc);
	rp_result_free(&res);
	rp_tree_free(&tree);
	rp_log_free(&log);
	return ret;
}
