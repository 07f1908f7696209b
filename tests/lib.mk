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
	%D%/check_rcu \
	%D%/check_seqlock \
	%D%/check_slab \
	%D%/check_spinlock \
	%D%/check_stats
