#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# Running commands on this machine: the binding the kernel applied, exit
# statuses, what pinrun leaves unchanged (pid, environment, descriptors),
# inherited masks, cgroup cpusets, --pid, --show and --mem.

load lib/test_helper

setup() {
	E5=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
	load_allowed
}

teardown() {
	kill_background
}

# Wait until process $2 runs program $1 and sleeps in it (it exec'd, and
# what ran before the exec is done): polled, bounded by the test timeout.
asleep_as() {
	until [ "$(cat "/proc/$2/comm" 2>/dev/null)" = "$1" ] && [ "$(state_of "$2")" = S ]; do
		[ -d "/proc/$2" ] || fail "process $2 ended before it ran $1"
		sleep 0.01
	done
}

@test "--cpus 1: the command's Cpus_allowed_list is 1" {
	needs_two_cpus
	run "$PINRUN" --cpus "$SECOND" -- grep Cpus_allowed_list /proc/self/status
	assert_success
	assert_output "Cpus_allowed_list:	$SECOND"
}

@test "--cpus with a mask and a location binds the same CPUs" {
	run "$PINRUN" --cpus 0x1 -- grep Cpus_allowed_list /proc/self/status
	assert_output "Cpus_allowed_list:	0"
	run "$PINRUN" --cpus pu:0 -- grep Cpus_allowed_list /proc/self/status
	assert_output "Cpus_allowed_list:	$(hwloc-calc --physical-output --intersect PU pu:0)"
}

@test "--hot binds one allowed CPU, the one a dry run names" {
	run "$PINRUN" --hot -- awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
	assert_success
	[[ "$output" =~ ^[0-9]+$ ]] || fail "not one CPU: $output"
	[[ ",$(expand "$ALLOWED")," == *",$output,"* ]] || fail "$output not in $ALLOWED"
	run "$PINRUN" --hot="$FIRST" -- awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
	assert_output "$FIRST"
}

@test "--hot=idle binds one allowed CPU" {
	run "$PINRUN" --hot=idle -- awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
	assert_success
	[[ "$output" =~ ^[0-9]+$ ]] || fail "not one CPU: $output"
	[[ ",$(expand "$ALLOWED")," == *",$output,"* ]] || fail "$output not in $ALLOWED"
}

@test "--same-chip binds the allowed PUs of the package pinrun runs on" {
	run "$PINRUN" --same-chip -- awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
	assert_success
	got=$(expand "$output")
	pkg=$(hwloc-calc --physical-input --intersect package "pu:${got%%,*}")
	want=$(comm -12 <(expand "$(hwloc-calc --physical-output --intersect PU "package:$pkg")" | tr , '\n' | sort) \
		<(expand "$ALLOWED" | tr , '\n' | sort) | sort -n | paste -sd, -)
	assert_equal "$got" "$want"
}

@test "--spread binds one PU per core, as hwloc-distrib picks them" {
	run "$PINRUN" --spread -- awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
	assert_success
	want=$(hwloc-calc --physical-output --intersect PU "$(hwloc-calc core:all.pu:0)")
	assert_equal "$(expand "$output")" "$(expand "$want")"
}

@test "--same-numa and --same-cache bind on this machine" {
	run "$PINRUN" --same-numa=0 -- awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
	assert_success
	assert_equal "$(expand "$output")" "$(expand "$(hwloc-calc --physical-output --intersect PU node:0)")"
	if [ "$(hwloc-calc --number-of l3cache machine:0)" -gt 0 ]; then
		run "$PINRUN" --same-cache=0 -- awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
		assert_success
		assert_equal "$(expand "$output")" "$(expand "$(hwloc-calc --physical-output --intersect PU l3cache:0)")"
	fi
}

@test "an inherited mask is respected: taskset -c 1 pinrun --same-chip" {
	needs_two_cpus
	run taskset -c "$SECOND" "$PINRUN" --same-chip -- awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
	assert_success
	assert_output "$SECOND"
	run taskset -c "$SECOND" "$PINRUN" --spread -n
	assert_output "$SECOND"
}

@test "a CPU outside the inherited mask is an error; --all leaves the mask" {
	needs_two_cpus
	run --separate-stderr taskset -c "$SECOND" "$PINRUN" --cpus "$FIRST" -- true
	assert_failure 125
	[ "$stderr" = "pinrun: CPU $FIRST is not in the allowed set $SECOND (use --all to leave the inherited mask)" ]
	run taskset -c "$SECOND" "$PINRUN" --all --cpus "$FIRST" -- awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
	assert_success
	assert_output "$FIRST"
}

