#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# Every input that can be wrong: exit 125, nothing on stdout, and one line
# "pinrun: ..." on stderr naming the bad input (usage errors add the
# "Try 'pinrun --help'" hint). Planning runs on a fixed topology so the
# messages do not depend on the machine running the tests.

load lib/test_helper

setup() {
	E5=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
	KNL=$TOPO/1pkg-8numa-intel-knl7250-snc4-flat-mcdram-68c272pu.xml
	CG=$TOPO/4pkg-8numa-amd-opteron6134-cgroup2-disallowed-6of32pu.xml
	P9=$TOPO/2pkg-2numa-ibm-power9-smt4-offline-noncontig-40c160pu.xml
	S390=$TOPO/8pkg-1numa-ibm-s390x-drawers-books-20c20pu.xml
}

# CPU lists
@test "bad list: missing end of range" { bad "invalid CPU list '0-': missing end of range" --cpus 0- -n --topology "$E5"; }
@test "bad list: empty" { bad "invalid CPU list '': empty" --cpus '' -n --topology "$E5"; }
@test "bad list: empty item" { bad "invalid CPU list '1,,2': empty item" --cpus 1,,2 -n --topology "$E5"; }
@test "bad list: leading comma" { bad "invalid CPU list ',1': empty item" --cpus ,1 -n --topology "$E5"; }
@test "bad list: trailing comma" { bad "invalid CPU list '1,2,': trailing comma" --cpus 1,2, -n --topology "$E5"; }
@test "bad list: reversed range" { bad "invalid CPU list '3-1': range 3-1 is reversed" --cpus 3-1 -n --topology "$E5"; }
@test "bad list: zero stride" { bad "invalid CPU list '0-7:0': stride 0" --cpus 0-7:0 -n --topology "$E5"; }
@test "bad list: missing stride" { bad "invalid CPU list '0-7:': missing stride after ':'" --cpus 0-7: -n --topology "$E5"; }
@test "bad list: stride without range" { bad "invalid CPU list '3:2': a stride needs a range (N-M:S)" --cpus 3:2 -n --topology "$E5"; }
@test "bad list: letter" { bad "invalid CPU list '1g': unexpected 'g'" --cpus 1g -n --topology "$E5"; }
@test "bad list: space after a comma" { bad "invalid CPU list '1,' in '1, 2': trailing comma" --cpus '1, 2' -n --topology "$E5"; }
@test "bad list: missing start" { bad "invalid CPU list '-3': missing start of range" --cpus -3 -n --topology "$E5"; }
@test "bad list: three-part range" { bad "invalid CPU list '1-2-3': unexpected '-'" --cpus 1-2-3 -n --topology "$E5"; }
@test "bad list: number too large" { bad "invalid CPU list '99999999999': CPU 99999999999 is too large (the limit is 8191)" --cpus 99999999999 -n --topology "$E5"; }
@test "bad list: just past the limit" { bad "invalid CPU list '0,8192': CPU 8192 is too large (the limit is 8191)" --cpus 0,8192 -n --topology "$E5"; }

# CPUs that do not exist, are offline, or are not allowed
@test "bad cpu: does not exist" { bad "CPU 72 does not exist (the topology has CPUs 0-71)" --cpus 0,72 -n --topology "$E5"; }
@test "bad cpu: offline in the topology" { bad "CPU 0 is offline or disallowed in the topology (usable: 8-87,96-175)" --cpus 0-9 -n --topology "$P9"; }
@test "bad cpu: disallowed by the cgroup in the topology" { bad "CPU 7 is offline or disallowed in the topology (usable: 0-5)" --cpus 7 -n --topology "$CG"; }
@test "bad cpu: beyond the machine in a mask" { bad "CPU 72 does not exist (the topology has CPUs 0-71)" --cpus 0x00000100,00000000,00000000 -n --topology "$E5"; }

# CPU masks
@test "bad mask: no digits" { bad "invalid CPU mask '0x': no hex digits after 0x" --cpus 0x -n --topology "$E5"; }
@test "bad mask: not hex" { bad "invalid CPU mask '0xfg': 'g' is not a hex digit" --cpus 0xfg -n --topology "$E5"; }
@test "bad mask: empty word" { bad "invalid CPU mask '0x1,,2': empty 32-bit word" --cpus 0x1,,2 -n --topology "$E5"; }
@test "bad mask: trailing comma" { bad "invalid CPU mask '0x1,': empty 32-bit word" --cpus 0x1, -n --topology "$E5"; }
@test "bad mask: long word" { bad "invalid CPU mask '0x1,123456789': a comma-separated word has more than 8 digits" --cpus 0x1,123456789 -n --topology "$E5"; }
@test "bad mask: zero" { bad "invalid CPU mask '0x0': no CPU set" --cpus 0x0 -n --topology "$E5"; }

