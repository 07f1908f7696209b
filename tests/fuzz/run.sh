#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# libFuzzer over vfslab: builds the harnesses with clang
# (-fsanitize=fuzzer,address,undefined) straight from the sources, seeds
# their corpora, and runs each one for SECONDS.
#
#	tests/fuzz/run.sh SECONDS [HARNESS...]	build, then fuzz (default: all)
#	tests/fuzz/run.sh build			build only
#
# Harnesses: fstest (tests/fuzz/fuzz_fstest.c, fstest scripts through the
# vfslab backend), layout (tests/fuzz/fuzz_layout.c, the layout-file
# parser and VFSes built from what it accepts) and cli (tests/fuzz/fuzz_cli.c,
# every command's argument parsing). An hour on each:
#
#	tests/fuzz/run.sh 3600
#
# Environment:
#   CC          the compiler (default clang; exits 77 if there is none)
#   FUZZ_OUT    build and corpus directory (default: build/fuzz at the top)
#   FUZZ_JOBS   parallel fuzzing processes per harness (default 1)
#   FUZZ_FLAGS  more libFuzzer flags (e.g. -only_ascii=1)
#   VFSLAB      a built vfslab, whose --help seeds the cli harness
#               (default: build/tools/vfslab at the top)
#
# The corpora grow in $FUZZ_OUT/corpus-NAME and are reused by later runs;
# crashes, leaks, timeouts and OOMs land in $FUZZ_OUT/artifacts/ (rerun
# one with $FUZZ_OUT/fuzz_NAME FILE). Exit status 1 if any harness found
# something. This is not part of `make check`: it needs clang.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${FUZZ_OUT:-$top/build/fuzz}
cc=${CC:-clang}
jobs=${FUZZ_JOBS:-1}
vfslab=${VFSLAB:-$top/build/tools/vfslab}

if ! command -v "$cc" >/dev/null 2>&1; then
	echo "fuzz: $cc not found (apt-get install clang)" >&2
	exit 77
fi
if ! pkg-config --exists liburcu-memb libedit jansson; then
	echo "fuzz: liburcu-memb, libedit or jansson not found" \
		"(apt-get install liburcu-dev libedit-dev libjansson-dev)" >&2
	exit 1
fi

case ${1:-} in
build) secs= ;;
'' | *[!0-9]*)
	echo "usage: tests/fuzz/run.sh SECONDS [fstest] [layout] [cli] | build" >&2
	exit 2
	;;
