#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# vfslab sim --plot: the x axis counts virtual CPUs, the title names the
# machine profile and says simulated, the key sits below the axes (off the
# data), and every point has its min-max bar. Read back from the SVG.
set -u
bin=${top_builddir:-.}/tools
[ -x "$bin/vfslab-sim" ] || { echo "SKIP: no vfslab-sim in this build"; exit 77; }
for t in gnuplot python3; do
	command -v "$t" >/dev/null || { echo "SKIP: no $t"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/sim-plot.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT

"$bin/vfslab" sim stat2 --cpus 1,2,4 --ops 200 --seeds 2 --profile zen4 --plot "$work/p.svg" \
	>/dev/null 2>"$work/err" || { echo "FAIL: sim --plot: $(cat "$work/err")"; exit 1; }
python3 - "$work/p.svg" <<'EOF' || exit 1
import re, sys
svg = open(sys.argv[1]).read()
def text_y(s):
    # gnuplot wraps the text in a tspan, or not ("noenhanced").
    m = re.search(r'translate\([\d.]+,([\d.]+)\)[^>]*>\s*<text>(?:<tspan[^>]*>)?' + re.escape(s),
                  svg)
    assert m, "no text %r" % s
    return float(m.group(1))
xlabel = text_y("virtual CPUs")
text_y("simulated ops/s")
assert re.search(r">stat2: [^<]*simulated on the zen4 profile<", svg), "title"
plot = svg[svg.index('id="gnuplot_plot_1"'):]
key = text_y("vfslab")
assert key > xlabel, "key at y %s, above the x label at %s: over the data" % (key, xlabel)
# A line through three points is one move; bars add a move per segment.
path = re.search(r"<path[^>]*d='([^']*)'", plot).group(1)
assert path.count("M") >= 3 * 3, "no min-max bars: %s" % path
print("PASS: virtual CPUs, zen4, simulated, key below the axes, bars")
EOF
