# SPDX-License-Identifier: LGPL-2.1-or-later
# Check programs for lib/, one per module: tests/check_<module>.c, built
# and linked the way tests/local.mk says. Included from tests/local.mk.

check_PROGRAMS += \
	%D%/check_atomic \
	%D%/check_bitmap \
	%D%/check_file_ref \
	%D%/check_kstrtox \
	%D%/check_list \
	%D%/check_lockref \
	%D%/check_page_alloc \
	%D%/check_rcu \
	%D%/check_seqlock \
	%D%/check_slab \
	%D%/check_spinlock \
	%D%/check_stats

# Races hit on purpose: a test's own copy of the code under test, built
# with its delay points on (lib/fault_inject.h). The copy's symbols take
# the place of the library's, whose object is then never linked in.
check_PROGRAMS += %D%/check_spinlock_race
%C%_check_spinlock_race_SOURCES = %D%/check_spinlock_race.c lib/spinlock.c lib/fault_inject.c
%C%_check_spinlock_race_CPPFLAGS = $(AM_CPPFLAGS) -DVFSLAB_FAULT_INJECTION
