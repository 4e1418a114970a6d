#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# --follow: pinrun follows the command's process tree with ptrace and gives
# every new child one slot of the policy before its first instruction, while
# staying invisible (statuses, signals, job control, pids, terminals).
#
# Each "follow N:" test is named after row N of the test table --follow was
# designed against (numbered 1 to 45); "follow spec:" tests check the rest
# of the interface, and "follow trace:", "follow let go:", "follow
# hygiene:" and "follow unplaced:" what issue 11 added (programs that
# trace, letting go at once, the helper's descriptors, refused slots).
# Rows adapted to the real command line:
#   --policy X          a policy option: --spread, --hot=CPU, --cpus, ...
#   topology A          only when pinrun is PID 1 (unshare -fp --mount-proc):
#                       rows 37 and 38 (and a few PID-1 variants under 37)
#   --follow=require    --follow=strict (row 35)
#   -v counters         no such option: row 29 checks --report instead, row
#                       39 checks that --report has one line per process
#   -u USER             no such option: row 36 runs pinrun as root with
#                       setpriv dropping the command to nobody
#   --detach-on-exec    no such option: row 32 checks the documented EPERM
# Numbers scaled down so that the file runs in well under two minutes:
#   row 28: 1000 /bin/true in a dash loop; row 39: 2000 fork/_exit; row 40:
#   pid_max 400 in a PID namespace (per-namespace pid_max, Linux 6.14) and
#   1000 children. "At once" (rows 20, 22, 24, the let-go tests) is
#   checked by events, not clocks: pinrun returns while a survivor that
#   outlives the test still runs (a pinrun that waited would hang until
#   BATS_TEST_TIMEOUT).
# Times are not tests (the machines are shared and noisy): the runtime
# budget of row 39 and the start-up cost of row 45 are measured side by
# side in scripts/bench-follow instead, and row 45 is not in this file.
# Every test runs under BATS_TEST_TIMEOUT, so nothing can hang the suite.
# Rows not implemented here: 45 (a timing, see above). Partly: row 13 in topology A accepts one or
# two TERMs (the double delivery the note warns of), only a lost one fails;
# row 38's EXITKILL cannot be told apart in topology A, which only exists
# as PID 1, whose death ends its whole namespace anyway.
#
# Job-control rows (9-18, 21, 44) run an interactive bash in a tmux pane and
# compare the screen with the same keys typed without pinrun (pids written
# N). They skip without tmux, rows 31 and 33 without strace (failures
# under PINRUN_MUST_WORK=1, as in CI).

# Shell code typed into a terminal or run by another shell is in single
# quotes on purpose (SC2016); bats runs each test in a subshell (SC2030,
# SC2031); test_helper.bash sets PINRUN and bats stderr_lines.
# shellcheck disable=SC2016,SC2030,SC2031,SC2153,SC2154

load lib/test_helper

BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

setup() {
	load_allowed
	for h in probe sigcount threadexec rawclone threadfork traceme \
		seccomp_noptrace euid waiter leaderexit forkloop attach \
		seccomp_notify seccomp_noseccomp blockwait zombieattach; do
		[ -x "$HELPERS/$h" ] || fail "tests/helpers/$h is not built (make check builds it)"
	done
	TM_SOCKS=()
	KILL=()
	SUID_DIR=
	SHARED=
}

teardown() {
	local s
	# (a server or process that ended already cannot be killed: that is no
	# failure of the test, and teardown goes on past it)
	for s in "${TM_SOCKS[@]}"; do
		tmux -L "$s" kill-server 2>/dev/null
	done
	if [ "${#KILL[@]}" -gt 0 ]; then
		kill -9 "${KILL[@]}" 2>/dev/null
	fi
	[ -z "$SUID_DIR" ] || rm -rf "$SUID_DIR"
	[ -z "$SHARED" ] || rm -rf "$SHARED"
}

# --- Conditions ------------------------------------------------------------

# ptrace must work here for pinrun to follow anything (a child can ask to
# be traced by its parent; Yama 3, a seccomp filter or an LSM may refuse).
needs_ptrace() {
	local why
	why=$("$HELPERS/traceme" 2>&1) || skip_unless_works "ptrace is unavailable here ($why)"
}

needs_root() {
	[ "$(id -u)" -eq 0 ] || skip_unless_works "needs root"
	command -v setpriv >/dev/null || skip_unless_works "no setpriv"
	NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
}

# SHARED: a directory of this test's that every user may read, for
# programs the user nobody runs too.
make_shared() {
	SHARED=$(mktemp -d /tmp/pinrun-follow-shared.XXXXXX)
	SHARED=$(realpath "$SHARED")
	chmod 755 "$SHARED"
}

needs_pidns() {
	unshare -fp --mount-proc true 2>/dev/null ||
		skip_unless_works "cannot make a PID namespace (unshare -fp --mount-proc)"
}

# --- Placement -------------------------------------------------------------

