#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# --tell's view (view/view.c, the view family): programs that count CPUs
# from sysconf, /sys and /proc count the placement, with and without
# --follow; what cannot be viewed behaves as plainly. Then the survey:
# each program Debian has, under a one-CPU placement, with and without
# the view, its real workers counted in /proc against the count it starts
# when told N outright.

load lib/test_helper

setup() {
	load_allowed
	VIEW_LIB=$(realpath "$REPO/view/libpinrun-view.so")
	ONLINE=$(getconf _NPROCESSORS_ONLN)
	CONF=$(getconf _NPROCESSORS_CONF)
	BG=
}

teardown() {
	kill_background
	[ -z "${SUID_DIR:-}" ] || rm -rf "$SUID_DIR"
}

@test "view: getconf and Python's os.cpu_count() and Pool() count the placement under --tell, with and without --follow" {
	needs_two_cpus
	local py='import os, multiprocessing as m; p = m.Pool(); print(os.cpu_count(), len(p._pool)); p.close()'
	for mode in "" --follow "--follow --threads"; do
		# shellcheck disable=SC2086 # the mode's options
		run --separate-stderr "$PINRUN" --cpus "$SECOND" --tell $mode -- \
			sh -c 'getconf _NPROCESSORS_ONLN; getconf _NPROCESSORS_CONF; python3 -c "$1"' sh "$py"
		assert_success
		assert_output "1
$CONF
1 1"
	done
	# Without the view (no --tell, --follow alone, other families): the
	# machine's count, as before.
	for mode in "" --follow "--tell=omp,python,build"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$PINRUN" --cpus "$SECOND" $mode -- \
			sh -c 'getconf _NPROCESSORS_ONLN; python3 -c "$1"' sh "$py"
		assert_success
		assert_output "$ONLINE
$ONLINE $ONLINE"
	done
}

@test "view: /sys/devices/system/cpu/online, /proc/stat and /proc/cpuinfo show the placement, whatever path reaches them" {
	needs_two_cpus
	ln -s /proc/stat "$BATS_TEST_TMPDIR/stat"
	echo mine >"$BATS_TEST_TMPDIR/online"
	run --separate-stderr "$PINRUN" --cpus "$SECOND" --tell=view -- sh -c '
		cat /sys/devices/system/cpu/online
		cd /sys/devices/system/cpu && cat online cpu0/../online && cd /
		awk "/^processor/ { print \$3 }" /proc/cpuinfo
		grep "^cpu" /proc/stat | cut -d" " -f1
		grep "^cpu" "$1/stat" | cut -d" " -f1
		python3 -c "print(open(\"/proc/stat\").readline().split()[0])"
		grep -c "^btime " /proc/stat
		cat "$1/online"
		cut -d" " -f1 /proc/self/stat | grep -c "^[0-9][0-9]*$"' sh "$BATS_TEST_TMPDIR"
	assert_success
	assert_output "$SECOND
$SECOND
$SECOND
$SECOND
cpu
cpu$SECOND
cpu
cpu$SECOND
cpu
1
mine
1"
	# The "cpu" line is the sum of the placement's lines, column by column.
	run "$PINRUN" --cpus "$FIRST,$SECOND" --tell=view -- awk '
		/^cpu / { for (i = 2; i <= NF; i++) all[i] = $i; n = NF }
		/^cpu[0-9]/ { for (i = 2; i <= NF; i++) sum[i] += $i; cpus++ }
		END { bad = 0; for (i = 2; i <= n; i++) if (all[i] != sum[i]) bad++; print cpus, n - 1, bad }' /proc/stat
	assert_success
	assert_output --regexp "^2 (7|8|9|10) 0$"
}

@test "view: Node's os.cpus() counts the placement" {
	needs_program node -- "Node.js"
	needs_two_cpus
	run "$PINRUN" --cpus "$FIRST" --tell -- node -e 'console.log(require("os").cpus().length)'
	assert_success
	assert_output 1
	run "$PINRUN" --cpus "$FIRST" -- node -e 'console.log(require("os").cpus().length)'
	assert_output "$ONLINE"
}

