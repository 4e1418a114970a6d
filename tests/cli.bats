#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# The command line itself: help, version, usage errors, option order.

load lib/test_helper

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

@test "a failed write of the JSON is an error (--json >/dev/full)" {
	[ -w /dev/full ] || skip_unless_works "no /dev/full"
	run bash -c '"$PINRUN" --hot --json --topology "$1" >/dev/full' _ "$TOPO/24pkg-24numa-intel-e5-4640-smt2-192c384pu.xml"
	assert_failure 125
	assert_output "pinrun: write error: No space left on device"
}

@test "a stdout closed from the start is a write error (-V >&-)" {
	run bash -c '"$PINRUN" -V >&-'
	assert_failure 125
	assert_output "pinrun: write error: Bad file descriptor"
}

@test "a failed write to stderr fails pinrun, without a word (--explain 2>/dev/full)" {
	[ -w /dev/full ] || skip_unless_works "no /dev/full"
	run --separate-stderr bash -c '"$PINRUN" --cpus 1 --explain -n --topology "$1" 2>/dev/full' _ "$TOPO/24pkg-24numa-intel-e5-4640-smt2-192c384pu.xml"
	assert_failure 125
	assert_output "1"
	[ -z "$stderr" ]
	# Nothing for stderr, nothing to fail.
	run bash -c '"$PINRUN" --cpus 1 -n --topology "$1" 2>/dev/full' _ "$TOPO/24pkg-24numa-intel-e5-4640-smt2-192c384pu.xml"
	assert_success
	assert_output "1"
}

