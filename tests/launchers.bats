#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# Where users run pinrun: shares of a node for Slurm, MPI and GNU parallel,
# hybrid core kinds, and restricted environments (cgroups, offline CPUs,
# seccomp profiles).

load lib/test_helper
load lib/reference

setup() {
	E5=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
	KP=$TOPO/2pkg-4numa-arm-kunpeng920-32clusters-128c128pu.xml
	RPL=$TOPO/1pkg-1numa-intel-i7-1370p-raptorlake-hybrid-14c20pu.xml
	load_allowed
	FIXTURES=$BATS_TEST_DIRNAME/fixtures/launchers
	# No launcher variable may leak in from the environment running us.
	unset SLURM_JOB_ID SLURM_JOBID SLURM_STEP_ID SLURM_STEPID SLURM_LOCALID \
		SLURM_NODEID SLURM_STEP_TASKS_PER_NODE SLURM_TASKS_PER_NODE \
		SLURM_NTASKS_PER_NODE SLURM_CPU_BIND_TYPE SLURM_CPU_BIND_LIST \
		OMPI_COMM_WORLD_LOCAL_RANK OMPI_COMM_WORLD_LOCAL_SIZE \
		OMPI_MCA_orte_bound_at_launch OMPI_MCA_hwloc_base_binding_policy \
		OMPI_MCA_rmaps_base_mapping_policy MPI_LOCALRANKID MPI_LOCALNRANKS \
		HYDRA_USER_PROVIDED_BINDING PARALLEL_JOBSLOT
}

