#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# --share auto under the real launchers: srun, sbatch and salloc on a Slurm
# of three nodes, each in namespaces of its own (scripts/cluster), Open
# MPI's mpirun, MPICH's mpiexec.hydra and GNU parallel, with their default
# binding and others. Every rank's CPUs must lie inside the mask its
# launcher gave it, and the ranks' CPUs on a node must be disjoint and
# together cover what the launcher gave them all there. The one-node cases
# run in partition one (n1 alone), the README's multi-node lines on all
# three nodes. A launcher that cannot start here is skipped with the
# reason; PINRUN_MUST_WORK=1 (CI) makes that a failure.

load lib/test_helper

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
	# The multi-node probes: pinrun as the launcher finds it on PATH,
	# saying which mask the launcher gave this rank, then the real one;
	# the app, saying where it ran, which rank it is and on which CPUs,
	# and the Slurm variables an MPI rank inherits from its launcher.
	export NBIN=$BATS_FILE_TMPDIR/nodes-bin
	mkdir -p "$NBIN"
	cat >"$NBIN/pinrun" <<EOF
#!/bin/sh
echo "given \$(hostname) \$\$ \$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)"
exec "$PINRUN" "\$@"
EOF
	cat >"$NBIN/app" <<'EOF'
#!/bin/sh
echo "ran $(hostname) $$ ${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${SLURM_PROCID:-}}} $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status) slurm=${SLURM_STEP_ID-}/${SLURM_LOCALID-}/${SLURM_STEP_TASKS_PER_NODE-}"
EOF
	chmod 755 "$NBIN/pinrun" "$NBIN/app"
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
		if ! "$REPO/scripts/cluster" start 3 "$CLUSTER" \
			>"$BATS_FILE_TMPDIR/cluster.log" 2>&1 3>&-; then
			echo "the three-node Slurm did not start: $(grep -v '^SLURM_CONF=' "$BATS_FILE_TMPDIR/cluster.log" | tail -n 3 | paste -sd ' ')" \
				>"$BATS_FILE_TMPDIR/no-slurm"
		fi
		export SLURM_CONF=$CLUSTER/slurm.conf
	fi
}

teardown_file() {
	if [ -n "${CLUSTER:-}" ] && [ -d "$CLUSTER" ]; then
		"$REPO/scripts/cluster" stop "$CLUSTER"
	fi
}

setup() {
	load_allowed
	needs_two_cpus
	export RANKS=$BATS_TEST_TMPDIR/ranks
	mkdir -p "$RANKS"
	cd "$BIN" || return
	export PATH=$BIN:$(dirname "$PINRUN"):$PATH
	# The suite's own environment is no launcher's.
	unset SLURM_JOB_ID SLURM_JOBID SLURM_STEP_ID SLURM_STEPID SLURM_LOCALID \
		OMPI_COMM_WORLD_LOCAL_RANK MPI_LOCALRANKID PARALLEL_JOBSLOT
	# One node unless a test says otherwise (check_ranks knows one).
	export SLURM_PARTITION=one SBATCH_PARTITION=one SALLOC_PARTITION=one
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
		[ -n "$cpus" ] || { fail "rank $f ran no app: $(cat "$f")"; return 1; }
		[ -n "$given" ] || given=$ALLOWED
		[ -z "$(comm -23 <(expand "$cpus" | tr ',' '\n') <(expand "$given" | tr ',' '\n'))" ] ||
			{ fail "a rank's CPUs $cpus are not inside its mask $given"; return 1; }
		if [ "$how" = hot ]; then
			[ "$(expand "$cpus" | tr ',' '\n' | wc -l)" -eq 1 ] || { fail "a --hot rank on $cpus"; return 1; }
		fi
		all+=($(expand "$cpus" | tr ',' ' '))
		union+=$given,
	done
	[ "$ranks" -eq "$n" ] || { fail "$ranks ranks ran, not $n: $(tail -n +1 "$RANKS"/*)"; return 1; }
	[ "$(printf '%s\n' "${all[@]}" | sort -u | wc -l)" -eq "${#all[@]}" ] ||
		{ fail "ranks overlap: $(tail -n +1 "$RANKS"/*)"; return 1; }
	if [ "$how" = cover ]; then
		[ "$(printf '%s\n' "${all[@]}" | sort -n | paste -sd, -)" = "$(expand "${union%,}" | tr ',' '\n' | sort -nu | paste -sd, -)" ] ||
			{ fail "the ranks do not cover their masks: $(tail -n +1 "$RANKS"/*)"; return 1; }
	fi
}

