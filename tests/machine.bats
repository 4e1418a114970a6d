#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# The machine this runs on, whatever its shape: every policy, --mem mode,
# --follow's slots, --near and --tell bound for real, each checked against
# the kernel's own view (/proc/self/status, get_mempolicy, numa_maps,
# /sys/devices/system/node, the PCI devices' numa_node, the cgroup's files)
# and against hwloc's tools (hwloc-calc, hwloc-distrib), never against
# pinrun's own dry run. Written for any machine: here it checks the 2-CPU
# host; scripts/vm runs it in every shape of tests/vm/ (sockets, NUMA
# nodes, SMT, offline CPUs, cgroup v2 cpusets and quotas, PCI devices on a
# node) and in any shape given to it.

load lib/test_helper

# hwloc's tools read this machine once, from its own export: the same
# view, without loading the machine anew in every call (seconds in a guest).
setup_file() {
	command -v lstopo-no-graphics >/dev/null || return 0
	export ME_XML=$BATS_FILE_TMPDIR/me.xml
	lstopo-no-graphics --of xml "$ME_XML"
	allowed_here
	FIRST_PUS=$(kernel_first_pus)
	export ALLOWED FIRST_PUS
}

# The allowed set, in ALLOWED: a task's Cpus_allowed_list keeps CPUs that
# went offline under it.
allowed_here() {
	load_allowed
	ALLOWED=$(intersect "$ALLOWED" "$(</sys/devices/system/cpu/online)")
}

setup() {
	needs_program hwloc-calc hwloc-distrib lstopo-no-graphics
	# setup_file's, unless it could not (no lstopo: the test skips).
	[ -n "${FIRST_PUS:-}" ] || allowed_here
}

hcalc() {
	hwloc-calc --input "$ME_XML" "$@"
}

# What a command run by pinrun with ARGS was bound to, as the kernel says.
bound() {
	"$PINRUN" "$@" -- awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status
}

# In a guest without KVM every fork costs tens of milliseconds: the set
# arithmetic below is bash's own, no process.

# A few of 0..n-1 (or of a list's items): the first, the second, one in
# the middle, the last two; each exec is costly in a guest, and these
# reach the edges of every level.
sample() {
	local n=$1 i seen=()
	for i in 0 1 $((n / 2)) $((n - 2)) $((n - 1)); do
		[ "$i" -ge 0 ] && [ "$i" -lt "$n" ] && seen[i]=1
	done
	echo "${!seen[@]}"
}

# The CPUs of a list ("0-3,8") as the indexes of the array S, which bash
# keeps in order; no fork (the functions below use it, not $(norm)).
set_of() {
	local item a b i IFS=,
	S=()
	for item in $1; do
		[[ $item =~ ^([0-9]+)(-([0-9]+))?$ ]] || continue
		a=${BASH_REMATCH[1]}
		b=${BASH_REMATCH[3]:-$a}
		for ((i = a; i <= b; i++)); do S[i]=1; done
	done
}

