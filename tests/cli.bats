#!/usr/bin/env bats
# The command line itself: help, version, usage errors, option order.

load test_helper

@test "--help prints usage on stdout and exits 0" {
	run --separate-stderr "$PINRUN" --help
	assert_success
	assert_line --index 0 "Usage:"
	assert_line " pinrun <policy> [options] [--] <command> [<argument>...]"
	assert_line --partial " -c, --cpus <spec>"
	assert_line "For more details see pinrun(1)."
	[ -z "$stderr" ]
}

@test "--help lists every long option the parser knows" {
	run "$PINRUN" --help
	for opt in hot same-chip same-numa same-cache spread cpus smt no-smt \
		all mem near list dry-run explain json topology pid show help version; do
		assert_output --partial -- "--$opt"
	done
}

@test "-h is --help" {
	run "$PINRUN" -h
	assert_success
	assert_line --index 0 "Usage:"
}

@test "--version and -V print the version" {
	run "$PINRUN" --version
	assert_success
	assert_output --regexp '^pinrun [0-9]+\.[0-9]+\.[0-9]+$'
	run "$PINRUN" -V
	assert_success
	assert_output --regexp '^pinrun [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "a failed write to stdout is an error (--help >/dev/full)" {
	[ -w /dev/full ] || skip_unless_works "no /dev/full"
	run bash -c '"$PINRUN" --help >/dev/full'
	assert_failure 125
	assert_output "pinrun: write error: No space left on device"
}

@test "a failed write of the plan is an error (--dry-run >/dev/full)" {
	[ -w /dev/full ] || skip_unless_works "no /dev/full"
	run bash -c '"$PINRUN" --hot --dry-run >/dev/full'
	assert_failure 125
	assert_output "pinrun: write error: No space left on device"
}

@test "no argument at all is a usage error" {
	bad_usage "no policy given: use one of --hot, --same-chip, --same-numa, --same-cache, --spread or --cpus"
}

@test "options after the command belong to the command" {
	run "$PINRUN" --cpus 0 -- echo --spread --bogus
	assert_success
	assert_output "--spread --bogus"
	run "$PINRUN" --cpus 0 echo -n --hot
	assert_success
	assert_output "--hot"
}

@test "option order does not matter before the command" {
	run "$PINRUN" --dry-run --no-smt --topology "$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml" --same-chip=1
	assert_success
	assert_output "18-35"
	run "$PINRUN" --same-chip=1 --topology "$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml" --no-smt --dry-run
	assert_success
	assert_output "18-35"
}

@test "-c is --cpus and -n is --dry-run" {
	run "$PINRUN" -c 1 -n
	assert_success
	assert_output "1"
}

@test "a dry run ignores a command, and prints one line" {
	run --separate-stderr "$PINRUN" --cpus 0 --dry-run -- false
	assert_success
	assert_output "0"
	[ "${#lines[@]}" -eq 1 ]
}

@test "--explain alone plans without running" {
	run --separate-stderr "$PINRUN" --hot=0 --explain
	assert_success
	assert_output ""
	[[ "$stderr" == *"pinrun: cpus: 0 ("* ]]
}

@test "--json and --dry-run with a command print the plan and run nothing" {
	run --separate-stderr "$PINRUN" --cpus 0 --json -- touch "$BATS_TEST_TMPDIR/ran"
	assert_success
	[[ "$output" == '{"policy":"cpus",'* ]] || fail "$output"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	run --separate-stderr "$PINRUN" --hot=0 --dry-run -- touch "$BATS_TEST_TMPDIR/ran"
	assert_success
	assert_output "0"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}