@test "--explain names the inherited mask as a reason" {
	needs_two_cpus
	local excluded
	# Every allowed CPU but SECOND: CPU FIRST on a 2-CPU machine.
	excluded=$(expand "$ALLOWED" | tr ',' '\n' | grep -vx "$SECOND" | paste -sd, -)
	excluded=$("$PINRUN" --cpus "$excluded" -n)
	run --separate-stderr taskset -c "$SECOND" "$PINRUN" --same-chip --explain -n
	assert_success
	[[ "$stderr" == *"pinrun: excluded $excluded: not in the inherited affinity (use --all to include them)"* ]] || fail "$stderr"
}

@test "a cgroup cpuset limits the placement, and --all cannot leave it" {
	needs_two_cpus
	local g=/sys/fs/cgroup/cpuset/pinrun-test-$$
	mkdir "$g" 2>/dev/null || skip_unless_works "cannot create a cpuset cgroup"
	echo "$SECOND" >"$g/cpuset.cpus"
	cat /sys/fs/cgroup/cpuset/cpuset.mems >"$g/cpuset.mems"
	run --separate-stderr sh -c 'echo $$ >"$1/tasks" && exec "$2" --all --spread -n' sh "$g" "$PINRUN"
	s1=$status o1=$output
	run --separate-stderr sh -c 'echo $$ >"$1/tasks" && exec "$2" --all --cpus "$3" -n' sh "$g" "$PINRUN" "$FIRST"
	s2=$status e2=$stderr
	run --separate-stderr sh -c 'echo $$ >"$1/tasks" && exec "$2" --show' sh "$g" "$PINRUN"
	s3=$status o3=$output
	rmdir "$g"
	[ "$s1" -eq 0 ] && [ "$o1" = "$SECOND" ] || fail "spread in cgroup: $s1 '$o1'"
	[ "$s2" -eq 125 ] && [ "$e2" = "pinrun: CPU $FIRST is not in this cgroup's cpuset $SECOND" ] || fail "cpus outside cgroup: $s2 '$e2'"
	[ "$s3" -eq 0 ] && [[ "$o3" == *"cpus: $SECOND"* ]] || fail "show in cgroup: $s3 '$o3'"
}

# Exit statuses
@test "the command's own status passes through" {
	run "$PINRUN" --cpus "$FIRST" -- true
	assert_success
	run "$PINRUN" --cpus "$FIRST" -- false
	assert_failure 1
	run "$PINRUN" --cpus "$FIRST" -- sh -c 'exit 42'
	assert_failure 42
}

@test "a command killed by a signal looks killed by it (143 for SIGTERM)" {
	run --separate-stderr bash -c '"$1" --cpus "$2" -- sh -c "kill -TERM \$\$"; echo $?' bash "$PINRUN" "$FIRST"
	assert_output "143"
}

@test "command not found: 127" {
	run -127 --separate-stderr "$PINRUN" --cpus "$FIRST" -- pinrun-no-such-command
	assert_failure 127
	[ "$stderr" = "pinrun: cannot run 'pinrun-no-such-command': No such file or directory" ]
}

@test "command not executable: 126" {
	local f=$BATS_TEST_TMPDIR/noexec.sh
	echo 'echo hi' >"$f"
	chmod 644 "$f"
	run --separate-stderr "$PINRUN" --cpus "$FIRST" -- "$f"
	assert_failure 126
	[ "$stderr" = "pinrun: cannot run '$f': Permission denied" ]
	run --separate-stderr "$PINRUN" --cpus "$FIRST" -- "$BATS_TEST_TMPDIR"
	assert_failure 126
	[ "$stderr" = "pinrun: cannot run '$BATS_TEST_TMPDIR': Permission denied" ]
}

