#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/layering.sh catches what it is there for: a small tree that keeps
# the layers passes, and one bad include or build flag, injected into it or
# into a copy of the real tree, fails with that file and line named.
# shellcheck disable=SC2016 # the Makefile lines written here are literal
set -u
srcdir=${srcdir:-.}
check=$srcdir/tests/layering.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/layering.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
. "$srcdir/tests/report.sh"

# A tree that keeps the layers: lib/ and vfs/ includes within bounds,
# a library force-including a lib/ header, tools/ reaching into tools/.
good() {
	rm -rf "$work/good"
	mkdir -p "$work/good/lib" "$work/good/vfs" "$work/good/tools/sim"
	cd "$work/good" || exit 99
	cat >Makefile.am <<-'EOF'
		AM_CPPFLAGS = -I$(top_srcdir) -include config.h
		include lib/local.mk
		include vfs/local.mk
		include tools/sim/local.mk
	EOF
	cat >lib/local.mk <<-'EOF'
		noinst_LIBRARIES += %D%/liba.a
		%C%_liba_a_SOURCES = %D%/a.c \
			%D%/a.h
	EOF
	cat >vfs/local.mk <<-'EOF'
		noinst_LIBRARIES += %D%/libb.a
		%C%_libb_a_SOURCES = %D%/b.c %D%/b.h
	EOF
	cat >tools/sim/local.mk <<-'EOF'
		noinst_LIBRARIES += %D%/libsim.a
		%C%_libsim_a_SOURCES = $(lib_liba_a_SOURCES) $(vfs_libb_a_SOURCES)
		%C%_libsim_a_CPPFLAGS = $(AM_CPPFLAGS) -include $(top_srcdir)/lib/arch.h
		bin_PROGRAMS += %D%/sim
		%C%_sim_SOURCES = %D%/main.c
		%C%_sim_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tools/sim -include $(top_srcdir)/%D%/main.h
	EOF
	printf '#include <stdio.h>\n#include "lib/a.h"\n' >lib/a.c
	printf '#include <urcu/urcu-memb.h>\n' >lib/a.h
	printf '#include "lib/a.h"\n#include "vfs/b.h"\n' >vfs/b.c
	printf '#include <stdint.h>\n' >vfs/b.h
	printf '#include "tools/sim/main.h"\n#include "vfs/b.h"\n' >tools/sim/main.c
	cd - >/dev/null || exit 99
}

# expect NAME TREE STATUS [TEXT]: layering.sh on TREE exits STATUS and,
# when TEXT is given, prints a line holding it.
expect() {
	out=$(sh "$check" "$2" 2>&1)
	rc=$?
	if [ "$rc" -ne "$3" ]; then
		bad "$1: exit status $rc, expected $3"
		echo "$out"
	elif [ $# -ge 4 ] && ! printf '%s\n' "$out" | grep -qF -- "$4"; then
		bad "$1: no line with '$4' in:"
		echo "$out"
	else
		ok "$1"
	fi
}

good
expect "a tree that keeps the layers" "$work/good" 0

# inject NAME FILE LINE TEXT: that line added to a fresh good tree fails.
inject() {
	good
	printf '%s\n' "$3" >>"$work/good/$2"
	expect "$1" "$work/good" 1 "$2:$(wc -l <"$work/good/$2" | tr -d ' ')"
}
inject "lib/ including vfs/" lib/a.h '#include "vfs/b.h"'
inject "lib/ including tools/" lib/a.c '#include "tools/sim/main.h"'
inject "vfs/ including tools/" vfs/b.c '#include "tools/sim/main.h"'
inject "an angle include of tools/" vfs/b.h '#include <tools/sim/main.h>'
inject "an include climbing out" vfs/b.c '#include "../tools/sim/main.h"'
inject "an unprefixed include in lib/" lib/a.c '#include "main.h"'
inject "a lib/ build force-including tools/" tools/sim/local.mk \
	'%C%_libsim_a_CFLAGS = -imacros $(top_srcdir)/%D%/hooks.h'
inject "a vfs/ build searching tools/" vfs/local.mk \
	'%C%_libb_a_CPPFLAGS = $(AM_CPPFLAGS) -I $(top_srcdir)/tools'
inject "every build force-including tools/" Makefile.am \
	'AM_CPPFLAGS += -include $(top_srcdir)/tools/sim/main.h'

# The same on a copy of the real tree: the injected line is the one named.
mkdir "$work/real" || exit 99
(cd "$srcdir" && find Makefile.am lib vfs tools tests -name Makefile.am -o -name '*.mk' -o \
	\( -path 'lib/*' -o -path 'vfs/*' \) -type f) | while read -r f; do
	mkdir -p "$work/real/$(dirname "$f")" && cp "$srcdir/$f" "$work/real/$f" || exit 99
done
chmod -R u+w "$work/real"
printf '#include "tools/cmd.h"\n' >>"$work/real/vfs/namei.c"
expect "the real tree with vfs/namei.c including tools/" "$work/real" 1 \
	"vfs/namei.c:$(wc -l <"$work/real/vfs/namei.c" | tr -d ' '): #include \"tools/cmd.h\""

summary