# Locations
@test "bad location: unknown type" { bad "invalid location 'foo:1': unknown object type 'foo'" --cpus foo:1 -n --topology "$E5"; }
@test "bad location: no index" { bad "invalid location 'core': 'core' needs an index, as in 'core:0'" --cpus core -n --topology "$E5"; }
@test "bad location: no such object" { bad "invalid location 'core:36': the machine has no core 36 (it has 36)" --cpus core:36 -n --topology "$E5"; }
@test "bad location: no such object inside" { bad "invalid location 'package:1.core:18': package:1 has no core 18 (it has 18)" --cpus package:1.core:18 -n --topology "$E5"; }
@test "bad location: reversed range" { bad "invalid location 'core:3-1': range 'core:3-1' is reversed" --cpus core:3-1 -n --topology "$E5"; }
@test "bad location: bad index" { bad "invalid location 'core:x': invalid index 'core:x'" --cpus core:x -n --topology "$E5"; }
@test "bad location: a step up to an object that does not hold it" { bad "invalid location 'core:0.package:1': core:0 has no package 1 (it has 1)" --cpus core:0.package:1 -n --topology "$E5"; }
@test "bad location: empty step" { bad "invalid location 'package:0.': empty step" --cpus package:0. -n --topology "$E5"; }
@test "bad location: missing level" { bad "invalid location 'l3:0': this topology has no l3 level" --cpus l3:0 -n --topology "$KNL"; }
@test "bad location: ambiguous group level" { bad "invalid location 'group:0': there are 2 group levels, name one as group0..group1" --cpus group:0 -n --topology "$S390"; }
@test "bad location: package without usable CPUs" { bad "location 'package:1' has no online CPU that the cgroup allows" --cpus package:1 -n --topology "$CG"; }
@test "bad location: numa node without usable CPUs, inside a package" { bad "location 'package:1.numa:0' has no online CPU that the cgroup allows" --cpus package:1.numa:0 -n --topology "$CG"; }
@test "bad location: range from past the end" { bad "invalid location 'pu:72-': the machine has no pu 72 (it has 72)" --cpus pu:72- -n --topology "$E5"; }
@test "bad location: absurd index" { bad "invalid location 'pu:99999999999999999999': invalid index 'pu:99999999999999999999'" --cpus pu:99999999999999999999 -n --topology "$E5"; }
@test "bad location: ambiguous type prefix" { bad "invalid location 'p:1': unknown object type 'p'" --cpus p:1 -n --topology "$E5"; }

