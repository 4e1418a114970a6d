#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# The code's shape, checked: the pure modules (Makefile's PURE_OBJS, one
# archive) reach no system call, and the check itself can fail; the
# includes keep the layers docs/design.md names; every constant of a
# header has its module's prefix; no two tests of the suites have one
# name.

load lib/test_helper

pure_objects() {
	make -s -C "$REPO" -f - print-pure <<-'MK'
		include Makefile
		print-pure: ; @echo $(PURE_OBJS)
	MK
}

@test "shape 1: the pure archive calls nothing outside the allow-list" {
	make -s -C "$REPO" pinrun-pure.a
	run "$REPO/scripts/check-purity" "$REPO/pinrun-pure.a"
	assert_success
	assert_output ""
}

@test "shape 2: a pure module made to call getpid() fails the check, named" {
	local d=$BATS_TEST_TMPDIR objs o
	read -ra objs <<<"$(pure_objects)"
	[ "${#objs[@]}" -ge 10 ]
	make -s -C "$REPO" "${objs[@]}"
	for o in "${objs[@]}"; do cp "$REPO/$o" "$d/"; done
	{ cat "$REPO/cpulist.c"; printf '%s\n' '#include <unistd.h>' \
		'int cpulist_probe_pid(void);' \
		'int cpulist_probe_pid(void) { return (int)getpid(); }'; } >"$d/cpulist.c"
	cc -std=gnu11 -D_GNU_SOURCE -I"$REPO" -c -o "$d/cpulist.o" "$d/cpulist.c"
	(cd "$d" && ar rcs pure.a "${objs[@]}")
	run "$REPO/scripts/check-purity" "$d/pure.a"
	assert_failure 1
	assert_output "check-purity: cpulist.o calls 'getpid', which is not on the pure modules' allow-list"
}

@test "shape 3: every module the Makefile calls pure is one design.md calls pure" {
	local o
	for o in $(pure_objects); do
		grep -q "^| .*\`${o%.o}.c\`.* | yes |\$" "$REPO/docs/design.md" ||
			fail "docs/design.md does not call ${o%.o}.c pure"
	done
}

@test "shape 4: every module design.md calls pure is in the checked archive" {
	local objs f n=0
	objs=" $(pure_objects) "
	while read -r f; do
		n=$((n + 1))
		[[ $objs == *" ${f%.c}.o "* ]] ||
			fail "docs/design.md calls $f pure, but the Makefile does not check it"
	done < <(grep '| yes |$' "$REPO/docs/design.md" | grep -o "\`[a-z_]*\\.c\`" | tr -d "\`")
	[ "$n" -ge 10 ]
}

# The quoted includes of a file of the repository.
includes() {
	sed -n 's/^#include "\(.*\)"$/\1/p' "$REPO/$1"
}

@test "shape 5: the layers design.md names are the includes' layers" {
	local f h
	# output.h and list.h are pinrun.c's alone; neither includes the other.
	for f in $(cd "$REPO" && ls -- *.c *.h); do
		case $f in pinrun.c | output.c | list.c) continue ;; esac
		if h=$(includes "$f" | grep -x 'output\.h\|list\.h'); then
			fail "$f includes $h"
		fi
	done
	if includes output.c | grep -qx 'list\.h'; then fail "output.c includes list.h"; fi
	if includes list.c | grep -qx 'output\.h'; then fail "list.c includes output.h"; fi
	for f in options.h emit.h emit.c; do
		if includes "$f" | grep -qx 'host\.h'; then fail "$f includes host.h"; fi
	done
	# The steps' headers are pinrun.c's; follower.c binds through act.c.
	for f in $(cd "$REPO" && ls -- *.c *.h); do
		case $f in pinrun.c | act.c | follower.c) continue ;; esac
		if includes "$f" | grep -qx 'act\.h'; then fail "$f includes act.h"; fi
	done
	for f in $(cd "$REPO" && ls -- *.c *.h); do
		case $f in pinrun.c | follower.c) continue ;; esac
		if includes "$f" | grep -qx 'follower\.h'; then fail "$f includes follower.h"; fi
	done
	for f in slots.c slots.h; do
		if includes "$f" | grep -qx 'policy\.h'; then fail "$f includes policy.h"; fi
	done
	# The tracer knows nothing of pinrun.
	for f in follow.c follow_notify.c follow_start.c follow.h follow_notify.h follow_trace.h; do
		while read -r h; do
			case $h in
			follow.h | follow_notify.h | follow_trace.h | host.h | tidmap.h | exitcode.h | gain.h) ;;
			*) fail "the tracer's $f includes $h" ;;
			esac
		done < <(includes "$f")
	done
	# follow.h needs host.h's enum of what exec gives, not host.h.
	if includes follow.h | grep -qx 'host\.h'; then fail "follow.h includes host.h"; fi
	for f in exitcode.h mempolicy.h gain.h; do
		[ -z "$(includes "$f")" ] || fail "$f, a leaf header, includes $(includes "$f")"
	done
}