# The README's section on launchers: the example lines of one node (before
# its "### Across nodes"), or with "nodes", those of that part.
readme_examples() {
	local from='^## Running under Slurm, MPI and GNU parallel' to='^##* '
	[ "${1:-}" != nodes ] || from='^### Across nodes' to='^## '
	awk -v from="$from" -v to="$to" '
		inside && $0 ~ to { exit }
		inside && /^```/ { code = /^```sh$/; next }
		inside && code { print }
		$0 ~ from { inside = 1 }' "$REPO/README.md"
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
	sed -n '/^\.SS Launchers/,/^\.SH /p' "$REPO/man/pinrun.1" |
		sed -n 's/^\$ \(.*\\-\\-share.*\)/\1/p' | sed 's/\\-/-/g'
}

@test "man page: the launcher examples, as written" {
	need slurm mpirun mpiexec.hydra parallel
	run_examples pinrun.1 < <(man_examples)
}

# --- across nodes ----------------------------------------------------------

# Whether every CPU of list $1 is in list $2.
inside() {
	[ -z "$(comm -23 <(expand "$1" | tr ',' '\n' | sort) <(expand "$2" | tr ',' '\n' | sort))" ]
}

# check_nodes OUT: the probes' lines in OUT come from ranks 0-5, two on
# each of n1, n2 and n3; each rank's CPUs lie inside the mask its launcher
# gave it (its "given" line, same node and pid); on each node the ranks'
# CPUs are disjoint and together cover the masks given there.
check_nodes() {
	local out=$1 kind node pid rest rank cpus given all
	local -A given_of=() cpus_on=() given_on=() ranks_on=()
	local ranks=()
	while read -r kind node pid rest; do
		given_of[$node.$pid]=$rest
	done < <(grep '^given ' <<<"$out")
	while read -r kind node pid rank cpus rest; do
		given=${given_of[$node.$pid]:-}
		[ -n "$given" ] || { fail "rank $rank on $node (pid $pid) said no mask of its launcher's"; return 1; }
		inside "$cpus" "$given" || { fail "rank $rank on $node: CPUs $cpus are not inside its mask $given"; return 1; }
		ranks+=("$rank")
		cpus_on[$node]+=$(expand "$cpus"),
		given_on[$node]+=$given,
		ranks_on[$node]+="$rank "
	done < <(grep '^ran ' <<<"$out")
	[ "$(printf '%s\n' "${ranks[@]}" | sort -n | paste -sd ' ')" = "0 1 2 3 4 5" ] ||
		{ fail "ranks ${ranks[*]} ran, not 0-5 once each"; return 1; }
	[ "$(printf '%s\n' "${!ranks_on[@]}" | sort | paste -sd ' ')" = "n1 n2 n3" ] ||
		{ fail "ranks ran on ${!ranks_on[*]}, not on n1, n2 and n3"; return 1; }
	for node in n1 n2 n3; do
		[ "$(wc -w <<<"${ranks_on[$node]}")" -eq 2 ] || { fail "$node ran ranks ${ranks_on[$node]}, not two"; return 1; }
		all=$(tr ',' '\n' <<<"${cpus_on[$node]%,}" | sort -n)
		[ "$(uniq -d <<<"$all")" = "" ] || { fail "the ranks on $node overlap: ${cpus_on[$node]%,}"; return 1; }
		[ "$(paste -sd, - <<<"$all")" = "$(expand "${given_on[$node]%,}" | tr ',' '\n' | sort -nu | paste -sd, -)" ] ||
			{ fail "the ranks on $node take CPUs ${cpus_on[$node]%,}, not all of ${given_on[$node]%,}"; return 1; }
	done
}