# Policy arguments
@test "bad --hot: several CPUs" { bad "--hot=0-1: '0-1' names 2 CPUs; --hot takes exactly one" --hot=0-1 -n --topology "$E5"; }
@test "bad --hot: unknown word" { bad "invalid location 'foo': unknown object type 'foo'" --hot=foo -n --topology "$E5"; }
@test "bad --same-chip: not a number" { bad_usage "invalid --same-chip value 'abc': expected current, idle or a package number" --same-chip=abc -n --topology "$E5"; }
@test "bad --same-numa: negative" { bad_usage "invalid --same-numa value '-1': expected current, idle or a NUMA node number" --same-numa=-1 -n --topology "$E5"; }
@test "bad --same-chip: no such package" { bad "--same-chip=2: there is no package 2 (the topology has 2)" --same-chip=2 -n --topology "$E5"; }
@test "bad --same-numa: node without usable CPUs" { bad "--same-numa=2: NUMA node 2 has no online CPU that the cgroup allows" --same-numa=2 -n --topology "$CG"; }
@test "bad --same-numa: a number past the nodes" { bad "--same-numa=8192: there is no NUMA node 8192 (the topology has 2)" --same-numa=8192 -n --topology "$E5"; }
@test "bad --same-cache: the current CPU under no L3" {
	run --separate-stderr env HWLOC_THISSYSTEM=1 HWLOC_XMLFILE="$BATS_TEST_DIRNAME/fixtures/l3-on-one-package-only-4pu.xml" taskset -c 1 "$PINRUN" --same-cache -n
	assert_failure 125
	[ "$stderr" = "pinrun: --same-cache: CPU 1, where pinrun runs, is under no L3 cache" ] || fail "$stderr"
	run --separate-stderr env HWLOC_THISSYSTEM=1 HWLOC_XMLFILE="$BATS_TEST_DIRNAME/fixtures/l3-on-one-package-only-4pu.xml" taskset -c 1 "$PINRUN" --same-cache=idle -n
	assert_failure 125
	[ "$stderr" = "pinrun: --same-cache=idle: no L3 cache has a CPU in the allowed set 1" ] || fail "$stderr"
}
@test "bad --same-cache: no L3 level" { bad "--same-cache=0: this topology has no L3 cache level" --same-cache=0 -n --topology "$KNL"; }
@test "bad --spread: zero" { bad_usage "invalid --spread value '0': spread over at least 1 core" --spread=0 -n --topology "$E5"; }
@test "bad --spread: not a number" { bad_usage "invalid --spread value 'x': expected a number of cores" --spread=x -n --topology "$E5"; }
@test "bad --spread: more than the cores" { bad "--spread=37: only 36 cores are allowed" --spread=37 -n --topology "$E5"; }
@test "bad --spread --smt: more than the PUs" { bad "--spread=73: only 72 PUs are allowed" --spread=73 --smt -n --topology "$E5"; }
@test "bad --spread: detached number" { bad_usage "'4' after --spread would be run as the command: write --spread=4" --spread 4 -- true; }
@test "bad --tell, --follow: a detached value is not run as the command" {
	bad_usage "'omp' after --tell would be run as the command: write --tell=omp" --hot --tell omp --dry-run
	bad_usage "'omp,go' after --tell would be run as the command: write --tell=omp,go" --hot --tell omp,go -- true
	bad_usage "'strict' after --follow would be run as the command: write --follow=strict" --hot --follow strict true
	bad_usage "'strict' after -f would be run as the command: write -fstrict" --hot -f strict true
	# After --, the command is what the user said it is.
	run -127 "$PINRUN" --cpus 0 --tell -- omp
	assert_output "pinrun: cannot run 'omp': No such file or directory"
}
@test "bad --mem value" { bad_usage "invalid --mem value 'foo': expected bind, interleave, preferred or local" --hot --mem=foo -- true; }
@test "bad --pid: not a number" { bad_usage "invalid --pid value 'abc': expected a process id" --hot --pid abc; }
@test "bad --pid: zero" { bad_usage "invalid --pid value '0': expected a process id" --hot --pid 0; }
@test "bad --show pid" { bad_usage "invalid pid 'x': expected a process id" --show x; }