# A CPU list in the one form the checks compare: sorted, comma-separated,
# each CPU once; "(empty)" for none.
norm() {
	local IFS=,
	set_of "$1"
	[ ${#S[@]} -gt 0 ] && echo "${!S[*]}" || echo "(empty)"
}

# The CPUs in both lists, or "(empty)".
intersect() {
	local c out=() IFS=,
	local -a in=()
	set_of "$2"
	for c in "${!S[@]}"; do in[c]=1; done
	set_of "$1"
	for c in "${!S[@]}"; do
		[ -z "${in[c]:-}" ] || out+=("$c")
	done
	[ ${#out[@]} -gt 0 ] && echo "${out[*]}" || echo "(empty)"
}

# How many CPUs a list has.
count() {
	local IFS=, a
	[ "$1" = "(empty)" ] && echo 0 && return
	read -ra a <<<"$1"
	echo "${#a[@]}"
}

# The PUs of hwloc's TYPE:I on this machine (OS numbers), as hwloc-calc has them.
hwloc_pus() {
	norm "$(hcalc --physical-output --intersect PU "$@")"
}

# The hwloc cpuset (a hex mask) of a CPU list, for hwloc's --restrict.
mask_of() {
	# shellcheck disable=SC2046
	hcalc --physical-input $(tr ',' '\n' <<<"$1" | sed 's/^/pu:/')
}

# The first allowed PU of each core, as the kernel groups SMT siblings
# (thread_siblings_list): hwloc's own --no-smt and hwloc-distrib go wrong
# where hwloc has cores at two depths (a core with one sibling offline).
kernel_first_pus() {
	local c sib first=()
	local IFS=,
	# Once per file (setup_file): bash's loops are slow in a guest.
	if [ -n "${FIRST_PUS:-}" ]; then
		echo "$FIRST_PUS"
		return
	fi
	for c in $ALLOWED; do
		read -r sib <"/sys/devices/system/cpu/cpu$c/topology/thread_siblings_list"
		sib=$(intersect "$sib" "$ALLOWED")
		first[${sib%%,*}]=1
	done
	echo "${!first[*]}"
}

# Whether hwloc has all cores at one depth (its tools refuse "core:N"
# otherwise, "multiple levels").
hwloc_cores_one_depth() {
	hcalc --number-of core machine:0 >/dev/null 2>&1
}

# The allowed set: online CPUs the cgroup and the inherited mask allow.
allowed() {
	echo "$ALLOWED"
}

@test "the allowed set is the kernel's: online, the cpuset cgroup's, the inherited mask" {
	local online want
	online=$(norm "$(</sys/devices/system/cpu/online)")
	want=$(intersect "$online" "$(allowed)")
	[ "$(norm "$(bound --cpus all)")" = "$want" ] || fail "--cpus all binds $(bound --cpus all), the kernel allows $want"
	[ "$(norm "$("$PINRUN" --spread --smt --dry-run)")" = "$want" ]
}

@test "--hot=CPU binds that CPU, for allowed CPUs from first to last; --hot binds one of them" {
	local cpu got i cpus
	read -ra cpus <<<"${ALLOWED//,/ }"
	for i in $(sample ${#cpus[@]}); do
		cpu=${cpus[i]}
		got=$(bound --hot="$cpu")
		[ "$got" = "$cpu" ] || fail "--hot=$cpu bound $got"
	done
	got=$(bound --hot)
	[[ ",$(allowed)," == *",$got,"* ]] || fail "--hot bound $got, outside $(allowed)"
}

# --same-X=I binds TYPE:I's PUs as hwloc-calc has them, within the allowed
# set; --no-smt the first allowed PU of each of its cores; an object with
# no allowed PU is refused (125).
check_domain_live() {
	local policy=$1 type=$2 n i want got first cores
	n=$(hcalc --number-of "$type" machine:0)
	[ "$n" -ge 1 ] || fail "hwloc counts no $type"
	first=$(kernel_first_pus)
	for i in $(sample "$n"); do
		want=$(intersect "$(hwloc_pus "$type:$i")" "$(allowed)")
		if [ "$want" = "(empty)" ]; then
			run "$PINRUN" --"$policy=$i" -- true
			assert_failure 125
			continue
		fi
		got=$(norm "$(bound --"$policy=$i")")
		[ "$got" = "$want" ] || fail "--$policy=$i bound $got, hwloc-calc says $want"
		cores=$(intersect "$want" "$first")
		got=$(norm "$(bound --"$policy=$i" --no-smt)")
		[ "$got" = "$cores" ] || fail "--$policy=$i --no-smt bound $got, want $cores"
	done
}

@test "--same-chip=I binds package I's allowed PUs, as hwloc-calc has them" {
	check_domain_live same-chip package
}

@test "--same-numa=I binds NUMA node I's allowed PUs; the kernel's node has the same CPUs" {
	local n i os want sysfs
	check_domain_live same-numa numanode
	n=$(hcalc --number-of numanode machine:0)
	for ((i = 0; i < n; i++)); do
		os=$(hwloc-info --input "$ME_XML" "numanode:$i" | awk '/ os index = / { print $4 }')
		sysfs=$(<"/sys/devices/system/node/node$os/cpulist")
		want=$(intersect "$(norm "$sysfs")" "$(allowed)")
		[ "$want" = "(empty)" ] && continue
		[ "$(norm "$(bound --same-numa="$i")")" = "$want" ] ||
			fail "--same-numa=$i (node $os): the kernel's node$os has $sysfs"
	done
}

@test "--same-cache=I binds L3 I's allowed PUs, as hwloc-calc has them" {
	[ "$(hcalc --number-of l3cache machine:0)" -ge 1 ] || skip "no L3 on this machine"
	check_domain_live same-cache l3cache
}

@test "--spread=N binds what hwloc-distrib --single N gives, for every N; each PU its own core" {
	local cores first n want got pkgs cpu
	first=$(kernel_first_pus)
	cores=$(count "$first")
	for n in $(sample $((cores + 1))); do
		[ "$n" -ge 1 ] || continue
		got=$(norm "$(bound --spread="$n")")
		[ "$(count "$got")" -eq "$n" ] || fail "--spread=$n bound $got"
		for cpu in ${got//,/ }; do
			[[ ",$first," == *",$cpu,"* ]] || fail "--spread=$n bound $got: $cpu is not its core's first PU ($first)"
		done
		# hwloc-distrib goes wrong with cores at two depths.
		hwloc_cores_one_depth || continue
		# shellcheck disable=SC2046
		want=$(hwloc_pus $(hwloc-distrib --input "$ME_XML" --restrict "$(mask_of "$first")" --single "$n"))
		[ "$got" = "$want" ] || fail "--spread=$n bound $got, hwloc-distrib gives $want"
	done
	run "$PINRUN" --spread=$((cores + 1)) -- true
	assert_failure 125
}

@test "--spread --smt binds every allowed PU; --same-chip --no-smt one per core" {
	[ "$(norm "$(bound --spread --smt)")" = "$(allowed)" ]
	local pkg0
	pkg0=$(intersect "$(intersect "$(hwloc_pus package:0)" "$(allowed)")" "$(kernel_first_pus)")
	[ "$pkg0" = "(empty)" ] || [ "$(norm "$(bound --same-chip=0 --no-smt)")" = "$pkg0" ]
}

@test "the plan of this machine's own exported XML is the plan pinrun binds" {
	local xml="$BATS_TEST_TMPDIR/me.xml" p
	lstopo-no-graphics --of xml "$xml"
	for p in --spread --same-chip=0 --same-numa=0 "--spread=2 --smt" "--cpus core:0"; do
		# shellcheck disable=SC2086
		[ "$(norm "$("$PINRUN" --topology "$xml" --dry-run $p)")" = "$(norm "$(bound $p)")" ] ||
			fail "$p: the XML's plan and the binding differ"
	done
}

# The NUMA nodes with memory, by OS number.
memory_nodes() {
	local d
	for d in /sys/devices/system/node/node*; do
		awk '/MemTotal/ { exit !($4 > 0) }' "$d/meminfo" && echo "${d##*node}"
	done
}

@test "--mem=bind:N, interleave and preferred: get_mempolicy and numa_maps say the same, on every node" {
	local node policy maps allowed_mems
	allowed_mems=$(norm "$(awk '/^Mems_allowed_list/ { print $2 }' /proc/self/status)")
	for node in $(memory_nodes); do
		[[ ",$allowed_mems," == *",$node,"* ]] || continue
		policy=$("$PINRUN" --cpus all --mem=bind:"$node" -- "$HELPERS/mempolicy")
		[ "$policy" = "bind $node" ] || fail "--mem=bind:$node: get_mempolicy says '$policy'"
		# The kernel puts the command's own pages on that node and says so.
		maps=$("$PINRUN" --cpus all --mem=bind:"$node" -- awk '/heap/' /proc/self/numa_maps)
		[[ "$maps" == *" bind:$node "* ]] || fail "numa_maps: $maps"
		grep -qE " N$node=[0-9]+" <<<"$maps" || fail "no page on node $node: $maps"
		! grep -E " N[0-9]+=" <<<"$maps" | grep -vqE "^[^N]*( N$node=[0-9]+)( [a-z]|$)" ||
			fail "pages off node $node: $maps"
		policy=$("$PINRUN" --cpus all --mem=preferred:"$node" -- "$HELPERS/mempolicy")
		[ "$policy" = "preferred $node" ] || fail "--mem=preferred:$node: '$policy'"
	done
	policy=$("$PINRUN" --cpus all --mem=interleave:all -- "$HELPERS/mempolicy")
	[ "$policy" = "interleave $(norm "$(memory_nodes | paste -sd, -)" | tr -d '\n')" ] ||
		[ "$policy" = "interleave $allowed_mems" ] || fail "--mem=interleave:all: '$policy'"
}

# A memory-only node hwloc hangs beside a node with CPUs (HBM, a CXL
# tier described by HMAT) is local to those CPUs too, as hwloc-calc
# --local-memory says: named nodes (--mem=bind:0) leave it out.
@test "--same-numa=I --mem=bind binds the memory to the nodes local to I's CPUs, as hwloc-calc --local-memory has them" {
	local n i want got
	n=$(hcalc --number-of numanode machine:0)
	for i in $(sample "$n"); do
		[ "$(intersect "$(hwloc_pus "numanode:$i")" "$(allowed)")" != "(empty)" ] || continue
		want=$(hcalc --physical-output --local-memory "numanode:$i")
		got=$("$PINRUN" --same-numa="$i" --mem=bind -- "$HELPERS/mempolicy")
		[ "$got" = "bind $want" ] || fail "--same-numa=$i --mem=bind: '$got', hwloc says node $want"
	done
}

@test "--spread --follow: concurrent children each get their own core, packages first" {
	local first cores n out pkgs want cpu c
	first=$(kernel_first_pus)
	cores=$(count "$first")
	n=$((cores > 8 ? 8 : cores))
	# n-1 children alive together beside the shell that started them.
	out=$("$PINRUN" --spread --follow -- sh -c '
		for i in $(seq 2 "$1"); do
			sh -c "awk \"/^Cpus_allowed_list/ { print \\\$2 }\" /proc/self/status; sleep 3" &
		done
		awk "/^Cpus_allowed_list/ { print \$2 }" /proc/self/status; wait' sh "$n")
	[ "$(wc -l <<<"$out")" -eq "$n" ] || fail "$out"
	[ "$(sort -u <<<"$out" | wc -l)" -eq "$n" ] || fail "two tasks share a core: $out"
	for cpu in $out; do
		[[ ",$first," == *",$cpu,"* ]] || fail "$cpu is no core's first allowed PU: $out"
	done
	# As many packages as hwloc-distrib would cover with n cores.
	hwloc_cores_one_depth || return 0
	pkgs=$(for c in $out; do hcalc --physical-input --intersect package "pu:$c"; done | sort -u | wc -l)
	# shellcheck disable=SC2046
	want=$(for c in $(tr ',' ' ' <<<"$(hwloc_pus $(hwloc-distrib --input "$ME_XML" --restrict "$(mask_of "$first")" --single "$n"))"); do
		hcalc --physical-input --intersect package "pu:$c"
	done | sort -u | wc -l)
	[ "$pkgs" -eq "$want" ] || fail "the children cover $pkgs packages, hwloc-distrib $want: $out"
}

# The PCI devices the kernel places on a NUMA node.
pci_on_nodes() {
	local d
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/numa_node" 2>/dev/null)" -ge 0 ] 2>/dev/null && echo "${d##*/} $(cat "$d/numa_node")"
	done
}

@test "--near=pci=BUS binds the CPUs of the node the kernel gives the device" {
	local bus node want got seen=0
	while read -r bus node; do
		[ -n "$bus" ] || continue
		# A bridge or root port is no device to be near (class 0x0604).
		[[ $(<"/sys/bus/pci/devices/$bus/class") != 0x0604* ]] || continue
		hcalc "pci=$bus" >/dev/null 2>&1 || continue
		want=$(intersect "$(norm "$(<"/sys/devices/system/node/node$node/cpulist")")" "$(allowed)")
		[ "$want" != "(empty)" ] || continue
		got=$(norm "$(bound --near="pci=$bus" --cpus all)")
		[ "$got" = "$want" ] || fail "--near=pci=$bus (node $node): bound $got, node$node has $want"
		seen=$((seen + 1))
	done < <(pci_on_nodes)
	[ "$seen" -gt 0 ] || [ -z "$(pci_on_nodes)" ] || fail "no device on a node was checked"
}

# The NUMA node of a device, from the nearest of it and its parents that
# has one (a virtio NIC's is its PCI function's); nothing for none.
device_node() {
	local d
	d=$(realpath "$1")
	while [ "$d" != / ] && [ ! -f "$d/numa_node" ]; do d=${d%/*}; done
	[ ! -f "$d/numa_node" ] || echo "$(<"$d/numa_node")"
}

@test "--near=NAME: a disk or network card by the name the kernel gives it, on its node" {
	local dev node name want got seen=0
	for dev in /sys/class/net/*/device /sys/class/block/*/device; do
		[ -e "$dev" ] || continue
		name=${dev%/device}
		name=${name##*/}
		node=$(device_node "$dev")
		[ "${node:--1}" -ge 0 ] || continue
		# A block device's numa_node is its controller's.
		hcalc "os=$name" >/dev/null 2>&1 || continue
		want=$(intersect "$(norm "$(<"/sys/devices/system/node/node$node/cpulist")")" "$ALLOWED")
		[ "$want" != "(empty)" ] || continue
		got=$(norm "$(bound --near="$name" --cpus all)")
		[ "$got" = "$want" ] || fail "--near=$name (node $node): bound $got, node$node has $want"
		seen=$((seen + 1))
	done
	[ "$seen" -gt 0 ] || skip "no disk or network card on a NUMA node here"
}

# The tightest cpu.max on the way from this process's cgroup v2 up, as
# CPUs (rounded up), or nothing.
v2_quota_cpus() {
	local path dir best="" q p c
	path=$(sed -n 's/^0:://p' /proc/self/cgroup)
	[ -n "$path" ] && mountpoint -q /sys/fs/cgroup && [ -f /sys/fs/cgroup/cgroup.controllers ] || return 0
	dir=/sys/fs/cgroup$path
	while :; do
		if [ -f "$dir/cpu.max" ] && read -r q p <"$dir/cpu.max" && [ "$q" != max ]; then
			c=$(((q + p - 1) / p))
			[ -z "$best" ] || [ "$c" -lt "$best" ] && best=$c
		fi
		[ "$dir" != /sys/fs/cgroup ] || break
		dir=${dir%/*}
	done
	echo "$best"
}

@test "--tell: GOMAXPROCS is the placement's CPUs, capped by the cgroup's cpu.max" {
	local cpus quota want got
	cpus=$(count "$(allowed)")
	quota=$(v2_quota_cpus)
	want=$cpus
	[ -z "$quota" ] || [ "$quota" -ge "$cpus" ] || want=$quota
	got=$("$PINRUN" --spread --smt --tell=go -- sh -c 'echo "$GOMAXPROCS"')
	[ "$got" = "$want" ] || fail "GOMAXPROCS=$got; $cpus CPUs, quota ${quota:-none}"
}

@test "a CPU outside the allowed set is refused, named, with exit 125" {
	local online outside cpu
	online=$(norm "$(</sys/devices/system/cpu/online)")
	outside=
	for cpu in ${online//,/ }; do
		[[ ",$ALLOWED," == *",$cpu,"* ]] || {
			outside=$cpu
			break
		}
	done
	[ -n "$outside" ] || outside=$(($(nproc --all) + 64))
	run --separate-stderr "$PINRUN" --cpus "$outside" -- true
	assert_failure 125
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "$stderr"
	[[ "$stderr" == "pinrun: "*"$outside"* ]] || fail "$stderr"
}

@test "offline CPUs are in no placement and --explain says why" {
	local offline cpu
	offline=$(</sys/devices/system/cpu/offline)
	[ -n "$offline" ] || skip "no CPU is offline on this machine"
	offline=$(norm "$offline")
	for cpu in ${offline//,/ }; do
		[[ ",$(norm "$(bound --spread --smt)")," != *",$cpu,"* ]] || fail "offline CPU $cpu bound"
	done
	# Named, it is refused: binding it would fail in the kernel.
	bad "CPU ${offline%%,*} is offline" --cpus "${offline%%,*}" -- true
	run "$PINRUN" --spread --explain --dry-run
	assert_success
	assert_output --partial "offline"
}

@test "--list counts what hwloc counts, each core once" {
	local cores
	cores=$(count "$(kernel_first_pus)")
	run "$PINRUN" --list
	assert_success
	assert_line --partial " $cores core"
	# Each core:N names one core: no index twice.
	[ -z "$(grep -oE 'core:[0-9]+' <<<"$output" | sort | uniq -d)" ] || fail "a core listed twice: $output"
}

@test "--mem on a node the cpuset's mems leave out: the kernel has it, this process may not use it" {
	local raw mems d node seen=0
	raw=$(awk '/^Mems_allowed_list/ { print $2 }' /proc/self/status)
	mems=$(norm "$raw")
	for d in /sys/devices/system/node/node*; do
		node=${d##*node}
		[[ ",$mems," != *",$node,"* ]] || continue
		bad "--mem=bind:$node: NUMA node $node is not one this process may use (Mems_allowed_list $raw)" --cpus all --mem=bind:"$node" -- true
		seen=$((seen + 1))
	done
	[ "$seen" -gt 0 ] || skip "every NUMA node is allowed here"
}
