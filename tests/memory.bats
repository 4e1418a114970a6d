#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# --mem=MODE[:NODES], as numactl's --membind, --interleave and --preferred:
# the policy the command really has (read back with get_mempolicy by a
# helper) on this machine, and the plans on multi-node topologies.

load lib/test_helper
load lib/devices

setup() {
	KNL=$TOPO/1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu.xml
	E5=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
	# This machine's first memory node, and how many it has.
	NODES=$(cat /sys/devices/system/node/online 2>/dev/null || echo 0)
	NODE=$(expand "$NODES" | cut -d, -f1)
	NNODES=$(expand "$NODES" | tr ',' '\n' | wc -l)
}

# The "mem" member of pinrun's --json plan.
mem_of() {
	"$PINRUN" "$@" --json | sed -n 's/.*"mem":\({[^}]*}\).*/\1/p'
}

# --- the policy the command has ---------------------------------------------

@test "--mem=MODE:NODES gives the command that policy on those nodes" {
	run "$PINRUN" --hot --mem="bind:$NODE" -- "$HELPERS/mempolicy"
	assert_success
	assert_output "bind $NODE"
	run "$PINRUN" --hot --mem=interleave:all -- "$HELPERS/mempolicy"
	assert_output "interleave $(expand "$NODES")"
	run "$PINRUN" --hot --mem="preferred:$NODE" -- "$HELPERS/mempolicy"
	assert_output "preferred $NODE"
	run "$PINRUN" --hot --mem=local -- "$HELPERS/mempolicy"
	assert_output "local"
	run "$PINRUN" --hot -- "$HELPERS/mempolicy"
	assert_output "default"
}

@test "--mem=MODE alone: the placement's own nodes, as before" {
	local own
	# One CPU named, not the current one: on a machine of several nodes
	# two runs may start on two of them.
	load_allowed
	own=$("$PINRUN" --hot="$FIRST" --json | sed 's/.*"numa":"\([^"]*\)".*/\1/')
	[ -n "$own" ] || fail "no numa in the plan"
	run "$PINRUN" --hot="$FIRST" --mem=preferred -- "$HELPERS/mempolicy"
	assert_success
	# Several own nodes (a memory-only node beside the CPU's) are the
	# kernel's preferred-many.
	if [[ $own == *[,-]* ]]; then
		assert_output "preferred_many $(expand "$own")"
	else
		assert_output "preferred $own"
	fi
	run "$PINRUN" --hot="$FIRST" --mem=bind --explain -- "$HELPERS/mempolicy"
	assert_line "bind $(expand "$own")"
	if [[ $own == *[,-]* ]]; then
		assert_line "pinrun: mem: bind on NUMA nodes $own (the placement's own)"
	else
		assert_line "pinrun: mem: bind on NUMA node $own (the placement's own)"
	fi
}

@test "--mem=preferred with several nodes is the kernel's preferred-many" {
	[ "$NNODES" -ge 2 ] || skip "one NUMA node here: a preference for several needs two (scripts/vm 2socket-smt --suites runs it)"
	run "$PINRUN" --cpus all --mem=preferred:all -- "$HELPERS/mempolicy"
	assert_success
	assert_output "preferred_many $(expand "$NODES")"
}

@test "--mem with --near keeps memory on the device's nodes" {
	local nic
	nic=$(lstopo-no-graphics --only osdev -v 2>/dev/null | sed -n 's/^Net.*"\(.*\)"$/\1/p' | head -1)
	[ -n "$nic" ] || skip_unless_works "hwloc finds no network device here"
	run "$PINRUN" --near="$nic" --mem=bind -- "$HELPERS/mempolicy"
	assert_success
	assert_output "bind $("$PINRUN" --near="$nic" --json | sed 's/.*"near":{[^}]*"numa":"\([^"]*\)".*/\1/' | tr - ,)"
}

@test "a node this machine does not have is exit 125, and nothing runs" {
	bad "--mem=bind:999: this machine has no NUMA node 999 (its nodes: $NODES)" \
		--hot --mem=bind:999 -- touch "$BATS_TEST_TMPDIR/ran"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ] || fail "the command ran"
	bad "--mem=interleave:mcdram: no NUMA node of this machine is of kind 'mcdram' (its nodes have no kind)" \
		--hot --mem=interleave:mcdram -- true
}

@test "set_mempolicy forbidden: --mem with a node list says so, nothing runs" {
	[ -x "$HELPERS/seccomp_nomempolicy" ] || fail "build the helpers (make check)"
	run --separate-stderr "$HELPERS/seccomp_nomempolicy" "$PINRUN" --hot --mem="interleave:$NODE" -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 125
	[ "$stderr" = "pinrun: --mem=interleave:$NODE: set_mempolicy is denied by a seccomp filter (as in Docker's default profile); nothing was run" ] || fail "$stderr"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ] || fail "the command ran"
}