# Topology sources
@test "bad topology: missing file" { bad "cannot read topology '/nonexistent/m.xml': No such file or directory" --hot -n --topology /nonexistent/m.xml; }
@test "bad topology: not XML" { bad "cannot read topology '$BATS_TEST_DIRNAME/errors.bats': not an hwloc XML topology" --hot -n --topology "$BATS_TEST_DIRNAME/errors.bats"; }
@test "bad topology: bad synthetic" { bad "cannot read topology 'foo:bar': not a valid synthetic description" --hot -n --topology foo:bar; }
@test "bad topology: a FIFO is not read" {
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	run --separate-stderr timeout 10 "$PINRUN" --hot -n --topology "$BATS_TEST_TMPDIR/fifo"
	assert_failure 125
	[ "$stderr" = "pinrun: cannot read topology '$BATS_TEST_TMPDIR/fifo': not an hwloc XML topology" ]
}
@test "bad topology: two PUs with one CPU number" { bad "cannot read topology '$BATS_TEST_DIRNAME/fixtures/duplicate-pu-numbers-4pu.xml': two of its PUs have the same CPU number" --hot -n --topology "$BATS_TEST_DIRNAME/fixtures/duplicate-pu-numbers-4pu.xml"; }
@test "bad topology: too many CPUs for pinrun" { bad "cannot read topology 'pack:99999999 pu:99999999': too large for pinrun (at most 8192 CPUs, numbered below 8192, and 2048 children per object)" --hot -n --topology "pack:99999999 pu:99999999"; }
@test "bad topology: CPU numbers beyond 8191" { bad "cannot read topology 'pack:2 core:2 pu:1(indexes=0,1,2,9000)': too large for pinrun (at most 8192 CPUs, numbered below 8192, and 2048 children per object)" --hot -n --topology "pack:2 core:2 pu:1(indexes=0,1,2,9000)"; }
@test "bad topology: too many CPUs counted in hex, or in levels without a type" {
	bad "cannot read topology 'pack:1 pu:0x2001': too large for pinrun (at most 8192 CPUs, numbered below 8192, and 2048 children per object)" --hot -n --topology "pack:1 pu:0x2001"
	bad "cannot read topology '2 pu:8192': too large for pinrun (at most 8192 CPUs, numbered below 8192, and 2048 children per object)" --hot -n --topology "2 pu:8192"
	bad "cannot read topology 'pu:4096': too large for pinrun (at most 8192 CPUs, numbered below 8192, and 2048 children per object)" --hot -n --topology "pu:4096"
}
# hwloc reads "02811" as octal 02 then a level of 811, and a level right
# after a count with no space between them (found by fuzzing).
@test "bad topology: too many CPUs in octal counts, or in levels run together" {
	bad "cannot read topology 'pack:02811 9 1': too large for pinrun (at most 8192 CPUs, numbered below 8192, and 2048 children per object)" --hot -n --topology "pack:02811 9 1"
	bad "cannot read topology 'pack:53pu:1000': too large for pinrun (at most 8192 CPUs, numbered below 8192, and 2048 children per object)" --hot -n --topology "pack:53pu:1000"
	HWLOC_SYNTHETIC="02811 9 1" bad "cannot read the topology that HWLOC_SYNTHETIC names ('02811 9 1'): unset the variable, or fix it" --spread -n
	run "$PINRUN" --topology "pack:2pu:4" --spread -n
	assert_success
	assert_output "0-7"
}
# hwloc nests one core inside another when PU indexes repeat (found by
# fuzzing: --spread planned nothing and exited 0).
@test "bad topology: an object inside another of its own type" { bad "cannot read topology 'core:2 pu:2(indexes=2,2,2,0)': it has an object inside another of its own type" --spread -n --topology "core:2 pu:2(indexes=2,2,2,0)"; }
# hwloc would allocate gigabytes for the set of such a CPU number.
@test "bad topology: a huge CPU number in indexes=" { bad "cannot read topology 'pu:2(indexes=0,77777777777)': too large for pinrun (at most 8192 CPUs, numbered below 8192, and 2048 children per object)" --spread -n --topology "pu:2(indexes=0,77777777777)"; }
# A sysfs tree whose files never end: hwloc blocks reading them.
@test "bad topology: a source that hwloc is still reading after 20 seconds" {
	mkdir -p "$BATS_TEST_TMPDIR/fs/sys/devices/system/cpu"
	mkfifo "$BATS_TEST_TMPDIR/fs/sys/devices/system/cpu/online" "$BATS_TEST_TMPDIR/fs/sys/devices/system/cpu/possible"
	bad "cannot read topology '$BATS_TEST_TMPDIR/fs': hwloc was still reading it after 20 seconds" --hot -n --no-cache --topology "$BATS_TEST_TMPDIR/fs"
}
@test "bad topology: an XML that crashes hwloc" {
	tail -c +2 "$REPO/fuzz/regressions/topology/crash-hwloc-xml-bitmap-set" >"$BATS_TEST_TMPDIR/crash.xml"
	bad "cannot read topology '$BATS_TEST_TMPDIR/crash.xml': hwloc crashed reading it" --hot -n --topology "$BATS_TEST_TMPDIR/crash.xml"
}
@test "bad hwloc variable: HWLOC_XMLFILE that cannot be read" { HWLOC_XMLFILE=/nonexistent bad "cannot read the topology that HWLOC_XMLFILE names ('/nonexistent'): unset the variable, or fix it" --spread -n; }
@test "bad hwloc variable: HWLOC_SYNTHETIC that is not one" { HWLOC_SYNTHETIC=garbage bad "cannot read the topology that HWLOC_SYNTHETIC names ('garbage'): unset the variable, or fix it" --spread -n; }
@test "bad hwloc variable: HWLOC_FSROOT without sysfs" { HWLOC_FSROOT=/etc bad "cannot read the topology that HWLOC_FSROOT names ('/etc'): unset the variable, or fix it" --spread -n; }
@test "bad topology: directory without sysfs" { bad "cannot read topology '$BATS_TEST_DIRNAME': not a saved sysfs tree" --hot -n --topology "$BATS_TEST_DIRNAME"; }

# Combinations and usage
@test "bad usage: two policies" { bad_usage "--hot and --spread=2 both given: choose one policy" --hot --spread=2 -n; }
@test "bad usage: one policy twice" { bad_usage "--spread given twice: choose one placement" --spread=4 --spread=2 -n; }
@test "bad usage: --smt with --no-smt" { bad_usage "--smt and --no-smt both given" --spread --smt --no-smt -n; }
@test "bad usage: --cpus with --no-smt" { bad_usage "--cpus places exactly the CPUs given: --no-smt does not apply" --cpus 0 --no-smt -n; }
@test "bad usage: no command" { bad_usage "no command given (use --dry-run to print the placement only)" --hot; }
@test "bad usage: --topology with a command" { bad_usage "--topology is for planning only: add --dry-run, or drop --topology to run the command here" --hot --topology "$E5" -- true; }
@test "bad usage: --pid with a command" { bad_usage "--pid re-places a running process: give no command" --hot --pid 1 -- true; }
@test "bad usage: --pid with --mem" { bad_usage "--mem sets pinrun's own memory policy for the command: it cannot change --pid's" --hot --mem=bind --pid 1; }
@test "bad usage: --show with a policy" { bad_usage "--show takes only a pid (and --json): a policy does not apply" --show --hot; }
@test "bad usage: unknown long option" { bad_usage "unrecognized option '--bogus'" --bogus; }
@test "bad usage: unknown short option" { bad_usage "invalid option -- 'x'" -x; }
@test "bad usage: missing argument" { bad_usage "option '--topology' requires an argument" --hot --topology; }
@test "bad usage: -c without argument" { bad_usage "option requires an argument -- 'c'" -c; }
@test "bad usage: argument to a flag" { bad_usage "option '--smt' doesn't allow an argument" --smt=1 --hot -n; }

