#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A scenario without --ops converges: it doubles its op count until the
# after/before ratio moves by under 1%, prints the counts it tried with
# their ratios and runs its table at the last one, the same bytes every
# time (but for the simulator's own speed). With --ops it runs that count
# alone. tools/sim_speed.sh tabulates the speed sim prints after its table.

bin=${top_builddir:-.}/tools
[ -x "$bin/vfslab-sim" ] || { echo "SKIP: no vfslab-sim in this build"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/sim-converge.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
. "${srcdir:-.}/tests/report.sh"

scen() {
	"$bin/vfslab" sim file_ref --cpus 4 --seeds 1 "$@"
}

scen >"$work/a" || bad "sim file_ref exited $?"
scen >"$work/b" || bad "sim file_ref exited $? (second run)"
grep -v '^simulator speed' "$work/a" >"$work/a.result"
grep -v '^simulator speed' "$work/b" >"$work/b.result"
if cmp -s "$work/a.result" "$work/b.result"; then
	ok "a converging scenario prints the same result twice"
else
	bad "a converging scenario's output differs between runs"
	diff -u "$work/a.result" "$work/b.result" | head -20
fi

# iterations per virtual CPU, doubled until the ratio moves by under 1%:
#   1000: 1.4547x, 2000: 1.4547x (+0.00%); converged at 2000
line=$(grep '^iterations per virtual CPU, doubled until the ratio moves by under 1%: ' "$work/a")
final=$(echo "$line" | sed -n 's/.*; converged at \([0-9]*\)$/\1/p')
table=$(sed -n 's/^mode threads, \([0-9]*\) iterations per virtual CPU, .*/\1/p' "$work/a")
if [ -n "$final" ] && [ "$final" = "$table" ]; then
	ok "converged at $final iterations per vCPU, the table's count"
else
	bad "no convergence line matching the table's count ($table): $line"
fi
if echo "$line" | awk '{
	n = 0
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+:$/) ops[++n] = $i + 0
	last = $0
	sub(/.*\(/, "", last)
	sub(/%\).*/, "", last)
	ok = n >= 2 && last + 0 < 1 && last + 0 > -1
	for (i = 2; i <= n; i++)
		ok = ok && ops[i] == 2 * ops[i - 1]
	exit !ok
}'; then
	ok "op counts double, the last change under 1%"
else
	bad "op counts do not double or the last change is not under 1%: $line"
fi

if command -v jq >/dev/null; then
	scen --format json >"$work/json" 2>/dev/null || bad "sim file_ref --format json exited $?"
	if jq -e '.scenario.convergence as $c | $c.tolerance == 0.01 and $c.converged and
		($c.steps | length) >= 2 and ($c.steps | last.ops_per_cpu) == .ops_per_cpu and
		.simulator_speed.accesses > 0' "$work/json" >/dev/null; then
		ok "JSON: scenario.convergence with the steps and the final count"
	else
		bad "JSON: no or a wrong scenario.convergence"
	fi
fi

scen --ops 300 >"$work/fixed" || bad "sim file_ref --ops 300 exited $?"
if grep -q '^iterations per virtual CPU, doubled' "$work/fixed" ||
	! grep -q '^mode threads, 300 iterations per virtual CPU' "$work/fixed"; then
	bad "--ops 300 did not run 300 iterations alone"
else
	ok "--ops runs its own count, no convergence"
fi

# The speed table: a row per CPU count, against the first where 64 is not run.
if sh "${srcdir:-.}/tools/sim_speed.sh" --vfslab "$bin/vfslab" --ops 50 --cpus "1 2" \
	>"$work/speed"; then
	if grep -q '^| 1 | [0-9.]* | [0-9.]* | [0-9.]* | 1.00x |$' "$work/speed" &&
		grep -q '^| 2 | [0-9.]* | [0-9.]* | [0-9.]* | [0-9.]*x |$' "$work/speed"; then
		ok "sim_speed.sh: a row per CPU count"
	else
		bad "sim_speed.sh: rows missing"
		cat "$work/speed"
	fi
else
	bad "sim_speed.sh exited non-zero"
fi
sh "${srcdir:-.}/tools/sim_speed.sh" --ops x 2>"$work/err" && bad "sim_speed.sh took --ops x"
grep -q "ops: a number" "$work/err" || bad "sim_speed.sh --ops x: no message"
summary
