#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# The placement told to others: --emit=FORMAT (the plan in another tool's
# words), checked against hwloc-calc on every recorded topology and fed to
# the real tools where they are installed (taskset, numactl, hwloc-bind,
# libgomp, srun on a one-node Slurm).

load lib/test_helper
load lib/reference

setup_file() {
	# A program that says where each of its OpenMP threads may run.
	cat >"$BATS_FILE_TMPDIR/omp.c" <<'EOF'
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
int main(void)
{
#pragma omp parallel
	{
		cpu_set_t s;
		char list[4096] = "";
		int n = 0;

		sched_getaffinity(0, sizeof(s), &s);
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &s))
				n += snprintf(list + n, sizeof(list) - n,
					      "%s%d", n ? "," : "", c);
#pragma omp critical
		printf("thread %d of %d: %s\n", omp_get_thread_num(),
		       omp_get_num_threads(), list);
	}
	return 0;
}
EOF
	gcc -fopenmp -o "$BATS_FILE_TMPDIR/omp" "$BATS_FILE_TMPDIR/omp.c" \
		2>"$BATS_FILE_TMPDIR/omp.log" || rm -f "$BATS_FILE_TMPDIR/omp"
}

setup() {
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
	E5=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
	OMP=$BATS_FILE_TMPDIR/omp
	load_allowed
}

need_omp() {
	[ -x "$OMP" ] || skip_unless_works "gcc -fopenmp failed: $(head -n 1 "$BATS_FILE_TMPDIR/omp.log")"
}

# A list with ranges (no strides), as numactl, systemd and Docker read it.
is_plain_list() { [[ $1 =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]]; }

# emit_value FILE FORMAT PREFIX ARGS...: the --emit line, its PREFIX cut off;
# fails when it does not start with PREFIX.
emit_value() {
	local f=$1 format=$2 prefix=$3 line
	shift 3
	line=$("$PINRUN" --topology "$f" --emit="$format" "$@") || fail "--emit=$format $*: failed"
	[[ $line == "$prefix"* ]] || fail "--emit=$format $*: '$line' does not start with '$prefix'"
	echo "${line#"$prefix"}"
}