# --- hwloc's own variables go through the guarded path ---------------------

@test "bad hwloc variable: HWLOC_XMLFILE naming a file that crashes hwloc" {
	tail -c +2 "$REPO/fuzz/regressions/topology/crash-hwloc-xml-bitmap-set" >"$BATS_TEST_TMPDIR/crash.xml"
	HWLOC_XMLFILE=$BATS_TEST_TMPDIR/crash.xml bad "cannot read the topology that HWLOC_XMLFILE names ('$BATS_TEST_TMPDIR/crash.xml'): hwloc crashed reading it" --spread -n
}
@test "bad hwloc variable: HWLOC_FSROOT with a FIFO that hwloc would read forever" {
	mkdir -p "$BATS_TEST_TMPDIR/fs/sys/devices/system/cpu"
	mkfifo "$BATS_TEST_TMPDIR/fs/sys/devices/system/cpu/online" "$BATS_TEST_TMPDIR/fs/sys/devices/system/cpu/possible"
	HWLOC_FSROOT=$BATS_TEST_TMPDIR/fs bad "cannot read the topology that HWLOC_FSROOT names ('$BATS_TEST_TMPDIR/fs'): hwloc was still reading it after 20 seconds" --spread -n
}
@test "bad hwloc variable: HWLOC_XMLFILE naming a FIFO" {
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	HWLOC_XMLFILE=$BATS_TEST_TMPDIR/fifo bad "cannot read the topology that HWLOC_XMLFILE names ('$BATS_TEST_TMPDIR/fifo'): unset the variable, or fix it" --spread -n
}

# --- one line, always ---------------------------------------------------------

@test "a control character in the input is escaped: the error stays one line" {
	bad $'invalid CPU list \'1,\\x0a2\': unexpected \'\\x0a\'' --cpus $'1,\n2' -n
	bad $'invalid location \'core:0\\x1b[2J\': invalid index \'core:0\\x1b[2J\'' --cpus $'core:0\e[2J' -n
}
@test "a huge input is cut with an ellipsis" {
	local big
	big=$(printf '1%.0s' $(seq 100000))
	run --separate-stderr "$PINRUN" --cpus "${big}x" -n
	assert_failure 125
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "${#stderr_lines[@]} lines"
	[ "${#stderr}" -lt 600 ] || fail "${#stderr} bytes"
	[[ "$stderr" == "pinrun: invalid CPU list '111"*"...': CPU 111"*"... is too large (the limit is 8191)" ]] || fail "$stderr"
}

# --- options that would be ignored are errors --------------------------------

@test "bad usage: --show with --follow, --share or --kind" {
	bad_usage "--show takes only a pid (and --json): --follow does not apply" --show --follow
	bad_usage "--show takes only a pid (and --json): --share does not apply" --show --share 1/2
	bad_usage "--show takes only a pid (and --json): --kind does not apply" --show --kind=fast
	bad_usage "--show takes one pid: after its options or with --pid, not both" --show --pid 1 1
}
@test "bad usage: a value option given twice" {
	bad_usage "--pid given twice" --hot --pid 1 --pid 2
	bad_usage "--topology given twice" --hot -n --topology a --topology b
	bad_usage "--share given twice" --hot -n --share 1/2 --share 2/2
	bad_usage "--mem given twice" --hot -n --mem=bind --mem=local
	bad_usage "--kind given twice" --hot -n --kind=fast --kind=slow
}

@test "--cpus with --share or --kind is checked against the share, not run outside it" {
	load_allowed
	needs_two_cpus
	bad "CPU $FIRST is not in the allowed set $SECOND (use --all to leave the inherited mask)" \
		--share 2/2 --cpus "$FIRST" -- true
}

# --- other tools' habits (issue 20): one line naming the word and the fix ----

# bad_usage, and the command given after the habit never ran.
not_run() {
	bad_usage "$@"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ] || fail "the command ran"
}

