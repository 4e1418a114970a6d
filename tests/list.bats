#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# --list: the map of a machine. On every topology: each line fits in 80
# columns, every PU, NUMA node and device appears exactly once, and the
# marks are exactly the plan; --list --json carries the same; colour only
# on a terminal, and never with NO_COLOR.

load lib/test_helper
load lib/reference
load lib/devices

# check_map FILE [POLICY...]: the map of FILE, with the placement of POLICY
# marked when one is given, checked against hwloc's view of FILE.
check_map() {
	local f=$1 map name n want got
	shift
	map=$("$PINRUN" --topology "$f" --list "$@") || fail "--list $* on $(basename "$f") failed"
	# 80 columns.
	got=$(awk 'length($0) > 80' <<<"$map")
	[ -z "$got" ] || fail "wider than 80 columns on $(basename "$f"): $got"
	# Every PU once.
	want=$(ref_pus "$f" all)
	got=$(list_cpus <<<"$map" | sort -n | paste -sd, -)
	if [ -z "$want" ] || [ "$want" != "$got" ]; then
		fail "PUs of $(basename "$f"): hwloc has '$want', the map '$got'"
	fi
	# Every NUMA node once.
	want=$(lstopo-no-graphics --input "$f" --only numanode -p 2>/dev/null | sed -n 's/.*P#\([0-9]*\).*/\1/p' | sort -n | paste -sd, -)
	got=$(grep -oE '^ *numa:[0-9]+  node [0-9]+' <<<"$map" | sed 's/.* //' | sort -n | paste -sd, -)
	[ "$want" = "$got" ] || fail "NUMA nodes of $(basename "$f"): hwloc has '$want', the map '$got'"
	# Every device once (as often as hwloc has it, for a shared name).
	while IFS= read -r name; do
		n=$(os_devices "$f" | grep -cxF -- "$name")
		name=${name//$'\t'/\\x09}
		got=$(grep -oF -- " $name (" <<<"$map" | wc -l)
		[ "$got" -eq "$n" ] || fail "device $name appears $got times on the map of $(basename "$f"), not $n"
	done < <(os_devices "$f")
	while read -r name; do
		got=$(grep -oF -- "pci=$name " <<<"$map" | wc -l)
		[ "$got" -eq 1 ] || fail "PCI device $name appears $got times on the map of $(basename "$f")"
	done < <(pci_devices "$f")
	# The marks are the plan.
	if [ $# -gt 0 ]; then
		want=$(our_pus "$f" "$@")
		got=$(list_marks <<<"$map" | sort -n | paste -sd, -)
		if [ -z "$want" ] || [ "$want" != "$got" ]; then
			fail "marks on $(basename "$f") with $*: plan '$want', marked '$got'"
		fi
	else
		[ -z "$(list_marks <<<"$map")" ] || fail "marks without a placement on $(basename "$f")"
	fi
}

@test "--list on every topology: 80 columns, every PU, node and device once" {
	for f in "$TOPO"/*.xml "$AWKWARD" "$CPULESS"; do
		check_map "$f"
	done
}

@test "--list with a policy marks exactly the plan, on every topology" {
	local f n
	for f in "$TOPO"/*.xml "$AWKWARD"; do
		n=$(hwloc-calc --input "$f" --number-of core machine:0)
		check_map "$f" --spread=$((n < 3 ? n : 3))
		check_map "$f" --same-numa=0
		check_map "$f" --spread --smt
		check_map "$f" --hot=idle --smt
	done
}

@test "--list with --near marks the CPUs near the device, and the device" {
	local f=$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml
	check_map "$f" --near=mlx5_2
	check_map "$f" --near=cuda0 --spread=4
	run "$PINRUN" --topology "$f" --near=cuda0 --spread=4 --list
	assert_line "    pci=0004:04:00.0 3D: cuda0 (coproc CUDA) <- --near, nvml0 (gpu)"
	check_map "$AWKWARD" --near=nvme0n1
}

@test "--list shows sizes, kinds, distances, SMT siblings and what cannot be used" {
	run "$PINRUN" --topology "$AWKWARD" --list
	assert_success
	assert_line --index 0 "XML file: 2 packages, 6 NUMA nodes, 0 L3, 4 groups, 8 cores, 16 PUs"
	assert_line "  numa:5  node 4, 64.0 GiB CXL-DRAM, CPUs 0-15"
	assert_line "    numa:4  node 5, 16.0 GiB GPUMemory, CPUs 8-15"
	assert_line "      core:4-5  8-11 (2 per core)  fast"
	assert_line "      pci=0002:05:00.0 NVMExp: nvme0n1 (block Disk) (local to core:5)"
	assert_line "  pmem0 (block NVDIMM)"
	assert_line "      5:  80  80  80  80  40  10"
	run "$PINRUN" --topology "$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml" --list
	assert_line --index 1 "caches: L1d 32 KiB per core, L2 256 KiB per core"
	assert_line --index 2 "cores: 'core:0-17  0-17 + 36-53' means"
	assert_line --index 3 "  that core:0 has CPUs 0 and 36, core:1 CPUs 1 and 37, and so on"
	assert_line "    l3:0 (45 MiB)  core:0-17  0-17 + 36-53"
	run "$PINRUN" --topology "$TOPO/2pkg-1numa-intel-e5-2680v3-cpu0-node0-offline-17pu.xml" --list
	assert_line "  package:0 l3:0 (30 MiB)  core:0-8  4-20:2"
	assert_line "  offline or disallowed CPUs: 0-3,21-23"
	run "$PINRUN" --topology "$TOPO/2pkg-2numa-ibm-power8-smt8-20c160pu.xml" --spread=2 --list
	assert_line "    l3:0 (8192 KiB)  core:0  [0],1,2,3,4,5,6,7"
	assert_line "    l3:1 (8192 KiB)  core:1  8-15"
	assert_line "  the placement, marked [ ] above: 0,80"
}

@test "--list --json: every PU once, every device, the placement" {
	local f=$TOPO/1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu.xml
	run "$PINRUN" --topology "$f" --near=rsmi4 --spread=2 --list --json
	assert_success
	run python3 -c '
import json, sys
m = json.loads(sys.argv[1])
def cpus(s):
    out = []
    for item in filter(None, s.split(",")):
        a, _, b = item.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out
pus = sorted(c for core in m["cores"] for c in cpus(core["cpus"]))
print(len(pus), len(set(pus)), len(m["cores"]), len(m["numa"]), len(m["devices"]),
      m["placement"], m["topology"]["pus"], len(m["distances"]),
      [d["local_to"] for d in m["devices"] if d["name"] == "rsmi4"][0])
' "$output"
	assert_output "128 128 64 4 44 0,4 128 4 l3:0"
}

@test "--list --json on this machine has its devices" {
	run "$PINRUN" --list --json
	assert_success
	run python3 -c 'import json, sys; m = json.loads(sys.argv[1]); print(sorted(d["name"] for d in m["devices"] if d["name"]))' "$output"
	assert_output "$(lstopo-no-graphics --only osdev 2>/dev/null | sed -n 's/^.*"\(.*\)"$/\1/p' | sort | python3 -c 'import sys; print(sorted(l.strip() for l in sys.stdin))')"
}

@test "--list on this machine: every PU once, and its devices" {
	local map want
	map=$("$PINRUN" --list)
	want=$(hwloc-calc --physical-output --intersect PU all | tr ',' '\n' | sort -n | paste -sd, -)
	[ "$(list_cpus <<<"$map" | sort -n | paste -sd, -)" = "$want" ] || fail "$map"
	while IFS= read -r name; do
		[ "$(grep -oF -- " $name (" <<<"$map" | wc -l)" -eq 1 ] || fail "$name: $map"
	done < <(lstopo-no-graphics --only osdev 2>/dev/null | sed -n 's/^.*"\(.*\)"$/\1/p')
	[[ "${map%%$'\n'*}" == "this machine: "* ]] || fail "$map"
}

@test "colour only on a terminal, and never with NO_COLOR" {
	command -v script >/dev/null || skip_unless_works "no script(1) to make a terminal"
	local cmd="'$PINRUN' --topology '$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml' --spread=2 --list"
	run script -qec "env -u NO_COLOR TERM=xterm $cmd" /dev/null
	assert_success
	assert_output --partial $'[\e[1;32m0\e[0m]'
	run script -qec "env NO_COLOR=1 TERM=xterm $cmd" /dev/null
	refute_output --partial $'\e['
	assert_output --partial '[0]'
	run bash -c "$cmd | cat"
	refute_output --partial $'\e['
	assert_output --partial '[0]'
}

@test "--list takes no command, --pid, --dry-run or --follow; --mem needs a placement" {
	bad_usage "--list prints a map and runs nothing: a command does not apply" --list -- true
	bad_usage "--list prints a map and runs nothing: --pid does not apply" --list --pid 1
	bad_usage "--list prints a map and runs nothing: --dry-run does not apply" --list -n
	bad_usage "--list prints a map and runs nothing: --follow does not apply" --list --hot --follow
	bad_usage "--show takes only a pid (and --json): --list does not apply" --list --show
	bad_usage "--mem with --list marks a placement's memory: give a policy or --near" --list --mem=bind:0
	run "$PINRUN" --list --hot=0 --mem=bind:0 --topology "$AWKWARD"
	assert_success
	assert_line "      numa:0  node 0, 32.0 GiB, CPUs 0-3 <- --mem"
	assert_line "  memory: bind:0 on nodes 0"
}

@test "a failed write of the map is an error (--list >/dev/full)" {
	[ -w /dev/full ] || skip_unless_works "no /dev/full"
	run bash -c "'$PINRUN' --list --topology '$TOPO/24pkg-24numa-intel-e5-4640-smt2-192c384pu.xml' >/dev/full"
	assert_failure 125
	assert_output "pinrun: write error: No space left on device"
}

# --- the documentation's examples -------------------------------------------------

@test "the README's device examples print what the README shows" {
	local readme=$REPO/README.md n=0 cmd want args
	cd "$REPO"
	# Each console block of the section: "$ pinrun ARGS", then its output.
	while IFS= read -r -d '' block; do
		cmd=${block%%$'\n'*}
		want=${block#*$'\n'}
		read -ra args <<<"${cmd#\$ pinrun }"
		run "$PINRUN" "${args[@]}"
		assert_success
		[ "$output" = "${want%$'\n'}" ] || fail "$cmd: the README shows '$want', pinrun prints '$output'"
		n=$((n + 1))
	done < <(awk '/^## Near the device/ { on = 1; next } /^## / { on = 0 }
		on && /^```console$/ { block = ""; inb = 1; next }
		on && inb && /^```$/ { printf "%s%c", block, 0; inb = 0; next }
		on && inb { block = block $0 "\n" }' "$readme")
	[ "$n" -eq 4 ] || fail "$n examples found, not 4"
}

@test "the man page's --list picture and device examples are what pinrun does" {
	local man=$REPO/man/pinrun.1 want
	local E5=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
	want=$(awk '/^on two Xeon E5-2695 v4:$/ { on = 1; next } on && /^\.EX$/ { inb = 1; next }
		inb && /^\.EE$/ { exit } inb' "$man" | sed 's/\\-/-/g; s/\\(aq/'"'"'/g; s/\\e/\\/g')
	run "$PINRUN" --topology "$E5" --near=mlx5_0 --spread=2 --list
	[ -n "$want" ] && [ "$output" = "$want" ] || fail "the man page shows '$want', pinrun prints '$output'"
	# EXAMPLES, "Devices and memory": machine.xml is the E5-2695 v4 there.
	run "$PINRUN" --list
	assert_success
	run "$PINRUN" --near=mlx5_0 --mem=bind --dry-run --topology "$E5"
	assert_output "0-17,36-53"
	run "$PINRUN" --near=mlx5_0 --mem=bind --json --topology "$E5"
	assert_output --partial '"mem":{"policy":"bind","nodes":"0","from":"device"}'
	run "$PINRUN" --near=cuda1 --spread=4 --list --topology "$E5"
	assert_line "  the placement, marked [ ] above: 0,4,9,13"
	run "$PINRUN" --near=pci=0000:08:00.0 --same-numa --dry-run --topology "$E5"
	assert_output "0-17,36-53"
	run "$PINRUN" --hot --mem=interleave:all -- "$HELPERS/mempolicy"
	assert_output "interleave $(expand "$(cat /sys/devices/system/node/online)")"
}

# --- what lstopo and numactl users look for (issue 20) ------------------------

@test "--list and --explain count the topology in the same words (--list adds the groups)" {
	local k=$TOPO/2pkg-4numa-arm-kunpeng920-32clusters-128c128pu.xml
	run "$PINRUN" --topology "$k" --list
	assert_success
	assert_line --index 0 "XML file: 2 packages, 4 NUMA nodes, 4 L3, 32 groups, 128 cores, 128 PUs"
	run --separate-stderr "$PINRUN" --topology "$k" --same-chip --explain -n
	assert_success
	[ "${stderr_lines[0]}" = "pinrun: topology: XML file (hwloc $(hwloc-info --version | cut -d' ' -f2)): 2 packages, 4 NUMA nodes, 4 L3, 128 cores, 128 PUs" ]
	run "$PINRUN" --topology "$TOPO/1pkg-1numa-x86-xeon5130-restricted-1c1pu.xml" --list
	assert_success
	assert_line --index 0 "XML file: 1 package, 1 NUMA node, 0 L3, 1 core, 1 PU"
}

@test "--list: Kunpeng 920's 32 clusters, each node's CPUs" {
	run "$PINRUN" --topology "$TOPO/2pkg-4numa-arm-kunpeng920-32clusters-128c128pu.xml" --list
	assert_success
	assert_line --index 0 "XML file: 2 packages, 4 NUMA nodes, 4 L3, 32 groups, 128 cores, 128 PUs"
	assert_line --index 1 "caches: L1d 64 KiB per core, L2 512 KiB per core"
	assert_line --index 2 "  package:0  CPUs 0-63"
	assert_line --index 3 "    l3:0 (32 MiB)"
	assert_line --index 4 "      numa:0  node 0, 125.6 GiB, CPUs 0-31"
	assert_line --index 5 "      group:0  core:0-3  0-3"
	assert_line --index 6 "      group:1  core:4-7  4-7"
	assert_line "      group:31  core:124-127  124-127"
	[ "$(grep -c '^ *group:[0-9]*  core:' <<<"$output")" -eq 32 ] || fail "$output"
	# Each cluster is what --cpus group:N names.
	run "$PINRUN" --topology "$TOPO/2pkg-4numa-arm-kunpeng920-32clusters-128c128pu.xml" --cpus group:31 -n
	assert_output "124-127"
}

@test "--list: one line for a die and an L3 with the same CPUs (EPYC 9654: 24, not 48)" {
	run "$PINRUN" --topology "$TOPO/2pkg-2numa-amd-epyc9654-zen4-24l3-192c384pu.xml" --list
	assert_success
	assert_line --index 0 "XML file: 2 packages, 2 NUMA nodes, 24 L3, 192 cores, 384 PUs"
	assert_line --index 1 "caches: L1d 32 KiB per core, L2 1024 KiB per core"
	assert_line --index 2 "cores: 'core:0-7  0-7 + 192-199' means"
	assert_line --index 3 "  that core:0 has CPUs 0 and 192, core:1 CPUs 1 and 193, and so on"
	assert_line --index 4 "  package:0  CPUs 0-95,192-287"
	assert_line --index 5 "    numa:0  node 0, CPUs 0-95,192-287"
	assert_line --index 6 "    die:0 l3:0 (32 MiB)  core:0-7  0-7 + 192-199"
	assert_line "    die:23 l3:23 (32 MiB)  core:184-191  184-191 + 376-383"
	[ "$(grep -c 'die:' <<<"$output")" -eq 24 ] || fail "$output"
	[ "$(grep -c 'l3:' <<<"$output")" -eq 24 ] || fail "$output"
	# --json keeps both objects, the L3 in its die.
	run "$PINRUN" --topology "$TOPO/2pkg-2numa-amd-epyc9654-zen4-24l3-192c384pu.xml" --list --json
	run python3 -c 'import json, sys; m = json.loads(sys.argv[1]); print(len(m["objects"]), [o for o in m["objects"] if o["location"] == "l3:0"][0]["in"])' "$output"
	assert_output "50 die:0"
}

@test "--list on a laptop, whole: the legend in plain words" {
	run "$PINRUN" --topology "$TOPO/1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu.xml" --list
	assert_success
	assert_output "XML file: 1 package, 1 NUMA node, 1 L3, 2 cores, 4 PUs
caches: L1d 32 KiB per core, L2 256 KiB per core
cores: 'core:0-1  0,1 + 2,3' means
  that core:0 has CPUs 0 and 2, core:1 CPUs 1 and 3, and so on
  package:0  CPUs 0-3
    numa:0  node 0, 3.9 GiB, CPUs 0-3
    l3:0 (4096 KiB)  core:0-1  0,1 + 2,3"
}

@test "--list on this machine: each node's free memory, as sysfs has it" {
	local node=/sys/devices/system/node/node0/meminfo
	[ -r "$node" ] || skip_unless_works "no $node"
	run "$PINRUN" --list
	assert_success
	assert_line --regexp '^    numa:0  node 0, [0-9.]+ [GM]iB \([0-9.]+ [GM]iB free\), CPUs [0-9,-]+$'
	run "$PINRUN" --list --json
	run python3 -c '
import json, sys
m = json.loads(sys.argv[1])
n = m["numa"][0]
free = int(open("/sys/devices/system/node/node0/meminfo").read().split("MemFree:")[1].split()[0]) * 1024
print(type(n["free_bytes"]).__name__, abs(n["free_bytes"] - free) < n["bytes"] // 4)' "$output"
	assert_output "int True"
	# Not this machine: no free memory to tell.
	run "$PINRUN" --topology "$TOPO/1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu.xml" --list --json
	run python3 -c 'import json, sys; print(json.loads(sys.argv[1])["numa"][0]["free_bytes"])' "$output"
	assert_output "None"
}

@test "every JSON output has version 1, and a key has one type everywhere" {
	local f=$TOPO/1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu.xml out
	for out in "$("$PINRUN" --hot --json)" "$("$PINRUN" --topology "$f" --list --json)" \
		"$("$PINRUN" --show --json)" "$("$PINRUN" --topology "$f" --spread=2 --json)"; do
		run python3 -c 'import json, sys; print(json.loads(sys.argv[1])["version"])' "$out"
		assert_output 1
	done
	"$PINRUN" --hot --follow --report "$BATS_TEST_TMPDIR/r.jsonl" -- true
	run python3 -c 'import json, sys; print({json.loads(l)["version"] for l in open(sys.argv[1])})' "$BATS_TEST_TMPDIR/r.jsonl"
	assert_output "{1}"
	# kind: a string for cores as for NUMA nodes; the rank apart.
	run python3 -c '
import json, sys
m = json.loads(sys.argv[1])
print(sorted({(type(c["kind"]).__name__, c["kind"], c["kind_rank"]) for c in m["cores"]}),
      {type(n["kind"]).__name__ for n in m["numa"]})' "$("$PINRUN" --topology "$f" --list --json)"
	assert_output "[('str', 'fast', 1), ('str', 'slow', 0)] {'str'}"
}

@test "--list: each cache's size as lstopo has it, KB and MB said KiB and MiB" {
	local f
	for f in "$TOPO"/*.xml; do
		run python3 - "$f" "$("$PINRUN" --topology "$f" --list)" <<'PY'
import re, subprocess, sys
f, out = sys.argv[1], sys.argv[2]
def lstopo(kind):
    text = subprocess.run(["lstopo-no-graphics", "--input", f, "--only", kind],
                          capture_output=True, text=True, check=True).stdout
    return [(int(i), int(n), u) for i, n, u in re.findall(r"L#(\d+) \((\d+)([KMGT])B\)", text)]
bad = []
# Each L3 line: "l3:N (SIZE)", as lstopo's "L3 L#N (SIZE)".
for i, n, u in lstopo("l3cache"):
    if not re.search(r"(^| )l3:%d \(%d %siB\)" % (i, n, u), out, re.M):
        bad.append("l3:%d is not %d %sB" % (i, n, u))
# The caches line: lstopo's sizes of each level, each said once.
lines = out.split("\n")
line = lines[1] if lines[1].startswith("caches: ") else ""
if line.endswith((",", " or")):
    line += " " + lines[2].strip()
for name, kind in (("L1d", "l1cache"), ("L2", "l2cache")):
    want = sorted({"%d %siB" % (n, u) for _, n, u in lstopo(kind)})
    item = re.search(r"%s (.*?)(, L\d|$)" % name, line)
    got = sorted(set(re.findall(r"(\d+ [KMGT]iB)", item.group(1)))) if item else []
    if want != got:
        bad.append("%s: lstopo has %s, the caches line %s" % (name, want, got))
print("\n".join(bad))
PY
		assert_success
		[ -z "$output" ] || fail "$(basename "$f"): $output"
	done
}

@test "--list: a hybrid's caches by core kind, wrapped to 80 columns" {
	run "$PINRUN" --topology "$TOPO/1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu.xml" --list
	assert_success
	assert_output "XML file: 1 package, 1 NUMA node, 1 L3, 14 cores, 20 PUs
caches: L1d 48 KiB per fast core or 32 KiB per slow core,
  L2 1280 KiB per fast core or 2048 KiB per 4 slow cores
  package:0  CPUs 0-19
    numa:0  node 0, 31.0 GiB, CPUs 0-19
    l3:0 (24 MiB)
      core:0-5  0-11 (2 per core)  fast
      core:6-13  12-19  slow"
}

@test "--list: a hybrid's kinds in --kind's words, each marking its own cores" {
	local h=$TOPO/1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu.xml
	run "$PINRUN" --topology "$h" --kind=fast --same-chip --list
	assert_success
	assert_line "      core:0-5  [0-11] (2 per core)  fast"
	assert_line "      core:6-13  12-19  slow"
	run "$PINRUN" --topology "$h" --kind=slow --same-chip --list
	assert_success
	assert_line "      core:0-5  0-11 (2 per core)  fast"
	assert_line "      core:6-13  [12-19]  slow"
}

@test "--list: an L2 shared by two cores (KNL, POWER9), an L3 under 10 MiB in KiB" {
	run "$PINRUN" --topology "$TOPO/1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu.xml" --list
	assert_line --index 1 "caches: L1d 32 KiB per core, L2 1024 KiB per 2 cores"
	run "$PINRUN" --topology "$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml" --list
	assert_line --index 1 "caches: L1d 32 KiB per core, L2 512 KiB per 2 cores"
	assert_line "    l3:0 (10 MiB)  core:0-1  8-15 (4 per core)"
	run "$PINRUN" --topology "$TOPO/4pkg-8numa-amd-opteron6134-cgroup2-disallowed-6of32pu.xml" --list
	assert_line --index 1 "caches: L1d 64 KiB per core, L2 512 KiB per core"
	assert_line --index 3 "    l3:0 (5118 KiB)"
	assert_line "  package:1 l3:2 (5118 KiB)"
}

@test "--list: no size where hwloc has none (no caches, or a size of 0)" {
	local f=$BATS_TEST_TMPDIR/unknown.xml
	# s390x: hwloc's export has no cache at all.
	run "$PINRUN" --topology "$TOPO/8pkg-1numa-ibm-s390x-drawers-books-20c20pu.xml" --list
	assert_line --index 0 "XML file: 8 packages, 1 NUMA node, 0 L3, 6 groups, 20 cores, 20 PUs"
	assert_line --index 1 "  numa:0  node 0, 2.0 GiB, CPUs 0-19"
	refute_output --partial "caches:"
	# A cache without cache_size is one of size 0 to hwloc (lstopo says
	# 0KB): pinrun says nothing, and 0 in --json.
	sed 's/ cache_size="[0-9]*"//' "$TOPO/1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu.xml" >"$f"
	run lstopo-no-graphics --input "$f" --only l3cache
	assert_output "L3 L#0 (0KB)"
	run "$PINRUN" --topology "$f" --list
	assert_success
	assert_output "XML file: 1 package, 1 NUMA node, 1 L3, 2 cores, 4 PUs
cores: 'core:0-1  0,1 + 2,3' means
  that core:0 has CPUs 0 and 2, core:1 CPUs 1 and 3, and so on
  package:0  CPUs 0-3
    numa:0  node 0, 3.9 GiB, CPUs 0-3
    l3:0  core:0-1  0,1 + 2,3"
	run "$PINRUN" --topology "$f" --list --json
	run python3 -c 'import json, sys; m = json.loads(sys.argv[1]); print([o.get("cache_bytes") for o in m["objects"]], {c["cache_bytes"] for c in m["caches"]})' "$output"
	assert_output "[None, 0] {0}"
}

@test "--list --json: cache_bytes on the cache objects, and every cache" {
	run "$PINRUN" --topology "$TOPO/2pkg-2numa-amd-epyc9654-zen4-24l3-192c384pu.xml" --list --json
	assert_success
	run python3 -c '
import collections, json, sys
m = json.loads(sys.argv[1])
objs = {o["location"]: o for o in m["objects"]}
print(objs["l3:0"]["cache_bytes"], "cache_bytes" in objs["die:0"], "cache_bytes" in objs["package:0"])
caches = collections.Counter((c["location"].split(":")[0], c["cache_bytes"]) for c in m["caches"])
print(sorted(caches.items()))
print(m["caches"][0], m["caches"][-1]["location"], list(m)[list(m).index("cores") + 1])' "$output"
	assert_output "33554432 False False
[(('l1', 32768), 192), (('l2', 1048576), 192), (('l3', 33554432), 24)]
{'location': 'l1:0', 'cpus': '0,192', 'cache_bytes': 32768} l3:23 caches"
	# No cache, no entry.
	run "$PINRUN" --topology "$TOPO/8pkg-1numa-ibm-s390x-drawers-books-20c20pu.xml" --list --json
	run python3 -c 'import json, sys; print(json.loads(sys.argv[1])["caches"])' "$output"
	assert_output "[]"
}

# A guest's export (scripts/vm smt-offline) where CPU 3, an SMT sibling, is
# offline: hwloc hangs that core below its own L1 and L2, at a second depth
# (hwloc-calc refuses "core:1": "multiple levels"; its --no-smt and
# hwloc-distrib then put two PUs of core 0 in one plan). pinrun keeps every
# core at one depth.
@test "a core whose SMT sibling is offline is one core among the others, numbered once" {
	local f=$REPO/tests/fixtures/qemu-lone-sibling-core-1pkg-3c5pu.xml
	run "$PINRUN" --topology "$f" --list
	assert_success
	assert_line "XML file: 1 package, 1 NUMA node, 1 L3, 3 cores, 5 PUs"
	assert_line "      core:0  0-1"
	assert_line "      core:1  2"
	assert_line "      core:2  4-5"
	run "$PINRUN" --topology "$f" --cpus core:1 -n
	assert_output "2"
	run "$PINRUN" --topology "$f" --spread -n
	assert_output "0,2,4"
	run "$PINRUN" --topology "$f" --same-chip --no-smt -n
	assert_output "0,2,4"
}
