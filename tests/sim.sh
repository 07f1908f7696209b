#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# vfslab sim is deterministic: the same command prints the same bytes when
# run twice, with the machine loaded, and through vfslab's exec of
# vfslab-sim. Then the other output formats and a scenario, briefly.

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
for f in b c; do
	if ! cmp -s "$work/a" "$work/$f"; then
		echo "FAIL: vfslab sim output differs between identical runs ($f)"
		diff -u "$work/a" "$work/$f" | head -40
		exit 1
	fi
done
grep -q '^#1 dentry "willitscale.stat02"' "$work/a" || { echo "FAIL: no contention report"; exit 1; }

"$bin/vfslab-sim" sim fstat2 --cpus 2,8 --ops 200 --format csv >"$work/csv" || exit 1
[ "$(grep -c ',fstat2,' "$work/csv")" -eq 2 ] || { echo "FAIL: CSV rows"; cat "$work/csv"; exit 1; }
"$bin/vfslab-sim" sim fstat2 --cpus 2 --ops 200 --format json >"$work/json" || exit 1
grep -q '"simulated":true' "$work/json" || { echo "FAIL: JSON"; exit 1; }
"$bin/vfslab-sim" sim file_ref --cpus 16 --ops 200 >"$work/scen" || exit 1
grep -q '^predicted after/before at 16 CPUs of zen4' "$work/scen" ||
	{ echo "FAIL: scenario"; cat "$work/scen"; exit 1; }
echo "PASS: vfslab sim is deterministic; csv, json and scenario runs work"
