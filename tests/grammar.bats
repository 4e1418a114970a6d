#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# The location grammar of --cpus, --hot= and --same-*=: hwloc's language
# (several locations, ~ x ^, chains, index forms, --physical), taskset's
# lists and masks, checked against hwloc-calc on generated expressions
# (tests/tools/grammar-diff) and against taskset on a process started here; and
# what pinrun says when a spec is wrong.

load lib/test_helper

setup() {
	E5=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
	P9=$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml
	KNL=$TOPO/1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu.xml
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
	# CI may ask for more expressions or another draw.
	COUNT=${PINRUN_GRAMMAR_COUNT:-120}
	SEED=${PINRUN_GRAMMAR_SEED:-1}
	ALLOWED=$(allowed_of self)
}

teardown() {
	kill_background
}

# plan SPEC ARGS...: the --dry-run line for --cpus SPEC.
plan() {
	local spec=$1
	shift
	run --separate-stderr "$PINRUN" --dry-run --cpus "$spec" "$@"
}

# The differential runs: every saved topology and a few synthetic ones
# (memory attached to packages, two NUMA nodes per package as on KNL,
# groups, indexes out of order), in both index spaces.
SYNTHETIC=("pack:2 numa:2 l3:2 core:2 pu:2"
	"pack:2 [numa] [numa] core:4 pu:1"
	"group:2 pack:2 core:3 pu:2"
	"node:4(indexes=3,2,1,0) pu:2"
	"pack:2 core:3 pu:2(indexes=11,1,10,2,9,3,8,4,7,5,6,0)"
	"pack:3 [numa] die:2 l2:2 core:2 pu:3")

