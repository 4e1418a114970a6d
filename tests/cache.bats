#!/usr/bin/env bats
# The topology cache: it never changes a placement, it notices what can
# change the topology, and it survives corrupt files, other owners,
# unwritable directories and concurrent writers.

load test_helper

setup() {
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
	unset PINRUN_NO_CACHE
	E5=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
}

# This machine's cache file (one per build of pinrun and hwloc).
machine_file() {
	local f
	for f in "${1:-$XDG_CACHE_HOME}"/pinrun/machine-*.topo; do
		[ -f "$f" ] && echo "$f"
	done
}

# The cache line of --explain: "hit", "miss, stored", "disabled", ...
cache_state() {
	"$PINRUN" "$@" --explain -n 2>&1 >/dev/null | sed -n 's/.*(cache: \(.*\)), .*/\1/p'
}

@test "cached and uncached plans are equal on every shared topology" {
	local f p plain cold warm
	for f in "$TOPO"/*.xml "package:16 numa:2 l3:4 core:16 pu:2"; do
		for p in --spread --spread=3 "--spread --smt" --same-chip --same-numa "--same-chip --no-smt" --hot=idle "--cpus pu:0"; do
			# shellcheck disable=SC2086
			plain=$(PINRUN_NO_CACHE=1 "$PINRUN" --topology "$f" $p --json 2>&1) || true
			# shellcheck disable=SC2086
			cold=$("$PINRUN" --topology "$f" $p --json 2>&1) || true
			# shellcheck disable=SC2086
			warm=$("$PINRUN" --topology "$f" $p --json 2>&1) || true
			[ "$plain" = "$cold" ] || fail "$f $p: first cached run differs: $cold vs $plain"
			[ "$plain" = "$warm" ] || fail "$f $p: cached run differs: $warm vs $plain"
		done
	done
}

@test "this machine: the second launch reads the cache, with the same plan" {
	[ "$(cache_state --same-chip)" = "miss, stored" ]
	[ "$(cache_state --same-chip)" = "hit" ]
	[ -f "$(machine_file)" ]
	run "$PINRUN" --spread --json
	assert_output "$(PINRUN_NO_CACHE=1 "$PINRUN" --spread --json)"
	run "$PINRUN" --same-chip -- awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
	assert_output "$(PINRUN_NO_CACHE=1 "$PINRUN" --same-chip -- awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)"
}

@test "the cache directory and file are the user's alone" {
	"$PINRUN" --hot -n >/dev/null
	[ "$(stat -c %a "$XDG_CACHE_HOME/pinrun")" = 700 ]
	[ "$(stat -c %a "$(machine_file)")" = 600 ]
	unset XDG_CACHE_HOME
	HOME=$BATS_TEST_TMPDIR/home
	mkdir "$HOME"
	HOME=$HOME "$PINRUN" --hot -n >/dev/null
	[ -f "$(machine_file "$HOME/.cache")" ]
}

@test "--no-cache and PINRUN_NO_CACHE=1 neither read nor write it" {
	[ "$(cache_state --hot --no-cache)" = disabled ]
	[ "$(PINRUN_NO_CACHE=1 cache_state --hot)" = disabled ]
	[ ! -e "$XDG_CACHE_HOME/pinrun" ]
	[ "$(PINRUN_NO_CACHE=0 cache_state --hot)" = "miss, stored" ]
}

@test "hwloc variables in the environment keep the cache out" {
	[ "$(HWLOC_XMLFILE=$E5 cache_state --hot)" = "not used for this source" ]
	[ "$(HWLOC_HIDE_ERRORS=1 cache_state --hot)" = "not used for this source" ]
	[ -z "$(machine_file)" ]
}

@test "a changed XML file is noticed" {
	cp "$E5" "$BATS_TEST_TMPDIR/m.xml"
	[ "$(cache_state --topology "$BATS_TEST_TMPDIR/m.xml" --same-chip)" = "miss, stored" ]
	[ "$(cache_state --topology "$BATS_TEST_TMPDIR/m.xml" --same-chip)" = hit ]
	cp "$TOPO/1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu.xml" "$BATS_TEST_TMPDIR/m.xml"
	[ "$(cache_state --topology "$BATS_TEST_TMPDIR/m.xml" --same-chip)" = "miss, stored" ]
	run "$PINRUN" --topology "$BATS_TEST_TMPDIR/m.xml" --same-chip -n
	assert_output "0-3"
}

@test "a changed cgroup cpuset is noticed" {
	local g=/sys/fs/cgroup/cpuset/pinrun-cache-$$ second
	second=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status | tr ',-' '  ' | awk '{ print $NF }')
	[ "$second" != 0 ] || skip_unless_works "needs 2 CPUs"
	mkdir "$g" 2>/dev/null || skip_unless_works "cannot create a cpuset cgroup"
	echo "$second" >"$g/cpuset.cpus"
	cat /sys/fs/cgroup/cpuset/cpuset.mems >"$g/cpuset.mems"
	"$PINRUN" --all --spread -n >/dev/null
	run --separate-stderr sh -c 'echo $$ >"$1/tasks" && exec "$2" --all --spread --explain -n' sh "$g" "$PINRUN"
	rmdir "$g"
	assert_output "$second"
	[[ "$stderr" == *"(cache: miss, stored)"* ]] || fail "$stderr"
}

@test "a changed online mask is noticed (sysfs mounted over)" {
	command -v unshare >/dev/null || skip_unless_works "no unshare"
	[ "$(id -u)" -eq 0 ] || skip_unless_works "needs root for a mount namespace"
	"$PINRUN" --all --spread -n >/dev/null
	echo 0 >"$BATS_TEST_TMPDIR/online"
	run --separate-stderr unshare -m sh -c 'mount --bind "$1" /sys/devices/system/cpu/online && exec "$2" --all --spread --explain -n' \
		sh "$BATS_TEST_TMPDIR/online" "$PINRUN"
	assert_success
	assert_output "0"
	[[ "$stderr" == *"(cache: miss, stored)"* ]] || fail "$stderr"
	[ "$(cache_state --all --spread)" = "miss, stored" ]
}

@test "a corrupt cache file is a miss, and is rebuilt" {
	local f want
	want=$(PINRUN_NO_CACHE=1 "$PINRUN" --same-chip --json)
	"$PINRUN" --hot -n >/dev/null
	f=$(machine_file)
	# One flipped byte in the middle.
	printf '\x55' | dd of="$f" bs=1 seek=100 conv=notrunc 2>/dev/null
	[ "$(cache_state --same-chip)" = "miss, stored" ]
	[ "$(cache_state --same-chip)" = hit ]
	# Truncated, empty, garbage.
	truncate -s 50 "$f"
	run "$PINRUN" --same-chip --json
	assert_output "$want"
	: >"$f"
	run "$PINRUN" --same-chip --json
	assert_output "$want"
	head -c 5000 /dev/urandom >"$f"
	run "$PINRUN" --same-chip --json
	assert_output "$want"
	[ "$(cache_state --same-chip)" = hit ]
}

@test "a cache file someone else owns, or can write, is not read" {
	local f
	[ "$(id -u)" -eq 0 ] || skip_unless_works "needs root to chown"
	"$PINRUN" --hot -n >/dev/null
	f=$(machine_file)
	chown 65534 "$f"
	[ "$(cache_state --hot)" = "miss, stored" ]
	[ "$(stat -c %u "$f")" = 0 ]
	chmod 666 "$f"
	[ "$(cache_state --hot)" = "miss, stored" ]
	[ "$(stat -c %a "$f")" = 600 ]
	ln -sf /etc/hostname "$f"
	[ "$(cache_state --hot)" = "miss, stored" ]
	[ ! -L "$f" ]
}

@test "20 launches at once on a cold cache all plan correctly" {
	local want i
	want=$(PINRUN_NO_CACHE=1 "$PINRUN" --topology "$E5" --spread --json)
	local pids=()
	for i in $(seq 20); do
		"$PINRUN" --topology "$E5" --spread --json >"$BATS_TEST_TMPDIR/out.$i" &
		pids+=($!)
	done
	# Only ours: a bare wait would wait for bats' own timeout process.
	wait "${pids[@]}"
	for i in $(seq 20); do
		[ "$(cat "$BATS_TEST_TMPDIR/out.$i")" = "$want" ] || fail "launch $i: $(cat "$BATS_TEST_TMPDIR/out.$i")"
	done
	# No temporary file left behind, and the survivor is good.
	[ "$(find "$XDG_CACHE_HOME/pinrun" -type f | wc -l)" -eq 1 ]
	[ "$(cache_state --topology "$E5" --spread)" = hit ]
	want=$(PINRUN_NO_CACHE=1 "$PINRUN" --same-chip --json)
	pids=()
	for i in $(seq 20); do
		"$PINRUN" --same-chip --json >"$BATS_TEST_TMPDIR/live.$i" &
		pids+=($!)
	done
	wait "${pids[@]}"
	for i in $(seq 20); do
		[ "$(cat "$BATS_TEST_TMPDIR/live.$i")" = "$want" ] || fail "live launch $i"
	done
}

@test "an unwritable cache directory: no cache, no complaint, same plan" {
	command -v setpriv >/dev/null || skip_unless_works "no setpriv"
	[ "$(id -u)" -eq 0 ] || skip_unless_works "needs root to drop to nobody"
	mkdir -p "$XDG_CACHE_HOME"
	chmod 755 "$BATS_TEST_TMPDIR" "$XDG_CACHE_HOME"
	want=$(PINRUN_NO_CACHE=1 "$PINRUN" --topology "$E5" --spread=4 -n)
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$PINRUN" --topology "$E5" --spread=4 -n
	assert_success
	assert_output "$want"
	[ -z "$stderr" ]
	[ ! -e "$XDG_CACHE_HOME/pinrun" ]
	# A directory that is there but not ours is not used either.
	"$PINRUN" --topology "$E5" --spread=4 -n >/dev/null
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$PINRUN" --topology "$E5" --spread=4 --explain -n
	assert_success
	assert_output "$want"
	[[ "$stderr" == *"(cache: not used: no cache directory of this user's own)"* ]] || fail "$stderr"
}

@test "a read-only home: no cache, no complaint, same plan" {
	command -v unshare >/dev/null || skip_unless_works "no unshare"
	[ "$(id -u)" -eq 0 ] || skip_unless_works "needs root for a mount namespace"
	unset XDG_CACHE_HOME
	mkdir "$BATS_TEST_TMPDIR/home"
	run --separate-stderr unshare -m sh -c 'mount -t tmpfs -o ro tmpfs "$1" && HOME=$1 exec "$2" --same-chip --explain -n' \
		sh "$BATS_TEST_TMPDIR/home" "$PINRUN"
	assert_success
	assert_output "$(PINRUN_NO_CACHE=1 "$PINRUN" --same-chip -n)"
	[[ "$stderr" == *"(cache: miss, not stored)"* ]] || fail "$stderr"
	run env -u HOME -u XDG_CACHE_HOME "$PINRUN" --same-chip -n
	assert_success
}
