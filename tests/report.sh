# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by the shell tests that run several checks: ok and bad print a
# PASS or FAIL line and count it; summary prints the counts and returns 1
# if anything failed.
pass=0
fail=0

ok() {
	echo "PASS: $*"
	pass=$((pass + 1))
}

bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

summary() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
