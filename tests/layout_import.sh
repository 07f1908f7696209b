#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# --variant STRUCT=pahole:FILE imports a kernel's layout from pahole's text:
# every member at pahole's offset and size (vfslab's fields through the
# kernel's anonymous unions, the others as opaque members, bit-fields as the
# bytes they take), sizeof the kernel's; a missing or bit-field member
# vfslab needs is an error naming it; the imported layouts run in bench,
# and the imported dentry in the simulator as the preset it equals.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
src=${srcdir:-$(dirname "$0")/..}
host=$src/tests/layout_import.pahole
v58=$src/tests/layout_import_v58.pahole
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
. "$src/tests/report.sh"
. "$src/tests/layout_members.sh"

key() {
	case $1 in
	files_struct) echo files ;;
	*) echo "$1" ;;
	esac
}

# The host kernel's three structs, saved from pahole: offset for offset.
for s in dentry file files_struct; do
	awk -v s="$s" '$0 ~ "^struct " s " {" { p = 1 } p { print } p && /^}/ { exit }' \
		"$host" >"$work/pahole"
	if "$vfslab" layout "$s" --variant "$(key "$s")=pahole:$host" >"$work/out" 2>&1; then
		same_members "$s from pahole's text" "$work/pahole" "$work/out"
	else
		bad "$s: import failed: $(cat "$work/out")"
	fi
done

# An older struct file: fields where the v5.8 preset has them, the rest
# opaque under the kernel's names, two bit-fields as one 4-byte unit.
"$vfslab" layout file --variant "file=pahole:$v58" >"$work/v58" 2>&1 || bad "v5.8 import failed"
"$vfslab" layout file --variant file=v5.8 >"$work/preset" 2>&1
awk '/\/\* *[0-9]+ +[0-9]+ \*\// && !/__pad|^\t[^\t]*char / { sub(/.*\/\* */, ""); print }' \
	"$work/preset" >"$work/a"
awk '/\/\* *[0-9]+ +[0-9]+ \*\// && !/^\tchar / { sub(/.*\/\* */, ""); print }' \
	"$work/v58" >"$work/b"
if cmp -s "$work/a" "$work/b"; then
	ok "v5.8 from pahole: every field where the v5.8 preset puts it"
else
	bad "v5.8 from pahole differs from the preset: $(diff "$work/a" "$work/b")"
fi
for m in "f_ra[32]             /*   152    32" "f_tfile_llink[16]    /*   224    16" \
	"f_ver_lo[4]          /*   184     4" "size: 256, cachelines: 4"; do
	if grep -qF -- "$m" "$work/v58"; then
		ok "v5.8 from pahole: $m"
	else
		bad "v5.8 from pahole: no '$m' in: $(cat "$work/v58")"
	fi
done

# refused WHAT TEXT FILE: importing FILE fails, naming TEXT.
refused() {
	if "$vfslab" layout dentry --variant "dentry=pahole:$3" >"$work/out" 2>&1; then
		bad "$1: accepted"
	elif grep -qF -- "$2" "$work/out"; then
		ok "$1: refused ($(cat "$work/out"))"
	else
		bad "$1: no '$2' in: $(cat "$work/out")"
	fi
}
sed 's/d_lockref;/d_lockref_x;/' "$host" >"$work/nolock"
refused "a missing field" "has no member 'd_lockref': vfslab needs it" "$work/nolock"
sed 's|d_flags; *\(/\* *0\) *\(4 \*/\)|d_flags:8;  \1: 0 \2|' "$host" >"$work/bits"
refused "a bit-field vfslab stores whole" "'d_flags' is a 8-bit bit-field" "$work/bits"
refused "no such struct" "no struct dentry in it" "$v58"
refused "no such file" "No such file or directory" "$work/none"

# And natively: bench runs the imported layouts.
if "$vfslab" bench stat2 --tasks 1 --variant "dentry=pahole:$host,file=pahole:$host" \
	--peer none --interval 0.05 --rounds 1 >"$work/bench" 2>&1 &&
	grep -q '^vfslab dentry=pahole:' "$work/bench"; then
	ok "bench stat2 runs the imported dentry and file"
else
	bad "bench with the imported layouts: $(cat "$work/bench")"
fi

# The imported dentry in the simulator: the same machine as v6.11's offsets.
if [ ! -x "${top_builddir:-.}/tools/vfslab-sim" ]; then
	echo "SKIP (part): no vfslab-sim in this build (a sanitizer build)"
elif "$vfslab" sim stat2 --variant "dentry=pahole:$host" --variant dentry=v6.11 --cpus 2 \
	--ops 100 --format tsv >"$work/sim" 2>&1; then
	r=$(awk -F '\t' '$1 == 2 && $2 ~ /v6.11/ { printf "%.3f", $4 }' "$work/sim")
	if [ "$r" = 1.000 ]; then
		ok "sim stat2 runs the imported dentry (v6.11's offsets: ratio $r)"
	else
		bad "sim stat2: imported vs v6.11 ratio '$r': $(cat "$work/sim")"
	fi
else
	bad "sim stat2 with the imported dentry failed: $(cat "$work/sim")"
fi
summary
