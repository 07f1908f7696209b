#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The heat map of `vfslab sim d_lockref --report html` as a reader sees it,
# in headless Chromium: a probe script added to a copy of the page records
# what the browser computed for every field box (its fill, whether it is
# the element on top at its centre) before and after switching the colour
# to transfers; then every field is there on both sides, the colours rise
# with the heat, and the line d_lockref shares with the name in v6.10 is
# the hottest before and cool after (v6.11 moved d_lockref to a line of its
# own, which takes that heat instead).
set -u
bin=${top_builddir:-.}/tools
[ -x "$bin/vfslab-sim" ] || { echo "SKIP: no vfslab-sim in this build"; exit 77; }
browser=
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null && { browser=$b; break; }
done
[ -n "$browser" ] || { echo "SKIP: no chromium (apt-get install chromium) to render the page"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/sim-heatb.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT

"$bin/vfslab" sim d_lockref --report html "$work/page.html" >"$work/out" 2>"$work/err" ||
	{ echo "FAIL: sim d_lockref --report html: $(cat "$work/err")"; exit 1; }

# The probe: what the browser computed, as attributes --dump-dom prints.
probe='<script>
function seen(tag) {
	document.querySelectorAll("rect.fb").forEach(function (r) {
		var b = r.getBoundingClientRect();
		var top = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
		r.setAttribute("data-seen-fill-" + tag, getComputedStyle(r).fill);
		r.setAttribute("data-seen-top-" + tag, top === r ? "1" : "0");
	});
}
seen("ns");
document.querySelector("input[value=xfer]").click();
seen("xfer");
</script>'
python3 - "$work/page.html" "$work/probe.html" "$probe" <<'PYEOF' || exit 99
import sys
page = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(page.replace("</body>", sys.argv[3] + "\n</body>"))
PYEOF
# No sandbox: CI runs as root, where Chromium's refuses to start; and a
# container's /dev/shm may be too small for it.
render() {
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
		--window-size=1800,4000 --dump-dom "$1" >"$work/dom.html" 2>"$work/berr"
}
if ! render "data:text/html,<p>up</p>" || ! grep -q '<p>up</p>' "$work/dom.html"; then
	echo "SKIP: $browser does not start here: $(tail -1 "$work/berr")"
	exit 77
fi
render "file://$work/probe.html"
if ! grep -q 'data-seen-fill-ns' "$work/dom.html"; then
	echo "FAIL: $browser rendered no probe results"
	tail -5 "$work/berr"
	exit 1
fi

python3 - "$work/dom.html" <<'PYEOF'
import sys
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.boxes, self.lines = [], []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "rect" and a.get("class") == "fb":
            self.boxes.append(a)
        if tag == "g" and a.get("class") == "line":
            self.lines.append(a)

p = P()
p.feed(open(sys.argv[1]).read())
def rgb(s):
    s = s.strip()
    if s.startswith("#"):
        return tuple(int(s[i:i + 2], 16) for i in (1, 3, 5))
    return tuple(int(float(v)) for v in s[s.index("(") + 1:s.index(")")].split(","))
dentry = [b for b in p.boxes if b["data-struct"] == "dentry"]
fields = [{b["data-field"] for b in dentry if b["data-side"] == s} for s in "01"]
assert fields[0] == fields[1] and len(fields[0]) >= 12, "fields: %s" % fields
for f in ("d_lockref", "d_iname", "d_name", "d_seq", "d_hash"):
    assert f in fields[0], "no %s" % f
for m in ("ns", "xfer"):
    for b in p.boxes:
        # What the browser paints is the colour the heat gives, and nothing covers it.
        assert rgb(b["data-seen-fill-" + m]) == rgb(b["data-fill-" + m]), (m, b)
        assert b["data-seen-top-" + m] == "1", "%s is covered" % b["data-field"]
    # Colours ordered by heat: every channel of the ramp falls as heat rises.
    order = sorted(p.boxes, key=lambda b: float(b["data-" + m]))
    seen = [rgb(b["data-seen-fill-" + m]) for b in order]
    for k in range(3):
        ch = [c[k] for c in seen]
        assert ch == sorted(ch, reverse=True), "%s: channel %d not ordered by heat" % (m, k)
    assert seen[-1] != seen[0], "%s: hottest and coolest look alike" % m
def box(side, field, line=None):
    return [b for b in dentry if b["data-side"] == side and b["data-field"] == field and
            (line is None or b["data-line"] == line)]
before_line = box("0", "d_lockref")[0]["data-line"]
after_line = box("1", "d_lockref")[0]["data-line"]
def line_heat(side, line):
    return [float(g["data-ns"]) for g in p.lines if g["data-side"] == side and
            g["data-struct"] == "dentry" and g["data-line"] == line][0]
hot = max(float(g["data-ns"]) for g in p.lines)
assert line_heat("0", before_line) == hot, "d_lockref's line is not the hottest before"
assert line_heat("1", before_line) < 0.01 * hot, "that line is still warm after"
hot_after = max(float(g["data-ns"]) for g in p.lines if g["data-side"] == "1")
assert line_heat("1", after_line) == hot_after > 0.1 * hot, "v6.11's d_lockref line took no heat"
# The name shares it before; after, the name is cool.
iname = [float(b["data-ns"]) for b in box("0", "d_iname", before_line)][0]
assert iname > 0.25 * hot, "d_iname's misses before: %s" % iname
assert float(box("1", "d_iname", before_line)[0]["data-ns"]) < 0.01 * hot, "d_iname warm after"
print("PASS: %d boxes rendered, colours ordered by heat in both metrics; line %s: %.1f ns/op "
      "before, %.1f after (d_lockref's line %s after: %.1f)" %
      (len(p.boxes), before_line, line_heat("0", before_line), line_heat("1", before_line),
       after_line, line_heat("1", after_line)))
PYEOF