@test "pinrun's own failure is 125, nothing run" {
	run --separate-stderr "$PINRUN" --cpus 8000 -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 125
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

# Invisible
@test "the command keeps pinrun's pid (pinrun exec's)" {
	run sh -c 'echo $$; exec "$1" --cpus "$2" -- sh -c "echo \$\$"' sh "$PINRUN" "$FIRST"
	assert_success
	[ "${lines[0]}" = "${lines[1]}" ] || fail "pid changed: $output"
}

@test "no environment variable is added" {
	[ "${PINRUN_UNDER_VALGRIND:-}" != 1 ] || skip "valgrind adds variables of its own to the command's environment"
	run env -i PATH="$PATH" A=1 "$PINRUN" --same-chip -- env
	assert_success
	assert_output "$(env -i PATH="$PATH" A=1 env)"
	run env -i PATH="$PATH" "$PINRUN" --topology "$E5" --spread -n
	run env -i PATH="$PATH" HWLOC_HIDE_ERRORS=1 "$PINRUN" --hot -- env
	assert_output "$(env -i PATH="$PATH" HWLOC_HIDE_ERRORS=1 env)"
}

@test "no descriptor is leaked to the command" {
	[ "${PINRUN_UNDER_VALGRIND:-}" != 1 ] || skip "valgrind keeps its own log file open in the command"
	close_fds='for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done'
	want=$(bash -c "$close_fds; exec ls /proc/self/fd")
	run --separate-stderr bash -c "$close_fds; exec \"\$1\" --same-chip --explain -- ls /proc/self/fd" bash "$PINRUN"
	assert_success
	assert_line --index 0 "$(head -1 <<<"$want")"
	[ "$(grep -c '^[0-9]' <<<"$output")" -eq "$(wc -l <<<"$want")" ] || fail "fds: $output (want $want)"
}

@test "stdin, stdout and stderr reach the command unchanged" {
	run bash -c 'echo in | "$1" --cpus "$2" -- sh -c "cat; echo err >&2" 2>&1' bash "$PINRUN" "$FIRST"
	assert_success
	assert_output "in
err"
}

# The hwloc environment never makes pinrun claim a binding it did not get.
@test "HWLOC_XMLFILE of another machine: plans, but will not run" {
	run --separate-stderr env HWLOC_XMLFILE="$E5" "$PINRUN" --cpus 40 -- true
	assert_failure 125
	[ "$stderr" = "pinrun: the topology comes from HWLOC_XMLFILE, not from this machine: unset it (or set HWLOC_THISSYSTEM=1) to run a command" ]
	run env HWLOC_XMLFILE="$E5" "$PINRUN" --same-chip=1 -n
	assert_success
	assert_output "18-35,54-71"
}

@test "HWLOC_SYNTHETIC and HWLOC_FSROOT are refused the same way" {
	run --separate-stderr env HWLOC_SYNTHETIC="package:4 core:4 pu:1" "$PINRUN" --hot -- true
	assert_failure 125
	[[ "$stderr" == "pinrun: the topology comes from HWLOC_SYNTHETIC, not from this machine"* ]]
	tar xjf "$TOPO/4pkg-1numa-intel-xeon-smt2-offline-7c12pu.sysfs.tar.bz2" -C "$BATS_TEST_TMPDIR"
	run --separate-stderr env HWLOC_FSROOT="$BATS_TEST_TMPDIR/16em64t-4s2c2t-offlines" "$PINRUN" --hot -- true
	assert_failure 125
	[[ "$stderr" == "pinrun: the topology comes from HWLOC_FSROOT, not from this machine"* ]]
}

@test "HWLOC_THISSYSTEM=1 with a foreign XML: the kernel's refusal is reported" {
	[ "$(nproc --all)" -lt 40 ] || skip "this machine has CPU 40"
	# Inside the inherited mask, pinrun itself refuses CPU 40 ...
	run --separate-stderr env HWLOC_XMLFILE="$E5" HWLOC_THISSYSTEM=1 "$PINRUN" --cpus 40 -- true
	assert_failure 125
	[ "$stderr" = "pinrun: CPU 40 is not in the allowed set $ALLOWED (use --all to leave the inherited mask)" ]
	# ... and with --all, the kernel does.
	run --separate-stderr env HWLOC_XMLFILE="$E5" HWLOC_THISSYSTEM=1 "$PINRUN" --all --cpus 40 -- true
	assert_failure 125
	[ "$stderr" = "pinrun: cannot bind to CPUs 40: Invalid argument" ]
}

@test "HWLOC_THISSYSTEM=1 with a foreign XML: a narrowed binding is refused" {
	needs_two_cpus
	[ "$(nproc --all)" -lt 36 ] || skip "this machine has CPU 35"
	[ "$ALLOWED" = "$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/1/status)" ] ||
		skip "this test runs inside a narrower mask than the machine's"
	run --separate-stderr env HWLOC_XMLFILE="$E5" HWLOC_THISSYSTEM=1 "$PINRUN" --all --cpus "$FIRST-35" -- true
	assert_failure 125
	[ "$stderr" = "pinrun: the kernel applied CPUs $ALLOWED instead of $FIRST-35" ]
}

# --pid
@test "--pid re-places every thread of a running process" {
	needs_two_cpus
	coproc THREADS { exec "$HELPERS/threads"; }
	BG=$THREADS_PID
	read -r ready <&"${THREADS[0]}"
	pid=$THREADS_PID
	run "$PINRUN" --cpus "$SECOND" --pid "$pid"
	s=$status
	tids=$(ls "/proc/$pid/task" | wc -l)
	bad=$(for t in /proc/"$pid"/task/*; do allowed_of "$pid/task/${t##*/}"; done |
		awk -v want="$SECOND" '$0 != want { n++ } END { print n + 0 }')
	[ "$ready" = ready ] && [ "$s" -eq 0 ] || fail "pinrun --pid: $s $output"
	[ "$tids" -eq 4 ] || fail "expected 4 threads, saw $tids"
	[ "$bad" -eq 0 ] || fail "$bad threads not on CPU $SECOND"
}

