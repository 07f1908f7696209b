# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by the layout import tests: same_members WHAT PAHOLE VFSLAB
# checks that vfslab's print of a struct has every top-level member of
# pahole's (a union as one) at the same offset and size, and the same
# sizeof: the lines and holes are then the kernel's.
top_members() {
	awk '/^\t[^\t].*\/\* *[0-9]+:? +[0-9]+ +[0-9]+ \*\/|^\t[^\t].*\/\* *[0-9]+ +[0-9]+ \*\// {
		c = $0
		sub(/ *\*\/[^*]*$/, "", c)
		sub(/.*\/\* */, "", c)
		sub(/:/, "", c)
		n = split(c, v, /[ \t]+/)
		print v[1], v[n]
	}
	/size: [0-9]+,/ { c = $0; sub(/.*size: /, "", c); sub(/,.*/, "", c); print "sizeof", c }' "$1" |
		sort -u
}

same_members() {
	top_members "$2" >"$2.top"
	top_members "$3" >"$3.top"
	if [ "$(wc -l <"$2.top")" -lt 8 ]; then
		bad "$1: only $(wc -l <"$2.top") members read from pahole's: $(cat "$2")"
	elif cmp -s "$2.top" "$3.top"; then
		ok "$1: $(wc -l <"$2.top") members and sizeof at pahole's offsets"
	else
		bad "$1: offset size (pahole <, vfslab >): $(diff "$2.top" "$3.top" | grep '^[<>]')"
	fi
}