@test "habit: taskset's list or mask before the command" {
	not_run "'0-3' is a CPU list: did you mean --cpus 0-3?" 0-3 touch "$BATS_TEST_TMPDIR/ran"
	not_run "'0xff' is a CPU mask: did you mean --cpus 0xff?" 0xff touch "$BATS_TEST_TMPDIR/ran"
	not_run "'3' is a CPU list: did you mean --cpus 3? (taskset's mask 3 is --cpus 0x3)" 3 touch "$BATS_TEST_TMPDIR/ran"
}

@test "habit: hwloc-bind's locations before the command" {
	not_run "'core:0' is a location: did you mean --cpus core:0?" core:0 -- touch "$BATS_TEST_TMPDIR/ran"
	not_run "'package:0 ~core:0' are locations: did you mean --cpus 'package:0 ~core:0'?" package:0 ~core:0 -- touch "$BATS_TEST_TMPDIR/ran"
}

@test "habit: an en dash or em dash pasted for --" {
	not_run "'\\u2013' is an en dash (U+2013), not --" --cpus 0 – touch "$BATS_TEST_TMPDIR/ran"
	not_run "'\\u2014' is an em dash (U+2014), not --" --cpus 0 — touch "$BATS_TEST_TMPDIR/ran"
	not_run "'\\u2014dry-run' starts with an em dash (U+2014), not --: type --dry-run" --cpus 0 —dry-run touch "$BATS_TEST_TMPDIR/ran"
	not_run "'\\u2013n' starts with an en dash (U+2013), not --: type -n" --cpus 0 –n touch "$BATS_TEST_TMPDIR/ran"
	not_run "--report took '\\u2014' as its value: it is an em dash (U+2014), not --" --cpus 0 --follow --report — touch "$BATS_TEST_TMPDIR/ran"
}

@test "habit: taskset -p's query, --pid PID without a policy" {
	bad_usage "--pid $$ re-places a process and needs a policy; to see where it may run, use --show $$" --pid $$
	bad_usage "--tid $$ re-places a thread and needs a policy; to see where it may run, use --show $$" --tid $$
}

@test "habit: an option's value that is the next option" {
	not_run "--cpus took '--dry-run' as its value: write --cpus <spec> before it" --cpus --dry-run touch "$BATS_TEST_TMPDIR/ran"
	not_run "-c took '-n' as its value: write -c <spec> before it" -c -n touch "$BATS_TEST_TMPDIR/ran"
	not_run "--report took '--' as its value: write --report <file> before it (./-- for a file of that name)" --cpus 0 --follow --report -- touch "$BATS_TEST_TMPDIR/ran"
	[ ! -e ./-- ] || fail "a file named -- was written"
	bad_usage "--topology took '--spread' as its value: write --topology <src> before it (./--spread for a file of that name)" --topology --spread -n
	bad_usage "--mem took '--dry-run' as its value: write --mem=<mode>[:<nodes>] before it" --hot --mem --dry-run
	# With '=', the value is what the user wrote.
	bad_usage "invalid --mem value '--dry-run': expected bind, interleave, preferred or local" --hot --mem=--dry-run -n
	# A value that starts with '-' and a digit is no option: the list says why.
	bad "invalid CPU list '-3': missing start of range" --cpus -3 -n --topology "$E5"
}

@test "habit: a location the shell split off --cpus's argument is not run" {
	not_run "'~core:0' looks like a location: quote the whole --cpus argument: --cpus 'package:0 ~core:0'" --cpus package:0 ~core:0 touch "$BATS_TEST_TMPDIR/ran"
	# A planning command must not become a run.
	bad_usage "'xcore:0' looks like a location: quote the whole --cpus argument: --cpus 'package:0 xcore:0'" --cpus package:0 xcore:0 --dry-run
	bad_usage "'x core:0-20' looks like a location: quote the whole --cpus argument: --cpus 'package:1 xcore:0-20'" --cpus package:1 x core:0-20 --dry-run
	# After --, the command is what the user said it is.
	run -127 "$PINRUN" --cpus 0 -- ~core:0
}

@test "habit: hwloc's operator with a space inside the argument" {
	bad "invalid location 'package:1 x core:0-20': hwloc's 'x' goes right before its location, without a space; did you mean --cpus 'package:1 xcore:0-20'?" --cpus 'package:1 x core:0-20' -n --topology "$E5"
	bad "invalid location 'package:1 ~ core:0': hwloc's '~' goes right before its location, without a space; did you mean --cpus 'package:1 ~core:0'?" --cpus 'package:1 ~ core:0' -n --topology "$E5"
}

