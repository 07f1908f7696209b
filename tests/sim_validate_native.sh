#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# vfslab sim validate --part native, the short way: it calibrates the
# machine, measures one workload and every scenario natively, times the
# co-run speed and the transfer beside each row, and predicts on the
# profile those replace. What this checks is the plumbing, not the numbers
# (a noisy machine moves them): every row is printed with its band, the
# replacements are announced and used, and the exit status says only
# whether a row is outside (0 or 1, never a usage or run error).

bin=${top_builddir:-.}/tools
work=$(mktemp -d "${TMPDIR:-/tmp}/sim-valid.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}

[ -x "$bin/vfslab-sim" ] || { echo "SKIP: no vfslab-sim in this build"; exit 77; }
if [ "$(nproc)" -lt 2 ]; then
	echo "SKIP: the native part needs two CPUs"
	exit 77
fi
scen=$("$bin/vfslab" scenarios | sed -n 's/^\([a-z0-9_-]*\): .*/\1/p')
rows=$(($(echo "$scen" | wc -w) + 1))
[ "$rows" -gt 1 ] || fail "vfslab scenarios listed none"
"$bin/vfslab" sim validate --part native --workloads lseek1 --rounds 1 --interval 0.05 \
	--ops 300 >"$work/out" 2>"$work/err"
rc=$?
n=$(sed -n "s/^$rows rows, \\([0-9]*\\) outside their band\$/\\1/p" "$work/out")
if [ -z "$n" ]; then
	cat "$work/out" "$work/err"
	# A CI machine running other tests at once can be too busy to calibrate.
	grep -q 'too busy' "$work/err" && { echo "SKIP: the machine was too busy to measure"; exit 77; }
	fail "validate exited $rc without its tally of $rows rows"
fi
if [ "$n" -gt 0 ]; then want=1; else want=0; fi
[ $rc -eq $want ] || fail "exit $rc with $n rows outside"
grep -q "^co-run speed (a private loop on both CPUs, over alone): median [0-9.]* of $rows pairs" \
	"$work/out" || fail "no co-run line for $rows rows"
xfer=$(sed -n "s/^transfer (CAS ping-pong, each the best of its runs): median \\([0-9.]*\\) ns of $rows timed beside the rows .* is replaced by it\$/\\1/p" "$work/out")
[ -n "$xfer" ] || { cat "$work/out"; fail "no transfer line for $rows rows"; }
# The profile the predictions use has the transfer timed beside the rows.
grep -q "^calibrated: transfer $xfer ns " "$work/out" || fail "the calibrated transfer is not $xfer"
grep -q '^lseek1 .* \(ok\|OUTSIDE\)$' "$work/out" || fail "no lseek1 row"
for s in $scen; do
	grep -q "^$s .* \(ok\|OUTSIDE\)\$" "$work/out" || fail "no $s row"
done
echo "PASS: validate's native part measures, times the machine beside each row and predicts on that"
