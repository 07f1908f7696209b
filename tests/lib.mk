# SPDX-License-Identifier: LGPL-2.1-or-later
# Check programs for lib/, one per module.  Included from tests/local.mk.

check_PROGRAMS += \
	%D%/check_atomic \
	%D%/check_bitmap \
	%D%/check_file_ref \
	%D%/check_list \
	%D%/check_lockref \
	%D%/check_rcu \
	%D%/check_seqlock \
	%D%/check_slab \
	%D%/check_spinlock \
	%D%/check_stats

%C%_check_atomic_SOURCES = %D%/check_atomic.c
%C%_check_atomic_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_atomic_LDADD = $(LIBPRIM_LDADD) $(CHECK_LIBS)

%C%_check_bitmap_SOURCES = %D%/check_bitmap.c
%C%_check_bitmap_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_bitmap_LDADD = $(LIBPRIM_LDADD) $(CHECK_LIBS)

%C%_check_file_ref_SOURCES = %D%/check_file_ref.c
%C%_check_file_ref_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_file_ref_LDADD = $(LIBPRIM_LDADD) $(CHECK_LIBS)

%C%_check_list_SOURCES = %D%/check_list.c
%C%_check_list_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_list_LDADD = $(LIBPRIM_LDADD) $(CHECK_LIBS)

%C%_check_lockref_SOURCES = %D%/check_lockref.c
%C%_check_lockref_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_lockref_LDADD = $(LIBPRIM_LDADD) $(CHECK_LIBS)

%C%_check_rcu_SOURCES = %D%/check_rcu.c
%C%_check_rcu_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_rcu_LDADD = $(LIBPRIM_LDADD) $(CHECK_LIBS)

%C%_check_seqlock_SOURCES = %D%/check_seqlock.c
%C%_check_seqlock_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_seqlock_LDADD = $(LIBPRIM_LDADD) $(CHECK_LIBS)

%C%_check_slab_SOURCES = %D%/check_slab.c
%C%_check_slab_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_slab_LDADD = $(LIBPRIM_LDADD) $(CHECK_LIBS)

%C%_check_spinlock_SOURCES = %D%/check_spinlock.c
%C%_check_spinlock_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_spinlock_LDADD = $(LIBPRIM_LDADD) $(CHECK_LIBS)

%C%_check_stats_SOURCES = %D%/check_stats.c
%C%_check_stats_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_stats_LDADD = $(LIBPRIM_LDADD) $(CHECK_LIBS)
