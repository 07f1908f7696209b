# SPDX-License-Identifier: LGPL-2.1-or-later
# examples/: programs on the installed library, built the way a user would:
# `cc prog.c $(pkg-config --cflags --libs vfslab)`. `make check` installs
# into a scratch DESTDIR first; tests/install.sh builds and runs them there.

EXTRA_DIST += %D%/statloop.c

check_DATA += %D%/destdir.stamp
%D%/destdir.stamp: $(lib_LIBRARIES) $(nobase_vfslabinclude_HEADERS) $(pkgconfig_DATA) \
		$(bin_PROGRAMS)
	$(AM_V_GEN)rm -rf %D%/destdir && $(MKDIR_P) %D% && \
	$(MAKE) $(AM_MAKEFLAGS) install DESTDIR='$(abs_top_builddir)/%D%/destdir' >/dev/null && \
	touch $@
CLEANFILES += %D%/destdir.stamp %D%/statloop
clean-local: clean-examples-destdir
clean-examples-destdir:
	-rm -rf %D%/destdir
.PHONY: clean-examples-destdir
