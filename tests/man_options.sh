#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# doc/vfslab.1 and the program cannot drift: for every command `vfslab
# help` lists, the long options its --help mentions and the long options
# its entry in the man page's COMMANDS section mentions must be the same
# set, and so must its short options (-e, -v); the values its --help
# names for an option (--format table|csv|json, --report c2c) and the
# entries of its --help's tables that are not options (the shell's
# commands, difftest's --avoid names) must be in the entry too.
# (`help` has no --help of its own: its help is `vfslab help`.) Then the
# --variant keys of `vfslab help variants` and the VARIANTS section must
# be the same set, with every value help names; and every long option any
# parser in tools/ accepts must be in the man page, so that none hides
# from both. Prints each difference.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
man=${srcdir:-.}/doc/vfslab.1
work=$(mktemp -d "${TMPDIR:-/tmp}/man.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
. "${srcdir:-.}/tests/report.sh"

cmds=$("$vfslab" help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
if [ -z "$cmds" ] || [ ! -f "$man" ]; then
	echo "man_options: no commands from '$vfslab help', or no $man" >&2
	exit 99
fi

# Long options in text on stdin, one per line, sorted; roff escapes and
# font changes dropped first.
longopts() {
	sed -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\-/-/g' |
		grep -o -- '--[a-z0-9][a-z0-9-]*' | sort -u
}

# Short options: "[-e ...]" or "-v, --verbose".
shortopts() {
	sed -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\-/-/g' |
		grep -oE -- '\[-[a-zA-Z][] ]|(^|[ [(])-[a-zA-Z], --' | grep -oE -- '-[a-zA-Z]' | sort -u
}

# "--opt=value" for each lowercase value an option is given: "--opt a|B|c",
# "[--opt value]", or a table line "  --opt value   what it does".
optvalues() {
	sed -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\-/-/g' |
		grep -oE -- '--[a-z0-9-]+ [A-Za-z0-9.:_-]*(\|[A-Za-z0-9.:_-]+)+|\[--[a-z0-9-]+ [a-z][a-z0-9-]*\]|^ +--[a-z0-9-]+ [a-z][a-z0-9-]*( {2,}|$)' |
		tr -d '[]' |
		awk '{ n = split($2, v, "|"); for (i = 1; i <= n; i++) if (v[i] ~ /^[a-z]/) print $1 "=" v[i] }' |
		sort -u
}

# Entries of a --help's tables that are not options ("  fdtable   the fd
# table", "      o-direct   O_DIRECT in open", "  help, quit").
items() {
	grep -E '^ {2,6}[a-z][a-z0-9-]*((,? [a-z][a-z0-9-]*)*$|( [A-Z[][^ ]*)? {2,})' |
		sed -E 's/^ +//; s/ {2,}.*//; s/ [A-Z[].*//' | tr ',' '\n' | tr -d ' ' | sort -u
}

# same WHAT HELP MAN: command $c's two sorted lists of WHAT agree; each
# difference is named.
same() {
	only_help=$(comm -23 "$2" "$3" | tr '\n' ' ')
	only_man=$(comm -13 "$2" "$3" | tr '\n' ' ')
	[ -n "$only_help" ] && bad "$c: $1 in --help, not in vfslab.1: $only_help"
	[ -n "$only_man" ] && bad "$c: $1 in vfslab.1, not in --help: $only_man"
	[ -z "$only_help$only_man" ] && ok "$c: $(wc -l <"$2" | tr -d ' ') $1, the same in both"
}

# Subcommands with entries of their own (".B sim calibrate").
subs="sim:calibrate sim:validate"

for c in $cmds $subs; do
	case $c in
	*:*) set -- "${c%%:*}" "${c#*:}" ;;
	*) set -- "$c" ;;
	esac
	if { [ "$c" = sim ] || [ "$c" = advise ]; } && [ ! -x "${top_builddir:-.}/tools/vfslab-sim" ]; then
		# A sanitizer build has no simulator for `sim --help` (or advise's) to reach.
		ok "$c: no simulator in this build; its options are checked in the others"
		continue
	fi
	if [ $# -eq 2 ]; then
		"$vfslab" "$1" "$2" --help >"$work/help"
		st=$?
		if [ $st -ne 0 ]; then
			bad "vfslab $1 $2 --help exited $st"
			continue
		fi
	elif [ "$c" = help ]; then
		# Without the command summaries: each is its command's to check.
		"$vfslab" help >"$work/all" || exit 99
		grep -v '^  [a-z]* ' "$work/all" >"$work/help"
	else
		"$vfslab" "$c" --help >"$work/help"
		st=$?
		if [ $st -ne 0 ]; then
			bad "vfslab $c --help exited $st"
			continue
		fi
	fi
	longopts <"$work/help" >"$work/from-help"
	# The command's entry: from ".B CMD" after a .TP to the next command's
	# entry or the next section.
	awk -v cmd="$c" -v all=" $(echo "$cmds" | tr '\n' ' ') " '
		/^\.SH/ { on = 0; commands = ($0 ~ /^\.SH COMMANDS/) }
		commands && prev == ".TP" && /^\.B [a-z]/ {
			name = $2
			if ($3 ~ /^[a-z]+$/)
				name = name ":" $3
			if (index(all, " " $2 " "))
				on = (name == cmd)
		}
		on { print }
		{ prev = $0 }' "$man" >"$work/entry"
	if [ ! -s "$work/entry" ]; then
		bad "$c: no entry in $man's COMMANDS"
		continue
	fi
	longopts <"$work/entry" >"$work/from-man"
	same "long options" "$work/from-help" "$work/from-man"
	shortopts <"$work/help" >"$work/short-help"
	shortopts <"$work/entry" >"$work/short-man"
	same "short options" "$work/short-help" "$work/short-man"

	optvalues <"$work/help" >"$work/values-help"
	optvalues <"$work/entry" >"$work/values-man"
	missing=$(comm -23 "$work/values-help" "$work/values-man" | tr '\n' ' ')
	if [ -n "$missing" ]; then
		bad "$c: option values in --help, not in vfslab.1: $missing"
	else
		ok "$c: $(wc -l <"$work/values-help" | tr -d ' ') option values, all in vfslab.1"
	fi

	# The help command's table is the commands, each with its own entry.
	if [ "$c" != help ]; then
		items <"$work/help" >"$work/items"
		missing=""
		sed -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\-/-/g' "$work/entry" >"$work/entry-text"
		while read -r item; do
			grep -qw -- "$item" "$work/entry-text" || missing="$missing $item"
		done <"$work/items"
		if [ -n "$missing" ]; then
			bad "$c: in --help's tables, not in vfslab.1:$missing"
		else
			ok "$c: $(wc -l <"$work/items" | tr -d ' ') table entries that are not options, all in vfslab.1"
		fi
	fi
done

# The --variant keys, each with the lowercase values `help variants` names
# ("dcount=atomic"; placeholders such as FILE and N are not values), and
# the keys alone ("dcount=").
variants() {
	awk -F= '{ print $1 "="; n = split($2, v, "|")
		for (i = 1; i <= n; i++) { sub(/\[.*/, "", v[i]); if (v[i] ~ /^[a-z]/) print $1 "=" v[i] } }' |
		sort -u
}
"$vfslab" help variants | grep -oE '^[a-z][a-z0-9-]*=[^ ]*' | variants >"$work/variants-help"
awk '/^\.SH/ { on = ($0 ~ /^\.SH VARIANTS/) } on && /^\.BR /' "$man" |
	sed -e 's/\\-/-/g' -e 's/^\.BR //' -e 's/" *, *"/ /g' -e 's/ =/=/g' | tr ' ' '\n' |
	grep -E '^[a-z][a-z0-9-]*=' | variants >"$work/variants-man"
only_help=$(comm -23 "$work/variants-help" "$work/variants-man" | tr '\n' ' ')
only_man=$(comm -13 "$work/variants-help" "$work/variants-man" | grep '=$' | tr '\n' ' ')
[ -n "$only_help" ] && bad "variants: in help variants, not in vfslab.1: $only_help"
[ -n "$only_man" ] && bad "variants: keys in vfslab.1, not in help variants: $only_man"
[ -z "$only_help$only_man" ] &&
	ok "variants: $(grep -c '=$' "$work/variants-help") keys and their values, the same in both"

# Every long option a parser accepts ({ "name", required_argument, ... }
# in tools/), documented or not in its --help, is in the man page.
src=${srcdir:-.}/tools
if [ -d "$src" ]; then
	grep -rhoE '\{ *"[a-z0-9-]+", *(no|required|optional)_argument' "$src" |
		grep -oE '"[a-z0-9-]+"' | tr -d '"' | sed 's/^/--/' | sort -u >"$work/parsed"
	longopts <"$man" >"$work/in-man"
	missing=$(comm -23 "$work/parsed" "$work/in-man" | tr '\n' ' ')
	if [ -n "$missing" ]; then
		bad "options the parsers accept, not in vfslab.1: $missing"
	else
		ok "$(wc -l <"$work/parsed" | tr -d ' ') options the parsers accept, all in vfslab.1"
	fi
else
	bad "no $src to read the option tables from"
fi
summary
