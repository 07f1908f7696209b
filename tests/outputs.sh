#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# What other tools read: jq every JSON and Python's csv module every CSV
# (bench, replay, compare, sim), will-it-scale's plotting script's reader
# (postprocess.py: csv.reader, excel dialect; plot.js: columns 0-5) the
# --format wis CSV, all from runs whose kernel side sits in a directory
# named with a comma, a double quote, a newline and a byte that is not
# UTF-8. Kernel rows leave the VFS counters they never measured null (JSON)
# or empty (CSV), as every row does a score its workload does not keep;
# compare's JSON carries the scenario, the published figure and a verdict,
# its table LKP's shape, and one round never claims "every paired round".
set -u
vfslab=${top_builddir:-.}/tools/vfslab
for t in jq python3; do
	command -v "$t" >/dev/null || { echo "SKIP: no $t"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/outputs.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
. "${srcdir:-$(dirname "$0")/..}/tests/report.sh"

dir=$(printf '%s/a,b"c\n\377d' "$work")
mkdir "$dir" || exit 99
short="--rounds 2 --interval 0.05"

# CSV through Python's csv module: every row as long as the header, the
# kernel side's label byte for byte, its *_per_op fields empty.
check_csv() {
	python3 - "$1" "$dir" <<'EOF'
import csv, os, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8",
                            errors="surrogateescape")))
head, body = rows[0], rows[1:]
want = "kernel (" + os.fsdecode(os.fsencode(sys.argv[2])) + ")"
assert body and all(len(r) == len(head) for r in body), "ragged rows"
side = head.index("side")
counters = [i for i, h in enumerate(head) if h.endswith("_per_op")]
kernel = [r for r in body if r[side].startswith("kernel")]
assert kernel and all(r[side] == want for r in kernel), "kernel label: %r" % kernel[0][side]
assert all(r[i] == "" for r in kernel for i in counters), "kernel counters not empty"
assert all(r[i] != "" for r in body if r not in kernel for i in counters), "vfslab counters"
scores = [head.index("score0_per_sec"), head.index("score1_per_sec")]
assert all(r[i] == "" for r in body for i in scores), "stat1 keeps no scores"
EOF
}

# JSON through jq, then the label's bytes back from side_hex.
check_json() {
	jq -e '[.results[] | select(.kernel) | .events_per_op[]] | length > 0 and all(. == null)' \
		"$1" >/dev/null || return 1
	jq -e '[.results[] | select(.kernel | not) | .events_per_op[]] | all(. != null)' \
		"$1" >/dev/null || return 1
	jq -e '[.results[].scores_per_sec[]] | all(. == null)' "$1" >/dev/null || return 1
	jq -e '[.results[] | select(.kernel) | .side | contains("\ufffd")] | all' "$1" \
		>/dev/null || return 1
	python3 - "$1" "$dir" <<'EOF'
import json, os, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
want = b"kernel (" + os.fsencode(sys.argv[2]) + b")"
for r in doc["results"]:
    if r["kernel"]:
        assert bytes.fromhex(r["side_hex"]) == want, r["side_hex"]
    else:
        assert "side_hex" not in r
EOF
}

# postprocess.py's reader and plot.js's columns: runtest.py's header, its
# zero row, then one row per task count, each field a number or empty.
check_wis() {
	python3 - "$1" "$2" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1]), dialect="excel"))
assert rows[0] == ["tasks", "processes", "processes_idle", "threads", "threads_idle",
                   "linear"], rows[0]
assert rows[1][0] == "0" and all(len(r) == 6 for r in rows), rows
for r in rows[1:]:
    for v in r:
        assert v == "" or float(v) >= 0, r
col = 1 if sys.argv[2] == "processes" else 3
assert [r[0] for r in rows[2:]] == ["1", "2"], rows
assert all(float(r[col]) > 0 and r[4 - col] == "" for r in rows[2:]), rows
assert abs(float(rows[3][5]) - 2 * float(rows[2][5])) <= 1, rows
EOF
}

# try NAME COMMAND...: PASS or FAIL by the command's status.
try() {
	name=$1
	shift
	if "$@"; then ok "$name"; else bad "$name"; fi
}

