#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# --share auto under the real launchers: srun, sbatch and salloc on a
# one-node Slurm (scripts/cluster), Open MPI's mpirun, MPICH's
# mpiexec.hydra and GNU parallel, with their default binding and others.
# Every rank's CPUs must lie inside the mask its launcher gave it, and the
# ranks' CPUs must be disjoint and together cover what the launcher gave
# them all. A launcher that cannot start here is skipped with the reason;
# PINRUN_MUST_WORK=1 (CI) makes that a failure.

load test_helper

setup_file() {
	local dir
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export BIN=$BATS_FILE_TMPDIR/bin
	mkdir -p "$BIN"
	# A rank as its launcher started it: the mask it was given, then the
	# rest of the command (pinrun, which execs the app in this process).
	cat >"$BIN/rank" <<'EOF'
#!/bin/sh
sed -n 's/^Cpus_allowed_list:[[:space:]]*/given=/p' /proc/self/status >>"$RANKS/$$"
exec "$@"
EOF
	# The app: the CPUs pinrun placed it on.
	cat >"$BIN/app" <<'EOF'
#!/bin/sh
sed -n 's/^Cpus_allowed_list:[[:space:]]*/cpus=/p' /proc/self/status >>"$RANKS/$$"
EOF
	# A GNU parallel job: the same, then it waits (10 s at most) until
	# $JOBS jobs have started, so that parallel runs them side by side,
	# each in a slot of its own, even on a loaded machine.
	cat >"$BIN/job" <<'EOF'
#!/bin/sh
sed -n 's/^Cpus_allowed_list:[[:space:]]*/cpus=/p' /proc/self/status >>"$RANKS/$$"
i=0
while [ "$(ls "$RANKS" | wc -l)" -lt "${JOBS:-1}" ] && [ "$i" -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
EOF
	chmod 755 "$BIN"/*
	: >"$BATS_FILE_TMPDIR/no-slurm"
	if [ "$(id -u)" -ne 0 ]; then
		echo "Slurm's slurmd needs root" >"$BATS_FILE_TMPDIR/no-slurm"
	elif ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
		echo "Slurm is not installed (scripts/install-deps --ci)" >"$BATS_FILE_TMPDIR/no-slurm"
	else
		# munged wants every directory up to its socket searchable.
		dir=$(mktemp -d /tmp/pinrun-slurm.XXXXXX)
		rmdir "$dir"
		export CLUSTER=$dir
		"$BATS_TEST_DIRNAME/../scripts/cluster" start "$CLUSTER" \
			>"$BATS_FILE_TMPDIR/cluster.log" 2>&1 3>&- &
		echo $! >"$BATS_FILE_TMPDIR/keeper"
		if ! "$BATS_TEST_DIRNAME/../scripts/cluster" wait "$CLUSTER" 2>>"$BATS_FILE_TMPDIR/cluster.log"; then
			echo "the one-node Slurm did not start: $(tail -n 3 "$BATS_FILE_TMPDIR/cluster.log" | paste -sd ' ')" \
				>"$BATS_FILE_TMPDIR/no-slurm"
		fi
		export SLURM_CONF=$CLUSTER/slurm.conf
	fi
}

teardown_file() {
	if [ -s "$BATS_FILE_TMPDIR/keeper" ]; then
		"$BATS_TEST_DIRNAME/../scripts/cluster" stop "$CLUSTER"
		wait "$(cat "$BATS_FILE_TMPDIR/keeper")" 2>/dev/null || :
	fi
}

setup() {
	ALLOWED=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)
	[ "$(expand "$ALLOWED" | tr ',' '\n' | wc -l)" -ge 2 ] || skip_unless_works "needs 2 CPUs"
	export RANKS=$BATS_TEST_TMPDIR/ranks
	mkdir -p "$RANKS"
	cd "$BIN" || return
	export PATH=$BIN:$(dirname "$PINRUN"):$PATH
	# The suite's own environment is no launcher's.
	unset SLURM_JOB_ID SLURM_JOBID SLURM_STEP_ID SLURM_STEPID SLURM_LOCALID \
		OMPI_COMM_WORLD_LOCAL_RANK MPI_LOCALRANKID PARALLEL_JOBSLOT
}

need() {
	local t
	for t in "$@"; do
		case $t in
		slurm) [ ! -s "$BATS_FILE_TMPDIR/no-slurm" ] ||
			skip_unless_works "$(cat "$BATS_FILE_TMPDIR/no-slurm")" ;;
		mpirun) mpirun --version 2>/dev/null | grep -q 'Open MPI' ||
			skip_unless_works "mpirun is not Open MPI's (scripts/install-deps --ci)" ;;
		*) command -v "$t" >/dev/null ||
			skip_unless_works "$t is not installed (scripts/install-deps --ci)" ;;
		esac
	done
}

# Run a launcher's command line, within a minute (srun would read the
# caller's stdin).
launch() {
	run timeout 60 bash -c "$1" </dev/null
	[ "$status" -eq 0 ] || fail "exit $status: $1: $output"
}

# Wait for every job of the cluster to end (a minute at most).
wait_jobs() {
	local i
	for ((i = 0; i < 600; i++)); do
		[ -n "$(squeue -h -o %i)" ] || return 0
		sleep 0.1
	done
	fail "jobs still queued or running after 60 s: $(squeue)"
}

# check_ranks N [how]: N ranks left a record; each one's CPUs lie inside
# the mask it was given (its given= line, or this test's own mask); no CPU
# is in two ranks' sets; together they cover every given mask. how "hot":
# one CPU each instead of covering; "apart": no covering asked.
check_ranks() {
	local n=$1 how=${2:-cover} f cpus given all=() ranks=0 union
	for f in "$RANKS"/*; do
		[ -e "$f" ] || break
		ranks=$((ranks + 1))
		cpus=$(sed -n 's/^cpus=//p' "$f")
		given=$(sed -n 's/^given=//p' "$f")
		[ -n "$cpus" ] || fail "rank $f ran no app: $(cat "$f")"
		[ -n "$given" ] || given=$ALLOWED
		[ -z "$(comm -23 <(expand "$cpus" | tr ',' '\n') <(expand "$given" | tr ',' '\n'))" ] ||
			fail "a rank's CPUs $cpus are not inside its mask $given"
		if [ "$how" = hot ]; then
			[ "$(expand "$cpus" | tr ',' '\n' | wc -l)" -eq 1 ] || fail "a --hot rank on $cpus"
		fi
		all+=($(expand "$cpus" | tr ',' ' '))
		union+=$given,
	done
	[ "$ranks" -eq "$n" ] || fail "$ranks ranks ran, not $n: $(tail -n +1 "$RANKS"/*)"
	[ "$(printf '%s\n' "${all[@]}" | sort -u | wc -l)" -eq "${#all[@]}" ] ||
		fail "ranks overlap: $(tail -n +1 "$RANKS"/*)"
	if [ "$how" = cover ]; then
		[ "$(printf '%s\n' "${all[@]}" | sort -n | paste -sd, -)" = "$(expand "${union%,}" | tr ',' '\n' | sort -nu | paste -sd, -)" ] ||
			fail "the ranks do not cover their masks: $(tail -n +1 "$RANKS"/*)"
	fi
}

# The README's section on launchers: its example lines.
readme_examples() {
	sed -n '/^## Running under Slurm, MPI and GNU parallel/,/^## /p' \
		"$BATS_TEST_DIRNAME/../README.md" |
		sed -n '/^```sh$/,/^```$/p' | sed '/^```/d'
}

# Run the example lines on stdin as they are, from the directory of ./app
# and ./job, and check each one's ranks; where names them.
run_examples() {
	local where=$1 line n how examples=0
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		examples=$((examples + 1))
		rm -rf "$RANKS" && mkdir "$RANKS"
		# A batch script that runs pinrun itself is one process.
		if [[ "$line" == *"--wrap 'pinrun"* ]]; then
			n=1
		else
			n=$(sed -E 's/.* -[nj] ([0-9]+) .*/\1/' <<<"$line")
		fi
		JOBS=$n launch "$line"
		[[ "$line" != sbatch* ]] || wait_jobs
		# --spread takes one PU a core: with SMT, not every CPU.
		how=cover
		[[ "$line" != *--spread* ]] || [ "$("$PINRUN" --spread -n)" = "$ALLOWED" ] || how=apart
		check_ranks "$n" "$how" || fail "$where: $line"
	done
	[ "$examples" -ge 5 ] || fail "$where has $examples examples"
}

@test "README: the cluster examples, as written" {
	need slurm mpirun mpiexec.hydra parallel
	run_examples README.md < <(readme_examples)
}

@test "srun: the default binding, a core each: each task plans inside its own" {
	need slurm
	launch "srun -n 2 rank pinrun --share auto --same-chip -- app"
	check_ranks 2
	rm -f "$RANKS"/*
	launch "srun -n 2 rank pinrun --share auto --hot -- app"
	check_ranks 2 hot
}

@test "srun --cpu-bind=none: the tasks split the node" {
	need slurm
	launch "srun -n 2 --cpu-bind=none rank pinrun --share auto --same-chip -- app"
	check_ranks 2
	rm -f "$RANKS"/*
	launch "srun -n 2 --cpu-bind=none rank pinrun --share auto --hot -- app"
	check_ranks 2 hot
}

@test "srun --cpu-bind=cores" {
	need slurm
	launch "srun -n 2 --cpu-bind=cores rank pinrun --share auto --spread -- app"
	check_ranks 2
}

@test "srun -n 1: the step's one task takes its whole binding" {
	need slurm
	launch "srun -n 1 rank pinrun --share auto --same-chip -- app"
	check_ranks 1
	rm -f "$RANKS"/*
	launch "srun -n 1 -c 2 rank pinrun --share auto --same-chip -- app"
	check_ranks 1
	[ "$(sed -n 's/^cpus=//p' "$RANKS"/*)" = "$ALLOWED" ] || fail "$(cat "$RANKS"/*)"
}

@test "srun --ntasks-per-node: the step's count, not the job's" {
	need slurm
	launch "srun -N 1 --ntasks-per-node=2 rank pinrun --share auto --same-chip -- app"
	check_ranks 2
	# One task of a --ntasks-per-node=2 job's step: all of the step's
	# CPUs (SLURM_NTASKS_PER_NODE=2 is the job's).
	rm -f "$RANKS"/*
	launch "sbatch -o /dev/null -N 1 --ntasks-per-node=2 --wrap 'srun -n 1 rank pinrun --share auto --same-chip -- app'"
	wait_jobs
	check_ranks 1
	[ "$(sed -n 's/^cpus=//p' "$RANKS"/*)" = "$ALLOWED" ] || fail "$(cat "$RANKS"/*)"
}

@test "sbatch: a job that runs srun, mpirun and pinrun itself" {
	need slurm mpirun
	local out=$BATS_TEST_TMPDIR
	mkdir -p "$out/srun" "$out/mpirun" "$out/script"
	cat >"$out/job" <<EOF
#!/bin/sh
RANKS=$out/srun srun -n 2 rank pinrun --share auto --same-chip -- app
RANKS=$out/mpirun mpirun -n 2 rank pinrun --share auto --same-chip -- app
RANKS=$out/script rank pinrun --share auto --same-chip -- app
EOF
	launch "sbatch -o '$out/job.out' -n 2 '$out/job'"
	wait_jobs
	for RANKS in "$out/srun" "$out/mpirun"; do
		check_ranks 2
	done
	# The batch script is alone on its allocation: all of it.
	RANKS=$out/script
	check_ranks 1
	[ "$(sed -n 's/^cpus=//p' "$RANKS"/*)" = "$ALLOWED" ] || fail "$(cat "$out/job.out" "$RANKS"/*)"
}

@test "salloc: the shell is alone on its allocation" {
	need slurm
	launch "salloc -Q -n 2 rank pinrun --share auto --same-chip -- app"
	check_ranks 1
	[ "$(sed -n 's/^cpus=//p' "$RANKS"/*)" = "$ALLOWED" ] || fail "$(cat "$RANKS"/*)"
}

@test "Open MPI: the default binding, a core each" {
	need mpirun
	launch "mpirun -n 2 rank pinrun --share auto --same-chip -- app"
	check_ranks 2
	rm -f "$RANKS"/*
	launch "mpirun -n 2 rank pinrun --share auto --hot -- app"
	check_ranks 2 hot
}

@test "Open MPI --bind-to none and --bind-to socket: the ranks split the mask" {
	need mpirun
	launch "mpirun -n 2 --bind-to none rank pinrun --share auto --same-chip -- app"
	check_ranks 2
	rm -f "$RANKS"/*
	launch "mpirun -n 2 --bind-to socket rank pinrun --share auto --same-chip -- app"
	check_ranks 2
}

@test "MPICH's Hydra: no binding by default, -bind-to core" {
	need mpiexec.hydra
	launch "mpiexec.hydra -n 2 rank pinrun --share auto --same-chip -- app"
	check_ranks 2
	rm -f "$RANKS"/*
	launch "mpiexec.hydra -n 2 -bind-to core rank pinrun --share auto --same-chip -- app"
	check_ranks 2
}

@test "GNU parallel: each job slot its part" {
	need parallel
	JOBS=2 launch "parallel -j 2 rank pinrun --share auto/2 --same-chip -- job ::: a b"
	check_ranks 2
}

@test "--explain names the launcher, its binding and the rule" {
	need slurm mpirun
	launch "srun -n 2 pinrun --share auto --hot --explain -n 2>&1"
	assert_line --partial "pinrun: share: Slurm step, task 1 of the 2 on this node, from 0 (SLURM_STEP_ID=0, SLURM_LOCALID=1, SLURM_STEP_TASKS_PER_NODE=2, SLURM_NODEID=0, SLURM_CPU_BIND_TYPE=mask_cpu:, SLURM_CPU_BIND_LIST="
	assert_line --regexp "^pinrun: share: Slurm bound this task to CPUs [0-9]+ \(entry 2 of SLURM_CPU_BIND_LIST\): no other task of the step here has it: pinrun plans inside it, whole$"
	launch "mpirun -n 2 --bind-to none pinrun --share auto --hot --explain -n 2>&1"
	assert_line "pinrun: share: Open MPI did not bind the ranks: the 2 of them split CPUs $ALLOWED"
	launch "mpirun -n 2 pinrun --share auto --hot --explain -n 2>&1"
	assert_line --regexp "^pinrun: share: Open MPI bound this rank to core:[0-9]+, CPUs [0-9]+; its ranks go round-robin over the [0-9]+ cores of the node: no other rank has it: pinrun plans inside it, whole$"
	launch "sbatch -W -o '$BATS_TEST_TMPDIR/job.out' -n 2 --wrap 'pinrun --share auto --hot --explain -n' >/dev/null && cat '$BATS_TEST_TMPDIR/job.out'"
	assert_line --regexp "^pinrun: share: a Slurm job with no step, a batch script or an salloc shell \(SLURM_JOB_ID=[0-9]+, SLURM_STEP_ID unset\): the one process of the allocation$"
	assert_line "pinrun: share: alone on the allocation: all of CPUs $ALLOWED"
}

# The man page's examples of --share, as written (\- is -).
man_examples() {
	sed -n '/^\.SS Launchers/,/^\.SH /p' "$BATS_TEST_DIRNAME/../man/pinrun.1" |
		sed -n 's/^\$ \(.*\\-\\-share.*\)/\1/p' | sed 's/\\-/-/g'
}

@test "man page: the launcher examples, as written" {
	need slurm mpirun mpiexec.hydra parallel
	run_examples pinrun.1 < <(man_examples)
}