# Every format on every recorded topology: the CPUs are the plan's, as
# hwloc-calc gives the NUMA node; the memory nodes are the node's own.
@test "--emit: every format, every topology, numa:0 with --mem=bind, = hwloc-calc" {
	local f want node got v n=0
	for f in "$TOPO"/*.xml; do
		want=$(ref_pus "$f" numa:0)
		node=$(hwloc-calc --input "$f" --physical-output -I numa numa:0 2>/dev/null)
		[ -n "$want" ] && [ "$want" != "hwloc-calc failed" ] || fail "$(basename "$f"): no reference"
		set -- --same-numa=0 --mem=bind
		got=$(expand "$(emit_value "$f" taskset "-c " "$@")")
		[ "$got" = "$want" ] || fail "$(basename "$f") taskset: $got, want $want"
		got=$(expand "$(emit_value "$f" likwid "-c " "$@")")
		[ "$got" = "$want" ] || fail "$(basename "$f") likwid: $got, want $want"
		v=$(emit_value "$f" numactl --physcpubind= "$@")
		[ "${v#* --membind=}" = "$node" ] || fail "$(basename "$f") numactl: $v, want node $node"
		is_plain_list "${v%% *}" || fail "$(basename "$f") numactl: '${v%% *}' is not numactl's grammar"
		[ "$(expand "${v%% *}")" = "$want" ] || fail "$(basename "$f") numactl: $v"
		v=$(emit_value "$f" systemd AllowedCPUs= "$@")
		[[ $v == *" AllowedMemoryNodes=$node" ]] || fail "$(basename "$f") systemd: $v"
		is_plain_list "${v%% *}" && [ "$(expand "${v%% *}")" = "$want" ] || fail "$(basename "$f") systemd: $v"
		v=$(emit_value "$f" docker --cpuset-cpus= "$@")
		[[ $v == *" --cpuset-mems=$node" ]] || fail "$(basename "$f") docker: $v"
		is_plain_list "${v%% *}" && [ "$(expand "${v%% *}")" = "$want" ] || fail "$(basename "$f") docker: $v"
		# hwloc-calc reads the hwloc location back to the same PUs.
		v=$(emit_value "$f" hwloc "--cpubind " "$@")
		[[ $v =~ ^(0x[0-9a-f]{8})(,0x[0-9a-f]{8})*" --membind --strict --mempolicy bind nodeset=0x"[0-9a-f]{8}(,0x[0-9a-f]{8})*$ ]] ||
			fail "$(basename "$f") hwloc: $v"
		[ "$(ref_pus "$f" "${v%% *}")" = "$want" ] || fail "$(basename "$f") hwloc: ${v%% *} is $(ref_pus "$f" "${v%% *}"), want $want"
		v=$(emit_value "$f" hwloc "" --same-numa=0)
		[ "$(ref_pus "$f" "$v")" = "$want" ] || fail "$(basename "$f") hwloc: $v"
		# OpenMP's places: their union is the plan, one place per core.
		v=$(emit_value "$f" openmp OMP_PLACES= "$@")
		[[ $v =~ ^\{[0-9]+(,[0-9]+)*\}(,\{[0-9]+(,[0-9]+)*\})*$ ]] || fail "$(basename "$f") openmp: $v"
		got=$(tr -d '{}' <<<"$v" | tr ',' '\n' | sort -n | paste -sd, -)
		[ "$got" = "$want" ] || fail "$(basename "$f") openmp: $got, want $want"
		[ "$(grep -o '{' <<<"$v" | wc -l)" = "$(hwloc-calc --input "$f" -N core numa:0)" ] ||
			fail "$(basename "$f") openmp: $v is not one place per core of numa:0"
		n=$((n + 1))
	done
	[ "$n" -ge 17 ] || fail "only $n topologies"
}

@test "--emit=openmp: a place is a core's PUs of the plan, in OS numbers" {
	run "$PINRUN" --topology "$E5" --cpus 0-1,36 --emit=openmp
	assert_success
	assert_output "OMP_PLACES={0,36},{1}"
	run "$PINRUN" --topology "$E5" --spread=2 --emit=openmp
	assert_output "OMP_PLACES={0},{18}"
}

@test "--emit without --mem: CPUs only; numactl's policies by --mem's mode" {
	run "$PINRUN" --topology "$E5" --same-numa=1 --emit=docker
	assert_output "--cpuset-cpus=18-35,54-71"
	run "$PINRUN" --topology "$E5" --same-numa=1 --emit=systemd
	assert_output "AllowedCPUs=18-35,54-71"
	run "$PINRUN" --topology "$E5" --same-numa=1 --emit=hwloc
	assert_output "0x000000ff,0xffc0000f,0xfffc0000"
	run "$PINRUN" --topology "$E5" --same-numa=1 --mem=interleave:0,1 --emit=numactl
	assert_output "--physcpubind=18-35,54-71 --interleave=0-1"
	run "$PINRUN" --topology "$E5" --same-numa=1 --mem=preferred --emit=numactl
	assert_output "--physcpubind=18-35,54-71 --preferred=1"
	run "$PINRUN" --topology "$E5" --same-numa=1 --mem=preferred:0,1 --emit=numactl
	assert_output "--physcpubind=18-35,54-71 --preferred-many=0-1"
	run "$PINRUN" --topology "$E5" --same-numa=1 --mem=local --emit=numactl
	assert_output "--physcpubind=18-35,54-71 --localalloc"
	run "$PINRUN" --topology "$E5" --same-numa=1 --mem=interleave:0,1 --emit=hwloc
	assert_output "--cpubind 0x000000ff,0xffc0000f,0xfffc0000 --membind --strict --mempolicy interleave nodeset=0x00000003"
	run "$PINRUN" --topology "$E5" --same-numa=1 --mem=preferred --emit=hwloc
	assert_output "--cpubind 0x000000ff,0xffc0000f,0xfffc0000 --membind --mempolicy bind nodeset=0x00000002"
}

# srun's --cpu-bind for the --share parts of a node: map_cpu when each
# task has one CPU, mask_cpu else, task 0 first; each part as that rank's
# own --share i/n plans it.
@test "--emit=srun: every --share part of the node, as each rank plans it" {
	local n i want parts=()
	run "$PINRUN" --topology "$E5" --hot --share 1/3 --emit=srun
	assert_output "--cpu-bind=map_cpu:0,12,24"
	run "$PINRUN" --topology "$E5" --spread=4 --share 2/3 --emit=srun
	assert_output "--cpu-bind=mask_cpu:0x249,0x249000,0x249000000"
	run "$PINRUN" --topology "$E5" --same-numa=1 --emit=srun
	assert_output "--cpu-bind=mask_cpu:0xffffc0000ffffc0000"
	for n in 2 4 6; do
		parts=()
		for ((i = 1; i <= n; i++)); do
			parts+=("$("$PINRUN" --topology "$E5" --spread=2 --share "$i/$n" -n)")
		done
		v=$("$PINRUN" --topology "$E5" --spread=2 --share "1/$n" --emit=srun)
		[[ $v =~ ^--cpu-bind=mask_cpu:0x[0-9a-f]+(,0x[0-9a-f]+)*$ ]] || fail "$v"
		IFS=, read -ra masks <<<"${v#--cpu-bind=mask_cpu:}"
		[ "${#masks[@]}" -eq "$n" ] || fail "$n parts: $v"
		for ((i = 0; i < n; i++)); do
			want=$(expand "${parts[i]}")
			got=$(ref_pus "$E5" "$(printf '0x%s' "${masks[i]#0x}")")
			[ "$got" = "$want" ] || fail "part $((i + 1))/$n: ${masks[i]} is $got, --share $((i + 1))/$n plans $want"
		done
	done
}

@test "--emit: an unknown format is one line with the list, exit 125" {
	bad "invalid --emit value 'json': expected taskset, numactl, hwloc, systemd, docker, srun, openmp or likwid" --cpus 0 --emit=json
	bad "invalid --emit value 'tasket': expected taskset, numactl, hwloc, systemd, docker, srun, openmp or likwid; did you mean --emit=taskset?" --cpus 0 --emit=tasket -- true
	bad_usage "--emit prints the plan in another tool's words and runs nothing: --json does not apply" --cpus 0 --emit=taskset --json
	bad_usage "--emit prints the plan in another tool's words and runs nothing: --pid does not apply" --cpus 0 --emit=taskset --pid 1
	bad_usage "--emit given twice" --cpus 0 --emit=taskset --emit=likwid
}

@test "--emit runs nothing: the command is not started" {
	run "$PINRUN" --cpus 0 --emit=taskset -- touch "$BATS_TEST_TMPDIR/ran"
	assert_success
	assert_output "-c 0"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ] || fail "the command ran"
}

# The real tools, fed what --emit says: the process lands on exactly the
# plan's CPUs.
@test "--emit=taskset, numactl and hwloc: the tools bind exactly the plan" {
	needs_two_cpus
	needs_program numactl -- "scripts/install-deps --ci installs numactl"
	local spec want
	for spec in 0 1 0-1; do
		want=$("$PINRUN" --cpus "$spec" -n)
		# shellcheck disable=SC2046 # the options are words
		run taskset $("$PINRUN" --cpus "$spec" --emit=taskset) cat /proc/self/status
		assert_success
		assert_line "Cpus_allowed_list:	$want"
		# shellcheck disable=SC2046
		run numactl $("$PINRUN" --cpus "$spec" --mem=bind --emit=numactl) numactl --show
		assert_success
		assert_line "physcpubind: $(expand "$want" | tr ',' ' ') "
		assert_line "policy: bind"
		# shellcheck disable=SC2046
		run hwloc-bind $("$PINRUN" --cpus "$spec" --emit=hwloc) -- cat /proc/self/status
		assert_success
		assert_line "Cpus_allowed_list:	$want"
		# shellcheck disable=SC2046
		run hwloc-bind $("$PINRUN" --cpus "$spec" --mem=bind --emit=hwloc) -- numactl --show
		assert_success
		assert_line "physcpubind: $(expand "$want" | tr ',' ' ') "
		assert_line "policy: bind"
	done
}

@test "--emit=openmp: libgomp binds a thread to each place" {
	needs_two_cpus
	need_omp
	run env "$("$PINRUN" --cpus 1,0 --emit=openmp)" "$OMP"
	assert_success
	[ "${#lines[@]}" -eq 2 ] || fail "$output"
	assert_line "thread 0 of 2: 0"
	assert_line "thread 1 of 2: 1"
	# One place: the team (as many threads as the process's CPUs, 2)
	# all on it.
	run env "$("$PINRUN" --cpus 1 --emit=openmp)" "$OMP"
	assert_success
	[ "${#lines[@]}" -eq 2 ] || fail "$output"
	assert_line "thread 0 of 2: 1"
	assert_line "thread 1 of 2: 1"
}

@test "--emit=likwid: likwid-pin's -c list (when likwid is installed)" {
	command -v likwid-pin >/dev/null || skip "likwid-pin is not installed (not in scripts/install-deps): checked against its grammar only"
	needs_two_cpus
	# shellcheck disable=SC2046
	run likwid-pin -q $("$PINRUN" --cpus 1 --emit=likwid) cat /proc/self/status
	assert_success
	assert_line "Cpus_allowed_list:	1"
}

# srun on a one-node Slurm (scripts/cluster start 1): each task of the step lands where the map
# says. The whole cluster's life is inside the lock, so that no other suite
# runs Slurm meanwhile.
@test "--emit=srun: srun binds each task of the step to its part" {
	needs_two_cpus
	[ "$(id -u)" -eq 0 ] || skip_unless_works "Slurm's slurmd needs root"
	command -v slurmd >/dev/null && command -v munged >/dev/null ||
		skip_unless_works "Slurm is not installed (scripts/install-deps --ci)"
	local bind
	bind=$("$PINRUN" --hot --share 1/2 --emit=srun)
	[ "$bind" = "--cpu-bind=map_cpu:0,1" ] || fail "$bind"
	# shellcheck disable=SC2016 # expanded by the inner bash
	run timeout 200 flock /tmp/pinrun-slurm.lock bash -c '
		repo=$1 bind=$2
		dir=$(mktemp -d /tmp/pinrun-slurm.XXXXXX) && rmdir "$dir" || exit 3
		trap "\"$repo/scripts/cluster\" stop \"$dir\"; rm -f \"$dir.start\"" EXIT
		"$repo/scripts/cluster" start 1 "$dir" >"$dir.start" 2>&1 3>&- ||
			{ tail -n 3 "$dir.start"; exit 4; }
		SLURM_CONF=$dir/slurm.conf timeout 60 srun -n 2 --label "$bind" \
			sh -c "sed -n \"s/^Cpus_allowed_list:[[:space:]]*/cpus /p\" /proc/self/status" </dev/null
	' _ "$REPO" "$bind"
	[ "$status" -eq 0 ] || fail "exit $status: $output"
	assert_line "0: cpus 0"
	assert_line "1: cpus 1"
}

