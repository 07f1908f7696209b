#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench --plot: a file name or a side's label is data, never gnuplot
# commands (quotes, backquotes, newlines); a file vfslab cannot write is
# an error that leaves stdout clean; the plot is a real PNG or SVG.
# Skipped where vfslab was configured without gnuplot.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
. "${srcdir:-$(dirname "$0")/..}/tests/report.sh"
abs=$(cd "$(dirname "$vfslab")" && pwd)/vfslab

# A bounded run: one task, one short round.
plot() {
	(cd "$work" && "$abs" bench stat1 --tasks 1 --rounds 1 --interval 0.01 --format json "$@")
}

plot --peer none --plot probe.svg >"$work/out" 2>"$work/err"
if grep -q "needs gnuplot" "$work/err"; then
	echo "SKIP: vfslab was configured without gnuplot"
	exit 77
fi

# Item: a quote ends gnuplot's string and the rest runs as commands.
evil="a.png'; system 'touch PWNED'; set output 'b.png"
if plot --peer none --plot "$evil" >"$work/out" 2>"$work/err" &&
	[ ! -e "$work/PWNED" ] && [ -s "$work/$evil" ] && [ ! -e "$work/b.png" ]; then
	ok "a quote in the file name runs nothing and names the file"
else
	bad "--plot with a quote: $(ls "$work") $(head -c 300 "$work/err")"
fi
rm -f "$work/PWNED"

if plot --peer none --plot "it's.png" >"$work/out" 2>"$work/err" &&
	file "$work/it's.png" | grep -q "PNG image"; then
	ok "--plot it's.png writes a PNG"
else
	bad "--plot it's.png: $(head -c 300 "$work/err")"
fi

# A side's label carries --tmpdir: backquotes and quotes there are text.
dir="$work/d\`touch PWNED2\`'q"
mkdir "$dir"
if plot --tmpdir "$dir" --plot labels.svg >"$work/out" 2>"$work/err" &&
	[ ! -e "$work/PWNED2" ] && grep -q "touch PWNED2" "$work/labels.svg"; then
	ok "a label with backquotes and quotes is printed, not run"
else
	bad "label: $(ls "$work") $(head -c 300 "$work/err")"
fi

# gnuplot must not write the image into the table or JSON on stdout.
if plot --peer none --plot /nonexistent/x.png >"$work/out" 2>"$work/err"; then
	bad "--plot /nonexistent/x.png exits 0"
elif ! jq -e '.results | length == 1' "$work/out" >/dev/null 2>&1; then
	bad "--plot /nonexistent/x.png: stdout is not the JSON alone"
elif ! grep -q "cannot write /nonexistent/x.png" "$work/err"; then
	bad "--plot /nonexistent/x.png: no error naming the file: $(head -c 300 "$work/err")"
else
	ok "--plot to an unwritable path: an error, stdout clean"
fi

summary
