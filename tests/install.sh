#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# vfslab installed for experiments: in the `make install` copy under
# examples/destdir (made by `make check` before the tests), every lib/
# header of the source tree and vfs/'s public ones are installed and each
# compiles on its own with `pkg-config --cflags vfslab`, and
# examples/statloop.c builds with `pkg-config --cflags --libs vfslab` and
# runs: it stats a file it created and checks what stat returns.
set -u
srcdir=${srcdir:-.}
dest=$(cd "${top_builddir:-.}/examples/destdir" 2>/dev/null && pwd) || {
	echo "install: no examples/destdir: make check installs there first" >&2
	exit 99
}
work=$(mktemp -d "${TMPDIR:-/tmp}/install.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
. "$srcdir/tests/report.sh"

pc=$(find "$dest" -name vfslab.pc -path '*/pkgconfig/*')
lib=$(find "$dest" -name libvfslab.a)
inc=$(find "$dest" -type d -path '*/include/vfslab')
if [ -z "$pc" ] || [ -z "$lib" ] || [ -z "$inc" ]; then
	echo "FAIL: installed: vfslab.pc '$pc', libvfslab.a '$lib', include/vfslab '$inc'"
	exit 1
fi
# pkg-config reads the copy as if it were installed at / (pkgconf and
# pkg-config both prefix the -I and -L they print with the sysroot).
PKG_CONFIG_PATH=$(dirname "$pc")
PKG_CONFIG_SYSROOT_DIR=$dest
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
pkgconfig=${PKG_CONFIG:-pkg-config}
if ! cflags=$($pkgconfig --cflags vfslab) || ! libs=$($pkgconfig --libs vfslab); then
	echo "FAIL: $pkgconfig --cflags --libs vfslab"
	exit 1
fi
case " $cflags " in
*" -I$inc "*) ok "pkg-config --cflags vfslab: $cflags" ;;
*) bad "pkg-config --cflags vfslab has no -I$inc: $cflags" ;;
esac

# The headers: lib/'s all, vfs/'s public ones, not vfs/internal.h.
want=$( (cd "$srcdir" && ls lib/*.h) && echo vfs/check.h vfs/layout.h vfs/layout_fields.def vfs/vfs.h)
for h in $want; do
	[ -f "$inc/$h" ] || bad "$h is not installed"
done
[ -e "$inc/vfs/internal.h" ] && bad "vfs/internal.h is installed"
for h in $(cd "$inc" && find lib vfs -name '*.h' | sort); do
	# shellcheck disable=SC2086
	if ! echo "#include <$h>" | ${CC:-cc} -Wall -Wextra -Werror $cflags -x c -c \
		-o /dev/null - 2>"$work/err"; then
		bad "<$h> does not compile on its own"
		cat "$work/err"
	fi
done
[ "$fail" -eq 0 ] && ok "every installed header compiles on its own"

# shellcheck disable=SC2086
if ${CC:-cc} -Wall -Wextra -Werror $cflags -o "$work/statloop" "$srcdir/examples/statloop.c" \
	$libs 2>"$work/err"; then
	ok "examples/statloop.c builds with pkg-config --cflags --libs vfslab"
else
	bad "examples/statloop.c does not build: ${CC:-cc} $cflags ... $libs"
	cat "$work/err"
	exit 1
fi
if "$work/statloop" 20000 >"$work/out" 2>&1 &&
	grep -q '^statloop: 20000 stat() calls in [0-9.]* s: [1-9][0-9]* ops/s$' "$work/out"; then
	ok "$(cat "$work/out")"
else
	bad "statloop 20000: $(cat "$work/out")"
fi

summary
