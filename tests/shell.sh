#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The shell's looks inside: `fdtable` and `dentry` print f_flags and
# d_flags as their value and their names (O_*, DCACHE_*), not a bare number.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
. "${srcdir:-$(dirname "$0")/..}/tests/report.sh"

"$vfslab" shell >"$work/out" 2>"$work/err" <<'END'
mkdir d 0755
open d/f O_CREAT,O_RDWR,O_APPEND 0644
open d O_RDONLY,O_DIRECTORY
open d O_PATH
open d/f O_WRONLY,O_NONBLOCK,O_CLOEXEC,O_NOATIME
symlink f d/l
fdtable
dentry d
dentry d/f
ldentry d/l
dentry d/none
END
rc=$?
[ "$rc" -eq 0 ] || bad "shell: exit $rc, stderr: $(head -c 300 "$work/err")"

# has TEXT WHAT: the output holds the line TEXT (fixed string).
has() {
	if grep -qF -- "$1" "$work/out"; then
		ok "$2"
	else
		bad "$2: no '$1' in: $(cat "$work/out")"
	fi
}

# O_LARGEFILE is what open(2) adds on 64-bit; x86-64's values here.
if [ "$(uname -m)" = x86_64 ]; then
	has "f_flags 0x8402 (O_RDWR|O_APPEND|O_LARGEFILE)" "f_flags: access mode and status flags"
	has "f_flags 0x18000 (O_RDONLY|O_LARGEFILE|O_DIRECTORY)" "f_flags: O_RDONLY is named"
	has "f_flags 0x48801 (O_WRONLY|O_NONBLOCK|O_LARGEFILE|O_NOATIME)" \
		"f_flags: O_CLOEXEC is the fd's, not the file's"
	has "f_flags 0x200000 (O_PATH)" "f_flags: O_PATH has no access mode"
fi
has "d_flags 0x00200000 (DCACHE_DIRECTORY_TYPE)" "d_flags: a directory"
has "d_flags 0x00400000 (DCACHE_REGULAR_TYPE)" "d_flags: a regular file"
has "d_flags 0x00600000 (DCACHE_SYMLINK_TYPE)" "d_flags: a symlink (ldentry)"
summary
