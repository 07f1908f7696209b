#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Includes follow the layers (DESIGN.md): lib/ includes only lib/, vfs/
# includes only lib/ and vfs/, and nothing below tools/ reaches into
# tools/. Checked in two places:
#  - the sources: every quoted #include in lib/ must name lib/..., in vfs/
#    lib/... or vfs/...; no angle #include there may name vfs/ (from lib/)
#    or tools/;
#  - the build: no compile of lib/ or vfs/ sources (a target whose
#    _SOURCES name them, or AM_CPPFLAGS/AM_CFLAGS, which every compile
#    gets) may force-include (-include, -imacros) or search (-I, -iquote,
#    -isystem, -idirafter) anything under tools/. Makefile.am and the
#    fragments it includes are read the way Automake reads them.
#
# usage: tests/layering.sh [TOP]   (default: $srcdir, else .)
# Prints each violation as FILE:LINE: what; exits 1 if there is any.

top=${1:-${srcdir:-.}}
if [ ! -f "$top/Makefile.am" ] || [ ! -d "$top/lib" ] || [ ! -d "$top/vfs" ]; then
	echo "layering: $top is not a vfslab source tree" >&2
	exit 99
fi
cd "$top" || exit 99

# Sources: FILE:LINE:#include ... for every include in lib/ and vfs/.
src=$(find lib vfs -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' \) | sort |
	xargs grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' |
	awk '{
		where = $0
		sub(/:[[:space:]]*#.*/, "", where)
		what = $0
		sub(/^[^#]*#[[:space:]]*include[[:space:]]*/, "", what)
		quoted = substr(what, 1, 1) == "\""
		path = substr(what, 2)
		sub(/[">].*/, "", path)
		layer = substr(where, 1, index(where, "/") - 1)
		bad = ""
		if (path ~ /(^|\/)\.\.(\/|$)/)
			bad = "climbs out with .."
		else if (quoted && layer == "lib" && path !~ /^lib\//)
			bad = "lib/ includes only lib/"
		else if (quoted && layer == "vfs" && path !~ /^(lib|vfs)\//)
			bad = "vfs/ includes only lib/ and vfs/"
		else if (!quoted && path ~ /^tools\//)
			bad = "nothing below tools/ includes tools/"
		else if (!quoted && layer == "lib" && path ~ /^vfs\//)
			bad = "lib/ includes only lib/"
		if (bad != "")
			printf "%s: #include %s: %s\n", where, what, bad
	}')

# The build: Makefile.am and its fragments, as variable assignments with
# %D% and %C% expanded, then every compile's flags against its sources.
mk=$(awk '
	function canon(d) { gsub(/[^A-Za-z0-9_]/, "_", d); return d }
	function readmk(file, dir,    line, full, name, op, val, inc, at, n) {
		at = 0
		full = ""
		while ((getline line < file) > 0) {
			at++
			if (full == "")
				n = at
			if (line ~ /\\$/) {
				full = full substr(line, 1, length(line) - 1) " "
				continue
			}
			full = full line
			line = full
			full = ""
			gsub(/%D%|%reldir%/, dir, line)
			gsub(/%C%|%canon_reldir%/, canon(dir), line)
			sub(/[[:space:]]*#.*/, "", line)
			if (line ~ /^include[[:space:]]/) {
				inc = line
				sub(/^include[[:space:]]+/, "", inc)
				sub(/[[:space:]]+$/, "", inc)
				sub(/^\$\(srcdir\)\/|^\$\(top_srcdir\)\//, "", inc)
				sub(/^\.\//, "", inc)
				d = inc
				if (!sub(/\/[^\/]*$/, "", d))
					d = "."
				readmk(inc, d)
				continue
			}
			if (match(line, /^[A-Za-z0-9_]+[[:space:]]*\+?=/)) {
				name = line
				sub(/[[:space:]]*\+?=.*/, "", name)
				op = line
				sub(/^[A-Za-z0-9_]+[[:space:]]*/, "", op)
				val = op
				sub(/^\+?=[[:space:]]*/, "", val)
				vars[name] = (substr(op, 1, 1) == "+" ? vars[name] " " : "") val
				nasg++
				asg_name[nasg] = name
				asg_val[nasg] = val
				asg_at[nasg] = file ":" n
			}
		}
		close(file)
	}
	# RSTART and RLENGTH are globals: keep them before recursing.
	function expand(s, depth,    out, ref, at, len) {
		if (depth > 20)
			return s
		out = ""
		while (match(s, /\$\([A-Za-z0-9_]+\)/)) {
			at = RSTART
			len = RLENGTH
			ref = substr(s, at + 2, len - 3)
			out = out substr(s, 1, at - 1)
			out = out ((ref in vars) ? expand(vars[ref], depth + 1) : substr(s, at, len))
			s = substr(s, at + len)
		}
		return out s
	}
	# The flags in s that send the preprocessor into tools/.
	function into_tools(s,    out, w, n, i, flag, arg) {
		out = ""
		n = split(s, w, /[[:space:]]+/)
		for (i = 1; i <= n; i++) {
			flag = ""
			if (w[i] ~ /^-(include|imacros|iquote|isystem|idirafter)$/) {
				flag = w[i]
				arg = w[++i]
			} else if (w[i] ~ /^-I/) {
				flag = "-I"
				arg = substr(w[i], 3)
				if (arg == "")
					arg = w[++i]
			}
			if (flag == "")
				continue
			sub(/^\$\((abs_)?top_(src|build)dir\)\/?|^\$\((abs_)?(src|build)dir\)\/?|^\.\//, "", arg)
			if (arg ~ /^tools(\/|$)/)
				out = out " " flag " " arg
		}
		return out
	}
	# Where name is set to something reaching into tools/ (its first
	# assignment if that comes through another variable).
	function where(name,    k, at) {
		at = ""
		for (k = 1; k <= nasg; k++)
			if (asg_name[k] == name && into_tools(expand(asg_val[k], 0)) != "")
				at = at (at == "" ? "" : ",") asg_at[k]
		for (k = 1; at == "" && k <= nasg; k++)
			if (asg_name[k] == name)
				at = asg_at[k]
		return at
	}
	BEGIN {
		readmk("Makefile.am", ".")
		for (name in vars) {
			if (name !~ /_(CPPFLAGS|CFLAGS)$/)
				continue
			bad = into_tools(expand(vars[name], 0))
			if (bad == "")
				continue
			if (name ~ /^AM_/) {
				printf "%s: %s has%s: every compile, lib/ and vfs/ too, would reach into tools/\n", where(name), name, bad
				continue
			}
			target = name
			sub(/_(CPPFLAGS|CFLAGS)$/, "", target)
			srcs = " " expand(vars[target "_SOURCES"], 0) " "
			if (srcs ~ /[[:space:]](\$\(top_srcdir\)\/|\.\/)?(lib|vfs)\//)
				printf "%s: %s has%s: a build of lib/ or vfs/ sources must not reach into tools/\n", where(name), name, bad
		}
	}' </dev/null)

if [ -z "$src$mk" ]; then
	echo "PASS: lib/ includes only lib/, vfs/ only lib/ and vfs/; no lib/ or vfs/ build reaches into tools/"
	exit 0
fi
[ -n "$src" ] && echo "$src"
[ -n "$mk" ] && echo "$mk"
echo "FAIL: the includes above go against the layers (lib <- vfs <- tools; see DESIGN.md)"
exit 1