# Run a multi-node line of the README as it is, from a directory of its
# own holding ./app: srun and sbatch from this machine (sbatch waits for
# the job, and its status is the job's), mpirun and mpiexec.hydra from the
# head node. Sets output to what the ranks printed.
run_on_nodes() {
	local line=$1 job
	mkdir -p "$BATS_TEST_TMPDIR/work"
	cd "$BATS_TEST_TMPDIR/work" || return
	ln -sf "$NBIN/app" app
	unset SLURM_PARTITION SBATCH_PARTITION SALLOC_PARTITION
	case $line in
	mpirun* | mpiexec*)
		run --separate-stderr timeout 60 "$REPO/scripts/cluster" on "$CLUSTER" head \
			env PATH="$NBIN:$PATH" bash -c "$line" </dev/null ;;
	sbatch*)
		run --separate-stderr env SBATCH_WAIT=1 PATH="$NBIN:$PATH" timeout 60 bash -c "$line" </dev/null ;;
	*)
		run --separate-stderr env PATH="$NBIN:$PATH" timeout 60 bash -c "$line" </dev/null ;;
	esac
	[ "$status" -eq 0 ] || fail "exit $status: $line: $output $stderr"
	if [[ $line == sbatch* ]]; then
		job=$(sed -n 's/^Submitted batch job \([0-9][0-9]*\)$/\1/p' <<<"$output")
		[ -n "$job" ] || fail "$line: no job id in: $output"
		output=$(cat "slurm-$job.out")
	fi
}

@test "README across nodes: srun, sbatch, mpirun, mpiexec.hydra, and both in sbatch, on three nodes" {
	need slurm mpirun mpiexec.hydra
	local line count=0 seen=
	# (not "lines": run sets it)
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		count=$((count + 1))
		run_on_nodes "$line"
		check_nodes "$output" || fail "$line: $output"
		case $line in
		"srun -N3 --ntasks-per-node=2 pinrun "*) seen+=" srun" ;;
		"srun -N3 --ntasks-per-node=2 --cpu-bind=none pinrun "*) seen+=" srun-none" ;;
		"sbatch -N3 --ntasks-per-node=2 --wrap 'srun "*) seen+=" sbatch" ;;
		"mpirun --host n1:2,n2:2,n3:2 "*) seen+=" mpirun" ;;
		"mpiexec.hydra -hosts n1,n2,n3 -ppn 2 "*) seen+=" hydra" ;;
		"sbatch -N3 --ntasks-per-node=2 --wrap 'mpiexec.hydra "*)
			seen+=" sbatch-hydra"
			# Hydra starts its proxies with a step of one task a
			# node: SLURM_LOCALID=0 for every rank.
			[ "$(grep -c '^ran n[123] .* slurm=[0-9][0-9]*/0/1(x3)$' <<<"$output")" -eq 6 ] ||
				fail "the ranks do not carry the Slurm variables of Hydra's launch: $output"
			;;
		"sbatch -N3 --ntasks-per-node=2 --wrap 'mpirun "*)
			seen+=" sbatch-mpirun"
			# Every rank carries SLURM_LOCALID=0, which would make
			# it the first task of its node: the batch script's on
			# n1, where mpirun starts its ranks itself, and on n2
			# and n3 that of the step of one task a node that
			# started mpirun's daemons there.
			[ "$(grep -c '^ran n1 .* slurm=/0/$' <<<"$output")" -eq 2 ] &&
				[ "$(grep -c '^ran n[23] .* slurm=[0-9][0-9]*/0/1(x2)$' <<<"$output")" -eq 4 ] ||
				fail "the ranks do not carry the Slurm variables of mpirun's launch: $output"
			;;
		esac
	done < <(readme_examples nodes)
	[ "$count" -eq 7 ] || fail "README's Across nodes has $count lines, not 7"
	[ "$seen" = " srun srun-none sbatch mpirun hydra sbatch-mpirun sbatch-hydra" ] || fail "README's Across nodes has$seen"
}

