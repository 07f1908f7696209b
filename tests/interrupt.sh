#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Ctrl-C during the long commands: SIGINT (or SIGTERM) sent to bench,
# bench --tree, compare, replay, torture, difftest and fstest --host while
# they run must stop them promptly, leave nothing in their --tmpdir, print
# what they measured marked INTERRUPTED, and exit 128 + the signal.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
vfslab=$(cd "$(dirname "$vfslab")" && pwd)/vfslab
srcdir=$(cd "${srcdir:-.}" && pwd)
# A script's background jobs start with SIGINT ignored, which vfslab keeps.
if ! env --default-signal=INT true 2>/dev/null; then
	echo "SKIP: env has no --default-signal to give a background job its SIGINT"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/interrupt.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
. "$srcdir/tests/report.sh"

# start ARGS...: vfslab ARGS in the background, in $work/cwd, scratch dir $work/tmp.
start() {
	rm -rf "$work/tmp" "$work/cwd"
	mkdir "$work/tmp" "$work/cwd"
	(cd "$work/cwd" && exec env --default-signal=INT "$vfslab" "$@") \
		>"$work/out" 2>"$work/err" &
	pid=$!
	t0=$(date +%s)
}

# until_ok TEST: poll TEST (eval'd) for at most 30 s.
until_ok() {
	i=0
	while ! eval "$1"; do
		i=$((i + 1))
		[ $i -lt 600 ] || return 1
		sleep 0.05
	done
}

tmp_used() {
	[ -n "$(ls -A "$work/tmp")" ]
}

show() {
	echo "--- stdout"
	tail -n 15 "$work/out"
	echo "--- stderr"
	tail -n 15 "$work/err"
}

# stop NAME SIG STATUS: send SIG; the exit status must be STATUS (128 + SIG's
# number) within 60 s, --tmpdir empty, and the output must say INTERRUPTED by SIG.
stop() {
	name=$1
	sig=$2
	want=$3
	kill -s "$sig" "$pid"
	wait "$pid"
	rc=$?
	secs=$(($(date +%s) - t0))
	left=$(ls -A "$work/tmp")
	if [ "$rc" != "$want" ]; then
		bad "$name: exit status $rc, not $want"
	elif [ "$secs" -gt 60 ]; then
		bad "$name: took $secs s to stop"
	elif [ -n "$left" ]; then
		bad "$name: left in --tmpdir: $left"
	elif ! grep -q "INTERRUPTED by SIG$sig" "$work/out" "$work/err"; then
		bad "$name: no INTERRUPTED by SIG$sig"
	else
		return 0
	fi
	show
	return 1
}

# expect NAME FILE REGEX: the partial result is there.
expect() {
	if grep -q -- "$3" "$work/$2"; then
		ok "$1"
	else
		bad "$1: no '$3' in $2"
		show
	fi
}

start bench stat1 --tasks 1 --interval 0.1 --rounds 1000 --tmpdir "$work/tmp"
until_ok tmp_used && sleep 2
if stop "bench" INT 130; then
	expect "bench: the rounds so far" out \
		"partial result: 1 of 1 task count, the last over [1-9][0-9]* of 1000 rounds"
	expect "bench: a vfslab row" out "^vfslab  *1 "
fi

start bench stat1 --tasks 1 --interval 0.1 --rounds 1000 --format csv --tmpdir "$work/tmp"
until_ok tmp_used && sleep 2
if stop "bench --format csv" TERM 143; then
	expect "bench --format csv: the mark on stderr" err \
		"^vfslab bench: INTERRUPTED by SIGTERM: partial result"
	expect "bench --format csv: the rows" out "^1,"
fi

# hash-shift=16: the table sized for 10^8 dentries would take the second to zero.
start bench --tree 100000000 --peer none --variant hash-shift=16
sleep 1
if stop "bench --tree (vfslab side)" INT 130; then
	expect "bench --tree: files so far" out \
		"partial result: vfslab built [1-9][0-9]* of the 100000000 files"
	expect "bench --tree: the rate" out "vfslab: .* files/s"
fi

start bench --tree 200000 --tmpdir "$work/tmp"
until_ok tmp_used
if stop "bench --tree (kernel side)" TERM 143; then
	expect "bench --tree: kernel files so far" out "kernel ($work/tmp): [0-9]* files in"
fi

start compare d_lockref --tasks 1 --interval 0.1 --rounds 1000
sleep 2
if stop "compare" INT 130; then
	expect "compare: the verdict so far" out "^here, 1 task: after/before"
fi

if [ "$(id -u)" = 0 ]; then
	start replay "$srcdir/tests/replay/cp.log" --peer kernel --seconds 600 \
		--tmpdir "$work/tmp"
	until_ok tmp_used && sleep 0.5
else
	start replay "$srcdir/tests/replay/cp.log" --seconds 600
	sleep 1
fi
if stop "replay" INT 130; then
	expect "replay: says it measured nothing yet" out "before a round was measured"
fi

start torture --tasks 2 --seconds 600 --seed 1
until_ok 'grep -q "^variant:" "$work/out"' && sleep 1
if stop "torture" INT 130; then
	expect "torture: the ops so far" out "^[1-9][0-9]* ops in"
	expect "torture: checked" out "partial run, the ops above passed every check"
fi

if [ "$(id -u)" = 0 ]; then
	# --keep-going: a host whose --tmpdir is not tmpfs differs, and goes on.
	start difftest --calls 1000000000 --seed 1 --keep-going --no-shrink \
		--tmpdir "$work/tmp"
	until_ok 'grep -q "^difftest: seed" "$work/out" || ! kill -0 $pid 2>/dev/null'
	sleep 1
	if ! kill -0 $pid 2>/dev/null; then
		wait $pid
		echo "SKIP: difftest cannot run here (exit status $?)"
	elif stop "difftest" INT 130; then
		expect "difftest: the counts so far" out "^difftest: [0-9]* scripts*, .* calls"
	fi
else
	echo "SKIP: difftest needs root"
fi

awk 'BEGIN { for (i = 0; i < 100000; i++) print "mkdir d 0755\nrmdir d" }' >"$work/script"
start fstest --host --no-chroot "$work/script"
sleep 1
if stop "fstest --host" INT 130; then
	expect "fstest --host: after which line" err "INTERRUPTED by SIGINT after line [1-9]"
	expect "fstest --host: the lines that ran" out "^0$"
fi

summary