# --- plans on multi-node topologies --------------------------------------------

@test "plans: node lists, all, and the placement's nodes by default (E5, 2 nodes)" {
	run mem_of --topology "$E5" --same-chip=1 --mem=bind
	assert_output '{"policy":"bind","nodes":"1","from":"placement"}'
	run mem_of --topology "$E5" --spread --mem=interleave
	assert_output '{"policy":"interleave","nodes":"0-1","from":"placement"}'
	run mem_of --topology "$E5" --same-chip=1 --mem=bind:0
	assert_output '{"policy":"bind","nodes":"0","from":"given"}'
	run mem_of --topology "$E5" --hot --mem=interleave:all
	assert_output '{"policy":"interleave","nodes":"0-1","from":"given"}'
	run mem_of --topology "$E5" --hot --mem=preferred:1,0
	assert_output '{"policy":"preferred","nodes":"0-1","from":"given"}'
	run mem_of --topology "$E5" --hot --mem=local
	assert_output '{"policy":"local","nodes":"","from":"none"}'
}

@test "plans: KNL's MCDRAM nodes by number and by kind" {
	run mem_of --topology "$KNL" --same-numa=0 --mem=bind:mcdram
	assert_output '{"policy":"bind","nodes":"4-7","from":"given"}'
	run mem_of --topology "$KNL" --same-numa=0 --mem=preferred:MCDRAM
	assert_output '{"policy":"preferred","nodes":"4-7","from":"given"}'
	run mem_of --topology "$KNL" --spread --mem=interleave:4-5,7
	assert_output '{"policy":"interleave","nodes":"4-5,7","from":"given"}'
	# A cluster's DDR and MCDRAM hang on the same object: both its own.
	run mem_of --topology "$KNL" --same-numa=0 --mem=bind
	assert_output '{"policy":"bind","nodes":"0,4","from":"placement"}'
}

@test "plans: memory hung above the nearest node (CXL, GPU memory) is nobody's own" {
	run mem_of --topology "$AWKWARD" --same-chip=1 --mem=bind
	assert_output '{"policy":"bind","nodes":"2-3","from":"placement"}'
	run mem_of --topology "$AWKWARD" --spread --mem=interleave
	assert_output '{"policy":"interleave","nodes":"0-3","from":"placement"}'
	run mem_of --topology "$AWKWARD" --same-chip=1 --mem=bind:gpumemory
	assert_output '{"policy":"bind","nodes":"5","from":"given"}'
	run mem_of --topology "$AWKWARD" --hot --mem=interleave:cxl-dram,gpumemory,0
	assert_output '{"policy":"interleave","nodes":"0,4-5","from":"given"}'
	run mem_of --topology "$AWKWARD" --hot --mem=bind:all
	assert_output '{"policy":"bind","nodes":"0-5","from":"given"}'
	# A package with no node of its own has the machine's.
	run mem_of --topology "$CPULESS" --same-chip=0 --mem=bind
	assert_output '{"policy":"bind","nodes":"0","from":"placement"}'
}

