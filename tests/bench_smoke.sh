#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every workload runs a short bounded pass on vfslab and on the host kernel
# (a tmpfs directory), in thread and process mode; the CSV and the JSON of
# one run must parse and carry the same figures, with no failed call.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
. "${srcdir:-$(dirname "$0")/..}/tests/report.sh"

check() {
	name=$1
	shift
	if "$vfslab" bench "$@" --rounds 3 --interval 0.1 --format csv \
		--json "$work/out.json" >"$work/out.csv" 2>"$work/err"; then
		:
	else
		bad "$name: exit status $? ($(head -c 300 "$work/err"))"
		return
	fi
	rows=$(($(wc -l <"$work/out.csv") - 1))
	jrows=$(jq '.results | length' "$work/out.json")
	# CSV: some work in some round (max, column 7, > 0: a loaded machine may
	# starve a short interval, hence 0.1 s) and no failed call (last column) on every row.
	badrows=$(awk -F, 'NR > 1 && ($7 + 0 <= 0 || $NF != 0)' "$work/out.csv")
	# JSON: the same ops/s and ratio, row for row.
	csv_ops=$(awk -F, 'NR > 1 { print $5, $8 }' "$work/out.csv")
	json_ops=$(jq -r '.results[] | "\(.ops_per_sec) \(.ratio | tostring)"' "$work/out.json" |
		awk '{ printf "%d %.4f\n", $1, $2 }')
	if [ "$rows" -lt 2 ] || [ "$rows" != "$jrows" ] || [ -n "$badrows" ] ||
		[ "$csv_ops" != "$json_ops" ]; then
		bad "$name: rows $rows/$jrows, bad rows: $badrows"
		echo "csv: $csv_ops"
		echo "json: $json_ops"
		return
	fi
	ok "$name"
}

for w in $("$vfslab" bench --list | awk '/^[a-z]/ { print $1 }'); do
	check "$w threads" "$w" --tasks 1,2 --mode threads
done
for w in stat2 fstat2 fstat_onefd open1 syscall2 dup1 dcount; do
	check "$w processes" "$w" --tasks 2 --mode processes
done
check "stat1 two variants, entry-ns" stat1 --tasks 1 --variant dentry=v6.7 \
	--variant dcount=dlock --entry-ns 50

summary
