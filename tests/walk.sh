#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# vfslab walk: PATH taken byte for byte (spaces, ':', up to Linux's 4095
# bytes, ENAMETOOLONG beyond), the result of an empty path (ENOENT), and
# hashes that a fixed salt (hash-salt=N) makes the same in every run.

vfslab=${top_builddir:-.}/tools/vfslab
if [ ! -x "$vfslab" ]; then
	echo "walk: $vfslab not built" >&2
	exit 99
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/walk.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

. "${srcdir:-$(dirname "$0")/..}/tests/report.sh"

# walk ARGS... into $tmp/out; the exit status in $rc.
walk() {
	"$vfslab" walk "$@" >"$tmp/out" 2>&1
	rc=$?
}

# Spaces and ':' are name bytes, never words or call separators.
walk --trace '/a b/c : d'
if [ $rc -ne 0 ] || ! grep -q '^  done      "c : d": ino [0-9]*, regular file' "$tmp/out" ||
	! grep -q '^  component "a b" in "/"' "$tmp/out" || grep -q '^walk:' "$tmp/out"; then
	bad "a path with spaces and ':' (exit $rc)"
	cat "$tmp/out"
else
	ok "a path with spaces and ':'"
fi

# 20 components of 200 bytes and one to make 4095 bytes: found; a byte
# more is ENAMETOOLONG, as Linux's PATH_MAX of 4096 with the NUL.
comp=$(printf '%200s' '' | tr ' ' x)
long=
i=0
while [ $i -lt 20 ]; do
	long=$long/$comp
	i=$((i + 1))
done
long=$long/$(printf "%$((4095 - ${#long} - 1))s" '' | tr ' ' y)
walk "$long"
if [ ${#long} -ne 4095 ] || [ $rc -ne 0 ] || ! grep -q '^  done      "yyy*": ino [0-9]*, regular file' "$tmp/out"; then
	bad "a path of 4095 bytes (exit $rc)"
	cut -c1-200 "$tmp/out"
else
	ok "a path of 4095 bytes"
fi
walk "${long}y"
if [ $rc -ne 1 ] || ! grep -q '^  done      error ENAMETOOLONG' "$tmp/out"; then
	bad "a path of 4096 bytes: not ENAMETOOLONG (exit $rc)"
	cut -c1-200 "$tmp/out"
else
	ok "a path of 4096 bytes: ENAMETOOLONG"
fi

# The empty path: ENOENT, printed like any result, with --trace or not.
for opt in --trace --nofollow; do
	walk $opt ''
	if [ $rc -ne 1 ] || ! grep -q '^  done      error ENOENT' "$tmp/out"; then
		bad "walk $opt '': no ENOENT result (exit $rc)"
		cat "$tmp/out"
	else
		ok "walk $opt '': ENOENT"
	fi
done

# A fixed salt: the same hashes in two runs (each its own process, so its
# own ASLR layout), other hashes with another salt; a rename rehashes
# under the new parent with the same salt (vfs_destroy's check agrees).
hashes() {
	"$vfslab" walk --trace --variant "hash-salt=$1" /usr/lib/libc.so 2>&1 |
		grep '^  component' >"$tmp/$2"
}
hashes 7 h1
hashes 7 h2
hashes 8 h3
if [ "$(wc -l <"$tmp/h1")" -ne 3 ] || ! cmp -s "$tmp/h1" "$tmp/h2"; then
	bad "hash-salt=7: hashes differ between runs"
	diff "$tmp/h1" "$tmp/h2"
elif cmp -s "$tmp/h1" "$tmp/h3"; then
	bad "hash-salt=7 and hash-salt=8 give the same hashes"
else
	ok "hash-salt=7: the same hashes in every run"
fi
# The shell's `dentry` prints d_name.hash too: the same there.
for i in 1 2; do
	printf 'mkdir /a 0755\ndentry /a\n' | "$vfslab" shell --variant hash-salt=7 2>&1 |
		grep 'd_name.hash' >"$tmp/s$i"
done
if ! grep -q 'd_name.hash 0x' "$tmp/s1" || ! cmp -s "$tmp/s1" "$tmp/s2"; then
	bad "shell --variant hash-salt=7: d_name.hash differs between runs"
	cat "$tmp/s1" "$tmp/s2"
else
	ok "shell --variant hash-salt=7: the same d_name.hash"
fi
walk --variant hash-salt=7 --no-create -e 'mkdir /a 0755' -e 'mkdir /a/b 0755' \
	-e 'rename /a/b /c' -e 'open /c/f O_CREAT,O_WRONLY 0644' /c/f
if [ $rc -ne 0 ] || ! grep -q '^  done      "f"' "$tmp/out"; then
	bad "hash-salt=7: a renamed directory's entries not found (exit $rc)"
	cat "$tmp/out"
else
	ok "hash-salt=7: a rename rehashes"
fi
walk --variant hash-salt=x /a
if [ $rc -ne 2 ] || ! grep -q "bad value 'x' for variant key 'hash-salt'" "$tmp/out"; then
	bad "hash-salt=x accepted or not named (exit $rc)"
	cat "$tmp/out"
else
	ok "hash-salt=x refused"
fi

summary
