#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Long commands print a progress line every 5 s when stderr is a terminal
# (here a pseudo-terminal from util-linux's script), and nothing extra when
# it is a file. torture runs 6 s; difftest (root only) is stopped after 7.
# The four runs go side by side to keep the test short.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
if ! script -qec true /dev/null >/dev/null 2>&1 </dev/null; then
	echo "SKIP: no util-linux script to give vfslab a terminal"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/progress.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
. "${srcdir:-.}/tests/report.sh"

torture="$vfslab torture --tasks 1 --seconds 6 --seed 1"
difftest="timeout -s INT 7 $vfslab difftest --calls 1000000000 --seed 1 --keep-going \
--no-shrink --tmpdir $work"
root=$([ "$(id -u)" = 0 ] && echo yes)

script -qec "$torture" "$work/torture.tty" </dev/null >/dev/null &
$torture >"$work/torture.out" 2>"$work/torture.err" &
if [ -n "$root" ]; then
	script -qec "$difftest" "$work/difftest.tty" </dev/null >/dev/null &
	$difftest >"$work/difftest.out" 2>"$work/difftest.err" &
fi
wait

check() {
	name=$1
	line=$2
	if ! grep -q "$line" "$work/$name.tty"; then
		bad "$name: no progress line on a terminal"
		tail -n 5 "$work/$name.tty"
	else
		ok "$name: progress on a terminal"
	fi
	if grep -q "$line" "$work/$name.err" "$work/$name.out"; then
		bad "$name: a progress line where stderr is a file"
		cat "$work/$name.err"
	elif [ ! -s "$work/$name.out" ]; then
		bad "$name: no output when not on a terminal"
	else
		ok "$name: no progress line in a file"
	fi
}

check torture "^vfslab torture: [0-9]* s: [0-9]* ops"
if [ -n "$root" ]; then
	check difftest "^vfslab difftest: [0-9]* s: [0-9]* scripts*, [0-9]* calls ran"
else
	echo "SKIP: difftest needs root"
fi
summary