@test "scripts/cluster: nodes apart, each its own name, network and files" {
	need slurm
	local c=$REPO/scripts/cluster net
	run "$c" on "$CLUSTER" n2 hostname
	assert_success
	assert_output n2
	net=$(sed -n 's/^\([0-9.]*\)\.2 head$/\1/p' "$CLUSTER/etc/hosts")
	[ -n "$net" ] || fail "no head in $CLUSTER/etc/hosts"
	# Its own address on its link, no route but the cluster's /24.
	run "$c" on "$CLUSTER" n2 ip -4 -o route show
	assert_success
	assert_output "$net.0/24 dev eth0 proto kernel scope link src $net.12 "
	run "$c" on "$CLUSTER" n2 getent hosts n3
	assert_output --regexp "^${net//./\\.}\\.13 +n3$"
	# Mounted in the node, not here.
	run grep -c ' n3$' /etc/hosts
	assert_output 0
	run "$c" on "$CLUSTER" nX true
	assert_failure 1
	assert_output "cluster: no node 'nX' runs in '$CLUSTER'"
	run "$CLUSTER/bin/rsh" -x nX true
	assert_failure 255
	assert_output "rsh: no node 'nX' runs in the cluster in $CLUSTER"
	run "$CLUSTER/bin/rsh" -x -l root n3 'hostname; echo $0'
	assert_success
	assert_output $'n3\nsh'
}

# The links tagged as made by the cluster in $1.
tagged_links() {
	ip -o link show | awk -v tag="    alias pinrun-cluster:$1" '{
		n = split($0, part, "\\\\")
		for (i = 1; i <= n; i++) if (part[i] == tag) { sub(/[:@].*/, "", $2); print $2 }
	}'
}

@test "scripts/cluster start, interrupted: it takes down what it made" {
	need slurm
	local d=$CLUSTER.interrupted pid i=0 names=() name
	"$REPO/scripts/cluster" start 2 "$d" >"$BATS_TEST_TMPDIR/start.log" 2>&1 3>&- &
	pid=$!
	# Interrupted once it has made two nodes (60 s at most).
	for ((i = 0; i < 600; i++)); do
		[ ! -s "$d/run/holders" ] || [ "$(wc -l <"$d/run/holders")" -lt 2 ] || break
		sleep 0.1
	done
	while read -r name; do
		names+=("$(cat "$d/run/$name.pid")")
	done <"$d/run/holders"
	[ "${#names[@]}" -ge 2 ] || fail "no two holders in $d"
	kill -TERM "$pid"
	i=0
	wait "$pid" || i=$?
	[ "$i" -eq 130 ] || fail "start ended $i, not 130: $(cat "$BATS_TEST_TMPDIR/start.log")"
	[ ! -e "$d" ] && [ ! -e "$d.log" ] || fail "$d is left"
	[ -z "$(tagged_links "$d")" ] || fail "a tagged link is left"
	for name in "${names[@]}"; do
		pid=${name% *}
		if [ -e "/proc/$pid" ]; then
			[ "$(sed 's/.*) //' "/proc/$pid/stat" | cut -d' ' -f20)" != "${name#* }" ] ||
				fail "holder $pid is left"
		fi
	done
}

# The last test: it stops the cluster itself (teardown_file stops it when
# this one did not run), and nothing it made is left.
@test "scripts/cluster stop: no process, namespace, link or file left" {
	need slurm
	local holders=() links name pid start
	while read -r name; do
		read -r pid start <"$CLUSTER/run/$name.pid"
		holders+=("$pid:$start")
	done <"$CLUSTER/run/holders"
	[ "${#holders[@]}" -eq 4 ] || fail "${#holders[@]} holders, not head and 3 nodes"
	links=$(tagged_links "$CLUSTER")
	[ "$(wc -l <<<"$links")" -eq 5 ] || fail "links: $links"
	run "$REPO/scripts/cluster" stop "$CLUSTER"
	assert_success
	assert_output ""
	[ ! -e "$CLUSTER" ] || fail "$CLUSTER is left"
	[ ! -e "$CLUSTER.log" ] || fail "$CLUSTER.log is left"
	for pid in "${holders[@]}"; do
		start=${pid#*:}
		pid=${pid%:*}
		if [ -e "/proc/$pid" ]; then
			[ "$(sed 's/.*) //' "/proc/$pid/stat" | cut -d' ' -f20)" != "$start" ] ||
				fail "holder $pid is left"
		fi
	done
	for name in $links; do
		! ip link show "$name" >/dev/null 2>&1 || fail "link $name is left"
	done
	[ -z "$(tagged_links "$CLUSTER")" ] || fail "a tagged link is left"
}
