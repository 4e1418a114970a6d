#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# --near: the CPUs local to an I/O device, checked against hwloc-calc for
# every device of every topology that has some (and two hand-made ones),
# alone and under a policy, --share and --mem; and on this machine.

load lib/test_helper
load lib/reference
load lib/devices

# Every OS device and PCI device, against hwloc-calc os=NAME / pci=BUSID.
@test "near = hwloc-calc os=NAME: 1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu (8 AMD GPUs)" { check_near "$TOPO/1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu.xml" 44; }
@test "near = hwloc-calc os=NAME: 1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu (mlx5)" { check_near "$TOPO/1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu.xml" 14; }
@test "near = hwloc-calc os=NAME: 24pkg-24numa-intel-e5-4640-smt2-192c384pu" { check_near "$TOPO/24pkg-24numa-intel-e5-4640-smt2-192c384pu.xml" 22; }
@test "near = hwloc-calc os=NAME: 2pkg-2numa-arm-thunderx2-smt4-64c256pu" { check_near "$TOPO/2pkg-2numa-arm-thunderx2-smt4-64c256pu.xml" 27; }
@test "near = hwloc-calc os=NAME: 2pkg-2numa-ibm-power8-smt8-20c160pu" { check_near "$TOPO/2pkg-2numa-ibm-power8-smt8-20c160pu.xml" 26; }
@test "near = hwloc-calc os=NAME: 2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu (4 NVIDIA GPUs, mlx5)" { check_near "$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml" 32; }
@test "near = hwloc-calc os=NAME: 2pkg-2numa-intel-e5-2695v4-smt2-36c72pu (CUDA, OpenCL, NVML)" { check_near "$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml" 17; }
@test "near = hwloc-calc os=NAME: 2pkg-8numa-amd-epyc7401-naples-16l3-48c96pu (NVMe, OpenCL)" { check_near "$TOPO/2pkg-8numa-amd-epyc7401-naples-16l3-48c96pu.xml" 20; }
@test "near = hwloc-calc os=NAME: hand-made, devices under bridges, on a core, on the machine" { check_near "$AWKWARD" 20; }
@test "near = hwloc-calc os=NAME: hand-made, a NIC on a package the cgroup disallows" { check_near "$CPULESS" 1; }