@test "plans that cannot be applied are exit 125" {
	bad "--mem=bind:9: the topology has no NUMA node 9 (its nodes: 0-7)" --topology "$KNL" --hot --mem=bind:9 -n
	bad "--mem=bind:2-3: the topology has no NUMA node 2 (its nodes: 0-1)" --topology "$E5" --hot --mem=bind:2-3 -n
	bad "--mem=interleave:hbm: no NUMA node of the topology is of kind 'hbm' (its kinds: MCDRAM)" --topology "$KNL" --hot --mem=interleave:hbm -n
	bad "--mem=bind:hbm: no NUMA node of the topology is of kind 'hbm' (its kinds: GPUMemory, CXL-DRAM)" --topology "$AWKWARD" --hot --mem=bind:hbm -n
	bad "--mem=bind:mcdram: no NUMA node of the topology is of kind 'mcdram' (its nodes have no kind)" --topology "$E5" --hot --mem=bind:mcdram -n
}

@test "--explain says which nodes and why" {
	run --separate-stderr "$PINRUN" --topology "$AWKWARD" --near=cuda0 --hot --mem=bind --explain -n
	assert_success
	assert_output "8"
	[[ "$stderr" == *"pinrun: mem: bind on NUMA nodes 2-3 (local to the device)"* ]] || fail "$stderr"
	run --separate-stderr "$PINRUN" --topology "$KNL" --hot --mem=bind:mcdram --explain -n
	[[ "$stderr" == *"pinrun: mem: bind:mcdram on NUMA nodes 4-7 (as given)"* ]] || fail "$stderr"
	run --separate-stderr "$PINRUN" --topology "$KNL" --hot --mem=local --explain -n
	[[ "$stderr" == *"pinrun: mem: local: each page on the node of the CPU that first touches it"* ]] || fail "$stderr"
}

# mem_source KEY WORDS OPTION...: one run's --json "from" is KEY and its
# --explain line ends in WORDS (one table words both).
mem_source() {
	local key=$1 words=$2
	shift 2
	run --separate-stderr "$PINRUN" "$@" --explain --json
	assert_success
	[[ "$output" == *"\"from\":\"$key\"}"* ]] || fail "$*: $output"
	grep -qxF -- "$words" <<<"$stderr" || fail "$*: $stderr"
}

@test "--mem's nodes: each source's --json key and --explain words" {
	mem_source placement "pinrun: mem: bind on NUMA node 1 (the placement's own)" --topology "$E5" --same-chip=1 --mem=bind
	mem_source device "pinrun: mem: interleave on NUMA nodes 2-3 (local to the device)" --topology "$AWKWARD" --near=cuda0 --hot --mem=interleave
	mem_source given "pinrun: mem: preferred:1,0 on NUMA nodes 0-1 (as given)" --topology "$E5" --hot --mem=preferred:1,0
	mem_source none "pinrun: mem: local: each page on the node of the CPU that first touches it" --topology "$E5" --hot --mem=local
}

@test "a malformed --mem value is a usage error" {
	bad_usage "invalid --mem value 'membind': expected bind, interleave, preferred or local" --hot --mem=membind -- true
	bad_usage "invalid --mem value 'local:0': local takes no node list" --hot --mem=local:0 -- true
	bad_usage "invalid --mem value 'bind:': no node list after ':'" --hot --mem=bind: -- true
	bad_usage "invalid --mem value 'bind:0-': '0-' is not a node number, a range or a node kind" --hot --mem=bind:0- -- true
	bad_usage "invalid --mem value 'bind:3-1': range 3-1 is reversed" --hot --mem=bind:3-1 -- true
	bad_usage "invalid --mem value 'bind:0,': empty item" --hot --mem=bind:0, -- true
	bad_usage "invalid --mem value 'bind:1024': node 1024 is too large (the limit is 1023)" --hot --mem=bind:1024 -- true
	bad_usage "invalid --mem value 'bind:12345678901': node 12345678901 is too large (the limit is 1023)" --hot --mem=bind:12345678901 -- true
	bad_usage "invalid --mem value 'bind:0x1': '0x1' is not a node number, a range or a node kind" --hot --mem=bind:0x1 -- true
	bad_usage "invalid --mem value 'bind:a\\x0ab': 'a\\x0ab' is not a node number, a range or a node kind" --hot --mem="$(printf 'bind:a\nb')" -- true
	bad_usage "--mem given twice" --hot --mem=bind --mem=local -- true
}
