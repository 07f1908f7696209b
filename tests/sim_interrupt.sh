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

# Once the first scenario's prediction is out, Ctrl-C.
start sim --all-scenarios --seeds 1
if until_line "$work/out" '^predicted after/before'; then
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	if [ "$rc" != 130 ]; then
		bad "sim --all-scenarios: exit status $rc, not 130"
	elif ! grep -q '^vfslab sim: INTERRUPTED by SIGINT: partial result: [0-9]* of [0-9]* scenarios' "$work/out"; then
		bad "sim --all-scenarios: no INTERRUPTED line with the scenarios done"
	elif ! grep -q '^d_lockref ' "$work/out"; then
		bad "sim --all-scenarios: the summary lacks the finished d_lockref"
	fi
else
	kill "$pid"
	bad "sim --all-scenarios printed no prediction within 60 s"
fi

# A workload over three CPU counts, Ctrl-C during the second: the run in
# progress ends, the third never starts, the two finished stay in the table.
start sim stat2 --cpus 1,64,400 --ops 3000 --progress
if until_line "$work/err" '64 CPUs of'; then
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	if [ "$rc" != 130 ]; then
		bad "sim stat2: exit status $rc, not 130"
	elif ! grep -q '^vfslab sim: INTERRUPTED by SIGINT: partial result: 2 of 3 CPU counts' "$work/out"; then
		bad "sim stat2: no INTERRUPTED line with 2 of 3 CPU counts"
	elif ! grep -q '^vfslab  *64 ' "$work/out"; then
		bad "sim stat2: the 64-CPU row is missing"
	fi
else
	kill "$pid"
	bad "sim stat2 --progress printed no 64-CPU line within 60 s"
fi

# calibrate --out: the old profile survives, nothing is left beside it.
echo "old profile" >"$work/old.prof"
start sim calibrate --out "$work/old.prof" --workloads stat1
sleep 2
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" = 0 ]; then
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
