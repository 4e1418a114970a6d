#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# --pid and --tid as taskset -p has them: the old and the new list, one
# thread or all, --quiet; and --show of a process whose threads differ.
# Every process here is one this file started.

load lib/test_helper

setup() {
	load_allowed
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
}

teardown() {
	kill_background
}

# A process with four threads (tests/helpers/threads), in PID, its
# threads in TIDS (the process's own first).
start_threads() {
	coproc THREADS { exec "$HELPERS/threads"; }
	BG=$THREADS_PID
	PID=$THREADS_PID
	read -r ready <&"${THREADS[0]}"
	[ "$ready" = ready ] || fail "threads helper: $ready"
	mapfile -t TIDS < <(ls "/proc/$PID/task" | sort -n)
	[ "${#TIDS[@]}" -eq 4 ] || fail "expected 4 threads, saw ${#TIDS[@]}"
}

@test "--pid prints the current and the new list, as taskset -p does" {
	needs_two_cpus
	sleep 60 &
	BG=$!
	run --separate-stderr "$PINRUN" --cpus "$SECOND" --pid "$BG"
	assert_success
	assert_output "pid $BG's current affinity list: $ALLOWED
pid $BG's new affinity list: $SECOND"
	[ "$(allowed_of "$BG")" = "$SECOND" ]
	# taskset's own lines have the same shape (its lists may be written
	# 0,1 where pinrun writes 0-1).
	run taskset -pc "$FIRST" "$BG"
	assert_success
	[ "$(sed 's/: .*//' <<<"$output")" = "pid $BG's current affinity list
pid $BG's new affinity list" ] || fail "taskset said: $output"
}

@test "--quiet prints nothing and still moves the process" {
	needs_two_cpus
	sleep 60 &
	BG=$!
	run --separate-stderr "$PINRUN" --cpus "$SECOND" --pid "$BG" --quiet
	assert_success
	assert_output ""
	[ -z "$stderr" ]
	[ "$(allowed_of "$BG")" = "$SECOND" ]
	run --separate-stderr "$PINRUN" -q --cpus "$FIRST" --tid "$BG"
	assert_output ""
	[ "$(allowed_of "$BG")" = "$FIRST" ]
}

@test "--pid names each thread whose CPUs differed, and moves them all" {
	needs_two_cpus
	start_threads
	taskset -pc "$FIRST" "${TIDS[2]}" >/dev/null
	run --separate-stderr "$PINRUN" --cpus "$SECOND" --pid "$PID"
	assert_success
	assert_output "pid $PID's current affinity list: $ALLOWED
tid ${TIDS[2]}'s current affinity list: $FIRST
pid $PID's new affinity list: $SECOND"
	for t in "${TIDS[@]}"; do
		[ "$(allowed_of "$PID/task/$t")" = "$SECOND" ] || fail "thread $t not moved"
	done
}

@test "--tid moves one thread and leaves the others" {
	needs_two_cpus
	start_threads
	run --separate-stderr "$PINRUN" --cpus "$SECOND" --tid "${TIDS[1]}"
	assert_success
	assert_output "tid ${TIDS[1]}'s current affinity list: $ALLOWED
tid ${TIDS[1]}'s new affinity list: $SECOND"
	for t in "${TIDS[@]}"; do
		want=$ALLOWED
		[ "$t" != "${TIDS[1]}" ] || want=$SECOND
		[ "$(allowed_of "$PID/task/$t")" = "$want" ] || fail "thread $t: $(allowed_of "$PID/task/$t"), want $want"
	done
}

@test "--tid --dry-run plans and touches nothing" {
	sleep 60 &
	BG=$!
	run --separate-stderr "$PINRUN" --cpus "$FIRST" --tid "$BG" --dry-run
	assert_success
	assert_output "$FIRST"
	[ "$(allowed_of "$BG")" = "$ALLOWED" ]
}

@test "--tid: refusals" {
	bad "no thread with tid 999999999" --cpus 0 --tid 999999999
	bad_usage "--tid re-places a running thread: give no command" --cpus 0 --tid 1 -- true
	bad_usage "--pid moves every thread of a process and --tid one thread: give one of them" --cpus 0 --tid 1 --pid 1
	bad_usage "--follow follows a command it starts: it cannot follow --tid" --cpus 0 --follow --tid 1
	bad_usage "--tid acts on this machine: --topology does not apply" --cpus 0 --tid 1 --topology "pack:2 pu:2"
	bad_usage "--mem sets pinrun's own memory policy for the command: it cannot change --tid's" --cpus 0 --mem=bind --tid 1
	bad_usage "invalid --tid value 'x': expected a process id" --cpus 0 --tid x
	bad_usage "--tid given twice" --cpus 0 --tid 1 --tid 2
	bad_usage "--show takes only a pid (and --json): --tid does not apply" --show --tid 1
	bad_usage "--show takes only a pid (and --json): --quiet does not apply" --show --quiet
	bad_usage "--show takes one pid: after its options or with --pid, not both" --show --pid 1 1
}

@test "--show lists every thread when their CPUs differ" {
	needs_two_cpus
	start_threads
	run --separate-stderr "$PINRUN" --show "$PID"
	assert_success
	[ "${#lines[@]}" -eq 4 ] || fail "threads alike, yet: $output"
	taskset -pc "$SECOND" "${TIDS[3]}" >/dev/null
	run --separate-stderr "$PINRUN" --show "$PID"
	assert_success
	[ "${#lines[@]}" -eq 8 ] || fail "$output"
	assert_line --index 1 "cpus: $ALLOWED"
	assert_line --index 4 --regexp "^thread ${TIDS[0]}: $ALLOWED \(.+\)$"
	assert_line --index 7 --regexp "^thread ${TIDS[3]}: $SECOND \((core|pu):[0-9]+\)$"
	# As taskset -p has it, the pid may come with --pid.
	run --separate-stderr "$PINRUN" --show --json --pid "$PID"
	assert_success
	assert_output --regexp "\"threads\":\[\{\"tid\":${TIDS[0]},\"cpus\":\"$ALLOWED\",\"objects\":\[[^]]*\]\},.*\{\"tid\":${TIDS[3]},\"cpus\":\"$SECOND\",\"objects\":\[\"(core|pu):[0-9]+\"\]\}\]\}$"
}
