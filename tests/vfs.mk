# SPDX-License-Identifier: LGPL-2.1-or-later
# Tests of vfs/ and tools/. Included from tests/local.mk.

# pjdfstest-language scripts: vfslab against the recorded Linux answers,
# and the live host kernel against the same answers.
TESTS += %D%/fstest_vfslab.sh %D%/fstest_host.sh
EXTRA_DIST += %D%/fstest_run.sh %D%/fstest_vfslab.sh %D%/fstest_host.sh %D%/fstest

# Check programs for vfs/, one per area (the Linux errnos they expect were
# checked on the host's tmpfs); tests/vfs_test.h holds the shared fixtures.
check_PROGRAMS += \
	%D%/check_namei \
	%D%/check_dcache \
	%D%/check_file \
	%D%/check_syscalls \
	%D%/check_layout \
	%D%/check_stress

EXTRA_DIST += %D%/vfs_test.h

%C%_check_namei_SOURCES = %D%/check_namei.c %D%/vfs_test.h
%C%_check_namei_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_namei_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

%C%_check_dcache_SOURCES = %D%/check_dcache.c %D%/vfs_test.h
%C%_check_dcache_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_dcache_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

%C%_check_file_SOURCES = %D%/check_file.c %D%/vfs_test.h
%C%_check_file_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_file_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

%C%_check_syscalls_SOURCES = %D%/check_syscalls.c %D%/vfs_test.h
%C%_check_syscalls_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_syscalls_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

%C%_check_layout_SOURCES = %D%/check_layout.c %D%/vfs_test.h
%C%_check_layout_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_layout_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

%C%_check_stress_SOURCES = %D%/check_stress.c %D%/vfs_test.h
%C%_check_stress_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_stress_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

# Every bench workload, briefly, against vfslab and the host kernel.
TESTS += %D%/bench_smoke.sh
EXTRA_DIST += %D%/bench_smoke.sh

# vfs/check.c's checkers against states broken on purpose; vfslab torture, briefly.
check_PROGRAMS += %D%/check_check
%C%_check_check_SOURCES = %D%/check_check.c %D%/vfs_test.h
%C%_check_check_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_check_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)
TESTS += %D%/torture.sh
EXTRA_DIST += %D%/torture.sh

# vfslab replay --check on recorded strace logs; a short throughput run.
TESTS += %D%/replay.sh
EXTRA_DIST += %D%/replay.sh %D%/replay