@test "habit: numactl's -C, -N, -m, -i, -l and +N" {
	bad_usage "invalid option -- 'C': numactl's -C 0-3 is --cpus 0-3" -C 0-3 true
	bad_usage "invalid option -- 'C': numactl's -C 0-1 is --cpus 0-1" -C0-1 true
	bad_usage "invalid option -- 'N': numactl's -N 1 is --same-numa=1" -N 1 true
	bad_usage "invalid option -- 'N': numactl's -N 0,1 is --cpus 'numa:0 numa:1'" -N 0,1 true
	bad_usage "invalid option -- 'm': numactl's -m 0 is --mem=bind:0" -m 0 true
	bad_usage "invalid option -- 'i': numactl's -i 0-1 is --mem=interleave:0-1" -i 0-1 true
	bad_usage "invalid option -- 'l': numactl's -l is --mem=local" -l true
	bad_usage "invalid option -- 'C': numactl's -C is --cpus" -C
	# +N counts in the allowed set: on this topology, numa:1's.
	bad "numactl's +0-1 counts in the allowed set: here it is --cpus 18-19" --cpus +0-1 --share 2/2 -n --topology "$E5"
}

@test "habit: numactl's long options keep their nodes; -H and --hardware are --list" {
	bad_usage "unrecognized option '--membind=0'; did you mean --mem=bind:0?" --hot --membind=0
	bad_usage "unrecognized option '--membind'; did you mean --mem=bind:0-1?" --membind 0-1 true
	bad_usage "unrecognized option '--interleave=all'; did you mean --mem=interleave:all?" --interleave=all true
	bad_usage "unrecognized option '--preferred=0'; did you mean --mem=preferred:0?" --preferred=0 true
	bad_usage "unrecognized option '--preferred'; did you mean --mem=preferred:<nodes>?" --preferred
	bad_usage "unrecognized option '--cpunodebind=0'; did you mean --same-numa=0?" --cpunodebind=0 true
	bad_usage "unrecognized option '--cpunodebind=0,2'; did you mean --cpus 'numa:0 numa:2'?" --cpunodebind=0,2 true
	bad_usage "unrecognized option '--cpunodebind'; did you mean --same-numa=<node>?" --cpunodebind
	bad_usage "unrecognized option '--physcpubind=1-2'; did you mean --cpus 1-2?" --physcpubind=1-2 true
	bad_usage "unrecognized option '--localalloc'; did you mean --mem=local?" --localalloc true
	bad_usage "unrecognized option '--hardware'; did you mean --list?" --hardware
	bad_usage "invalid option -- 'H': numactl's -H (--hardware) is --list" -H
	bad_usage "invalid option -- 'p': numactl's -p 1 is --mem=preferred:1" -p 1 ./app
}

@test "habit: taskset's -p and -a, one step to what does it" {
	bad_usage "invalid option -- 'p': taskset's -p 4242 is --show 4242 (to move it: a policy and --pid 4242)" -p 4242
	bad_usage "invalid option -- 'p': taskset's -ap 4242 is --show 4242 (to move it: a policy and --pid 4242)" -ap 4242
	bad_usage "invalid option -- 'p': taskset's -p 3 4242 is --cpus 0x3 --pid 4242" -p 3 4242
	bad_usage "invalid option -- 'p': taskset's -p 0xff 4242 is --cpus 0xff --pid 4242" -p 0xff 4242
	bad_usage "invalid option -- 'p': taskset's -pc 0-3 4242 is --cpus 0-3 --pid 4242" -pc 0-3 4242
	bad_usage "invalid option -- 'p': taskset's -acp 1,3 4242 is --cpus 1,3 --pid 4242" -acp 1,3 4242
	bad_usage "invalid option -- 'a': taskset's -a is what --pid does: it moves every thread of the process (--tid moves one)" -a
	bad_usage "invalid option -- 'p': taskset's -p PID is --show PID, numactl's -p NODE --mem=preferred:NODE (OS indexes are --physical)" -p
	# The answer works as it is.
	run "$PINRUN" --show $$
	assert_success
}

@test "habit: what pinrun leaves to hwloc-calc and likwid-pin is named, numactl's -s is --show" {
	bad_usage "unrecognized option '--restrict'; did you mean taskset -c SET pinrun ... (pinrun plans inside the mask it starts with)?" --restrict 0-3 --spread -n
	bad_usage "unrecognized option '--number-of'; did you mean hwloc-calc --number-of (pinrun's --json has a plan's \"count\")?" --number-of core -n
	bad_usage "unrecognized option '--intersect'; did you mean hwloc-calc --intersect (pinrun's --json has a plan's \"count\")?" --intersect core -n
	bad_usage "invalid option -- 's': likwid-pin's skip mask has no pinrun form: --follow --threads places every thread the command starts, shepherds included (likwid-pin -s 0x1 skips them)" -s 0x1 ./app
	bad_usage "invalid option -- 's': numactl's -s (--show) is --show" -s
	# The restriction, as the hint has it: pinrun plans inside its mask.
	run taskset -c 0 "$PINRUN" --spread -n
	assert_output "0"
}

