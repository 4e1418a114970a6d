#!/usr/bin/env bats
# The placement told to others: --emit=FORMAT (the plan in another tool's
# words), checked against hwloc-calc on every recorded topology and fed to
# the real tools where they are installed (taskset, numactl, hwloc-bind,
# libgomp, srun on a one-node Slurm).

load test_helper
load reference

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
}

need_two_cpus() {
	local allowed
	allowed=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)
	[ "$allowed" = 0-1 ] || [ "$(expand "$allowed" | tr ',' '\n' | wc -l)" -ge 2 ] ||
		skip_unless_works "needs 2 CPUs"
}

need_omp() {
	[ -x "$OMP" ] || skip_unless_works "gcc -fopenmp failed: $(head -n 1 "$BATS_FILE_TMPDIR/omp.log")"
}

# The CPUs this process may run on, as the kernel says.
cpus_of() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$1/status"; }

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
	need_two_cpus
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
	need_two_cpus
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
	need_two_cpus
	# shellcheck disable=SC2046
	run likwid-pin -q $("$PINRUN" --cpus 1 --emit=likwid) cat /proc/self/status
	assert_success
	assert_line "Cpus_allowed_list:	1"
}

# srun on the one-node Slurm: each task of the step lands where the map
# says. The whole cluster's life is inside the lock, so that no other suite
# runs Slurm meanwhile.
@test "--emit=srun: srun binds each task of the step to its part" {
	need_two_cpus
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
		"$repo/scripts/cluster" start "$dir" >"$dir.log" 2>&1 3>&- &
		keeper=$!
		trap "\"$repo/scripts/cluster\" stop \"$dir\"; wait $keeper; rm -f \"$dir.log\"" EXIT
		"$repo/scripts/cluster" wait "$dir" || { tail -n 3 "$dir.log"; exit 4; }
		SLURM_CONF=$dir/slurm.conf timeout 60 srun -n 2 --label "$bind" \
			sh -c "sed -n \"s/^Cpus_allowed_list:[[:space:]]*/cpus /p\" /proc/self/status" </dev/null
	' _ "$BATS_TEST_DIRNAME/.." "$bind"
	[ "$status" -eq 0 ] || fail "exit $status: $output"
	assert_line "0: cpus 0"
	assert_line "1: cpus 1"
}