@test "hwloc-calc and pinrun agree on generated expressions (logical indexes)" {
	run "$BATS_TEST_DIRNAME/tools/grammar-diff" -n "$COUNT" -s "$SEED" "$TOPO"/*.xml "${SYNTHETIC[@]}"
	[ "$status" -eq 0 ] || fail "$output"
	# Every topology was judged, and each had expressions hwloc-calc and
	# pinrun both planned: a run that compared nothing cannot pass.
	local n
	n=$(grep -c ' mismatches$' <<<"$output")
	[ "$n" -eq $(($(ls "$TOPO"/*.xml | wc -l) + ${#SYNTHETIC[@]})) ] || fail "$output"
	! grep -q ': 0 same' <<<"$output" || fail "$output"
}

@test "hwloc-calc -p and pinrun --physical agree on generated expressions" {
	run "$BATS_TEST_DIRNAME/tools/grammar-diff" -p -n "$COUNT" -s "$SEED" "$TOPO"/*.xml "${SYNTHETIC[@]}"
	[ "$status" -eq 0 ] || fail "$output"
	! grep -q ': 0 same' <<<"$output" || fail "$output"
}

@test "grammar-diff reports a mismatch (it can fail)" {
	# A pinrun that reads every spec as CPU 0 must be caught.
	printf '#!/bin/sh\necho 0\n' >"$BATS_TEST_TMPDIR/fake"
	chmod +x "$BATS_TEST_TMPDIR/fake"
	PINRUN=$BATS_TEST_TMPDIR/fake run "$BATS_TEST_DIRNAME/tools/grammar-diff" -n 20 "$E5"
	assert_failure 1
	assert_output --partial "MISMATCH"
}

# hwloc's examples, as the issue gives them
@test "several locations, with ~ x and ^" {
	plan 'package:0 ~core:0' --topology "$E5"
	assert_success
	assert_output "1-17,37-53"
	plan 'node:0 node:1' --topology "$E5"
	assert_output "0-71"
	plan 'core:0-3.pu:0 ^core:2-5.pu:0' --topology "$E5"
	assert_output "0-1,4-5"
	plan 'core:0-3.pu:0 xcore:2-5.pu:0' --topology "$E5"
	assert_output "2-3"
	plan 'all ~package:0' --topology "$E5"
	assert_output "18-35,54-71"
	plan 'root ~package:1' --topology "$E5"
	assert_output "0-17,36-53"
}

@test "lists and masks are locations too" {
	plan '0-3 ~1' --topology "$E5"
	assert_output "0,2-3"
	plan '0xff ^0x3c' --topology "$E5"
	assert_output "0-1,6-7"
	plan 'package:1 x0xffffffff,0xffffffff' --topology "$E5"
	assert_output "18-35,54-63"
}

@test "N:K wraps as hwloc-calc's does, from the start past the end too" {
	plan core:34:4.pu:0 --topology "$E5"
	assert_output "0-1,34-35"
	plan core:40:2.pu:0 --topology "$E5"
	assert_output "$(hwloc-calc -i "$E5" --po -I pu core:40:2.pu:0 | tr , '\n' | sort -n | paste -sd, - | sed 's/^0,1$/0-1/')"
}

# hwloc 2.10's reading, where 2.9 warned: hwloc's own test cases
# (open-mpi/hwloc commits f0eeb3a9 and 75234cb1)
@test "cores inside one of two NUMA nodes of a package (hwloc 2.10)" {
	plan sock:1.numa:1.core:1-2 --topology "pack:2 [numa] [numa] core:4 pu:1"
	assert_success
	assert_output "5-6"
	# KNL: DDR numa:0 and MCDRAM numa:4 share cluster 0's cores.
	plan numa:4.core:0 --topology "$KNL"
	assert_output "36,104,172,240"
}

@test "a NUMA node attached above the step before it (hwloc 2.10)" {
	plan l3:0.numa:0 --topology "pack:1 [numa] l3:4 core:4 pu:1"
	assert_output "0-15"
	plan pack:1.group:1.numa:0 --topology "pack:2 [numa] group:2 core:4 1"
	assert_output "8-15"
	# A step up names the object that holds the one before.
	plan core:20.package:0 --topology "$E5"
	assert_output "18-35,54-71"
}

@test "hbm: and mcdram: name the MCDRAM nodes, as hwloc-calc 2.9 does" {
	local e want
	for e in hbm:0 mcdram:1 HBM:3 hbm:all 'hbm:1 ~core:20'; do
		# shellcheck disable=SC2086 # several locations, as hwloc-calc takes them
		want=$(hwloc-calc -i "$KNL" --po -I pu $e | tr , '\n' | sort -n | paste -sd, -)
		plan "$e" --topology "$KNL"
		assert_success
		[ "$(expand "$output")" = "$want" ] || fail "$e: pinrun $output, hwloc-calc $want"
	done
	plan hbm:0 --topology "$KNL"
	assert_output "0-17,68-85,136-153,204-221"
}

# --physical
@test "--physical: OS indexes in locations and in --same-numa=N" {
	plan numa:8 --physical --topology "$P9"
	assert_output "96-175"
	run "$PINRUN" -n --same-numa=8 --physical --topology "$P9"
	assert_output "96-175"
	run "$PINRUN" -n --hot=pu:8 --physical --topology "$P9"
	assert_output "8"
	plan package:8.pu:96-99 --physical --topology "$P9"
	assert_output "96-99"
}

@test "--physical keywords go by the OS indexes themselves" {
	# hwloc-calc 2.9 counts OS indexes 0..count-1 instead: pu:100-
	# stops at 159 there, numa:all warns about node 1.
	plan pu:100- --physical --topology "$P9"
	assert_output "100-175"
	plan numa:all --physical --topology "$P9"
	assert_output "8-87,96-175"
	plan numa:even --physical --topology "$P9"
	assert_output "8-87,96-175"
	plan pu:172:6 --physical --topology "$P9"
	assert_output "8-9,172-175"
}

@test "an index in the other index space is named in the error" {
	bad "--same-numa=8: there is no NUMA node 8 (the topology has 2); NUMA node P#8 is --same-numa=1 (or add --physical)" --same-numa=8 -n --topology "$P9"
	bad "--same-numa=1: there is no NUMA node with OS index 1 (OS indexes 0,8); without --physical, NUMA node 1 is OS index 8" --same-numa=1 --physical -n --topology "$P9"
	bad "invalid location 'numa:8': the machine has no numa 8 (it has 2); numa P#8 is numa:1 (--physical reads OS indexes)" --cpus numa:8 -n --topology "$P9"
	bad "invalid location 'numa:1': the machine has no numa with OS index 1 (OS indexes 0,8); without --physical, numa:1 is P#8" --cpus numa:1 --physical -n --topology "$P9"
	bad "invalid location 'package:0.pu:100': package P#0 has no pu with OS index 100 (OS indexes 8-87)" --cpus package:0.pu:100 --physical -n --topology "$P9"
}

@test "--physical on objects without OS indexes, and without an index" {
	bad "--same-cache=1: L3 caches have no OS index: give a logical index, without --physical" --same-cache=1 --physical -n --topology "$P9"
	bad "invalid location 'l3:0': l3 objects have no OS index: give a logical index, without --physical" --cpus l3:0 --physical -n --topology "$P9"
	bad_usage "--physical reads the indexes of --cpus, --hot= and --same-*=: give one of them" --spread --physical -n --topology "$P9"
}

# taskset's syntax
@test "masks without 0x: hex letters or /proc's words; digits alone are a list" {
	plan ff --topology "$E5"
	assert_output "0-7"
	plan 3f --topology "$E5"
	assert_output "0-5"
	plan 00000001,00000003 --topology "$E5"
	assert_output "0-1,32"
	plan 0X3 --topology "$E5"
	assert_output "0-1"
	# taskset would read these as masks; pinrun's --cpus takes lists.
	plan 10 --topology "$E5"
	assert_output "10"
	plan 11 --topology "$E5"
	assert_output "11"
}

@test "taskset-compatible masks apply what taskset -p applies" {
	local mask want got compared=0 refused=0
	[ "$(nproc)" -ge 2 ] || skip_unless_works "needs two CPUs"
	[ "$(expand "$ALLOWED" | cut -d, -f1-2)" = 0,1 ] || skip_unless_works "needs CPUs 0 and 1, this process has $ALLOWED"
	sleep 60 &
	BG=$!
	for mask in 0x1 0x2 0x3 1a 3f,00000000,00000003 00000000,00000002 0x00000000,00000001 0X3; do
		# taskset refuses 0X3; the kernel drops CPUs it lacks.
		taskset -p "$mask" "$BG" >/dev/null 2>&1 || continue
		want=$(allowed_of "$BG")
		taskset -pc "$ALLOWED" "$BG" >/dev/null
		run --separate-stderr "$PINRUN" --cpus "$mask" --pid "$BG" --quiet
		got=$(allowed_of "$BG")
		if [ "$status" -eq 0 ]; then
			[ "$got" = "$want" ] || fail "mask $mask: taskset $want, pinrun $got"
			compared=$((compared + 1))
		else
			refused=$((refused + 1))
			fail "mask $mask: $status $stderr"
		fi
	done
	# Masks naming CPUs beyond this machine's last (3f,...,00000003)
	# lose those CPUs, as taskset's do (issue 20).
	[ "$compared" -eq 7 ] && [ "$refused" -eq 0 ] || fail "$compared compared, $refused refused"
}

# Refusals
@test "near misses are named, as the option they came with" {
	bad "invalid location 'cpu0': unknown object type 'cpu0'; did you mean --hot=0?" --hot=cpu0 -n --topology "$E5"
	bad "invalid location 'cpu0-3': unknown object type 'cpu0'; did you mean --cpus 0-3?" --cpus cpu0-3 -n --topology "$E5"
	bad "invalid location 'core0': 'core0' needs an index; did you mean --cpus core:0?" --cpus core0 -n --topology "$E5"
	bad "invalid location 'pakage:1': unknown object type 'pakage'; did you mean --cpus package:1?" --cpus pakage:1 -n --topology "$E5"
	bad "invalid location 'thread:3': unknown object type 'thread'; did you mean --cpus pu:3?" --cpus thread:3 -n --topology "$E5"
	bad "invalid location '!0-3': '!' is numactl's; did you mean --cpus 'all ~0-3'?" --cpus '!0-3' -n --topology "$E5"
	bad "invalid location 'core:0 core1': 'core1' needs an index; did you mean --cpus 'core:0 core:1'?" --cpus 'core:0 core1' -n --topology "$E5"
}

@test "what pinrun does not keep, and empty results" {
	bad "invalid location 'gpu:0': 'gpu' objects are I/O devices: --near=<device> places near one" --cpus gpu:0 -n --topology "$E5"
	bad "invalid location 'l1i:0': pinrun has no 'l1i' objects (it keeps the CPU tree and the NUMA nodes)" --cpus l1i:0 -n --topology "$E5"
	bad "invalid location 'numa[hbm]:0': '[hbm]:0': hwloc's filters and device names are not supported" --cpus 'numa[hbm]:0' -n --topology "$E5"
	bad "invalid location 'package:0 ^': '^' needs a location after it" --cpus 'package:0 ^' -n --topology "$E5"
	bad "invalid location 'package:0 x': unknown object type 'x'" --cpus 'package:0 x' -n --topology "$E5"
	bad "location '0-3 x4-7' names no CPU" --cpus '0-3 x4-7' -n --topology "$E5"
	bad "location '~core:0' names no CPU" --cpus '~core:0' -n --topology "$E5"
	bad "invalid location 'core:odd': 'core:odd' names no core (the machine has 1)" --cpus core:odd -n --topology "$TOPO/1pkg-1numa-x86-xeon5130-restricted-1c1pu.xml"
	bad "invalid CPU list '1-' in '0-3 ~1-': missing end of range" --cpus '0-3 ~1-' -n --topology "$E5"
}

# The man page's examples of locations, with the outputs its prose gives
# (tests/docs.bats runs every example; these check what they print).
@test "man page: the examples of locations" {
	run "$PINRUN" --cpus 'package:0 ~core:0' --dry-run --topology "$E5"
	assert_output "1-17,37-53"
	run "$PINRUN" --same-numa=8 --physical --dry-run --topology "$P9"
	assert_output "96-175"
	run "$PINRUN" --cpus ff --dry-run --topology "$E5"
	assert_output "0-7"
	# The --tid example is pid.bats's "--tid moves one thread".
	grep -q "^\$ pinrun \\\\-\\\\-cpus \\\\(aqpackage:0 ~core:0\\\\(aq \\\\-\\\\-dry\\\\-run \\\\-\\\\-topology machine.xml$" "$REPO/man/pinrun.1"
}