# A rank of a recorded launch (tests/fixtures/launchers/CASE.N.env) run
# again: its variables in an otherwise empty environment, under its mask.
replay() {
	local f=$1 mask
	shift
	mask=$(sed -n 's/^Cpus_allowed_list=//p' "$f")
	env -i PATH="$PATH" HOME="$HOME" LC_ALL=C \
		$(grep -E '^[A-Z]' "$f" | grep -v '^Cpus_allowed_list=') \
		taskset -c "$mask" "$PINRUN" "$@"
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

@test "a --share number that overflows is an error, not a smaller one" {
	# 33 digits once planned part 1.
	bad_usage "invalid --share value '100000000000000000000000000000001/2': the part number is over 4294967295" --share 100000000000000000000000000000001/2 --hot -n
	bad_usage "invalid --share value '1/4294967296': the number of parts is over 4294967295" --share 1/4294967296 --hot -n
	bad_usage "invalid --share value 'auto/99999999999999999999': the number of parts is over 4294967295" --share auto/99999999999999999999 --hot -n
	bad_usage "invalid --share value 'auto/0': N counts from 1" --share auto/0 --hot -n
	bad "--share 4294967295/4294967295: only 36 cores are allowed (--smt shares PUs instead)" --topology "$E5" --share 4294967295/4294967295 --hot -n
}

@test "--share auto with no launcher variable says which it looked for" {
	bad "--share auto: none of the launcher variables is set (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, SLURM_STEP_ID, SLURM_JOB_ID; or auto/N with PARALLEL_JOBSLOT)" --share auto --hot -n
	bad "--share auto/4: PARALLEL_JOBSLOT is not set (auto/N is for GNU parallel's jobs; auto reads Slurm's and MPI's variables)" --share auto/4 --hot -n
}

# Every case recorded from the real launchers (tests/fixtures/launchers),
# each rank replayed under its recorded mask and variables: the CPUs each
# rank plans on, rank by rank. Needs CPUs 0 and 1, as where they were
# recorded.
@test "the recorded launches, replayed: every rank's part" {
	[ "$(expand "$ALLOWED" | cut -d, -f1-2)" = "0,1" ] || skip_unless_works "needs CPUs 0 and 1"
	local -A want=(
		[srun-default]="0 1" [srun-none]="0 1" [srun-cores]="0 1"
		[srun-sockets]="0 1" [srun-n1]="0" [srun-n1-c2]="0-1"
		[srun-overcommit]="0 0 0" [srun-map-cpu]="1 0" [srun-mpirun]="0 1"
		[sbatch-script]="0-1" [sbatch-srun]="0 1"
		[sbatch-ntasks-per-node-srun-n1]="0-1" [sbatch-mpirun]="0 1"
		[sbatch-hydra]="0 1" [salloc-shell]="0-1"
		[mpirun-default]="0 1" [mpirun-n1]="0" [mpirun-bind-none]="0 1"
		[mpirun-bind-socket]="0 1" [mpirun-overload]="0 1 0"
		[mpirun-oversubscribe]="0 1 0" [hydra-default]="0 1"
		[hydra-bind-core]="0 1" [hydra-bind-socket]="0 1" [parallel]="0 1"
		[nodes-srun]="0 1 0 1 0 1" [nodes-mpirun]="0 1 0 1 0 1"
		[nodes-hydra]="0 1 0 1 0 1" [nodes-sbatch-mpirun]="0 1 0 1 0 1"
		[nodes-sbatch-hydra]="0 1 0 1 0 1"
	)
	local c f got share cases=0
	for f in "$FIXTURES"/*.0.env; do
		c=$(basename "$f" .0.env)
		[ -n "${want[$c]:-}" ] || fail "no expectation for the recorded case $c"
		share=auto
		[ "$c" != parallel ] || share=auto/2
		got=
		for f in "$FIXTURES/$c".*.env; do
			run --separate-stderr replay "$f" --share "$share" --same-chip -n
			[ "$status" -eq 0 ] || fail "$f: exit $status: $stderr"
			got+=" $output"
		done
		[ "${got# }" = "${want[$c]}" ] || fail "$c: ${got# }, want ${want[$c]}"
		cases=$((cases + 1))
	done
	[ "$cases" -eq "${#want[@]}" ] || fail "$cases cases recorded, ${#want[@]} expected"
}

@test "the recorded launches, replayed: --explain names launcher, binding and rule" {
	[ "$(expand "$ALLOWED" | cut -d, -f1-2)" = "0,1" ] || skip_unless_works "needs CPUs 0 and 1"
	run --separate-stderr replay "$FIXTURES/srun-default.1.env" --share auto --hot --explain -n
	assert_success
	assert_output "1"
	[[ "$stderr" == *"pinrun: share: Slurm step, task 1 of the 2 on this node, from 0 (SLURM_STEP_ID=0, SLURM_LOCALID=1, SLURM_STEP_TASKS_PER_NODE=2, SLURM_NODEID=0, SLURM_CPU_BIND_TYPE=mask_cpu:, SLURM_CPU_BIND_LIST=0x1,0x2)"$'\n'"pinrun: share: Slurm bound this task to CPUs 1 (entry 2 of SLURM_CPU_BIND_LIST): no other task of the step here has it: pinrun plans inside it, whole"$'\n'"pinrun: share 1 of 1: CPUs 1"$'\n'* ]] || fail "$stderr"
	run --separate-stderr replay "$FIXTURES/mpirun-bind-none.1.env" --share auto --hot --explain -n
	[[ "$stderr" == *"pinrun: share: Open MPI, local rank 1 of the 2 on this node, from 0 (OMPI_COMM_WORLD_LOCAL_RANK=1, OMPI_COMM_WORLD_LOCAL_SIZE=2, OMPI_MCA_orte_bound_at_launch unset, OMPI_MCA_hwloc_base_binding_policy=none)"$'\n'"pinrun: share: Open MPI did not bind the ranks: the 2 of them split CPUs 0-1"$'\n'"pinrun: share 2 of 2: CPUs 1; excluded 0: the other shares"$'\n'* ]] || fail "$stderr"
	run --separate-stderr replay "$FIXTURES/mpirun-default.0.env" --share auto --hot --explain -n
	[[ "$stderr" == *"pinrun: share: Open MPI bound this rank to core:0, CPUs 0; its ranks go round-robin over the 2 cores of the node: no other rank has it: pinrun plans inside it, whole"$'\n'* ]] || fail "$stderr"
	run --separate-stderr replay "$FIXTURES/sbatch-script.0.env" --share auto --hot --explain -n
	[[ "$stderr" == *"pinrun: share: a Slurm job with no step, a batch script or an salloc shell (SLURM_JOB_ID=1, SLURM_STEP_ID unset): the one process of the allocation"$'\n'"pinrun: share: alone on the allocation: all of CPUs 0-1"$'\n'"pinrun: share 1 of 1: CPUs 0-1"$'\n'* ]] || fail "$stderr"
	run --separate-stderr replay "$FIXTURES/mpirun-overload.2.env" --share auto --hot --explain -n
	[[ "$stderr" == *"pinrun: share 1 of 1: the 2 ranks that share CPUs 0 outnumber its 1 core: one each, round them: CPUs 0"$'\n'* ]] || fail "$stderr"
}

# What a 2-CPU machine cannot show, on the topologies of bigger ones, with
# the variables the launchers were seen to set. Planning for another
# machine there is no inherited mask: a Slurm task's is its entry of
# SLURM_CPU_BIND_LIST, anyone else's the whole machine.
@test "srun -c 18 on a two-chip SMT machine: each task its own 9 cores, whole" {
	local list=0x1ff0000001ff,0x3fe0000003fe00,0x7fc0000007fc0000,0xff8000000ff8000000 t
	local want=("0-8,36-44" "9-17,45-53" "18-26,54-62" "27-35,63-71")
	for t in 0 1 2 3; do
		run env SLURM_JOB_ID=1 SLURM_STEP_ID=0 SLURM_LOCALID=$t SLURM_NODEID=0 \
			SLURM_STEP_TASKS_PER_NODE=4 SLURM_CPU_BIND_TYPE=mask_cpu: SLURM_CPU_BIND_LIST=$list \
			"$PINRUN" --topology "$E5" --share auto --same-chip -n
		assert_success
		assert_output "${want[$t]}"
	done
	# --spread: one PU on each of the task's cores, --smt both.
	run env SLURM_JOB_ID=1 SLURM_STEP_ID=0 SLURM_LOCALID=1 SLURM_NODEID=0 \
		SLURM_STEP_TASKS_PER_NODE=4 SLURM_CPU_BIND_TYPE=mask_cpu: SLURM_CPU_BIND_LIST=$list \
		"$PINRUN" --topology "$E5" --share auto --spread -n
	assert_output "9-17"
}

@test "srun --cpu-bind=sockets, four tasks on two chips: two tasks split each chip" {
	local list=0x3ffff00003ffff,0xffffc0000ffffc0000 t
	local want=("0-8,36-44" "18-26,54-62" "9-17,45-53" "27-35,63-71")
	for t in 0 1 2 3; do
		run env SLURM_JOB_ID=1 SLURM_STEP_ID=0 SLURM_LOCALID=$t SLURM_NODEID=0 \
			SLURM_STEP_TASKS_PER_NODE=4 SLURM_CPU_BIND_TYPE=sockets,mask_cpu: SLURM_CPU_BIND_LIST=$list \
			"$PINRUN" --topology "$E5" --share auto --same-chip -n
		assert_success
		assert_output "${want[$t]}"
	done
}

@test "a step's task count comes from the step, a node's entry by SLURM_NODEID" {
	# Node 1 of a step with 3, 2 and 2 tasks: two tasks here, unbound.
	run env SLURM_JOB_ID=1 SLURM_STEP_ID=0 SLURM_LOCALID=1 SLURM_NODEID=1 SLURM_STEP_TASKS_PER_NODE="3,2(x2)" \
		SLURM_CPU_BIND_TYPE=none "$PINRUN" --topology "$E5" --share auto --cpus all -n
	assert_output "18-35,54-71"
	# Node 0 has three tasks: the first third of the 36 cores.
	run env SLURM_JOB_ID=1 SLURM_STEP_ID=0 SLURM_LOCALID=0 SLURM_NODEID=0 SLURM_STEP_TASKS_PER_NODE="3,2(x2)" \
		"$PINRUN" --topology "$E5" --share auto --spread -n
	assert_output "0-11"
	# srun -n 1 in a --ntasks-per-node=2 job: the job's count is not the
	# step's.
	run env SLURM_JOB_ID=1 SLURM_STEP_ID=0 SLURM_LOCALID=0 SLURM_NODEID=0 SLURM_NTASKS_PER_NODE=2 \
		SLURM_TASKS_PER_NODE=1 SLURM_STEP_TASKS_PER_NODE=1 "$PINRUN" --topology "$E5" --share auto --cpus all -n
	assert_output "0-71"
}

@test "a batch script or salloc shell is alone on its allocation" {
	run env SLURM_JOB_ID=7 SLURM_LOCALID=0 SLURM_NODEID=0 SLURM_TASKS_PER_NODE=4 SLURM_NTASKS=4 \
		"$PINRUN" --topology "$E5" --share auto --cpus all -n
	assert_success
	assert_output "0-71"
	# GNU parallel inside it: auto/N is the job slot's.
	run env SLURM_JOB_ID=7 SLURM_LOCALID=0 PARALLEL_JOBSLOT=2 "$PINRUN" --topology "$E5" --share auto/2 --cpus all -n
	assert_output "18-35,54-71"
}

@test "--share auto reads Open MPI's local rank and size" {
	run --separate-stderr env OMPI_COMM_WORLD_LOCAL_RANK=2 OMPI_COMM_WORLD_LOCAL_SIZE=4 \
		"$PINRUN" --topology "$KP" --share auto --same-chip --explain -n
	assert_success
	assert_output "64-95"
	[[ "$stderr" == *"pinrun: share: Open MPI did not bind the ranks: the 4 of them split CPUs 0-127"$'\n'"pinrun: share 3 of 4: CPUs 64-95; excluded 0-63,96-127: the other shares"$'\n'* ]] || fail "$stderr"
}

@test "--share auto reads MPICH/Hydra's local rank and size" {
	run env MPI_LOCALRANKID=1 MPI_LOCALNRANKS=2 PMI_RANK=5 PMI_SIZE=8 "$PINRUN" --topology "$E5" --share auto --cpus all -n
	assert_output "18-35,54-71"
}

@test "many ranks: more than the cores take a core each, round them; --smt a PU each" {
	run env OMPI_COMM_WORLD_LOCAL_RANK=37 OMPI_COMM_WORLD_LOCAL_SIZE=72 "$PINRUN" --topology "$E5" --share auto --same-chip -n
	assert_success
	assert_output "1,37"
	run env OMPI_COMM_WORLD_LOCAL_RANK=37 OMPI_COMM_WORLD_LOCAL_SIZE=72 "$PINRUN" --topology "$E5" --share auto --same-chip --smt -n
	assert_output "54"
	# Given as I/N, more parts than cores stays an error.
	bad "--share 38/72: only 36 cores are allowed (--smt shares PUs instead)" --topology "$E5" --share 38/72 --hot -n
}

@test "--share auto/N reads GNU parallel's job slot" {
	run env PARALLEL_JOBSLOT=3 "$PINRUN" --topology "$E5" --share auto/2 --cpus all -n
	assert_output "0-17,36-53"
	run env PARALLEL_JOBSLOT=4 "$PINRUN" --topology "$E5" --share auto/2 --cpus all -n
	assert_output "18-35,54-71"
}

@test "--share auto/N --explain: GNU parallel's are jobs, and 'current' is named only where a policy has one" {
	run --separate-stderr env PARALLEL_JOBSLOT=1 "$PINRUN" --topology "$E5" --share auto/2 --spread --explain -n
	assert_success
	assert_output "0-17"
	[[ $stderr == *$'\n'"pinrun: share: GNU parallel did not bind the jobs: the 2 of them split CPUs 0-71"$'\n'* ]] || fail "$stderr"
	[[ $stderr != *"ranks"* && $stderr != *"'current'"* ]] || fail "$stderr"
	run --separate-stderr env PARALLEL_JOBSLOT=1 "$PINRUN" --topology "$TOPO/1pkg-1numa-intel-i7m620-laptop-smt2-2c4pu.xml" --share auto/3 --spread --explain -n
	[[ $stderr == *$'\n'"pinrun: share 1 of 2: the 3 jobs that share CPUs 0-3 outnumber its 2 cores: one each, round them: CPUs 0,2"* ]] || fail "$stderr"
	# Where pinrun runs outside its share, --hot's 'current' is moved, and says so.
	needs_two_cpus
	run --separate-stderr taskset -c 1 env PARALLEL_JOBSLOT=1 "$PINRUN" --all --share auto/2 --hot --explain -n
	assert_output "0"
	[[ $stderr == *$'\n'"pinrun: pinrun runs outside its share: 'current' means the first candidate inside it"$'\n'* ]] || fail "$stderr"
	run --separate-stderr taskset -c 1 env PARALLEL_JOBSLOT=1 "$PINRUN" --all --share auto/2 --spread --explain -n
	assert_output "0"
	[[ $stderr != *"'current'"* ]] || fail "$stderr"
}

@test "MPI variables win over Slurm's (mpirun under srun, Hydra under sbatch)" {
	run env SLURM_JOB_ID=1 SLURM_STEP_ID=0 SLURM_LOCALID=0 SLURM_STEP_TASKS_PER_NODE=1 \
		OMPI_COMM_WORLD_LOCAL_RANK=1 OMPI_COMM_WORLD_LOCAL_SIZE=2 \
		"$PINRUN" --topology "$E5" --share auto --cpus all -n
	assert_output "18-35,54-71"
	run env SLURM_JOB_ID=1 SLURM_STEP_ID=2 SLURM_LOCALID=0 SLURM_STEP_TASKS_PER_NODE=1 \
		MPI_LOCALRANKID=1 MPI_LOCALNRANKS=2 "$PINRUN" --topology "$E5" --share auto --cpus all -n
	assert_output "18-35,54-71"
}

@test "a launcher variable that is wrong is an error naming it" {
	local step="SLURM_JOB_ID=1 SLURM_STEP_ID=0 SLURM_NODEID=0"
	# Once 2 tasks, by a wrapped 32-bit number.
	run --separate-stderr env $step SLURM_LOCALID=0 SLURM_STEP_TASKS_PER_NODE=4294967298 "$PINRUN" --share auto --hot -n
	assert_failure 125
	[ "$stderr" = "pinrun: --share auto: invalid SLURM_STEP_TASKS_PER_NODE '4294967298': a number over 4294967295" ] || fail "$stderr"
	run --separate-stderr env $step SLURM_LOCALID=2 SLURM_STEP_TASKS_PER_NODE=2 "$PINRUN" --share auto --hot -n
	[ "$stderr" = "pinrun: --share auto: SLURM_LOCALID=2 is not below this node's 2 tasks (SLURM_STEP_TASKS_PER_NODE=2)" ] || fail "$stderr"
	run --separate-stderr env SLURM_STEP_ID=0 SLURM_NODEID=3 SLURM_LOCALID=0 SLURM_STEP_TASKS_PER_NODE="2(x2)" "$PINRUN" --share auto --hot -n
	[ "$stderr" = "pinrun: --share auto: SLURM_NODEID=3 is not below the 2 nodes of SLURM_STEP_TASKS_PER_NODE=2(x2)" ] || fail "$stderr"
	run --separate-stderr env SLURM_STEP_ID=0 SLURM_LOCALID=0 "$PINRUN" --share auto --hot -n
	[ "$stderr" = "pinrun: --share auto: SLURM_LOCALID is set, but not SLURM_STEP_TASKS_PER_NODE" ] || fail "$stderr"
	run --separate-stderr env $step SLURM_LOCALID=0 SLURM_STEP_TASKS_PER_NODE=2 SLURM_CPU_BIND_TYPE=mask_cpu: SLURM_CPU_BIND_LIST=0x1,zz "$PINRUN" --share auto --hot -n
	[ "$stderr" = "pinrun: --share auto: invalid SLURM_CPU_BIND_LIST '0x1,zz': expected masks or CPU numbers such as 0x1,0x2" ] || fail "$stderr"
	run --separate-stderr env $step SLURM_LOCALID=0 SLURM_STEP_TASKS_PER_NODE=2 SLURM_CPU_BIND_TYPE=bogus "$PINRUN" --share auto --hot -n
	[ "$stderr" = "pinrun: --share auto: invalid SLURM_CPU_BIND_TYPE 'bogus': not a binding type Slurm sets" ] || fail "$stderr"
	run --separate-stderr env OMPI_COMM_WORLD_LOCAL_RANK=3 OMPI_COMM_WORLD_LOCAL_SIZE=2 "$PINRUN" --share auto --hot -n
	[ "$stderr" = "pinrun: --share auto: OMPI_COMM_WORLD_LOCAL_RANK=3 is not below OMPI_COMM_WORLD_LOCAL_SIZE=2" ] || fail "$stderr"
	run --separate-stderr env MPI_LOCALRANKID=0 "$PINRUN" --share auto --hot -n
	[ "$stderr" = "pinrun: --share auto: MPI_LOCALRANKID is set, but not MPI_LOCALNRANKS" ] || fail "$stderr"
	run --separate-stderr env OMPI_COMM_WORLD_LOCAL_RANK=0 OMPI_COMM_WORLD_LOCAL_SIZE=99999999999 "$PINRUN" --share auto --hot -n
	[ "$stderr" = "pinrun: --share auto: invalid OMPI_COMM_WORLD_LOCAL_SIZE '99999999999': a number over 4294967295" ] || fail "$stderr"
	run --separate-stderr env PARALLEL_JOBSLOT=0 "$PINRUN" --share auto/2 --hot -n
	[ "$stderr" = "pinrun: --share auto/2: invalid PARALLEL_JOBSLOT '0': it counts from 1" ] || fail "$stderr"
	# Each of these is one line, with exit status 125.
	MPI_LOCALRANKID=0 MPI_LOCALNRANKS=1 HYDRA_USER_PROVIDED_BINDING=yes \
		bad "--share auto: invalid HYDRA_USER_PROVIDED_BINDING 'yes': expected 0 or 1" --share auto --hot -n
}

@test "GNU parallel: each job runs on its job slot's share" {
	command -v parallel >/dev/null || skip_unless_works "GNU parallel is not installed"
	[ "$(expand "$ALLOWED" | tr ',' '\n' | wc -l)" -eq 2 ] || skip_unless_works "needs exactly 2 CPUs"
	local l
	run parallel --will-cite -j 2 "$PINRUN" --share '{%}/2' --hot -- \
		sh -c "'echo {%} {} \$(grep Cpus_allowed_list /proc/self/status | cut -f2)'" ::: a b c d
	assert_success
	[ "${#lines[@]}" -eq 4 ] || fail "$output"
	# Whichever slot parallel gave a job, and whenever: slot 1 is the
	# first half, slot 2 the second.
	for l in "${lines[@]}"; do
		[[ "$l" =~ ^1\ [abcd]\ $FIRST$ ]] || [[ "$l" =~ ^2\ [abcd]\ $SECOND$ ]] || fail "$l"
	done
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
	local g=/sys/fs/cgroup/cpuset/pinrun-launchers-$$
	needs_two_cpus
	mkdir "$g" 2>/dev/null || skip_unless_works "cannot create a cpuset cgroup"
	echo "$SECOND" >"$g/cpuset.cpus"
	cat /sys/fs/cgroup/cpuset/cpuset.mems >"$g/cpuset.mems"
	run --separate-stderr sh -c 'echo $$ >"$1/tasks" && "$2" --show && "$2" --share 1/1 --spread -n && exec "$2" --cpus "$3" -- true' \
		sh "$g" "$PINRUN" "$FIRST"
	rmdir "$g"
	assert_failure 125
	assert_line --index 1 "cpus: $SECOND"
	assert_line --index 4 "$SECOND"
	[ "$stderr" = "pinrun: CPU $FIRST is not in this cgroup's cpuset $SECOND" ] || fail "$stderr"
}