# --- --tell ------------------------------------------------------------------

# A cgroup of v1's cpu controller (or v2's) with a CPU quota, made for one
# test and removed after it: quota_cgroup QUOTA PERIOD prints its directory.
quota_cgroup() {
	local d
	if [ -d /sys/fs/cgroup/cpu ] && [ -w /sys/fs/cgroup/cpu ]; then
		d=/sys/fs/cgroup/cpu/pinrun-tell-$$-$BATS_TEST_NUMBER
		mkdir "$d" && echo "$2" >"$d/cpu.cfs_period_us" && echo "$1" >"$d/cpu.cfs_quota_us" || return 1
	elif grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		d=/sys/fs/cgroup/pinrun-tell-$$-$BATS_TEST_NUMBER
		mkdir "$d" && echo "$1 $2" >"$d/cpu.max" || return 1
	else
		return 1
	fi
	echo "$d" >>"$BATS_TEST_TMPDIR/cgroups"
	echo "$d"
}

teardown() {
	local d
	[ -f "$BATS_TEST_TMPDIR/cgroups" ] || return 0
	# Deepest first; the processes in them have ended.
	sort -r "$BATS_TEST_TMPDIR/cgroups" | while read -r d; do
		rmdir "$d" 2>/dev/null || :
	done
}

