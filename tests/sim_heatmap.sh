#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# vfslab sim --report html|svg FILE: the page is self-contained (no URL it
# would fetch), names are escaped (a layout file whose path holds markup),
# the SVG is well-formed XML with a box per field and line, the curve comes
# with several CPU counts only, and the option's errors name the problem.
# Rendering in a browser: sim_heatmap_browser.sh.
set -u
bin=${top_builddir:-.}/tools
[ -x "$bin/vfslab-sim" ] || { echo "SKIP: no vfslab-sim in this build"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/sim-heat.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT

# v6.10's dentry from a file whose name is markup.
odd="$work/<b>&\"it's\".layout"
printf 'struct dentry\nd_flags\nd_seq\nd_hash\nd_parent\nd_name\nd_inode\nd_iname 40\nd_lockref\nd_op\nd_sb\nd_time\nd_fsdata\nd_lru\nd_sib\nd_children\nd_u\n' >"$odd"
"$bin/vfslab" sim stat2 --cpus 1,4 --ops 200 --variant "dentry=$odd" --variant dentry=v6.11 \
	--report html "$work/p.html" --report svg "$work/p.svg" >"$work/out" 2>"$work/err" ||
	{ echo "FAIL: sim --report html: $(cat "$work/err")"; exit 1; }
"$bin/vfslab" sim stat2 --cpus 4 --ops 200 --report html "$work/one.html" >/dev/null 2>&1 ||
	{ echo "FAIL: sim --report html at one CPU count"; exit 1; }

python3 - "$work" <<'PYEOF' || exit 1
import re, sys, xml.etree.ElementTree as ET
work = sys.argv[1]
page = open(work + "/p.html").read()
svg = open(work + "/p.svg").read()
assert page.startswith("<!DOCTYPE html>"), "not a page"
# Self-contained: nothing to fetch.
for bad in ("src=", "href=", "@import", "url(http", "<link"):
    assert bad not in page, "page refers to something outside: %s" % bad
assert "&lt;b&gt;&amp;&quot;it&#39;s&quot;.layout" in page, "the odd label is not escaped"
assert "<b>&" not in page and "<b>&" not in svg, "raw markup from a name"
root = ET.fromstring(svg)  # well-formed XML, or this raises
ns = "{http://www.w3.org/2000/svg}"
boxes = [r for r in root.iter(ns + "rect") if r.get("class") == "fb"]
fields = {(r.get("data-side"), r.get("data-field")) for r in boxes}
for side in "01":
    for f in ("d_lockref", "d_iname", "d_name", "d_flags", "d_u"):
        assert (side, f) in fields, "no box for %s on side %s" % (f, side)
lines = [g for g in root.iter(ns + "g") if g.get("class") == "line"]
assert len([g for g in lines if g.get("data-struct") == "dentry"]) == 6, "3 dentry lines a side"
for r in boxes:
    assert re.fullmatch(r"#[0-9a-f]{6}", r.get("fill")), r.get("fill")
    assert float(r.get("data-heat")) >= 0
# Every box's fill is the one its heat gives (the same ramp for both sides).
heat = sorted(boxes, key=lambda r: float(r.get("data-ns")))
greens = [int(r.get("fill")[3:5], 16) for r in heat]
assert greens == sorted(greens, reverse=True), "fills not ordered by heat"
assert '<svg xmlns="http://www.w3.org/2000/svg" class="curve"' in page, "no curve"
assert page.count("<polyline") == 2, "a line per side"
one = open(work + "/one.html").read()
assert 'class="curve"' not in one, "a curve for one CPU count"
print("PASS: self-contained page, escaped names, boxes per field and line, curve")
PYEOF

# Errors name the problem.
fail=0
check_err() {
	want=$1
	shift
	"$bin/vfslab" sim stat2 --cpus 1 --ops 100 "$@" >/dev/null 2>"$work/e"
	rc=$?
	if [ "$rc" = 0 ] || ! grep -q -- "$want" "$work/e"; then
		echo "FAIL: sim $*: status $rc, stderr: $(cat "$work/e")"
		fail=1
	fi
}
check_err "which file" --report html
check_err "c2c, html FILE or svg FILE" --report pdf x.pdf
check_err "cannot write $work/no/such/p.html" --report html "$work/no/such/p.html"
exit $fail
