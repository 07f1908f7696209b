#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# vfslab sim calibrate writes a profile that vfslab sim loads; a bad
# profile file is an error naming its line; validate refuses bad options.
# (The measurements themselves are only as good as the machine is quiet:
# what this checks is the plumbing, not the numbers.)

bin=${top_builddir:-.}/tools
work=$(mktemp -d "${TMPDIR:-/tmp}/sim-calib.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}

# A sanitizer build has no simulator (tools/simrun/local.mk).
[ -x "$bin/vfslab-sim" ] || { echo "SKIP: no vfslab-sim in this build"; exit 77; }
# A broken profile (the checked-in one, cpi spoilt): the error names the
# file and the line. These need no measurement, so they run first.
sed 's/^cpi = .*/cpi = fast/' "${srcdir:-.}/tools/sim/host.prof" >"$work/bad.prof"
if "$bin/vfslab" sim fstat1 --cpus 1 --ops 100 --profile "$work/bad.prof" 2>"$work/err"; then
	fail "a bad profile was accepted"
fi
grep -q "bad.prof: line [0-9]*: cpi = 'fast' is not a valid value" "$work/err" ||
	{ cat "$work/err"; fail "the error does not name the line"; }
"$bin/vfslab" sim fstat1 --profile "$work/none.prof" 2>/dev/null && fail "a missing file was accepted"
"$bin/vfslab" sim validate --part bogus 2>/dev/null
[ $? -eq 2 ] || fail "validate --part bogus is not a usage error"
"$bin/vfslab" sim calibrate --out /nonexistent/dir/x.prof 2>/dev/null && fail "an unwritable --out passed"
if [ "$(nproc)" -lt 2 ]; then
	echo "SKIP: calibrate needs two CPUs"
	exit 77
fi
# Calibrate refuses a machine too busy to show a transfer (a CI machine
# running other tests at once can be): try three times, then skip.
tries=0
until "$bin/vfslab" sim calibrate --workloads fstat1,stat1 --rounds 2 --interval 0.1 \
	--out "$work/host.prof" 2>"$work/calib.err"; do
	rc=$?
	cat "$work/calib.err"
	grep -q 'too busy' "$work/calib.err" || fail "calibrate exited $rc"
	tries=$((tries + 1))
	if [ $tries -ge 3 ]; then
		echo "SKIP: the machine stayed too busy for calibrate to measure"
		exit 77
	fi
	sleep 5
done
for key in ghz cpi xfer_cluster_ns upgrade dirty_read_moves hold line_bytes copy_mlp syscall_ns \
	cpi.fstat1 cpi.stat1; do
	grep -q "^$key = [0-9]" "$work/host.prof" || fail "no $key in the profile"
done
grep -q '^#   fstat1 ' "$work/host.prof" || fail "no per-workload line"
grep -q '^# line probe: ' "$work/host.prof" || fail "no line probe in the profile's log"
grep -q '^# hold probe: ' "$work/host.prof" || fail "no hold probe in the profile's log"
# The run uses the workload's own cycles per instruction.
want=$(sed -n 's/^cpi\.fstat1 = //p' "$work/host.prof")
"$bin/vfslab" sim fstat1 --cpus 1 --ops 100 --profile "$work/host.prof" |
	awk -v w="$want" '/^core model/ { t = 1; next } t && $1 == "vfslab" { print $4; exit }' \
	>"$work/cpi"
awk -v w="$want" '{ exit !($1 > w - 0.0011 && $1 < w + 0.0011) }' "$work/cpi" ||
	fail "fstat1 ran at CPI $(cat "$work/cpi"), not its own $want"
ls "$work"/host.prof.* >/dev/null 2>&1 && fail "calibrate left $(ls "$work"/host.prof.*)"
"$bin/vfslab" sim fstat1 --cpus 1,2 --ops 100 --profile "$work/host.prof" >"$work/out" ||
	fail "sim could not use the calibrated profile"
grep -q '^machine host: ' "$work/out" || fail "the run does not name the host profile"

echo "PASS: calibrate writes a profile sim loads; bad profiles are named errors"
