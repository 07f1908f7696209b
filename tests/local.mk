# SPDX-License-Identifier: LGPL-2.1-or-later
# The test suite, in two tiers:
#   make check       (TESTS) the unit tests, fstest, the layering and man
#                    page checks, the installed library, and short runs of
#                    every tool: a few minutes. distcheck runs this one.
#   make check-long  (LONG_TESTS) torture, difftest and the simulator's
#                    scenarios at length; the ThreadSanitizer torture in a
#                    --enable-sanitizers=thread build. CI runs both.

include %D%/lib.mk
include %D%/vfs.mk

# Every Check program is tests/NAME.c, compiled with the defaults and linked
# on lib/, vfs/, Check and tools/ (vfs_test.h names flags and errnos with
# tools/sys/names.c; a lib/ test takes nothing from those); only
# the simulator's sets its own flags.
LDADD = tools/libtools.a $(LIBVFS_LDADD) $(CHECK_LIBS) $(JANSSON_LIBS)

TESTS += $(check_PROGRAMS) $(dist_check_SCRIPTS)
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)

check-long: all
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(LONG_TESTS)' TEST_SUITE_LOG=test-suite-long.log
CLEANFILES += test-suite-long.log $(LONG_TESTS_ALL:.sh=.log) $(LONG_TESTS_ALL:.sh=.trs)
.PHONY: check-long

# The ThreadSanitizer build's suppressions (AM_TESTS_ENVIRONMENT points at it).
EXTRA_DIST += %D%/tsan.supp
