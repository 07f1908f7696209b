# SPDX-License-Identifier: LGPL-2.1-or-later
# Tests of vfs/ and tools/. Included from tests/local.mk.

# pjdfstest-language scripts: vfslab against the recorded Linux answers,
# and the live host kernel against the same answers.
TESTS += %D%/fstest_vfslab.sh %D%/fstest_host.sh
EXTRA_DIST += %D%/fstest_run.sh %D%/fstest_vfslab.sh %D%/fstest_host.sh %D%/fstest

# Check programs for vfs/, one per area; tests/vfs_test.h holds the fixtures.
check_PROGRAMS += \
	%D%/check_namei

EXTRA_DIST += %D%/vfs_test.h

%C%_check_namei_SOURCES = %D%/check_namei.c %D%/vfs_test.h
%C%_check_namei_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_namei_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

check_PROGRAMS += %D%/check_dcache
%C%_check_dcache_SOURCES = %D%/check_dcache.c %D%/vfs_test.h
%C%_check_dcache_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_dcache_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

check_PROGRAMS += %D%/check_file
%C%_check_file_SOURCES = %D%/check_file.c %D%/vfs_test.h
%C%_check_file_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_file_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

check_PROGRAMS += %D%/check_syscalls
%C%_check_syscalls_SOURCES = %D%/check_syscalls.c %D%/vfs_test.h
%C%_check_syscalls_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_syscalls_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

check_PROGRAMS += %D%/check_layout
%C%_check_layout_SOURCES = %D%/check_layout.c %D%/vfs_test.h
%C%_check_layout_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_layout_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

check_PROGRAMS += %D%/check_stress
%C%_check_stress_SOURCES = %D%/check_stress.c %D%/vfs_test.h
%C%_check_stress_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_stress_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

# Every bench workload, briefly, against vfslab and the host kernel.
TESTS += %D%/bench_smoke.sh
EXTRA_DIST += %D%/bench_smoke.sh