# SLOTS: the slots of a policy, as `pinrun POLICY --json` lists them, one
# expanded CPU list ("0,1,2") per line; SLOT0 the first; CPUS the whole
# placement ("cpus", as pinrun prints it); NSLOTS how many.
load_slots() {
	local json list
	json=$("$PINRUN" "$@" --json) || fail "pinrun $* --json failed: $json"
	list=${json#*\"slots\":\[\"}
	list=${list%%\"\]*}
	[ "$list" != "$json" ] || fail "no slots in: $json"
	SLOTS=$(while read -r s; do expand "$s"; done <<<"${list//\",\"/$'\n'}")
	SLOT0=$(head -n 1 <<<"$SLOTS")
	NSLOTS=$(wc -l <<<"$SLOTS")
	CPUS=${json#*\"cpus\":\"}
	CPUS=${CPUS%%\"*}
}

# A helper's line "LABEL [I] cpu=C cpus=LIST": LIST must be exactly one slot
# and C inside it. Sets WHERE to the expanded LIST.
assert_one_slot() {
	local line=$1 cpu
	[[ "$line" =~ \ cpu=(-?[0-9]+)\ cpus=([0-9,-]+)$ ]] || fail "not a probe line: '$line'"
	cpu=${BASH_REMATCH[1]}
	WHERE=$(expand "${BASH_REMATCH[2]}")
	grep -qxF -- "$WHERE" <<<"$SLOTS" || fail "'$line': not exactly one slot of ${SLOTS//$'\n'/ }"
	[[ ",$WHERE," == *",$cpu,"* ]] || fail "'$line': runs on CPU $cpu, outside its affinity"
}

# The same for a line that must show exactly the CPUs $2 (expanded).
assert_on() {
	local line=$1 want=$2 cpu
	[[ "$line" =~ \ cpu=(-?[0-9]+)\ cpus=([0-9,-]+)$ ]] || fail "not a probe line: '$line'"
	cpu=${BASH_REMATCH[1]}
	WHERE=$(expand "${BASH_REMATCH[2]}")
	[ "$WHERE" = "$want" ] || fail "'$line': want cpus $want"
	[[ ",$WHERE," == *",$cpu,"* ]] || fail "'$line': runs on CPU $cpu, outside its affinity"
}

# How many different CPU lists the lines of $output that start with $1 show.
distinct() {
	grep "^$1" <<<"$output" | sed 's/.* cpus=//' | sort -u | wc -l
}

# Every CPU of the list $1 is in the placement (CPUS).
in_placement() {
	local c all
	all=,$(expand "$CPUS"),
	for c in $(expand "$1" | tr , ' '); do
		[[ "$all" == *",$c,"* ]] || fail "a child ran on CPU $c, outside $CPUS"
	done
}

min() {
	echo $(($1 < $2 ? $1 : $2))
}

# The TracerPid of a process, or "gone".
tracer_of() {
	awk '/^TracerPid/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo gone
}

# Wait up to 5 s for a shell condition.
eventually() {
	local i
	for ((i = 0; i < 100; i++)); do
		eval "$1" && return 0
		sleep 0.05
	done
	fail "still not true after 5 s: $1"
}

# The warning of a --follow that cannot trace, for the placement $1.
warning_re() {
	echo "^pinrun: warning: --follow unavailable \((.+)\): children inherit CPUs $1\$"
}

# --- Invisibility through bash ---------------------------------------------

# Pids become N: the values of pid=, pgid= and bang=, and any other number
# of three digits or more that does not follow "=" (rc=130 stays).
normalize() {
	sed -E -e 's/(pid|pgid|bang)=[0-9]+/\1=N/g' -e 's/(^|[^=0-9])[0-9]{3,}/\1N/g'
}

# What a non-interactive bash prints (stderr, then "status=N") after running
# "$@" without pinrun (BASE) and under pinrun --follow --spread (GOT), in
# the directories base and got of the test's temporary directory, after the
# shell code BASH_PRE. The script's text is the same both times, so bash's
# job messages are too.
bash_reports() {
	local script=${BASH_PRE:-}'"$@"; echo "status=$?"'
	mkdir -p "$BATS_TEST_TMPDIR/base" "$BATS_TEST_TMPDIR/got"
	BASE=$(cd "$BATS_TEST_TMPDIR/base" && bash -c "$script" bash "$@" 2>&1 | normalize)
	GOT=$(cd "$BATS_TEST_TMPDIR/got" && bash -c "$script" bash "$PINRUN" --follow --spread "$@" 2>&1 | normalize)
}

# --- A terminal: tmux --------------------------------------------------------

# A tmux server of this test's own with one pane running an interactive
# bash (job control on). In that shell P is an array, empty for the
# baseline and (pinrun --follow --spread --) otherwise, so that the typed
# command line "${P[@]}" ... and bash's job messages read the same both
# times; S is sigcount, H the helpers' directory, LOG a file for sigcount's
# log and OUT one for the output of background jobs (which would otherwise
# race with the prompt on the screen).
tm_start() {
	command -v tmux >/dev/null || skip_unless_works "no tmux"
	local mode=$1 rc=$BATS_TEST_TMPDIR/bashrc-$1
	TM=pf-$$-$BATS_TEST_NUMBER-$mode
	LOG=$BATS_TEST_TMPDIR/log-$mode
	OUT=$BATS_TEST_TMPDIR/out-$mode
	{
		echo "PS1='\$ '"
		if [ "$mode" = follow ]; then
			printf 'P=(%q --follow --spread --)\n' "$PINRUN"
		else
			echo 'P=()'
		fi
		printf 'S=%q\nH=%q\nLOG=%q\nOUT=%q\n' "$HELPERS/sigcount" "$HELPERS" "$LOG" "$OUT"
	} >"$rc"
	TM_SOCKS+=("$TM")
	tmux -L "$TM" -f /dev/null new-session -d -s t -x 200 -y 50 \
		"exec env -i PATH='$PATH' TERM=screen HOME='$HOME' LC_ALL=C bash --noprofile --rcfile '$rc' -i" 3>&- ||
		fail "tmux did not start"
	tm_wait_prompt
}

# (a server that ended with its last pane is no failure; one still there is)
tm_stop() {
	tmux -L "$TM" kill-server 2>/dev/null || ! tmux -L "$TM" has-session 2>/dev/null
}

tm_screen() {
	tmux -L "$TM" capture-pane -p -t t | sed 's/ *$//'
}

# Type a line, then Enter.
tm_type() {
	tmux -L "$TM" send-keys -t t -l -- "$1"
	tmux -L "$TM" send-keys -t t Enter
}

tm_key() {
	tmux -L "$TM" send-keys -t t "$1"
}

# Wait up to 5 s until a line of the screen matches the extended regular
# expression $1, $2 times (default once).
tm_wait() {
	local i n=${2:-1} screen
	for ((i = 0; i < 100; i++)); do
		screen=$(tm_screen)
		[ "$(grep -cE -- "$1" <<<"$screen")" -lt "$n" ] || return 0
		sleep 0.05
	done
	fail "no '$1' (x$n) on the screen after 5 s:
$screen"
}

# Wait until the shell shows its prompt again: the last line is "$".
tm_wait_prompt() {
	local i screen
	for ((i = 0; i < 100; i++)); do
		screen=$(tm_screen)
		[ "$(tail -n 1 <<<"$screen")" != '$' ] || return 0
		sleep 0.05
	done
	fail "no prompt after 5 s:
$screen"
}

# The value of NAME=VALUE in the last screen line that has it.
tm_value() {
	tm_screen | grep -oE "$1=[0-9]+" | tail -n 1 | cut -d= -f2
}

# Run the function $1 in a fresh terminal without pinrun, then with pinrun
# --follow; BASE and GOT are the normalized screens, followed by the
# background output (OUT) when there is some.
twice() {
	local mode
	for mode in baseline follow; do
		"$1" "$mode"
		SCREEN=$(tm_screen)
		[ ! -e "$OUT" ] || SCREEN+=$'\n--- background output\n'$(cat "$OUT")
		SCREEN=$(normalize <<<"$SCREEN")
		tm_stop
		if [ "$mode" = follow ]; then GOT=$SCREEN; else BASE=$SCREEN; fi
	done
}

# Wait for sigcount's "ready" in OUT; PID is its pid.
out_ready() {
	eventually 'grep -q "^ready pid=" "$OUT"'
	PID=$(sed -nE 's/^ready pid=([0-9]+).*/\1/p' "$OUT")
	KILL+=("$PID")
}

# ===========================================================================
# Exit statuses (rows 1-8)

@test "follow 1: pinrun --follow true: status 0, no output" {
	needs_ptrace
	run --separate-stderr "$PINRUN" --follow --spread -- true
	assert_success
	assert_output ""
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "follow 2: sh -c 'exit 1' returns 1" {
	needs_ptrace
	run --separate-stderr "$PINRUN" --follow --spread -- sh -c 'exit 1'
	assert_failure 1
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "follow 3: sh -c 'exit 42' returns 42" {
	needs_ptrace
	run --separate-stderr "$PINRUN" --follow --spread -- sh -c 'exit 42'
	assert_failure 42
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "follow 4: a command that does not exist: 127, the message names it" {
	needs_ptrace
	# (a PATH every user may search: a directory that cannot be searched
	# makes it 126, as for env)
	run -127 --separate-stderr env PATH=/usr/bin:/bin "$PINRUN" --follow --spread -- pinrun-no-such-command
	assert_failure 127
	assert_output ""
	[ "$stderr" = "pinrun: cannot run 'pinrun-no-such-command': No such file or directory" ] || fail "stderr: $stderr"
}

@test "follow 5: an existing file that is not executable: 126" {
	needs_ptrace
	local f=$BATS_TEST_TMPDIR/noexec.sh
	echo 'echo hi' >"$f"
	chmod 644 "$f"
	run --separate-stderr "$PINRUN" --follow --spread -- "$f"
	assert_failure 126
	assert_output ""
	[ "$stderr" = "pinrun: cannot run '$f': Permission denied" ] || fail "stderr: $stderr"
}

@test "follow 6: killed by SIGTERM: waitpid sees signal 15, bash says Terminated as without pinrun" {
	needs_ptrace
	run --separate-stderr "$HELPERS/waiter" "$PINRUN" --follow --spread -- sh -c 'kill -TERM $$'
	assert_success
	assert_output "signaled 15"
	bash_reports sh -c 'kill -TERM $$'
	[[ "$BASE" == *"Terminated"*"status=143" ]] || fail "baseline: $BASE"
	assert_equal "$GOT" "$BASE"
}

@test "follow 7: killed by SIGKILL: signal 9, bash says Killed as without pinrun" {
	needs_ptrace
	run --separate-stderr "$HELPERS/waiter" "$PINRUN" --follow --spread -- sh -c 'kill -KILL $$'
	assert_success
	assert_output "signaled 9"
	bash_reports sh -c 'kill -KILL $$'
	[[ "$BASE" == *"Killed"*"status=137" ]] || fail "baseline: $BASE"
	assert_equal "$GOT" "$BASE"
}

@test "follow 8: SIGSEGV with cores on: 139, one core (the command's), (core dumped) as without pinrun" {
	needs_ptrace
	local pattern d
	pattern=$(cat /proc/sys/kernel/core_pattern)
	[[ "$pattern" != "|"* && "$pattern" != */* ]] || skip_unless_works "core_pattern sends cores elsewhere: $pattern"
	(ulimit -c unlimited) 2>/dev/null || skip_unless_works "cannot raise the core size limit"
	mkdir "$BATS_TEST_TMPDIR/waiter"
	# Built with ASan (make SAN=1), pinrun and the helpers would set their
	# core limit to 0 at start, and the command would inherit it.
	local asan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}disable_coredump=0
	(cd "$BATS_TEST_TMPDIR/waiter" && ulimit -c unlimited &&
		ASAN_OPTIONS=$asan "$HELPERS/waiter" "$PINRUN" --follow --spread -- sh -c 'kill -SEGV $$') >"$BATS_TEST_TMPDIR/waited"
	BASH_PRE="ulimit -c unlimited; export ASAN_OPTIONS=$asan; "
	bash_reports sh -c 'kill -SEGV $$'
	[[ "$BASE" == *"Segmentation fault"*"(core dumped)"*"status=139" ]] || fail "baseline: $BASE"
	assert_equal "$GOT" "$BASE"
	assert_equal "$(cat "$BATS_TEST_TMPDIR/waited")" "signaled 11 core"
	for d in base got waiter; do
		run ls "$BATS_TEST_TMPDIR/$d"
		assert_output --regexp '^core(\.[0-9]+)?$'
	done
	if command -v file >/dev/null; then
		run file "$BATS_TEST_TMPDIR/got/"core*
		assert_output --partial "from 'sh -c kill -SEGV"
	fi
}

# ===========================================================================
# Job control in a terminal (rows 9-18, 21)

sleep_ctrl_c() {
	tm_start "$1"
	tm_type '"$H/waiter" "${P[@]}" sh -c '\''echo started; exec sleep 30'\'''
	tm_wait '^started$'
	tm_key C-c
	tm_wait '(signaled|exited) [0-9]+'
	tm_wait_prompt
	tm_type '"${P[@]}" sh -c '\''echo started; exec sleep 30'\'''
	tm_wait '^started$' 2
	# (the prompt must come back while sleep 30 would still run:
	# tm_wait_prompt gives it 5 s)
	tm_key C-c
	tm_wait_prompt
	tm_type 'echo rc=$?'
	tm_wait '^rc=[0-9]+$'
}

@test "follow 9: Ctrl-C on pinrun --follow sleep: killed by SIGINT, 130 at once" {
	needs_ptrace
	twice sleep_ctrl_c
	assert_equal "$GOT" "$BASE"
	grep -qE '(^|\^C)signaled 2$' <<<"$GOT" || fail "$GOT"
	grep -qx 'rc=130' <<<"$GOT" || fail "$GOT"
}

loop_ctrl_c() {
	tm_start "$1"
	tm_type 'for i in 1 2 3; do "${P[@]}" sh -c '\''echo started; exec sleep 30'\''; echo "i=$i"; done; echo end'
	tm_wait '^started$'
	tm_key C-c
	# A loop that went on would hold the terminal: no prompt.
	tm_wait_prompt
	tm_type 'echo rc=$?'
	tm_wait '^rc=[0-9]+$'
}

@test "follow 10: Ctrl-C in a for loop of pinrun --follow ends the loop" {
	needs_ptrace
	twice loop_ctrl_c
	assert_equal "$GOT" "$BASE"
	! grep -qE '^(i=[0-9]|end)$' <<<"$GOT" || fail "the loop went on: $GOT"
	[ "$(grep -c '^started$' <<<"$GOT")" -eq 1 ] || fail "$GOT"
	grep -qx 'rc=130' <<<"$GOT" || fail "$GOT"
}

sigcount_ctrl_c() {
	tm_start "$1"
	tm_type '"${P[@]}" "$S"; echo rc=$?'
	tm_wait 'ready pid='
	PID=$(tm_value pid)
	KILL+=("$PID")
	tm_key C-c
	tm_wait 'got INT$'
	sleep 0.2
	ALIVE=$(state_of "$PID")
	tm_type counts
	tm_wait 'INT=[0-9]+ TERM=[0-9]+ CONT=[0-9]+ TSTP=[0-9]+$'
	tm_key C-d
	tm_wait '^rc=[0-9]+$'
}

@test "follow 11: Ctrl-C on sigcount: INT counted once, the command goes on" {
	needs_ptrace
	twice sigcount_ctrl_c
	assert_equal "$GOT" "$BASE"
	[ "$(grep -c 'got INT$' <<<"$GOT")" -eq 1 ] || fail "$GOT"
	[ "$(grep -c 'INT=1 TERM=0 CONT=0 TSTP=0$' <<<"$GOT")" -eq 2 ] || fail "$GOT"
	[[ "$ALIVE" == [RS] ]] || fail "after Ctrl-C the command is '$ALIVE'"
	grep -qx 'rc=0' <<<"$GOT" || fail "$GOT"
}

bg_term() {
	tm_start "$1"
	tm_type '"${P[@]}" "$S" -n >"$OUT" &'
	out_ready
	tm_type 'echo bang=$!; kill -TERM $!; wait $!; echo rc=$?'
	tm_wait '^rc=[0-9]+$'
	BANG=$(tm_value bang)
	tm_wait_prompt
}

@test "follow 12: kill -TERM \$! of a background pinrun --follow sigcount: TERM once, status 0" {
	needs_ptrace
	twice bg_term
	assert_equal "$GOT" "$BASE"
	[ "$BANG" = "$PID" ] || fail "\$! is $BANG, the command is $PID"
	[ "$(grep -c 'got TERM$' <<<"$GOT")" -eq 1 ] || fail "$GOT"
	grep -q 'INT=0 TERM=1 CONT=0 TSTP=0$' <<<"$GOT" || fail "$GOT"
	grep -qx 'rc=0' <<<"$GOT" || fail "$GOT"
}

group_term() {
	tm_start "$1"
	tm_type '"${P[@]}" "$S" -n; echo rc=$?'
	tm_wait 'ready pid='
	PID=$(tm_value pid)
	PGID=$(tm_value pgid)
	KILL+=("$PID")
	# From another shell (this test's), to the job's process group.
	kill -TERM -- "-$PGID"
	tm_wait '^rc=[0-9]+$'
}

@test "follow 13a: kill -TERM -PGID of the job from another shell: TERM once" {
	needs_ptrace
	twice group_term
	assert_equal "$GOT" "$BASE"
	[ "$PGID" = "$PID" ] || fail "the job's group is $PGID, the command $PID"
	[ "$(grep -c 'got TERM$' <<<"$GOT")" -eq 1 ] || fail "$GOT"
	grep -q 'INT=0 TERM=1 CONT=0 TSTP=0$' <<<"$GOT" || fail "$GOT"
	grep -qx 'rc=0' <<<"$GOT" || fail "$GOT"
}

# The terminal closes (tmux kill-server, an ssh disconnect): the kernel
# sends SIGHUP to the session's leader alone, here the pane's program.
@test "follow 13c: pinrun leads the terminal's session: a hangup reaches the command, with and without --wait-all, as without pinrun (issue 31)" {
	needs_ptrace
	command -v tmux >/dev/null || skip_unless_works "no tmux"
	local d=$BATS_TEST_TMPDIR mode pre pid
	for mode in plain follow wait-all; do
		case $mode in
		plain) pre= ;;
		follow) pre=$(printf '%q --follow --spread --' "$PINRUN") ;;
		wait-all) pre=$(printf '%q --follow --wait-all --spread --' "$PINRUN") ;;
		esac
		TM=pf-$$-$BATS_TEST_NUMBER-$mode
		TM_SOCKS+=("$TM")
		tmux -L "$TM" -f /dev/null new-session -d -s t \
			"$pre sh -c 'trap \"echo hup >\$0; exit 9\" HUP; echo \$\$ >\$1; while :; do sleep 0.05; done' $d/hup-$mode $d/pid-$mode" 3>&- ||
			fail "tmux did not start"
		eventually "[ -s $d/pid-$mode ]"
		pid=$(cat "$d/pid-$mode")
		KILL+=("$pid")
		# The trap is set before the pid is written.
		tmux -L "$TM" kill-server
		eventually "[ -s $d/hup-$mode ]"
		assert_equal "$mode $(cat "$d/hup-$mode")" "$mode hup"
		eventually "[ ! -d /proc/$pid ] || [ \"\$(state_of $pid)\" = Z ]"
	done
}

@test "follow 13b: as PID 1 (pinrun the parent), kill -TERM -PGID: TERM counted, never lost" {
	needs_ptrace
	needs_pidns
	local out=$BATS_TEST_TMPDIR/out u pinrun s more
	# setsid makes pinrun (PID 1 inside) lead a process group of its own.
	unshare -fp --mount-proc setsid "$PINRUN" --follow --spread -- "$HELPERS/sigcount" -n </dev/null >"$out" 2>&1 3>&- &
	u=$!
	KILL+=("$u")
	eventually 'grep -q "^ready" "$out"'
	pinrun=$(pgrep -P "$u")
	mapfile -t more < <(pgrep -P "$pinrun")
	KILL+=("$pinrun" "${more[@]}")
	kill -TERM -- "-$pinrun"
	wait "$u" && s=0 || s=$?
	[ "$s" -eq 0 ] || fail "status $s: $(cat "$out")"
	# As the parent, pinrun cannot tell a kill of its group from one of its
	# pid, and may pass the signal on a second time; one
	# is right, none would be a lost signal.
	run grep -c '^got TERM$' "$out"
	[[ "$output" == [12] ]] || fail "$(cat "$out")"
	grep -qE '^INT=0 TERM=[12] CONT=0 TSTP=0$' "$out" || fail "$(cat "$out")"
}

ctrl_z() {
	tm_start "$1"
	tm_type '"${P[@]}" "$S"'
	tm_wait 'ready pid='
	PID=$(tm_value pid)
	KILL+=("$PID")
	tm_key C-z
	tm_wait 'Stopped'
	tm_wait_prompt
	STATE=$(state_of "$PID")
	tm_type 'jobs'
	tm_wait_prompt
	if [ "${2:-}" = fg ]; then
		tm_type fg
		tm_wait 'got CONT$'
		tm_type 'hello'
		tm_wait '^line: hello$'
		sleep 0.3
		AFTER=$(state_of "$PID")
		tm_key C-d
		tm_wait 'INT=[0-9]+ TERM=[0-9]+ CONT=[0-9]+ TSTP=[0-9]+$'
		tm_wait_prompt
		tm_type 'echo rc=$?'
		tm_wait '^rc=[0-9]+$'
	fi
}

@test "follow 14: Ctrl-Z on sigcount: the handler runs, the shell says Stopped, the command is stopped" {
	needs_ptrace
	twice ctrl_z
	assert_equal "$GOT" "$BASE"
	grep -q 'got TSTP$' <<<"$GOT" || fail "$GOT"
	# The handler ran at Ctrl-Z time, before the shell saw the stop.
	[ "$(grep -nE 'got TSTP$' <<<"$GOT" | cut -d: -f1)" -lt "$(grep -nE 'Stopped' <<<"$GOT" | head -1 | cut -d: -f1)" ] || fail "$GOT"
	[[ "$STATE" == [Tt] ]] || fail "the command's state is '$STATE', not stopped"
}

ctrl_z_fg() {
	ctrl_z "$1" fg
}

@test "follow 15: then fg: CONT once, input read again, not stopped again" {
	needs_ptrace
	twice ctrl_z_fg
	assert_equal "$GOT" "$BASE"
	[ "$(grep -c 'got CONT$' <<<"$GOT")" -eq 1 ] || fail "$GOT"
	grep -q 'INT=0 TERM=0 CONT=1 TSTP=1$' <<<"$GOT" || fail "$GOT"
	[[ "$AFTER" == [RS] ]] || fail "after fg the command is '$AFTER'"
	grep -qx 'rc=0' <<<"$GOT" || fail "$GOT"
}

stop_cont() {
	tm_start "$1"
	tm_type '"${P[@]}" "$S" -n >"$OUT" &'
	out_ready
	kill -STOP "$PID"
	STATES=
	local i
	for ((i = 0; i < 10; i++)); do
		sleep 0.1
		STATES+=$(state_of "$PID")
	done
	kill -CONT "$PID"
	eventually 'grep -q "^got CONT$" "$OUT"'
	RESUMED=$(state_of "$PID")
	tm_type 'kill -TERM %1; wait %1; echo rc=$?'
	tm_wait '^rc=[0-9]+$'
}

@test "follow 16: kill -STOP, 1 s, kill -CONT: stopped the whole second, then running" {
	needs_ptrace
	twice stop_cont
	assert_equal "$GOT" "$BASE"
	[[ "$STATES" =~ ^[Tt]{10}$ ]] || fail "states during the stop: $STATES"
	[[ "$RESUMED" == [RS] ]] || fail "after SIGCONT: $RESUMED"
	grep -q 'INT=0 TERM=1 CONT=1 TSTP=0$' <<<"$GOT" || fail "$GOT"
	grep -qx 'rc=0' <<<"$GOT" || fail "$GOT"
}

self_stop() {
	tm_start "$1"
	tm_type '"${P[@]}" sh -c '\''echo before; kill -STOP $$; echo resumed'\'''
	tm_wait 'Stopped'
	tm_wait_prompt
	tm_type fg
	tm_wait '^resumed$'
	tm_wait_prompt
	tm_type 'echo rc=$?'
	tm_wait '^rc=[0-9]+$'
}

@test "follow 17: a command that stops itself with SIGSTOP: shown stopped, fg resumes it" {
	needs_ptrace
	twice self_stop
	assert_equal "$GOT" "$BASE"
	grep -qE '^\[1\]\+ +Stopped' <<<"$GOT" || fail "$GOT"
	grep -qx 'rc=0' <<<"$GOT" || fail "$GOT"
}

tty_input() {
	tm_start "$1"
	# The shell waits in the foreground until it has seen the job stop,
	# so that it reports the stop at its next prompt whatever the timing
	# (ps would say t for a moment at the exec, while the helper holds it).
	tm_type '"${P[@]}" cat & until [ -n "$(jobs -s)" ]; do sleep 0.05; done'
	tm_wait 'Stopped'
	tm_wait_prompt
	PID=$(tm_screen | sed -nE 's/^\[1\] ([0-9]+)$/\1/p' | tail -n 1)
	KILL+=("$PID")
	STATE=$(state_of "$PID")
	tm_type fg
	tm_wait '^"\$\{P\[@\]\}" cat$'
	tm_type 'typed line'
	tm_wait '^typed line$' 2
	tm_key C-d
	tm_wait_prompt
	tm_type 'echo rc=$?'
	tm_wait '^rc=[0-9]+$'
}

@test "follow 18: a background pinrun --follow cat reading the terminal: stopped (tty input), fg then reads" {
	needs_ptrace
	twice tty_input
	assert_equal "$GOT" "$BASE"
	[[ "$STATE" == [Tt] ]] || fail "the background cat is '$STATE', not stopped"
	grep -qE '^\[1\]\+ +Stopped' <<<"$GOT" || fail "$GOT"
	grep -qx 'rc=0' <<<"$GOT" || fail "$GOT"
}

# ===========================================================================
# Pipes and substitutions (rows 19-21)

@test "follow 19: pipes and redirections reach the command unchanged" {
	needs_ptrace
	run --separate-stderr bash -c 'echo hello | "$@"' bash "$PINRUN" --follow --spread -- cat
	assert_success
	assert_output "hello"
	printf 'a\nb\n' >"$BATS_TEST_TMPDIR/in"
	run --separate-stderr "$PINRUN" --follow --spread -- cat <"$BATS_TEST_TMPDIR/in"
	assert_success
	assert_output "a
b"
	run --separate-stderr bash -c 'printf "1\n2\n" | "$@" | cat' bash "$PINRUN" --follow --spread -- sort -r
	assert_success
	assert_output "2
1"
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "follow 20: x=\$(pinrun --follow echo hi) is hi and returns at once" {
	needs_ptrace
	local x pid pidf=$BATS_TEST_TMPDIR/bg.pid
	x=$("$PINRUN" --follow --spread -- echo hi)
	[ "$x" = hi ] || fail "x='$x'"
	# A survivor with its own output: the substitution ends with the
	# command, so the tracer holds neither stdout nor stderr.
	# (the survivor outlives the test: returning at all is the check;
	# stderr too: the one note on the survivor comes before the end)
	x=$("$PINRUN" --follow --spread -- sh -c 'echo hi; sleep 600 </dev/null >/dev/null 2>&1 & echo $! >"$1"' sh "$pidf" 2>&1)
	x=$(drop_nnp_note "$x")
	pid=$(cat "$pidf")
	KILL+=("$pid")
	[ "$x" = "hi
pinrun: note: 1 process still running when the command ended, let go on CPUs $(allowed_of "$pid") (the whole placement); --wait-all keeps following them" ] || fail "x='$x'"
	[ -d "/proc/$pid" ] && [ "$(state_of "$pid")" != Z ] || fail "the survivor ended first: something kept the substitution's pipe open"
}

typed_line() {
	tm_start "$1"
	tm_type '"${P[@]}" "$S"'
	tm_wait 'ready pid='
	KILL+=("$(tm_value pid)")
	tm_type 'hello world'
	tm_wait '^line: hello world$'
	tm_key C-d
	tm_wait 'INT=[0-9]+ TERM=[0-9]+ CONT=[0-9]+ TSTP=[0-9]+$'
	tm_wait_prompt
	tm_type 'echo rc=$?'
	tm_wait '^rc=[0-9]+$'
}

@test "follow 21: interactive input in a terminal: the typed line is read" {
	needs_ptrace
	twice typed_line
	assert_equal "$GOT" "$BASE"
	grep -q 'INT=0 TERM=0 CONT=0 TSTP=0$' <<<"$GOT" || fail "$GOT"
	grep -qx 'rc=0' <<<"$GOT" || fail "$GOT"
}

# ===========================================================================
# Survivors (rows 22-24)

@test "follow 22: a double-forked survivor: status at once, the survivor untraced on the whole placement, one note" {
	needs_ptrace
	load_slots --spread
	local pidf=$BATS_TEST_TMPDIR/sleep.pid pid
	# stdout and stderr together, read to their end: the helper's note
	# comes once the command has ended, before it lets go of stderr.
	run "$PINRUN" --follow --spread -- sh -c '(sleep 600 </dev/null >/dev/null 2>&1 & echo $! >"$1"); exit 3' sh "$pidf"
	pid=$(cat "$pidf")
	KILL+=("$pid")
	assert_failure 3
	output=$(drop_nnp_note "$output")
	assert_output "pinrun: note: 1 process still running when the command ended, let go on CPUs $CPUS (the whole placement); --wait-all keeps following them"
	[ -d "/proc/$pid" ] && [ "$(state_of "$pid")" != Z ] || fail "the survivor ended first"
	[ -d "/proc/$pid" ] || fail "the survivor is gone"
	eventually '[ "$(tracer_of "$pid")" = 0 ]'
	# As a plain run has it: pinrun moved it there before letting go.
	[ "$(allowed_of "$pid")" = "$CPUS" ] || fail "the survivor is on $(allowed_of "$pid"), not $CPUS"
	[ "$(state_of "$pid")" = S ] || fail "the survivor is $(state_of "$pid")"
}

@test "follow 23: --wait-all: the status comes only after the survivor ends" {
	needs_ptrace
	local pidf=$BATS_TEST_TMPDIR/sleep.pid pid
	run --separate-stderr "$PINRUN" --follow --wait-all --spread -- sh -c '(sleep 1 </dev/null >/dev/null 2>&1 & echo $! >"$1"); exit 3' sh "$pidf"
	pid=$(cat "$pidf")
	KILL+=("$pid")
	assert_failure 3
	[ -z "$stderr" ] || fail "stderr: $stderr"
	# Ended: gone, or a zombie that its new parent has yet to reap.
	[ ! -d "/proc/$pid" ] || [ "$(state_of "$pid")" = Z ] || fail "the survivor still runs"
}

@test "follow 23b: the report's ppid of the command is its real parent, with and without --wait-all" {
	needs_ptrace
	local r=$BATS_TEST_TMPDIR/r w opts
	for w in plain --wait-all; do
		rm -f "$r"
		opts=()
		[ "$w" = plain ] || opts=("$w")
		run --separate-stderr "$PINRUN" --follow "${opts[@]}" --spread --report "$r" -- sh -c 'echo $PPID'
		assert_success
		[[ "$output" =~ ^[0-9]+$ ]] || fail "output: $output"
		grep -q "^{\"version\":1,\"pid\":[0-9]*,\"ppid\":$output," "$r" || fail "$w: parent $output, report: $(cat "$r")"
	done
}

@test "follow 24: a setsid daemon's later children inherit its CPUs (the whole placement), nothing hangs" {
	needs_ptrace
	load_slots --spread
	local d=$BATS_TEST_TMPDIR pid
	cat >"$d/daemon" <<'EOF'
echo $$ >"$1/daemon.pid"
sleep 0.5
exec "$2" 2 >"$1/daemon.out" 2>&1
EOF
	run --separate-stderr "$PINRUN" --follow --spread -- sh -c 'setsid sh "$1/daemon" "$1" "$2" </dev/null >/dev/null 2>&1 3>&- & exit 0' sh "$d" "$HELPERS/probe"
	assert_success
	eventually '[ -s "$d/daemon.pid" ]'
	pid=$(cat "$d/daemon.pid")
	KILL+=("$pid")
	eventually '[ "$(tracer_of "$pid")" = 0 ] || [ ! -d "/proc/$pid" ]'
	eventually '[ "$(grep -c cpus= "$d/daemon.out" 2>/dev/null)" = 3 ]'
	mapfile -t lines <"$d/daemon.out"
	# Let go on the whole placement, as a plain run has it.
	assert_on "${lines[0]}" "$(expand "$CPUS")"
	assert_on "${lines[1]}" "$WHERE"
	assert_on "${lines[2]}" "$WHERE"
}

# ===========================================================================
# Placement (rows 25-30)

@test "follow 25a: --spread, 8 children at once: each first sees one slot, all slots used" {
	needs_ptrace
	load_slots --spread
	run --separate-stderr "$PINRUN" --follow --spread -- "$HELPERS/probe" 8
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[ "${#lines[@]}" -eq 9 ] || fail "$output"
	# The command keeps the whole placement; its children get the slots.
	assert_on "${lines[0]}" "$(expand "$CPUS")"
	for ((i = 1; i <= 8; i++)); do
		assert_line --regexp "^child $i cpu="
		assert_one_slot "$(grep "^child $i " <<<"$output")"
	done
	[ "$(distinct child)" -eq "$(min 8 "$NSLOTS")" ] || fail "children at the same time share slots while others are free:
$output
slots: ${SLOTS//$'\n'/ }"
}

@test "follow 25b: one after another (fork, posix_spawn): each child on one slot" {
	needs_ptrace
	load_slots --spread
	for mode in -s -p; do
		run --separate-stderr "$PINRUN" --follow --spread -- "$HELPERS/probe" "$mode" 4
		assert_success
		[ -z "$stderr" ] || fail "stderr: $stderr"
		[ "${#lines[@]}" -eq 5 ] || fail "$output"
		assert_on "${lines[0]}" "$(expand "$CPUS")"
		for ((i = 1; i <= 4; i++)); do
			assert_one_slot "${lines[i]}"
		done
	done
}

@test "follow 25c: the slots are those of --json for --cpus, --same-chip, --same-numa" {
	needs_ptrace
	for policy in "--cpus=$ALLOWED" --same-chip --same-numa; do
		load_slots "$policy"
		run --separate-stderr "$PINRUN" --follow "$policy" -- "$HELPERS/probe" "$NSLOTS"
		assert_success
		[ -z "$stderr" ] || fail "$policy: stderr: $stderr"
		assert_on "${lines[0]}" "$(expand "$CPUS")"
		for ((i = 1; i <= NSLOTS; i++)); do
			assert_one_slot "${lines[i]}"
		done
		[ "$(distinct child)" -eq "$NSLOTS" ] || fail "$policy: $output
slots: ${SLOTS//$'\n'/ }"
	done
}

@test "follow 26: --hot: every child on the one CPU, also where ptrace is denied" {
	needs_ptrace
	load_slots --hot="$FIRST"
	[ "$NSLOTS" -eq 1 ] && [ "$SLOT0" = "$FIRST" ] || fail "--hot=$FIRST slots: $SLOTS"
	run --separate-stderr "$PINRUN" --follow --hot="$FIRST" -- "$HELPERS/probe" 4
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	for ((i = 0; i <= 4; i++)); do
		assert_on "${lines[i]}" "$FIRST"
	done
	run --separate-stderr "$HELPERS/seccomp_noptrace" "$PINRUN" --follow --hot="$FIRST" -- "$HELPERS/probe" 4
	assert_success
	[ "${#lines[@]}" -eq 5 ] || fail "$output"
	for ((i = 0; i <= 4; i++)); do
		assert_on "${lines[i]}" "$FIRST"
	done
	# Whether pinrun warns here is its choice: nothing, or the one warning.
	[ -z "$stderr" ] || [[ "$stderr" =~ $(warning_re "$FIRST") ]] || fail "stderr: $stderr"
}

@test "follow 27: 8 threads each fork a child: children on slots; threads only with --threads" {
	needs_ptrace
	load_slots --spread
	run --separate-stderr "$PINRUN" --follow --spread -- "$HELPERS/threadfork"
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[ "${#lines[@]}" -eq 16 ] || fail "$output"
	for ((i = 1; i <= 8; i++)); do
		# The command's threads: its whole placement, as plainly.
		assert_on "$(grep "^thread $i " <<<"$output")" "$(expand "$CPUS")"
		assert_one_slot "$(grep "^child $i " <<<"$output")"
	done
	[ "$(distinct child)" -eq "$(min 8 "$NSLOTS")" ] || fail "$output"
	run --separate-stderr "$PINRUN" --follow --threads --spread -- "$HELPERS/threadfork"
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[ "${#lines[@]}" -eq 16 ] || fail "$output"
	for ((i = 1; i <= 8; i++)); do
		assert_one_slot "$(grep "^thread $i " <<<"$output")"
		assert_one_slot "$(grep "^child $i " <<<"$output")"
	done
	[ "$(distinct thread)" -eq "$(min 8 "$NSLOTS")" ] || fail "threads at the same time share slots: $output"
}

@test "follow 28: a dash loop of 1000 /bin/true (vfork): all pinned, no deadlock, status kept" {
	needs_ptrace
	load_slots --spread
	local script='i=0
while [ $i -lt 1000 ]; do
	/bin/true
	[ $((i % 100)) -ne 0 ] || "$1" 0
	i=$((i + 1))
done
exit 9'
	run --separate-stderr timeout 60 "$PINRUN" --follow --spread -- sh -c "$script" sh "$HELPERS/probe"
	assert_failure 9
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[ "${#lines[@]}" -eq 10 ] || fail "$output"
	for line in "${lines[@]}"; do
		assert_one_slot "$line"
	done
}

@test "follow 29: execve from a non-leader thread: the new image's status, on the thread's CPU" {
	needs_ptrace
	load_slots --spread
	local r=$BATS_TEST_TMPDIR/report probe
	probe=$(realpath "$HELPERS/probe")
	run --separate-stderr "$PINRUN" --follow --threads --report "$r" --spread -- "$HELPERS/threadexec" "$HELPERS/probe" -x 6 0
	assert_failure 6
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[ "${#lines[@]}" -eq 3 ] || fail "$output"
	assert_on "${lines[0]}" "$(expand "$CPUS")"
	assert_line --index 1 --regexp '^thread '
	assert_one_slot "${lines[1]}"
	assert_line --index 2 --regexp '^main '
	assert_on "${lines[2]}" "$WHERE"
	# One process, reported once, under the new image, status 6.
	[ "$(wc -l <"$r")" -eq 1 ] || fail "report: $(cat "$r")"
	grep -q "\"program\":\"$probe\",.*\"status\":6,\"signal\":null," "$r" || fail "report: $(cat "$r")"
	# The new image runs where the thread ran, and the report says so
	# (not the command's whole placement, the leader's CPUs).
	[[ "${lines[1]}" =~ cpus=([^ ]+) ]] || fail "${lines[1]}"
	grep -q "\"cpus\":\"${BASH_REMATCH[1]}\"," "$r" || fail "thread on ${BASH_REMATCH[1]}, report: $(cat "$r")"
	# Without --threads the command's thread and the new image keep the
	# command's CPUs, the whole placement.
	run --separate-stderr "$PINRUN" --follow --spread -- "$HELPERS/threadexec" "$HELPERS/probe" -x 6 0
	assert_failure 6
	[ "${#lines[@]}" -eq 3 ] || fail "$output"
	assert_on "${lines[1]}" "$(expand "$CPUS")"
	assert_on "${lines[2]}" "$(expand "$CPUS")"
}

@test "follow 30: clone with exit signal 0 (CLONE_VM) and raw clone3 are followed and pinned" {
	needs_ptrace
	load_slots --spread
	run "$HELPERS/rawclone"
	[ "${lines[1]:-}" != "clone3 unsupported" ] || skip_unless_works "this kernel has no clone3"
	run --separate-stderr "$PINRUN" --follow --spread -- "$HELPERS/rawclone"
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[ "${#lines[@]}" -eq 2 ] || fail "$output"
	assert_line --index 0 --regexp '^clone '
	assert_one_slot "${lines[0]}"
	assert_line --index 1 --regexp '^clone3 '
	assert_one_slot "${lines[1]}"
}

# ===========================================================================
# Tracers, privileges, PID 1 (rows 31-38)

@test "follow 31: pinrun --follow strace -o /dev/null true works (strace let go)" {
	needs_ptrace
	command -v strace >/dev/null || skip_unless_works "no strace"
	run --separate-stderr "$PINRUN" --follow --spread -- strace -o /dev/null true
	assert_success
	assert_output ""
	# (unprivileged, strace's child may still run when strace, a tracer,
	# is let go: then the note on no_new_privs, right there)
	[ -z "$(drop_nnp_note "$stderr")" ] || fail "stderr: $stderr"
}

@test "follow 32: a program that calls PTRACE_TRACEME works as without pinrun, also deeper down" {
	needs_ptrace
	needs_notify
	run --separate-stderr "$PINRUN" --follow --spread -- "$HELPERS/traceme"
	assert_success
	assert_output "PTRACE_TRACEME: ok"
	[ -z "$(drop_nnp_note "$stderr")" ] || fail "stderr: $stderr"
	run --separate-stderr "$PINRUN" --follow --spread -- sh -c '/bin/true; "$1"; echo "status $?"' sh "$HELPERS/traceme"
	assert_success
	assert_output "PTRACE_TRACEME: ok
status 0"
	[ -z "$(drop_nnp_note "$stderr")" ] || fail "stderr: $stderr"
}

@test "follow 33: under strace -f: one warning, status 7, the whole placement inherited" {
	needs_ptrace
	command -v strace >/dev/null || skip_unless_works "no strace"
	load_slots --spread
	run --separate-stderr strace -f -o /dev/null "$PINRUN" --follow --spread -- sh -c 'awk "/^Cpus_allowed_list/ { print \$2 }" /proc/self/status; exit 7'
	assert_failure 7
	assert_output "$CPUS"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "stderr: $stderr"
	[[ "$stderr" =~ $(warning_re "$CPUS") ]] || fail "stderr: $stderr"
}

@test "follow 34: pinrun --follow pinrun --follow: the inner policy applies below it" {
	needs_ptrace
	local inner
	load_slots --spread
	# The inner pinrun, a child of the command, starts on the outer first
	# slot and plans there: with two CPUs or more its children would be on
	# other CPUs if the outer pinrun still placed them.
	inner=$(taskset -c "$SLOT0" "$PINRUN" --spread -n) || fail "$inner"
	inner=$(expand "$inner")
	run --separate-stderr "$PINRUN" --follow --spread -- sh -c '"$1" --follow --spread -- "$2" 2; exit 0' sh "$PINRUN" "$HELPERS/probe"
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[ "${#lines[@]}" -eq 3 ] || fail "$output"
	assert_on "${lines[0]}" "$inner"
	assert_on "${lines[1]}" "$inner"
	assert_on "${lines[2]}" "$inner"
}

@test "follow 35a: ptrace denied by seccomp: one warning, inheritance, status kept; =strict refuses" {
	load_slots --spread
	run --separate-stderr "$HELPERS/seccomp_noptrace" "$PINRUN" --follow --spread -- sh -c '"$1" 1; exit 3' sh "$HELPERS/probe"
	assert_failure 3
	[ "${#lines[@]}" -eq 2 ] || fail "$output"
	assert_on "${lines[0]}" "$(expand "$CPUS")"
	assert_on "${lines[1]}" "$(expand "$CPUS")"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "stderr: $stderr"
	[[ "$stderr" =~ $(warning_re "$CPUS") ]] || fail "stderr: $stderr"
	local reason=${BASH_REMATCH[1]}
	# LeakSanitizer (make SAN=1) needs ptrace to check pinrun's exit.
	run --separate-stderr env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$HELPERS/seccomp_noptrace" "$PINRUN" --follow=strict --spread -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 125
	assert_output ""
	[ ! -e "$BATS_TEST_TMPDIR/ran" ] || fail "the command ran"
	[ "$stderr" = "pinrun: --follow=strict: ptrace unavailable ($reason)" ] || fail "stderr: $stderr"
}

# SUID: a set-user-ID root copy of euid, in a directory that the user
# nobody can reach; NOBODY: the command that runs a command as nobody.
make_suid() {
	[ "$(id -u)" -eq 0 ] || skip_unless_works "needs root to make a set-user-ID root program"
	command -v setpriv >/dev/null || skip_unless_works "no setpriv"
	SUID_DIR=$(mktemp -d /tmp/pinrun-follow-suid.XXXXXX)
	SUID_DIR=$(realpath "$SUID_DIR")
	chmod 755 "$SUID_DIR"
	SUID=$SUID_DIR/euid
	cp "$HELPERS/euid" "$SUID"
	chown root:root "$SUID"
	chmod 4755 "$SUID"
	NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	run "${NOBODY[@]}" "$SUID"
	[ "$output" = 0 ] || skip_unless_works "set-user-ID programs do not work in $SUID_DIR ($output)"
}

@test "follow 36a: a set-user-ID main command runs unfollowed, with its privileges" {
	needs_ptrace
	make_suid
	load_slots --spread
	run --separate-stderr "${NOBODY[@]}" "$PINRUN" --follow --spread -- "$SUID"
	assert_success
	assert_output "0"
	[ "$stderr" = "pinrun: warning: --follow unavailable ($SUID is set-user-ID): children inherit CPUs $CPUS" ] || fail "stderr: $stderr"
}

@test "follow 36b: a set-user-ID program deeper down: one warning, it runs without privileges" {
	needs_ptrace
	make_suid
	run --separate-stderr "${NOBODY[@]}" "$PINRUN" --follow --spread -- sh -c '"$1"; exit 4' sh "$SUID"
	assert_failure 4
	assert_output "65534"
	[ "$stderr" = "pinrun: warning: $SUID is set-user-ID: it runs without its privileges under --follow; stopped following it" ] || fail "stderr: $stderr"
}

@test "follow 36c: a program made set-user-ID while the tree runs is judged again at its next exec" {
	needs_ptrace
	make_suid
	local later=$SUID_DIR/later st=0
	cp "$HELPERS/euid" "$later"
	chmod 755 "$later"
	mkfifo "$SUID_DIR/go"
	chmod 666 "$SUID_DIR/go"
	"${NOBODY[@]}" "$PINRUN" --follow --spread -- sh -c '"$1"; read -r x <"$2"; "$1"; exit 4' sh "$later" "$SUID_DIR/go" \
		>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
	local pid=$!
	KILL+=("$pid")
	eventually '[ -s "$BATS_TEST_TMPDIR/out" ]'
	# Same file, same content and mtime: only its change time tells.
	chmod 4755 "$later"
	echo >"$SUID_DIR/go"
	wait "$pid" || st=$?
	[ "$st" -eq 4 ] || fail "status $st"
	[ "$(cat "$BATS_TEST_TMPDIR/out")" = "65534
65534" ] || fail "output: $(cat "$BATS_TEST_TMPDIR/out")"
	[ "$(cat "$BATS_TEST_TMPDIR/err")" = "pinrun: warning: $later is set-user-ID: it runs without its privileges under --follow; stopped following it" ] || fail "stderr: $(cat "$BATS_TEST_TMPDIR/err")"
}

@test "follow 36d: pinrun as root, the command dropped to nobody: set-user-ID keeps euid 0" {
	needs_ptrace
	make_suid
	run --separate-stderr "$PINRUN" --follow --spread -- "${NOBODY[@]}" "$SUID"
	assert_success
	assert_output "0"
	# A root tracer does not cost the privileges; the warning may still
	# say that pinrun let the program go.
	[ -z "$stderr" ] || [ "$stderr" = "pinrun: warning: $SUID is set-user-ID: it runs without its privileges under --follow; stopped following it" ] || fail "stderr: $stderr"
}

# SGID: a copy of euid set-group-ID to group 1 (neither root's group nor
# nobody's); CAPS: one with the file capability cap_net_raw (CapEff
# 0000000000002000); both in SUID_DIR.
make_sgid_caps() {
	make_suid
	needs_program setcap
	SGID=$SUID_DIR/egid
	CAPS=$SUID_DIR/caps
	cp "$HELPERS/euid" "$SGID"
	cp "$HELPERS/euid" "$CAPS"
	chown root:1 "$SGID"
	chmod 2755 "$SGID"
	setcap cap_net_raw+ep "$CAPS" || skip_unless_works "setcap does not work in $SUID_DIR"
	run "${NOBODY[@]}" "$CAPS" -c
	[ "$output" = 0000000000002000 ] || skip_unless_works "file capabilities do not work in $SUID_DIR ($output)"
}

@test "follow 36e: as root, set-group-ID and file-capability programs are followed, nothing said" {
	needs_ptrace
	make_sgid_caps
	load_slots --spread
	run --separate-stderr "$PINRUN" --follow --spread -- "$SGID" -g
	assert_success
	assert_output 1
	[ -z "$stderr" ] || fail "stderr: $stderr"
	run --separate-stderr "$PINRUN" --follow --spread -- "$CAPS" -c
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	# Root keeps the privileges of what it runs as nobody, too.
	run --separate-stderr "$PINRUN" --follow --spread -- "${NOBODY[@]}" sh -c '"$1" -g; "$2" -c' sh "$SGID" "$CAPS"
	assert_success
	assert_output "1
0000000000002000"
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "follow 36f: unprivileged, a set-group-ID or file-capability program: the warning says which" {
	needs_ptrace
	make_sgid_caps
	load_slots --spread
	run --separate-stderr "${NOBODY[@]}" "$PINRUN" --follow --spread -- "$SGID" -g
	assert_success
	assert_output 1
	[ "$stderr" = "pinrun: warning: --follow unavailable ($SGID is set-group-ID): children inherit CPUs $CPUS" ] || fail "stderr: $stderr"
	run --separate-stderr "${NOBODY[@]}" "$PINRUN" --follow --spread -- "$CAPS" -c
	assert_success
	assert_output 0000000000002000
	[ "$stderr" = "pinrun: warning: --follow unavailable ($CAPS has file capabilities): children inherit CPUs $CPUS" ] || fail "stderr: $stderr"
	# Deeper down they run without their privileges, and pinrun says so.
	run --separate-stderr "${NOBODY[@]}" "$PINRUN" --follow --spread -- sh -c '"$1" -g; "$2" -c; exit 4' sh "$SGID" "$CAPS"
	assert_failure 4
	assert_output "65534
0000000000000000"
	[ "$stderr" = "pinrun: warning: $SGID is set-group-ID: it runs without its privileges under --follow; stopped following it
pinrun: warning: $CAPS has file capabilities: it runs without its privileges under --follow; stopped following it" ] || fail "stderr: $stderr"
}

@test "follow 36g: the set-user-ID check finds the command in PATH as execvp does" {
	needs_ptrace
	make_suid
	load_slots --spread
	# A directory of the same name earlier in PATH: execvp passes it by
	# (execve fails with EACCES) and runs the set-user-ID program.
	mkdir -p "$SUID_DIR/first/euid"
	chmod -R 755 "$SUID_DIR/first"
	run --separate-stderr env PATH="$SUID_DIR/first:$SUID_DIR:$PATH" "${NOBODY[@]}" "$PINRUN" --follow --spread -- euid
	assert_success
	assert_output 0
	[ "$stderr" = "pinrun: warning: --follow unavailable (euid is set-user-ID): children inherit CPUs $CPUS" ] || fail "stderr: $stderr"
	# An empty entry is the current directory.
	run --separate-stderr env -C "$SUID_DIR" PATH=":$PATH" "${NOBODY[@]}" "$PINRUN" --follow --spread -- euid
	assert_success
	assert_output 0
	[ "$stderr" = "pinrun: warning: --follow unavailable (euid is set-user-ID): children inherit CPUs $CPUS" ] || fail "stderr: $stderr"
}

@test "follow 37a: pinrun as PID 1: statuses 0, 1, 42 and 143 (SIGTERM)" {
	needs_ptrace
	needs_pidns
	run --separate-stderr unshare -fp --mount-proc "$PINRUN" --follow --spread -- true
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	run --separate-stderr unshare -fp --mount-proc "$PINRUN" --follow --spread -- sh -c 'exit 1'
	assert_failure 1
	run --separate-stderr unshare -fp --mount-proc "$PINRUN" --follow --spread -- sh -c 'exit 42'
	assert_failure 42
	# valgrind itself decides how a PID 1 it runs ends on a signal
	[ "${PINRUN_UNDER_VALGRIND:-}" != 1 ] || return 0
	run --separate-stderr unshare -fp --mount-proc "$PINRUN" --follow --spread -- sh -c 'kill -TERM $$'
	assert_failure 143
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "follow 37b: pinrun as PID 1 reaps orphans: no zombie left" {
	needs_ptrace
	needs_pidns
	run --separate-stderr unshare -fp --mount-proc "$PINRUN" --follow --spread -- sh -c '(sleep 0.1 &); sleep 0.6; grep -l "^State:.*Z" /proc/[0-9]*/status; exit 4'
	assert_failure 4
	assert_output ""
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "follow 37c: pinrun as PID 1 places children like the helper does" {
	needs_ptrace
	needs_pidns
	load_slots --spread
	run --separate-stderr unshare -fp --mount-proc "$PINRUN" --follow --spread -- "$HELPERS/probe" "$NSLOTS"
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	assert_on "${lines[0]}" "$(expand "$CPUS")"
	for ((i = 1; i <= NSLOTS; i++)); do
		assert_one_slot "${lines[i]}"
	done
	[ "$(distinct child)" -eq "$NSLOTS" ] || fail "$output"
}

@test "follow 37d: --mem reaches the command and its children, with the helper and as PID 1" {
	needs_ptrace
	needs_pidns
	local nodes
	nodes=$("$PINRUN" --spread --json | sed 's/.*"numa":"\([^"]*\)".*/\1/')
	[ -n "$nodes" ] || fail "no NUMA nodes in --json"
	run --separate-stderr "$PINRUN" --follow --spread --mem=interleave -- sh -c '"$1"; "$1"' sh "$HELPERS/mempolicy"
	assert_success
	assert_output "interleave $nodes
interleave $nodes"
	run --separate-stderr unshare -fp --mount-proc "$PINRUN" --follow --spread --mem=interleave -- sh -c '"$1"; "$1"' sh "$HELPERS/mempolicy"
	assert_success
	assert_output "interleave $nodes
interleave $nodes"
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "follow 37e: pinrun as PID 1 with --wait-all waits for the whole tree (issue 31)" {
	needs_ptrace
	needs_pidns
	local d=$BATS_TEST_TMPDIR
	# The namespace ends with pinrun: a pinrun that returned early kills
	# the background work, and late is never written.
	run --separate-stderr unshare -fp --mount-proc "$PINRUN" --follow --wait-all --spread --report "$d/r" -- sh -c '(sleep 0.5; echo late >"$1") & exit 6' sh "$d/f"
	assert_failure 6
	[ -z "$stderr" ] || fail "stderr: $stderr"
	assert_equal "$(cat "$d/f" 2>&1)" late
	# The command, the subshell and its sleep: each ended, each reported.
	[ "$(grep -c '"end":[0-9]' "$d/r")" -eq 3 ] || fail "report: $(cat "$d/r")"
	assert_equal "$(grep -c '"status":6,' "$d/r")" 1
	# The command is pinrun's child here, pinrun PID 1.
	assert_equal "$(grep -c '"ppid":1,.*"status":6,' "$d/r")" 1
}

# Whatever started pinrun ignored SIGCHLD (env --ignore-signal=CHLD: a CI
# runner, a daemon that never waits): the kernel would reap a child at its
# end, and a parent that waits would find none.
@test "follow 37f: SIGCHLD ignored by pinrun's parent: --wait-all and PID 1 give the command's status; the command still inherits the ignored SIGCHLD (issue 31)" {
	needs_ptrace
	needs_pidns
	local ign=(env --ignore-signal=CHLD) w opts plain
	plain=$("${ign[@]}" grep '^SigIgn:' /proc/self/status)
	[ $((0x${plain#*:$'\t'} >> 16 & 1)) -eq 1 ] || fail "env does not ignore SIGCHLD: $plain"
	# Under memcheck the command is exec'd by valgrind, which hands it
	# SIGCHLD at its default: the statuses are still pinrun's to check.
	[ "${PINRUN_UNDER_VALGRIND:-}" != 1 ] ||
		plain=$(printf 'SigIgn:\t%016x' $((0x${plain#*:$'\t'} & ~(1 << 16))))
	for w in plain --wait-all; do
		opts=()
		[ "$w" = plain ] || opts=("$w")
		run --separate-stderr "${ign[@]}" "$PINRUN" --follow "${opts[@]}" --spread -- sh -c 'exit 5'
		assert_failure 5
		run --separate-stderr "${ign[@]}" "$PINRUN" --follow "${opts[@]}" --spread -- sh -c 'kill -TERM $$'
		assert_failure 143
		run --separate-stderr "${ign[@]}" "$PINRUN" --follow "${opts[@]}" --spread -- grep '^SigIgn:' /proc/self/status
		assert_success
		assert_output "$plain"
		# As PID 1: the command let go at its exec (a nested pinrun)
		# ends untraced, as an ordinary child of pinrun's.
		run --separate-stderr unshare -fp --mount-proc "${ign[@]}" "$PINRUN" --follow "${opts[@]}" --spread -- sh -c 'exec "$1" --spread -- sh -c "exit 5"' sh "$PINRUN"
		assert_failure 5
		run --separate-stderr unshare -fp --mount-proc "${ign[@]}" "$PINRUN" --follow "${opts[@]}" --spread -- grep '^SigIgn:' /proc/self/status
		assert_success
		assert_output "$plain"
	done
}

# Every descendant of a pid.
descendants() {
	local c
	for c in $(pgrep -P "$1"); do
		echo "$c"
		descendants "$c"
	done
}

@test "follow 38a: kill -9 of pinrun as PID 1 (it is the parent): command and children die" {
	needs_ptrace
	needs_pidns
	unshare -fp --mount-proc "$PINRUN" --follow --spread -- sh -c 'sleep 30 & exec sleep 31' </dev/null >/dev/null 2>&1 3>&- &
	local u=$! pinrun procs more
	KILL+=("$u")
	eventually '[ "$(ps -o comm= -p "$(descendants "$u" | paste -sd,)" | grep -c "^sleep$")" -eq 2 ]'
	pinrun=$(pgrep -P "$u")
	procs=$(descendants "$pinrun" | paste -sd,)
	IFS=, read -ra more <<<"$procs"
	KILL+=("${more[@]}")
	kill -9 "$pinrun"
	eventually '[ -z "$(ps -o pid= -p "$procs")" ]'
	# Reap the job: its status is its death by the signal above.
	wait "$u" || :
}

@test "follow 38b: kill -9 of the helper (topology B): the job goes on unaffected" {
	needs_ptrace
	local out=$BATS_TEST_TMPDIR/out pid tracer s
	"$PINRUN" --follow --spread -- sh -c 'sleep 1; echo done; exit 4' </dev/null >"$out" 2>&1 3>&- &
	pid=$!
	KILL+=("$pid")
	eventually '[[ "$(tracer_of "$pid")" == [1-9]* ]]'
	tracer=$(tracer_of "$pid")
	# The helper is in a session of its own and is not the shell's child.
	[ "$(ps -o sid= -p "$tracer")" != "$(ps -o sid= -p $$)" ] || fail "the helper is in the caller's session"
	[ "$(ps -o ppid= -p "$tracer" | tr -d ' ')" != $$ ] || fail "the helper is the caller's child"
	kill -9 "$tracer"
	wait "$pid" && s=0 || s=$?
	[ "$s" -eq 4 ] || fail "status $s: $(cat "$out")"
	assert_equal "$(cat "$out")" "done"
}

# ===========================================================================
# Load, reuse, odd programs (rows 39-45)

# The helper killed (kill -9 of the tracer): the tree runs on untraced, and
# with --wait-all pinrun, still there, says what was lost.
@test "follow 38c: kill -9 of the helper under --wait-all: a warning that the rest is not followed and the report cut short (issue 31)" {
	needs_ptrace
	load_slots --spread
	local d=$BATS_TEST_TMPDIR r w pid tracer s want
	for r in report none; do
		rm -f "$d/pid" "$d/go" "$d/r"
		w=(--report "$d/r")
		[ "$r" = report ] || w=()
		"$PINRUN" --follow --wait-all --spread "${w[@]}" -- sh -c 'echo $$ >"$1/pid"; while [ ! -e "$1/go" ]; do sleep 0.05; done; /bin/true; exit 0' sh "$d" </dev/null >"$d/out" 2>"$d/err" 3>&- &
		KILL+=("$!")
		eventually "[ -s $d/pid ]"
		pid=$(cat "$d/pid")
		KILL+=("$pid")
		eventually '[[ "$(tracer_of "$pid")" == [1-9]* ]]'
		tracer=$(tracer_of "$pid")
		kill -9 "$tracer"
		eventually '[ "$(tracer_of "$pid")" = 0 ]'
		touch "$d/go"
		wait "$!" && s=0 || s=$?
		want="pinrun: warning: --follow's tracer ended before the command's tree did: the processes started since were neither placed nor waited for"
		if [ "$r" = report ]; then
			# Lines are missing: a command that succeeded fails.
			[ "$s" -eq 125 ] || fail "status $s: $(cat "$d/err")"
			want+=", and report '$d/r' lacks their lines"
		else
			[ "$s" -eq 0 ] || fail "status $s: $(cat "$d/err")"
		fi
		assert_equal "$(cat "$d/err")" "$want"
	done
	# Where ptrace is refused, the command runs unfollowed, and nothing
	# more is said. pinrun stays to wait, and LeakSanitizer (make SAN=1)
	# needs ptrace to check its exit.
	local nolsan=(env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
	run --separate-stderr "${nolsan[@]}" "$HELPERS/seccomp_noptrace" "$PINRUN" --follow --wait-all --spread --report "$d/r" -- sh -c 'exit 3'
	assert_failure 3
	[[ "$stderr" =~ $(warning_re "$CPUS") ]] || fail "stderr: $stderr"
	run --separate-stderr "${nolsan[@]}" "$HELPERS/seccomp_noptrace" "$PINRUN" --follow=strict --wait-all --spread -- true
	assert_failure 125
	assert_equal "$stderr" "pinrun: --follow=strict: ptrace unavailable (ptrace is denied by a seccomp filter)"
}

# RLIMIT_NPROC counts every task of a real user: a user of this test's own
# (no process of it runs elsewhere) under prlimit.
@test "follow spec: RLIMIT_NPROC: the tracer takes no room a plain run needs, and says why it does not follow (issue 31)" {
	needs_ptrace
	needs_root
	load_slots --spread
	local u=$((61000 + $$ % 1000)) cache=$BATS_TEST_TMPDIR/cache as
	mkdir -m 777 "$cache"
	as=(setpriv --reuid="$u" --regid="$u" --clear-groups env XDG_CACHE_HOME="$cache")
	[ -z "$(ps -o pid= -u "$u")" ] || skip_unless_works "uid $u runs processes here"
	# At 1, a plain run (a cold cache: hwloc's reader is a child of its
	# own) as taskset would have it.
	run --separate-stderr prlimit --nproc=1 "${as[@]}" "$PINRUN" --spread -- sh -c 'exec echo ran'
	assert_success
	assert_output ran
	[ -z "$stderr" ] || fail "stderr: $stderr"
	# At 3, a command with one child works plainly; the tracer (the
	# helper and its bell) would take its room: it runs unfollowed.
	run --separate-stderr prlimit --nproc=3 "${as[@]}" "$PINRUN" --spread -- sh -c '/bin/true && echo ran'
	assert_success
	assert_output ran
	run --separate-stderr prlimit --nproc=3 "${as[@]}" "$PINRUN" --follow --spread -- sh -c '/bin/true && echo ran'
	assert_success
	assert_output ran
	assert_equal "$stderr" "pinrun: warning: --follow unavailable (cannot start the tracer: the user's process limit (RLIMIT_NPROC 3, 1 running) has no room for its 2 processes and one of the command's): children inherit CPUs $CPUS"
	run --separate-stderr prlimit --nproc=3 "${as[@]}" "$PINRUN" --follow=strict --wait-all --spread -- true
	assert_failure 125
	assert_equal "$stderr" "pinrun: --follow=strict: ptrace unavailable (cannot start the tracer: the user's process limit (RLIMIT_NPROC 3, 1 running) has no room for its 3 processes and one of the command's)"
}

@test "follow 39: 2000 fork/_exit: all pinned, every process reported" {
	needs_ptrace
	load_slots --spread
	local r=$BATS_TEST_TMPDIR/report
	run --separate-stderr "$PINRUN" --follow --spread --report "$r" -- "$HELPERS/forkloop" 2000
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[[ "$output" =~ ^forks=2000\ multi=0\ cpus=([0-9,-]+)$ ]] || fail "$output"
	in_placement "${BASH_REMATCH[1]}"
	[ "$(wc -l <"$r")" -eq 2001 ] || fail "$(wc -l <"$r") report lines for 2001 processes"
	! grep -q '"detached":true' "$r" || fail "a child was left behind"
}

@test "follow 40: pid reuse in a PID namespace with pid_max 400: every child of 1000 pinned" {
	needs_ptrace
	needs_pidns
	load_slots --spread
	unshare -fp --mount-proc sh -c 'echo 400 >/proc/sys/kernel/pid_max' 2>/dev/null ||
		skip_unless_works "no per-namespace pid_max (Linux 6.14)"
	# pinrun as a child (helper) and as PID 1 (parent).
	run --separate-stderr unshare -fp --mount-proc sh -c 'echo 400 >/proc/sys/kernel/pid_max && "$@"' sh "$PINRUN" --follow --spread -- "$HELPERS/forkloop" 1000
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[[ "$output" =~ ^forks=1000\ multi=0\ cpus=([0-9,-]+)$ ]] || fail "$output"
	in_placement "${BASH_REMATCH[1]}"
	run --separate-stderr unshare -fp --mount-proc sh -c 'echo 400 >/proc/sys/kernel/pid_max && exec "$@"' sh "$PINRUN" --follow --spread -- "$HELPERS/forkloop" 1000
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[[ "$output" =~ ^forks=1000\ multi=0\ cpus=([0-9,-]+)$ ]] || fail "$output"
	in_placement "${BASH_REMATCH[1]}"
}

@test "follow 41: an ignored SIGINT stays ignored in the command (and pinrun adds no handler)" {
	needs_ptrace
	run --separate-stderr bash -c 'trap "" INT; "$@"' bash "$PINRUN" --follow --spread -- sh -c 'kill -INT $$; echo survived'
	assert_success
	assert_output "survived"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	# Caught signals are not inherited as caught: a default INT kills.
	# (default from here on: a suite started in the background, as by
	# `tests/run &` or a CI runner, inherits SIGINT ignored)
	run --separate-stderr env --default-signal=INT "$HELPERS/waiter" "$PINRUN" --follow --spread -- sh -c 'kill -INT $$; echo survived'
	assert_output "signaled 2"
}

@test "follow 42: the leader pthread_exit()s, another thread exit(5)s: status 5" {
	needs_ptrace
	run --separate-stderr "$PINRUN" --follow --spread -- "$HELPERS/leaderexit"
	assert_failure 5
	assert_output "thread done"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	run --separate-stderr "$PINRUN" --follow --threads --spread -- "$HELPERS/leaderexit"
	assert_failure 5
	assert_output "thread done"
}

@test "follow 43: a child that sets its own affinity keeps it across exec" {
	needs_ptrace
	needs_two_cpus
	run --separate-stderr "$PINRUN" --follow --spread -- sh -c 'taskset -c "$1" sh -c "sleep 0.2; exec awk \"/^Cpus_allowed_list/ { print \\\$2 }\" /proc/self/status"' sh "$ALLOWED"
	assert_success
	assert_output "$ALLOWED"
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

hangup() {
	tm_start "$1"
	tm_type '"${P[@]}" "$S" -n -f "$LOG"'
	tm_wait 'ready pid='
	PID=$(tm_value pid)
	KILL+=("$PID")
	TRACER=$(tracer_of "$PID")
	tmux -L "$TM" kill-pane -t t
	eventually '[ ! -d "/proc/$PID" ] || [ "$(state_of "$PID")" = Z ]'
	eventually 'grep -q "^got HUP$" "$LOG"'
	HUPLOG=$(cat "$LOG")
	tm_stop
}

@test "follow 44: the terminal hangs up: the command gets SIGHUP as without pinrun, the helper ends" {
	needs_ptrace
	# What else arrives around the hang-up (bash's SIGCONT) depends on
	# timing: only the one SIGHUP is compared.
	hangup baseline
	[ "$(grep -c '^got HUP$' <<<"$HUPLOG")" -eq 1 ] || fail "baseline: $HUPLOG"
	hangup follow
	[ "$(grep -c '^got HUP$' <<<"$HUPLOG")" -eq 1 ] || fail "$HUPLOG"
	[[ "$TRACER" == [1-9]* ]] || fail "the command was not traced ($TRACER)"
	eventually '[ ! -d "/proc/$TRACER" ]'
}

# ===========================================================================
# Programs that trace, letting go, the helper's hygiene (issue 11)

# Two AddressSanitizer builds in SHARED: leak (42 bytes lost, then exit 3)
# and noleak (exit 3), each after starting THREADS idle threads (its
# argument), which LeakSanitizer stops too.
make_asan() {
	command -v gcc >/dev/null || skip_unless_works "no gcc"
	make_shared
	cat >"$SHARED/leak.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *idle(void *unused)
{
	(void)unused;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 0;
	char *volatile p;
	pthread_t t;

	for (int i = 0; i < threads; i++)
		pthread_create(&t, NULL, idle, NULL);
	p = malloc(42);
#ifdef LEAK
	p = NULL;
#else
	free(p);
#endif
	printf("threads %d\n", threads);
	return 3;
}
EOF
	gcc -fsanitize=address -g -pthread -DLEAK -o "$SHARED/leak" "$SHARED/leak.c" 2>"$SHARED/cc.log" &&
		gcc -fsanitize=address -g -pthread -o "$SHARED/noleak" "$SHARED/leak.c" 2>>"$SHARED/cc.log" ||
		skip_unless_works "gcc -fsanitize=address does not build here: $(cat "$SHARED/cc.log")"
	chmod 755 "$SHARED/leak" "$SHARED/noleak"
}

# Pids and addresses vary from run to run.
normalize_trace() {
	sed -E -e 's/==[0-9]+==/==N==/g' -e 's/0x[0-9a-f]+/0xN/g' | normalize
}

# Run "$@" as the user ${AS[@]} (empty: as the caller) plainly, then under
# pinrun --follow --spread: BASE and GOT are what each printed (stdout and
# stderr together, normalized), BASE_STATUS and GOT_STATUS their statuses.
# $output less pinrun's notes on threads that --threads would place and
# on survivors that keep no_new_privs (their own tests check them), as
# ${AS[@]} may be another user (a nested pinrun's, in BASE too).
less_notes() {
	normalize_trace <<<"$output" | sed -E '/^pinrun: note: (process N \(.*\) starts threads, which share its CPUs [0-9,-]+; --threads would place each on a slot|[0-9N]+ process(es)? still running keeps? no_new_privs, .*)$/d'
}

plain_and_followed() {
	run "${AS[@]}" "$@"
	BASE=$(less_notes) BASE_STATUS=$status
	run "${AS[@]}" "$PINRUN" --follow --spread -- "$@"
	GOT=$(less_notes) GOT_STATUS=$status
}

# The same output and status as without pinrun.
assert_as_plain() {
	[ "$GOT" = "$BASE" ] || fail "under --follow:
$GOT
--- without pinrun:
$BASE"
	[ "$GOT_STATUS" = "$BASE_STATUS" ] || fail "status $GOT_STATUS, without pinrun $BASE_STATUS"
}

# ASan builds, leaking or not, with threads or not, as the command and
# deeper down (a shell that waits for them), as ${AS[@]}.
asan_as_plain() {
	local prog threads
	for prog in noleak leak; do
		for threads in 0 3; do
			plain_and_followed env ASAN_OPTIONS=detect_leaks=1 "$SHARED/$prog" "$threads"
			if [ "$prog" = leak ]; then
				[[ "$BASE" == *"ERROR: LeakSanitizer: detected memory leaks"*"SUMMARY: AddressSanitizer: 42 byte(s) leaked in 1 allocation(s)."* ]] || fail "no leak found without pinrun: $BASE"
			else
				[ "$BASE" = "threads $threads" ] && [ "$BASE_STATUS" = 3 ] || fail "without pinrun ($BASE_STATUS): $BASE"
			fi
			assert_as_plain
			plain_and_followed env ASAN_OPTIONS=detect_leaks=1 sh -c '/bin/true; "$1" "$2"; echo "status $?"' sh "$SHARED/$prog" "$threads"
			assert_as_plain
		done
	done
}

@test "follow trace: AddressSanitizer builds (LeakSanitizer at exit) print and end as without pinrun" {
	needs_ptrace
	needs_notify
	make_asan
	AS=()
	asan_as_plain
}

@test "follow trace: LeakSanitizer in a nested PID namespace (tids of its own) works as without pinrun" {
	needs_ptrace
	needs_notify
	needs_pidns
	make_asan
	AS=()
	plain_and_followed env ASAN_OPTIONS=detect_leaks=1 unshare -fp --mount-proc "$SHARED/leak" 3
	[[ "$BASE" == *"SUMMARY: AddressSanitizer: 42 byte(s) leaked in 1 allocation(s)."* ]] || fail "no leak found without pinrun: $BASE"
	assert_as_plain
}

@test "follow trace: nested pinrun --follow: LeakSanitizer, ATTACH, SEIZE and TRACEME work two and three deep" {
	needs_ptrace
	needs_notify
	make_asan
	cp "$HELPERS/traceme" "$HELPERS/attach" "$SHARED/"
	chmod 755 "$SHARED/traceme" "$SHARED/attach"
	local inner=("$PINRUN" --spread --follow --)
	AS=()
	# BASE: under one pinrun, which has the filter; GOT: under two, the
	# inner one without (the outer one has the attaches).
	plain_and_followed "${inner[@]}" env ASAN_OPTIONS=detect_leaks=1 "$SHARED/leak" 3
	[[ "$BASE" == *"SUMMARY: AddressSanitizer: 42 byte(s) leaked in 1 allocation(s)."* ]] || fail "no leak found under one pinrun: $BASE"
	assert_as_plain
	# The outer pinrun still following (its command a shell that waits).
	plain_and_followed sh -c '"$1" --spread --follow -- env ASAN_OPTIONS=detect_leaks=1 "$2" 3; echo "status $?"' sh "$PINRUN" "$SHARED/leak"
	[[ "$BASE" == *"42 byte(s) leaked"*"status 1" ]] || fail "under one pinrun: $BASE"
	assert_as_plain
	# Three deep (BASE two deep).
	plain_and_followed "${inner[@]}" "${inner[@]}" env ASAN_OPTIONS=detect_leaks=1 "$SHARED/noleak" 2
	[ "$BASE" = "threads 2" ] && [ "$BASE_STATUS" = 3 ] || fail "two deep ($BASE_STATUS): $BASE"
	assert_as_plain
	plain_and_followed "${inner[@]}" "$SHARED/attach" attach 0
	[ "$BASE" = "PTRACE_ATTACH: ok" ] || fail "under one pinrun: $BASE"
	assert_as_plain
	plain_and_followed "${inner[@]}" "$SHARED/attach" seize 0
	[ "$BASE" = "PTRACE_SEIZE: ok" ] || fail "under one pinrun: $BASE"
	assert_as_plain
	plain_and_followed "${inner[@]}" "$SHARED/traceme"
	[ "$BASE" = "PTRACE_TRACEME: ok" ] || fail "under one pinrun: $BASE"
	assert_as_plain
	# The outer pinrun as the parent (--wait-all), and as another user
	# (the outer filter under no_new_privs).
	run "$PINRUN" --spread --follow --wait-all -- "${inner[@]}" env ASAN_OPTIONS=detect_leaks=1 "$SHARED/leak" 0
	assert_failure 1
	assert_output --partial "SUMMARY: AddressSanitizer: 42 byte(s) leaked in 1 allocation(s)."
	if [ "$(id -u)" -eq 0 ]; then
		AS=("${NOBODY[@]}")
		plain_and_followed "${inner[@]}" env ASAN_OPTIONS=detect_leaks=1 "$SHARED/leak" 3
		[[ "$BASE" == *"42 byte(s) leaked in 1 allocation(s)."* ]] || fail "no leak found under one pinrun, as nobody: $BASE"
		assert_as_plain
	fi
	# What the inner pinrun says of it.
	run --separate-stderr "$PINRUN" --spread --follow -- "$PINRUN" --explain --spread --follow -- true
	assert_success
	[[ "$stderr" == *"
pinrun: tracers: the filter of the pinrun --follow that runs this one sends each ptrace attach in the tree (debuggers, LeakSanitizer) to that pinrun, which asks this one to let go of both sides
"* ]] || fail "stderr: $stderr"
}

@test "follow trace: a nested pinrun --follow in a PID namespace of its own, as its PID 1 and below it: attaches and LeakSanitizer as under one pinrun" {
	needs_ptrace
	needs_notify
	unshare -pf --mount-proc true 2>/dev/null || skip_unless_works "unshare -pf --mount-proc is refused here"
	make_asan
	cp "$HELPERS/traceme" "$HELPERS/attach" "$SHARED/"
	chmod 755 "$SHARED/traceme" "$SHARED/attach"
	AS=()
	local ns=(unshare -pf --mount-proc) inner
	# Before, the outer pinrun's request to let go came from outside the
	# inner one's namespace (no sender there): the inner one, as PID 1,
	# ended at once, and the namespace with it; an attach to a task the
	# outer one does not follow was not looked for.
	for inner in pid1 below; do
		local run=("${ns[@]}" "$PINRUN" --spread --follow --)
		[ "$inner" = pid1 ] || run=("${ns[@]}" sh -c '"$@"; exit $?' sh "$PINRUN" --spread --follow --)
		plain_and_followed "${run[@]}" sh -c '"$1"; "$2" attach 0; "$2" seize 0; echo "status $?"' sh "$SHARED/traceme" "$SHARED/attach"
		[ "$BASE" = "PTRACE_TRACEME: ok
PTRACE_ATTACH: ok
PTRACE_SEIZE: ok
status 0" ] || fail "$inner, under one pinrun: $BASE"
		assert_as_plain
		plain_and_followed "${run[@]}" env ASAN_OPTIONS=detect_leaks=1 "$SHARED/leak" 2
		[[ "$BASE" == *"SUMMARY: AddressSanitizer: 42 byte(s) leaked in 1 allocation(s)."* ]] || fail "$inner: no leak found under one pinrun: $BASE"
		assert_as_plain
	done
}

@test "follow trace: the same for an unprivileged user (no_new_privs), TRACEME and ATTACH too" {
	needs_ptrace
	needs_notify
	needs_root
	make_asan
	cp "$HELPERS/traceme" "$HELPERS/attach" "$SHARED/"
	chmod 755 "$SHARED/traceme" "$SHARED/attach"
	AS=("${NOBODY[@]}")
	asan_as_plain
	plain_and_followed "$SHARED/traceme"
	[ "$BASE" = "PTRACE_TRACEME: ok" ] || fail "without pinrun: $BASE"
	assert_as_plain
	plain_and_followed "$SHARED/attach" attach 2
	[ "$BASE" = "PTRACE_ATTACH: ok" ] || fail "without pinrun: $BASE"
	assert_as_plain
	# The cost: no_new_privs for the whole tree, which a root pinrun
	# does not set (the next test).
	run "${NOBODY[@]}" "$PINRUN" --follow --spread -- grep -E '^(NoNewPrivs|Seccomp):' /proc/self/status
	assert_success
	assert_output "NoNewPrivs:	1
Seccomp:	2"
}

@test "follow trace: as root the command gets the filter, not no_new_privs" {
	needs_ptrace
	needs_notify
	[ "$(id -u)" -eq 0 ] || skip_unless_works "needs root"
	run grep -E '^(NoNewPrivs|Seccomp):' /proc/self/status
	[ "$output" = "NoNewPrivs:	0
Seccomp:	0" ] || skip_unless_works "this shell has no_new_privs or a seccomp filter already: $output"
	run "$PINRUN" --follow --spread -- grep -E '^(NoNewPrivs|Seccomp):' /proc/self/status
	assert_success
	assert_output "NoNewPrivs:	0
Seccomp:	2"
}

@test "follow trace: a parent that PTRACE_ATTACHes or PTRACE_SEIZEs its child and each of its threads" {
	needs_ptrace
	needs_notify
	local how threads
	AS=()
	for how in attach seize; do
		for threads in 0 2; do
			plain_and_followed "$HELPERS/attach" "$how" "$threads"
			[[ "$BASE" == "PTRACE_${how^^}: ok" ]] || fail "without pinrun: $BASE"
			assert_as_plain
			plain_and_followed sh -c '"$1" "$2" "$3"; echo "status $?"' sh "$HELPERS/attach" "$how" "$threads"
			assert_as_plain
		done
	done
}

@test "follow trace: gdb and strace under other names (copies) work as without pinrun" {
	needs_ptrace
	needs_notify
	needs_program gdb
	command -v strace >/dev/null || skip_unless_works "no strace"
	local d=$BATS_TEST_TMPDIR
	cp "$(command -v gdb)" "$d/gdb-multiarch"
	cp "$(command -v strace)" "$d/strace-copy"
	AS=()
	# gdb starts its program through a shell that calls PTRACE_TRACEME.
	plain_and_followed "$d/gdb-multiarch" -nx -batch -ex run --args sh -c 'echo hello; exit 3'
	[[ "$BASE" == *"hello"*"exited with code 03]"* ]] || fail "without pinrun: $BASE"
	assert_as_plain
	# gdb attaching to a process that runs (PTRACE_ATTACH), deeper down.
	plain_and_followed sh -c 'sleep 30 & p=$!; "$1" -nx -batch -p $p -ex "info inferiors" >/dev/null 2>&1; echo "gdb $?"; kill $p' sh "$d/gdb-multiarch"
	[ "$BASE" = "gdb 0" ] || fail "without pinrun: $BASE"
	assert_as_plain
	plain_and_followed "$d/strace-copy" -f -o /dev/null sh -c 'echo hi; sh -c "exit 5"'
	[ "$BASE" = hi ] && [ "$BASE_STATUS" = 5 ] || fail "without pinrun ($BASE_STATUS): $BASE"
	assert_as_plain
}

@test "follow trace: the tracer and the traced are let go; --report marks them detached" {
	needs_ptrace
	needs_notify
	local r=$BATS_TEST_TMPDIR/report
	run --separate-stderr "$PINRUN" --follow --spread --report "$r" -- sh -c '"$1" seize; echo "status $?"' sh "$HELPERS/attach"
	assert_success
	assert_output "PTRACE_SEIZE: ok
status 0"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	# sh (ended), attach (the tracer) and its child (the traced): let go.
	eventually '[ "$(wc -l <"$r")" -eq 3 ]'
	[ "$(grep -c '"detached":true' "$r")" -eq 2 ] || fail "$(cat "$r")"
	grep -q '"program":"'"$(realpath "$HELPERS/attach")"'".*"detached":true' "$r" || fail "$(cat "$r")"
	grep -q '"program":"'"$(realpath /bin/sh)"'".*"status":0,' "$r" || fail "$(cat "$r")"
}

@test "follow trace: --explain says whether the filter is on, and when it needs no_new_privs" {
	needs_ptrace
	needs_notify
	needs_root
	local line='pinrun: tracers: a seccomp filter sends each ptrace attach in the tree (debuggers, LeakSanitizer) to pinrun, which lets go of both sides'
	run --separate-stderr "$PINRUN" --follow --spread --explain -- true
	assert_success
	[ "$(grep -c '^pinrun: tracers:' <<<"$stderr")" -eq 1 ] || fail "stderr: $stderr"
	grep -qxF "$line" <<<"$stderr" || fail "stderr: $stderr"
	run --separate-stderr "${NOBODY[@]}" "$PINRUN" --follow --spread --explain -- true
	assert_success
	grep -qxF "$line; it needs no_new_privs here (no CAP_SYS_ADMIN): set-user-ID programs in the tree run without their privileges" <<<"$stderr" || fail "stderr: $stderr"
}

@test "follow trace: without the filter (seccomp denied): known tracers let go at their exec, other attaches fail" {
	needs_ptrace
	command -v strace >/dev/null || skip_unless_works "no strace"
	local deny=("$HELPERS/seccomp_noseccomp") why="Operation not permitted"
	# valgrind does not implement seccomp(2): pinrun does not ask it.
	[ "${PINRUN_UNDER_VALGRIND:-}" != 1 ] || why="Function not implemented"
	run --separate-stderr "${deny[@]}" "$PINRUN" --follow --spread --explain -- true
	assert_success
	grep -qxF "pinrun: tracers: no seccomp filter ($why): a ptrace attach in the tree fails, but by strace, gdb and the other known tracers, let go at their exec" <<<"$stderr" || fail "stderr: $stderr"
	run --separate-stderr "${deny[@]}" "$PINRUN" --follow --spread -- strace -f -o /dev/null sh -c 'exit 6'
	assert_failure 6
	[ -z "$stderr" ] || fail "stderr: $stderr"
	run --separate-stderr "${deny[@]}" "$PINRUN" --follow --spread -- "$HELPERS/traceme"
	assert_failure 1
	assert_output "PTRACE_TRACEME: Operation not permitted"
}

# A $(...) of pinrun --follow over "$@" (its stderr included), where the
# command leaves a survivor that holds no descriptor of the caller's; OUT
# is what it printed. (That it returns while the survivor runs is the
# check: the survivor outlives the test.)
substitution() {
	OUT=$("$@" 2>&1)
	OUT=$(drop_nnp_note "$OUT")
}

@test "follow let go: the command exec's pinrun or becomes a tracer: the helper lets go at once" {
	needs_ptrace
	needs_notify
	local pidf=$BATS_TEST_TMPDIR/sleep.pid pid
	# The inner pinrun takes over; the outer one lets go of the survivor
	# and of the caller's stderr without waiting for it.
	substitution "$PINRUN" --follow --spread -- sh -c 'sleep 600 </dev/null >/dev/null 2>&1 & echo $! >"$1"; exec "$2" --follow --spread -- echo inner' sh "$pidf" "$PINRUN"
	pid=$(cat "$pidf")
	KILL+=("$pid")
	[ "$OUT" = inner ] || fail "printed: $OUT"
	[ -d "/proc/$pid" ] && [ "$(state_of "$pid")" != Z ] || fail "the survivor ended first: pinrun waited for it"
	eventually '[ "$(tracer_of "$pid")" = 0 ]'
	# The command becomes a tracer (its child calls PTRACE_TRACEME).
	substitution "$PINRUN" --follow --spread -- sh -c 'sleep 600 </dev/null >/dev/null 2>&1 & echo $! >"$1"; exec "$2"' sh "$pidf" "$HELPERS/traceme"
	pid=$(cat "$pidf")
	KILL+=("$pid")
	[ "$OUT" = "PTRACE_TRACEME: ok" ] || fail "printed: $OUT"
	[ -d "/proc/$pid" ] && [ "$(state_of "$pid")" != Z ] || fail "the survivor ended first: pinrun waited for it"
	eventually '[ "$(tracer_of "$pid")" = 0 ]'
}

@test "follow let go: the command exec's a set-user-ID program (unprivileged): let go at once" {
	needs_ptrace
	make_suid
	local pidf=$SUID_DIR/sleep.pid pid
	chmod 777 "$SUID_DIR"
	substitution "${NOBODY[@]}" "$PINRUN" --follow --spread -- sh -c 'sleep 600 </dev/null >/dev/null 2>&1 & echo $! >"$1"; exec "$2"' sh "$pidf" "$SUID"
	pid=$(cat "$pidf")
	KILL+=("$pid")
	# The helper's warning, the program's output, and (the survivor keeps
	# no_new_privs, but for valgrind, which runs pinrun without the filter)
	# the note at the end, in any order.
	local nnp="pinrun: note: 1 process still running keeps no_new_privs, which --follow's seccomp filter needed without CAP_SYS_ADMIN: set-user-ID programs it runs get no privileges
"
	[ -z "${PINRUN_UNDER_VALGRIND:-}" ] || nnp=
	[ "$(sort <<<"$OUT")" = "65534
${nnp}pinrun: warning: $SUID is set-user-ID: it runs without its privileges under --follow; stopped following it" ] || fail "printed: $OUT"
	[ -d "/proc/$pid" ] && [ "$(state_of "$pid")" != Z ] || fail "the survivor ended first: pinrun waited for it"
	eventually '[ "$(tracer_of "$pid")" = 0 ]'
}

@test "follow let go: a survivor's attaches work after pinrun ends; the helper ends with the last" {
	needs_ptrace
	needs_notify
	local d=$BATS_TEST_TMPDIR helper
	# The survivor attaches well after the command has ended.
	run --separate-stderr "$PINRUN" --follow --spread -- sh -c 'awk "/^TracerPid/ { print \$2 }" /proc/$$/status >"$1/helper"; (sleep 1; "$2" >"$1/out"; echo "status $?" >>"$1/out") </dev/null >/dev/null 2>&1 & exit 4' sh "$d" "$HELPERS/traceme"
	assert_failure 4
	helper=$(cat "$d/helper")
	[[ "$helper" == [1-9]* ]] || fail "the command was not traced: '$helper'"
	eventually '[ "$(cat "$d/out" 2>/dev/null)" = "PTRACE_TRACEME: ok
status 0" ]'
	# Nobody is left under the filter: the helper answers no more.
	eventually '[ ! -d "/proc/$helper" ] || [ "$(state_of "$helper")" = Z ]'
}

@test "follow hygiene: the helper holds no descriptor it inherited, however high" {
	needs_ptrace
	[ "${PINRUN_UNDER_VALGRIND:-}" != 1 ] || skip "valgrind keeps descriptors of its own in the helper"
	# The command's shell waits until the helper has closed them all,
	# then lists what the helper holds (the filter's listener aside).
	run --separate-stderr "$PINRUN" --follow --spread -- bash -c '
		exec 1500>&- 70>&-
		t=$(awk "/^TracerPid/ { print \$2 }" /proc/$$/status)
		i=0
		while [ -e "/proc/$t/fd/1500" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
		for fd in /proc/$t/fd/*; do
			case $(readlink "$fd") in *seccomp*) ;; *) echo "${fd##*/}" ;; esac
		done' 1500>/dev/null 70>/dev/null
	assert_success
	assert_output "0
1
2"
}

@test "follow hygiene: --report keeps its lines when pinrun starts with stdin or stdout closed" {
	needs_ptrace
	local r=$BATS_TEST_TMPDIR/report
	run --separate-stderr "$PINRUN" --follow --spread --report "$r" -- sh -c '/bin/true; exit 3' <&-
	assert_failure 3
	[ -z "$stderr" ] || fail "stderr: $stderr"
	eventually '[ "$(wc -l <"$r")" -eq 2 ]'
	run --separate-stderr sh -c '"$@" >&-; echo "status $?"' sh "$PINRUN" --follow --spread --report "$r" -- sh -c '/bin/true; exit 3'
	assert_output "status 3"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	eventually '[ "$(wc -l <"$r")" -eq 2 ]'
	grep -q '"status":3,' "$r" || fail "$(cat "$r")"
}

@test "follow hygiene: --report on a FIFO: refused at once when nobody reads it, written when someone does" {
	needs_ptrace
	local f=$BATS_TEST_TMPDIR/fifo line1 line2
	mkfifo "$f"
	run --separate-stderr timeout 10 "$PINRUN" --follow --spread --report "$f" -- true
	assert_failure 125
	assert_output ""
	[ "$stderr" = "pinrun: cannot open report '$f': a FIFO that no process reads" ] || fail "stderr: $stderr"
	# A reader: this shell, on descriptor 4 (read-write: opening it does
	# not wait).
	exec 4<>"$f"
	run --separate-stderr timeout 10 "$PINRUN" --follow --spread --report "$f" -- sh -c '/bin/true; exit 2'
	assert_failure 2
	[ -z "$stderr" ] || fail "stderr: $stderr"
	read -r -t 5 -u 4 line1 || fail "no first line"
	read -r -t 5 -u 4 line2 || fail "no second line"
	exec 4<&-
	[[ "$line1$line2" == *'"status":0,'*'"status":2,'* ]] || fail "$line1
$line2"
}

@test "follow hygiene: --report refuses another user's symbolic link in a shared sticky directory, follows one of its own (issue 31)" {
	needs_ptrace
	needs_root
	local d t=$BATS_TEST_TMPDIR/target
	# A shared directory like /tmp: world-writable and sticky.
	d=$(mktemp -d /tmp/pinrun-sticky.XXXXXX)
	SHARED=$d
	chmod 1777 "$d"
	echo keep >"$t"
	# nobody plants a link to a file of root's; root runs pinrun.
	"${NOBODY[@]}" ln -s "$t" "$d/planted"
	run --separate-stderr "$PINRUN" --follow --spread --report "$d/planted" -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 125
	assert_output ""
	[ "$stderr" = "pinrun: cannot open report '$d/planted': a symbolic link owned by uid 65534 in a shared sticky directory, not followed (as fs.protected_symlinks has it): give a path of your own" ] || fail "stderr: $stderr"
	assert_equal "$(cat "$t")" keep
	[ ! -e "$BATS_TEST_TMPDIR/ran" ] || fail "the command ran"
	# A dangling one is refused as well (it would create the file).
	"${NOBODY[@]}" ln -s "$BATS_TEST_TMPDIR/new" "$d/dangling"
	run --separate-stderr "$PINRUN" --follow --spread --report "$d/dangling" -- true
	assert_failure 125
	[ ! -e "$BATS_TEST_TMPDIR/new" ] || fail "the link was followed"
	# Root's own link there, and a plain file there: written.
	ln -s "$t" "$d/mine"
	run --separate-stderr "$PINRUN" --follow --spread --report "$d/mine" -- sh -c 'exit 3'
	assert_failure 3
	[ -z "$stderr" ] || fail "stderr: $stderr"
	grep -q '"status":3,' "$t" || fail "report: $(cat "$t")"
	run --separate-stderr "$PINRUN" --follow --spread --report "$d/plain" -- sh -c 'exit 4'
	assert_failure 4
	grep -q '"status":4,' "$d/plain" || fail "report: $(cat "$d/plain")"
	# The directory's owner's link is followed, as the kernel does.
	chown 65534 "$d"
	echo keep >"$t"
	run --separate-stderr "$PINRUN" --follow --spread --report "$d/planted" -- sh -c 'exit 5'
	assert_failure 5
	grep -q '"status":5,' "$t" || fail "report: $(cat "$t")"
	# Not shared (not sticky): followed, as ever.
	chown 0 "$d"
	chmod 0777 "$d"
	run --separate-stderr "$PINRUN" --follow --spread --report "$d/dangling" -- true
	assert_success
	grep -q '"status":0,' "$BATS_TEST_TMPDIR/new" || fail "report: $(cat "$BATS_TEST_TMPDIR/new")"
	# A name without a directory, in the current one.
	run --separate-stderr env -C "$BATS_TEST_TMPDIR" "$PINRUN" --follow --spread --report rel -- sh -c 'exit 6'
	assert_failure 6
	grep -q '"status":6,' "$BATS_TEST_TMPDIR/rel" || fail "report: $(cat "$BATS_TEST_TMPDIR/rel")"
}

@test "follow 35b: --follow=strict as PID 1 with ptrace denied runs nothing" {
	needs_pidns
	run --separate-stderr env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		unshare -fp --mount-proc "$HELPERS/seccomp_noptrace" "$PINRUN" --follow=strict --spread -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 125
	assert_output ""
	[ ! -e "$BATS_TEST_TMPDIR/ran" ] || fail "the command ran"
	[ "$stderr" = "pinrun: --follow=strict: ptrace unavailable (ptrace is denied by a seccomp filter)" ] || fail "stderr: $stderr"
}

@test "follow unplaced: a slot the kernel refuses is said, kept off the books, and null in the report" {
	needs_ptrace
	needs_two_cpus
	needs_root
	load_slots --spread
	local r=$BATS_TEST_TMPDIR/report child
	# Without CAP_SYS_NICE, the root helper may not set the affinity of
	# the user nobody's processes: the command's two children, each moved
	# from the whole placement to a slot, keep the CPUs they were born on.
	setpriv --bounding-set=-sys_nice true 2>/dev/null || skip_unless_works "setpriv cannot drop CAP_SYS_NICE"
	run --separate-stderr setpriv --bounding-set=-sys_nice "$PINRUN" --follow --spread --report "$r" -- "${NOBODY[@]}" "$HELPERS/probe" 2
	assert_success
	[ "${#lines[@]}" -eq 3 ] || fail "$output"
	assert_on "${lines[0]}" "$(expand "$CPUS")"
	eventually '[ "$(wc -l <"$r")" -eq 3 ]'
	[ "$(grep -c '"cpus":null' "$r")" -eq 2 ] || fail "$(cat "$r")"
	# One warning, for the first.
	[[ "$stderr" =~ ^pinrun:\ warning:\ cannot\ place\ process\ ([0-9]+)\ on\ CPUs\ ([0-9,-]+):\ Operation\ not\ permitted\;\ it\ keeps\ the\ CPUs\ it\ inherited$ ]] || fail "stderr: $stderr"
	child=${BASH_REMATCH[1]}
	grep -q "^{\"version\":1,\"pid\":$child,.*\"cpus\":null" "$r" || fail "$child is not refused in: $(cat "$r")"
	assert_on "${lines[1]}" "$(expand "$CPUS")"
	assert_on "${lines[2]}" "$(expand "$CPUS")"
}

# ===========================================================================
# The rest of the interface

@test "follow spec: --threads, --wait-all and --report need --follow" {
	bad_usage "--threads needs --follow" --spread --threads -- true
	bad_usage "--wait-all needs --follow" --spread --wait-all -- true
	bad_usage "--report needs --follow" --spread --report "$BATS_TEST_TMPDIR/r" -- true
	[ ! -e "$BATS_TEST_TMPDIR/r" ]
}

@test "follow spec: -f is --follow; --follow=strict follows where ptrace works" {
	needs_ptrace
	load_slots --spread
	for opt in -f --follow=strict; do
		run --separate-stderr "$PINRUN" "$opt" --spread -- "$HELPERS/probe" "$NSLOTS"
		assert_success
		[ -z "$stderr" ] || fail "$opt: stderr: $stderr"
		assert_on "${lines[0]}" "$(expand "$CPUS")"
		for ((i = 1; i <= NSLOTS; i++)); do
			assert_one_slot "${lines[i]}"
		done
		[ "$(distinct child)" -eq "$NSLOTS" ] || fail "$opt: $output"
	done
}

@test "follow spec: --report records the slot given and where the process ran after re-pinning itself (issue 31)" {
	needs_ptrace
	needs_two_cpus
	load_slots --spread
	local r=$BATS_TEST_TMPDIR/r first
	first=$(expand "$CPUS" | cut -d, -f1)
	# The command re-pins itself (taskset, then exec), a child does not,
	# a subshell never exec's.
	run --separate-stderr "$PINRUN" --follow --spread --report "$r" -- sh -c '/bin/true; (exit 0); exec taskset -c "$1" sh -c "exit 0"' sh "$first"
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	grep -qE "\"program\":\"[^\"]*/dash\",\"cpus\":\"$CPUS\",\"ran\":\"$first\"," "$r" || fail "report: $(cat "$r")"
	grep -qE '"program":"[^"]*/true","cpus":"([0-9,-]+)","ran":"\1",' "$r" || fail "report: $(cat "$r")"
	grep -qE '"program":null,"cpus":"[0-9,-]+","ran":null,' "$r" || fail "report: $(cat "$r")"
}

@test "follow spec: --report writes one JSON line per process, survivors detached" {
	needs_ptrace
	load_slots --spread
	local r=$BATS_TEST_TMPDIR/report pidf=$BATS_TEST_TMPDIR/sleep.pid pid sh_pid re slot
	local t='[0-9]+\.[0-9]+' u='[0-9]+(\.[0-9]+)?' sh true sleep
	sh=$(realpath /bin/sh)
	true=$(realpath /bin/true)
	sleep=$(realpath "$(command -v sleep)")
	# The survivor is given time to exec sleep before the command ends.
	# stdout and stderr read to their end: the helper's note on the
	# survivor comes once the command has ended.
	run "$PINRUN" --follow --spread --report "$r" -- sh -c 'echo $$; exec 2>/dev/null; /bin/true; sh -c "kill -TERM \$\$"; sleep 3 </dev/null >/dev/null 2>&1 & echo $! >"$1"; sleep 0.3; exit 3' sh "$pidf"
	assert_failure 3
	output=$(drop_nnp_note "$output")
	mapfile -t lines <<<"$output"
	[ "${#lines[@]}" -eq 2 ] || fail "$output"
	assert_line --index 1 "pinrun: note: 1 process still running when the command ended, let go on CPUs $CPUS (the whole placement); --wait-all keeps following them"
	sh_pid=${lines[0]}
	pid=$(cat "$pidf")
	KILL+=("$pid")
	eventually '[ "$(wc -l <"$r")" -eq 5 ]'
	for re in \
		"^\{\"version\":1,\"pid\":$sh_pid,\"ppid\":[0-9]+,\"program\":\"$sh\",\"cpus\":\"([0-9,-]+)\",\"ran\":\"\\1\",\"start\":$t,\"end\":$t,\"status\":3,\"signal\":null,\"user\":$u,\"sys\":$u\}$" \
		"^\{\"version\":1,\"pid\":[0-9]+,\"ppid\":$sh_pid,\"program\":\"$true\",\"cpus\":\"([0-9,-]+)\",\"ran\":\"\\1\",\"start\":$t,\"end\":$t,\"status\":0,\"signal\":null,\"user\":$u,\"sys\":$u\}$" \
		"^\{\"version\":1,\"pid\":[0-9]+,\"ppid\":$sh_pid,\"program\":\"$sh\",\"cpus\":\"([0-9,-]+)\",\"ran\":\"\\1\",\"start\":$t,\"end\":$t,\"status\":null,\"signal\":15,\"user\":$u,\"sys\":$u\}$" \
		"^\{\"version\":1,\"pid\":[0-9]+,\"ppid\":$sh_pid,\"program\":\"$sleep\",\"cpus\":\"([0-9,-]+)\",\"ran\":\"\\1\",\"start\":$t,\"end\":$t,\"status\":0,\"signal\":null,\"user\":$u,\"sys\":$u\}$" \
		"^\{\"version\":1,\"pid\":$pid,\"ppid\":$sh_pid,\"program\":\"$sleep\",\"cpus\":\"([0-9,-]+)\",\"ran\":\"\\1\",\"start\":$t,\"end\":null,\"status\":null,\"signal\":null(,\"user\":$u,\"sys\":$u)?,\"detached\":true\}$"; do
		[ "$(grep -cE -- "$re" "$r")" -eq 1 ] || fail "no line like $re in:
$(cat "$r")"
		slot=$(grep -E -- "$re" "$r" | sed -E 's/.*"cpus":"([^"]*)".*/\1/')
		[[ "$re" == "^\{\"version\":1,\"pid\":$sh_pid,"* ]] && continue # the command's
		grep -qxF -- "$(expand "$slot")" <<<"$SLOTS" || fail "cpus $slot is not one slot: $(cat "$r")"
	done
	# The command itself: on the whole placement.
	slot=$(grep -E "^\{\"version\":1,\"pid\":$sh_pid," "$r" | sed -E 's/.*"cpus":"([^"]*)".*/\1/')
	assert_equal "$(expand "$slot")" "$(expand "$CPUS")"
}

@test "follow spec: --explain ends with one 'pinrun: follow:' line" {
	needs_ptrace
	local stderr
	# The helper writes the line once the command has ended: read stderr
	# through a pipe, to its end (bats' --separate-stderr reads a file as
	# soon as the command's pid ends, and could miss it).
	stderr=$("$PINRUN" --follow --spread --explain -- sh -c '/bin/true; echo ran' 2>&1 >"$BATS_TEST_TMPDIR/out")
	assert_equal "$(cat "$BATS_TEST_TMPDIR/out")" "ran"
	[[ "$(tail -n 1 <<<"$stderr")" == "pinrun: follow:"* ]] || fail "stderr: $stderr"
	[ "$(grep -c '^pinrun: follow:' <<<"$stderr")" -eq 1 ] || fail "stderr: $stderr"
}

@test "follow spec: the command keeps pinrun's pid, environment and descriptors" {
	needs_ptrace
	run sh -c 'echo $$; exec "$1" --follow --spread -- sh -c "echo \$\$"' sh "$PINRUN"
	assert_success
	[ "${lines[0]}" = "${lines[1]}" ] || fail "pid changed: $output"
	# valgrind adds variables and descriptors of its own to the command
	[ "${PINRUN_UNDER_VALGRIND:-}" != 1 ] || return 0
	run env -i PATH="$PATH" A=1 "$PINRUN" --follow --spread -- env
	assert_success
	assert_output "$(env -i PATH="$PATH" A=1 env)"
	local close_fds='for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done'
	run --separate-stderr bash -c "$close_fds; exec \"\$1\" --follow --spread -- ls /proc/self/fd" bash "$PINRUN"
	assert_success
	assert_output "$(bash -c "$close_fds; exec ls /proc/self/fd")"
}

# ===========================================================================
# Issue 17: the tracer on a loaded machine

# Two busy loops of the test's own hold both CPUs (killed in teardown).
busy_loops() {
	local i
	for i in 1 2; do
		(while :; do :; done) &
		KILL+=("$!")
	done
}

# A process of the run must not be left in a tracing stop, nor traced:
# gone, or running untraced. The helper lets go by exiting, which may come
# just after pinrun returns (under valgrind a while after): 10 s, not ever.
assert_not_held() {
	local pid=$1 i state= tracer=
	for ((i = 0; i < 200; i++)); do
		[ -d "/proc/$pid" ] || return 0
		state=$(awk '/^State:/ { print $2 }' "/proc/$pid/status" 2>/dev/null) || return 0
		tracer=$(tracer_of "$pid")
		case $state in
		t | T) ;;
		*) [ "$tracer" = 0 ] || [ "$tracer" = gone ] && return 0 ;;
		esac
		sleep 0.05
	done
	fail "process $pid is left held after 10 s: State $state, traced by $tracer"
}

@test "follow hang: a child announced by its parent's fork before its first stop keeps the helper tracing (30 runs, loaded)" {
	needs_ptrace
	busy_loops
	local i pidf=$BATS_TEST_TMPDIR/sleep.pid got hung=0 pid bad=
	for ((i = 0; i < 30; i++)); do
		rm -f "$pidf"
		got=$(timeout -k 1 10 bash -c 'x=$("$1" --follow --spread -- sh -c '\''sleep 0.5 </dev/null >/dev/null 2>&1 & echo $! >"$1"; echo hi'\'' sh "$2"); echo "rc=$? x=$x"' bash "$PINRUN" "$pidf") || got+=" (timeout: $?)"
		pid=$(cat "$pidf" 2>/dev/null) || fail "run $i: no pid written ($got)"
		KILL+=("$pid")
		if [ "$got" != "rc=0 x=hi" ]; then
			hung=$((hung + 1))
			bad+=" [$i: $got]"
			kill -9 "$pid" 2>/dev/null
			continue
		fi
		assert_not_held "$pid"
	done
	[ "$hung" -eq 0 ] || fail "$hung of 30 runs did not return hi with status 0:$bad"
}

@test "follow let go: a survivor blocked in epoll_wait, sigtimedwait or semtimedop sees no EINTR when pinrun ends" {
	needs_ptrace
	local mode d=$BATS_TEST_TMPDIR pid name
	for mode in epoll sigtimedwait semtimedop; do
		mkfifo "$d/in-$mode"
		exec 4<>"$d/in-$mode"
		# The command ends once its child is blocked in the call.
		run "$PINRUN" --follow --spread -- sh -c '"$1" "$2" <"$3" >"$4" 2>&1 &
			pid=$!; echo $pid >"$5"; want=
			while [ -z "$want" ]; do want=$(sed -n "s/^waiting //p" "$4"); done
			while [ "$(cut -d" " -f1 /proc/$pid/syscall 2>/dev/null)" != "$want" ]; do sleep 0.01; done' \
			sh "$HELPERS/blockwait" "$mode" "$d/in-$mode" "$d/out-$mode" "$d/pid-$mode"
		assert_success
		pid=$(cat "$d/pid-$mode")
		KILL+=("$pid")
		eventually '[ "$(tracer_of "$pid")" = 0 ]'
		echo go >&4
		eventually '[ ! -d "/proc/$pid" ] || [ "$(state_of "$pid")" = Z ]'
		exec 4>&-
		name=${mode/#epoll/epoll_wait}
		[ "$(tail -n 1 "$d/out-$mode")" = "$name: ok" ] || fail "$mode: $(cat "$d/out-$mode")"
	done
}

@test "follow trace: an attach to a zombie thread-group leader fails at once as without pinrun, and stalls no other" {
	needs_ptrace
	needs_notify
	local plain
	plain=$("$HELPERS/zombieattach")
	[ "$plain" = "zombie leader: Operation not permitted
plain child: ok" ] || fail "without pinrun: $plain"
	# Before, the attach waited until the zombie's group ended (here:
	# never, until the timeout) and got ESRCH.
	run --separate-stderr timeout 20 "$PINRUN" --follow --spread -- "$HELPERS/zombieattach"
	assert_success
	assert_output "$plain"
	stderr=$(drop_nnp_note "$stderr")
	# At most the one note on a process that starts threads.
	[[ -z "$stderr" || "$stderr" =~ ^pinrun:\ note:\ process\ [0-9]+\ \(zombieattach\)\ starts\ threads,\ which\ share\ its\ CPUs\ [0-9,-]+\;\ --threads\ would\ place\ each\ on\ a\ slot$ ]] || fail "stderr: $stderr"
}

@test "follow wait-all: the command really exits: bash's exec > >(tee log) returns, the log written" {
	needs_ptrace
	local log=$BATS_TEST_TMPDIR/log
	# Before, the command was held at its exit with its descriptors open,
	# tee never saw end of file, and nothing returned.
	run --separate-stderr timeout 20 "$PINRUN" --spread --follow --wait-all -- bash -c 'exec > >(tee "$1"); echo hi' bash "$log"
	assert_success
	assert_output hi
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[ "$(cat "$log")" = hi ] || fail "log: $(cat "$log")"
}

@test "follow wait-all: Python multiprocessing with the forkserver and spawn start methods returns" {
	needs_ptrace
	command -v python3 >/dev/null || skip_unless_works "no python3"
	local m py=$BATS_TEST_TMPDIR/pool.py code='import multiprocessing as mp, sys
def sq(x):
    return x * x
if __name__ == "__main__":
    mp.set_start_method(sys.argv[1])
    with mp.Pool(2) as p:
        print(sum(p.map(sq, range(10))))'
	echo "$code" >"$py" # spawn and forkserver import the main module by its file
	for m in forkserver spawn; do
		run --separate-stderr timeout 60 "$PINRUN" --spread --follow --wait-all -- python3 "$py" "$m"
		[ "$status" -eq 0 ] || fail "$m: status $status, stderr: $stderr"
		[ "$output" = 285 ] || fail "$m: $output"
	done
}

# Start "$PINRUN" --wait-all on the shell code $1 in the background: PID
# is pinrun's; the code writes the command's pid to $f first.
start_waiting() {
	rm -f "$f"
	"$PINRUN" --spread --follow --wait-all -- sh -c 'echo $$ >"$1"; '"$1" sh "$f" &
	PID=$!
	KILL+=("$PID")
	eventually '[ -s "$f" ]'
	KILL+=("$(cat "$f")")
}

@test "follow wait-all: SIGTERM to pinrun reaches the command, SIGKILL ends pinrun at once" {
	needs_ptrace
	local f=$BATS_TEST_TMPDIR/ready st
	start_waiting 'trap "exit 7" TERM; while :; do sleep 0.05; done'
	kill -TERM "$PID"
	st=0
	wait "$PID" || st=$?
	[ "$st" -eq 7 ] || fail "status $st after SIGTERM, want the command's 7"
	# Before, the command was held at its exit for its child, and no
	# signal could end it: the shell waited for the child.
	start_waiting 'sleep 1000 </dev/null >/dev/null 2>&1 & echo $! >"$1.child"; exit 0'
	eventually '[ -s "$f.child" ]'
	KILL+=("$(cat "$f.child")")
	kill -KILL "$PID"
	st=0
	wait "$PID" || st=$?
	[ "$st" -eq 137 ] || fail "status $st after SIGKILL"
}

@test "follow wait-all: SIGKILL of pinrun kills the command as a SIGKILL of the command would, its children run on (issue 31)" {
	needs_ptrace
	local f=$BATS_TEST_TMPDIR/ready cmd child st
	start_waiting 'sleep 1000 </dev/null >/dev/null 2>&1 & echo $! >"$1.child"; while :; do sleep 0.05; done'
	eventually '[ -s "$f.child" ]'
	cmd=$(cat "$f")
	child=$(cat "$f.child")
	KILL+=("$child")
	kill -KILL "$PID"
	st=0
	wait "$PID" || st=$?
	[ "$st" -eq 137 ] || fail "status $st after SIGKILL"
	# Gone (or a zombie its new parent has yet to reap), as if killed.
	eventually '[ ! -d "/proc/$cmd" ] || [ "$(state_of "$cmd")" = Z ]'
	[ -d "/proc/$child" ] && [ "$(state_of "$child")" != Z ] || fail "the command's child died too"
	# The one trace of pinrun the command can see, and only under
	# --wait-all: its parent-death signal.
	run --separate-stderr "$PINRUN" --spread --follow --wait-all -- python3 -c 'import ctypes, signal; s = ctypes.c_int(); ctypes.CDLL(None).prctl(2, ctypes.byref(s)); print(s.value == signal.SIGKILL)'
	assert_success
	assert_output True
}

@test "follow report: the command's line is written when pinrun returns (200 runs, loaded)" {
	needs_ptrace
	busy_loops
	local i r=$BATS_TEST_TMPDIR/r.json missing=0 st
	for ((i = 0; i < 200; i++)); do
		rm -f "$r"
		st=0
		"$PINRUN" --spread --follow --report "$r" -- sh -c 'exit 3' || st=$?
		[ "$st" -eq 3 ] || fail "run $i: status $st"
		grep -q '"end":[0-9.]*,"status":3,' "$r" || missing=$((missing + 1))
	done
	[ "$missing" -eq 0 ] || fail "$missing of 200 runs returned before the command's line was written"
}

@test "follow trace: a program installing a seccomp listener of its own gets one warning naming it" {
	needs_ptrace
	needs_notify
	local want
	want="pinrun: warning: $(realpath "$HELPERS/seccomp_notify") installs a seccomp listener, which the kernel refuses under --follow (pinrun's filter has one): its call fails with EBUSY"
	# The kernel allows one listener in a tree of filters: the program's
	# fails (EBUSY), now no longer silently; once, however often it tries.
	run --separate-stderr "$PINRUN" --spread --follow -- sh -c '"$1"; "$1"' sh "$HELPERS/seccomp_notify"
	assert_failure 1
	[ "$stderr" = "$want" ] || fail "stderr: '$stderr', want '$want'"
	# A nested pinrun is no such program: the outer one has its
	# attaches (the nested pinrun test).
	run --separate-stderr "$PINRUN" --spread --follow -- sh -c '"$1" --spread --follow -- true' sh "$PINRUN"
	assert_success
	[ -z "$stderr" ] || fail "nested pinrun: stderr: $stderr"
}

@test "follow 36h: in an unprivileged user namespace, a set-user-ID program of an unmapped owner is no privileged one" {
	needs_ptrace
	needs_root
	local cmd='mount -t tmpfs none /mnt && echo mounted'
	run --separate-stderr "${NOBODY[@]}" unshare -rm sh -c "$cmd"
	[ "$status" -eq 0 ] || skip_unless_works "no unprivileged user namespace here: $stderr"
	assert_output mounted
	# The kernel gives nothing of a set-user-ID file whose owner (root)
	# is not mapped in the namespace: nothing is lost, nothing is said.
	run --separate-stderr "${NOBODY[@]}" "$PINRUN" --spread --follow -- unshare -rm sh -c "$cmd"
	assert_success
	assert_output mounted
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "follow trace: unprivileged, survivors that keep no_new_privs are said once at the end" {
	needs_ptrace
	needs_notify
	needs_root
	load_slots --spread
	make_shared
	local pidf=$SHARED/pids
	: >"$pidf"
	chmod 666 "$pidf"
	run --separate-stderr "${NOBODY[@]}" "$PINRUN" --spread --follow -- sh -c 'for i in 1 2; do sleep 5 </dev/null >/dev/null 2>&1 & echo $! >>"$1"; done' sh "$pidf"
	mapfile -t -O "${#KILL[@]}" KILL <"$pidf"
	assert_success
	# The survivors' note counts the children whose first stop came
	# before the command's end: one or both, by timing (the other is
	# placed as it comes); the no_new_privs note counts both.
	[[ "$stderr" =~ ^pinrun:\ note:\ [12]\ process(es)?\ still\ running\ when\ the\ command\ ended,\ let\ go\ on\ CPUs\ $CPUS\ \(the\ whole\ placement\)\;\ --wait-all\ keeps\ following\ them$'\n'"pinrun: note: 2 processes still running keep no_new_privs, which --follow's seccomp filter needed without CAP_SYS_ADMIN: set-user-ID programs they run get no privileges"$ ]] || fail "stderr: $stderr"
	# As root the filter needs no no_new_privs: only the survivors' note.
	run --separate-stderr "$PINRUN" --spread --follow -- sh -c 'sleep 5 </dev/null >/dev/null 2>&1 & echo $! >>"$1"' sh "$pidf"
	mapfile -t -O "${#KILL[@]}" KILL <"$pidf"
	assert_success
	[ -z "$stderr" ] || [ "$stderr" = "pinrun: note: 1 process still running when the command ended, let go on CPUs $CPUS (the whole placement); --wait-all keeps following them" ] || fail "as root: $stderr"
}
