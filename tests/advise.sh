#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# vfslab advise on a tiny run: it writes a layout file vfslab layout
# accepts, the rates it prints for the winner and the input are those of a
# separate `vfslab sim` run of each with the same --ops and --seeds (the
# mean of the perturbed runs), the ratio is theirs, --jobs 2 prints what
# --jobs 1 does, pins hold, and bad arguments are refused by name. Then the
# issue's two starting points on the defaults: v6.10's dentry gives v6.11's
# layout, v6.12's file a rate no lower than v6.15's.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
# A sanitizer build has no simulator (tools/simrun/local.mk).
[ -x "${top_builddir:-.}/tools/vfslab-sim" ] || { echo "SKIP: no vfslab-sim in this build"; exit 77; }
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
. "${srcdir:-$(dirname "$0")/..}/tests/report.sh"

run() {
	"$vfslab" advise dentry --workload stat2 --cpus 4 --from randomize:5 --jobs "$1" \
		--ops 100 --seeds 2 --out "$work/a$1.layout" >"$work/out$1" 2>&1
}
if ! run 1; then
	bad "advise failed: $(cat "$work/out1")"
	summary
	exit
fi
run 2 || bad "advise --jobs 2 failed: $(cat "$work/out2")"
if [ "$(grep -v '^wrote' "$work/out1")" = "$(grep -v '^wrote' "$work/out2")" ] &&
	cmp -s "$work/a1.layout" "$work/a2.layout"; then
	ok "--jobs 2 prints and writes what --jobs 1 does"
else
	bad "--jobs 2 differs: $(diff "$work/out1" "$work/out2")"
fi
if "$vfslab" layout dentry --variant "dentry=$work/a1.layout" >"$work/layout" 2>&1; then
	ok "vfslab layout accepts the advised layout"
else
	bad "vfslab layout refuses it: $(cat "$work/layout")"
fi
if awk '/\/\* +[0-9]+ +[0-9]+ \*\// { if (prev ~ /d_name /) print; prev = $0 }' "$work/layout" |
	grep -q 'd_iname'; then
	ok "d_iname stays right after d_name"
else
	bad "the pin moved: $(cat "$work/layout")"
fi

# The winner's row and the input's (candidate 0): rates at 1 CPU and 4.
win=$(awk '/^winner: candidate/ { print $3 }' "$work/out1")
rates() {
	awk -v c="$1" '$1 == c && $2 == "stat2" { print ($3 == "(input)" ? $4 " " $5 : $3 " " $4) }' \
		"$work/out1"
}
sim() {
	"$vfslab" sim stat2 --variant "dentry=$1" --cpus 1,4 --ops 100 --seeds 2 --format tsv 2>/dev/null |
		awk -F '\t' 'NR > 1 { printf "%s%s", (NR > 2 ? " " : ""), $3 } END { print "" }'
}
# The same bytes: layouts are built before the simulated CPU starts, so
# where one came from (a file, a preset) moves nothing.
close() {
	[ "$1" = "$2" ]
}
for pair in "$win $work/a1.layout" "0 randomize:5"; do
	set -- $pair
	if [ -n "$(sim "$2")" ] && close "$(rates "$1")" "$(sim "$2")"; then
		ok "candidate $1's rates are vfslab sim's for $2: $(sim "$2")"
	else
		bad "candidate $1: advise printed '$(rates "$1")', vfslab sim gives '$(sim "$2")'"
	fi