@test "the topologies without devices have none: --near names none" {
	for f in "$TOPO"/*.xml; do
		[ -z "$(os_devices "$f")" ] || continue
		run --separate-stderr "$PINRUN" --topology "$f" --near=eth0 -n
		assert_failure 125
		[ "$stderr" = "pinrun: unknown device 'eth0': the topology has no I/O device" ] || fail "$(basename "$f"): $stderr"
	done
}

# With a policy, the policy plans inside the device's CPUs.
@test "--near=DEV --spread=N = hwloc-distrib --restrict to the device: POWER9" { check_near_spread "$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml"; }
@test "--near=DEV --spread=N = hwloc-distrib --restrict to the device: EPYC 7A53" { check_near_spread "$TOPO/1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu.xml"; }
@test "--near=DEV --spread=N = hwloc-distrib --restrict to the device: hand-made" { check_near_spread "$AWKWARD"; }

@test "--near with --hot=idle, --same-numa and --cpus plans inside the device's CPUs" {
	local f=$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml
	# cuda2 is on package 1 (CPUs 96-175): on another machine, idle is
	# the first candidate.
	run "$PINRUN" --topology "$f" --near=cuda2 --hot=idle -n
	assert_success
	assert_output "96"
	run "$PINRUN" --topology "$f" --near=cuda2 --same-numa -n
	assert_output "96-175"
	run --separate-stderr "$PINRUN" --topology "$f" --near=cuda2 --cpus 8 -n
	assert_failure 125
	[ "$stderr" = "pinrun: CPU 8 is not in the allowed set 96-175 (use --all to leave the inherited mask)" ] || fail "$stderr"
	# The EPYC's GPU rsmi4 is on one L3 of NUMA node 0.
	run "$PINRUN" --topology "$TOPO/1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu.xml" --near=rsmi4 --same-numa -n
	assert_output "0-7,64-71"
}

@test "--near with --share splits the device's CPUs among the ranks" {
	local f=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
	run "$PINRUN" --topology "$f" --near=mlx5_0 --share 1/2 -n
	assert_output "0-8,36-44"
	# hwloc-distrib --single 2 over part 2's cores (9-17) gives 9 and 13.
	run "$PINRUN" --topology "$f" --near=mlx5_0 --share 2/2 --spread=2 -n
	assert_output "9,13"
}

@test "--near: --json and --explain name the device and the object it is local to" {
	local f=$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml
	run --separate-stderr "$PINRUN" --topology "$f" --near=mlx5_2 --spread=2 --json --explain
	assert_success
	assert_output '{"version":1,"policy":"spread","reason":"given","cpus":"96,136","count":2,"objects":["pu:80","pu:120"],"slots":["96","136"],"numa":"8","allowed":"96-175","excluded":{"offline":"","cgroup":"","unusable":"0-7,88-95","affinity":"","kind":"","near":"8-87","share":"","smt":""},"near":{"name":"mlx5_2","type":"openfabrics","subtype":"","pci":"0033:01:00.0","local_to":"package:1","cpus":"96-175","numa":"8"},"topology":{"source":"XML file","packages":2,"numa_nodes":2,"l3":20,"cores":40,"pus":160}}'
	[ "${stderr_lines[2]}" = "pinrun: near mlx5_2 (openfabrics, pci 0033:01:00.0): local to package:1, CPUs 96-175" ] || fail "$stderr"
	[ "${stderr_lines[3]}" = "pinrun: excluded 8-87: not near mlx5_2" ] || fail "$stderr"
}

@test "--near alone places on every allowed CPU near the device, as policy \"near\"" {
	run "$PINRUN" --topology "$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml" --near=cuda1 --json
	assert_success
	assert_output --partial '{"version":1,"policy":"near","reason":"given","cpus":"0-17,36-53","count":36,"objects":["package:0"],'
	run --separate-stderr "$PINRUN" --topology "$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml" --near=cuda1 --explain -n
	assert_output "0-17,36-53"
	[ "${stderr_lines[3]}" = "pinrun: --near=cuda1: every allowed CPU near the device" ] || fail "$stderr"
}

@test "a device on the whole machine means every CPU, and --explain says so" {
	run --separate-stderr "$PINRUN" --topology "$AWKWARD" --near=eth0 --explain -n
	assert_success
	assert_output "0-15"
	[ "${stderr_lines[1]}" = "pinrun: near eth0 (network, pci 0000:00:19.0): local to the whole machine (machine:0), not to one part of it: every CPU is as near" ] || fail "$stderr"
	run "$PINRUN" --topology "$TOPO/1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu.xml" --near=sda --json
	assert_output --partial '"near":{"name":"sda","type":"block","subtype":"Disk","pci":"","local_to":"machine:0","cpus":"0-127","numa":"0-3"}'
}

@test "--mem follows the device: its NUMA nodes, not the placement's" {
	run "$PINRUN" --topology "$TOPO/2pkg-4numa-arm-kunpeng920-32clusters-128c128pu.xml" --same-numa=1 --mem=bind --json
	assert_output --partial '"mem":{"policy":"bind","nodes":"1","from":"placement"}'
	# cuda0 hangs on package 1, whose two groups have nodes 2 and 3 (and
	# which has GPU memory, node 5, that no CPU has as its own).
	run "$PINRUN" --topology "$AWKWARD" --near=cuda0 --hot --mem=interleave --json
	assert_output --partial '"cpus":"8","count":1,'
	assert_output --partial '"near":{"name":"cuda0","type":"coproc","subtype":"CUDA","pci":"0001:81:00.0","local_to":"package:1","cpus":"8-15","numa":"2-3"}'
	assert_output --partial '"mem":{"policy":"interleave","nodes":"2-3","from":"device"}'
	run "$PINRUN" --topology "$AWKWARD" --hot=8 --mem=interleave --json
	assert_output --partial '"mem":{"policy":"interleave","nodes":"2","from":"placement"}'
	run "$PINRUN" --topology "$TOPO/2pkg-8numa-amd-epyc7401-naples-16l3-48c96pu.xml" --near=enp3s0f0 --hot --mem=bind --json
	assert_output --partial '"near":{"name":"enp3s0f0","type":"network","subtype":"","pci":"0000:03:00.0","local_to":"group:0","cpus":"0-5,48-53","numa":"0"}'
	assert_output --partial '"mem":{"policy":"bind","nodes":"0","from":"device"}'
}

@test "a device the allowed set leaves out is exit 125" {
	# ib0 is on package 0, whose cores are the slow kind.
	bad "--near=ib0: none of the CPUs near it (4-7) is in the allowed set 8-15" \
		--topology "$AWKWARD" --near=ib0 --kind=fast -n
	run "$PINRUN" --topology "$AWKWARD" --near=ib0 --kind=slow -n
	assert_output "4-7"
}

# --- errors ------------------------------------------------------------------

@test "an unknown device is exit 125, naming a few that exist" {
	bad "unknown device 'cuda9': the topology has nvme0n1, hsi0, mlx5_0, hsi1, mlx5_1, cuda0, nvml0, cuda1 and 11 more" \
		--topology "$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml" --near=cuda9 -n
	bad "unknown PCI device 'pci=0000:99:00.0': the topology has pci=0000:d1:00.0, pci=0000:d5:00.0, pci=0000:d6:00.0, pci=0000:94:00.0, pci=0000:9a:00.0, pci=0000:9b:00.0, pci=0000:9c:00.0, pci=0000:9d:00.0 and 21 more" \
		--topology "$TOPO/1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu.xml" --near=pci=0000:99:00.0 -n
	bad "unknown device 'os=0000:3b:00.0': the topology has ib0, mlx5_0, dup0, nvme0n1, cuda0, nvml0, opencl0d0, card0 and 5 more" \
		--topology "$AWKWARD" --near=os=0000:3b:00.0 -n
}

@test "two devices with one name: exit 125, naming both; pci= picks one" {
	bad "device name 'dup0' is ambiguous: the topology has two, under pci=0000:3c:00.0 and pci=0001:82:00.0: name the one meant as pci=<bus id>" \
		--topology "$AWKWARD" --near=dup0 -n
	run "$PINRUN" --topology "$AWKWARD" --near=pci=0001:82:00.0 -n
	assert_output "8-15"
}

@test "a malformed --near value is a usage error" {
	bad_usage "invalid --near value '': no device name" --near= --hot -n
	bad_usage "invalid --near value 'os=': no device name" --near=os= --hot -n
	bad_usage "invalid --near value 'pci=': no PCI bus id after 'pci='" --near=pci= --hot -n
	bad_usage "invalid --near value 'pci=3b:00': expected a PCI bus id such as 0000:3b:00.0" --near=pci=3b:00 --hot -n
	bad_usage "invalid --near value 'pci=0000:3b:00.9': expected a PCI bus id such as 0000:3b:00.0" --near=pci=0000:3b:00.9 --hot -n
	bad_usage "--near given twice" --near=eth0 --near=eth1 --hot -n
	bad_usage "--show takes only a pid (and --json): --near does not apply" --show --near=eth0
}

@test "device names are echoed escaped" {
	run --separate-stderr "$PINRUN" --topology "$AWKWARD" --near="$(printf 'x\ny')" -n
	assert_failure 125
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "$stderr"
	[[ "$stderr" == "pinrun: unknown device 'x\\x0ay': the topology has ib0, mlx5_0, dup0, nvme0n1, cuda0, nvml0, opencl0d0, card0 and 5 more" ]] || fail "$stderr"
	run "$PINRUN" --topology "$AWKWARD" --near="$(printf 'tab\tname')" -n
	assert_output "8-15"
}

# --- this machine --------------------------------------------------------------

# The live machine's first network device, as hwloc sees it.
live_net() {
	lstopo-no-graphics --only osdev -v 2>/dev/null | sed -n 's/^Net.*"\(.*\)"$/\1/p' | head -1
}

@test "--near=NIC on this machine runs the command on the CPUs hwloc-calc gives" {
	local nic want
	nic=$(live_net)
	[ -n "$nic" ] || skip_unless_works "hwloc finds no network device here"
	want=$(hwloc-calc --physical-output --intersect PU "os=$nic")
	[ -n "$want" ] || fail "hwloc-calc os=$nic gives nothing"
	run "$PINRUN" --near="$nic" -- grep Cpus_allowed_list /proc/self/status
	assert_success
	[ "$(expand "${output##*:	}")" = "$(expand "$want")" ] || fail "pinrun: $output, hwloc-calc: $want"
	run "$PINRUN" --near="$nic" --hot -- true
	assert_success
}

@test "an unknown device on this machine is exit 125, naming those hwloc finds" {
	local names
	names=$(lstopo-no-graphics --only osdev 2>/dev/null | sed -n 's/^.*"\(.*\)"$/\1/p' | head -8 | paste -sd, - | sed 's/,/, /g')
	if [ -n "$names" ]; then
		bad "unknown device 'nosuch0': this machine has $names" --near=nosuch0 -- true
	else
		bad "unknown device 'nosuch0': this machine has no I/O device that hwloc finds" --near=nosuch0 -- true
	fi
}

@test "the cache keeps the devices: a plain entry is reloaded once for --near, then hit" {
	local nic
	nic=$(live_net)
	[ -n "$nic" ] || skip_unless_works "hwloc finds no network device here"
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
	run --separate-stderr "$PINRUN" --hot --explain -n
	[[ "${stderr_lines[-1]}" == *"(cache: miss, stored)"* ]] || fail "$stderr"
	run --separate-stderr "$PINRUN" --near="$nic" --explain -n
	[[ "${stderr_lines[-1]}" == *"(cache: miss, stored)"* ]] || fail "no devices in a plain entry: $stderr"
	run --separate-stderr "$PINRUN" --near="$nic" --explain -n
	[[ "${stderr_lines[-1]}" == *"(cache: hit)"* ]] || fail "$stderr"
	run --separate-stderr "$PINRUN" --hot --explain -n
	[[ "${stderr_lines[-1]}" == *"(cache: hit)"* ]] || fail "a plain launch misses an entry with devices: $stderr"
	# A device the cached table lacks (plugged in since?) is looked for
	# afresh before it is called unknown.
	run --separate-stderr "$PINRUN" --near=nosuch0 --explain -n
	assert_failure 125
	run --separate-stderr "$PINRUN" --near="$nic" --explain -n
	[[ "${stderr_lines[-1]}" == *"(cache: hit)"* ]] || fail "$stderr"
}

# --- bash completion of --near= and --mem= ------------------------------------

@test "completion: --near= offers the devices, of --topology when given" {
	local p9=$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml
	run complete_line "$PINRUN --topology $p9 --near=cu"
	assert_output $'cuda0\ncuda1\ncuda2\ncuda3'
	run complete_line "$PINRUN --topology $p9 --near=pci=0004:0"
	assert_output $'pci=0004:03:00.0\npci=0004:04:00.0\npci=0004:05:00.0'
	# This machine's: every OS device hwloc names, and no other name.
	local names
	names=$(lstopo-no-graphics --only osdev 2>/dev/null | sed -n 's/^.*"\(.*\)"$/\1/p' | sort)
	[ -n "$names" ] || skip_unless_works "hwloc finds no device here"
	run complete_line "$PINRUN --near="
	# and gpu, the class (--near=gpu).
	assert_line "gpu"
	[ "$(grep -v -e '^pci=' -e '^gpu$' <<<"$output" | sort)" = "$names" ] || fail "offered: $output; hwloc names: $names"
}

@test "completion: --mem= offers the modes, then nodes and kinds" {
	local knl=$TOPO/1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu.xml
	run complete_line "$PINRUN --mem=pre"
	assert_output $'preferred\npreferred:'
	run complete_line "$PINRUN --topology $knl --mem=interleave:"
	assert_output $'0\n1\n2\n3\n4\n5\n6\n7\nall\nmcdram'
	run complete_line "$PINRUN --topology $knl --mem=bind:m"
	assert_output "mcdram"
	run complete_line "$PINRUN --ne"
	assert_output "--near="
}
