#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# Every example of README.md and the man pages, run. An example is a
# "$ command" line of a ```console block (README) or of an .EX block (man
# pages), with the lines after it as its expected output, or a line of a
# ```sh block (README), which must succeed. The examples of a file run in
# order in one shell, as a reader types them. Expected output is compared
# line by line; a line "..." stands for any lines. Values that change from
# run to run are normalized on both sides (see normalize). Examples that
# need a launcher (srun, sbatch, salloc, mpirun, mpiexec, parallel) are run by
# tests/cluster.bats, which starts one and reads them from the same files,
# and pinrun-compare's by tests/compare.bats; README's set-up commands are
# what CI runs first.
#
# README's tour runs in a fresh checkout of this tree, which it must leave
# as clean as git status sees it. The man pages' commands run in a
# scratch directory holding stand-ins for the
# programs the examples name (./configure is a real autoconf one, from
# examples/configure; ./app, ./bench, ./job, ./rank, ./server print where
# they run), machine.xml (a two-package Xeon), a Makefile, and links to the
# repository's tests/, examples/ and scripts/; pinrun and pinrun-compare
# are the ones under test.

load lib/test_helper

setup_file() {
	local d=$BATS_FILE_TMPDIR/work b
	mkdir -p "$d/bin"
	b=$d/bin
	ln -s "$PINRUN" "$b/pinrun"
	ln -s "$REPO/scripts/pinrun-compare" "$b/pinrun-compare"
	for p in app bench job rank; do
		printf '#!/bin/sh\necho "%s $* on CPUs $(sed -n "s/^Cpus_allowed_list:\\t//p" /proc/self/status)"\n' "$p" >"$d/$p"
		chmod +x "$d/$p"
	done
	# A server holds no descriptor of the example's: its output is read
	# to the end, which a server in the background must not delay.
	printf '#!/bin/sh\nexec sleep 60 </dev/null >/dev/null 2>&1\n' >"$d/server"
	chmod +x "$d/server"
	printf 'all:\n\t@true\n' >"$d/Makefile"
	cp "$REPO/tests/topologies/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml" "$d/machine.xml"
	for l in tests scripts; do ln -s "$REPO/$l" "$d/$l"; done
	# A copy: the tour generates examples/configure's script in it.
	cp -r "$REPO/examples" "$d/examples"
	if command -v autoreconf >/dev/null; then
		cp "$REPO"/examples/configure/* "$d/"
		(cd "$d" && autoreconf -i >/dev/null 2>&1)
	fi
	export DOCS_WORK=$d
}

teardown() {
	pkill -f "$DOCS_WORK/server" 2>/dev/null || :
}

# The examples of a file, one per record, separated by NUL: the command,
# a newline, then its expected output ("" when none is shown; "-" for a
# sh block's line, which only has to succeed).
examples() {
	case $1 in
	*.md) awk '
		/^```console/ { mode = "console"; next }
		/^```sh/ { mode = "sh"; next }
		/^```/ { if (cmd != "") printf "%s\n%s%c", cmd, out, 0; cmd = ""; out = ""; mode = ""; next }
		mode == "console" && /^\$ / {
			if (cmd != "") printf "%s\n%s%c", cmd, out, 0
			cmd = substr($0, 3); out = ""; next }
		mode == "console" && cmd != "" { out = out $0 "\n"; next }
		mode == "sh" && /[^[:space:]]/ && !/^[[:space:]]*#/ {
			line = $0; sub(/[[:space:]]+#.*$/, "", line)
			cont = cont line
			if (cont ~ /\\$/) { sub(/\\$/, " ", cont); next }
			printf "%s\n-\n%c", cont, 0; cont = "" }
		' "$1" ;;
	*) awk '
		function unroff(s) {
			gsub(/\\-/, "-", s); gsub(/\\\(dq/, "\"", s); gsub(/\\e/, "\\", s)
			gsub(/\\&/, "", s); gsub(/\\\(aq/, "'"'"'", s); return s }
		/^\.EX/ { on = 1; next }
		/^\.EE/ { if (cmd != "") printf "%s\n%s%c", cmd, out, 0; cmd = ""; out = ""; on = 0; next }
		on && cont { line = unroff($0); sub(/^[[:space:]]+/, "", line); cmd = cmd line
			cont = sub(/\\$/, " ", cmd); next }
		on && /^\$ / { if (cmd != "") printf "%s\n%s%c", cmd, out, 0
			cmd = unroff(substr($0, 3)); out = ""
			cont = sub(/\\$/, " ", cmd); next }
		on && cmd != "" { out = out unroff($0) "\n" }
		' "$1" ;;
	esac
}

# What changes from run to run: pids, timings, the CPU pinrun started on,
# and what the machine the tests run on has (the README shows one of
# 2 PUs; another VM's hwloc may count its L3s differently).
normalize() {
	sed -E -e 's/^pid: [0-9]+$/pid: PID/' -e 's/"pid":[0-9]+/"pid":PID/g' \
		-e 's/(time: )[0-9.]+ ms to the topology \(cache: [^)]*\), [0-9.]+ ms to plan/\1TIME/' \
		-e 's/CPU [0-9]+ where pinrun runs/CPU N where pinrun runs/' \
		-e 's/^(pinrun: topology: this machine \(hwloc [0-9.]+\)): .*/\1: COUNTS/'
}

