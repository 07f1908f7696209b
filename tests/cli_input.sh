#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Bad input is named and refused, never taken for something else: signs,
# overflow and junk in numbers; difftest's --tmpdir and an empty --script;
# a variant key given twice; a preset name that is also a file here;
# `layout bogus` in the shell. And what help promises: `help help`, every
# layout preset in `help variants`, errors prefixed by their own command.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
. "${srcdir:-$(dirname "$0")/..}/tests/report.sh"
abs=$(cd "$(dirname "$vfslab")" && pwd)/vfslab

# refused STATUS PATTERN ARGS...: vfslab ARGS, run in $work, exits STATUS
# (before doing anything: a bounded wait) with PATTERN on stderr.
refused() {
	want=$1 pat=$2
	shift 2
	(cd "$work" && timeout 20 "$abs" "$@" >out 2>err </dev/null)
	got=$?
	if [ "$got" -eq "$want" ] && grep -q -- "$pat" "$work/err"; then
		ok "$*: refused"
	else
		bad "$*: exit $got (want $want), stderr: $(head -c 300 "$work/err")"
	fi
}

# Numbers: a sign, overflow or junk is an error naming the option.
num="expected a whole number"
refused 2 "vfslab difftest: --lines: $num" difftest --lines -1
refused 2 "vfslab difftest: --calls: $num" difftest --calls -1
refused 2 "vfslab difftest: --seed: $num.*(too large)" difftest --seed 18446744073709551616
refused 2 "vfslab difftest: --uid: expected UID" difftest --uid -1
refused 2 "vfslab torture: --seed: $num" torture --seed -1
refused 2 "vfslab torture: --ops: $num" torture --ops 1e30
refused 2 "vfslab torture: --check-every: $num" torture --check-every 4294967296
refused 2 "vfslab torture: --seconds: expected a number" torture --seconds inf
refused 2 "vfslab bench: --rounds: $num" bench --rounds ' 3'
refused 2 "vfslab bench: --tree: $num" bench --tree 1x
refused 2 "vfslab bench: --tasks" bench --tasks 1-99999999999999999999
refused 2 "vfslab replay: --tasks: $num" replay --tasks -1 x
refused 2 "vfslab walk: --as: expected UID" walk --as -1 /a
refused 2 "bad seed" layout --variant dentry=randomize:-1
refused 2 "bad value ' 8'" layout --variant "hash-shift= 8"

# difftest: a scratch directory that is not there is a usage error, not a skip.
refused 2 "vfslab difftest: --tmpdir: /nonexistent: No such file" difftest --tmpdir /nonexistent
: >"$work/file"
refused 2 "vfslab difftest: --tmpdir: .*: not a directory" difftest --tmpdir "$work/file"
# An empty script compares nothing: an error, not "0 mismatches" (root only).
if [ "$(id -u)" = 0 ]; then
	refused 1 "/dev/null: no calls to run" difftest --script /dev/null
	if grep -q "mismatch" "$work/out"; then
		bad "difftest --script /dev/null reports a mismatch count: $(cat "$work/out")"
	fi
else
	echo "note: not root: difftest --script not checked"
fi

# Variants: one key twice, or a preset name that a file here also has.
refused 2 "variant key 'dcount' given twice" layout --variant dcount=dlock,dcount=lockref
(cd "$work" && "$abs" layout file --variant file=v5.8 >/dev/null) || bad "file=v5.8 without a file"
echo "struct file" >"$work/v5.8"
refused 2 "'v5.8' is both a preset and a file here" layout file --variant file=v5.8

# The shell: an unknown struct for `layout` is an error, like `vfslab layout bogus`.
echo "layout bogus" | "$abs" shell >"$work/out" 2>"$work/err"
got=$?
if [ "$got" -ne 0 ] && grep -q "unknown struct 'bogus'" "$work/err"; then
	ok "shell: layout bogus is an error"
else
	bad "shell: layout bogus: exit $got, stderr: $(head -c 300 "$work/err")"
fi

# help.
if "$abs" help help >"$work/out" 2>&1 && grep -q "usage: vfslab help" "$work/out"; then
	ok "help help"
else
	bad "help help: $(head -c 300 "$work/out")"
fi
"$abs" help variants >"$work/variants"
"$abs" layout --list | while read -r s name _; do
	key=$s
	[ "$s" = files_struct ] && key=files
	sed -n "s/^$key=//p" "$work/variants" | tr '|' '\n' | grep -qx "$name" ||
		echo "$key=$name"
done >"$work/missing"
if [ -s "$work/missing" ]; then
	bad "help variants lacks the presets: $(cat "$work/missing")"
else
	ok "help variants names every layout preset"
fi

# Errors of the bench runner's shared options carry the command's name.
refused 2 "^vfslab compare: --rounds" compare --rounds 0 dcount
refused 2 "^vfslab compare: --format" compare --format bogus dcount
if [ -x "$(dirname "$abs")/vfslab-sim" ]; then
	refused 2 "^vfslab sim: --format" sim --format bogus
	refused 2 "^vfslab sim: --variant" sim --variant bogus=1
fi

summary
