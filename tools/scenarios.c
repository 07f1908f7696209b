// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The seed scenarios (../shared/seeds, ../shared/research/kernel-mechanisms.md):
 * each pairs a workload with the variants before and after a kernel change.
 */
#include <string.h>

#include "lib/compiler.h"
#include "tools/scenarios.h"

static const struct scenario scenarios[] = {
	{
		.name = "d_lockref",
		.workload = "stat2",
		.processes = true,
		.before = "dentry=v6.10",
		.after = "dentry=v6.11",
		.claim =
			"moving d_lockref out of the RCU-lookup cache line speeds up N-way stat of one file",
		.published = 7842883.0 / 5038006.0,
		.published_cpus = 20,
		.source = "Mateusz Guzik, 2024-06, will-it-scale stat2 on tmpfs, Sapphire Rapids",
		.explain =
			"Until v6.10 d_lockref sat at offset 96, in the second cache line of struct\n"
			"dentry, which also holds bytes 8-39 of the inline name that __d_lookup_rcu()\n"
			"compares. Every stat() ends with lockref_get_not_dead() and dput() on the final\n"
			"dentry, so N tasks stat'ing one file keep that line bouncing while every other\n"
			"task's RCU lookup wants to read the name from it. v6.11 moved d_lockref to\n"
			"offset 128, a line RCU lookup never reads. (v6.7 had it at 88.)\n",
	},
	{
		.name = "dcount",
		.workload = "dcount",
		.processes = true,
		.before = "dcount=dlock",
		.after = "dcount=lockref",
		.claim =
			"lockref (count and lock in one cmpxchg'd word) beats taking d_lock for every dget/dput",
		.published = 0,
		.published_cpus = 0,
		.source = "Linus Torvalds' lockref (v3.12, 2013); the seeds give no single figure",
		.explain =
			"Before 2013 dget() and dput() took the dentry's spinlock to change d_count.\n"
			"lockref puts the 4-byte lock and the 4-byte count in one 8-byte word and\n"
			"changes the count with cmpxchg while the lock reads unlocked, so the common\n"
			"case is one atomic and no lock. The dcount workload opens, reads and closes\n"
			"one file with a parent dget/dput at each step, as fsnotify takes in a watched\n"
			"directory.\n",
	},
	{
		.name = "dcount-atomic",
		.workload = "dcount",
		.processes = true,
		.before = "dcount=dlock",
		.after = "dcount=atomic",
		.claim = "an atomic d_count (2013) lets dget and most dputs skip d_lock; "
			 "dget_parent still takes it",
		.published = 0,
		.published_cpus = 0,
		.source = "Waiman Long, 2013, \"dcache: Translating dentry->d_count to a reference "
			  "count\" (superseded by lockref); no figure given here",
		.explain =
			"The step between d_count under d_lock and lockref: d_count became an atomic,\n"
			"so dget() is one atomic add and dput() one atomic_add_unless() that only\n"
			"falls back to d_lock for what may be the last reference. Legitimizing an\n"
			"RCU walk and dget_parent() - which __fsnotify_parent() calls on every\n"
			"access in a watched directory, the dcount workload's pattern - still took\n"
			"d_lock.\n",
	},
	{
		.name = "file_ref",
		.workload = "fstat_onefd",
		.processes = false,
		.before = "file=v6.12,fref=inc-not-zero",
		.after = "file=v6.12,fref=file_ref",
		.claim =
			"file_ref_t's unconditional add replaces the O(N^2) inc_not_zero cmpxchg loop in fget",
		.published = 1.04,
		.published_cpus = 256,
		.source =
			"Christian Brauner, 2024-10, will-it-scale, multi-threaded fstat() of one fd, "
			"AMD EPYC 9754 (3-5%)",
		.explain =
			"Threads sharing an fd table take a reference on the struct file in every\n"
			"fd-based syscall (__fget_files_rcu). Before v6.13 that was\n"
			"atomic_long_inc_not_zero(): read, test, cmpxchg, retry on failure - with N\n"
			"CPUs on one line, N-1 of every round's cmpxchgs fail and refetch it.\n"
			"file_ref_get() is one add that cannot fail for a live file. Both sides use\n"
			"v6.12's struct file, the layout of the v6.12-rc1 kernel the figure was\n"
			"measured on (the count at offset 0, beside f_mode and f_op).\n",
	},
	{
		.name = "f_count",
		.workload = "syscall2",
		.processes = true,
		.before = "file=v5.8,fref=inc-not-zero",
		.after = "file=zhang-2020,fref=inc-not-zero",
		.claim =
			"moving f_count away from f_mode speeds up UnixBench syscall (all copies dup one file)",
		.published = 3160841.0 / 2222456.0,
		.published_cpus = 24,
		.source =
			"Shaokun Zhang/Yuqi Jin, 2020, UnixBench syscall, 24 copies, Kunpeng 920 (rejected)",
		.explain =
			"UnixBench's syscall test did close(dup(0)) in every copy until 2023, so all\n"
			"copies took references on one struct file: the inherited stdin. In v5.8\n"
			"f_count (offset 56) sat by f_op and f_inode, which every close reads\n"
			"(filp_close(): ->flush, then dnotify_flush() and locks_remove_posix() via\n"
			"f_inode), and a line from f_mode; the patch moved it to the end. Both sides\n"
			"count as v5.8 did (fref=inc-not-zero): dup's get_file_rcu_many() is a\n"
			"cmpxchg loop that refuses zero, close's fput a dec_and_test. Jan Kara\n"
			"rejected it: a file that is not shared - the usual case - then needs two\n"
			"lines in fget. Compare f_count-private (each copy its own file) and the\n"
			"one-task row of this comparison.\n",
	},
	{
		.name = "f_count-private",
		.workload = "syscall1",
		.processes = true,
		.before = "file=v5.8,fref=inc-not-zero",
		.after = "file=zhang-2020,fref=inc-not-zero",
		.claim =
			"with a private file per copy (UnixBench since 2023) the move should buy nothing",
		.published = 0,
		.published_cpus = 0,
		.source = "Jan Kara's objection, 2020; UnixBench fb4521c, 2023",
		.explain =
			"The same variants as f_count, on the post-2023 UnixBench mix where every copy\n"
			"dups its own pipe: no struct file is shared, so there is no contention to\n"
			"relieve and only the second cache line the split layout touches is left.\n",
	},
	{
		.name = "f_ref",
		.workload = "pread_onefd",
		.processes = false,
		.before = "file=v6.12",
		.after = "file=v6.15",
		.claim =
			"f_ref in cache line 2 stops contending with f_mode/f_op/f_inode reads in threaded pread",
		.published = 1.209,
		.published_cpus = 128,
		.source =
			"Pan Deng, 2025, RocksDB readwhilewriting, 64C/128T (+20.9% at 128 threads)",
		.explain =
			"v6.12 packed struct file into three lines with the refcount at offset 0,\n"
			"beside f_mode, f_op, f_mapping, f_inode and f_flags, which every pread reads.\n"
			"Threads sharing an fd table take a reference per pread, so the count's line\n"
			"bounces under the readers of the read-mostly fields. v6.15 moved f_ref to\n"
			"offset 176, in the third line.\n",
	},
	{
		.name = "alloc_fd",
		.workload = "blogbench",
		.processes = false,
		.before = "alloc-fd=v6.10",
		.after = "alloc-fd=v6.13",
		.claim =
			"the next_fd fast path and conditional bit clears speed up fd allocation under file_lock",
		.published = 1.22,
		.published_cpus = 160,
		.source =
			"Yu Ma, 2024-07, blogbench read score, Ice Lake 160 cores (+22% read, +8% write)",
		.explain =
			"Blogbench's ~100 threads open and close files in one fd table, so\n"
			"alloc_fd() and close run under file_lock all the time. Yu Ma's three\n"
			"fs/file.c patches removed a sanity check, made __clear_open_fd() clear the\n"
			"full_fds_bits bit only when set, and let find_next_fd() answer from the word\n"
			"holding next_fd without consulting full_fds_bits: less time under the lock.\n",
	},
	{
		.name = "alloc_fd-open3",
		.workload = "open3",
		.processes = false,
		.before = "alloc-fd=v6.10",
		.after = "alloc-fd=v6.13",
		.claim = "the same patches on will-it-scale open3 in thread mode",
		.published = 1.062,
		.published_cpus = 224,
		.source =
			"LKP, 2024, will-it-scale open3 threads, Sapphire Rapids 224 threads (+6.2%)",
		.explain =
			"open3 opens and closes one file from every thread of one process: alloc_fd\n"
			"and file_close_fd contend on file_lock (98% of cycles in LKP's profile).\n",
	},
};

const struct scenario *scenario_all(unsigned int *nr)
{
	*nr = ARRAY_SIZE(scenarios);
	return scenarios;
}

const struct scenario *scenario_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(scenarios); i++)
		if (!strcmp(scenarios[i].name, name))
			return &scenarios[i];
	return NULL;
}
