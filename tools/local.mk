# SPDX-License-Identifier: LGPL-2.1-or-later
# tools/: the vfslab program. Parses input, prints output; no VFS logic.
# Compiled once into libvfslab.a, which both programs link: vfslab on the
# native lib/ and vfs/, and the simulator's vfslab-sim (tools/simrun/).

noinst_LIBRARIES += %D%/libvfslab.a
%C%_libvfslab_a_CFLAGS = $(AM_CFLAGS) $(LIBEDIT_CFLAGS)
# Where an installed vfslab finds vfslab-sim (tools/simrun/helper.c).
%C%_libvfslab_a_CPPFLAGS = $(AM_CPPFLAGS) -DVFSLAB_BINDIR='"$(bindir)"' \
	-DVFSLAB_PKGLIBEXECDIR='"$(pkglibexecdir)"'
%C%_libvfslab_a_SOURCES = \
	%D%/bench/bench.h \
	%D%/bench/report.c \
	%D%/bench/runner.c \
	%D%/bench/sysops.c \
	%D%/bench/sysops.h \
	%D%/bench/tree.c \
	%D%/bench/workload.h \
	%D%/bench/workloads.c \
	%D%/cmd.h \
	%D%/cmd_bench.c \
	%D%/cmd_compare.c \
	%D%/cmd_difftest.c %D%/difftest/difftest.h %D%/difftest/gen.c %D%/difftest/run.c %D%/difftest/shrink.c \
	%D%/cmd_fstest.c \
	%D%/cmd_layout.c \
	%D%/cmd_replay.c %D%/replay/replay.h %D%/replay/parse.c %D%/replay/tree.c %D%/replay/exec.c %D%/replay/engine.c %D%/replay/stream.c \
	%D%/cmd_shell.c \
	%D%/cmd_torture.c \
	%D%/cmd_walk.c \
	%D%/fstest.c \
	%D%/fstest.h \
	%D%/fstest_host.c \
	%D%/fstest_vfs.c \
	%D%/fstest_vfs.h \
	%D%/scenarios.c \
	%D%/scenarios.h \
	%D%/vfslab.c \
	%D%/workloads/workloads.def \
	%D%/workloads/access1.c %D%/workloads/access2.c \
	%D%/workloads/dup1.c \
	%D%/workloads/fstat1.c %D%/workloads/fstat2.c \
	%D%/workloads/lseek1.c %D%/workloads/lseek2.c \
	%D%/workloads/open1.c %D%/workloads/open2.c %D%/workloads/open3.c \
	%D%/workloads/pread1.c %D%/workloads/pread2.c %D%/workloads/pread3.c \
	%D%/workloads/read1.c %D%/workloads/read2.c \
	%D%/workloads/stat1.c %D%/workloads/stat2.c \
	%D%/workloads/syscall1.c %D%/workloads/syscall2.c \
	%D%/workloads/unlink1.c %D%/workloads/unlink2.c \
	%D%/workloads/dcount.c %D%/workloads/blogbench.c %D%/workloads/renames.c

bin_PROGRAMS += %D%/vfslab
%C%_vfslab_SOURCES = %D%/main.c %D%/cmd_sim.c
# libsimrt.a for the machine profiles (tools/sim/profile.c) calibrate and
# validate use; nothing else of the machine is linked.
%C%_vfslab_LDADD = %D%/libvfslab.a $(LIBVFS_LDADD) tools/sim/libsimrt.a $(LIBEDIT_LIBS) -lm
EXTRA_DIST += %D%/quickstart.sh %D%/figures.sh