# Whether the actual output (file) matches the expected (file), "..."
# matching any lines.
matches() {
	awk -v wantfile="$2" '
		BEGIN { while ((getline l < wantfile) > 0) want[++n] = l }
		{ got[++m] = $0 }
		function match_at(i, j) {
			if (i > n) return j > m
			if (want[i] == "...") {
				for (k = j; k <= m + 1; k++) if (match_at(i + 1, k)) return 1
				return 0
			}
			return j <= m && got[j] == want[i] && match_at(i + 1, j + 1)
		}
		END { exit !match_at(1, 1) }' "$1"
}

# Whether an example is run by another suite (or by CI itself): README's
# set-up, launchers' lines, pinrun-compare's.
run_elsewhere() {
	case $1 in
	"scripts/install-deps && make" | "make check")
		# README's set-up: what CI runs first (.ci/run).
		return 0 ;;
	srun* | sbatch* | salloc* | mpirun* | mpiexec* | parallel* | *" mpirun "* | *" srun "*)
		# tests/cluster.bats starts a Slurm of three nodes and runs
		# these (GNU parallel's too), read from the same files.
		return 0 ;;
	pinrun-compare*)
		# tests/compare.bats runs these, read from the same
		# files, with workloads short enough to repeat.
		return 0 ;;
	esac
	return 1
}

