#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# pjdfstest's own scripts, replayed through vfslab fstest, against Linux:
# every invocation a script makes is compared, and the run fails when
# fewer than PJDFSTEST_MIN percent agree (`make check-long`).
#
# Each script runs with sh on a fresh tmpfs directory, as prove would run
# it, with a stand-in for pjdfstest's binary. The stand-in makes the
# invocation on the host (`vfslab fstest --host --`), so the script sees
# Linux's answers, and hands the same words (and its working directory,
# as a `cd` line) to a `vfslab fstest` that runs beside the script for the
# whole of it, on a fresh VFS, through a fifo; after each line, `fdnum
# =M` prints a marker M = 2000000000 + N for the Nth invocation, which
# splits vfslab's output (fdnum is in every vfslab fstest, so an older
# build can be measured as well). Both sides run the invocation within
# milliseconds, so the times a script compares agree as well. Shell
# commands a script runs itself (dd, rm) act on the host only: where one
# changes what later calls see, those invocations differ, and count
# against vfslab like any other.
#
# usage: PJDFSTEST_DIR=.../pjdfstest/tests tests/pjdfstest_compare.sh
#
# Environment:
#   PJDFSTEST_DIR   pjdfstest's tests/ directory (misc.sh, conf and one
#                   directory per syscall); without it the test skips (77)
#   PJDFSTEST_DIRS  the directories to run (default: every one Linux has
#                   the calls for, 13 of them)
#   PJDFSTEST_MIN   the agreement required, in percent (default 99.5)
#   PJDFSTEST_DIFF  write every differing invocation to this file
#   PJDFSTEST_TMPDIR  where the scratch directories go (default /dev/shm)

dirs=${PJDFSTEST_DIRS:-"chmod chown ftruncate link mkdir mkfifo mknod open rename rmdir symlink truncate unlink"}
min=${PJDFSTEST_MIN:-99.5}

if [ -z "${PJDFSTEST_DIR:-}" ] || [ ! -f "$PJDFSTEST_DIR/misc.sh" ]; then
	echo "SKIP: set PJDFSTEST_DIR to pjdfstest's tests directory (with misc.sh)"
	exit 77
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: pjdfstest's scripts switch users: they need root"
	exit 77
fi
for tool in openssl dd awk; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: pjdfstest's scripts need $tool"
		exit 77
	fi
done