@test "view: a static program and a set-user-ID one see the machine, and nothing is said" {
	needs_two_cpus
	local real
	real=$(cat /sys/devices/system/cpu/online)
	needs_program busybox -- "busybox-static"
	file -L "$(command -v busybox)" | grep -q "statically linked" || skip_unless_works "busybox is not static here"
	run --separate-stderr "$PINRUN" --cpus "$FIRST" --tell -- busybox cat /sys/devices/system/cpu/online
	assert_success
	assert_output "$real"
	[ -z "$stderr" ] || fail "$stderr"
	# Set-user-ID: the loader drops LD_PRELOAD for it (secure mode).
	[ "$(id -u)" -eq 0 ] || skip_unless_works "needs root to make a set-user-ID root program"
	SUID_DIR=$(mktemp -d /tmp/pinrun-view-suid.XXXXXX)
	chmod 755 "$SUID_DIR"
	cp "$(command -v cat)" "$SUID_DIR/cat"
	chmod 4755 "$SUID_DIR/cat"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$PINRUN" --cpus "$FIRST" --tell -- \
		sh -c '"$1" /sys/devices/system/cpu/online; cat /sys/devices/system/cpu/online' sh "$SUID_DIR/cat"
	assert_success
	assert_output "$real
$FIRST"
	[ -z "$stderr" ] || fail "$stderr"
}

@test "view: an AddressSanitizer program runs under the view and counts the placement" {
	needs_two_cpus
	printf '%s\n' '#include <stdio.h>' '#include <stdlib.h>' '#include <unistd.h>' \
		'int main(void) { char *p = malloc(8); p[0] = 1; printf("%ld\n", sysconf(_SC_NPROCESSORS_ONLN)); free(p); return 0; }' >"$BATS_TEST_TMPDIR/asan.c"
	gcc -fsanitize=address -o "$BATS_TEST_TMPDIR/asan" "$BATS_TEST_TMPDIR/asan.c" 2>"$BATS_TEST_TMPDIR/asan.log" ||
		skip_unless_works "gcc -fsanitize=address failed: $(head -n 1 "$BATS_TEST_TMPDIR/asan.log")"
	# ASan checks that its runtime is the first library; the view is
	# before it, and --tell turns the check off (the user's other
	# options stay).
	run --separate-stderr env ASAN_OPTIONS=detect_leaks=1 "$PINRUN" --cpus "$SECOND" --tell -- \
		sh -c '"$0"; echo "$ASAN_OPTIONS"' "$BATS_TEST_TMPDIR/asan"
	assert_success
	assert_output "1
detect_leaks=1 verify_asan_link_order=0"
	# Without that word, ASan refuses to start under the view.
	run env ASAN_OPTIONS=verify_asan_link_order=1 "$PINRUN" --cpus "$SECOND" --tell -- "$BATS_TEST_TMPDIR/asan"
	assert_failure
	assert_output --partial "ASan runtime does not come first"
}

@test "view: the user's LD_PRELOAD stays first; a nested pinrun --tell shows its own placement, the library once" {
	needs_two_cpus
	printf 'int pinrun_test_lib;\n' | gcc -shared -fPIC -x c - -o "$BATS_TEST_TMPDIR/x.so"
	# (ASAN_OPTIONS: a pinrun built with SAN=1 starts under a preload.)
	run --separate-stderr env LD_PRELOAD="$BATS_TEST_TMPDIR/x.so" ASAN_OPTIONS=verify_asan_link_order=0 \
		"$PINRUN" --cpus "$FIRST,$SECOND" --tell=view -- \
		"$PINRUN" --cpus "$SECOND" --tell=view -- sh -c 'echo "$LD_PRELOAD|$PINRUN_VIEW"; getconf _NPROCESSORS_ONLN'
	assert_success
	assert_output "$BATS_TEST_TMPDIR/x.so $VIEW_LIB|$SECOND
1"
	# The outer placement, for a program of the outer pinrun.
	run env -u LD_PRELOAD "$PINRUN" --cpus "$FIRST,$SECOND" --tell=view -- sh -c 'echo "$LD_PRELOAD|$PINRUN_VIEW"; getconf _NPROCESSORS_ONLN'
	assert_output "$VIEW_LIB|$("$PINRUN" --cpus "$FIRST,$SECOND" -n)
2"
}