# in_cgroup DIR COMMAND...: run COMMAND as a process of that cgroup.
in_cgroup() {
	local d=$1
	shift
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$d" "$@"
}

@test "--tell: the variables for the placement, N its CPUs, none but these" {
	run --separate-stderr env -i PATH="$PATH" "$PINRUN" --topology "$E5" --same-numa=1 --tell -n
	assert_success
	assert_output "export OMP_NUM_THREADS=36
export OMP_PLACES='$("$PINRUN" --topology "$E5" --same-numa=1 --emit=openmp | cut -d= -f2-)'
export OMP_PROC_BIND=close
export OPENBLAS_NUM_THREADS=36
export MKL_NUM_THREADS=36
export BLIS_NUM_THREADS=36
export GOMAXPROCS=36
export JAVA_TOOL_OPTIONS=-XX:ActiveProcessorCount=36
export RAYON_NUM_THREADS=36
export CMAKE_BUILD_PARALLEL_LEVEL=36
export MAKEFLAGS=-j36
export MESON_TESTTHREADS=36
export PYTHON_CPU_COUNT=36
export ERL_AFLAGS='+S 36:36'
export PARALLEL=-j36
export PIGZ=-p36"
	[[ ${lines[1]} == "export OMP_PLACES='{18,54},{19,55},"*",{35,71}'" ]] || fail "${lines[1]}"
	run env -i PATH="$PATH" "$PINRUN" --topology "$E5" --spread=3 --tell=go,rust -n
	assert_output "export GOMAXPROCS=3
export RAYON_NUM_THREADS=3"
	run env -i PATH="$PATH" "$PINRUN" --topology "$E5" --hot --tell=blas,omp -n
	assert_output "export OMP_NUM_THREADS=1
export OMP_PLACES='{0}'
export OMP_PROC_BIND=close
export OPENBLAS_NUM_THREADS=1
export MKL_NUM_THREADS=1
export BLIS_NUM_THREADS=1"
}

@test "--tell: what the user set stays; JAVA_TOOL_OPTIONS and MAKEFLAGS are appended to" {
	run env -i PATH="$PATH" OMP_NUM_THREADS=7 MKL_NUM_THREADS= JAVA_TOOL_OPTIONS="-Xmx1g" MAKEFLAGS=k \
		"$PINRUN" --topology "$E5" --cpus 0-3 --tell=omp,blas,java,build -n
	assert_success
	assert_output "export OMP_PLACES='{0},{1},{2},{3}'
export OMP_PROC_BIND=close
export OPENBLAS_NUM_THREADS=4
export BLIS_NUM_THREADS=4
export JAVA_TOOL_OPTIONS='-Xmx1g -XX:ActiveProcessorCount=4'
export CMAKE_BUILD_PARALLEL_LEVEL=4
export MAKEFLAGS='k -j4'
export MESON_TESTTHREADS=4"
	# What already says it stays whole.
	run env -i PATH="$PATH" JAVA_TOOL_OPTIONS="-XX:ActiveProcessorCount=9" MAKEFLAGS=" -j8 --jobserver-auth=3,4" \
		"$PINRUN" --topology "$E5" --cpus 0-3 --tell=java,build -n
	assert_output "export CMAKE_BUILD_PARALLEL_LEVEL=4
export MESON_TESTTHREADS=4"
	run --separate-stderr env -i PATH="$PATH" OMP_NUM_THREADS=7 "$PINRUN" --topology "$E5" --cpus 0-3 --tell=omp --explain -n
	assert_line -n 0 "export OMP_PLACES='{0},{1},{2},{3}'"
	[[ $stderr == *"pinrun: tell: N = 4: the placement's 4 CPUs"$'\n'* ]] || fail "$stderr"
	[[ $stderr == *"pinrun: tell: OMP_NUM_THREADS left as the user set it: 7"$'\n'* ]] || fail "$stderr"
	[[ $stderr == *"pinrun: tell: OMP_PLACES={0},{1},{2},{3} (the placement's cores, their PUs in OS numbers)"$'\n'* ]] || fail "$stderr"
}