# The names of the tests of some suites, one a line: "NAME<tab>SUITE".
test_names() {
	local f
	for f in "$@"; do
		sed -nE 's/^@test +"(([^"\\]|\\.)*)".*/\1/p' "$f" | sed "s|\$|	${f##*/}|"
	done
}

# Names that two tests share (in one suite or in two), with their suites.
shared_names() {
	test_names "$@" | sort | awk -F'\t' '$1 == last { print $1 " (" lastf ", " $2 ")" } { last = $1; lastf = $2 }'
}

@test "shape 6: no two tests of the suites have one name" {
	local n
	n=$(test_names "$REPO"/tests/*.bats | wc -l)
	[ "$n" -ge 600 ] || fail "only $n tests found"
	run shared_names "$REPO"/tests/*.bats
	assert_success
	assert_output ""
	# It can fail: a name that two suites give.
	printf '@test "a" {\n\t:\n}\n@test "b \\"q\\"" { :; }\n' >"$BATS_TEST_TMPDIR/one.bats"
	printf '@test "b \\"q\\"" { :; }\n' >"$BATS_TEST_TMPDIR/two.bats"
	run shared_names "$BATS_TEST_TMPDIR/one.bats" "$BATS_TEST_TMPDIR/two.bats"
	assert_output 'b \"q\" (one.bats, two.bats)'
}

# The constants (enum members, macros) of the headers given that do not
# start with their module's prefix, "header: NAME" a line. The prefix is
# the header's name in capitals, but for the modules that share one.
unprefixed_constants() {
	local h m c
	for h in "$@"; do
		m=$(basename "$h" .h | tr '[:lower:]' '[:upper:]')
		case $m in
		TOPOTREE | TOPOLOGY) m=TOPO ;;
		MEMPOLICY | GAIN) m=HOST ;; # host.c's leaf headers
		EXITCODE) m=PINRUN ;;
		FOLLOW_NOTIFY) m=NOTIFY ;;
		FOLLOW_TRACE) m=FOLLOW ;;
		MESSAGE) m=MSG ;;
		esac
		{
			awk '/^enum [a-z_]* *\{/ { on = 1; next } on && /^\};/ { on = 0 } on' "$h" |
				grep -oE '^[[:space:]]+[A-Z][A-Z0-9_]+' | sed 's/^[[:space:]]*//'
			grep -oE '^#define [A-Z][A-Z0-9_]+' "$h" | awk '{ print $2 }' | grep -v '^PINRUN_[A-Z_]*_H$'
		} | while read -r c; do
			case $c in "${m}"_*) ;; *) echo "${h##*/}: $c" ;; esac
		done
	done
}

@test "shape 7: every constant a header exports has its module's prefix" {
	run unprefixed_constants "$REPO"/*.h
	assert_success
	assert_output ""
	[ "$(grep -c '^[[:space:]]*POLICY_' "$REPO/policy.h")" -gt 20 ] || fail "policy.h's constants not read"
	# It can fail: a constant of another module's name.
	printf '#define CPULIST_MAX 9\nenum x {\n\tCPULIST_OK,\n\tKIND_FAST,\n};\n' >"$BATS_TEST_TMPDIR/cpulist.h"
	run unprefixed_constants "$BATS_TEST_TMPDIR/cpulist.h"
	assert_output "cpulist.h: KIND_FAST"
}