@test "view: pinrun under another pinrun's view sees the machine, and passes the view on" {
	needs_two_cpus
	# The inner pinrun's topology is the machine's (no CPU "offline");
	# its command, without --tell, keeps the outer view.
	run --separate-stderr env -u LD_PRELOAD "$PINRUN" --cpus "$SECOND" --tell=view -- \
		"$PINRUN" --cpus "$SECOND" --explain -- getconf _NPROCESSORS_ONLN
	assert_success
	assert_output 1
	[[ $stderr == *"pinrun: topology: this machine "*", $ONLINE PUs"$'\n'* ]] || fail "$stderr"
	[[ $stderr != *offline* ]] || fail "$stderr"
	run env -u LD_PRELOAD "$PINRUN" --cpus "$SECOND" --tell=view -- "$PINRUN" --list
	assert_success
	assert_output --partial "package:0  CPUs"
	refute_output --partial offline
}

@test "view: --dry-run --tell prints it for eval on this machine; a plan for another machine has none" {
	needs_two_cpus
	run env -u LD_PRELOAD -u ASAN_OPTIONS "$PINRUN" --cpus "$SECOND" --tell=view -n
	assert_success
	assert_output "export LD_PRELOAD=$VIEW_LIB
export PINRUN_VIEW=$SECOND
export ASAN_OPTIONS=verify_asan_link_order=0"
	run env -u LD_PRELOAD PINRUN="$PINRUN" CPU="$SECOND" sh -c 'eval "$("$PINRUN" --cpus "$CPU" --tell=view -n)"; getconf _NPROCESSORS_ONLN'
	assert_output 1
	run "$PINRUN" --topology "$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml" --cpus 0 --tell=view -n
	assert_success
	assert_output ""
}

@test "view: --explain says what the view shows; without it, which programs will count the machine" {
	needs_two_cpus
	run --separate-stderr env -u LD_PRELOAD "$PINRUN" --cpus "$SECOND" --tell=view --explain -- true
	assert_success
	[[ $stderr == *$'\n'"pinrun: tell: LD_PRELOAD=$VIEW_LIB (the CPU view: sysconf, get_nprocs, /sys/devices/system/cpu/online, /proc/stat and /proc/cpuinfo show the placement)"$'\n'* ]] || fail "$stderr"
	[[ $stderr == *$'\n'"pinrun: tell: PINRUN_VIEW=$SECOND (the placement the CPU view shows)"$'\n'* ]] || fail "$stderr"
	[[ $stderr != *"count:"* ]] || fail "$stderr"
	run --separate-stderr "$PINRUN" --cpus "$SECOND" --explain -- true
	[[ $stderr == *$'\n'"pinrun: count: programs that count the machine's CPUs (nginx's worker_processes auto, Python's os.cpu_count() before 3.13, pigz, pbzip2, zstd -T0, Node's os.cpus()) will count $ONLINE, not these 1: --tell shows them the placement"$'\n'* ]] || fail "$stderr"
	# The whole machine: nothing to say.
	run --separate-stderr "$PINRUN" --cpus "$ALLOWED" --explain -- true
	[ "$ALLOWED" != "$(cat /sys/devices/system/cpu/online)" ] || [[ $stderr != *"count:"* ]] || fail "$stderr"
}

@test "view: without its library beside pinrun or installed, --tell warns and runs the command" {
	[ "${PINRUN_UNDER_VALGRIND:-}" != 1 ] || skip "the valgrind wrapper is not a copy of pinrun"
	local d=$BATS_TEST_TMPDIR/alone
	mkdir -p "$d"
	cp "$REPO/pinrun" "$d/pinrun"
	run --separate-stderr "$d/pinrun" --cpus "$FIRST" --tell -- getconf _NPROCESSORS_ONLN
	assert_success
	assert_output "$ONLINE"
	[ "$stderr" = "pinrun: warning: --tell: no CPU view (its library, libpinrun-view.so, is not beside pinrun nor installed): programs that count CPUs from sysconf, /sys or /proc will count the machine's" ] || fail "$stderr"
	# Families without the view need no library.
	run --separate-stderr "$d/pinrun" --cpus "$FIRST" --tell=omp -- true
	assert_success
	[ -z "$stderr" ] || fail "$stderr"
	# LD_PRELOAD splits at spaces: a library there cannot be named.
	d="$BATS_TEST_TMPDIR/with space"
	mkdir -p "$d/view"
	cp "$REPO/pinrun" "$d/pinrun"
	cp "$VIEW_LIB" "$d/view/"
	run --separate-stderr "$d/pinrun" --cpus "$FIRST" --tell=view -- getconf _NPROCESSORS_ONLN
	assert_success
	assert_output "$ONLINE"
	[ "$stderr" = "pinrun: warning: --tell: no CPU view (LD_PRELOAD cannot name its library, whose path has a space or a colon): programs that count CPUs from sysconf, /sys or /proc will count the machine's" ] || fail "$stderr"
	# Installed: make install's layout, found from where pinrun is.
	d=$BATS_TEST_TMPDIR/stage
	make -s -C "$REPO" install DESTDIR="$d" PREFIX=/usr >/dev/null
	run "$d/usr/bin/pinrun" --cpus "$FIRST" --tell=view -n
	assert_success
	assert_line "export LD_PRELOAD=$d/usr/lib/pinrun/libpinrun-view.so"
}

