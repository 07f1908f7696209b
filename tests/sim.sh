#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# vfslab sim is deterministic: the same command prints the same bytes when
# run twice, with the machine loaded, and through vfslab's exec of
# vfslab-sim, but for the simulator's own speed (the host's, after each
# table). Then the other output formats and a scenario, briefly.

bin=${top_builddir:-.}/tools
# A sanitizer build has no simulator (tools/simrun/local.mk).
[ -x "$bin/vfslab-sim" ] || { echo "SKIP: no vfslab-sim in this build"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/sim-test.XXXXXX") || exit 99
hog=
trap 'rm -rf "$work"; [ -n "$hog" ] && kill "$hog" 2>/dev/null' EXIT

run() {
	"$@" sim stat2 --cpus 1,4,12 --ops 300 --variant dentry=v6.10 --variant dentry=v6.11 \
		--report c2c --top 3
}

run "$bin/vfslab-sim" >"$work/a" || { echo "FAIL: vfslab-sim sim exited $?"; exit 1; }
run "$bin/vfslab-sim" >"$work/b" || exit 1
# A CPU hog while it runs must change nothing.
(while :; do :; done) &
hog=$!
run "$bin/vfslab" >"$work/c" || { echo "FAIL: vfslab sim exited $?"; exit 1; }
kill "$hog"
hog=
grep -q '^simulator speed (this machine.s, not part of the result): [0-9.]* M simulated accesses/s, [0-9.]* us of host CPU time per simulated operation' "$work/a" ||
	{ echo "FAIL: no simulator speed after the table"; exit 1; }
for f in a b c; do
	grep -v '^simulator speed' "$work/$f" >"$work/$f.result"
done
for f in b c; do
	if ! cmp -s "$work/a.result" "$work/$f.result"; then
		echo "FAIL: vfslab sim output differs between identical runs ($f)"
		diff -u "$work/a.result" "$work/$f.result" | head -40
		exit 1
	fi
done
grep -q '^#1 dentry "willitscale.stat02"' "$work/a" || { echo "FAIL: no contention report"; exit 1; }

"$bin/vfslab-sim" sim fstat2 --cpus 2,8 --ops 200 --format csv >"$work/csv" || exit 1
[ "$(grep -c ',fstat2,' "$work/csv")" -eq 2 ] || { echo "FAIL: CSV rows"; cat "$work/csv"; exit 1; }
"$bin/vfslab-sim" sim fstat2 --cpus 2 --ops 200 --format json >"$work/json" || exit 1
grep -q '"simulated":true' "$work/json" || { echo "FAIL: JSON"; exit 1; }
if command -v jq >/dev/null; then
	jq -e '.simulator_speed.accesses_per_s > 0 and .simulator_speed.host_cpu_us_per_op > 0 and
		.simulator_speed.ops >= 400 and
		(.coherence | map(.simulator_speed.accesses) | add) == .simulator_speed.accesses' \
		"$work/json" >/dev/null || { echo "FAIL: JSON simulator_speed"; exit 1; }
fi
"$bin/vfslab-sim" sim file_ref --cpus 16 --ops 200 >"$work/scen" || exit 1
grep -q '^predicted after/before at 16 CPUs of zen4' "$work/scen" ||
	{ echo "FAIL: scenario"; cat "$work/scen"; exit 1; }
# --format tsv, what validate reads: nine columns, the ratio inside the
# runs' range; a scenario judged on its score (blogbench's reads) gives
# the range of that score's ratio, not of the throughput's.
"$bin/vfslab-sim" sim alloc_fd --cpus 4 --ops 20 --seeds 3 --format tsv >"$work/tsv" || exit 1
awk -F '\t' 'NR == 1 { if (NF != 9 || $8 != "ratio_min" || $9 != "ratio_max") exit 1; next }
	NF != 9 || $8 > $4 + 1e-6 || $9 < $4 - 1e-6 || $8 <= 0 { exit 1 }
	END { if (NR != 3) exit 1 }' "$work/tsv" ||
	{ echo "FAIL: tsv"; cat "$work/tsv"; exit 1; }
# --seeds also draws where each size class of the simulated heap starts
# (--placement drawn, the default): on the Kunpeng's 128-byte lines the
# stat2 dentry's 192-byte slot starts on a line in some runs and half a
# line in in others, and v6.11's move parts the count from the name only
# in the first. --placement first keeps every run's heap where a lone run
# has it (the dentry half a line in), so the runs differ only in timing.
for p in first drawn; do
	"$bin/vfslab-sim" sim d_lockref --profile kunpeng920 --cpus 20 --ops 300 --seeds 4 \
		--placement $p --format tsv --json "$work/place.$p.json" >"$work/place.$p" || exit 1
	if command -v jq >/dev/null 2>&1; then
		jq -e --arg p $p '.seeds == 4 and .placement == $p' "$work/place.$p.json" >/dev/null ||
			{ echo "FAIL: JSON seeds and placement ($p)"; exit 1; }
	fi
done
awk -F '\t' 'NR == 3 { ok = $8 >= 0.98 && $9 <= 1.02 } END { exit !ok }' "$work/place.first" ||
	{ echo "FAIL: --placement first moved the runs' layout"; cat "$work/place.first"; exit 1; }
awk -F '\t' 'NR == 3 { ok = $8 < 1.02 && $9 > 1.5 && $4 > 1.05 } END { exit !ok }' \
	"$work/place.drawn" ||
	{ echo "FAIL: drawn placements do not span the lucky and the unlucky dentry"
	  cat "$work/place.drawn"; exit 1; }
# --seed K is the K-th run of such a set alone: the four runs' ratios are
# the drawn set's range, its least and its greatest.
for k in 1 2 3 4; do
	"$bin/vfslab-sim" sim d_lockref --profile kunpeng920 --cpus 20 --ops 300 --seed $k \
		--format tsv | awk -F '\t' 'NR == 3 { print $4 }' || exit 1
done >"$work/place.one"
sort -g "$work/place.one" | awk -v r="$(awk -F '\t' 'NR == 3 { print $8, $9 }' "$work/place.drawn")" '
	BEGIN { split(r, m, " ") } NR == 1 { lo = $1 } { hi = $1 }
	END { d1 = lo - m[1]; d2 = hi - m[2]; exit !(NR == 4 && d1 * d1 < 1e-10 && d2 * d2 < 1e-10) }' ||
	{ echo "FAIL: --seed 1..4 are not the runs of --seeds 4"; cat "$work/place.one" "$work/place.drawn"
	  exit 1; }
"$bin/vfslab-sim" sim stat2 --seed 2 --seeds 3 >/dev/null 2>&1 &&
	{ echo "FAIL: --seed with --seeds accepted"; exit 1; }
"$bin/vfslab-sim" sim stat2 --placement middle >/dev/null 2>"$work/err" &&
	{ echo "FAIL: --placement middle accepted"; exit 1; }
grep -q "placement: first or drawn, not 'middle'" "$work/err" ||
	{ echo "FAIL: --placement error"; cat "$work/err"; exit 1; }
# fsnotify_access() is vfs_read()'s, so pread notifies as read does: in a
# watched directory two threads' preads of their own files share only the
# directory's d_lockref, which dget_parent() takes.
for v in on off; do
	"$bin/vfslab-sim" sim pread1 --variant fsnotify-parent=$v --cpus 2 --mode threads \
		--ops 200 --report c2c --top 2 >"$work/notify.$v" || exit 1
done
sed -n '/2 CPUs of/,$p' "$work/notify.on" | grep -q '^#1 dentry "vfslab-sim"' &&
	grep -q 'd_lockref *lockref_get_not_zero' "$work/notify.on" &&
	! grep -q '^#[0-9] dentry' "$work/notify.off" ||
	{ echo "FAIL: pread in a watched directory does not take the parent"
	  cat "$work/notify.on" "$work/notify.off"; exit 1; }
echo "PASS: vfslab sim is deterministic; csv, tsv, json, scenario runs, placements and pread's notify work"
