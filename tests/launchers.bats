#!/usr/bin/env bats
# Where users run pinrun: shares of a node for Slurm, MPI and GNU parallel,
# hybrid core kinds, and restricted environments (cgroups, offline CPUs,
# seccomp profiles).

load test_helper
load reference

setup() {
	E5=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
	KP=$TOPO/2pkg-4numa-arm-kunpeng920-32clusters-128c128pu.xml
	RPL=$TOPO/1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu.xml
	HELPERS=$BATS_TEST_DIRNAME/helpers
	ALLOWED=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)
	# No launcher variable may leak in from the environment running us.
	unset SLURM_LOCALID SLURM_NODEID SLURM_STEP_TASKS_PER_NODE \
		SLURM_TASKS_PER_NODE SLURM_NTASKS_PER_NODE \
		OMPI_COMM_WORLD_LOCAL_RANK OMPI_COMM_WORLD_LOCAL_SIZE \
		MPI_LOCALRANKID MPI_LOCALNRANKS PARALLEL_JOBSLOT
}

# --- shares ---------------------------------------------------------------

@test "shares are disjoint, cover the allowed set, balanced to a core (every topology)" {
	local f cores pus n
	for f in "$TOPO"/*.xml; do
		cores=$(hwloc-calc --input "$f" --number-of core machine:0)
		pus=$(hwloc-calc --input "$f" --number-of pu machine:0)
		for n in 2 3 4 7; do
			[ "$n" -le "$cores" ] || continue
			check_shares "$f" "$n"
		done
		[ "$cores" -gt 24 ] || check_shares "$f" "$cores"
		[ 5 -gt "$pus" ] || check_shares "$f" 5 --smt
	done
}

@test "two shares of a two-chip machine are its chips" {
	run "$PINRUN" --topology "$E5" --share 1/2 --cpus all -n
	assert_output "0-17,36-53"
	[ "$(our_pus "$E5" --share 1/2 --cpus all)" = "$(ref_pus "$E5" package:0)" ]
	run "$PINRUN" --topology "$E5" --share 2/2 --cpus all -n
	assert_output "18-35,54-71"
}

@test "eight shares of a four-NUMA machine are half a NUMA node each" {
	local i
	for i in 1 2 3 4 5 6 7 8; do
		run "$PINRUN" --topology "$KP" --share "$i/8" --cpus all -n
		assert_output "$(((i - 1) * 16))-$((i * 16 - 1))"
	done
	# and a policy plans inside its share
	run "$PINRUN" --topology "$KP" --share 3/8 --same-numa -n
	assert_output "32-47"
	run "$PINRUN" --topology "$KP" --share 3/8 --spread=2 -n
	assert_output "32,40"
}

@test "more shares than cores is an error, unless --smt shares PUs" {
	bad "--share 1/37: only 36 cores are allowed (--smt shares PUs instead)" --topology "$E5" --share 1/37 --spread -n
	run "$PINRUN" --topology "$E5" --share 37/72 --smt --spread -n
	assert_success
	assert_output "18"
	run "$PINRUN" --topology "$E5" --share 38/72 --smt --spread -n
	assert_output "54"
}

@test "bad --share values" {
	bad_usage "invalid --share value 'x': expected I/N (I from 1 to N), auto or auto/N" --share x --hot -n
	bad_usage "invalid --share value '1/': expected I/N (I from 1 to N), auto or auto/N" --share 1/ --hot -n
	bad_usage "invalid --share value '-1/4': expected I/N (I from 1 to N), auto or auto/N" --share -1/4 --hot -n
	bad "invalid --share: part 0 of 4 (parts count from 1 to the number of parts)" --share 0/4 --hot -n
	bad "invalid --share: part 5 of 4 (parts count from 1 to the number of parts)" --share 5/4 --hot -n
	bad_usage "invalid --share value 'auto/x': expected I/N (I from 1 to N), auto or auto/N" --share auto/x --hot -n
}

@test "--share auto with no launcher variable says which it looked for" {
	bad "--share auto: none of the launcher variables is set (SLURM_LOCALID, OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID; or auto/N with PARALLEL_JOBSLOT)" --share auto --hot -n
	bad "--share auto/4: none of the launcher variables is set (SLURM_LOCALID, OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, PARALLEL_JOBSLOT)" --share auto/4 --hot -n
}

@test "--share auto reads Open MPI's local rank and size" {
	run --separate-stderr env OMPI_COMM_WORLD_LOCAL_RANK=2 OMPI_COMM_WORLD_LOCAL_SIZE=4 \
		"$PINRUN" --topology "$KP" --share auto --same-chip --explain -n
	assert_success
	assert_output "64-95"
	[[ "$stderr" == *"pinrun: share 3 of 4 (from OMPI_COMM_WORLD_LOCAL_RANK=2, OMPI_COMM_WORLD_LOCAL_SIZE=4): CPUs 64-95; excluded 0-63,96-127: the other shares"* ]] || fail "$stderr"
}

@test "--share auto reads MPICH/Hydra's local rank and size" {
	run env MPI_LOCALRANKID=1 MPI_LOCALNRANKS=2 "$PINRUN" --topology "$E5" --share auto --cpus all -n
	assert_output "18-35,54-71"
}

@test "--share auto reads Slurm's local id and this node's task count" {
	# Node 1 of a step with 3, 2 and 2 tasks: two tasks here.
	run env SLURM_LOCALID=1 SLURM_NODEID=1 SLURM_STEP_TASKS_PER_NODE="3,2(x2)" \
		"$PINRUN" --topology "$E5" --share auto --cpus all -n
	assert_output "18-35,54-71"
	# Node 0 has three tasks: the first third of the 36 cores.
	run env SLURM_LOCALID=0 SLURM_NODEID=0 SLURM_STEP_TASKS_PER_NODE="3,2(x2)" \
		"$PINRUN" --topology "$E5" --share auto --spread -n
	assert_output "0-11"
	run env SLURM_LOCALID=3 SLURM_NTASKS_PER_NODE=4 "$PINRUN" --topology "$KP" --share auto --cpus all -n
	assert_output "96-127"
	SLURM_LOCALID=0 bad "--share auto: SLURM_LOCALID is set, but not this node's task count (SLURM_STEP_TASKS_PER_NODE with SLURM_NODEID)" --share auto --hot -n
}

@test "--share auto/N reads GNU parallel's job slot" {
	run env PARALLEL_JOBSLOT=3 "$PINRUN" --topology "$E5" --share auto/2 --cpus all -n
	assert_output "0-17,36-53"
	run env PARALLEL_JOBSLOT=4 "$PINRUN" --topology "$E5" --share auto/2 --cpus all -n
	assert_output "18-35,54-71"
}

@test "MPI variables win over Slurm's (mpirun under srun)" {
	run env SLURM_LOCALID=0 SLURM_NTASKS_PER_NODE=1 OMPI_COMM_WORLD_LOCAL_RANK=1 OMPI_COMM_WORLD_LOCAL_SIZE=2 \
		"$PINRUN" --topology "$E5" --share auto --cpus all -n
	assert_output "18-35,54-71"
}

@test "GNU parallel: concurrent jobs each run on their own share" {
	command -v parallel >/dev/null || skip_unless_works "GNU parallel is not installed"
	[ "$(expand "$ALLOWED" | tr ',' '\n' | wc -l)" -ge 2 ] || skip_unless_works "needs 2 CPUs"
	run parallel --will-cite -j 2 "$PINRUN" --share '{%}/2' --hot -- \
		sh -c "'sleep 0.3; echo {} \$(grep Cpus_allowed_list /proc/self/status | cut -f2)'" ::: a b c d
	assert_success
	[ "${#lines[@]}" -eq 4 ] || fail "$output"
	# Jobs that ran at the same time had different slots, so different
	# CPUs: every job shows one CPU, and both CPUs were used.
	[ "$(cut -d' ' -f2 <<<"$output" | sort -u | wc -l)" -eq 2 ] || fail "$output"
	for l in "${lines[@]}"; do
		[[ "$l" =~ ^[abcd]\ [0-9]+$ ]] || fail "$l"
	done
}

@test "ranks launched together take disjoint CPUs (as srun -n 2 would)" {
	[ "$(expand "$ALLOWED" | tr ',' '\n' | wc -l)" -ge 2 ] || skip_unless_works "needs 2 CPUs"
	local r0=$BATS_TEST_TMPDIR/r0 r1=$BATS_TEST_TMPDIR/r1 p0 p1
	SLURM_LOCALID=0 SLURM_NTASKS_PER_NODE=2 "$PINRUN" --share auto --same-chip -- \
		awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status >"$r0" &
	p0=$!
	SLURM_LOCALID=1 SLURM_NTASKS_PER_NODE=2 "$PINRUN" --share auto --same-chip -- \
		awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status >"$r1" &
	p1=$!
	wait "$p0" "$p1"
	[ -s "$r0" ] && [ -s "$r1" ] || fail "no output"
	[ "$(cat "$r0" "$r1" | sort -n | paste -sd, -)" = "$(expand "$ALLOWED" | cut -d, -f1-2)" ] ||
		fail "rank 0: $(cat "$r0"), rank 1: $(cat "$r1")"
}

# --- hybrid machines ------------------------------------------------------

@test "--kind=fast and --kind=slow keep to a core kind (Raptor Lake)" {
	run "$PINRUN" --topology "$RPL" --kind=fast --spread -n
	assert_output "0,2,4,6,8,10"
	run "$PINRUN" --topology "$RPL" --kind=slow --spread -n
	assert_output "12-19"
	run "$PINRUN" --topology "$RPL" --kind=fast --same-chip -n
	assert_output "0-11"
	run "$PINRUN" --topology "$RPL" --kind=any --spread -n
	assert_output "0,2,4,6,8,10,12-19"
}

@test "--hot=idle prefers the fastest kind" {
	run "$PINRUN" --topology "$RPL" --kind=slow --hot=idle -n
	assert_output "12"
	# Without a load sample (another machine), the first P-core PU.
	run "$PINRUN" --topology "$TOPO/1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu.xml" --hot=idle -n
	assert_output "0"
}

@test "--explain warns when a placement mixes core kinds" {
	run --separate-stderr "$PINRUN" --topology "$RPL" --spread --explain -n
	[[ "$stderr" == *"pinrun: warning: CPUs 0,2,4,6,8,10,12-19 mix core kinds (fastest: 0,2,4,6,8,10, others: 12-19): timings may be bimodal; --kind=fast or --kind=slow keeps to one"* ]] || fail "$stderr"
	run --separate-stderr "$PINRUN" --topology "$RPL" --same-chip --explain -n
	[[ "$stderr" == *"mix core kinds"* ]] || fail "$stderr"
	run --separate-stderr "$PINRUN" --topology "$RPL" --kind=fast --same-chip --explain -n
	[[ "$stderr" != *"mix core kinds"* ]] || fail "$stderr"
	[[ "$stderr" == *"pinrun: excluded 12-19: not of the fastest kind (--kind=fast)"* ]] || fail "$stderr"
}

@test "--kind on a machine with one kind changes nothing, and says so" {
	run --separate-stderr "$PINRUN" --topology "$E5" --kind=fast --same-chip=1 --explain -n
	assert_output "18-35,54-71"
	[[ "$stderr" == *"pinrun: kind: this topology has one kind of core: --kind changes nothing"* ]] || fail "$stderr"
	bad_usage "invalid --kind value 'big': expected fast, slow or any" --kind=big --hot -n
}

@test "hybrid sysfs dump: the kinds come through as from the XML" {
	tar xjf "$TOPO/1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu.sysfs.tar.bz2" -C "$BATS_TEST_TMPDIR"
	run "$PINRUN" --topology "$BATS_TEST_TMPDIR/20em64t-hybrid-1p6c2t+2ca4co1t" --kind=slow --spread -n
	assert_output "$("$PINRUN" --topology "$RPL" --kind=slow --spread -n)"
}

# --- restricted environments -------------------------------------------------

@test "offline CPUs (saved sysfs tree): planned around, named when asked for" {
	tar xjf "$TOPO/2pkg-1numa-intel-e5-2680v3-cpu0-node0-offline-17pu.sysfs.tar.bz2" -C "$BATS_TEST_TMPDIR"
	local d=$BATS_TEST_TMPDIR/offline-cpu0-node0
	run "$PINRUN" --topology "$d" --spread -n
	assert_output "4-20"
	bad "CPU 2 is offline or disallowed in the topology (usable: 4-20)" --topology "$d" --cpus 2-5 -n
	run --separate-stderr "$PINRUN" --topology "$d" --hot --explain -n
	[[ "$stderr" == *"pinrun: excluded 0-3,21-23: offline or disallowed by a cgroup"* ]] || fail "$stderr"
}

@test "set_mempolicy forbidden (a container profile): --mem fails, nothing run" {
	run --separate-stderr "$HELPERS/seccomp_nomempolicy" "$PINRUN" --hot --mem=bind -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 125
	[ "$stderr" = "pinrun: --mem=bind: set_mempolicy is denied by a seccomp filter (as in Docker's default profile); nothing was run" ] || fail "$stderr"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	# Without --mem the same profile is no obstacle.
	run "$HELPERS/seccomp_nomempolicy" "$PINRUN" --hot -- true
	assert_success
}

@test "a cgroup cpuset: --show reports it, an explicit CPU outside is an error" {
	local g=/sys/fs/cgroup/cpuset/pinrun-launchers-$$ first second
	first=$(expand "$ALLOWED" | cut -d, -f1)
	second=$(expand "$ALLOWED" | cut -d, -f2)
	[ "$first" != "$second" ] || skip_unless_works "needs 2 CPUs"
	mkdir "$g" 2>/dev/null || skip_unless_works "cannot create a cpuset cgroup"
	echo "$second" >"$g/cpuset.cpus"
	cat /sys/fs/cgroup/cpuset/cpuset.mems >"$g/cpuset.mems"
	run --separate-stderr sh -c 'echo $$ >"$1/tasks" && "$2" --show && "$2" --share 1/1 --spread -n && exec "$2" --cpus "$3" -- true' \
		sh "$g" "$PINRUN" "$first"
	rmdir "$g"
	assert_failure 125
	assert_line --index 1 "cpus: $second"
	assert_line --index 4 "$second"
	[ "$stderr" = "pinrun: CPU $first is not in this cgroup's cpuset $second" ] || fail "$stderr"
}
