#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# Bash completion (completion/pinrun.bash), in a real bash without
# bash-completion: options without those that conflict with or repeat one
# given, the machine's CPUs, object types and indexes for the location
# options, process and thread ids, and the command's own completion.

load lib/test_helper

setup() {
	E5=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
	P9=$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
}

teardown() {
	kill_background
}

@test "completion: registered for pinrun" {
	run bash --norc --noprofile -c 'source "$1" && complete -p pinrun' _ "$REPO/completion/pinrun.bash"
	assert_success
	assert_output "complete -F _pinrun pinrun"
}

@test "completion: options, policies with and without a value" {
	run complete_line "$PINRUN --sa"
	assert_output "--same-chip
--same-chip=
--same-numa
--same-numa=
--same-cache
--same-cache="
	run complete_line "$PINRUN --ti"
	assert_output "--tid"
	run complete_line "$PINRUN --ph"
	assert_output "--physical"
}

@test "completion: nothing that conflicts with what is given, nothing twice" {
	# After a policy: no other policy, no --show.
	run complete_line "$PINRUN --hot --s"
	assert_output "--smt
--share"
	# --cpus rules out --smt and --no-smt; --smt rules out --no-smt.
	run complete_line "$PINRUN --cpus 1 --s"
	assert_output "--share"
	run complete_line "$PINRUN --spread --smt --no"
	assert_output "--no-cache"
	# --pid rules out --tid, --follow and its options, --mem, --topology.
	run complete_line "$PINRUN --hot --pid 1 --t"
	assert_output ""
	run complete_line "$PINRUN --hot --t"
	assert_output "--tell
--tell=
--topology
--threads
--tid"
	run complete_line "$PINRUN --hot --pid 1 --f"
	assert_output ""
	run complete_line "$PINRUN --hot --f"
	assert_output "--follow
--follow="
	run complete_line "$PINRUN --hot -"
	assert_line "-f"
	# --spread has no index for --physical; --show takes only --json.
	run complete_line "$PINRUN --spread --ph"
	assert_output ""
	run complete_line "$PINRUN --show -"
	assert_output "--json
--pid"
	run complete_line "$PINRUN --show --json --pid 1 -"
	assert_output ""
	# Short forms count: -n is --dry-run.
	run complete_line "$PINRUN --hot -n --dr"
	assert_output ""
}

@test "completion: --cpus offers the machine's CPUs, types and indexes" {
	run complete_line "$PINRUN --topology $E5 --cpus 7"
	assert_output "7
70
71"
	run complete_line "$PINRUN --topology $E5 --cpus pa"
	assert_output "package:"
	run complete_line "$PINRUN --topology $E5 --cpus "
	assert_output "package:
numa:
l3:
core:
pu:
all"
	run complete_line "$PINRUN --topology $E5 --cpus package:"
	assert_output "0
1
all
odd
even"
	# Inside a package: its 18 cores.
	run complete_line "$PINRUN --topology $E5 --cpus package:1.core:1"
	assert_output "1
10
11
12
13
14
15
16
17"
	run complete_line "$PINRUN --topology $E5 --cpus package:1.p"
	assert_output "1.package:
1.pu:"
}

@test "completion: --hot=, --same-*= and --spread= values from the machine" {
	run complete_line "$PINRUN --topology $E5 --hot="
	assert_output "package:
numa:
l3:
core:
pu:
all
current
idle"
	run complete_line "$PINRUN --topology $E5 --hot=i"
	assert_output "idle"
	run complete_line "$PINRUN --topology $P9 --same-numa="
	assert_output "current
idle
0
1"
	# With --physical, the OS numbers of the nodes.
	run complete_line "$PINRUN --topology $P9 --physical --same-numa="
	assert_output "current
idle
0
8"
	run complete_line "$PINRUN --topology $E5 --same-chip="
	assert_output "current
idle
0
1"
	run complete_line "$PINRUN --topology $E5 --spread=3"
	assert_output "3
30
31
32
33
34
35
36"
}

@test "completion: --pid offers processes, --tid threads" {
	sleep 60 &
	BG=$!
	run complete_line "$PINRUN --hot --pid $BG"
	assert_line "$BG"
	run complete_line "$PINRUN --hot --tid $BG"
	assert_line "$BG"
	run complete_line "$PINRUN --show $BG"
	assert_line "$BG"
}

@test "completion: the command after pinrun gets its own completion" {
	local script=$BATS_TEST_TMPDIR/fake.bash
	printf '_fake() { COMPREPLY=("fake:$COMP_CWORD:$2"); }\ncomplete -F _fake fakecmd\n' >"$script"
	run complete_line "$PINRUN --hot -- fakecmd --x" "$script"
	assert_output "fake:1:--x"
	run complete_line "$PINRUN --spread=2 fakecmd a --y" "$script"
	assert_output "fake:2:--y"
	# pinrun-compare's own, where this tree has it.
	if [ -f "$REPO/completion/pinrun-compare.bash" ]; then
		run complete_line "$PINRUN --hot -- pinrun-compare --ru" "$REPO/completion/pinrun-compare.bash"
		assert_output "--runs"
	fi
}

@test "completion: --emit= offers the formats --help lists; --emit rules out --json" {
	run complete_line "$PINRUN --hot --emit="
	assert_output "taskset
numactl
hwloc
systemd
docker
srun
openmp
likwid"
	run complete_line "$PINRUN --hot --emit=s"
	assert_output "systemd
srun"
	run complete_line "$PINRUN --hot --emit=srun --j"
	assert_output ""
	run complete_line "$PINRUN --hot --json --em"
	assert_output ""
	run complete_line "$PINRUN --hot --em"
	assert_output "--emit="
}

@test "completion: --tell= offers the families pinrun names, after a comma too" {
	run complete_line "$PINRUN --hot --tell="
	want=$(printf '%s\n' omp blas go java rust build gpu python erlang tools view all)
	assert_output "$want"
	# The same families as pinrun's own refusal lists.
	run --separate-stderr "$PINRUN" --hot --tell=x -n
	[[ $stderr == *"is none of omp, blas, go, java, rust, build, gpu, python, erlang, tools, view or all"* ]] || fail "$stderr"
	run complete_line "$PINRUN --hot --tell=omp,g"
	assert_output "omp,go
omp,gpu"
	run complete_line "$PINRUN --hot --tell=omp,go,"
	refute_line "omp,go,omp"
	assert_line "omp,go,blas"
	run complete_line "$PINRUN --hot --te"
	assert_output "--tell
--tell="
	run complete_line "$PINRUN --hot --tell --em"
	assert_output ""
}
