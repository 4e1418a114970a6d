#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# Placement on real machines' topologies (tests/topologies/, with their
# README), checked against hwloc's own tools on the same file,
# plus synthetic and saved-sysfs sources.

load lib/test_helper
load lib/reference

@test "spread = hwloc-distrib --single: 1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu" { check_spread "$TOPO/1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu.xml"; }
@test "same-chip = hwloc-calc package:i: 1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu" { check_domain "$TOPO/1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu" { check_domain "$TOPO/1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu" { check_domain "$TOPO/1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu" { check_spread "$TOPO/1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu.xml"; }
@test "same-chip = hwloc-calc package:i: 1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu" { check_domain "$TOPO/1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu" { check_domain "$TOPO/1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu" { check_domain "$TOPO/1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 1pkg-1numa-x86-xeon5130-restricted-1c1pu" { check_spread "$TOPO/1pkg-1numa-x86-xeon5130-restricted-1c1pu.xml"; }
@test "same-chip = hwloc-calc package:i: 1pkg-1numa-x86-xeon5130-restricted-1c1pu" { check_domain "$TOPO/1pkg-1numa-x86-xeon5130-restricted-1c1pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 1pkg-1numa-x86-xeon5130-restricted-1c1pu" { check_domain "$TOPO/1pkg-1numa-x86-xeon5130-restricted-1c1pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 1pkg-1numa-x86-xeon5130-restricted-1c1pu" { check_domain "$TOPO/1pkg-1numa-x86-xeon5130-restricted-1c1pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu" { check_spread "$TOPO/1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu.xml"; }
@test "same-chip = hwloc-calc package:i: 1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu" { check_domain "$TOPO/1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu" { check_domain "$TOPO/1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu" { check_domain "$TOPO/1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu" { check_spread "$TOPO/1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu.xml"; }
@test "same-chip = hwloc-calc package:i: 1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu" { check_domain "$TOPO/1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu" { check_domain "$TOPO/1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu" { check_domain "$TOPO/1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 24pkg-24numa-intel-e5-4640-smt2-192c384pu" { check_spread "$TOPO/24pkg-24numa-intel-e5-4640-smt2-192c384pu.xml"; }
@test "same-chip = hwloc-calc package:i: 24pkg-24numa-intel-e5-4640-smt2-192c384pu" { check_domain "$TOPO/24pkg-24numa-intel-e5-4640-smt2-192c384pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 24pkg-24numa-intel-e5-4640-smt2-192c384pu" { check_domain "$TOPO/24pkg-24numa-intel-e5-4640-smt2-192c384pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 24pkg-24numa-intel-e5-4640-smt2-192c384pu" { check_domain "$TOPO/24pkg-24numa-intel-e5-4640-smt2-192c384pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 2pkg-1numa-intel-e5-2680v3-cpu0-node0-offline-17pu" { check_spread "$TOPO/2pkg-1numa-intel-e5-2680v3-cpu0-node0-offline-17pu.xml"; }
@test "same-chip = hwloc-calc package:i: 2pkg-1numa-intel-e5-2680v3-cpu0-node0-offline-17pu" { check_domain "$TOPO/2pkg-1numa-intel-e5-2680v3-cpu0-node0-offline-17pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 2pkg-1numa-intel-e5-2680v3-cpu0-node0-offline-17pu" { check_domain "$TOPO/2pkg-1numa-intel-e5-2680v3-cpu0-node0-offline-17pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 2pkg-1numa-intel-e5-2680v3-cpu0-node0-offline-17pu" { check_domain "$TOPO/2pkg-1numa-intel-e5-2680v3-cpu0-node0-offline-17pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 2pkg-2numa-amd-epyc9654-zen4-24l3-192c384pu" { check_spread "$TOPO/2pkg-2numa-amd-epyc9654-zen4-24l3-192c384pu.xml"; }
@test "same-chip = hwloc-calc package:i: 2pkg-2numa-amd-epyc9654-zen4-24l3-192c384pu" { check_domain "$TOPO/2pkg-2numa-amd-epyc9654-zen4-24l3-192c384pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 2pkg-2numa-amd-epyc9654-zen4-24l3-192c384pu" { check_domain "$TOPO/2pkg-2numa-amd-epyc9654-zen4-24l3-192c384pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 2pkg-2numa-amd-epyc9654-zen4-24l3-192c384pu" { check_domain "$TOPO/2pkg-2numa-amd-epyc9654-zen4-24l3-192c384pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 2pkg-2numa-arm-thunderx2-smt4-64c256pu" { check_spread "$TOPO/2pkg-2numa-arm-thunderx2-smt4-64c256pu.xml"; }
@test "same-chip = hwloc-calc package:i: 2pkg-2numa-arm-thunderx2-smt4-64c256pu" { check_domain "$TOPO/2pkg-2numa-arm-thunderx2-smt4-64c256pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 2pkg-2numa-arm-thunderx2-smt4-64c256pu" { check_domain "$TOPO/2pkg-2numa-arm-thunderx2-smt4-64c256pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 2pkg-2numa-arm-thunderx2-smt4-64c256pu" { check_domain "$TOPO/2pkg-2numa-arm-thunderx2-smt4-64c256pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 2pkg-2numa-ibm-power8-smt8-20c160pu" { check_spread "$TOPO/2pkg-2numa-ibm-power8-smt8-20c160pu.xml"; }
@test "same-chip = hwloc-calc package:i: 2pkg-2numa-ibm-power8-smt8-20c160pu" { check_domain "$TOPO/2pkg-2numa-ibm-power8-smt8-20c160pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 2pkg-2numa-ibm-power8-smt8-20c160pu" { check_domain "$TOPO/2pkg-2numa-ibm-power8-smt8-20c160pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 2pkg-2numa-ibm-power8-smt8-20c160pu" { check_domain "$TOPO/2pkg-2numa-ibm-power8-smt8-20c160pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu" { check_spread "$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml"; }
@test "same-chip = hwloc-calc package:i: 2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu" { check_domain "$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu" { check_domain "$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu" { check_domain "$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 2pkg-2numa-intel-e5-2695v4-smt2-36c72pu" { check_spread "$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml"; }
@test "same-chip = hwloc-calc package:i: 2pkg-2numa-intel-e5-2695v4-smt2-36c72pu" { check_domain "$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 2pkg-2numa-intel-e5-2695v4-smt2-36c72pu" { check_domain "$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 2pkg-2numa-intel-e5-2695v4-smt2-36c72pu" { check_domain "$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 2pkg-4numa-arm-kunpeng920-32clusters-128c128pu" { check_spread "$TOPO/2pkg-4numa-arm-kunpeng920-32clusters-128c128pu.xml"; }
@test "same-chip = hwloc-calc package:i: 2pkg-4numa-arm-kunpeng920-32clusters-128c128pu" { check_domain "$TOPO/2pkg-4numa-arm-kunpeng920-32clusters-128c128pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 2pkg-4numa-arm-kunpeng920-32clusters-128c128pu" { check_domain "$TOPO/2pkg-4numa-arm-kunpeng920-32clusters-128c128pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 2pkg-4numa-arm-kunpeng920-32clusters-128c128pu" { check_domain "$TOPO/2pkg-4numa-arm-kunpeng920-32clusters-128c128pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 2pkg-8numa-amd-epyc7401-naples-16l3-48c96pu" { check_spread "$TOPO/2pkg-8numa-amd-epyc7401-naples-16l3-48c96pu.xml"; }
@test "same-chip = hwloc-calc package:i: 2pkg-8numa-amd-epyc7401-naples-16l3-48c96pu" { check_domain "$TOPO/2pkg-8numa-amd-epyc7401-naples-16l3-48c96pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 2pkg-8numa-amd-epyc7401-naples-16l3-48c96pu" { check_domain "$TOPO/2pkg-8numa-amd-epyc7401-naples-16l3-48c96pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 2pkg-8numa-amd-epyc7401-naples-16l3-48c96pu" { check_domain "$TOPO/2pkg-8numa-amd-epyc7401-naples-16l3-48c96pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 4pkg-1numa-intel-xeon-smt2-offline-7c12pu" { check_spread "$TOPO/4pkg-1numa-intel-xeon-smt2-offline-7c12pu.xml"; }
@test "same-chip = hwloc-calc package:i: 4pkg-1numa-intel-xeon-smt2-offline-7c12pu" { check_domain "$TOPO/4pkg-1numa-intel-xeon-smt2-offline-7c12pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 4pkg-1numa-intel-xeon-smt2-offline-7c12pu" { check_domain "$TOPO/4pkg-1numa-intel-xeon-smt2-offline-7c12pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 4pkg-1numa-intel-xeon-smt2-offline-7c12pu" { check_domain "$TOPO/4pkg-1numa-intel-xeon-smt2-offline-7c12pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 4pkg-8numa-amd-opteron6134-cgroup2-disallowed-6of32pu" { check_spread "$TOPO/4pkg-8numa-amd-opteron6134-cgroup2-disallowed-6of32pu.xml"; }
@test "same-chip = hwloc-calc package:i: 4pkg-8numa-amd-opteron6134-cgroup2-disallowed-6of32pu" { check_domain "$TOPO/4pkg-8numa-amd-opteron6134-cgroup2-disallowed-6of32pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 4pkg-8numa-amd-opteron6134-cgroup2-disallowed-6of32pu" { check_domain "$TOPO/4pkg-8numa-amd-opteron6134-cgroup2-disallowed-6of32pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 4pkg-8numa-amd-opteron6134-cgroup2-disallowed-6of32pu" { check_domain "$TOPO/4pkg-8numa-amd-opteron6134-cgroup2-disallowed-6of32pu.xml" same-cache l3cache; }
@test "spread = hwloc-distrib --single: 8pkg-1numa-ibm-s390x-drawers-books-20c20pu" { check_spread "$TOPO/8pkg-1numa-ibm-s390x-drawers-books-20c20pu.xml"; }
@test "same-chip = hwloc-calc package:i: 8pkg-1numa-ibm-s390x-drawers-books-20c20pu" { check_domain "$TOPO/8pkg-1numa-ibm-s390x-drawers-books-20c20pu.xml" same-chip package; }
@test "same-numa = hwloc-calc node:i: 8pkg-1numa-ibm-s390x-drawers-books-20c20pu" { check_domain "$TOPO/8pkg-1numa-ibm-s390x-drawers-books-20c20pu.xml" same-numa numanode; }
@test "same-cache = hwloc-calc l3:i: 8pkg-1numa-ibm-s390x-drawers-books-20c20pu" { check_domain "$TOPO/8pkg-1numa-ibm-s390x-drawers-books-20c20pu.xml" same-cache l3cache; }

# Slot order (follow mode): balanced at every prefix.
@test "spread slots: every prefix balanced over packages (24 packages)" { check_slot_balance "$TOPO/24pkg-24numa-intel-e5-4640-smt2-192c384pu.xml"; }
@test "spread slots: every prefix balanced over packages (uneven, offline)" { check_slot_balance "$TOPO/4pkg-1numa-intel-xeon-smt2-offline-7c12pu.xml"; }
@test "spread slots: every prefix balanced over packages (s390x books)" { check_slot_balance "$TOPO/8pkg-1numa-ibm-s390x-drawers-books-20c20pu.xml"; }
@test "spread slots: every prefix balanced over packages (EPYC Genoa)" { check_slot_balance "$TOPO/2pkg-2numa-amd-epyc9654-zen4-24l3-192c384pu.xml"; }
@test "slots: every prefix balanced over packages, NUMA nodes and L3s (Naples)" {
	check_slot_balance "$TOPO/2pkg-8numa-amd-epyc7401-naples-16l3-48c96pu.xml"
	check_slot_balance "$TOPO/2pkg-8numa-amd-epyc7401-naples-16l3-48c96pu.xml" --same-chip=1
}
@test "slots: balanced over L3s when one die has fewer (restricted)" {
	lstopo-no-graphics -i "pack:1 die:2 l3:2 core:2 pu:1" --restrict 0xf3 -f "$BATS_TEST_TMPDIR/u.xml"
	check_slot_balance "$BATS_TEST_TMPDIR/u.xml"
	run "$PINRUN" --topology "$BATS_TEST_TMPDIR/u.xml" --spread --json
	assert_output --partial '"slots":["0","4","6","1","5","7"]'
}
@test "slots: units under no package are dealt like packages" {
	# Two groups; the second holds its two cores without a package.
	local x=$BATS_TEST_DIRNAME/fixtures/group-without-packages-4pu.xml
	run timeout 10 "$PINRUN" --topology "$x" --spread --json
	assert_success
	assert_output --partial '"cpus":"0-3","count":4,'
	assert_output --partial '"slots":["0","2","1","3"]'
	run timeout 10 "$PINRUN" --topology "$x" --spread=2 --json
	assert_output --partial '"slots":["0","2"]'
}

@test "same-chip slots alternate NUMA nodes, then L3s and clusters (Kunpeng 920)" {
	run "$PINRUN" --topology "$TOPO/2pkg-4numa-arm-kunpeng920-32clusters-128c128pu.xml" --same-chip=0 --json
	assert_success
	# NUMA 0 holds CPUs 0-31, NUMA 1 32-63; clusters are 4 cores.
	assert_output --partial '"slots":["0","32","4","36","8","40","12","44","16","48",'
}

@test "spread slots on EPYC NPS4 go round the 4 NUMA nodes first" {
	run "$PINRUN" --topology "$TOPO/1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu.xml" --spread --json
	assert_success
	assert_output --partial '"slots":["0","16","32","48","8","24","40","56","1",'
}

@test "same-chip --no-smt slots are one PU per core" {
	run "$PINRUN" --topology "$TOPO/1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu.xml" --same-chip --json
	assert_success
	assert_output --partial '"cpus":"0-3"'
	assert_output --partial '"slots":["0,2","1,3"]'
	run "$PINRUN" --topology "$TOPO/1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu.xml" --same-chip --no-smt --json
	assert_output --partial '"cpus":"0-1"'
	assert_output --partial '"slots":["0","1"]'
}

# Other sources
@test "synthetic topology: spread and same-chip" {
	run "$PINRUN" --topology "package:2 numa:2 core:4 pu:2" --spread=4 -n
	assert_success
	assert_output "$(expand "$(ref_pus "package:2 numa:2 core:4 pu:2" $(hwloc-distrib --input "package:2 numa:2 core:4 pu:2" --single 4))" | sed 's/,/,/g')"
	run "$PINRUN" --topology "package:2 numa:2 core:4 pu:2" --same-chip=1 -n
	assert_output "16-31"
	run "$PINRUN" --topology "package:2 numa:2 core:4 pu:2" --same-numa=3 --no-smt -n
	assert_output "24,26,28,30"
}

@test "synthetic 4096-PU machine: spread over all 2048 cores, as hwloc-distrib" {
	local syn="package:16 numa:2 l3:4 core:16 pu:2"
	run "$PINRUN" --topology "$syn" --spread --json
	assert_success
	assert_output --partial '"count":2048,'
	check_spread "$syn"
}

@test "saved sysfs trees plan like their XML exports" {
	local t d x
	for t in "$TOPO"/*.sysfs.tar.bz2; do
		x=${t%.sysfs.tar.bz2}.xml
		tar xjf "$t" -C "$BATS_TEST_TMPDIR"
		d=$(tar tjf "$t" | head -1 | cut -d/ -f1)
		for p in --spread --same-chip --same-numa --hot "--spread=2" "--same-chip --no-smt"; do
			# shellcheck disable=SC2086
			run "$PINRUN" --topology "$BATS_TEST_TMPDIR/$d" $p -n
			assert_success
			# shellcheck disable=SC2086
			assert_output "$("$PINRUN" --topology "$x" $p -n)"
		done
	done
}

@test "a sysfs tree in its tar archive: refused with the commands that make it a folder, which work" {
	local t=$TOPO/4pkg-1numa-intel-xeon-smt2-offline-7c12pu.sysfs.tar.bz2 cmd
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr "$PINRUN" --topology "$t" --spread -n
	assert_failure 125
	assert_output ""
	[ "$stderr" = "pinrun: cannot read topology '$t': a tar archive, as hwloc-gather-topology saves a sysfs tree: extract it (mkdir topo && tar -xf '$t' -C topo) and give --topology the folder it holds (topo/NAME)" ] || fail "$stderr"
	# The hint, as it says.
	cmd=${stderr#*extract it (}
	cmd=${cmd%%) and give*}
	bash -c "$cmd"
	run "$PINRUN" --topology topo/16em64t-4s2c2t-offlines --spread -n
	assert_success
	assert_output "$("$PINRUN" --topology "${t%.sysfs.tar.bz2}.xml" --spread -n)"
	# An XML file that is no XML keeps its reason.
	printf 'x' >bad.xml
	run "$PINRUN" --topology bad.xml --spread -n
	assert_failure 125
	assert_output "pinrun: cannot read topology 'bad.xml': not an hwloc XML topology"
}

@test "a sysfs tree with a cgroup cpuset keeps to it" {
	tar xjf "$TOPO/4pkg-8numa-amd-opteron6134-cgroup2-disallowed-6of32pu.sysfs.tar.bz2" -C "$BATS_TEST_TMPDIR"
	run "$PINRUN" --topology "$BATS_TEST_TMPDIR/32amd64-4s2n4c-cgroup" --spread -n
	assert_success
	assert_output "0-5"
}

@test "--explain names the programs that count the machine, and nginx's worker_processes auto, when the placement has fewer CPUs" {
	local k=$TOPO/2pkg-4numa-arm-kunpeng920-32clusters-128c128pu.xml
	run --separate-stderr "$PINRUN" --topology "$k" --same-chip --explain -n -- /usr/sbin/nginx -g 'daemon off;'
	assert_success
	assert_output "0-63"
	[[ $stderr == *$'\n'"pinrun: count: programs that count the machine's CPUs (nginx's worker_processes auto, Python's os.cpu_count() before 3.13, pigz, pbzip2, zstd -T0, Node's os.cpus()) will count 128, not these 64: --tell shows them the placement"$'\n'"pinrun: nginx: 'worker_processes auto' counts the 128 online CPUs, not these 64: give it -g 'worker_processes 64;', or run it under --tell"$'\n'* ]] || fail "$stderr"
	# The whole machine: nothing to say; another program: the count line.
	run --separate-stderr "$PINRUN" --topology "$k" --cpus all --explain -n -- nginx
	[[ $stderr != *"worker_processes"* ]] || fail "$stderr"
	run --separate-stderr "$PINRUN" --topology "$k" --same-chip --explain -n -- ./nginx-like
	[[ $stderr != *"pinrun: nginx:"* ]] || fail "$stderr"
	[[ $stderr == *"pinrun: count: "* ]] || fail "$stderr"
}

# Output shapes
@test "--json has the documented keys" {
	run --separate-stderr "$PINRUN" --topology "$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml" --same-numa=1 --json
	assert_success
	assert_output '{"version":1,"policy":"same-numa","reason":"given","cpus":"18-35,54-71","count":36,"objects":["package:1"],"slots":["18,54","19,55","20,56","21,57","22,58","23,59","24,60","25,61","26,62","27,63","28,64","29,65","30,66","31,67","32,68","33,69","34,70","35,71"],"numa":"1","allowed":"0-71","excluded":{"offline":"","cgroup":"","unusable":"","affinity":"","kind":"","near":"","share":"","smt":""},"topology":{"source":"XML file","packages":2,"numa_nodes":2,"l3":2,"cores":36,"pus":72}}'
	[ -z "$stderr" ]
}

@test "--json objects name the largest objects covered" {
	run "$PINRUN" --topology "$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml" --cpus 0-17,36-53,18,54,19 --json
	assert_success
	assert_output --partial '"objects":["package:0","core:18","pu:38"]'
}

@test "--explain words each reason once: --kind's on a line of its own, --share's on its line" {
	run --separate-stderr "$PINRUN" --topology "$TOPO/1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu.xml" --kind=slow --share 2/2 --hot --explain -n
	assert_success
	assert_output "16"
	[ "${stderr_lines[1]}" = "pinrun: excluded 0-11: not of the slowest kind (--kind=slow)" ] || fail "$stderr"
	[ "${stderr_lines[2]}" = "pinrun: share 2 of 2: CPUs 16-19; excluded 12-15: the other shares" ] || fail "$stderr"
	[ "${stderr_lines[3]}" = "pinrun: planning for another machine: 'current' and 'idle' mean the first candidate" ] || fail "$stderr"
	[ "$(grep -c 'excluded' <<<"$stderr")" = 2 ] || fail "$stderr"
	run "$PINRUN" --topology "$TOPO/1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu.xml" --kind=slow --share 2/2 --hot --json
	assert_output --partial '"excluded":{"offline":"","cgroup":"","unusable":"","affinity":"","kind":"0-11","near":"","share":"12-15","smt":""}'
}

@test "--explain says what, why and by which rule (on stderr)" {
	run --separate-stderr "$PINRUN" --topology "$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml" --same-chip --no-smt --explain -n
	assert_success
	assert_output "8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84"
	[ "${stderr_lines[0]}" = "pinrun: topology: XML file (hwloc $(hwloc-info --version | cut -d' ' -f2)): 2 packages, 2 NUMA nodes, 20 L3, 40 cores, 160 PUs" ]
	[ "${stderr_lines[1]}" = "pinrun: excluded 0-7,88-95: offline or disallowed by a cgroup" ]
	[ "${stderr_lines[2]}" = "pinrun: planning for another machine: 'current' and 'idle' mean the first candidate" ]
	[ "${stderr_lines[3]}" = "pinrun: --same-chip: package:0, the first candidate in topology order" ]
	[ "${stderr_lines[4]}" = "pinrun: rule: every allowed PU of one package" ]
	[[ "${stderr_lines[5]}" == "pinrun: excluded 9-11,13-15,"*": SMT siblings (--no-smt)" ]]
	[[ "${stderr_lines[6]}" == "pinrun: cpus: 8,12,16,"*" (pu:0 pu:4 "* ]]
}

@test "--hot on another machine takes its first allowed PU" {
	run "$PINRUN" --topology "$TOPO/2pkg-1numa-intel-e5-2680v3-cpu0-node0-offline-17pu.xml" --hot -n
	assert_success
	assert_output "4"
	run "$PINRUN" --topology "$TOPO/2pkg-1numa-intel-e5-2680v3-cpu0-node0-offline-17pu.xml" --hot=idle --smt -n
	assert_output "4"
}

@test "--cpus takes lists, masks and locations alike" {
	local x=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
	run "$PINRUN" --topology "$x" --cpus 0-8:4,40 -n
	assert_output "0,4,8,40"
	run "$PINRUN" --topology "$x" --cpus 0x00000100,00000111 -n
	assert_output "0,4,8,40"
	run "$PINRUN" --topology "$x" --cpus 0x100,0x111 -n
	assert_output "0,4,8,40"
	run "$PINRUN" --topology "$x" --cpus package:1.core:0-1 -n
	assert_output "18-19,54-55"
	run "$PINRUN" --topology "$x" --cpus numa:1.core:all.pu:1 -n
	assert_output "54-71"
	run "$PINRUN" --topology "$x" --cpus all -n
	assert_output "0-71"
}

@test "masks as /proc prints them, without 0x" {
	local x=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
	run "$PINRUN" --topology "$x" --cpus ff,00000000 -n
	assert_output "32-39"
	run "$PINRUN" --topology "$x" --cpus 00000001,00000000 -n
	assert_output "32"
	run "$PINRUN" --topology "$x" --cpus 1,2 -n
	assert_output "1-2"
}

@test "locations: NUMA nodes inside an object, abbreviations, duplicates" {
	local s="pack:2 numa:2 l3:2 core:2 pu:2"
	[ "$(ref_pus "$s" package:1.numa:0)" = "16,17,18,19,20,21,22,23" ]
	run "$PINRUN" --topology "$s" --cpus package:1.numa:0 -n
	assert_output "16-23"
	run "$PINRUN" --topology "$s" --cpus pack:1 -n
	assert_output "16-31"
	# KNL: DDR and MCDRAM nodes share their cluster's CPUs, named once.
	run "$PINRUN" --topology "$TOPO/1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu.xml" --cpus numa:all.pu:all -n
	assert_success
	assert_output "0-271"
}

@test "locations use hwloc's logical indexes (pu:1 is not CPU 1)" {
	local x=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
	run "$PINRUN" --topology "$x" --cpus pu:1 -n
	assert_output "$(ref_pus "$x" pu:1)"
	assert_output "36"
	run "$PINRUN" --topology "$x" --hot=pu:1 -n
	assert_output "36"
}

@test "hybrid Raptor Lake: spread and same-cache use every core kind" {
	local x=$TOPO/1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu.xml
	run "$PINRUN" --topology "$x" --spread -n
	assert_output "0,2,4,6,8,10,12-19"
	run "$PINRUN" --topology "$x" --spread --smt -n
	assert_output "0-19"
}
