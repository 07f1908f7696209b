#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The command-line fuzzer's seeds replay clean: every option of every
# command's --help, with values good and bad, and tests/cli_input.sh's bad
# inputs go through each command's argument parsing (tests/fuzz/fuzz_cli.c,
# built without libFuzzer) with no crash, no leak or undefined behaviour in
# a sanitizer build, a status of 0, 1 or 2, and a message with every
# refusal. tests/fuzz/run.sh fuzzes the same harness.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
replay=${top_builddir:-.}/tests/fuzz/cli_replay
src=${srcdir:-$(dirname "$0")/..}
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
. "$src/tests/report.sh"

if sh "$src/tests/fuzz/cli_seeds.sh" "$vfslab" "$work/seeds" >"$work/out" 2>&1; then
	ok "seeds: $(cat "$work/out")"
else
	bad "seeds: $(head -c 300 "$work/out")"
fi
if timeout 300 "$replay" "$work/seeds" >"$work/out" 2>&1; then
	ok "replay: $(tail -1 "$work/out")"
else
	bad "replay: exit $?: $(tail -c 2000 "$work/out")"
fi
summary