vfslab=${top_builddir:-.}/tools/vfslab
case $vfslab in
/*) ;;
*) vfslab=$(pwd)/$vfslab ;;
esac
if [ ! -x "$vfslab" ]; then
	echo "pjdfstest_compare: no $vfslab" >&2
	exit 99
fi

base=${PJDFSTEST_TMPDIR:-/dev/shm}
[ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
work=$(mktemp -d "$base/pjdfstest.XXXXXX") && chmod 0755 "$work" || exit 99
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

# misc.sh looks for an executable named pjdfstest above the script.
mkdir "$work/suite" && cp -R "$PJDFSTEST_DIR" "$work/suite/tests" || exit 99
cat >"$work/suite/pjdfstest" <<'EOF'
#!/bin/sh
# One invocation: on the host, and the same words to vfslab's fstest.
rel=$(pwd)
rel=${rel#"$PJD_ROOT"}
cd_line="cd /${rel#/}"
if [ "$cd_line" != "$(cat "$PJD_LOG.cwd")" ]; then
	echo "$cd_line" >"$PJD_LOG.cwd"
else
	cd_line=
fi
words=
for a in "$@"; do
	case $a in
	'' | *[!A-Za-z0-9_./,:\|+=-]*)
		a="'$(printf '%s' "$a" | sed "s/'/'\"'\"'/g")'"
		;;
	esac
	words="$words $a"
done
n=$(($(cat "$PJD_LOG.n") + 1))
echo "$n" >"$PJD_LOG.n"
printf '%s\t%s\n' "$n" "${words# }" >>"$PJD_LOG.calls"
"$PJD_VFSLAB" fstest --host -- "$@" >"$PJD_LOG.one" 2>/dev/null
rc=$?
{
	[ -z "$cd_line" ] || echo "$cd_line"
	printf '%s\nfdnum =%s\n' "${words# }" $((2000000000 + n))
} >"$PJD_IN"
while IFS= read -r l; do
	printf '%s\n' "$l" >>"$PJD_LOG.vfslab"
	[ "$l" = $((2000000000 + n)) ] && break
done <"$PJD_OUT"
cat "$PJD_LOG.one"
{
	cat "$PJD_LOG.one"
	echo $((2000000000 + n))
} >>"$PJD_LOG.host"
exit $rc
EOF
chmod 0755 "$work/suite/pjdfstest" || exit 99

# Split an output at its markers: "N<TAB>line|line|..." per invocation.
split_out() {
	awk '$0 == 2000000000 + n + 1 { n++; print n "\t" acc; acc = ""; next }
	     { acc = acc (acc == "" ? "" : "|") $0 }' "$1"
}

total=0
same=0
: >"$work/diffs"
for d in $dirs; do
	[ -d "$work/suite/tests/$d" ] || {
		echo "pjdfstest_compare: no directory $d in $PJDFSTEST_DIR" >&2
		exit 99
	}
	for t in "$work/suite/tests/$d"/*.t; do
		[ -e "$t" ] || continue
		name=$d/$(basename "$t")
		log=$work/log
		root=$work/root
		rm -rf "$root" "$log".*
		mkdir "$root" && chmod 0755 "$root" || exit 99
		echo 0 >"$log.n"
		echo "cd /" >"$log.cwd"
		: >"$log.calls"
		: >"$log.host"
		: >"$log.vfslab"
		mkfifo "$log.in" "$log.out" || exit 99
		# vfslab's fstest runs beside the whole script; the fds held here
		# keep both fifos open between invocations.
		mkdir "$work/vroot" || exit 99
		(cd "$work/vroot" && exec "$vfslab" fstest <"$log.in" >"$log.out" 2>"$log.err") &
		vpid=$!
		exec 3>"$log.in" 4<"$log.out"
		(cd "$root" && PJD_ROOT=$root PJD_LOG=$log PJD_VFSLAB=$vfslab \
			PJD_IN=$log.in PJD_OUT=$log.out sh "$t" >"$log.tap" 2>&1)
		exec 3>&- 4<&-
		wait "$vpid"
		rm -rf "$root" "$work/vroot"
		split_out "$log.host" >"$log.h"
		split_out "$log.vfslab" >"$log.v"
		n=$(wc -l <"$log.h")
		ok=$(awk -F '\t' 'NR == FNR { v[$1] = $2; next } ($1 in v) && v[$1] == $2' \
			"$log.v" "$log.h" | wc -l)
		total=$((total + n))
		same=$((same + ok))
		if [ "$ok" -ne "$n" ]; then
			echo "$name: $((n - ok)) of $n differ"
			awk -F '\t' -v name="$name" '
				FILENAME == ARGV[1] { v[$1] = $2; next }
				FILENAME == ARGV[2] { line[$1] = $2; next }
				!($1 in v) || v[$1] != $2 {
					print name ": " line[$1] "\n  linux:  " $2 "\n  vfslab: " v[$1]
				}' "$log.v" "$log.calls" "$log.h" >>"$work/diffs"
		fi
	done
done

if [ -n "${PJDFSTEST_DIFF:-}" ]; then
	cp "$work/diffs" "$PJDFSTEST_DIFF"
fi
if [ "$total" -eq 0 ]; then
	echo "pjdfstest_compare: no invocation ran" >&2
	exit 99
fi
pct=$(awk -v s="$same" -v t="$total" 'BEGIN { printf "%.2f", 100 * s / t }')
echo "pjdfstest: $same of $total invocations agree with Linux ($pct%; at least $min% needed)"
awk -v p="$pct" -v m="$min" 'BEGIN { exit !(p + 0 >= m + 0) }'
