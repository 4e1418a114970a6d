# SPDX-License-Identifier: BSD-3-Clause
# Shared by every bats suite: assertions, the binary under test, helpers.
# shellcheck disable=SC2034,SC2154 # read by the suites; set by bats run
bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert

export LC_ALL=C
# The source tree (this file is its tests/lib/test_helper.bash); the real
# machines' topologies and the C helpers (make check builds them).
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TOPO=$REPO/tests/topologies
HELPERS=$REPO/tests/helpers
# What tests/run exports, so that a plain `bats tests/X.bats` runs the same.
: "${PINRUN:=$REPO/pinrun}"
export PINRUN
export BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-300}

# A feature the kernel refuses here is skipped with its reason, unless
# PINRUN_MUST_WORK=1 (CI) says it must work.
skip_unless_works() {
	if [ "${PINRUN_MUST_WORK:-0}" = 1 ]; then
		fail "required but unavailable: $1"
	fi
	skip "$1"
}

# needs_program NAME... [-- WHY]: skip (fail under PINRUN_MUST_WORK) unless
# every NAME is a command here. Programs beyond scripts/install-deps' base
# list (the --ci ones: mandoc, valgrind, jq, gdb, setcap, Slurm, MPI...)
# are a newcomer's machine's gap, not a failure of pinrun.
needs_program() {
	local missing=() why=
	while [ $# -gt 0 ]; do
		if [ "$1" = -- ]; then
			shift
			why=" ($*)"
			break
		fi
		command -v "$1" >/dev/null || missing+=("$1")
		shift
	done
	[ ${#missing[@]} -eq 0 ] ||
		skip_unless_works "needs ${missing[*]}$why, not installed here (scripts/install-deps --ci)"
}

# The seccomp filter of --follow, which hands ptrace attaches (and, with
# --threads, sched_getaffinity) to the tracer: Linux 5.8, seccomp allowed.
needs_notify() {
	local why
	[ "${PINRUN_UNDER_VALGRIND:-}" != 1 ] || skip "valgrind does not implement seccomp(2): pinrun runs without the filter under it"
	why=$("$BATS_TEST_DIRNAME/helpers/seccomp_notify" 2>&1) || skip_unless_works "no seccomp user notification here ($why)"
}

# TEXT less pinrun's notes on survivors that keep the no_new_privs the
# seccomp filter of --follow needed, where it needs it (without
# CAP_SYS_ADMIN: an unprivileged run; the note's own tests check it).
# As root, TEXT as it is.
drop_nnp_note() {
	local nnp
	# shellcheck disable=SC2016 # awk code
	nnp=$("$PINRUN" --spread --follow -- awk '/^NoNewPrivs/ { print $2 }' /proc/self/status 2>/dev/null)
	if [ "$nnp" = 1 ] && [ "$(awk '/^NoNewPrivs/ { print $2 }' /proc/$$/status)" = 0 ]; then
		sed -E '/^pinrun: note: [0-9N]+ process(es)? still running keeps? no_new_privs, which --follow.s seccomp filter needed without CAP_SYS_ADMIN: set-user-ID programs (it runs|they run) get no privileges$/d' <<<"$1"
	else
		printf '%s\n' "$1"
	fi
}

# Expand a CPU list ("0-3,8") into one number per line, sorted.
expand() {
	local item a b out=()
	local IFS=,
	for item in $1; do
		a=${item%-*}
		b=${item#*-}
		for ((i = a; i <= b; i++)); do out+=("$i"); done
	done
	printf '%s\n' "${out[@]}" | sort -n | paste -sd, -
}

# A process's CPUs, as its /proc/PID/status has them (PID "self": the
# reader's, which is the caller's).
allowed_of() {
	awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$1/status"
}

# A process's state letter (R, S, T, t, Z...), or nothing once it is gone.
state_of() {
	awk '/^State/ { print $2 }' "/proc/$1/status" 2>/dev/null
}

# The CPUs this test may use (its inherited affinity) in ALLOWED, and the
# first two of them in FIRST and SECOND (the same one on a one-CPU run).
load_allowed() {
	ALLOWED=$(allowed_of self)
	FIRST=$(expand "$ALLOWED" | cut -d, -f1)
	SECOND=$(expand "$ALLOWED" | cut -d, -f2)
}

needs_two_cpus() {
	[ "$FIRST" != "$SECOND" ] || skip_unless_works "needs 2 allowed CPUs, this process has $ALLOWED"
}

# one_line_error PROGRAM STATUS NAME MESSAGE ARGS...: PROGRAM ARGS exits
# STATUS, prints nothing on stdout and exactly one line on stderr,
# "NAME: MESSAGE".
one_line_error() {
	local program=$1 code=$2 name=$3 message=$4
	shift 4
	run --separate-stderr "$program" "$@"
	assert_failure "$code"
	assert_output ""
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "stderr has ${#stderr_lines[@]} lines: $stderr"
	[ "$stderr" = "$name: $message" ] || fail "stderr: '$stderr', want '$name: $message'"
}

# pinrun's errors: exit 125 and one "pinrun: MESSAGE" line.
bad() {
	local message=$1
	shift
	one_line_error "$PINRUN" 125 pinrun "$message" "$@"
}

# The same for a usage error: the message, then the --help hint.
bad_usage() {
	local message=$1
	shift
	run --separate-stderr "$PINRUN" "$@"
	assert_failure 125
	assert_output ""
	[ "${#stderr_lines[@]}" -eq 2 ] || fail "stderr has ${#stderr_lines[@]} lines: $stderr"
	[ "${stderr_lines[0]}" = "pinrun: $message" ] || fail "stderr: '${stderr_lines[0]}', want 'pinrun: $message'"
	[ "${stderr_lines[1]}" = "Try 'pinrun --help' for more information." ] || fail "no hint: $stderr"
}

# For a teardown: kill the background processes a test started and listed
# in BG (they would hold bats' output open). One that ended already cannot
# be killed: that is no failure of the test.
kill_background() {
	if [ -n "${BG:-}" ]; then
		# shellcheck disable=SC2086 # a list of pids
		kill $BG 2>/dev/null
	fi
	return 0
}

# complete_line LINE [SCRIPT]: complete LINE, the cursor at its end, as
# bash would (COMP_WORDS split at blanks, and at '=' and ':', which are
# words of their own as COMP_WORDBREAKS has them); prints COMPREPLY, one a
# line. SCRIPT is sourced first (another command's completion). For
# tests/completion.bats and tests/devices.bats (--near=, --mem=).
complete_line() {
	bash --norc --noprofile -c '
		source "$1" || exit 9
		[ -z "$3" ] || source "$3" || exit 9
		line=$2 word= COMP_WORDS=()
		for ((k = 0; k < ${#line}; k++)); do
			c=${line:k:1}
			case $c in
			" ") [ -z "$word" ] || COMP_WORDS+=("$word"); word= ;;
			[=:])
				[ -z "$word" ] || [[ $word == [=:]* ]] || { COMP_WORDS+=("$word"); word=; }
				word+=$c
				[[ ${line:k+1:1} == [=:] ]] || { COMP_WORDS+=("$word"); word=; }
				;;
			*) [[ $word != [=:]* ]] || { COMP_WORDS+=("$word"); word=; }; word+=$c ;;
			esac
		done
		COMP_WORDS+=("$word")
		COMP_LINE=$line COMP_POINT=${#line} COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_pinrun
		printf "%s\n" "${COMPREPLY[@]}"' _ "$REPO/completion/pinrun.bash" "$1" "${2:-}"
}