@test "a reader gone, with SIGPIPE ignored, is no error (EPIPE, as util-linux has it)" {
	# A pipe whose reader is closed before pinrun writes.
	run --separate-stderr python3 -c '
import os, signal, subprocess, sys
signal.signal(signal.SIGPIPE, signal.SIG_IGN)
r, w = os.pipe()
os.close(r)
sys.exit(subprocess.run(sys.argv[1:], stdout=w, restore_signals=False).returncode)' \
		"$PINRUN" --list --topology "$TOPO/24pkg-24numa-intel-e5-4640-smt2-192c384pu.xml"
	assert_success
	[ -z "$stderr" ]
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

# On a terminal (script(1) gives pinrun one), messages wrap at its width
# at spaces, each further row under the text; in a pipe each is one line.
@test "on a terminal, --explain and errors wrap at its width (COLUMNS); in a pipe, one line each" {
	local e5=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml cols row joined=() piped
	local args=(--topology "$e5" --no-cache --spread --explain --dry-run)
	for cols in 60 80; do
		run env COLUMNS="$cols" script -qec "$(printf '%q ' "$PINRUN" "${args[@]}") >/dev/null" /dev/null
		assert_success
		mapfile -t lines <<<"${output//$'\r'/}"
		[ "${#lines[@]}" -gt 5 ] || fail "$output"
		joined=()
		for row in "${lines[@]}"; do
			[ "${#row}" -le "$cols" ] || fail "a row of ${#row} columns at $cols: '$row'"
			if [[ $row == "        "* ]]; then
				joined[${#joined[@]} - 1]+=" ${row#        }"
			else
				[[ $row == "pinrun: "* ]] || fail "row '$row'"
				joined+=("$row")
			fi
		done
		# The same words as in a pipe, where no line is cut. The time
		# line's figures differ from run to run: its words are compared.
		piped=$("$PINRUN" "${args[@]}" 2>&1 >/dev/null | sed -E 's/[0-9.]+ ms/N ms/g')
		assert_equal "$(printf '%s\n' "${joined[@]}" | sed -E 's/[0-9.]+ ms/N ms/g')" "$piped"
		awk 'length > 80 { n++ } END { exit !n }' <<<"$piped" || fail "no line longer than 80 in a pipe: $piped"
	done
	# A message is never cut inside a word, and an error wraps too.
	run env COLUMNS=40 script -qec "$(printf '%q ' "$PINRUN" --topology "$e5" --dry-run --cpus pu:7000)" /dev/null
	assert_equal "${output//$'\r'/}" "pinrun: invalid location 'pu:7000': the
        machine has no pu 7000 (it has
        72)"
	run --separate-stderr "$PINRUN" --topology "$e5" --dry-run --cpus pu:7000
	assert_failure 125
	assert_equal "$stderr" "pinrun: invalid location 'pu:7000': the machine has no pu 7000 (it has 72)"
}

@test "--json and --dry-run with a command print the plan and run nothing" {
	run --separate-stderr "$PINRUN" --cpus 0 --json -- touch "$BATS_TEST_TMPDIR/ran"
	assert_success
	[[ "$output" == '{"version":1,"policy":"cpus",'* ]] || fail "$output"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	run --separate-stderr "$PINRUN" --hot=0 --dry-run -- touch "$BATS_TEST_TMPDIR/ran"
	assert_success
	assert_output "0"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

# --- --help, the man page and getopt's table, in both directions ----------

# getopt's table: the long options of policy.c's table of policies and of
# options.c's other_options (what getopt_long is given), and the letters
# of the policies' short options and of other_shorts; one a line, sorted.
policy_table() { sed -n '/^static const struct policy_desc table\[/,/^};/p' "$REPO/policy.c"; }
getopt_longs() {
	{
		policy_table | sed -n 's/^[[:space:]]*\.name = "\([a-z][a-z-]*\)",$/--\1/p'
		sed -n '/^} other_options\[\] = {/,/^};/p' "$REPO/options.c" |
			sed -n 's/^[[:space:]]*{ "\([a-z][a-z-]*\)",.*/--\1/p'
	} | sort
}
getopt_shorts() {
	{
		policy_table | sed -n "s/^[[:space:]]*\.short_opt = '\(.\)',\$/\1/p"
		sed -n 's/^static const char other_shorts\[\] = "\([^"]*\)";/\1/p' "$REPO/options.c" |
			tr -d ':' | fold -w1
	} | sed 's/^/-/' | sort
}
# What --help and the man page's OPTIONS list: the option column only.
help_longs() { "$PINRUN" --help | sed -nE 's/^ (-[a-zA-Z], |    )(--[a-z][a-z-]*).*/\2/p' | sort; }
help_shorts() { "$PINRUN" --help | sed -nE 's/^ (-[a-zA-Z]), --.*/\1/p' | sort; }
man_options() {
	mandoc -Tascii "$REPO/man/pinrun.1" | col -b |
		sed -n '/^OPTIONS/,/^[A-Z]/p' | grep -E '^ {7}-'
}
man_longs() { man_options | sed -nE 's/^ {7}(-[a-zA-Z], )?(--[a-z][a-z-]*).*/\2/p' | sort; }
man_shorts() { man_options | sed -nE 's/^ {7}(-[a-zA-Z]), --.*/\1/p' | sort; }

@test "--help, the man page and getopt's table list the same options" {
	needs_program mandoc col -- to render the man page
	local g h m
	g=$(getopt_longs)
	h=$(help_longs)
	m=$(man_longs)
	[ "$(wc -l <<<"$g")" -ge 25 ] || fail "getopt's table read as: $g"
	[ "$g" = "$h" ] || fail "getopt vs --help: $(diff <(echo "$g") <(echo "$h"))"
	[ "$g" = "$m" ] || fail "getopt vs man page: $(diff <(echo "$g") <(echo "$m"))"
	g=$(getopt_shorts)
	[ "$g" = "$(help_shorts)" ] || fail "short options, getopt vs --help: $g / $(help_shorts)"
	[ "$g" = "$(man_shorts)" ] || fail "short options, getopt vs man page: $g / $(man_shorts)"
	# The completion offers the same long options.
	run bash --norc --noprofile -c 'source "$1"; printf "%s\n" $_pinrun_options | sort' _ "$REPO/completion/pinrun.bash"
	[ "$output" = "$(getopt_longs)" ] || fail "completion: $(diff <(getopt_longs) <(echo "$output"))"
}

@test "every option --help and the man page list is one pinrun accepts" {
	needs_program mandoc col -- to render the man page
	local o n=0
	for o in $(help_longs) $(man_longs) $(help_shorts) $(man_shorts); do
		# A known option may still want a value here: what matters is
		# that getopt knows it.
		run --separate-stderr "$PINRUN" "$o" --help
		[[ "$stderr" != *"unrecognized option"* && "$stderr" != *"invalid option"* &&
			"$stderr" != *"is ambiguous"* ]] || fail "$o: $stderr"
		n=$((n + 1))
	done
	[ "$n" -ge 60 ] || fail "only $n options tried"
	# And a made-up one is refused, so the check above can fail.
	run --separate-stderr "$PINRUN" --no-such-option --help
	[[ "$stderr" == *"unrecognized option '--no-such-option'"* ]]
}

@test "--help shows -f, --show --json and --share auto/N" {
	run "$PINRUN" --help
	assert_line --partial " -f, --follow[=strict]"
	assert_line " pinrun --show [--json] [<pid>]"
	assert_line --partial "--share <i/n|auto[/n]>"
	assert_line --partial " -q, --quiet"
	assert_line --partial "     --physical"
	assert_line --partial "     --tid <tid>"
}

# --- refusals -------------------------------------------------------------

@test "an ambiguous prefix lists its candidates" {
	bad_usage "option '--same' is ambiguous: --same-chip, --same-numa or --same-cache" --same -n
	bad_usage "option '--no' is ambiguous: --no-smt or --no-cache" --no --hot -n
}

@test "near misses and other tools' spellings are named" {
	bad_usage "unrecognized option '--same_chip'; did you mean --same-chip?" --same_chip -n
	bad_usage "unrecognized option '--sread'; did you mean --spread?" --sread -n
	bad_usage "unrecognized option '--physcpubind=1'; did you mean --cpus 1?" --physcpubind=1
	bad_usage "unrecognized option '--cpu-list'; did you mean --cpus?" --cpu-list 1
	bad_usage "unrecognized option '--membind=0'; did you mean --mem=bind:0?" --hot --membind=0
	bad_usage "unrecognized option '--bogus'" --bogus
	bad_usage "invalid option -- 'p': taskset's -p 1 is --show 1 (to move it: a policy and --pid 1)" -p 1
	bad_usage "invalid --hot value 'idel': expected current, idle or a CPU specification; did you mean --hot=idle?" --hot=idel -n
	bad_usage "invalid --same-numa value 'node1': expected current, idle or a NUMA node number; did you mean --same-numa=1?" --same-numa=node1 -n
	bad_usage "invalid --same-numa value 'numa:1': expected current, idle or a NUMA node number; did you mean --same-numa=1?" --same-numa=numa:1 -n
	bad_usage "invalid --same-cache value 'l3:1': expected current, idle or an L3 cache number; did you mean --same-cache=1?" --same-cache=l3:1 -n
	bad_usage "invalid --same-chip value 'package#0': expected current, idle or a package number; did you mean --same-chip=0?" --same-chip=package#0 -n
	bad_usage "invalid --same-chip value 'core:1.pu:0': expected current, idle or a package number" --same-chip=core:1.pu:0 -n
	bad_usage "invalid --same-chip value 'core:1': expected current, idle or a package number" --same-chip=core:1 -n
	bad_usage "invalid --same-numa value 'package:1': expected current, idle or a NUMA node number" --same-numa=package:1 -n
	bad_usage "invalid --same-cache value 'L3Cache:2': expected current, idle or an L3 cache number; did you mean --same-cache=2?" --same-cache=L3Cache:2 -n
	bad_usage "invalid --same-chip value 'curent': expected current, idle or a package number; did you mean --same-chip=current?" --same-chip=curent -n
	bad_usage "invalid --spread value 'all': expected a number of cores; --spread alone spreads over every core" --spread=all -n
}
