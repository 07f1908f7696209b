#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Ctrl-C during the simulator's long commands: `sim --all-scenarios` stops
# between runs and prints the summary of the scenarios it finished, marked
# INTERRUPTED, with status 130; a plain `sim` run keeps the CPU counts every
# side finished; `sim calibrate --out FILE` interrupted leaves FILE as it was
# and no temporary file beside it.
set -u
bin=${top_builddir:-.}/tools
bin=$(cd "$bin" && pwd)
# A sanitizer build has no simulator (tools/simrun/local.mk).
[ -x "$bin/vfslab-sim" ] || { echo "SKIP: no vfslab-sim in this build"; exit 77; }
# A script's background jobs start with SIGINT ignored, which vfslab keeps.
if ! env --default-signal=INT true 2>/dev/null; then
	echo "SKIP: env has no --default-signal to give a background job its SIGINT"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/sim-intr.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
fail=0

bad() {
	echo "FAIL: $*"
	echo "--- stdout"
	tail -n 12 "$work/out"
	echo "--- stderr"
	tail -n 12 "$work/err"
	fail=1
}

# start ARGS...: vfslab ARGS in the background.
start() {
	(cd "$work" && exec env --default-signal=INT "$bin/vfslab" "$@") \
		>"$work/out" 2>"$work/err" &
	pid=$!
}

# until FILE REGEX: wait (at most 60 s) until FILE has a line matching REGEX.
until_line() {
	i=0
	while ! grep -q -- "$2" "$1"; do
		i=$((i + 1))
		[ $i -lt 1200 ] || return 1
		sleep 0.05
	done
}

# interrupt_when NAME FILE REGEX MARK ROW: once FILE has a line matching
# REGEX, Ctrl-C; the status must be 130, stdout must hold the INTERRUPTED
# line MARK and a line matching ROW (what finished).
interrupt_when() {
	if ! until_line "$work/$2" "$3"; then
		kill "$pid"
		bad "$1: no line matching '$3' within 60 s"
		return
	fi
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	if [ "$rc" != 130 ]; then
		bad "$1: exit status $rc, not 130"
	elif ! grep -q "^vfslab sim: INTERRUPTED by SIGINT: partial result: $4" "$work/out"; then
		bad "$1: no INTERRUPTED line with '$4'"
	elif ! grep -q "$5" "$work/out"; then
		bad "$1: what finished ('$5') is missing"
	fi
}

# --all-scenarios runs its simulations in processes of their own, round by
# round (each scenario's first op count, then the doublings its ratio asks
# for), and prints at the end. Once the second round is past d_lockref's
# two sides (progress lines from 24 on), Ctrl-C: the summary has d_lockref.
start sim --all-scenarios --seeds 1 --jobs 2 --progress
i=0
while [ $i -lt 2400 ]; do
	# The command's own shell creates err: until then grep -c prints nothing.
	n=$(grep -c ' CPUs of ' "$work/err" 2>/dev/null)
	[ "${n:-0}" -ge 24 ] && break
	i=$((i + 1))
	sleep 0.05
done
printf 'progress\n' >>"$work/err.mark"
interrupt_when "sim --all-scenarios" err.mark '^progress' \
	'[0-9]* of [0-9]* scenarios' '^d_lockref '

# Three CPU counts, Ctrl-C during the second: the run in progress ends, the
# third never starts, the two finished stay in the table.
start sim stat2 --cpus 1,64,400 --ops 3000 --progress
interrupt_when "sim stat2" err '64 CPUs of' '2 of 3 CPU counts' '^vfslab  *64 '

# calibrate --out: the old profile survives, nothing is left beside it.
# Ctrl-C once the file it writes beside --out exists (it catches the signal
# first): it stops after the measurement in progress, the first of them, so
# how busy the machine is (which can fail a later one) does not matter.
echo "old profile" >"$work/old.prof"
start sim calibrate --out "$work/old.prof" --workloads stat1
i=0
until ls "$work"/old.prof.* >/dev/null 2>&1; do
	i=$((i + 1))
	kill -0 "$pid" 2>/dev/null && [ $i -lt 1200 ] || break
	sleep 0.05
done
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
if [ "$(nproc)" -lt 2 ]; then
	echo "calibrate needs two CPUs: its interrupt is not checked here"
elif ! ls "$work"/old.prof.* >/dev/null 2>&1 && [ $i -ge 1200 ]; then
	bad "sim calibrate: no file beside --out within 60 s"
elif [ "$rc" = 0 ]; then
	echo "calibrate finished before the signal: skipping its check"
elif [ "$rc" != 130 ]; then
	bad "sim calibrate: exit status $rc, not 130"
elif [ "$(cat "$work/old.prof")" != "old profile" ]; then
	bad "sim calibrate: the old --out file was changed"
elif ls "$work"/old.prof.* >/dev/null 2>&1; then
	bad "sim calibrate: left $(ls "$work"/old.prof.*)"
elif ! grep -q 'INTERRUPTED by SIGINT: no profile written' "$work/err"; then
	bad "sim calibrate: no INTERRUPTED line"
fi
exit $fail
