#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# --follow, pinrun's side (follower.c, slots.c, report.c): where the
# command and its children go (the command keeps the whole placement, so
# that programs size themselves to it; a child inherits a slot only when
# its parent really is on it), where survivors go when pinrun lets go of
# them, and what the report holds (valid JSON whatever the program's
# name; a report that cannot be written is a warning, never a dead
# helper). Issue 17, items 4, 8, 9 and 10.
# shellcheck disable=SC2016,SC2154 # code for another shell; bats variables

load lib/test_helper

BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

setup() {
	TREE=$HELPERS/tree
	[ -x "$TREE" ] || fail "tests/helpers/tree is not built (make check builds it)"
	"$PINRUN" --spread --follow -- true 2>/dev/null ||
		skip_unless_works "--follow does not work here"
	# The whole placement, as a plain run binds it, and its slots.
	CPUS=$("$PINRUN" --spread -- awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)
	json=$("$PINRUN" --spread --json)
	list=${json#*\"slots\":\[\"}
	list=${list%%\"\]*}
	SLOTS=${list//\",\"/ }
	BG=
}

teardown() {
	kill_background
}

# The --explain counts of two children that run at once, on a machine of
# two slots or more: one on each of the first two slots.
slot_counts() {
	local out="" i=0 s
	for s in $SLOTS; do
		out+="${out:+, }$s: $([ "$i" -lt 2 ] && echo 1 || echo 0)"
		i=$((i + 1))
	done
	echo "$out"
}

# The report's cpus for the line whose program is $2, in report $1.
cpus_of_program() {
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    if j["program"] == sys.argv[2]:
        print(j["cpus"])' "$1" "$2"
}

# --- the command keeps the placement (item 8) -------------------------------

@test "follow place: the command sees the whole placement: nproc as without --follow" {
	plain=$("$PINRUN" --spread -- nproc)
	run --separate-stderr "$PINRUN" --spread --follow -- nproc
	assert_success
	assert_output "$plain"
	assert_equal "$plain" "$(expand "$CPUS" | tr , '\n' | wc -l)"
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "follow place: python3's os.sched_getaffinity(0) as without --follow" {
	command -v python3 >/dev/null || skip_unless_works "no python3"
	prog='import os; print(sorted(os.sched_getaffinity(0)))'
	plain=$("$PINRUN" --spread -- python3 -c "$prog")
	run --separate-stderr "$PINRUN" --spread --follow -- python3 -c "$prog"
	assert_success
	assert_output "$plain"
	[ "$(python3 -c "print(len($plain))")" = "$("$PINRUN" --spread -- nproc)" ] || fail "plain: $plain"
}

@test "follow place: xz -T0 uses as many threads as without --follow" {
	command -v xz >/dev/null || skip_unless_works "xz is not installed"
	plain=$(echo | "$PINRUN" --spread -- xz -T0 -vv -c 2>&1 >/dev/null | grep '^xz: Using up to')
	[ -n "$plain" ] || fail "xz -vv says nothing of threads"
	run --separate-stderr "$PINRUN" --spread --follow -- xz -T0 -vv -c </dev/null
	assert_success
	grep -qxF -- "$plain" <<<"$stderr" || fail "plainly '$plain'; under --follow: $stderr"
}

@test "follow place: GNU parallel runs as many jobs at once as without --follow" {
	command -v parallel >/dev/null || skip_unless_works "GNU parallel is not installed"
	# {%} is the job slot: as many distinct slots as jobs run at once
	# (parallel starts them all before it waits for one).
	jobs() { "$PINRUN" --spread "$@" -- parallel --will-cite 'echo {%}' ::: a b c d e f g h | sort -u | wc -l; }
	plain=$(jobs)
	[ "$plain" -eq "$("$PINRUN" --spread -- nproc)" ] || fail "plain: $plain jobs"
	[ "$(jobs --follow)" -eq "$plain" ] || fail "--follow: $(jobs --follow) jobs, plain $plain"
}

@test "follow place: the command's children still get one slot each" {
	run --separate-stderr "$PINRUN" --spread --follow -- sh -c 'grep Cpus_allowed_list /proc/self/status; exit 0'
	assert_success
	[[ "$output" =~ ^Cpus_allowed_list:[[:space:]]+([0-9,-]+)$ ]] || fail "$output"
	[[ " $SLOTS " == *" ${BASH_REMATCH[1]} "* ]] || fail "the child is on ${BASH_REMATCH[1]}, not one slot of $SLOTS"
}

# --- --threads: what a placed task is told of its affinity (item 8) ---------

# A Python program's main thread and one thread of it: what
# sched_getaffinity(0) tells each (how many CPUs), and where each really
# is (its Cpus_allowed_list), "main N LIST" and "thread N LIST".
told_and_real='import os, threading
def say(who):
    real = [l.split()[1] for l in open("/proc/thread-self/status") if l.startswith("Cpus_allowed_list")][0]
    print(who, len(os.sched_getaffinity(0)), real, flush=True)
say("main")
t = threading.Thread(target=say, args=("thread",)); t.start(); t.join()'

@test "follow place: --threads: a placed child and its thread are told the whole placement; each stays on its slot" {
	needs_program python3
	needs_notify
	plain=$("$PINRUN" --spread -- nproc)
	run --separate-stderr "$PINRUN" --spread --follow --threads -- sh -c 'python3 -c "$1"; exit 0' sh "$told_and_real"
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[ "${#lines[@]}" -eq 2 ] || fail "not two lines: $output"
	for i in 0 1; do
		read -r who n real <<<"${lines[$i]}"
		assert_equal "$who" "$([ "$i" = 0 ] && echo main || echo thread)"
		assert_equal "$n" "$plain"
		[[ " $SLOTS " == *" $real "* ]] || fail "$who is on $real, not one slot of $SLOTS"
	done
	# Without --threads, the child is told its slot, as before.
	run --separate-stderr "$PINRUN" --spread --follow -- sh -c 'python3 -c "$1"; exit 0' sh "$told_and_real"
	assert_success
	read -r who n real <<<"${lines[0]}"
	assert_equal "$n" "$(expand "$real" | wc -l)"
}

@test "follow place: --threads: a task that moved itself off its slot is told the truth" {
	needs_program python3
	# shellcheck disable=SC2086 # one word per slot
	set -- $SLOTS
	[ $# -ge 2 ] || skip_unless_works "needs two slots, the placement has $*"
	# The command's first child is on the first slot; it moves to the
	# second, then asks. (Its thread is placed on a slot by --threads.)
	run --separate-stderr "$PINRUN" --spread --follow --threads -- sh -c 'taskset -c "$1" python3 -c "$2"; exit 0' sh "$2" "$told_and_real"
	assert_success
	assert_line --index 0 "main $(expand "$2" | wc -l) $2"
}

@test "follow place: --threads: the kernel's lengths and errors of sched_getaffinity as in a plain run" {
	needs_program python3
	needs_notify
	# (length, pointer): what the call returns, its errno, the first byte
	# written, how many bytes past the buffer changed; a short
	# length is EINVAL, a bad pointer EFAULT, a long one the kernel's mask
	# size. The kernel reads the length as an unsigned int (issue 31):
	# 0x80000000 overflows its check (EINVAL), 0xffffffff and -1 are odd
	# (EINVAL), 0x100000001 is 1, 0x100000008 is 8 (into an 8-byte buffer).
	# Each buffer is the length the kernel sees, at most 4096 bytes, and 64
	# more bytes of 0xaa that nothing may write.
	prog='import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
NR = 204 if os.uname().machine == "x86_64" else 123
for n, bad in ((1, False), (8, False), (9, False), (1024, False), (1 << 20, False), (128, True),
               (0x80000000, False), (0xffffffff, False), (-1, False), (0x100000001, False),
               (0x100000008, False), (0x100000400, False), (0x20000008, False)):
    n &= (1 << 64) - 1
    size = min(n & 0xffffffff, 4096) + 64
    buf = ctypes.create_string_buffer(b"\xaa" * size, size)
    r = libc.syscall(NR, 0, ctypes.c_size_t(n), None if bad else buf)
    past = sum(1 for b in buf.raw[size - 64:] if b != 0xaa)
    print(hex(n), r, ctypes.get_errno() if r < 0 else 0, buf.raw[0] if r > 0 else "-", past)'
	plain=$("$PINRUN" --spread -- python3 -c "$prog")
	[ "$(wc -l <<<"$plain")" -eq 13 ] || fail "plain: $plain"
	# The kernel's own answers, as documented above (x86_64 and arm64).
	grep -qx '0x80000000 -1 22 - 0' <<<"$plain" || fail "plain: $plain"
	grep -qx '0xffffffffffffffff -1 22 - 0' <<<"$plain" || fail "plain: $plain"
	grep -qx '0x100000001 -1 22 - 0' <<<"$plain" || fail "plain: $plain"
	grep -qE '^0x100000008 8 0 [0-9]+ 0$' <<<"$plain" || fail "plain: $plain"
	run --separate-stderr "$PINRUN" --spread --follow --threads -- sh -c 'python3 -c "$1"; exit 0' sh "$prog"
	assert_success
	assert_output "$plain"
}

@test "follow place: --threads: Java sizes its pool to the placement, as without --follow" {
	needs_program java
	needs_notify
	printf '%s\n' 'public class Cpus { public static void main(String[] a) {' \
		'System.out.println(Runtime.getRuntime().availableProcessors()); } }' >"$BATS_TEST_TMPDIR/Cpus.java"
	# The JVM runs main in a thread of its own, which --threads places.
	plain=$("$PINRUN" --spread -- java "$BATS_TEST_TMPDIR/Cpus.java")
	assert_equal "$plain" "$("$PINRUN" --spread -- nproc)"
	run --separate-stderr "$PINRUN" --spread --follow --threads -- java "$BATS_TEST_TMPDIR/Cpus.java"
	assert_success
	assert_output "$plain"
}

@test "follow place: --threads: an OpenMP program run by a shell starts a thread per CPU, each on a slot of its own" {
	needs_program gcc
	needs_notify
	# shellcheck disable=SC2086 # one word per slot
	set -- $SLOTS
	[ $# -ge 2 ] || skip_unless_works "needs two slots, the placement has $*"
	# Each thread of libgomp's team: how many there are, and where it
	# really runs (its Cpus_allowed_list).
	cat >"$BATS_TEST_TMPDIR/omp.c" <<'EOF'
#include <omp.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
#pragma omp parallel
	{
		char line[256] = "", *p = NULL;
		FILE *f = fopen("/proc/thread-self/status", "r");

		while (f && fgets(line, sizeof(line), f))
			if ((p = strstr(line, "Cpus_allowed_list:")))
				break;
		if (f)
			fclose(f);
#pragma omp critical
		printf("%d %s", omp_get_num_threads(),
		       p ? p + strlen("Cpus_allowed_list:\t") : "?\n");
	}
	return 0;
}
EOF
	gcc -fopenmp -o "$BATS_TEST_TMPDIR/omp" "$BATS_TEST_TMPDIR/omp.c" || fail "gcc -fopenmp failed"
	plain=$("$PINRUN" --spread -- nproc)
	run --separate-stderr env -u OMP_NUM_THREADS "$PINRUN" --spread --follow --threads -- sh -c '"$1"; exit 0' sh "$BATS_TEST_TMPDIR/omp"
	assert_success
	[ "${#lines[@]}" -eq "$plain" ] || fail "not $plain threads: $output"
	seen=
	for l in "${lines[@]}"; do
		read -r n cpus <<<"$l"
		assert_equal "$n" "$plain"
		[[ " $SLOTS " == *" $cpus "* ]] || fail "a thread on $cpus, not one slot of $SLOTS: $output"
		# (one per slot while there are enough: --spread has them)
		[ "$plain" -gt "$(wc -w <<<"$SLOTS")" ] || [[ " $seen " != *" $cpus "* ]] ||
			fail "two threads on slot $cpus: $output"
		seen+=" $cpus"
	done
}

@test "follow place: --threads: the Go field report's route, README's line, serves with each runtime thread on a slot" {
	needs_program go ab -- the Go example and its load
	needs_notify
	# shellcheck disable=SC2086 # one word per slot
	set -- $SLOTS
	[ $# -ge 2 ] || skip_unless_works "needs two slots, the placement has $*"
	local port=$((20000 + $$ % 20000)) pid cpus=" " t c
	HOME=$BATS_TEST_TMPDIR GOCACHE=$BATS_TEST_TMPDIR/gocache GOFLAGS=-mod=mod \
		go build -o "$BATS_TEST_TMPDIR/server" "$REPO/examples/http/burnserver.go" || fail "go build failed"
	"$PINRUN" --spread --follow --threads -- "$BATS_TEST_TMPDIR/server" -n 1000 "$port" </dev/null >/dev/null 2>&1 &
	pid=$!
	BG=$pid
	# A 16-CPU guest under TCG is slow to start the server.
	run "$REPO/examples/http/load" -t 1 -c 2 -w 30 "$port"
	assert_success
	# Every thread the runtime started is on one slot, and both slots
	# have some; the command's first thread keeps the whole placement.
	assert_equal "$(awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$pid/status")" "$CPUS"
	for t in /proc/"$pid"/task/*; do
		[ "${t##*/}" != "$pid" ] || continue
		c=$(awk '/^Cpus_allowed_list/ { print $2 }' "$t/status")
		[[ " $SLOTS " == *" $c "* ]] || fail "thread ${t##*/} on $c, not one slot of $SLOTS"
		cpus+="$c "
	done
	[[ $cpus == *" $1 "* && $cpus == *" $2 "* ]] || fail "threads on$cpus: not on both slots $1 and $2"
}

@test "follow place: without --threads, a process on a slot that starts threads gets one note" {
	run --separate-stderr "$PINRUN" --spread --follow -- sh -c '"$1" "T(S1)T(S1)"; "$1" "T()"; exit 0' sh "$TREE"
	assert_success
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "not one line: $stderr"
	[[ "$stderr" =~ ^pinrun:\ note:\ process\ [0-9]+\ \(tree\)\ starts\ threads,\ which\ share\ its\ CPUs\ ([0-9,-]+)\;\ --threads\ would\ place\ each\ on\ a\ slot$ ]] || fail "stderr: $stderr"
	[[ " $SLOTS " == *" ${BASH_REMATCH[1]} "* ]] || fail "CPUs ${BASH_REMATCH[1]}: not a slot of $SLOTS"
	# With --threads, no note: they are placed.
	run --separate-stderr "$PINRUN" --spread --follow --threads -- sh -c '"$1" "T(S1)T(S1)"; exit 0' sh "$TREE"
	assert_success
	[ -z "$stderr" ] || fail "stderr with --threads: $stderr"
}

# --- survivors on the whole placement (item 9) ------------------------------

@test "follow place: a daemon let go runs on the whole placement, with one note" {
	pidf=$BATS_TEST_TMPDIR/pid
	# stdout and stderr together, read to their end: the helper's note
	# comes once the command has ended, before it lets go of stderr.
	run "$PINRUN" --spread --follow -- sh -c 'setsid sleep 30 </dev/null >/dev/null 2>&1 & echo $! >"$1"' sh "$pidf"
	assert_success
	pid=$(cat "$pidf")
	BG=$pid
	output=$(drop_nnp_note "$output")
	assert_output "pinrun: note: 1 process still running when the command ended, let go on CPUs $CPUS (the whole placement); --wait-all keeps following them"
	# Let go: moved before the tracer detached it.
	for _ in $(seq 100); do
		[ "$(awk '/^TracerPid/ { print $2 }' "/proc/$pid/status")" = 0 ] && break
		sleep 0.05
	done
	assert_equal "$(awk '/^TracerPid/ { print $2 }' "/proc/$pid/status")" 0
	assert_equal "$(awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$pid/status")" "$CPUS"
}

@test "follow place: --explain counts the processes let go and says --wait-all keeps them" {
	pidf=$BATS_TEST_TMPDIR/pid
	# The command ends once both children have started (each has been
	# placed then): a child whose first stop comes after the command's
	# end is let go on the whole placement before it is given a slot.
	# (The wait is the shell's builtins only: no process of its own.)
	run "$PINRUN" --spread --follow --explain -- sh -c ': >"$1.up"; for i in 1 2; do (echo >>"$1.up"; exec sleep 30) </dev/null >/dev/null 2>&1 & echo $! >>"$1"; done; n=0; until [ "$n" -ge 2 ]; do n=0; while read -r _; do n=$((n + 1)); done <"$1.up"; done' sh "$pidf"
	assert_success
	BG=$(cat "$pidf")
	: "${BG:?}" # killed in teardown
	assert_line "pinrun: note: 2 processes still running when the command ended, let go on CPUs $CPUS (the whole placement); --wait-all keeps following them"
	assert_line "pinrun: follow: 3 processes followed; tasks per slot (CPUs: count) $(slot_counts); let go: 2 still running (on CPUs $CPUS; --wait-all keeps them), 0 privileged, 0 tracing or traced"
}

@test "follow place: under --wait-all, --explain's summary does not offer --wait-all" {
	local counts="" s
	# Each /bin/true on the shell's slot, the first: the shell waits.
	for s in $SLOTS; do
		counts+="${counts:+, }$s: $([ -z "$counts" ] && echo 2 || echo 0)"
	done
	run --separate-stderr "$PINRUN" --spread --follow --wait-all --explain -- sh -c '/bin/true; /bin/true'
	assert_success
	[ "${stderr_lines[-1]}" = "pinrun: follow: 3 processes followed; tasks per slot (CPUs: count) $counts; let go: 0 still running (on CPUs $CPUS), 0 privileged, 0 tracing or traced" ] || fail "$stderr"
}

@test "follow place: with --wait-all, a reloaded daemon's new workers are not both put on one slot" {
	d=$BATS_TEST_TMPDIR
	[ "$(wc -w <<<"$SLOTS")" -ge 2 ] || skip "one slot only"
	# A master with two workers, then two new ones while the old still
	# run (nginx's reload); each worker says it started, the master
	# waits for that (no sleeps for ordering).
	cat >"$d/master" <<'SH'
worker() { echo "$1" >>"$D/started"; exec "$D/worker" 1; }
started() { [ -f "$D/started" ] && [ "$(wc -l <"$D/started")" -ge "$1" ]; }
worker old1 & worker old2 &
until started 2; do sleep 0.01; done
worker new1 & worker new2 &
until started 4; do sleep 0.01; done
wait
SH
	cp "$(command -v sleep)" "$d/worker"
	run --separate-stderr env D="$d" "$PINRUN" --spread --follow --wait-all --report "$d/r" -- sh -c 'sh "$1" & exit 0' sh "$d/master"
	assert_success
	# The workers, in the order they started: the last two are the new.
	run python3 -c 'import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
print(" ".join(j["cpus"] for j in sorted(lines, key=lambda j: j["start"]) if j["program"] and j["program"].endswith("/worker")))' "$d/r"
	assert_success
	read -r -a cpus <<<"$output"
	[ "${#cpus[@]}" -eq 4 ] || fail "not 4 workers: $output"
	[ "${cpus[2]}" != "${cpus[3]}" ] || fail "the new workers share slot ${cpus[2]} (all: $output)"
}

# --- placing by the real mask (item 10) -------------------------------------

@test "follow place: a child of a parent that re-pinned itself runs where the report says" {
	d=$BATS_TEST_TMPDIR
	grep_=$(command -v grep)
	# The issue's case (taskset is the command), and one level down.
	for cmd in 'taskset -c "$1" sh -c "sh -c \"grep Cpus_allowed_list /proc/self/status\""' \
		'taskset -c "$1" sh -c "sh -c \"grep Cpus_allowed_list /proc/self/status\""; exit 0'; do
		rm -f "$d/r"
		run --separate-stderr "$PINRUN" --spread --follow --report "$d/r" -- sh -c "$cmd" sh "$CPUS"
		assert_success
		[[ "$output" =~ ^Cpus_allowed_list:[[:space:]]+([0-9,-]+)$ ]] || fail "$output"
		ran=${BASH_REMATCH[1]}
		assert_equal "$(cpus_of_program "$d/r" "$(readlink -f "$grep_")")" "$ran"
	done
}

# --- the report (item 4) ----------------------------------------------------

@test "follow place: a program path that is not UTF-8 is escaped: every line is valid JSON" {
	d=$BATS_TEST_TMPDIR
	prog=$d/$'t\xffr\xc3ue'
	cp /bin/true "$prog"
	run "$PINRUN" --spread --follow --report "$d/r" -- sh -c '"$1"; exit 0' sh "$prog"
	assert_success
	# os.fsencode gives the bytes back (the \udcXX of surrogateescape).
	run python3 -c 'import json, os, sys
for l in open(sys.argv[1], "rb"):
    j = json.loads(l.decode("utf-8"))
    if j["program"] and os.fsencode(j["program"]) == os.fsencode(sys.argv[2]):
        print("found")' "$d/r" "$prog"
	assert_success
	assert_output found
	grep -qF '\udcff' "$d/r" || fail "no \\udcff in: $(cat "$d/r")"
}

@test "follow place: a report to /dev/full is one warning; the helper goes on placing" {
	run --separate-stderr "$PINRUN" --spread --follow --report /dev/full -- sh -c '/bin/true; /bin/true; grep Cpus_allowed_list /proc/self/status; exit 0'
	assert_success
	assert_equal "$stderr" "pinrun: warning: cannot write report '/dev/full': No space left on device; lines are missing from it"
	[[ "$output" =~ ^Cpus_allowed_list:[[:space:]]+([0-9,-]+)$ ]] || fail "$output"
	[[ " $SLOTS " == *" ${BASH_REMATCH[1]} "* ]] || fail "the last child is on ${BASH_REMATCH[1]}, not one slot of $SLOTS: following stopped"
}

@test "follow place: under ulimit -f the helper lives on (SIGXFSZ ignored): one warning, no half line" {
	d=$BATS_TEST_TMPDIR
	run --separate-stderr bash -c 'ulimit -f 1; exec "$@"' sh "$PINRUN" --spread --follow --report "$d/r" -- sh -c 'i=0; while [ $i -lt 40 ]; do /bin/true; i=$((i+1)); done; grep Cpus_allowed_list /proc/self/status; exit 0'
	assert_success
	assert_equal "$stderr" "pinrun: warning: cannot write report '$d/r': File too large; lines are missing from it"
	[[ "$output" =~ ^Cpus_allowed_list:[[:space:]]+([0-9,-]+)$ ]] || fail "$output"
	[[ " $SLOTS " == *" ${BASH_REMATCH[1]} "* ]] || fail "the last child is on ${BASH_REMATCH[1]}, not one slot of $SLOTS: following stopped"
	[ "$(stat -c %s "$d/r")" -le 1024 ] || fail "past the limit"
	[ -s "$d/r" ] || fail "nothing written before the limit"
	run python3 -c 'import json, sys
data = open(sys.argv[1], "rb").read()
assert data.endswith(b"\n"), "a half line"
for l in data.splitlines(): json.loads(l)
print(len(data.splitlines()))' "$d/r"
	assert_success
}

@test "follow place: as PID 1, a report that cannot be written fails a command that succeeded (125)" {
	unshare -fp --mount-proc true 2>/dev/null ||
		skip_unless_works "cannot make a PID namespace (unshare -fp --mount-proc)"
	run --separate-stderr unshare -fp --mount-proc "$PINRUN" --spread --follow --report /dev/full -- sh -c '/bin/true; exit 0'
	assert_failure 125
	assert_equal "$stderr" "pinrun: warning: cannot write report '/dev/full': No space left on device; lines are missing from it"
	run --separate-stderr unshare -fp --mount-proc "$PINRUN" --spread --follow --report /dev/full -- sh -c '/bin/true; exit 3'
	assert_failure 3
}

@test "follow place: with --wait-all, a report that cannot be written fails a command that succeeded (125)" {
	# pinrun waits for the command here, so its status can say so; the
	# helper tells it once the tree has ended.
	run --separate-stderr "$PINRUN" --spread --follow --wait-all --report /dev/full -- sh -c '/bin/true; exit 0'
	assert_failure 125
	assert_equal "$stderr" "pinrun: warning: cannot write report '/dev/full': No space left on device; lines are missing from it"
	run --separate-stderr "$PINRUN" --spread --follow --wait-all --report /dev/full -- sh -c '/bin/true; exit 3'
	assert_failure 3
	# A report written whole: the command's status.
	run --separate-stderr "$PINRUN" --spread --follow --wait-all --report "$BATS_TEST_TMPDIR/r" -- sh -c '/bin/true; exit 0'
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
}