# Run every example of a file in order, in one shell started in DIR (the
# scratch directory by default), as a reader types them one after the
# other: a `cd` stays, what one example writes the next one finds. Fail
# with all the ones that went wrong.
check_examples() {
	local file=$1 dir=${2:-$DOCS_WORK} record cmd expected bad=0 k=0 n
	local script=$BATS_TEST_TMPDIR/examples.sh out=$BATS_TEST_TMPDIR/examples
	local -a cmds=() wants=()
	rm -rf "$out" && mkdir "$out"
	while IFS= read -r -d '' record; do
		cmd=${record%%$'\n'*}
		expected=${record#*$'\n'}
		expected=${expected%$'\n'}
		run_elsewhere "$cmd" && continue
		cmds+=("$cmd")
		wants+=("$expected")
	done < <(examples "$file")
	for cmd in "${cmds[@]}"; do
		printf '{\n%s\n} >"$DOCS_OUT/%d" 2>&1\necho $? >"$DOCS_OUT/%d.rc"\n' "$cmd" "$k" "$k"
		k=$((k + 1))
	done >"$script"
	(cd "$dir" && PATH="$DOCS_WORK/bin:$DOCS_WORK:$PATH" \
		GITHUB_STEP_SUMMARY=$DOCS_WORK/summary.md DOCS_OUT=$out \
		timeout 280 bash "$script" </dev/null >/dev/null 2>&1) || :
	for ((n = 0; n < k; n++)); do
		cmd=${cmds[n]}
		if [ ! -f "$out/$n.rc" ]; then
			echo "# $file: '$cmd' did not run, or did not end (it or an example before it ended the shell)"
			bad=1
			continue
		fi
		if [ "$(cat "$out/$n.rc")" -ne 0 ]; then
			echo "# $file: '$cmd' exited $(cat "$out/$n.rc"): $(cat "$out/$n")"
			bad=1
			continue
		fi
		expected=${wants[n]}
		[ "$expected" != "-" ] && [ -n "$expected" ] || continue
		normalize <"$out/$n" >"$BATS_TEST_TMPDIR/got"
		printf '%s' "$expected" | normalize >"$BATS_TEST_TMPDIR/want"
		if ! matches "$BATS_TEST_TMPDIR/got" "$BATS_TEST_TMPDIR/want"; then
			echo "# $file: '$cmd' printed:"
			sed 's/^/#   /' "$BATS_TEST_TMPDIR/got"
			echo "# instead of:"
			sed 's/^/#   /' "$BATS_TEST_TMPDIR/want"
			bad=1
		fi
	done
	return "$bad"
}

# A fresh checkout of this tree in DIR: its files as git has them
# (tracked, and new ones not ignored, so that a change not yet committed
# is tried too), committed in a repository of its own.
fresh_checkout() {
	local dir=$1
	mkdir -p "$dir"
	(cd "$REPO" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 tar cf - --ignore-failed-read 2>/dev/null) | tar xf - -C "$dir"
	git -C "$dir" init -q
	git -C "$dir" add -A
	git -C "$dir" -c user.name=docs -c user.email=docs@localhost commit -q -m checkout
}

@test "docs: the harness finds examples, and a wrong expected output fails" {
	[ "$(examples "$REPO/README.md" | tr -cd '\0' | wc -c)" -ge 5 ]
	[ "$(examples "$REPO/man/pinrun.1" | tr -cd '\0' | wc -c)" -ge 8 ]
	printf '```console\n$ pinrun --cpus 0 --dry-run\n1\n```\n' >"$BATS_TEST_TMPDIR/wrong.md"
	run check_examples "$BATS_TEST_TMPDIR/wrong.md"
	assert_failure
	printf '```console\n$ pinrun --cpus 0 --dry-run\n0\n```\n' >"$BATS_TEST_TMPDIR/right.md"
	run check_examples "$BATS_TEST_TMPDIR/right.md"
	assert_success
	# In order, in one shell: a cd stays for the next example.
	printf '```console\n$ cd tests\n$ ls -d topologies\ntopologies\n```\n' >"$BATS_TEST_TMPDIR/cd.md"
	run check_examples "$BATS_TEST_TMPDIR/cd.md"
	assert_success
	printf '```console\n$ ls -d topologies\ntopologies\n$ cd tests\n```\n' >"$BATS_TEST_TMPDIR/cd.md"
	run check_examples "$BATS_TEST_TMPDIR/cd.md"
	assert_failure
	assert_line --partial "'ls -d topologies' exited 2"
	# An example that ends the shell fails the ones after it.
	printf '```console\n$ exit 0\n$ true\n```\n' >"$BATS_TEST_TMPDIR/exit.md"
	run check_examples "$BATS_TEST_TMPDIR/exit.md"
	assert_failure
	assert_output "# $BATS_TEST_TMPDIR/exit.md: 'exit 0' did not run, or did not end (it or an example before it ended the shell)
# $BATS_TEST_TMPDIR/exit.md: 'true' did not run, or did not end (it or an example before it ended the shell)"
}

@test "docs: README's tour, top to bottom in one shell in a fresh checkout, leaves it clean" {
	needs_program autoreconf git -- for ./configure, and a checkout
	git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1 ||
		skip_unless_works "$REPO is no git checkout: the tour starts from one"
	local clone=$BATS_TEST_TMPDIR/clone
	fresh_checkout "$clone"
	XDG_CACHE_HOME=$BATS_TEST_TMPDIR/cache check_examples "$REPO/README.md" "$clone"
	run git -C "$clone" status --porcelain --untracked-files=all
	assert_success
	assert_output ""
}

@test "docs: every example of man/pinrun.1 runs as shown, in order in one shell" {
	needs_program autoreconf -- for ./configure
	check_examples "$REPO/man/pinrun.1"
}

# design_names DOC: what DOC names in backticks that the code must have:
# "path PATH" for a path (a slash or a file's extension in it), "name N"
# for a lower-case identifier with an underscore (a function, a
# variable), "const C" for an upper-case one. What other projects and the
# kernel call things, and paths of the system (/proc) or of the user's
# machine, are left out.
design_names() {
	grep -o '`[^`]*`' "$1" | tr -d '`' | sort -u | awk '
		/[ $~]/ || /^\.?\// { next }
		/^(close_stdout|include\/closestream\.h|epoll_wait)$/ { next }
		/\// || /\.(c|h|bats|bash|md|py|1|supp)$/ { print "path", $0; next }
		/^[a-z][a-z0-9]*_[a-z0-9_]*(\(\))?$/ { sub(/\(\)$/, ""); print "name", $0; next }
		/^[A-Z][A-Z0-9]*_[A-Z0-9_]*$/ { print "const", $0 }'
}

@test "docs: every path, function and constant docs/design.md names exists" {
	local kind w re missing=() n=0
	while read -r kind w; do
		n=$((n + 1))
		case $kind in
		path) [ -e "$REPO/$w" ] || missing+=("$w") ;;
		# follow.c's states are written without their TS_ prefix; a
		# prefix (cpulist_) must start some name.
		name | const)
			re="\\<(TS_)?$w\\>"
			[[ $w == *_ ]] && re="\\<$w[A-Za-z0-9]"
			(cd "$REPO" && grep -qE -e "$re" -- *.c *.h Makefile fuzz/*.[ch] \
				completion/* tests/lib/*.bash scripts/*) || missing+=("$w")
			;;
		esac
	done < <(design_names "$REPO/docs/design.md")
	[ "$n" -gt 100 ] || fail "only $n names read: the doc's form changed"
	[ "${#missing[@]}" -eq 0 ] || fail "design.md names what is not there: ${missing[*]}"
	# The check can fail: a name that is nowhere.
	printf 'see `no_such_function()` and `tests/no-such.bats`\n' >"$BATS_TEST_TMPDIR/d.md"
	[ "$(design_names "$BATS_TEST_TMPDIR/d.md" | tr '\n' ' ')" = "name no_such_function path tests/no-such.bats " ]
}

@test "docs: README's Layout and docs/design.md name every C file there is, and no other" {
	local have readme design
	have=$(cd "$REPO" && ls -- *.c)
	readme=$(awk '/^## Layout/ { on = 1 } on && /^[a-z_]+\.c / { print $1 }' "$REPO/README.md" | sort)
	design=$(grep -o '^| `[a-z_]*\.c`\(, `[a-z_]*\.c`\)*' "$REPO/docs/design.md" |
		grep -o '[a-z_]*\.c' | sort)
	[ -n "$have" ]
	diff <(echo "$have") <(echo "$readme")
	diff <(echo "$have") <(echo "$design")
}

# check_map README DIR: every entry of README's "## Map" block (its first
# word: a path from DIR, a folder ending in /) exists, every `tests/...`
# its prose names exists, and every entry of DIR is in the map (git's
# files, tracked or new, when DIR is in a checkout), and so is every file
# of a folder whose files the map lists; prints what is wrong.
check_map() {
	local readme=$1 dir=$2 names p bad=0 have
	names=$(awk '/^## Map/ { on = 1; next } on && /^```/ { if (inside) exit; inside = 1; next }
		inside && NF { print $1 }' "$readme")
	[ -n "$names" ] || { echo "no ## Map block in $readme"; return 1; }
	while read -r p; do
		case $p in
		*/) [ -d "$dir/$p" ] || { echo "the map names $p, which is no folder"; bad=1; } ;;
		*) [ -f "$dir/$p" ] || { echo "the map names $p, which is no file"; bad=1; } ;;
		esac
	done <<<"$names"
	while read -r p; do
		[ -e "$dir/${p#tests/}" ] || { echo "the text names $p, which does not exist"; bad=1; }
	done < <(grep -o '`tests/[^` *$]*`' "$readme" | tr -d '`')
	have=$(cd "$dir" && if git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files --cached --others --exclude-standard .
	else
		find . -type f ! -path './tmp/*' | sed 's|^\./||'
	fi | awk -F/ '{ print (NF > 1 ? $1 "/" : $1) } NF == 2 { print }' | sort -u)
	while read -r p; do
		case $p in
		*/*[!/])
			# A file in a folder: named when the map lists that folder's files.
			grep -q "^${p%/*}/[^/]*[^/]\$" <<<"$names" || continue ;;
		esac
		grep -qxF "$p" <<<"$names" || { echo "the map does not name $p"; bad=1; }
	done <<<"$have"
	return "$bad"
}

@test "docs: tests/README.md's map names every entry of tests/, each one there" {
	run check_map "$REPO/tests/README.md" "$REPO/tests"
	assert_success
	assert_output ""
	# It can fail: a wrong name, a name missing, a wrong path in the text.
	sed 's|^lib/test_helper.bash |lib/test_helpers.bash |' "$REPO/tests/README.md" >"$BATS_TEST_TMPDIR/wrong.md"
	run check_map "$BATS_TEST_TMPDIR/wrong.md" "$REPO/tests"
	assert_failure
	assert_output $'the map names lib/test_helpers.bash, which is no file\nthe map does not name lib/test_helper.bash'
	sed -e '/^tools\/ /d' -e 's|`tests/topologies`|`tests/topology`|' "$REPO/tests/README.md" >"$BATS_TEST_TMPDIR/wrong.md"
	run check_map "$BATS_TEST_TMPDIR/wrong.md" "$REPO/tests"
	assert_failure
	assert_output $'the text names tests/topology, which does not exist\nthe map does not name tools/'
}
