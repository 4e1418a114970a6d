#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# Every fuzz input kept in the repository (fuzz/corpus/ seeds and
# fuzz/regressions/ crashes), replayed through the built pinrun: whatever
# the input, pinrun plans (exit 0) or refuses it (exit 125, nothing on
# stdout, one "pinrun: " line on stderr); it never crashes or hangs. The
# topologies go through --topology and through hwloc's own variables
# (HWLOC_SYNTHETIC, HWLOC_XMLFILE), which pinrun loads the same guarded way.
# scripts/fuzz runs the harnesses themselves (here only --link-check: each
# built with the plain compiler, as it would be without libFuzzer, and run
# on its seeds); fuzz/README.md says how the inputs are laid out.

load lib/test_helper

setup() {
	FUZZ=$REPO/fuzz
	export XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache
	unset PINRUN_NO_CACHE HWLOC_XMLFILE HWLOC_SYNTHETIC HWLOC_FSROOT
	# Groups at two levels; NUMA nodes sharing an object (DDR and
	# MCDRAM); a regular synthetic machine with NUMA nodes and L3s.
	S390=$TOPO/8pkg-1numa-ibm-s390x-drawers-books-20c20pu.xml
	KNL=$TOPO/1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu.xml
	SYN="pack:2 numa:2 l3:2 core:2 pu:2"
	# Relative descriptions must not name files of the source tree.
	cd "$BATS_TEST_TMPDIR" || return
	problems=()
}

# The inputs of one harness: its seeds, then its regressions.
inputs() {
	local f
	for f in "$FUZZ/corpus/$1"/* "$FUZZ/regressions/$1"/*; do
		[ -f "$f" ] && printf '%s\n' "$f"
	done
}

# survives WHAT ARGS...: pinrun ARGS exits 0, or 125 with nothing on stdout
# and one line on stderr, "pinrun: ...", within 20 seconds (every input
# here takes well under one). An input holding a newline is quoted with
# it escaped: still one line. A failure is added to
# problems, so that one input does not hide the others; a hang returns 1,
# so that the caller skips that input's other runs.
survives() {
	local what=${1#"$FUZZ"/}
	shift
	run --separate-stderr timeout 20 "$PINRUN" "$@"
	case $status in
	0) return 0 ;;
	125) ;;
	124)
		problems+=("$what: pinrun $* still ran after 20 seconds")
		return 1
		;;
	*)
		problems+=("$what: exit status $status from pinrun $*${stderr:+: $stderr}")
		return 0
		;;
	esac
	if [ -n "$output" ]; then
		problems+=("$what: exit 125 with output on stdout: $output")
	elif [[ "${stderr_lines[0]:-}" != "pinrun: "* ]]; then
		problems+=("$what: stderr does not start with 'pinrun: ': $stderr")
	elif [ "${#stderr_lines[@]}" -ne 1 ]; then
		problems+=("$what: stderr has ${#stderr_lines[@]} lines: $stderr")
	fi
}

no_problems() {
	[ ${#problems[@]} -eq 0 ] || fail "$(printf '%s\n' "${problems[@]}")"
}

# read_input VAR FILE FROM: VAR is the input as the harness reads it, from
# byte FROM of FILE up to the first NUL (newlines kept).
read_input() {
	# read -d '' ends at the end of the input, and says 1 there: no error.
	IFS= read -r -d '' "$1" < <(tail -c +"$3" "$2") || [ $? -eq 1 ]
}

# The source a topology input names by its first byte (fuzz_topology.c):
# 1 synthetic, 2 XML, 3 or 0 a cache file; none for an empty file.
mode_of() {
	local b
	b=$(head -c 1 "$1" | od -An -tu1)
	b=${b//[[:space:]]/}
	[ -n "$b" ] && echo $((b % 4))
}

@test "fuzz inputs: the harnesses have seeds" {
	[ "$(inputs cpuspec | wc -l)" -gt 50 ]
	[ "$(inputs topology | wc -l)" -gt 20 ]
}

@test "fuzz inputs: every CPU spec through --cpus and --hot" {
	local f spec t files
	mapfile -t files < <(inputs cpuspec)
	for f in "${files[@]}"; do
		read_input spec "$f" 1
		for t in "$S390" "$KNL" "$SYN"; do
			survives "$f" --cpus="$spec" -n --topology "$t" || break
		done
		# (a hang is recorded in problems; the next input)
		survives "$f" --hot="$spec" -n --topology "$SYN" || continue
	done
	no_problems
}

@test "fuzz inputs: every synthetic description and XML file as --topology" {
	local f p src files
	mapfile -t files < <(inputs topology)
	for f in "${files[@]}"; do
		case $(mode_of "$f") in
		1) read_input src "$f" 2 ;;
		2)
			src=$BATS_TEST_TMPDIR/topology.xml
			tail -c +2 "$f" >"$src"
			;;
		*) continue ;;
		esac
		for p in "--spread --json" "--same-chip --no-smt" "--cpus all"; do
			# shellcheck disable=SC2086 # the policy's words
			survives "$f" --topology "$src" $p -n || break
		done
	done
	no_problems
}

@test "fuzz inputs: every synthetic description and XML file as HWLOC_SYNTHETIC or HWLOC_XMLFILE" {
	local f p var src files
	mapfile -t files < <(inputs topology)
	for f in "${files[@]}"; do
		case $(mode_of "$f") in
		1)
			var=HWLOC_SYNTHETIC
			read_input src "$f" 2
			;;
		2)
			var=HWLOC_XMLFILE
			src=$BATS_TEST_TMPDIR/topology.xml
			tail -c +2 "$f" >"$src"
			;;
		*) continue ;;
		esac
		for p in "--spread --json" "--cpus all"; do
			if [ "$var" = HWLOC_SYNTHETIC ]; then
				# shellcheck disable=SC2086 # the policy's words
				HWLOC_SYNTHETIC=$src survives "$f" $p -n || break
			else
				# shellcheck disable=SC2086 # the policy's words
				HWLOC_XMLFILE=$src survives "$f" $p -n || break
			fi
		done
	done
	no_problems
}

@test "fuzz inputs: every cache file, under pinrun's own key" {
	local f p real files syn="pack:2 core:2 pu:2"
	"$PINRUN" --topology "$syn" --hot -n >/dev/null
	real=$(echo "$XDG_CACHE_HOME"/pinrun/*.topo)
	[ -f "$real" ]
	cp "$real" "$BATS_TEST_TMPDIR/key.topo"
	mapfile -t files < <(inputs topology)
	for f in "${files[@]}"; do
		case $(mode_of "$f") in
		0 | 3) ;;
		*) continue ;;
		esac
		for p in "--spread --json" "--same-numa --no-smt" "--cpus all"; do
			# A miss stores a fresh file: put the input back each time.
			"$FUZZ/cache-file" "$f" "$BATS_TEST_TMPDIR/key.topo" >"$real"
			# shellcheck disable=SC2086 # the policy's words
			survives "$f" --topology "$syn" $p -n || break
		done
	done
	no_problems
}

@test "fuzz harnesses: each links without libFuzzer and passes its seeds" {
	local h expected=()
	for h in cpuspec env topology; do
		expected+=("fuzz_$h: $(inputs "$h" | grep -c /corpus/) seeds")
	done
	PINRUN_FUZZ_DIR=$BATS_TEST_TMPDIR/fuzz run --separate-stderr \
		"$REPO/scripts/fuzz" --link-check
	[ "$status" -eq 0 ] || fail "exit status $status: $stderr"
	assert_equal "$output" "$(printf '%s\n' "${expected[@]}")"
}