@test "--dry-run --tell: export lines that eval passes on to the programs a shell starts" {
	local out
	out=$(env -i PATH="$PATH" JAVA_TOOL_OPTIONS="-Da='b c'" "$PINRUN" --topology "$E5" --cpus 0,36 --tell -n)
	# sh -c: a program the shell starts, which sees only what is exported.
	run env -i PATH="$PATH" bash -c 'eval "$1"; sh -c '\''printf "%s|%s|%s\n" "$OMP_PLACES" "$JAVA_TOOL_OPTIONS" "$MAKEFLAGS"'\' _ "$out"
	assert_output "{0,36}|-Da='b c' -XX:ActiveProcessorCount=2|-j2"
	run env -i PATH="$PATH" dash -c 'eval "$1"; sh -c '\''echo "[$OMP_PLACES] [$GOMAXPROCS]"'\' _ "$out"
	assert_output "[{0,36}] [2]"
	# The issue's line, on this machine.
	run env -i PATH="$PATH" PINRUN="$PINRUN" bash -c 'eval "$("$PINRUN" --hot --tell=go --dry-run)"; sh -c '\''echo "[$GOMAXPROCS]"'\'
	assert_output "[1]"
}

@test "--tell --json: N, the quota, what was set and what was left" {
	run env -i PATH="$PATH" GOMAXPROCS=5 "$PINRUN" --topology "$E5" --cpus 0-1 --tell=go,rust --json
	assert_success
	[[ $output == *'"tell":{"n":2,"cpus":2,"quota":null,"set":{"RAYON_NUM_THREADS":"2"},"left":{"GOMAXPROCS":"5"}}'* ]] || fail "$output"
}

@test "--tell: wrong values and combinations are refused" {
	bad_usage "invalid --tell value 'omp,cuda': 'cuda' is none of omp, blas, go, java, rust, build, gpu, python, erlang, tools, view or all" --cpus 0 --tell=omp,cuda -n
	bad_usage "invalid --tell value 'omp,': '' is none of omp, blas, go, java, rust, build, gpu, python, erlang, tools, view or all" --cpus 0 --tell=omp, -n
	bad_usage "--tell sets the environment of a command pinrun starts: it cannot change --pid's" --cpus 0 --tell --pid 1
	bad_usage "--emit prints the plan in another tool's words and runs nothing: --tell does not apply" --cpus 0 --tell --emit=taskset
	bad_usage "--tell given twice" --cpus 0 --tell --tell=omp -n
}

@test "--tell: a plain run is as before: no variable without --tell" {
	run env -i "$PINRUN" --cpus 0 -- /usr/bin/env
	assert_success
	assert_output ""
	run env -i "$PINRUN" --hot -- /usr/bin/env
	assert_output ""
	run env -i "$PINRUN" --cpus 0 --tell=go -- /usr/bin/env
	assert_output "GOMAXPROCS=1"
}

# The real runtimes on this machine.
@test "--tell: an OpenMP program runs a thread on each placement CPU, bound where OMP_PLACES says" {
	needs_two_cpus
	need_omp
	run env -u OMP_NUM_THREADS -u OMP_PLACES -u OMP_PROC_BIND "$PINRUN" --cpus 0-1 --tell -- "$OMP"
	assert_success
	[ "${#lines[@]}" -eq 2 ] || fail "$output"
	assert_line "thread 0 of 2: 0"
	assert_line "thread 1 of 2: 1"
	run env -u OMP_NUM_THREADS -u OMP_PLACES -u OMP_PROC_BIND "$PINRUN" --cpus 1 --tell=omp -- "$OMP"
	assert_output "thread 0 of 1: 1"
	# The user's count stays; the places still bind.
	run env -u OMP_PLACES -u OMP_PROC_BIND OMP_NUM_THREADS=1 "$PINRUN" --cpus 0-1 --tell -- "$OMP"
	assert_output "thread 0 of 1: 0"
}