*) secs=$1 ;;
esac
[ $# -gt 0 ] && shift
harnesses=${*:-fstest layout cli}

mkdir -p "$out/obj" "$out/artifacts" || exit 1

# What configure would write for a libc-malloc build.
cat >"$out/config.h.new" <<'EOF'
#define _GNU_SOURCE 1
#define PACKAGE_VERSION "fuzz"
#define HAVE_PTHREAD 1
#define GNUPLOT_PATH "/usr/bin/gnuplot"
EOF
cmp -s "$out/config.h.new" "$out/config.h" 2>/dev/null || mv "$out/config.h.new" "$out/config.h"
rm -f "$out/config.h.new"

san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
cflags="-g -O1 -fno-omit-frame-pointer $san -pthread -I$top -I$out -include config.h
	$(pkg-config --cflags liburcu-memb) -Wall -Wno-unused-command-line-argument"
libs="$(pkg-config --libs liburcu-memb) -pthread"
# tools/ as tools/local.mk builds it, for the cli harness.
toolflags="$(pkg-config --cflags libedit jansson) -DVFSLAB_BINDIR=\"/nonexistent\"
	-DVFSLAB_PKGLIBEXECDIR=\"/nonexistent\""
toollibs="$(pkg-config --libs libedit jansson) -lm"

# Sources of lib/ and vfs/ as their local.mk lists them, and fstest's.
srcs() {
	for d in lib vfs; do
		sed -n 's|.*%D%/\([A-Za-z0-9_]*\.c\).*|'"$d"'/\1|p' "$top/$d/local.mk"
	done
	echo tools/fstest/extensions.c tools/fstest/jobs.c tools/fstest/output.c tools/fstest/parse.c tools/fstest/pjdfstest.c tools/fstest/run.c tools/fstest/tokenize.c tools/fstest/vfs.c tools/sys/names.c tools/sys/sys.c tools/sys/vfslab.c tools/interrupt.c
}

# All of libtools.a (tools/local.mk, tools/simrun/local.mk), vfslab's sim
# command and the machine profiles it reads (tools/sim/profile.c).
toolsrcs() {
	sed -n '/libtools_a_SOURCES = /,/^$/p' "$top/tools/local.mk" |
		grep -o '%D%/[A-Za-z0-9_/]*\.c' | sed 's|%D%|tools|'
	sed -n '/libtools_a_SOURCES += /,/^$/p' "$top/tools/simrun/local.mk" |
		grep -o '%D%/[A-Za-z0-9_/]*\.c' | sed 's|%D%|tools/simrun|'
	echo tools/cmd_sim.c
}

# Compile one source into $out/obj unless its object is newer than it and
# every header; prints the object's path. (-nt: dash, bash and busybox have it.)
# shellcheck disable=SC3013
compile() {
	o=$out/obj/$(echo "$1" | tr / _ | sed 's/\.c$/.o/')
	stale=0
	if [ ! -f "$o" ] || [ "$top/$1" -nt "$o" ] || [ "$out/config.h" -nt "$o" ]; then
		stale=1
	else
		for h in "$top"/lib/*.h "$top"/vfs/*.h "$top"/vfs/*.def "$top"/tools/*.h "$top"/tools/*/*.h \
			"$top"/tools/sys/*.def; do
			[ "$h" -nt "$o" ] && stale=1 && break
		done
	fi
	if [ $stale = 1 ]; then
		# shellcheck disable=SC2086
		$cc $cflags $2 -c "$top/$1" -o "$o" || return 1
	fi
	echo "$o"
}

build() {
	objs='' core=''
	for s in $(srcs); do
		o=$(compile "$s" -fsanitize=fuzzer-no-link) || return 1
		objs="$objs $o"
		case $s in lib/* | vfs/*) core="$core $o" ;; esac
	done
	for h in fstest layout; do
		# shellcheck disable=SC2086
		$cc $cflags -fsanitize=fuzzer "$top/tests/fuzz/fuzz_$h.c" "$top/tests/fuzz/no_nap.c" \
			$objs $libs \
			-o "$out/fuzz_$h" || return 1
	done
	tobjs=
	for s in $(toolsrcs); do
		o=$(compile "$s" "-fsanitize=fuzzer-no-link $toolflags") || return 1
		tobjs="$tobjs $o"
	done
	o=$(compile tools/sim/profile.c "-fsanitize=fuzzer-no-link -DVFSLAB_SIM") || return 1
	# The lib/ and vfs/ objects last: tools/ needs them, not they tools/.
	# shellcheck disable=SC2086
	$cc $cflags -fsanitize=fuzzer "$top/tests/fuzz/fuzz_cli.c" $tobjs "$o" $core \
		$libs $toollibs -o "$out/fuzz_cli" || return 1
	# shellcheck disable=SC2086
	$cc $cflags "$top/tests/fuzz/dump_presets.c" "$out/obj/vfs_layout.o" "$out/obj/lib_kstrtox.o" \
		-fsanitize=fuzzer-no-link \
		-o "$out/dump_presets" || return 1
}

# Seeds: the fstest scripts in pieces of 40 lines, each piece with its
# script's first lines (they make and enter the test's directory); the
# layout presets and specs. Dictionaries: the scripts' words, the fields.
seed() {
	s=$out/seeds-fstest
	rm -rf "$s" "$out/seeds-layout"
	mkdir -p "$s" "$out/seeds-layout"
	for t in "$top"/tests/fstest/*.t; do
		name=$(basename "$t" .t)
		head=$(grep -v '^#' "$t" | grep -v '^$' | head -2)
		grep -v '^#' "$t" | grep -v '^$' | split -l 40 - "$s/$name."
		for p in "$s/$name".*; do
			{ echo "$head"; cat "$p"; } >"$p.t" && rm -f "$p"
		done
	done
	# The same first pieces in the shell mode and under the oldest variants.
	for p in "$s"/*.aa.t; do
		{ echo '#! shell'; cat "$p"; } >"${p%.t}.shell.t"
		{
			echo '#! variant=dcount=dlock,fref=inc-not-zero,alloc-fd=v6.10,dentry=v6.7'
			cat "$p"
		} >"${p%.t}.old.t"
	done
	grep -hv '^#' "$top"/tests/fstest/*.t | tr -s ' \t,|' '\n' | grep -v '^$' |
		grep -v '^[0-9]*$' | grep -v '["\\]' | sort -u | head -2000 |
		sed 's/.*/"&"/' >"$out/fstest.dict"
	"$out/dump_presets" "$out/seeds-layout" || return 1
	# The cli seeds come from a built vfslab's --help; the dictionary, their words.
	rm -rf "$out/seeds-cli"
	if [ -x "$vfslab" ]; then
		sh "$top/tests/fuzz/cli_seeds.sh" "$vfslab" "$out/seeds-cli" >/dev/null || return 1
	else
		echo "fuzz: no $vfslab (set VFSLAB): the cli harness starts with no seeds" >&2
		mkdir -p "$out/seeds-cli"
	fi
	for f in "$out"/seeds-cli/*; do
		[ -f "$f" ] && tr '\0' '\n' <"$f"
	done | grep -v '["\\]' | grep -v -- '^--.*=' | grep . | sort -u | sed 's/.*/"&"/' >"$out/cli.dict"
	{
		for w in struct hwcache pad align as dentry file files_struct randomize: @ +; do
			echo "\"$w\""
		done
		sed -n 's/^FIELD_[a-z_]*(\([a-z_0-9]*\),.*/"\1"/p' "$top/vfs/layout_fields.def"
	} | sort -u >"$out/layout.dict"
}

echo "fuzz: building in $out"
build || {
	echo "fuzz: build failed" >&2
	exit 1
}
seed || exit 1
[ -z "$secs" ] && exit 0

status=0
for h in $harnesses; do
	if [ ! -x "$out/fuzz_$h" ]; then
		echo "fuzz: no harness '$h' (fstest, layout, cli)" >&2
		exit 2
	fi
	mkdir -p "$out/corpus-$h"
	par=
	[ "$jobs" -gt 1 ] && par="-jobs=$jobs -workers=$jobs"
	echo "fuzz: $h for $secs s ($jobs job(s)); log in $out/fuzz-$h.log"
	(
		cd "$out" || exit 1
		# shellcheck disable=SC2086
		./fuzz_$h -max_total_time="$secs" -max_len=8192 -timeout=20 -rss_limit_mb=4096 \
			-dict="$out/$h.dict" -artifact_prefix="$out/artifacts/$h-" \
			-print_final_stats=1 $par ${FUZZ_FLAGS:-} \
			"corpus-$h" "seeds-$h"
	) >"$out/fuzz-$h.log" 2>&1
	rc=$?
	grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==ERROR|SUMMARY)' \
		"$out/fuzz-$h.log" | tail -5
	if [ $rc -ne 0 ]; then
		echo "fuzz: $h FOUND SOMETHING (exit $rc): see $out/fuzz-$h.log and $out/artifacts/"
		status=1
	fi
done
exit $status
