#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# The topology cache: it never changes a placement, it notices what can
# change the topology, and it survives corrupt files, other owners,
# unwritable directories and concurrent writers.

load lib/test_helper

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

# What pinrun ARGS prints and its status, as one text: a failure is part of
# the answer, never hidden.
answer() {
	local out status=0
	out=$("$PINRUN" "$@" 2>&1) || status=$?
	printf '%s\nstatus %d\n' "$out" "$status"
}

# The property the cache promises: ARGS plan the same with the cache (cold,
# then warm) as without it. Every condition below checks it.
same_as_uncached() {
	local plain cold warm
	plain=$(PINRUN_NO_CACHE=1 answer "$@")
	cold=$(answer "$@")
	warm=$(answer "$@")
	[ "$plain" = "$cold" ] || fail "$*: first cached run differs: $cold vs $plain"
	[ "$plain" = "$warm" ] || fail "$*: cached run differs: $warm vs $plain"
}

@test "cached and uncached plans are equal on every shared topology" {
	local f p
	for f in "$TOPO"/*.xml "package:16 numa:2 l3:4 core:16 pu:2"; do
		for p in --spread --spread=3 "--spread --smt" --same-chip --same-numa "--same-chip --no-smt" --hot=idle "--cpus pu:0" "--kind=slow --spread"; do
			# shellcheck disable=SC2086
			same_as_uncached --topology "$f" $p --json
		done
	done
	# A failure is the same failure with and without the cache.
	same_as_uncached --topology "$E5" --same-chip=5 --json
	[[ "$(answer --topology "$E5" --same-chip=5 --json)" == *"status 125" ]]
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
	local g=/sys/fs/cgroup/cpuset/pinrun-cache-$$
	load_allowed
	needs_two_cpus
	mkdir "$g" 2>/dev/null || skip_unless_works "cannot create a cpuset cgroup"
	echo "$SECOND" >"$g/cpuset.cpus"
	cat /sys/fs/cgroup/cpuset/cpuset.mems >"$g/cpuset.mems"
	"$PINRUN" --all --spread -n >/dev/null
	run --separate-stderr sh -c 'echo $$ >"$1/tasks" && exec "$2" --all --spread --explain -n' sh "$g" "$PINRUN"
	rmdir "$g"
	assert_output "$SECOND"
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

@test "--list and --list --json are the same from the cache, cache sizes included" {
	local f
	for f in "$TOPO"/*.xml "package:2 l3:1 core:2 pu:2"; do
		same_as_uncached --topology "$f" --list
		same_as_uncached --topology "$f" --list --json
	done
	# The sizes read back from the entry --list stored.
	f=$TOPO/2pkg-2numa-amd-epyc9654-zen4-24l3-192c384pu.xml
	[ "$(cache_state --topology "$f" --spread)" = hit ]
	run "$PINRUN" --topology "$f" --list
	assert_line --index 1 "caches: L1d 32 KiB per core, L2 1024 KiB per core"
	assert_line "    die:0 l3:0 (32 MiB)  core:0-7  0-7 + 192-199"
}

@test "a cache file of the format before cache sizes (4) is a miss, and is rebuilt" {
	local f want
	want=$(PINRUN_NO_CACHE=1 "$PINRUN" --same-chip --json)
	"$PINRUN" --hot -n >/dev/null
	f=$(machine_file)
	# The version follows the 8-byte magic; the checksum (64-bit FNV-1a
	# of all before it) ends the file: a well-made format-4 file.
	python3 - "$f" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
assert struct.unpack_from("<I", b, 8)[0] == 5, "not format 5"
struct.pack_into("<I", b, 8, 4)
h = 14695981039346656037
for c in b[:-8]:
    h = ((h ^ c) * 1099511628211) % 2**64
struct.pack_into("<Q", b, len(b) - 8, h)
open(sys.argv[1], "wb").write(b)
PY
	[ "$(cache_state --same-chip)" = "miss, stored" ]
	[ "$(cache_state --same-chip)" = hit ]
	run "$PINRUN" --same-chip --json
	assert_output "$want"
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

# --- what the cache does not trust (issue: a cache that trusts nothing) ------

@test "a cache directory that is a link is not followed, not written" {
	mkdir -p "$XDG_CACHE_HOME" "$BATS_TEST_TMPDIR/elsewhere"
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$XDG_CACHE_HOME/pinrun"
	[ "$(cache_state --same-chip)" = "not used: no cache directory of this user's own" ]
	same_as_uncached --same-chip --json
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/elsewhere")" ]
}

# --- homes reached through links (issue 20: /home -> var/home) -----------------

@test "a home reached through links keeps its cache: /home -> var/home, ~/.cache -> scratch" {
	local root=$BATS_TEST_TMPDIR/sys
	unset XDG_CACHE_HOME
	mkdir -p "$root/var/home/me" "$root/scratch/me"
	ln -s var/home "$root/home"
	[ "$(HOME=$root/home/me cache_state --same-chip)" = "miss, stored" ]
	[ "$(HOME=$root/home/me cache_state --same-chip)" = "hit" ]
	[ -f "$(machine_file "$root/var/home/me/.cache")" ]
	HOME=$root/home/me same_as_uncached --same-chip --json
	# ~/.cache a link to the user's own scratch directory, and
	# XDG_CACHE_HOME through a link.
	ln -s "$root/scratch/me" "$root/var/home/me/.cache2"
	[ "$(XDG_CACHE_HOME=$root/home/me/.cache2 cache_state --same-chip)" = "miss, stored" ]
	[ "$(XDG_CACHE_HOME=$root/home/me/.cache2 cache_state --same-chip)" = "hit" ]
	[ -f "$(machine_file "$root/scratch/me")" ]
	# A link that leads nowhere is not followed, nor its target made.
	ln -s "$root/scratch/me/new" "$root/var/home/me/.cache3"
	[ "$(XDG_CACHE_HOME=$root/home/me/.cache3 cache_state --same-chip)" = "not used: no cache directory of this user's own" ]
	[ ! -e "$root/scratch/me/new" ]
}

@test "a link into another user's directory, or one others can write, keeps the cache refused" {
	[ "$(id -u)" -eq 0 ] || skip_unless_works "needs root to make another user's directory"
	local root=$BATS_TEST_TMPDIR/sys
	unset XDG_CACHE_HOME
	mkdir -p "$root/var/home/alice/.cache" "$root/var/home/me" "$root/open/me" "$root/sticky/me"
	chown -R 65534:65534 "$root/var/home/alice"
	ln -s var/home "$root/home"
	ln -s ../alice "$root/var/home/me/to-alice"
	[ "$(HOME=$root/home/me/to-alice cache_state --same-chip)" = "not used: no cache directory of this user's own" ]
	[ -z "$(find "$root/var/home/alice" -user 0)" ] || fail "root created $(find "$root/var/home/alice" -user 0)"
	HOME=$root/home/me/to-alice same_as_uncached --same-chip --json
	# A directory on the way that others can write, not sticky.
	chmod 0777 "$root/open"
	ln -s "$root/open/me" "$root/var/home/me/to-open"
	[ "$(XDG_CACHE_HOME=$root/home/me/to-open cache_state --same-chip)" = "not used: no cache directory of this user's own" ]
	[ ! -e "$root/open/me/pinrun" ]
	# The same directory made sticky, as /tmp is: the user's own below it.
	chmod 1777 "$root/open"
	[ "$(XDG_CACHE_HOME=$root/home/me/to-open cache_state --same-chip)" = "miss, stored" ]
	[ "$(XDG_CACHE_HOME=$root/home/me/to-open cache_state --same-chip)" = "hit" ]
}

@test "a cache directory deeper than 128 levels is not used, nor one cut short" {
	local deep=$BATS_TEST_TMPDIR i
	for ((i = 0; i < 130; i++)); do deep+=/d; done
	mkdir -p "$deep"
	[ "$(XDG_CACHE_HOME=$deep cache_state --same-chip)" = "not used: no cache directory of this user's own" ]
	[ -z "$(find "$BATS_TEST_TMPDIR" -name 'machine-*')" ] || fail "written: $(find "$BATS_TEST_TMPDIR" -name 'machine-*')"
	XDG_CACHE_HOME=$deep same_as_uncached --same-chip --json
}

@test "root with another user's HOME creates nothing there" {
	[ "$(id -u)" -eq 0 ] || skip_unless_works "needs root"
	local home=$BATS_TEST_TMPDIR/alice
	unset XDG_CACHE_HOME
	mkdir -p "$home/.cache"
	ln -s /etc "$home/.cache/pinrun"
	chown -hR 65534:65534 "$home"
	run --separate-stderr env HOME="$home" "$PINRUN" --same-chip --explain -n
	assert_success
	[[ "$stderr" == *"(cache: not used: no cache directory of this user's own)"* ]] || fail "$stderr"
	[ -z "$(find "$home" -user 0)" ] || fail "root created $(find "$home" -user 0)"
	HOME=$home same_as_uncached --same-chip --json
	# Nor a ~/.cache on a first run.
	rm -rf "${home:?}/.cache"
	HOME=$home "$PINRUN" --same-chip -n >/dev/null
	[ ! -e "$home/.cache" ]
}

@test "a cache file that is a FIFO does not block the launch" {
	"$PINRUN" --same-chip -n >/dev/null
	local f
	f=$(machine_file)
	rm "$f"
	mkfifo "$f"
	run timeout 10 "$PINRUN" --same-chip --explain -n
	assert_success
	[[ "$output" == *"(cache: miss, stored)"* ]] || fail "$output"
	[ -f "$f" ] && [ ! -p "$f" ]
	same_as_uncached --same-chip --json
}

@test "two builds sharing a home do not evict each other" {
	cp "$PINRUN" "$BATS_TEST_TMPDIR/pinrun2"
	[ "$(cache_state --same-chip)" = "miss, stored" ]
	[ "$(PINRUN=$BATS_TEST_TMPDIR/pinrun2 cache_state --same-chip)" = "miss, stored" ]
	[ "$(cache_state --same-chip)" = hit ]
	[ "$(PINRUN=$BATS_TEST_TMPDIR/pinrun2 cache_state --same-chip)" = hit ]
	[ "$(find "$XDG_CACHE_HOME/pinrun" -name 'machine-*.topo' | wc -l)" -eq 2 ]
}

@test "old entries and dead launches' files are pruned" {
	local d=$XDG_CACHE_HOME/pinrun i
	mkdir -p "$d"
	chmod 700 "$XDG_CACHE_HOME" "$d"
	for i in $(seq 1 70); do
		printf 'x' >"$d/$(printf '%016x' "$i").topo"
	done
	touch -d '40 days ago' "$d/0000000000000001.topo" "$d/0000000000000002.topo"
	printf 'x' >"$d/0000000000000003.topo.123.456"
	touch -d '2 hours ago' "$d/0000000000000003.topo.123.456"
	printf 'x' >"$d/0000000000000004.topo.789.1"
	touch -d '40 days ago' "$d/notours"
	[ "$(cache_state --same-chip)" = "miss, stored" ]
	[ ! -e "$d/0000000000000001.topo" ] && [ ! -e "$d/0000000000000002.topo" ]
	[ ! -e "$d/0000000000000003.topo.123.456" ]
	# A recent temporary file may be a launch at work; other names stay.
	[ -e "$d/0000000000000004.topo.789.1" ] && [ -e "$d/notours" ]
	[ "$(find "$d" -name '*.topo' | wc -l)" -eq 64 ]
	[ -n "$(machine_file)" ]
}

@test "the entry just stored is never pruned, however many others look newer" {
	local d=$XDG_CACHE_HOME/pinrun i
	mkdir -p "$d"
	chmod 700 "$XDG_CACHE_HOME" "$d"
	for i in $(seq 1 70); do
		printf 'x' >"$d/$(printf '%016x' "$i").topo"
	done
	# Newer than the entry about to be written (once, entries of the
	# same second were ranked by name, and it could go).
	touch -d '1 hour' "$d"/*.topo
	[ "$(cache_state --same-chip)" = "miss, stored" ]
	[ -n "$(machine_file)" ] || fail "the entry just stored was pruned"
	[ "$(find "$d" -name '*.topo' | wc -l)" -eq 64 ]
}

@test "the key holds the cpuset's CPUs, not its path (a cgroup namespace)" {
	local g=/sys/fs/cgroup/cpuset/pinrun-cachens-$$
	load_allowed
	needs_two_cpus
	command -v unshare >/dev/null || skip_unless_works "no unshare"
	mkdir "$g" 2>/dev/null || skip_unless_works "cannot create a cpuset cgroup"
	echo "$SECOND" >"$g/cpuset.cpus"
	cat /sys/fs/cgroup/cpuset/cpuset.mems >"$g/cpuset.mems"
	# The host's plan is cached first.
	"$PINRUN" --all --spread -n >/dev/null
	[ "$(cache_state --all --spread)" = hit ]
	# In the container (its own cgroup namespace and cgroup mount, as a
	# container runtime makes them), /proc/self/cpuset says "/" as on the
	# host, with other CPUs.
	run --separate-stderr sh -c 'echo $$ >"$1/tasks" &&
		exec unshare --cgroup --mount sh -c "mount -t tmpfs none /sys/fs/cgroup &&
			mkdir /sys/fs/cgroup/cpuset &&
			mount -t cgroup -o cpuset cpuset /sys/fs/cgroup/cpuset &&
			cat /proc/self/cpuset && exec \"\$0\" --all --spread --explain -n" "$2"' sh "$g" "$PINRUN"
	rmdir "$g"
	assert_success
	assert_line --index 0 "/"
	assert_line --index 1 "$SECOND"
	[[ "$stderr" == *"(cache: miss, stored)"* ]] || fail "$stderr"
}

@test "closed stdin, stdout or stderr: the cache is written whole, and read back" {
	local want
	want=$(PINRUN_NO_CACHE=1 "$PINRUN" --same-chip --json)
	"$PINRUN" --same-chip -- true <&-
	[ "$(cache_state --same-chip)" = hit ]
	run "$PINRUN" --same-chip --json
	assert_output "$want"
	rm -rf "$XDG_CACHE_HOME"
	"$PINRUN" --same-chip -- true >&- 2>&-
	[ "$(cache_state --same-chip)" = hit ]
	run "$PINRUN" --same-chip --json
	assert_output "$want"
	rm -rf "$XDG_CACHE_HOME"
	run "$PINRUN" --topology "$E5" --spread=4 -n <&- 2>&-
	assert_output "0,9,18,27"
	[ "$(cache_state --topology "$E5" --spread=4)" = hit ]
}

@test "SIGCHLD ignored by pinrun's parent: a miss loads the topology in its child all the same (issue 31)" {
	local want
	want=$(PINRUN_NO_CACHE=1 "$PINRUN" --same-chip --json)
	run --separate-stderr env --ignore-signal=CHLD "$PINRUN" --same-chip --json
	assert_success
	assert_output "$want"
	[ "$(cache_state --same-chip)" = hit ]
	run --separate-stderr env --ignore-signal=CHLD PINRUN_NO_CACHE=1 "$PINRUN" --same-chip --json
	assert_success
	assert_output "$want"
}