# --- nginx, on any machine: one worker per CPU of the placement -------------

# nginx_workers PINRUN-ARGS...: the workers nginx's master starts under
# pinrun ARGS with worker_processes auto (a configuration of its own,
# listening on a Unix socket).
nginx_workers() {
	local d=$BATS_TEST_TMPDIR/nginx m= n=0 i
	mkdir -p "$d"
	rm -f "$d/pid" "$d/sock"
	cat >"$d/nginx.conf" <<EOF
worker_processes auto;
pid $d/pid;
error_log $d/error.log;
events { worker_connections 16; }
http {
	access_log off;
	client_body_temp_path $d/body; proxy_temp_path $d/proxy;
	fastcgi_temp_path $d/fastcgi; uwsgi_temp_path $d/uwsgi;
	scgi_temp_path $d/scgi;
	server { listen unix:$d/sock; }
}
EOF
	"$PINRUN" "$@" -- nginx -p "$d" -c "$d/nginx.conf" -g 'daemon off;' 2>"$d/stderr" &
	BG=$!
	for ((i = 0; i < 100; i++)); do
		[ -s "$d/pid" ] && m=$(cat "$d/pid") && n=$(wc -w <"/proc/$m/task/$m/children") && [ "$n" -gt 0 ] && break
		sleep 0.1
	done
	# The master forks every worker at once: a moment for the last ones.
	sleep 0.5
	[ -n "$m" ] && n=$(wc -w <"/proc/$m/task/$m/children")
	kill "$BG"
	wait "$BG" 2>/dev/null
	BG=
	echo "$n"
}

