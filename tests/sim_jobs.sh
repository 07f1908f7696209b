#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# vfslab sim --jobs N prints what --jobs 1 prints, byte for byte (table with
# contention report, JSON, a scenario's heat map); --emit-jobs DIR's lines,
# run by sh in any order, and --collect DIR give the same report; errors
# name the problem; Ctrl-C during --jobs 2 kills the running simulations,
# removes the scratch directory and reports what finished, status 130.
set -u
bin=${top_builddir:-.}/tools
bin=$(cd "$bin" && pwd)
[ -x "$bin/vfslab-sim" ] || { echo "SKIP: no vfslab-sim in this build"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/sim-jobs.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
# The scratch directories of --jobs go here, to be counted.
export TMPDIR="$work/tmp"
mkdir "$TMPDIR"
fail=0

sweep() {
	"$bin/vfslab" sim stat2 --cpus 1,4,6 --ops 200 --seeds 2 --variant dentry=v6.10 \
		--variant dentry=v6.11 --report c2c --top 2 "$@"
}
# Compared without the simulator's speed, this machine's and not the result's.
nospeed=$(dirname "$0")/sim_nospeed.sh
same() {
	if [ "$(sh "$nospeed" "$1")" != "$(sh "$nospeed" "$2")" ]; then
		echo "FAIL: $3 differs from --jobs 1"
		diff "$1" "$2" | head -20
		fail=1
	fi
}

sweep >"$work/1" 2>/dev/null || { echo "FAIL: sim exited $?"; exit 1; }
sweep --jobs 2 >"$work/2" 2>"$work/2e" || { echo "FAIL: --jobs 2: $(cat "$work/2e")"; exit 1; }
same "$work/1" "$work/2" "--jobs 2"
sweep --jobs 5 --format json >"$work/j5" 2>/dev/null || exit 1
sweep --format json >"$work/j1" 2>/dev/null || exit 1
same "$work/j1" "$work/j5" "--jobs 5 --format json"
"$bin/vfslab" sim d_lockref --seeds 2 --report html "$work/h1.html" >"$work/s1" 2>/dev/null || exit 1
"$bin/vfslab" sim d_lockref --seeds 2 --report html "$work/h3.html" --jobs 3 >"$work/s3" 2>/dev/null ||
	exit 1
same "$work/s1" "$work/s3" "a scenario with --jobs 3"
same "$work/h1.html" "$work/h3.html" "the heat map with --jobs 3"

# --emit-jobs: one line a simulation; run them backwards, one by one, in DIR.
sweep --emit-jobs "$work/ej" >"$work/emit" || { echo "FAIL: --emit-jobs exited $?"; exit 1; }
n=$(wc -l <"$work/ej/jobs")
[ "$n" = 6 ] || { echo "FAIL: $n jobs for 3 CPU counts of 2 sides"; fail=1; }
grep -q -- '--collect' "$work/emit" || { echo "FAIL: --emit-jobs says not how to collect"; fail=1; }
(cd "$work/ej" && export PATH="$bin:$PATH" && tac jobs | sh) 2>/dev/null ||
	{ echo "FAIL: the emitted jobs failed"; fail=1; }
sweep --collect "$work/ej" >"$work/c" 2>"$work/ce" || { echo "FAIL: --collect: $(cat "$work/ce")"; fail=1; }
same "$work/1" "$work/c" "--emit-jobs, sh, --collect"

# Errors.
check_err() {
	want=$1
	shift
	sweep "$@" >/dev/null 2>"$work/e"
	rc=$?
	if [ "$rc" = 0 ] || ! grep -q -- "$want" "$work/e"; then
		echo "FAIL: sim ... $*: status $rc, stderr: $(cat "$work/e")"
		fail=1
	fi
}
rm "$work/ej/job-4.res"
check_err "job-4.res is missing" --collect "$work/ej"
echo "vfslab-sim-job 1" >"$work/ej/job-4.res"
check_err "job-4.res: not a vfslab sim job's result" --collect "$work/ej"
cp "$work/ej/job-5.res" "$work/ej/job-4.res"
check_err "job-4.res is the result of" --collect "$work/ej"
check_err "--job 7: this command runs 6 simulations" --job 7 --job-out "$work/x"
check_err "go together" --job 1
check_err "one at a time" --emit-jobs "$work/a" --collect "$work/b"
check_err "not with --emit-jobs" --jobs 2 --emit-jobs "$work/a"
check_err "--jobs" --jobs 0

# Ctrl-C: the running simulations die, the scratch directory goes.
if env --default-signal=INT true 2>/dev/null; then
	(exec env --default-signal=INT "$bin/vfslab" sim stat2 --cpus 1,64,400 --ops 3000 \
		--progress --jobs 2) >"$work/out" 2>"$work/err" &
	pid=$!
	i=0
	# The 64-CPU run is done once its result is in the scratch directory.
	while ! { grep -q '64 CPUs of' "$work/err" && ls "$TMPDIR"/*/job-2.res; } >/dev/null 2>&1 &&
		[ $i -lt 1200 ]; do
		i=$((i + 1))
		sleep 0.05
	done
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	if [ "$rc" != 130 ]; then
		echo "FAIL: --jobs 2 interrupted: status $rc"
		fail=1
	elif ! grep -q '^vfslab sim: INTERRUPTED by SIGINT: partial result: 2 of 3 CPU counts' \
		"$work/out" || ! grep -q '^vfslab  *64 ' "$work/out"; then
		echo "FAIL: --jobs 2 interrupted: not the 1 and 64 CPU rows and the mark"
		cat "$work/out"
		fail=1
	fi
	if [ -n "$(ls "$TMPDIR")" ]; then
		echo "FAIL: --jobs left $(ls "$TMPDIR")"
		fail=1
	fi
	# Ours: they have this test's TMPDIR.
	for p in $(pgrep -f 'vfslab-sim sim stat2 --cpus 1,64,400'); do
		if grep -qz "^TMPDIR=$TMPDIR\$" "/proc/$p/environ" 2>/dev/null; then
			echo "FAIL: simulation $p outlived its interrupted parent"
			fail=1
		fi
	done
else
	echo "env has no --default-signal: the Ctrl-C case is not checked"
fi
[ $fail = 0 ] && echo "PASS: --jobs 2 and 5, --emit-jobs/--collect match --jobs 1; errors; Ctrl-C"
exit $fail
