# SPDX-License-Identifier: LGPL-2.1-or-later
# tools/: the vfslab program. Parses input, prints output; no VFS logic.
# Compiled once into libtools.a, which both programs link: vfslab on the
# native lib/ and vfs/, and the simulator's vfslab-sim (tools/simrun/).

noinst_LIBRARIES += %D%/libtools.a
%C%_libtools_a_CFLAGS = $(AM_CFLAGS) $(LIBEDIT_CFLAGS) $(JANSSON_CFLAGS)
# Where an installed vfslab finds vfslab-sim (tools/simrun/helper.c).
%C%_libtools_a_CPPFLAGS = $(AM_CPPFLAGS) -DVFSLAB_BINDIR='"$(bindir)"' \
	-DVFSLAB_PKGLIBEXECDIR='"$(pkglibexecdir)"'
%C%_libtools_a_SOURCES = \
	%D%/bench/bench.h \
	%D%/bench/report.c \
	%D%/bench/runner.c \
	%D%/bench/tree.c \
	%D%/bench/workload.h \
	%D%/bench/workloads.c \
	%D%/cli.c \
	%D%/cli.h \
	%D%/interrupt.c \
	%D%/interrupt.h \
	%D%/cmd.h \
	%D%/cmd_bench.c \
	%D%/cmd_compare.c \
	%D%/cmd_difftest.c %D%/difftest/difftest.h %D%/difftest/gen.h %D%/difftest/gen.c %D%/difftest/gen_ns.c %D%/difftest/gen_fd.c %D%/difftest/gen_mount.c %D%/difftest/host.c %D%/difftest/avoid.c %D%/difftest/run.c %D%/difftest/shrink.c %D%/difftest/session.c \
	%D%/cmd_fstest.c \
	%D%/cmd_layout.c %D%/layout/pahole.h %D%/layout/pahole.c %D%/layout/decls.c %D%/layout/rules.c \
	%D%/cmd_replay.c %D%/replay/replay.h %D%/replay/sys.h %D%/replay/sys.c %D%/replay/args.h %D%/replay/args.c %D%/replay/parse.c %D%/replay/tree.c %D%/replay/exec.c %D%/replay/engine.h %D%/replay/engine.c %D%/replay/repair.c %D%/replay/compare.c %D%/replay/prescan.c %D%/replay/stream.c %D%/replay/passes.c %D%/replay/report.c \
	%D%/cmd_shell.c %D%/shell/shell.h %D%/shell/repl.c %D%/shell/inspect.c \
	%D%/cmd_torture.c \
	%D%/out/csv.c \
	%D%/out/csv.h \
	%D%/out/json.c \
	%D%/out/json.h \
	%D%/torture/engine.h \
	%D%/torture/exec.c \
	%D%/torture/gen.c \
	%D%/torture/main.c \
	%D%/torture/ops.c \
	%D%/torture/oracle.c \
	%D%/torture/print.c \
	%D%/torture/replay.c \
	%D%/torture/rss.c \
	%D%/torture/shrink.c \
	%D%/torture/supervise.c \
	%D%/torture/threads.c \
	%D%/torture/torture.h \
	%D%/fstest/engine.h \
	%D%/fstest/extensions.c \
	%D%/fstest/fstest.h \
	%D%/fstest/host.c \
	%D%/fstest/jobs.c \
	%D%/fstest/main.c \
	%D%/fstest/output.c \
	%D%/fstest/parse.c \
	%D%/fstest/pjdfstest.c \
	%D%/fstest/run.c \
	%D%/fstest/tokenize.c \
	%D%/fstest/vfs.c \
	%D%/fstest/vfs.h \
	%D%/cmd_walk.c %D%/walk/walk.h %D%/walk/trace.c %D%/walk/run.c \
	%D%/scenarios.c \
	%D%/sys/host.c \
	%D%/sys/names.c \
	%D%/sys/names.h \
	%D%/sys/sys.c \
	%D%/sys/sys.h \
	%D%/sys/syscalls.def \
	%D%/sys/vfslab.c \
	%D%/scenarios.h \
	%D%/vfslab.c \
	%D%/workloads/workloads.def \
	%D%/workloads/access1.c %D%/workloads/access2.c \
	%D%/workloads/dup1.c \
	%D%/workloads/fstat1.c %D%/workloads/fstat2.c %D%/workloads/fstat_onefd.c \
	%D%/workloads/lseek1.c %D%/workloads/lseek2.c \
	%D%/workloads/open1.c %D%/workloads/open2.c %D%/workloads/open3.c \
	%D%/workloads/pread1.c %D%/workloads/pread2.c %D%/workloads/pread3.c \
	%D%/workloads/pread_onefd.c \
	%D%/workloads/read1.c %D%/workloads/read2.c \
	%D%/workloads/stat1.c %D%/workloads/stat2.c \
	%D%/workloads/syscall1.c %D%/workloads/syscall2.c \
	%D%/workloads/unlink1.c %D%/workloads/unlink2.c \
	%D%/workloads/dcount.c %D%/workloads/blogbench.c %D%/workloads/renames.c

bin_PROGRAMS += %D%/vfslab
%C%_vfslab_SOURCES = %D%/main.c %D%/cmd_sim.c
# libsimrt.a for the machine profiles (tools/sim/profile.c) calibrate and
# validate use; nothing else of the machine is linked.
%C%_vfslab_LDADD = %D%/libtools.a $(LIBVFS_LDADD) tools/sim/libsimrt.a $(LIBEDIT_LIBS) $(JANSSON_LIBS) -lm
EXTRA_DIST += %D%/quickstart.sh %D%/figures.sh
# The simulator's speed table in the README (tests/sim_converge.sh runs it briefly).
EXTRA_DIST += %D%/sim_speed.sh
