# SPDX-License-Identifier: BSD-3-Clause
# Helpers of the device, memory and map suites: the I/O devices hwloc sees
# in a topology file, and checks of pinrun against them.
# shellcheck disable=SC2034,SC2154 # read by the suites; set by bats' run

FIX=$REPO/tests/fixtures
# Hand-made: devices under bridges, on one core, on the whole machine, with
# no PCI device, two with one name, one with a tab in its name; two NUMA
# nodes per package, GPU memory on a package, CXL memory on the machine.
AWKWARD=$FIX/devices-awkward-2pkg-6numa-16pu.xml
# Hand-made: a NIC on a package whose CPUs a cgroup disallows.
CPULESS=$FIX/devices-cpuless-package-8pu.xml

# The OS device names of a topology file, one a line, as lstopo prints them.
os_devices() {
	lstopo-no-graphics --input "$1" --only osdev 2>/dev/null | sed -n 's/^.*"\(.*\)"$/\1/p'
}

# The PCI bus ids of a topology file's devices (those hwloc keeps).
pci_devices() {
	lstopo-no-graphics --input "$1" --only pcidev -v 2>/dev/null |
		sed -n 's/.*busid=\([0-9a-f]*:[0-9a-f]*:[0-9a-f]*\.[0-9a-f]\).*/\1/p'
}

# same_as_hwloc FILE WANT DEV...: --near=DEV plans WANT, for each DEV.
same_as_hwloc() {
	local f=$1 want=$2 d got
	shift 2
	for d in "$@"; do
		got=$(our_pus "$f" --near="$d")
		[ "$want" = "$got" ] || fail "--near=$d: hwloc-calc gives '$want', pinrun '$got'"
	done
}

# --near=DEV is the PUs hwloc-calc gives for os=NAME (or pci=BUSID), in every
# form pinrun takes: NAME, os=NAME, pci=BUSID, the bare bus id. A name two
# devices have is refused (hwloc-calc takes the first); a device whose CPUs
# the topology disallows is refused. Fails unless count devices were
# checked.
check_near() {
	local f=$1 count=$2 d want got n=0
	while IFS= read -r d; do
		if [ "$(os_devices "$f" | grep -cxF -- "$d")" -gt 1 ]; then
			run --separate-stderr "$PINRUN" --topology "$f" --near="$d" -n
			assert_failure 125
			[[ "$stderr" == "pinrun: device name '$d' is ambiguous: the topology has two, under "* ]] ||
				fail "--near=$d: $stderr"
			n=$((n + 1))
			continue
		fi
		want=$(ref_pus "$f" "os=$d")
		if [ -z "$want" ]; then
			run --separate-stderr "$PINRUN" --topology "$f" --near="$d" -n
			assert_failure 125
			[[ "$stderr" == "pinrun: --near=$d: the device is local to "*", which has no online CPU that the cgroup allows" ]] ||
				fail "--near=$d: $stderr"
			n=$((n + 1))
			continue
		fi
		same_as_hwloc "$f" "$want" "$d" "os=$d"
		n=$((n + 1))
	done < <(os_devices "$f")
	while read -r d; do
		want=$(ref_pus "$f" "pci=$d")
		[ -n "$want" ] || continue # checked through its OS device above
		same_as_hwloc "$f" "$want" "pci=$d" "${d^^}"
		n=$((n + 1))
	done < <(pci_devices "$f")
	[ "$n" -eq "$count" ] || fail "$n devices checked on $(basename "$f"), not $count"
}

# --near=DEV --spread=N is hwloc-distrib --single N restricted to the first
# PU of each core near the device, for the first OS device of each type.
check_near_spread() {
	local f=$1 d near cores n want got seen=" "
	while IFS= read -r d; do
		[ "$(os_devices "$f" | grep -cxF -- "$d")" -eq 1 ] || continue
		near=$(hwloc-calc --input "$f" "os=$d" "x$(hwloc-calc --input "$f" core:all.pu:0)")
		cores=$(hwloc-calc --input "$f" --number-of core "$near")
		[ "$cores" -gt 0 ] || continue
		case $seen in *" $cores "*) continue ;; esac
		seen="$seen$cores "
		for n in 1 2 "$cores"; do
			[ "$n" -le "$cores" ] || continue
			# shellcheck disable=SC2046
			want=$(ref_pus "$f" $(hwloc-distrib --input "$f" --restrict "$near" --single "$n"))
			got=$(our_pus "$f" --near="$d" --spread="$n")
			if [ -z "$want" ] || [ "$want" != "$got" ]; then
				fail "--near=$d --spread=$n: hwloc-distrib gives '$want', pinrun '$got'"
			fi
		done
	done < <(os_devices "$f")
	[ "$seen" != " " ] || fail "no device of $(basename "$f") was checked"
}

# The CPUs a --list line marks [like this], expanded: column forms
# ("[0-17] + 36-53", "[0-72:8]"), single cores ("[0],36") and runs of
# consecutive CPUs ("[8-87] (8 per core)").
list_marks() {
	grep -o '\[[0-9][-0-9:,]*\]' | tr -d '[]' | tr ',' '\n' | expand_strides
}

# Every CPU the core lines of a --list show, one a line (with repeats).
list_cpus() {
	# After the objects that share a run's line, a cache with its size:
	# "die:0 l3:0 (32 MiB)  ", "group:3  ".
	local obj='[a-z0-9]+:[0-9]+( \([0-9]+ [KMGT]iB\))?'
	grep -E "^ *(($obj )*$obj  )?(core|pu):[0-9]" |
		sed -E "s/^ *(($obj )*$obj  )?(core|pu):[0-9-]+  //; s/  (fast|slow|kind [0-9]+)\$//; s/ \([0-9]+ per core\)//" |
		tr -d '[]' | sed 's/ + /,/g' | tr ',' '\n' | expand_strides
}

# Lines "A", "A-B" or "A-B:S" in, the CPUs out, one a line.
expand_strides() {
	awk -F'[-:]' 'NF == 1 && $1 != "" { print $1 }
		NF >= 2 { s = NF == 3 ? $3 : 1; for (i = $1; i <= $2; i += s) print i }'
}