done
set -- $(sim "$work/a1.layout") $(sim randomize:5)
want=$(awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" \
	'BEGIN { printf "%.3f at 1 CPU, %.3f at 4 CPUs", a / c, b / d }')
if grep -qF "predicted ratio against randomize:5: $want" "$work/out1"; then
	ok "the predicted ratios are the separate runs': $want"
else
	bad "want '$want' in: $(grep predicted "$work/out1")"
fi
if grep -qE '^  stat2: lines of struct dentry the unshared path touches \(1 CPU\): [0-9]+ before, [0-9]+ after' \
	"$work/out1" && grep -q '^field order, input -> advised' "$work/out1"; then
	ok "lines before and after, and the field moves"
else
	bad "no lines or moves: $(cat "$work/out1")"
fi

# --html: the heat map of the input beside the winner, from the sim command it prints.
if "$vfslab" advise dentry --workload stat2 --cpus 4 --from v6.10 --out "$work/h.layout" \
	--ops 100 --seeds 1 --html "$work/h.html" >"$work/outh" 2>"$work/errh" &&
	grep -q "^heat map: vfslab sim stat2 --cpus 1,4 --ops 100 --seeds 1 .*--variant dentry=v6.10 --variant dentry=$work/h.layout --report html $work/h.html\$" "$work/outh" &&
	grep -q '<svg' "$work/h.html" && grep -qF "dentry=v6.10" "$work/h.html" &&
	grep -qF "dentry=$work/h.layout" "$work/h.html"; then
	ok "--html: a page with both layouts, and the sim command that drew it"
else
	bad "--html: $(cat "$work/outh" "$work/errh")"
fi

# From v6.10 on stat2 at 20 CPUs the smallest change that takes d_lockref
# off the lines the walk reads is the kernel's own v6.11 move, and it wins.
if "$vfslab" advise dentry --workload stat2 --cpus 20 --from v6.10 --jobs 2 --out "$work/k.layout" \
	>"$work/outk" 2>&1 &&
	"$vfslab" layout dentry --variant "dentry=$work/k.layout" 2>&1 | sed 1d >"$work/k.txt" &&
	"$vfslab" layout dentry --variant dentry=v6.11 2>&1 | sed 1d >"$work/611.txt" &&
	cmp -s "$work/k.txt" "$work/611.txt" &&
	grep -q '^winner: candidate [1-9][0-9]* (input, write-shared moved)' "$work/outk"; then
	ok "from v6.10 the advisor proposes v6.11's layout, offset for offset"
else
	bad "from v6.10: $(grep -A3 '^winner' "$work/outk"; diff "$work/611.txt" "$work/k.txt")"
fi

# From v6.12 on pread_onefd at 128 CPUs: f_ref off the lines pread reads, at a
# rate no lower than v6.15's (which moved it) in the same simulations, to
# within the 1% by which two layouts that keep the same fields apart differ
# with the draw of transfer times (README, "A layout advisor").
if "$vfslab" advise file --workload pread_onefd --cpus 128 --from v6.12 --jobs 2 --out "$work/p.layout" \
	>"$work/outp" 2>&1 &&
	"$vfslab" sim pread_onefd --cpus 128 --seeds 8 --jobs 2 --variant file=v6.15 \
		--variant "file=$work/p.layout" --format tsv >"$work/p.tsv" 2>/dev/null &&
	awk -F '\t' 'NR == 2 { a = $3 } NR == 3 { b = $3 } END { exit !(b >= 0.99 * a) }' "$work/p.tsv"; then
	ok "from v6.12 the advised file runs pread_onefd at 128 CPUs within 1% of v6.15 or faster: $(cut -f3 "$work/p.tsv" | tr '\n' ' ')"
else
	bad "from v6.12: $(grep -A2 '^winner' "$work/outp"; cat "$work/p.tsv")"
fi

# refused WHAT TEXT ARGS...: advise exits non-zero, naming TEXT.
refused() {
	what=$1 text=$2
	shift 2
	if "$vfslab" advise "$@" --out "$work/x.layout" >"$work/err" 2>&1; then
		bad "$what: accepted"
	elif grep -qF -- "$text" "$work/err"; then
		ok "$what: refused ($(head -1 "$work/err"))"
	else
		bad "$what: no '$text' in: $(cat "$work/err")"
	fi
}
refused "unknown struct" "expected one STRUCT" inode --workload stat2 --cpus 4
refused "no --cpus" "--workload and --cpus are required" dentry --workload stat2
refused "unknown workload" "unknown workload 'nope'" dentry --workload stat2,nope --cpus 4
refused "bad --from" "--from:" dentry --workload stat2 --cpus 4 --from nosuch
refused "one CPU" "--cpus" dentry --workload stat2 --cpus 1
refused "bad --line-margin" "--line-margin" dentry --workload stat2 --cpus 4 --line-margin -1
refused "no seeds" "--seeds" dentry --workload stat2 --cpus 4 --seeds 0
refused "too many seeds" "--seeds" dentry --workload stat2 --cpus 4 --seeds 17
refused "too few ops" "--ops" dentry --workload stat2 --cpus 4 --ops 5
summary
