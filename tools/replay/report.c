// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What vfslab replay prints of a log, its tree and the check: the summary
 * of what was parsed and not replayed, the tree with the line that needed
 * each object, and every mismatch with the call as strace would show it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/replay/replay.h"
#include "tools/sys/names.h"
#include "vfs/vfs.h"

static int cmp_count(const void *a, const void *b)
{
	const struct rp_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

void rp_print_log_summary(FILE *f, const char *file, struct rp_log *log, const char *cwd_origin)
{
	fprintf(f, "replay: %s\n", file);
	fprintf(f,
		"log: %lu lines, %zu calls (%lu replayable) in %d pids; cwd %s (%s), umask %03o\n",
		log->lines, log->nr, log->replayable, log->nr_pids, log->cwd, cwd_origin,
		(unsigned int)log->umask);
	/* unknown is NULL when every call was known: qsort's pointer is nonnull */
	if (log->nr_unknown)
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

void rp_print_tree(const struct rp_log *log, const struct rp_tree *tree)
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
unsigned long rp_print_check(const struct rp_log *log, const struct rp_tree *tree,
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
	if (res->dir_sizes_skipped)
		printf("note: %lu directory sizes not compared: the log's filesystem was not tmpfs "
		       "(st_size %lld at line %u); record on tmpfs, e.g. under /dev/shm, to "
		       "compare them\n",
		       res->dir_sizes_skipped, res->first_skipped_size, res->first_skipped_line);
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
			       sys_ret_name(c->ret, e1, sizeof(e1)), m->what,
			       m->pseudo ? " [pseudo-fs path]" : "");
		else
			printf("  line %u pid %d: %s = %s, vfslab %s%s\n", c->line, c->pid, call,
			       sys_ret_name(c->ret, e1, sizeof(e1)),
			       sys_ret_name(m->got, e2, sizeof(e2)),
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

/* Before a throughput run: the tree and how well the check went. */
void rp_print_check_line(FILE *f, const struct rp_tree *tree, const struct rp_result *res)
{
	unsigned long dirs, files, links, other;
	long long bytes;

	rp_tree_stats(tree, &dirs, &files, &links, &other, &bytes);
	fprintf(f,
		"tree: %lu directories, %lu files, %lu symlinks, %lu other; "
		"check: %lu of %lu calls match the log\n\n",
		dirs, files, links, other, res->outcome[RP_MATCH],
		res->outcome[RP_MATCH] + res->outcome[RP_MISMATCH]);
	fflush(f);
}