@test "--tell: nproc and GNU make's jobs follow the placement" {
	needs_two_cpus
	local dir=$BATS_TEST_TMPDIR/make
	run env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT "$PINRUN" --cpus 1 --tell=omp -- nproc
	assert_output "1"
	run env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT "$PINRUN" --cpus 0-1 --tell=omp -- nproc
	assert_output "2"
	# Two targets that each wait for the other to have started: only
	# two jobs at once can make them both (make -j1 would time out).
	mkdir -p "$dir"
	cat >"$dir/Makefile" <<'EOF'
all: a b
a b:
	@touch $@.started; i=0; \
	while [ ! -e $(if $(filter a,$@),b,a).started ] && [ $$i -lt 300 ]; do sleep 0.1; i=$$((i + 1)); done; \
	[ -e $(if $(filter a,$@),b,a).started ] && echo "$@ saw the other, MAKEFLAGS=$$MAKEFLAGS"
EOF
	run env -u MAKEFLAGS -u MFLAGS "$PINRUN" --cpus 0-1 --tell=build -- make -s -C "$dir"
	assert_success
	assert_line --partial "a saw the other, MAKEFLAGS=s -j2 --jobserver-auth="
	assert_line --partial "b saw the other, MAKEFLAGS=s -j2 --jobserver-auth="
	# Without --tell, make runs one job: each waits for the other in vain.
	rm -f "$dir"/*.started
	run env -u MAKEFLAGS -u MFLAGS timeout 5 make -s -C "$dir" a
	assert_failure
}

@test "--tell: a CPU quota on the cgroup, or on an ancestor, caps N (rounded up)" {
	needs_two_cpus
	local d
	d=$(quota_cgroup 50000 100000) || skip_unless_works "cannot make a cgroup with a CPU quota here"
	run in_cgroup "$d" env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT "$PINRUN" --cpus "$FIRST,$SECOND" --tell=omp -- nproc
	assert_success
	assert_output "1"
	run --separate-stderr in_cgroup "$d" "$PINRUN" --cpus "$FIRST,$SECOND" --tell=go --explain -n
	assert_output "export GOMAXPROCS=1"
	[[ $stderr == *"pinrun: tell: N = 1: the placement's 2 CPUs, capped by the CPU quota of 50000 us per 100000 us ($d/cpu."*"), rounded up"* ]] || fail "$stderr"
	# 1.5 CPUs of time is 2 threads' worth.
	echo 150000 >"$d/cpu.cfs_quota_us" 2>/dev/null || echo "150000 100000" >"$d/cpu.max"
	run in_cgroup "$d" "$PINRUN" --cpus "$FIRST,$SECOND" --tell=go -n
	assert_output "export GOMAXPROCS=2"
	# A child cgroup without a quota of its own: its parent's caps it.
	echo 50000 >"$d/cpu.cfs_quota_us" 2>/dev/null || echo "50000 100000" >"$d/cpu.max"
	mkdir "$d/child" && echo "$d/child" >>"$BATS_TEST_TMPDIR/cgroups"
	run in_cgroup "$d/child" "$PINRUN" --cpus "$FIRST,$SECOND" --tell=go -n
	assert_output "export GOMAXPROCS=1"
	run --separate-stderr in_cgroup "$d/child" "$PINRUN" --cpus "$FIRST,$SECOND" --tell=go --json
	[[ $output == *'"quota":{"quota_us":50000,"period_us":100000,"file":"'"$d"'/cpu.'*'","capped":true}'* ]] || fail "$output"
}

@test "--tell: Java's active processor count" {
	# A JVM is not in scripts/install-deps: skipped where there is none.
	command -v java >/dev/null || skip "java is not installed (not in scripts/install-deps)"
	needs_two_cpus
	run env -u JAVA_TOOL_OPTIONS "$PINRUN" --cpus 1 --tell=java -- java -XX:+PrintFlagsFinal -version
	assert_success
	assert_line --regexp '^ +int ActiveProcessorCount += 1 '
}

@test "--tell: a Go program's GOMAXPROCS is the placement capped by the cgroup's quota" {
	# Debian 12's Go (1.19) sizes GOMAXPROCS from the affinity alone: in a
	# cgroup allowed one CPU's worth it still says 2, and with --tell 1.
	needs_program go -- "scripts/install-deps --ci installs golang-go"
	needs_two_cpus
	local d
	printf '%s\n' 'package main' 'import ("fmt"; "runtime")' \
		'func main() { fmt.Println(runtime.GOMAXPROCS(0)) }' >"$BATS_TEST_TMPDIR/p.go"
	(cd "$BATS_TEST_TMPDIR" && HOME=$BATS_TEST_TMPDIR GOCACHE=$BATS_TEST_TMPDIR/gocache go build -o p p.go)
	run env -u GOMAXPROCS "$PINRUN" --cpus "$FIRST,$SECOND" -- "$BATS_TEST_TMPDIR/p"
	assert_success
	assert_output "2"
	run env -u GOMAXPROCS "$PINRUN" --cpus "$FIRST" --tell=go -- "$BATS_TEST_TMPDIR/p"
	assert_success
	assert_output "1"
	d=$(quota_cgroup 100000 100000) || skip_unless_works "cannot make a cgroup with a CPU quota here"
	run in_cgroup "$d" env -u GOMAXPROCS "$PINRUN" --cpus "$FIRST,$SECOND" -- "$BATS_TEST_TMPDIR/p"
	assert_success
	assert_output "2"
	run in_cgroup "$d" env -u GOMAXPROCS "$PINRUN" --cpus "$FIRST,$SECOND" --tell=go -- "$BATS_TEST_TMPDIR/p"
	assert_success
	assert_output "1"
}

@test "--tell: the Erlang VM's schedulers are the placement capped by the cgroup's quota (ERL_AFLAGS)" {
	# Debian 12's Erlang (OTP 25) counts its mask, not a CPU quota.
	needs_program erl -- "scripts/install-deps --ci installs erlang-base"
	needs_two_cpus
	local d e='io:format("~p~n", [erlang:system_info(schedulers_online)]), halt().'
	d=$(quota_cgroup 100000 100000) || skip_unless_works "cannot make a cgroup with a CPU quota here"
	run in_cgroup "$d" env -u ERL_AFLAGS "$PINRUN" --cpus "$FIRST,$SECOND" -- erl -noshell -eval "$e"
	assert_success
	assert_output 2
	run in_cgroup "$d" env -u ERL_AFLAGS "$PINRUN" --cpus "$FIRST,$SECOND" --tell=erlang -- erl -noshell -eval "$e"
	assert_success
	assert_output 1
	# The user's +S stays.
	run in_cgroup "$d" env ERL_AFLAGS="+S 2:2" "$PINRUN" --cpus "$FIRST,$SECOND" --tell=erlang -- erl -noshell -eval "$e"
	assert_output 2
}

@test "--tell --follow: every process gets the placement's counts, no places" {
	run env -i PATH="$PATH" "$PINRUN" --topology "$E5" --cpus 0-3 --tell=omp,go --follow -n
	assert_success
	assert_output "export OMP_NUM_THREADS=4
export GOMAXPROCS=4"
	needs_two_cpus
	run env -u OMP_NUM_THREADS -u OMP_PLACES -u OMP_PROC_BIND -u GOMAXPROCS "$PINRUN" --cpus 0-1 --tell=omp,go --follow -- \
		sh -c 'sh -c "echo \$OMP_NUM_THREADS \$GOMAXPROCS \${OMP_PLACES:-none}"'
	assert_success
	assert_output "2 2 none"
}

# --- devices told ------------------------------------------------------------

# The GPUs of a topology file as lstopo names them: the bus ids of the PCI
# devices with a CUDA, OpenCL or Level Zero device, an NVML or ROCm SMI
# one, or a DRM render node; one a line.
gpu_busids() {
	awk '
		/<object type="PCIDev"/ { match($0, /pci_busid="[^"]*"/); bus = substr($0, RSTART + 11, RLENGTH - 12) }
		/<object type="OSDev"/ && bus != "" &&
		(/subtype="(CUDA|OpenCL|LevelZero)"/ || /name="(nvml|rsmi|renderD)[0-9]/) { print bus }
	' "$1" | sort -u
}

# The UUID the XML gives the GPU on bus id $2 (NVIDIAUUID or AMDUUID).
gpu_uuid() {
	awk -v want="$2" '
		/<object type="PCIDev"/ { match($0, /pci_busid="[^"]*"/); bus = substr($0, RSTART + 11, RLENGTH - 12) }
		bus == want && /name="(NVIDIA|AMD)UUID"/ { match($0, /value="[^"]*"/); print substr($0, RSTART + 7, RLENGTH - 8); exit }
	' "$1"
}

# --near=gpu --share i/n on every recorded topology: each rank's GPU is
# one lstopo knows, local to the CPUs hwloc-calc gives its bus id; the
# ranks take distinct GPUs (round-robin past their number), in the order
# of the CPUs they are local to; each plans inside its GPU's CPUs, and the
# ranks near the same CPUs split them; --dry-run --tell=gpu names the same
# GPU, by the UUID the XML gives.
@test "--near=gpu --share i/n: a distinct nearest GPU for each rank and its CPUs, = hwloc-calc, every topology" {
	local f n g i bus cpus plan json want uuid checked=0 prev_first first
	for f in "$TOPO"/*.xml; do
		mapfile -t gpus < <(gpu_busids "$f")
		g=${#gpus[@]}
		if [ "$g" -eq 0 ]; then
			bad "--near=gpu: the topology has no GPU (a CUDA, OpenCL or Level Zero device, an NVML or ROCm SMI one, or a DRM render node)" \
				--topology "$f" --near=gpu --share 1/2 -n
			continue
		fi
		for n in "$g" $((g + 1)); do
			declare -A seen=() used=()
			prev_first=-1
			for ((i = 1; i <= n; i++)); do
				json=$("$PINRUN" --topology "$f" --near=gpu --share "$i/$n" --json) || fail "$(basename "$f") $i/$n: $json"
				bus=$(sed -n 's/.*"near":{[^}]*"pci":"\([^"]*\)".*/\1/p' <<<"$json")
				cpus=$(sed -n 's/.*"near":{[^}]*"cpus":"\([^"]*\)".*/\1/p' <<<"$json")
				plan=$(sed -n 's/^{"policy":"near","reason":"[a-z]*","cpus":"\([^"]*\)".*/\1/p' <<<"$json")
				[[ " ${gpus[*]} " == *" $bus "* ]] || fail "$(basename "$f") $i/$n: GPU '$bus' is not one of ${gpus[*]}"
				want=$(ref_pus "$f" "pci=$bus")
				[ "$(expand "$cpus")" = "$want" ] || fail "$(basename "$f") $i/$n: $bus near $cpus, hwloc-calc $want"
				# The plan is inside the GPU's CPUs.
				for c in $(expand "$plan" | tr ',' ' '); do
					[[ ,$want, == *",$c,"* ]] || fail "$(basename "$f") $i/$n: CPU $c is not near $bus ($want)"
					[ -z "${used[$c]:-}" ] || fail "$(basename "$f") $i/$n: CPU $c is rank ${used[$c]}'s too"
					used[$c]=$i
				done
				# Distinct GPUs up to their number, then round-robin.
				if [ "$i" -le "$g" ]; then
					[ -z "${seen[$bus]:-}" ] || fail "$(basename "$f") $i/$n: $bus is rank ${seen[$bus]}'s too"
					seen[$bus]=$i
					first=$(cut -d, -f1 <<<"$want")
					[ "$first" -ge "$prev_first" ] || fail "$(basename "$f") $i/$n: $bus (CPU $first) after CPU $prev_first: not in topology order"
					prev_first=$first
				else
					[ "${seen[$bus]:-}" = $((i - g)) ] || fail "$(basename "$f") $i/$n: $bus, want rank $((i - g))'s GPU"
				fi
				# The variables name the same GPU.
				uuid=$(gpu_uuid "$f" "$bus")
				run env -i "$PINRUN" --topology "$f" --near=gpu --share "$i/$n" --tell=gpu -n
				assert_success
				case $uuid in
				GPU-*) assert_output "export CUDA_VISIBLE_DEVICES=$uuid" ;;
				?*) assert_output "export ROCR_VISIBLE_DEVICES=GPU-$uuid" ;;
				*) assert_output "" ;;
				esac
				checked=$((checked + 1))
			done
			unset seen used
		done
	done
	[ "$checked" -ge 40 ] || fail "only $checked ranks checked"
}