# bench FORMAT [ARGS]: stat1's run in FORMAT into $work/b.FORMAT.
bench() {
	f=$1
	shift
	# shellcheck disable=SC2086
	"$vfslab" bench stat1 --tasks 1,2 $short --tmpdir "$dir" --format "$f" "$@" >"$work/b.$f"
}
bench_csv() { bench csv && check_csv "$work/b.csv"; }
bench_json() { bench json && check_json "$work/b.json"; }
bench_wis() { bench wis --mode "$1" && check_wis "$work/b.wis" "$1"; }
try "bench csv" bench_csv
try "bench json" bench_json
try "bench wis, threads" bench_wis threads
try "bench wis, processes" bench_wis processes
wis_two() {
	! "$vfslab" bench stat1 --format wis --variant dentry=v6.7 --variant dentry=v6.11 \
		>/dev/null 2>"$work/err" && grep -q 'wis' "$work/err"
}
try "wis refuses two variants" wis_two

# replay: the same report; its kernel side chroots, so needs root.
replay() {
	"$vfslab" replay "${srcdir:-.}/tests/replay/cp.log" --seconds 0.1 --peer kernel \
		--tmpdir "$dir" --format "$1" >"$work/r.$1" 2>/dev/null && "check_$1" "$work/r.$1"
}
if [ "$(id -u)" -eq 0 ]; then
	try "replay csv" replay csv
	try "replay json" replay json
else
	ok "replay: its kernel side needs root"
fi

# compare: JSON (the bench document plus scenario and verdicts) and CSV.
compare_json() {
	# shellcheck disable=SC2086
	"$vfslab" compare d_lockref --tasks 1 $short --peer kernel --format json >"$work/c.json" &&
		jq -e '.scenario.name == "d_lockref" and
			(.scenario.published_ratio | type) == "number" and
			(.scenario.published_cpus | type) == "number" and (.verdicts | length) == 1 and
			(.verdicts[0].verdict | type) == "string" and .verdicts[0].rounds == 2 and
			([.results[] | select(.kernel) | .events_per_op[]] | all(. == null))' \
			"$work/c.json" >/dev/null
}
try "compare json" compare_json
# CSV with ROWS records of equal length in FILE.
csv_rows() {
	python3 -c 'import csv, sys; r = list(csv.reader(open(sys.argv[1], newline="")))
assert len(r) == int(sys.argv[2]) and all(len(x) == len(r[0]) for x in r)' "$2" "$1"
}
compare_csv() {
	# shellcheck disable=SC2086
	"$vfslab" compare d_lockref --tasks 1 $short --peer kernel --format csv >"$work/c.csv" &&
		csv_rows 4 "$work/c.csv"
}
try "compare csv" compare_csv

# compare's table: LKP's block, and no "every paired round" from one round.
one_round() {
	"$vfslab" compare d_lockref --tasks 1 --rounds 1 --interval 0.05 >"$work/c1" &&
		! grep -q 'every paired round' "$work/c1" && grep -q 'one round' "$work/c1"
}
try "one round says so" one_round
lkp() {
	# shellcheck disable=SC2086
	"$vfslab" compare d_lockref --tasks 1,2 $short >"$work/c2" &&
		grep -q '%stddev *%change *%stddev' "$work/c2" &&
		grep -Eq '^ *[0-9]+ ± *[0-9]+% +[-+][0-9.]+% +[0-9]+ ± *[0-9]+%  stat2\.ops_per_sec\.2_processes$' \
			"$work/c2"
}
try "compare LKP shape" lkp

# The simulator's JSON and CSV, its machine named with a byte that is not UTF-8.
sim_json() {
	LC_ALL=C sed "s/^name = .*/name = $(printf 'x\377y')/" "${srcdir:-.}/tools/sim/host.prof" \
		>"$work/odd.prof" &&
		"$vfslab" sim fstat2 --cpus 1,2 --ops 100 --profile "$work/odd.prof" --report c2c \
			--format json >"$work/s.json" 2>/dev/null &&
		jq -e '.simulated and (.profile | contains("\ufffd")) and .profile_hex == "78ff79" and
			(.coherence | length) == 2' "$work/s.json" >/dev/null
}
sim_scenario() {
	"$vfslab" sim d_lockref --cpus 2 --ops 100 --seeds 1 --format json >"$work/sc.json" \
		2>/dev/null && jq -e '.scenario.name == "d_lockref" and
			(.scenario.published_ratio | type) == "number" and
			(.scenario.predictions | length) == 1 and
			(.scenario.predictions[0].label | type) == "string"' "$work/sc.json" >/dev/null
}
sim_csv() {
	"$vfslab" sim fstat2 --cpus 1,2 --ops 100 --format csv >"$work/s.csv" 2>/dev/null &&
		csv_rows 3 "$work/s.csv"
}
if [ -x "${top_builddir:-.}/tools/vfslab-sim" ]; then
	try "sim json" sim_json
	try "sim scenario json" sim_scenario
	try "sim csv" sim_csv
else
	ok "sim: no simulator in this build"
fi

summary
