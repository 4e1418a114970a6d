#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# The release: one version (VERSION) everywhere it is shown, the build
# flags a packager passes, the hardening switch, make dist's tarball (it
# builds and passes make check-unit on its own), the skip helper, the
# newcomer's set-up and the docs a README reader reaches. The Debian
# package is built and linted here (what it ships), and installed and
# removed by CI (scripts/package, .ci/run); both need the --ci tools.

load lib/test_helper

setup() {
	VERSION=$(cat "$REPO/VERSION")
}

# The commands make would run, nothing run: every target, every flag.
make_n() {
	make -C "$REPO" -n -B "$@" pinrun tests/unit/test_cpulist 2>&1
}

@test "VERSION is one line, a version" {
	[ "$(wc -l <"$REPO/VERSION")" -eq 1 ]
	[[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "VERSION: '$VERSION'"
}

@test "both programs, both manuals and debian/changelog show VERSION" {
	run "$PINRUN" --version
	assert_success
	assert_output "pinrun $VERSION"
	run "$REPO/scripts/pinrun-compare" --version
	assert_success
	assert_output "pinrun-compare $VERSION"
	local m
	for m in pinrun pinrun-compare; do
		run grep -c "^\.TH [A-Z-]* 1 [0-9-]* \"pinrun $VERSION\" " "$REPO/man/$m.1"
		assert_output 1
	done
	run sed -n '1s/^pinrun (\([^)]*\)) .*/\1/p' "$REPO/debian/changelog"
	assert_output "$VERSION"
	run grep -c "^pinrun $VERSION " "$REPO/NEWS"
	assert_output 1
}

@test "an installed pinrun-compare reads the VERSION installed beside it" {
	local d=$BATS_TEST_TMPDIR/stage
	make -C "$REPO" -s install PREFIX=/usr DESTDIR="$d" >/dev/null
	[ -x "$d/usr/bin/pinrun-compare" ]
	[ -f "$d/usr/lib/pinrun/pinrun_compare/cli.py" ]
	run "$d/usr/bin/pinrun-compare" --version
	assert_output "pinrun-compare $VERSION"
	echo 9.9.9 >"$d/usr/lib/pinrun/VERSION"
	run "$d/usr/bin/pinrun-compare" --version
	assert_output "pinrun-compare 9.9.9"
	make -C "$REPO" -s uninstall PREFIX=/usr DESTDIR="$d"
	run find "$d" -type f -o -type l
	assert_output ""
}

@test "CPPFLAGS reach every compile, LDFLAGS and CFLAGS every link, and neither drops a warning" {
	local out compiles links
	out=$(make_n CPPFLAGS='-DPINRUN_TEST_CPP=1' LDFLAGS='-Wl,--pinrun-test-ld' CFLAGS=-O1)
	compiles=$(grep -E ' -c -o [^ ]+\.o ' <<<"$out")
	links=$(grep -E ' -o (pinrun|tests/unit/test_cpulist) ' <<<"$out")
	[ "$(wc -l <<<"$compiles")" -ge 20 ] || fail "compiles: $out"
	[ "$(wc -l <<<"$links")" -eq 2 ] || fail "links: $out"
	run grep -vc -- '-DPINRUN_TEST_CPP=1' <<<"$compiles"
	assert_output 0
	run grep -vc -- '-Wall -Wextra' <<<"$compiles"
	assert_output 0
	run grep -vc -- '-Wl,--pinrun-test-ld' <<<"$links"
	assert_output 0
	# make CFLAGS='-O1 -fsanitize=address' must link.
	run grep -vc -- ' -O1 ' <<<"$links"
	assert_output 0
	# The version is defined once, by the Makefile.
	run grep -vc -- "-DPINRUN_VERSION='\"$VERSION\"'" <<<"$compiles"
	assert_output 0
}

@test "HARDEN=1: fortify, stack protector and PIE in every compile, relro and now in every link" {
	local out compiles links f
	out=$(make_n HARDEN=1)
	compiles=$(grep -E ' -c -o [^ ]+\.o ' <<<"$out")
	links=$(grep -E ' -o (pinrun|tests/unit/test_cpulist) ' <<<"$out")
	for f in -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fPIE; do
		run grep -vc -- " $f " <<<"$compiles"
		assert_output 0
	done
	for f in -pie -Wl,-z,relro -Wl,-z,now; do
		run grep -vc -- " $f " <<<"$links"
		assert_output 0
	done
	# Without the switch, none of it (the default build is the user's).
	run grep -c -- '-fstack-protector-strong\|-Wl,-z,now' <<<"$(make_n)"
	assert_output 0
}

@test "make clean works without pkg-config or libhwloc-dev" {
	local d=$BATS_TEST_TMPDIR/tree
	mkdir -p "$d"
	cp "$REPO/Makefile" "$REPO/VERSION" "$d/"
	touch "$d/pinrun" "$d/x.o" "$d/x.d"
	run make -C "$d" clean PKG_CONFIG=/nonexistent/pkg-config
	assert_success
	[ ! -e "$d/pinrun" ] && [ ! -e "$d/x.o" ] && [ ! -e "$d/x.d" ]
}

@test "make dist: pinrun-VERSION.tar.gz of git HEAD, that builds hardened and passes make check-unit on its own" {
	git -C "$REPO" rev-parse HEAD >/dev/null 2>&1 || skip "not a git checkout (a tarball's tree has no HEAD to archive)"
	run make -C "$REPO" -n dist
	assert_output --partial "-o pinrun-$VERSION.tar.gz HEAD"
	cd "$BATS_TEST_TMPDIR"
	make -C "$REPO" -s dist DISTFILE="$PWD/p.tar.gz"
	# One top directory, named for the version, with what a build needs.
	run sh -c "tar -tzf p.tar.gz | cut -d/ -f1 | sort -u"
	assert_output "pinrun-$VERSION"
	tar -xzf p.tar.gz
	local f
	for f in VERSION LICENSE NEWS Makefile pinrun.c debian/control man/pinrun.1; do
		[ -f "pinrun-$VERSION/$f" ] || fail "no $f in the tarball"
	done
	cd "pinrun-$VERSION"
	run make -j2 HARDEN=1 WERROR=1 check-unit pinrun
	assert_success
	assert_line --regexp '^[0-9]+ passed, 0 failed$'
	run ./pinrun --version
	assert_output "pinrun $VERSION"
	run readelf -h pinrun
	assert_line --regexp 'Type: +DYN '
	run readelf -d pinrun
	assert_line --regexp '\(FLAGS\) +BIND_NOW'
	run readelf -lW pinrun
	assert_line --regexp 'GNU_RELRO'
	run nm pinrun
	assert_line --regexp ' U __(snprintf|vfprintf|printf|memcpy|fprintf|vsnprintf)_chk'
	run make clean
	assert_success
	run find . -name '*.o' -o -name pinrun -type f
	assert_output ""
}

@test "the Debian package ships README and NEWS, recommends GNU time (pinrun-compare's peak memory), and is lintian-clean" {
	needs_program dpkg-buildpackage dh lintian -- scripts/install-deps --ci
	local deb
	deb=$("$REPO/scripts/package" -o "$BATS_TEST_TMPDIR" 2>"$BATS_TEST_TMPDIR/package.err") ||
		fail "scripts/package: $(cat "$BATS_TEST_TMPDIR/package.err")"
	run dpkg-deb -f "$deb" Recommends
	assert_output "time"
	run bash -c "dpkg-deb -c '$deb' | awk '{ print \$NF }' | grep '^\./usr/share/doc/pinrun/'"
	assert_line "./usr/share/doc/pinrun/README.md.gz"
	assert_line "./usr/share/doc/pinrun/NEWS.gz"
}

@test "needs_program: a missing program skips with its name and why; PINRUN_MUST_WORK makes it a failure" {
	PINRUN_MUST_WORK=0 run env -u BATS_TEST_TIMEOUT bats --tap "$BATS_TEST_DIRNAME/fixtures/release/needs.bats"
	assert_success
	assert_line "ok 1 x # skip needs pinrun-no-such-program (to test), not installed here (scripts/install-deps --ci)"
	assert_line "ok 2 y"
	PINRUN_MUST_WORK=1 run env -u BATS_TEST_TIMEOUT bats --tap "$BATS_TEST_DIRNAME/fixtures/release/needs.bats"
	assert_failure
	assert_line "not ok 1 x"
	assert_line "ok 2 y"
}

@test "a plain bats run finds pinrun: test_helper.bash exports PINRUN" {
	run env -u PINRUN -u BATS_TEST_TIMEOUT bats --tap "$BATS_TEST_DIRNAME/fixtures/release/plain.bats"
	assert_success
	assert_line "ok 1 x"
}

@test "the newcomer's set-up is README's two commands, and the base list has what the tour needs" {
	run "$REPO/.ci/newcomer" --commands
	assert_success
	assert_output "scripts/install-deps && make
make check"
	run "$REPO/scripts/install-deps" --list
	assert_line autoconf
	assert_line automake
	refute_line mandoc
	run "$REPO/scripts/install-deps" --list --ci
	assert_line mandoc
	assert_line lintian
	refute_line autoconf
}

@test "README links every document under docs/" {
	local f n=0
	for f in "$REPO"/docs/*.md; do
		grep -qF "](docs/${f##*/})" "$REPO/README.md" || fail "README does not link docs/${f##*/}"
		n=$((n + 1))
	done
	[ "$n" -ge 5 ]
}

# The text of a man page section, roff escapes undone (\- \(aq \f.).
man_section() {
	awk -v s="$2" '/^\.SH / { on = ($0 == ".SH " s) } on' "$1" |
		sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\f[BIPR]//g' -e 's/\\~/ /g'
}

@test "pinrun(1) ENVIRONMENT names every variable pinrun reads" {
	local names v n=0 env
	env=$(man_section "$REPO/man/pinrun.1" ENVIRONMENT)
	# getenv() anywhere; the launchers' variables are read from envp.
	names=$(cd "$REPO" && { grep -ohE 'getenv\("[A-Z_]+"\)' ./*.c | grep -oE '[A-Z_]+'
		grep -ohE '"(SLURM|OMPI|MPI|HYDRA|PARALLEL|PMI)_[A-Za-z_]+"' launcher.c | tr -d '"'
		grep -ohE '"HWLOC_[A-Z_]+"' topology.c | tr -d '"'; } | sort -u)
	for v in $names; do
		grep -qw -- "$v" <<<"$env" || fail "ENVIRONMENT does not name $v"
		n=$((n + 1))
	done
	[ "$n" -ge 30 ] || fail "only $n variables found in the code: $names"
}

@test "pinrun(1) OUTPUT shows every --explain line the code prints, SEE ALSO and FILES are there" {
	local out f n=0 prefix
	out=$(man_section "$REPO/man/pinrun.1" OUTPUT)
	# Each format's words up to its first conversion, from the functions
	# that print --explain's lines (literals joined as the compiler does).
	while IFS= read -r prefix; do
		grep -qF -- "$prefix" <<<"$out" || fail "OUTPUT lacks the --explain line '$prefix...'"
		n=$((n + 1))
	done < <(cd "$REPO" && python3 - output.c follower.c <<'PY'
import re, sys
for path in sys.argv[1:]:
    src = open(path).read()
    for m in re.finditer(r"^(?:static )?void (\w+)\([^)]*\)\n\{(.*?)^\}", src, re.M | re.S):
        if not (m.group(1).startswith(("explain_", "output_explain")) or m.group(1) == "on_finished"):
            continue
        for call in re.finditer(r'msg_note\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)', m.group(2)):
            text = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', call.group(1)))
            prefix = text.split("%")[0].rstrip()
            if prefix:
                print(prefix)
PY
	)
	[ "$n" -ge 30 ] || fail "only $n --explain lines found in the code"
	run grep -c '^\.BR pinrun\\-compare (1)' "$REPO/man/pinrun.1"
	assert_output 1
	man_section "$REPO/man/pinrun.1" FILES | grep -q 'XDG_CACHE_HOME/pinrun/'
}

@test "pinrun(1) OUTPUT names every key of --json, --show --json and --list --json" {
	local keys k out n=0 t=$TOPO/2pkg-2numa-intel-e5-2695v4-smt2-36c72pu.xml
	out=$(man_section "$REPO/man/pinrun.1" OUTPUT)
	keys=$({
		"$PINRUN" --spread --json --topology "$t"
		"$PINRUN" --near=cuda1 --spread=2 --mem=bind --json --topology "$t"
		"$PINRUN" --share 1/2 --same-numa --json --topology "$t"
		"$PINRUN" --list --json --topology "$t"
		"$PINRUN" --show --json
	} | python3 -c '
import json, sys
keys = set()
def walk(o):
    if isinstance(o, dict):
        keys.update(o)
        for v in o.values(): walk(v)
    elif isinstance(o, list):
        for v in o: walk(v)
for line in sys.stdin: walk(json.loads(line))
print("\n".join(sorted(keys)))')
	for k in $keys; do
		grep -qE "^\.BR? $k( |$)" <<<"$out" || fail "OUTPUT does not name the JSON key $k"
		n=$((n + 1))
	done
	[ "$n" -ge 40 ] || fail "only $n keys: $keys"
}

# What counts as source: C, headers, scripts (a #! line), Python, R, bats,
# bash, m4, roff, make; not data (topologies, fixtures, fuzz inputs).
source_files() {
	if git -C "$REPO" rev-parse HEAD >/dev/null 2>&1; then
		git -C "$REPO" ls-files
	else
		(cd "$REPO" && find . -type f ! -path './.git/*' | sed 's|^\./||')
	fi | grep -vE '^(tests/topologies|fuzz/corpus|fuzz/regressions)/' |
		while IFS= read -r f; do
			[ -f "$REPO/$f" ] && [ ! -L "$REPO/$f" ] || continue
			case ${f##*/} in
			*.c | *.h | *.py | *.R | *.bats | *.bash | *.sh | *.ac | *.in | *.1 | *.patch | *.mk | Makefile)
				echo "$f" ;;
			*) [ "$(head -c 2 "$REPO/$f")" != '#!' ] || echo "$f" ;;
			esac
		done
}

@test "every source file says its licence in an SPDX-License-Identifier line near its top" {
	local f n=0 missing=()
	while IFS= read -r f; do
		head -n 3 "$REPO/$f" | grep -q 'SPDX-License-Identifier: BSD-3-Clause' || missing+=("$f")
		n=$((n + 1))
	done < <(source_files)
	[ "$n" -ge 100 ] || fail "only $n source files found"
	[ ${#missing[@]} -eq 0 ] || fail "no SPDX-License-Identifier line in: ${missing[*]}"
	# The licence the lines name is the one shipped.
	grep -q '^Redistribution and use in source and binary forms' "$REPO/LICENSE"
	grep -q '^License: BSD-3-Clause$' "$REPO/debian/copyright"
}