@test "--near=gpu: more ranks than GPUs share them round-robin, and --explain says so" {
	local f=$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml
	run --separate-stderr "$PINRUN" --topology "$f" --near=gpu --share 6/6 --hot --explain -n
	assert_success
	assert_output "68"
	[[ $stderr == *"pinrun: near gpu: rank 5 of 6 takes cuda1, GPU 2 of the 4 in topology order (by the CPUs they are local to): pci=0004:05:00.0 (3D)"$'\n'* ]] || fail "$stderr"
	[[ $stderr == *"pinrun: near gpu: the 6 ranks outnumber the 4 GPUs: they take them round-robin, so rank 5 shares cuda1 with rank 1"$'\n'* ]] || fail "$stderr"
	[[ $stderr == *"pinrun: near gpu: 4 ranks have GPUs local to these CPUs: rank 5 takes part 4 of them, CPUs 68-87"$'\n'* ]] || fail "$stderr"
	run "$PINRUN" --topology "$f" --near=gpu --share 6/6 --json
	[[ $output == *'"gpu":{"name":"cuda1","rank":5,"ranks":6,"gpus":4,"shared":true}'* ]] || fail "$output"
	# Alone, the first GPU and every CPU near it.
	run "$PINRUN" --topology "$f" --near=gpu -n
	assert_output "8-87"
}

