#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# tests/follow-torture for a bounded time: random process trees under
# pinrun --follow and two busy loops, each checked (it returned, nothing
# left stopped or traced, every process where the report says, the report
# valid and complete, the plain run's status). scripts/torture runs it
# longer, with every shape.
# shellcheck disable=SC2154 # bats sets output and status

load test_helper

# Shapes whose bugs the tracer's rebuild (branch follow-core, issue 17)
# fixes, left out of this bounded run until it is merged; the coordinator
# empties this after merging it (scripts/torture runs them all):
#   heldpipe   --wait-all with a pipe the command holds, read to its end by
#              a descendant: the held command keeps it open (item 3)
#   order      the check that the command's report line is there when
#              pinrun returns: the helper writes it after the exit the
#              parent sees (item 4; more often since the command keeps the
#              whole placement and runs beside the helper, not after it)
# (survivors, a process that ends before its children, found item 1's
# hang: a child whose first stop comes after the command's end was left
# stopped and $(pinrun ...) never returned; the tracer now counts such
# children until their first stop.) Both of the above are fixed by the
# tracer's rebuild (the command exits for real under --wait-all; its line
# is written at its zombie), so they run here.
# zombie (a main thread that calls pthread_exit while another thread goes
# on to exit the process) is left out: under ASan+UBSan, with --threads,
# `tree ZX2X3` hangs pinrun every time (CI's SAN run found it at tree 58;
# a plain build passed 40 of 40). It stays a known bug of issue 17 until
# the tracer's thread-exit path is fixed; scripts/torture runs it.
PINRUN_TORTURE_PENDING=${PINRUN_TORTURE_PENDING-zombie}

BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-300}

setup() {
	TORTURE=$BATS_TEST_DIRNAME/follow-torture
	[ -x "$BATS_TEST_DIRNAME/helpers/tree" ] ||
		fail "tests/helpers/tree is not built (make check builds it)"
	command -v python3 >/dev/null || fail "follow-torture needs python3"
}

@test "torture: random trees under --follow and two busy loops pass every check" {
	run "$TORTURE" -t "${PINRUN_TORTURE_SECONDS:-60}" -x "$PINRUN_TORTURE_PENDING"
	echo "$output" | tail -n 20
	assert_success
	assert_line --regexp '^follow-torture: [0-9]+ trees, all passed \(first seed [0-9]+\)$'
}

@test "torture: the checks fail a follower that writes no report" {
	# A stand-in for pinrun that runs the command unfollowed.
	fake=$BATS_TEST_TMPDIR/pinrun
	# shellcheck disable=SC2016 # the stand-in's own code
	printf '#!/bin/sh\nwhile [ "$1" != -- ]; do shift; done\nshift\nexec "$@"\n' >"$fake"
	chmod +x "$fake"
	PINRUN=$fake run "$TORTURE" -n 3 -s 7 -x survivors,order
	assert_failure 1
	assert_line --regexp '^FAIL tree 1 \(seed 7\): report$'
	assert_line --partial 'again:  '
	assert_line 'follow-torture: 1 tree, FAILED (first seed 7)'
}

@test "torture: a wrong option is a usage error" {
	run "$TORTURE" -t x
	assert_failure 2
	assert_line "follow-torture: option -t: not a number 'x'"
}
