#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# vfslab sim validate --part native, the short way: it measures one
# workload and every scenario natively, times the co-run speed and the
# transfer beside each row, and predicts. On a profile given with
# --profile (the checked-in host.prof) it keeps the profile's figures; on
# one it calibrates first it takes the ones timed beside the rows, and
# predicts each row at the transfer timed while that row ran. What
# this checks is the plumbing, not the numbers (a noisy machine moves
# them): every row is printed with its band, the timings are announced
# and used as they say, and the exit status says only whether a row is
# outside (0 or 1, never a usage or run error).

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
line="^transfer (CAS ping-pong, each the best of its runs): median \\([0-9.]*\\) ns of $rows timed beside the rows"

# validate [ARGS]: the short native part into $work/out; 0, or 2 when the
# machine was too busy to calibrate; fails on anything else.
validate() {
	"$bin/vfslab" sim validate --part native --workloads lseek1 --rounds 1 --interval 0.05 \
		--ops 300 "$@" >"$work/out" 2>"$work/err"
	rc=$?
	n=$(sed -n "s/^$rows rows, \\([0-9]*\\) outside their band\$/\\1/p" "$work/out")
	if [ -z "$n" ]; then
		# A CI machine running other tests at once can be too busy to calibrate.
		grep -q 'too busy' "$work/err" && return 2
		cat "$work/out" "$work/err"
		fail "validate $* exited $rc without its tally of $rows rows"
	fi
	if [ "$n" -gt 0 ]; then want=1; else want=0; fi
	[ $rc -eq $want ] || fail "validate $* exited $rc with $n rows outside"
	grep -q "^co-run speed (a private loop on both CPUs, over alone): median [0-9.]* of $rows pairs" \
		"$work/out" || fail "validate $*: no co-run line for $rows rows"
	grep -q '^lseek1 .* \(ok\|OUTSIDE\)$' "$work/out" || fail "validate $*: no lseek1 row"
	for s in $scen; do
		grep -q "^$s .* \(ok\|OUTSIDE\)\$" "$work/out" || fail "validate $*: no $s row"
	done
	return 0
}

# A profile given: its co-run speed and transfer are kept, and said so.
prof=${srcdir:-.}/tools/sim/host.prof
validate --profile "$prof"
given=$(sed -n 's/^xfer_smt_ns = \([0-9.]*\).*/\1/p' "$prof")
[ -n "$given" ] || fail "no xfer_smt_ns in $prof"
grep -q "$line .* the profile's $(printf '%.1f' "$given") is kept\$" "$work/out" ||
	{ cat "$work/out"; fail "the given profile's transfer is not said to be kept"; }
grep -q ' is kept (given with --profile)$' "$work/out" || fail "the co-run speed is not kept"
# ... and every row is predicted at it (the xfer column, before the label).
for r in lseek1 $scen; do
	x=$(awk -v r="$r" '$1 == r { print $(NF - 1) }' "$work/out")
	[ "$x" = "$(printf '%.1f' "$given")" ] ||
		{ cat "$work/out"; fail "$r predicted at transfer '$x', not the profile's $given"; }
done

# Calibrated here: the predictions use the transfer timed beside the rows.
tries=0
until validate; do
	tries=$((tries + 1))
	if [ $tries -ge 3 ]; then
		echo "PASS: validate keeps a given profile's figures (the calibrated path not checked:"
		echo "the machine stayed too busy to calibrate)"
		exit 0
	fi
	sleep 10
done
xfer=$(sed -n "s/$line .* is replaced by it\$/\\1/p" "$work/out")
[ -n "$xfer" ] || { cat "$work/out"; fail "no replaced transfer for $rows rows"; }
grep -q "^calibrated: transfer $xfer ns " "$work/out" || fail "the calibrated transfer is not $xfer"
# Each row at the transfer timed while it ran: announced, and a transfer's.
grep -q '^each row predicted at the transfer timed while it ran' "$work/out" ||
	fail "the rows' own transfers are not announced"
for r in lseek1 $scen; do
	awk -v r="$r" '$1 == r { x = $(NF - 1) } END { exit !(x + 0 >= 5 && x + 0 < 1000) }' \
		"$work/out" || { cat "$work/out"; fail "$r has no transfer of its own"; }
done
echo "PASS: validate's native part keeps a given profile's figures and takes the machine's as"
echo "timed beside the rows into one it calibrates, each row at its own transfer"