@test "--near=GPU --tell: the program sees that GPU alone; a NIC's names for UCX and NCCL" {
	run env -i "$PINRUN" --topology "$E5" --near=cuda1 --tell=gpu -n
	assert_output "export CUDA_VISIBLE_DEVICES=GPU-fa7cef9c-220f-b6d7-1bb6-ea1e99d3ad0a"
	run env -i "$PINRUN" --topology "$E5" --near=nvml0 --tell=gpu -n
	assert_output "export CUDA_VISIBLE_DEVICES=GPU-affad486-897e-9778-18e8-26a7127927a8"
	run env -i "$PINRUN" --topology "$TOPO/1pkg-4numa-amd-epyc7a53-nps4-8l3-64c128pu.xml" --near=rsmi0 --tell=gpu -n
	assert_output "export ROCR_VISIBLE_DEVICES=GPU-4a7c19da329a2b8c"
	run env -i "$PINRUN" --topology "$E5" --near=mlx5_0 --tell=gpu -n
	assert_output "export UCX_NET_DEVICES=mlx5_0:1
export NCCL_IB_HCA==mlx5_0"
	run env -i "$PINRUN" --topology "$E5" --near=enp12s0f0 --tell=gpu -n
	assert_output "export UCX_NET_DEVICES=enp12s0f0
export NCCL_SOCKET_IFNAME==enp12s0f0"
	# The user's choice stays; CUDA_DEVICE_ORDER is never set.
	run env -i CUDA_VISIBLE_DEVICES=0 "$PINRUN" --topology "$E5" --near=cuda1 --tell -n
	refute_line --partial "CUDA_VISIBLE_DEVICES"
	refute_line --partial "CUDA_DEVICE_ORDER"
	# Without --near, the gpu family has nothing to say.
	run env -i "$PINRUN" --topology "$E5" --hot --tell=gpu -n
	assert_output ""
}

@test "--near=gpu --emit=srun: each task near its own GPU" {
	local f=$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml
	run "$PINRUN" --topology "$f" --near=gpu --share 1/4 --hot --emit=srun
	assert_output "--cpu-bind=map_cpu:8,48,96,136"
}
