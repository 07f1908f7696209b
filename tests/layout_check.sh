#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# vfslab layout --check, the CI guard: the README's example fails as it
# says; rules it cannot read (a directory, an empty file, comments only)
# are errors, not a pass; a rule keeps every field however long its line.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
srcdir=${srcdir:-$(dirname "$0")/..}
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
. "$srcdir/tests/report.sh"

# expect NAME STATUS PATTERN ARGS...: the exit status, and PATTERN in stdout+stderr.
expect() {
	name=$1 want=$2 pat=$3
	shift 3
	"$vfslab" layout "$@" >"$work/out" 2>&1
	got=$?
	if [ "$got" -eq "$want" ] && grep -q -- "$pat" "$work/out"; then
		ok "$name"
	else
		bad "$name: exit $got (want $want), output: $(head -c 300 "$work/out")"
	fi
}

# The README's example, run as written there.
rule=$(sed -n "s/^ *echo '\(dentry: d_lockref apart from [^']*\)' > rules$/\1/p" "$srcdir/README.md")
if [ -z "$rule" ]; then
	bad "README: no layout --check example found"
else
	echo "$rule" >"$work/rules"
	expect "README's --check example exits 1" 1 "shares cacheline 1" \
		--check "$work/rules" --variant dentry=v6.10
fi

expect "a directory is an error" 2 "Is a directory" --check "$srcdir/doc"
: >"$work/empty"
expect "an empty rules file is an error" 2 "no rules" --check "$work/empty"
printf '# only a comment\n\n' >"$work/comments"
expect "comments only is an error" 2 "no rules" --check "$work/comments"
expect "a missing file is an error" 2 "cannot open" --check "$work/missing"

# 36 fields on other lines, then one that shares d_lockref's line (v6.10):
# the 37th field is checked, not dropped.
others=$(awk 'BEGIN { for (i = 0; i < 36; i++) printf "d_u " }')
echo "dentry: d_lockref apart from $others d_iname" >"$work/wide"
expect "the 37th field is checked" 1 "with d_iname" --check "$work/wide" --variant dentry=v6.10

# A line over 511 bytes is one rule, not two.
others=$(awk 'BEGIN { for (i = 0; i < 150; i++) printf "d_u " }')
echo "dentry: d_lockref apart from $others d_iname" >"$work/long"
expect "a 600-byte rule is one rule" 1 "FAIL rule 1: .*with d_iname" \
	--check "$work/long" --variant dentry=v6.10

summary
