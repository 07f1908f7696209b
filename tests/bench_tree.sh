#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench --tree on a small tree: the dentry hash it reports (sized to the
# tree, or by --variant hash-shift), --phases' table (each call's row, the
# open's steps summing to the open, a kernel column only with the host
# side), and the option errors (--phases without --tree, two variants).
set -u
vfslab=${top_builddir:-.}/tools/vfslab
work=$(mktemp -d "${TMPDIR:-/tmp}/tree.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
. "${srcdir:-$(dirname "$0")/..}/tests/report.sh"

run() {
	out=$1
	shift
	if "$vfslab" bench "$@" >"$work/$out" 2>"$work/err"; then
		return 0
	fi
	bad "bench $*: exit status $? ($(head -c 300 "$work/err"))"
	return 1
}

# 3000 files, 3 directories, the tree's own: 3004 dentries hashed.
if run plain --tree 3000 --peer none; then
	if grep -q '^  dentry hash: 2^[0-9]* buckets.*: 3004 dentries' "$work/plain" &&
		! grep -q 'where the time goes' "$work/plain"; then
		ok "--tree: the hash line, 3004 dentries; no phase table unasked"
	else
		bad "--tree: $(cat "$work/plain")"
	fi
fi

# hash-shift from --variant wins: 2^6 buckets for 3004 dentries.
if run shift --tree 3000 --peer none --variant hash-shift=6; then
	if grep -q '^  dentry hash: 2^6 buckets, 0.0 MiB: 3004 dentries, 46.94 per bucket' "$work/shift" &&
		grep -qx '    (hash-shift from --variant)' "$work/shift"; then
		ok "--variant hash-shift=6: 2^6 buckets, 46.94 per bucket"
	else
		bad "--variant hash-shift=6: $(grep 'hash' "$work/shift")"
	fi
fi

# --phases, vfslab alone: every row, one column; the steps sum to the open.
if run phases --tree 3000 --peer none --phases; then
	missing=
	for row in 'mkdir (1 per 1000 files)' 'open(O_CREAT)' '  path walk, locks, the rest' \
		'  __d_lookup_rcu' '  d_lookup' '  d_alloc' '  new_inode' '  simple_offset_add' \
		'  d_add, d_instantiate' '  alloc_file' '  alloc_fd, fd_install' 'close' 'phase clocks' \
		'the loop (names, progress)' 'total'; do
		grep -qF "    $row " "$work/phases" || missing="$missing [$row]"
	done
	sums=$(awk '/^    open\(O_CREAT\)/ { open = $NF; on = 1; next }
		on && /^      / { s += $NF; next } on { on = 0 }
		END { printf "%.1f %.1f", open, s }' "$work/phases")
	cols=$(awk '/^    call \/ step/ { print NF }' "$work/phases")
	if [ -z "$missing" ] && [ "$cols" = 4 ] &&
		awk -v s="$sums" 'BEGIN { split(s, a, " "); exit !(a[1] > 0 && a[2] - a[1] < 1 && a[1] - a[2] < 1) }'; then
		ok "--phases: every row, the open's steps sum to it ($sums)"
	else
		bad "--phases: missing$missing, columns $cols, open and steps $sums"
		cat "$work/phases"
	fi
fi

# With the host side: a kernel column on the call rows, none on the steps.
mkdir "$work/tmp"
if run host --tree 2000 --phases --tmpdir "$work/tmp"; then
	kcols=$(awk '/^    (close|total) / { print NF }' "$work/host" | sort -u)
	scols=$(awk '/^      d_lookup / { print NF }' "$work/host")
	if grep -q '^    call / step  *vfslab  *kernel$' "$work/host" && [ "$kcols" = 3 ] &&
		[ "$scols" = 2 ] && grep -q "^  kernel ($work/tmp): .* files/s, " "$work/host" &&
		grep -q "^  vfslab is [0-9.]*x faster (CPU [0-9.]*x)$" "$work/host" &&
		grep -q "^  vfslab: .* ns per file; CPU [0-9]* ns (user [0-9]*, system [0-9]*)$" "$work/host"; then
		ok "--phases with the host: kernel column on the calls only"
	else
		bad "--phases with the host: $(cat "$work/host")"
	fi
fi

# The option errors are named, exit 2.
"$vfslab" bench --phases --peer none >"$work/out" 2>"$work/err"
st=$?
if [ "$st" = 2 ] && grep -q -- '--phases goes with --tree' "$work/err"; then
	ok "--phases without --tree: refused"
else
	bad "--phases without --tree: status $st, $(cat "$work/err")"
fi
"$vfslab" bench --tree 10 --variant dcount=dlock --variant dcount=atomic >"$work/out" 2>"$work/err"
st=$?
if [ "$st" = 2 ] && grep -q -- 'one --variant, not 2' "$work/err"; then
	ok "--tree with two variants: refused"
else
	bad "--tree with two variants: status $st, $(cat "$work/err")"
fi
"$vfslab" bench --tree 10 --variant hash-shift=99 >"$work/out" 2>"$work/err"
st=$?
if [ "$st" = 2 ] && grep -q "bad value '99' for variant key 'hash-shift'" "$work/err"; then
	ok "--tree --variant hash-shift=99: refused"
else
	bad "--tree --variant hash-shift=99: status $st, $(cat "$work/err")"
fi

summary