@test "view: nginx's worker_processes auto starts one worker per CPU of the placement (each NUMA node's too)" {
	needs_program nginx -- "nginx-light"
	local node list
	run nginx_workers --cpus "$FIRST" --tell
	assert_output 1
	run nginx_workers --cpus "$FIRST" --tell --follow
	assert_output 1
	if [ "$FIRST" != "$SECOND" ]; then
		run nginx_workers --cpus "$FIRST"
		assert_output "$ONLINE"
	fi
	# On a machine of several nodes (a guest of that shape), a node each.
	for node in /sys/devices/system/node/node[0-9]*; do
		node=${node##*node}
		list=$("$PINRUN" --same-numa="$node" --physical -n 2>/dev/null) || continue
		run nginx_workers --same-numa="$node" --physical --tell
		assert_output "$(expand "$list" | tr , '\n' | wc -l)"
	done
}

# --- the survey: each program's workers, with the view as if told N ---------

# most_threads PINRUN-ARGS... -- PROGRAM...: the most threads PROGRAM had,
# sampled from /proc over 3 s (programs start some lazily: a loaded
# machine needs the time), while it reads 64 MiB and then waits for more,
# started under pinrun ARGS.
most_threads() {
	local d=$BATS_TEST_TMPDIR/threads pid max=0 n i
	mkdir -p "$d"
	rm -f "$d/pid"
	sh -c '(head -c 64M /dev/urandom; sleep 4) | "$@" >/dev/null & echo $! >"$0/pid"; wait' "$d" "$PINRUN" "$@" &
	BG=$!
	for ((i = 0; i < 50; i++)); do
		[ ! -s "$d/pid" ] || break
		sleep 0.1
	done
	pid=$(cat "$d/pid")
	sleep 0.5
	for ((i = 0; i < 30; i++)); do
		n=$(find "/proc/$pid/task" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
		[ "$n" -le "$max" ] || max=$n
		sleep 0.1
	done
	wait "$BG"
	BG=
	echo "$max"
}

# survey PROGRAM OPTION [AUTO]: PROGRAM (reading standard input; with
# AUTO, its word for "as many as there are CPUs") under a one-CPU
# placement starts the threads it starts when told 1 with OPTION under the
# view, and those it starts when told the machine's count without it.
survey() {
	local program=$1 option=$2 auto=("${@:3}") one all
	needs_program "$program" -- "scripts/install-deps --ci installs it"
	needs_two_cpus
	one=$(most_threads --cpus "$FIRST" -- "$program" "${option}1" -c)
	all=$(most_threads --cpus "$FIRST" -- "$program" "$option$ONLINE" -c)
	# The counts differ: the test can tell the view from none.
	[ "$one" != "$all" ] || fail "$program starts $one threads for 1 CPU and for $ONLINE"
	run most_threads --cpus "$FIRST" --tell -- "$program" "${auto[@]}" -c
	assert_output "$one"
	run most_threads --cpus "$FIRST" -- "$program" "${auto[@]}" -c
	assert_output "$all"
}

@test "survey: pigz's threads under the view are pigz -p1's, without it -pN's" {
	survey pigz -p
}

@test "survey: pbzip2's threads under the view are pbzip2 -p1's, without it -pN's" {
	survey pbzip2 -p
}

@test "survey: zstd -T0's threads under the view are zstd -T1's, without it -TN's" {
	survey zstd -T -T0
}

# most_at_once PINRUN-ARGS... -- COMMAND...: COMMAND runs jobs of
# RUNS_SCRIPT (its argument the job's name), which each log how many run
# at once in $RUNS; prints the most.
# shellcheck disable=SC2016 # the jobs' script
RUNS_SCRIPT='touch "$RUNS/$1.r"; sleep 1; ls "$RUNS" | grep -c "\.r$" >>"$RUNS/log"; rm "$RUNS/$1.r"'

most_at_once() {
	export RUNS=$BATS_TEST_TMPDIR/runs
	rm -rf "$RUNS"
	mkdir -p "$RUNS"
	"$PINRUN" "$@" >"$BATS_TEST_TMPDIR/at_once.out" 2>&1 || { cat "$BATS_TEST_TMPDIR/at_once.out"; return 1; }
	sort -n "$RUNS/log" | tail -n 1
}

@test "survey: meson test runs one test at a time under a one-CPU --tell (the view, or MESON_TESTTHREADS alone)" {
	needs_program meson -- "meson"
	needs_two_cpus
	local d=$BATS_TEST_TMPDIR/meson
	unset MESON_TESTTHREADS
	mkdir -p "$d"
	printf '%s\n' "$RUNS_SCRIPT" >"$d/job.sh"
	cat >"$d/meson.build" <<'EOF2'
project('survey')
sh = find_program('sh')
foreach t : ['a', 'b']
	test(t, sh, args: [files('job.sh'), t])
endforeach
EOF2
	(cd "$d" && meson setup build >/dev/null)
	run most_at_once --cpus "$FIRST" -- meson test -C "$d/build"
	assert_output "$ONLINE"
	run most_at_once --cpus "$FIRST" --tell=view -- meson test -C "$d/build"
	assert_output 1
	run most_at_once --cpus "$FIRST" --tell=build -- meson test -C "$d/build"
	assert_output 1
}

@test "survey: GNU parallel under --follow runs the placement's jobs at once with --tell (PARALLEL), its slot's without" {
	needs_program parallel -- "GNU parallel"
	needs_two_cpus
	needs_notify
	local job=$BATS_TEST_TMPDIR/job.sh
	unset PARALLEL
	printf '%s\n' "$RUNS_SCRIPT" >"$job"
	run most_at_once --spread --follow -- sh -c 'parallel --will-cite sh "$0" ::: a b' "$job"
	assert_output 1
	run most_at_once --spread --follow --tell=tools -- sh -c 'parallel --will-cite sh "$0" ::: a b' "$job"
	assert_output "$ONLINE"
}