@test "habit: --same-numa with several nodes" {
	bad_usage "invalid --same-numa value '0,1': expected current, idle or a NUMA node number; several at once are --cpus 'numa:0 numa:1'" --same-numa=0,1 -n
	bad_usage "invalid --same-chip value '0-1': expected current, idle or a package number; several at once are --cpus 'package:0-1'" --same-chip=0-1 -n
}

@test "habit: likwid-pin's domains and expressions, in likwid's order" {
	# E5-2695 v4: 18 cores a package, SMT2; PU 1 of core 0 is CPU 36.
	bad "likwid-pin's S0:0-1 is --cpus 'package:0.core:0-1.pu:0'" --cpus S0:0-1 -n --topology "$E5"
	bad "likwid-pin's N:0-3 is --cpus 'core:0-3.pu:0'" --cpus N:0-3 -n --topology "$E5"
	# Physical cores first: position 18 of S0 is the second PU of core 0.
	bad "likwid-pin's S0:17-18 is --cpus '17,36'" --cpus S0:17-18 -n --topology "$E5"
	bad "likwid-pin's E:N:2 is --cpus 'pu:0-1'" --cpus E:N:2 -n --topology "$E5"
	bad "likwid-pin's E:N:4:1:2 is --cpus '0-3'" --cpus E:N:4:1:2 -n --topology "$E5"
	bad "likwid-pin's M1 is --cpus 'numa:1'" --cpus M1 -n --topology "$E5"
	bad "likwid-pin's S0:0@S1:0 is --cpus 'package:0.core:0.pu:0 package:1.core:0.pu:0'" --cpus S0:0@S1:0 -n --topology "$E5"
	bad "likwid-pin's S1:0 is --hot=package:1.core:0.pu:0" --hot=S1:0 -n --topology "$E5"
	# Without SMT, a core is its PU.
	bad "likwid-pin's S0:0-1 is --cpus 'package:0.core:0-1'" --cpus S0:0-1 -n --topology "package:2 core:4 pu:1"
	# A domain the machine does not have is no likwid domain.
	bad "invalid location 'S2:0': unknown object type 'S2'" --cpus S2:0 -n --topology "$E5"
}

@test "habit: digits alone, which taskset reads as a mask" {
	bad "CPU 72 does not exist (the topology has CPUs 0-71); '72' is read as a CPU list: taskset's mask 72 is --cpus 0x72" --cpus 72 -n --topology "$E5"
	run --separate-stderr "$PINRUN" --cpus 3 -n --explain --topology "$E5"
	assert_success
	assert_output 3
	[[ "$stderr" == *"pinrun: --cpus: '3' read as a CPU list (taskset reads digits alone as a mask: its 3 is --cpus 0x3)"* ]] || fail "$stderr"
}

@test "habit: a mask wider than the machine loses the CPUs beyond, as taskset's does" {
	run --separate-stderr "$PINRUN" --cpus ffffffff -n --explain --topology "package:1 core:2 pu:1"
	assert_success
	assert_output 0-1
	[[ "$stderr" == *"pinrun: --cpus: 'ffffffff' read as a hex mask, as taskset reads it"* ]] || fail "$stderr"
	[[ "$stderr" == *"pinrun: --cpus: CPUs 2-31 of the mask are beyond this machine's and dropped, as taskset drops them"* ]] || fail "$stderr"
	# A CPU missing inside the machine's range is still refused, and so
	# is a mask with nothing inside.
	bad "CPU 72 does not exist (the topology has CPUs 0-71)" --cpus 0x00000100,00000000,00000000 -n --topology "$E5"
}

@test "non-ASCII input is echoed escaped whole: characters and stray bytes" {
	bad "invalid location 'a\\u00e9b': unknown object type 'a'" --cpus "$(printf 'a\xc3\xa9b')" -n --topology "$E5"
	bad "invalid location 'a\\xc3b': unknown object type 'a'" --cpus "$(printf 'a\xc3b')" -n --topology "$E5"
	bad "invalid location 'a\\U0001f600\\xe2\\x80': unknown object type 'a'" --cpus "$(printf 'a\xf0\x9f\x98\x80\xe2\x80')" -n --topology "$E5"
	# Overlong forms and surrogates are no characters.
	bad "invalid location 'a\\xc0\\xafb\\xed\\xa0\\x80': unknown object type 'a'" --cpus "$(printf 'a\xc0\xafb\xed\xa0\x80')" -n --topology "$E5"
}