@test "--pid with --hot=current keeps the process on the CPU it last ran on" {
	needs_two_cpus
	taskset -c "$SECOND" sleep 30 &
	pid=$!
	BG=$pid
	# It has run (on $SECOND) once it is sleep, asleep: an event, not a
	# delay.
	asleep_as sleep "$pid"
	run "$PINRUN" --hot --pid "$pid" --explain
	s=$status
	now=$(allowed_of "$pid")
	[ "$s" -eq 0 ] && [ "$now" = "$SECOND" ] || fail "$s $now: $output"
	[[ "$output" == *"where pid $pid last ran"* ]] || fail "$output"
}

@test "--pid of a process that does not exist" {
	bad "no process with pid 999999999" --hot=0 --pid 999999999
}

@test "--show of a process that does not exist: the same line as --pid's" {
	bad "no process with pid 999999999" --show 999999999
	bad "no process with pid 999999999" --show --json --pid 999999999
}

@test "--pid on a process pinrun may not touch: EPERM" {
	command -v setpriv >/dev/null || skip_unless_works "no setpriv"
	[ "$(id -u)" -eq 0 ] || skip_unless_works "needs root to drop to nobody"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$PINRUN" --cpus "$FIRST" --pid 1
	assert_failure 125
	[ "$stderr" = "pinrun: cannot re-place pid 1: Operation not permitted" ]
}

@test "--pid --dry-run plans without touching the process" {
	sleep 30 &
	pid=$!
	BG=$pid
	before=$(allowed_of "$pid")
	run "$PINRUN" --cpus "$FIRST" --pid "$pid" --dry-run
	after=$(allowed_of "$pid")
	assert_output "$FIRST"
	[ "$before" = "$after" ]
}

# --show
@test "--show PID prints the process's CPUs, objects and memory nodes" {
	needs_two_cpus
	taskset -c "$SECOND" sleep 30 &
	pid=$!
	BG=$pid
	asleep_as sleep "$pid" # taskset has set the mask and exec'd
	run "$PINRUN" --show "$pid"
	s=$status
	run_json=$("$PINRUN" --show --json "$pid")
	[ "$s" -eq 0 ] || fail "$output"
	assert_line --index 0 "pid: $pid"
	assert_line --index 1 "cpus: $SECOND"
	assert_line --index 2 --regexp "^objects: (core|pu):[0-9]+$"
	assert_line --index 3 "mems: $(awk '/^Mems_allowed_list/ { print $2 }' /proc/self/status)"
	[[ "$run_json" == "{\"version\":1,\"pid\":$pid,\"cpus\":\"$SECOND\",\"objects\":[\""*"\"],\"mems\":\""*"\"}" ]] || fail "$run_json"
}

@test "--show without a pid shows pinrun's own (inherited) placement" {
	run "$PINRUN" --show
	assert_success
	assert_line --index 1 "cpus: $ALLOWED"
	run taskset -c "$FIRST" "$PINRUN" --show
	assert_line --index 1 "cpus: $FIRST"
}

# --mem
@test "--mem=bind, interleave and local set the command's memory policy" {
	nodes=$("$PINRUN" --cpus "$FIRST" --json | sed 's/.*"numa":"\([^"]*\)".*/\1/')
	run "$PINRUN" --cpus "$FIRST" --mem=bind -- "$HELPERS/mempolicy"
	assert_success
	assert_output "bind $nodes"
	run "$PINRUN" --cpus "$FIRST" --mem=interleave -- "$HELPERS/mempolicy"
	assert_output "interleave $nodes"
	run "$PINRUN" --cpus "$FIRST" --mem=local -- "$HELPERS/mempolicy"
	assert_output "local"
	run "$HELPERS/mempolicy"
	assert_output "default"
}

@test "--explain with a command explains, then runs it" {
	run --separate-stderr "$PINRUN" --cpus "$FIRST" --explain -- echo ran
	assert_success
	assert_output "ran"
	[[ "${stderr_lines[0]}" == "pinrun: topology: this machine (hwloc "* ]] || fail "$stderr"
	[[ "$stderr" == *"pinrun: cpus: $FIRST ("* ]] || fail "$stderr"
}
