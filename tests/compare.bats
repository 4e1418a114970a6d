#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-3-Clause
# scripts/pinrun-compare: argument errors; the runs (round-robin order,
# --prepare and --cleanup, failures, stopping early, progress, signals,
# the exports); the paired statistics and verdicts on fixed records
# (tests/fixtures/compare, with what R says of them); the report formats,
# --fail-if-slower, the SVG plot, the bash completion; and the examples of
# the man page, of the README and of docs/ci.md's workflow, run here.

load lib/test_helper

setup() {
	# PINRUN_COMPARE_UNDER_TEST: another copy (an older one, to see a test fail).
	COMPARE=${PINRUN_COMPARE_UNDER_TEST:-$REPO/scripts/pinrun-compare}
	FIX=$BATS_TEST_DIRNAME/fixtures/compare
	load_allowed
	# The fixtures' names appear in the reports as given.
	cd "$FIX"
}

# pinrun-compare's argument errors: exit 2, a "pinrun-compare: MESSAGE"
# line and the Try line.
refused() {
	local message=$1
	shift
	run --separate-stderr "$COMPARE" "$@"
	assert_failure 2
	assert_output ""
	[ "$stderr" = "pinrun-compare: $message
Try 'pinrun-compare --help' for more information." ] || fail "stderr: '$stderr', want '$message' and the Try line"
}

# A --from file that cannot be read or is not a record: exit 5.
bad_record() {
	local message=$1
	shift
	one_line_error "$COMPARE" 5 pinrun-compare "$message" "$@"
}

# A file that cannot be written: exit 6.
bad_output() {
	local message=$1
	shift
	one_line_error "$COMPARE" 6 pinrun-compare "$message" "$@"
}

# The JSON report on stdin, checked by the Python given (doc is the JSON).
json_check() {
	python3 -c "import json, sys
doc = json.load(sys.stdin)
$1" || fail "JSON check failed: $1"
}

# $output and $lines without a record's comment lines (its context).
csv_only() {
	output=$(grep -v '^#' <<<"$output")
	mapfile -t lines <<<"$output"
}

# The lines of file $1 that are not comments (a record's context).
lines_of() {
	grep -vc '^#' "$1"
}

# Wait until file $1 has at least $2 lines, comments aside (at most 20 s).
wait_lines() {
	local i
	for ((i = 0; i < 400; i++)); do
		[ -f "$1" ] && [ "$(lines_of "$1")" -ge "$2" ] && return 0
		sleep 0.05
	done
	fail "$1 never reached $2 lines"
}

# A make project whose build takes $2 seconds of sleep, in directory $1:
# make builds 'out' and logs it in build.log, make clean removes 'out'.
make_project() {
	mkdir -p "$1"
	printf 'out:\n\t@sleep %s\n\t@echo built >>build.log\n\t@touch out\nclean:\n\t@rm -f out\n' "$2" >"$1/Makefile"
}

# --- the command line -------------------------------------------------------

@test "compare: --help prints usage on stdout and exits 0" {
	run --separate-stderr "$COMPARE" --help
	assert_success
	assert_line --index 0 "Usage:"
	assert_line " pinrun-compare [options] [--] <command> [<argument>...]"
	assert_line " pinrun-compare --from <file.csv> [options]"
	assert_line "For more details see pinrun-compare(1)."
	[ -z "$stderr" ]
	for opt in runs warmup placement baseline prepare cleanup metric \
		higher-is-better timeout ignore-status fail-if-slower sequential \
		max-rounds max-time wide format output \
		export-csv export-json export-markdown plot quiet from help version; do
		assert_output --partial -- "--$opt"
		# ... and in the man page, as an option of its own.
		grep -q -- "^\.B[IR]* .*\\\\-\\\\-${opt//-/\\\\-}\\b" "$REPO/man/pinrun-compare.1" ||
			fail "--$opt is not in the man page's OPTIONS"
	done
	run "$COMPARE" -h
	assert_success
	assert_line --index 0 "Usage:"
}

@test "compare: --version" {
	run "$COMPARE" --version
	assert_success
	assert_output --regexp '^pinrun-compare [0-9]+\.[0-9]+\.[0-9]+$'
	run "$COMPARE" -V
	assert_success
	assert_output "pinrun-compare $(cat "$REPO/VERSION")"
	assert_output "pinrun-compare 0.3.0"
}

@test "compare: make install puts the package under lib/pinrun with VERSION beside it; uninstall removes it" {
	local d=$BATS_TEST_TMPDIR/stage
	run make -C "$REPO" install PREFIX=/usr DESTDIR="$d"
	assert_success
	[ -f "$d/usr/lib/pinrun/pinrun_compare/cli.py" ] || fail "no package: $(find "$d")"
	[ "$(cat "$d/usr/lib/pinrun/VERSION")" = "$(cat "$REPO/VERSION")" ]
	# Run from the staged copy, not the tree: PYTHONPATH cannot help it.
	run env -u PYTHONPATH "$d/usr/bin/pinrun-compare" --version
	assert_success
	assert_output "pinrun-compare $(cat "$REPO/VERSION")"
	# As root, where Python would write __pycache__ beside the package
	# (PYTHONDONTWRITEBYTECODE, which CI may set, taken away): none.
	run env -u PYTHONDONTWRITEBYTECODE "$d/usr/bin/pinrun-compare" --from "$FIX/shift.csv" --format json
	assert_success
	[ -z "$(find "$d" -name __pycache__ -o -name '*.pyc')" ] || fail "bytecode: $(find "$d" -name '*.pyc')"
	run make -C "$REPO" uninstall PREFIX=/usr DESTDIR="$d"
	assert_success
	[ -z "$(find "$d" -type f)" ] || fail "left: $(find "$d" -type f)"
}

@test "compare: a failed write to stdout is an error (--help >/dev/full)" {
	[ -w /dev/full ] || skip_unless_works "no /dev/full"
	run bash -c '"$1" --help >/dev/full' _ "$COMPARE"
	assert_failure 6
	assert_output "pinrun-compare: cannot write 'standard output': No space left on device"
}

@test "compare: bad arguments are refused with one line and exit 2" {
	refused "no command given (or --from FILE to re-analyse recorded runs)"
	refused "unknown option '--bogus'" --bogus true
	refused "unknown option '-x'" -x true
	refused "option '-n' needs a value" -n
	refused "invalid number of runs '0': expected a whole number from 1 to 100000" -n 0 true
	refused "invalid number of runs '100001': expected a whole number from 1 to 100000" -n 100001 true
	refused "invalid number of runs 'ten': expected a whole number from 1 to 100000" --runs=ten true
	refused "invalid number of warm-up rounds '-1': expected a whole number from 0 to 100000" -w -1 true
	refused "invalid format 'xml': expected table, markdown, csv or json" --format xml true
	refused "invalid percentage 'abc': expected a non-negative number" --fail-if-slower abc true
	refused "invalid percentage '-5': expected a non-negative number" --fail-if-slower -5 true
	refused "invalid timeout '0': expected a positive number" --timeout 0 true
	refused "option '-n' given twice" -n 3 -n 4 true
	refused "option '--plot' given twice" --plot a.svg --plot b.svg true
	refused "option '--help' takes no value" --help=yes
	refused "option '--quiet' takes no value" --quiet=1 true
	refused "--higher-is-better needs --metric: wall time is never better higher" --higher-is-better true
	refused "empty metric command" --metric ' ' true
	refused "empty prepare command" --prepare '' true
	refused "empty cleanup command" --cleanup ' ' true
	refused "empty file name for --export-json" --export-json '' true
	refused "--output and --plot name the same file 'x'" -o x --plot x true
	refused "--export-csv and --export-markdown name the same file './r'" --export-csv r --export-markdown ./r true
	refused "--from and --export-csv name the same file 'shift.csv'" --from shift.csv --export-csv shift.csv
}

@test "compare: hyperfine's habits get a hint, long options abbreviate, and a typo gets a did-you-mean" {
	refused "invalid placement 'make clean': -p is --placement here; hyperfine's -p is --prepare: --prepare 'make clean'" -p 'make clean' true
	refused "invalid metric command '5': -m is --metric here, a command whose last line is the figure; hyperfine's -m is --min-runs: -n 5" -m 5 true
	refused "invalid number of runs 'fast': expected a whole number; hyperfine's -n is --command-name, and each placement is named by its -p value here" -n fast true
	refused "unknown option '-r': hyperfine's -r (--runs) is -n here: -n <n> rounds" -r 5 true
	refused "unknown option '--min-runs': every placement runs exactly -n <n> rounds here, or --sequential rounds until decided (hyperfine's --min-runs)" --min-runs 5 true
	refused "unknown option '-M': every placement runs exactly -n <n> rounds here, or --sequential --max-rounds <n> (hyperfine's -M is --max-runs)" -M 5 true
	refused "unknown option '--show-output': the command's output is discarded here, and the last line of its standard error is shown when a run fails; to watch it, run it under pinrun alone" --show-output true
	refused "unknown option '-N': no shell runs the command here: it is its words already (hyperfine's -N is --shell=none)" -N true
	refused "unknown option '--command-name': each placement is named by its -p value here" --command-name x true
	refused "unknown option '-c': write --cleanup <cmd> (hyperfine's -c is --cleanup)" -c 'rm x' true
	refused "unknown option '--setup': use --prepare <cmd>: it runs before every run" --setup 'make' true
	refused "command 'gzip -c data' not found: give the words (gzip -c data), or sh -c 'gzip -c data'" 'gzip -c data'
	# hyperfine's most common use, two commands: what this compares, and
	# the hyperfine command that does the other job.
	refused "command 'sleep 0.1' not found: pinrun-compare times one command under several placements (-p), given as its words (sleep 0.1); to compare several commands, use hyperfine 'sleep 0.1' 'sleep 0.2'" 'sleep 0.1' 'sleep 0.2'
	refused "invalid prepare command 'no-such-tool --x': 'no-such-tool' not found" --prepare 'no-such-tool --x' true
	refused "invalid placement '=hot': write -p hot or --placement=hot; placements: none, hot, same-chip, same-numa, same-cache, spread, 'cpus <list>', with pinrun's options after them ('spread --follow')" -p=hot true
	refused "invalid placement 'hto' (did you mean hot?); placements: none, hot, same-chip, same-numa, same-cache, spread, 'cpus <list>', with pinrun's options after them ('spread --follow')" -p hto true
	refused "unknown option '--wamup' (did you mean --warmup?)" --wamup 1 true
	refused "option '--ex' is ambiguous: --export-csv, --export-json, --export-markdown" --ex x true
	# An unambiguous abbreviation is the option.
	run --separate-stderr "$COMPARE" --qui --war 0 --ru 1 --pla none --form csv true
	assert_success
	[ "$(grep -vc '^#' <<<"$output")" -eq 2 ]
	# Nothing ran: the metric command is checked before the first run.
	run --separate-stderr "$COMPARE" -q -n 1 -w 0 -p none -m 'no-such-metric' -- sh -c 'echo ran >>"$1"' _ "$BATS_TEST_TMPDIR/ran"
	assert_failure 2
	[ "${stderr_lines[0]}" = "pinrun-compare: invalid metric command 'no-such-metric': 'no-such-metric' not found" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "compare: bad placements are refused before anything runs" {
	refused "empty placement: use none for the plain command" -p '' true
	refused "invalid placement 'none --follow': none takes no options" -p 'none --follow' true
	refused "invalid placement 'hot -- x': '--' would end pinrun's options" -p 'hot -- x' true
	refused "invalid placement 'hot 'x': unbalanced quotes" -p "hot 'x" true
	refused "placement 'hot' given twice" -p hot -p ' hot ' true
	refused "baseline 'spread' is not one of the placements: none, hot" -p none -p hot -b spread true
	refused "invalid placement 'bogus'; placements: none, hot, same-chip, same-numa, same-cache, spread, 'cpus <list>', with pinrun's options after them ('spread --follow')" -p none -p bogus true
	refused "placement '--bogus': pinrun: unrecognized option '--bogus'" -p none -p --bogus true
	refused "placement 'cpus x': pinrun: invalid location 'x': unknown object type 'x'" -p 'cpus x' true
	refused "placement 'hot --json' does not run the command (pinrun --hot --json exited with status 0)" -p 'hot --json' true
	refused "placement 'hot echo' does not run the command (pinrun --hot echo exited with status 0)" -p 'hot echo' true
}

@test "compare: a missing command, pinrun or output file is refused before any run" {
	refused "command 'no-such-command-here' not found" -- no-such-command-here
	refused "cannot run './no-such-file': not an executable file" -- ./no-such-file
	PINRUN=/nonexistent/pinrun refused "cannot run pinrun '/nonexistent/pinrun': No such file or directory" -p hot true
	bad_output "cannot write '/nonexistent/out.csv': No such file or directory" -o /nonexistent/out.csv true
	bad_output "cannot write '/nonexistent/plot.svg': No such file or directory" --plot /nonexistent/plot.svg true
	bad_output "cannot write '/nonexistent/r.json': No such file or directory" --export-json /nonexistent/r.json true
	bad_output "cannot write '/nonexistent/r.md': No such file or directory" --export-markdown /nonexistent/r.md true
	bad_output "cannot write '/nonexistent/r.csv': No such file or directory" --export-csv /nonexistent/r.csv true
	bad_output "cannot write '$BATS_TEST_TMPDIR': Is a directory" -o "$BATS_TEST_TMPDIR" true
	# Nothing ran: no command line was logged.
	bad_output "cannot write '/nonexistent/plot.svg': No such file or directory" --plot /nonexistent/plot.svg \
		-- sh -c 'echo ran >>"$1"' _ "$BATS_TEST_TMPDIR/ran"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "compare: --from refuses what only a live run can use, and bad records" {
	refused "--from re-analyses recorded runs: no command may be given" --from shift.csv true
	refused "-n cannot be used with --from: the runs are recorded" --from shift.csv -n 3
	refused "--metric cannot be used with --from: the runs are recorded" --from shift.csv --metric true
	refused "--prepare cannot be used with --from: the runs are recorded" --from shift.csv --prepare true
	refused "--cleanup cannot be used with --from: the runs are recorded" --from shift.csv --cleanup true
	bad_record "cannot read 'nothing.csv': No such file or directory" --from nothing.csv
	bad_record "bad-figure.csv: line 3: invalid figure 'abc'" --from bad-figure.csv
	bad_record "bad-columns.csv: not a pinrun-compare CSV: no column status, better" --from bad-columns.csv
	bad_record "bad-round.csv: line 3: invalid round '0'" --from bad-round.csv
	bad_record "twice.csv: line 4: a second measured run of 'none' in round 1" --from twice.csv
	refused "placement 'same-chip' is not in shift.csv: it has none, hot, spread" --from shift.csv -p same-chip
	local bad=$BATS_TEST_TMPDIR/bad.csv
	printf 'round,phase,placement,status,figure,better\n1,measure,none,ok,1\n' >"$bad"
	bad_record "$bad: line 2: wrong number of fields" --from "$bad"
	printf 'round,phase,placement,status,figure,better\n' >"$bad"
	bad_record "$bad: no runs recorded" --from "$bad"
	printf 'round,phase,placement,status,figure,better\n1,measure,none,ok,1,lower\n2,measure,none,ok,1,higher\n' >"$bad"
	bad_record "$bad: line 3: 'better' changes from lower to higher" --from "$bad"
	printf 'round,phase,placement,status,figure,better\n1,measure,none,failed,,lower\n1,measure,none,ok,1,lower\n' >"$bad"
	bad_record "$bad: line 3: a second measured run of 'none' in round 1" --from "$bad"
	printf 'round,phase,placement,status,figure,better\n1,measure,none,ok,\xff,lower\n' >"$bad"
	bad_record "$bad: not a UTF-8 text file" --from "$bad"
}

@test "compare: every output replaces a symbolic link, never its target; a planted one is refused" {
	local d=$BATS_TEST_TMPDIR opt n=0
	echo precious >"$d/victim"
	for opt in -o --plot --export-json --export-markdown --export-csv; do
		n=$((n + 1))
		ln -s "$d/victim" "$d/out$n"
		run --separate-stderr "$COMPARE" -q -n 1 -w 0 -p none "$opt" "$d/out$n" true
		[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || fail "$opt: status $status: $stderr"
		[ ! -L "$d/out$n" ] || fail "$opt: the link is still there"
		[ -s "$d/out$n" ] || fail "$opt: nothing written"
		[ "$(cat "$d/victim")" = precious ] || fail "$opt wrote through the link"
	done
	# As root, a link another user planted in a sticky directory.
	[ "$(id -u)" -eq 0 ] || skip_unless_works "needs root to plant a link as another user"
	mkdir -m 1777 "$d/shared"
	ln -s "$d/victim" "$d/shared/report.txt"
	chown -h 65533:65533 "$d/shared/report.txt"
	for opt in -o --plot --export-json --export-markdown --export-csv; do
		bad_output "cannot write '$d/shared/report.txt': a symbolic link owned by uid 65533 in the shared directory '$d/shared': give a path of your own" \
			"$opt" "$d/shared/report.txt" -- sh -c 'echo ran >>"$1"' _ "$d/ran"
	done
	[ ! -e "$d/ran" ] || fail "a run was made"
	[ "$(cat "$d/victim")" = precious ]
	[ -L "$d/shared/report.txt" ]
}

@test "compare: a new output file gets the user's umask" {
	local d=$BATS_TEST_TMPDIR
	(umask 027 && "$COMPARE" --from shift.csv -o "$d/r.txt" --plot "$d/p.svg" >/dev/null)
	[ "$(stat -c %a "$d/r.txt")" = 640 ]
	[ "$(stat -c %a "$d/p.svg")" = 640 ]
}

@test "compare: an output that cannot be written after the runs loses nothing: table on stdout, the runs kept, exit 6" {
	[ -w /dev/full ] || skip_unless_works "no /dev/full"
	local d=$BATS_TEST_TMPDIR
	run --separate-stderr env TMPDIR="$d" "$COMPARE" --wide -q -n 2 -w 0 -p none -o /dev/full true
	assert_failure 6
	assert_line --index 0 "pinrun-compare: true"
	assert_line --regexp '^none +0-1 +2 +0 '
	[[ "$stderr" =~ ^"pinrun-compare: cannot write '/dev/full': No space left on device; the runs are kept in '"($d/pinrun-compare-[^\']*\.csv)"' (pinrun-compare --from "[^\)]*")"$ ]] || fail "stderr: $stderr"
	local kept=${BASH_REMATCH[1]}
	run "$COMPARE" --wide --from "$kept" --format csv
	assert_success
	[ "$(grep -vc '^#' <<<"$output")" -eq 3 ]
	# A directory gone by the end (the runs remove it): the other files
	# are written, and --export-csv holds the runs.
	mkdir "$d/gone"
	run --separate-stderr "$COMPARE" --wide -q -n 2 -w 0 -p none --plot "$d/gone/p.svg" --export-json "$d/r.json" \
		--export-csv "$d/r.csv" --cleanup "rm -rf '$d/gone'" true
	assert_failure 6
	[ "$stderr" = "pinrun-compare: cannot write '$d/gone/p.svg': No such file or directory; the runs are in '$d/r.csv'" ]
	[ -s "$d/r.json" ]
	[ "$(lines_of "$d/r.csv")" -eq 3 ]
	# A read-only directory (as root: as a user who cannot write there).
	local as=()
	if [ "$(id -u)" -eq 0 ]; then
		command -v setpriv >/dev/null || skip_unless_works "no setpriv (util-linux)"
		as=(setpriv --reuid=65533 --regid=65533 --clear-groups)
	fi
	mkdir -m 555 "$d/ro"
	chmod 755 "$d"
	run --separate-stderr "${as[@]}" "$COMPARE" --wide -q -n 1 -w 0 -p none -o "$d/ro/out.txt" true
	assert_failure 6
	[ "$stderr" = "pinrun-compare: cannot write '$d/ro/out.txt': Permission denied" ]
}

# --- running ----------------------------------------------------------------

@test "compare: runs are interleaved round-robin after the warm-up rounds" {
	needs_two_cpus
	export LOG=$BATS_TEST_TMPDIR/log
	run --separate-stderr "$COMPARE" -q -n 2 -w 1 --format csv \
		-p "cpus $FIRST" -p "cpus $SECOND" -p none -- \
		sh -c 'awk "/^Cpus_allowed_list/ { print \$2 }" /proc/self/status >>"$LOG"'
	assert_success
	[ -z "$stderr" ]
	# What each run saw, in the order they ran.
	run cat "$LOG"
	assert_output "$(printf '%s\n' "$FIRST" "$SECOND" "$ALLOWED" "$FIRST" "$SECOND" "$ALLOWED" "$FIRST" "$SECOND" "$ALLOWED")"
	# What the CSV says about them.
	run --separate-stderr "$COMPARE" -q -n 2 -w 1 --format csv \
		-p "cpus $FIRST" -p "cpus $SECOND" -p none -- true
	assert_success
	run cut -d, -f1-6 < <(grep -v '^#' <<<"$output")
	assert_output "seq,round,phase,placement,cpus,status
1,1,warmup,cpus $FIRST,$FIRST,ok
2,1,warmup,cpus $SECOND,$SECOND,ok
3,1,warmup,none,$ALLOWED,ok
4,1,measure,cpus $FIRST,$FIRST,ok
5,1,measure,cpus $SECOND,$SECOND,ok
6,1,measure,none,$ALLOWED,ok
7,2,measure,cpus $FIRST,$FIRST,ok
8,2,measure,cpus $SECOND,$SECOND,ok
9,2,measure,none,$ALLOWED,ok"
}

@test "compare: every run records wall, user and sys time, peak RSS, exit status and the machine" {
	[ -x /usr/bin/time ] || skip_unless_works "peak RSS needs GNU time (Debian package time)"
	# dd's 40 MiB buffer counts; the memory of pinrun-compare's Python
	# (about 14 MiB) must not leak into a small command's figure. A run
	# through pinrun counts pinrun's peak before its exec too: about 8 MiB
	# when pinrun is built with ASan (make SAN=1 check).
	local model host
	model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo | tr -s ' ')
	host="${model:-$(uname -m)}, $(getconf _NPROCESSORS_ONLN) CPUs"
	[ "$(expand "$ALLOWED" | tr , '\n' | wc -l)" -eq "$(getconf _NPROCESSORS_ONLN)" ] ||
		host+=" ($(expand "$ALLOWED" | tr , '\n' | wc -l) allowed)"
	host+=", Linux $(uname -r)"
	for cmd in "dd bs=40M count=1 if=/dev/zero of=/dev/null status=none" true; do
		# shellcheck disable=SC2086 # the words of the command
		run --separate-stderr "$COMPARE" -q -n 3 -w 0 --format csv -p none -p hot -- $cmd
		assert_success
		csv_only
		assert_line --index 0 "seq,round,phase,placement,cpus,status,exit,wall_s,user_s,sys_s,maxrss_kb,figure,better,host,vcsw,ivcsw,minflt,majflt,migrations,note"
		[ "${#lines[@]}" -eq 7 ]
		python3 -c "$(cat <<'EOF'
import csv, re, sys
cmd, host = sys.argv[1:]
for r in list(csv.DictReader(sys.stdin)):
    assert (r["status"], r["exit"], r["better"], r["note"], r["host"]) == ("ok", "0", "lower", "", host), r
    for t in ("wall_s", "user_s", "sys_s"):
        assert re.fullmatch(r"[0-9]+\.[0-9]{6}", r[t]), r
    assert float(r["figure"]) == float(r["wall_s"]), r
    rss = int(r["maxrss_kb"])
    # The kernel's counters of the command's tree (wait4's rusage).
    for c in ("vcsw", "ivcsw", "minflt", "majflt"):
        assert re.fullmatch(r"[0-9]+", r[c]), (c, r)
    assert int(r["minflt"]) > 0, r
    if cmd != "true":
        assert 40000 < rss < 80000, r
    else:
        assert rss < (8000 if r["placement"] == "none" else 12000), r
EOF
)" "$cmd" "$host" <<<"$output" || fail "bad runs: $output"
	done
}

@test "compare: CPU migrations per run from perf_event_open, their medians beside the ratio" {
	run --separate-stderr "$COMPARE" --wide -q -n 3 -w 0 -p none -p hot -- sh -c 'sleep 0.01; sleep 0.01'
	assert_success
	if line=$(grep '^migr: n/a: ' <<<"$output"); then
		skip_unless_works "the kernel counts no migrations here: ${line#migr: n/a: }"
	fi
	assert_line --regexp '^placement +CPUs .* majflt +migr +ratio +95% CI +verdict$'
	assert_line --regexp '^none +[0-9,-]+ +3 +0 .* [0-9]+ +1\.000 +- +baseline$'
	assert_line --regexp '^hot +[0-9,-]+ +3 +0 .* [0-9]+ +[0-9.]+ +- +too few runs \(need 6\)$'
	run --separate-stderr "$COMPARE" --wide -q -n 2 -w 0 --format csv -p none -- true
	assert_success
	csv_only
	assert_line --index 1 --regexp '^1,1,measure,none,.*,[0-9]+,[0-9]+,[0-9]+,[0-9]+,[0-9]+,$'
}

@test "compare: where the kernel counts no migrations, the column is n/a once, with the reason" {
	rec=$BATS_TEST_TMPDIR/uncounted.csv
	"$COMPARE" --wide -q -n 6 -w 0 --export-csv "$rec" -p none -p hot -- true >/dev/null
	python3 - "$rec" <<'EOF'
import csv, io, json, re, sys
path = sys.argv[1]
text = open(path).read()
text = re.sub(r"^(# end: )(.*)$", lambda m: m.group(1) + json.dumps(dict(
    json.loads(m.group(2)), uncounted="perf_event_open: Permission denied "
    "(kernel.perf_event_paranoid, or a seccomp filter)")), text, flags=re.M)
out = io.StringIO()
writer = csv.writer(out, lineterminator="\n")
at = None
for line in text.splitlines(True):
    if line.startswith("#"):
        out.write(line)
        continue
    cells = next(csv.reader([line]))
    if at is None:
        at = cells.index("migrations")
    else:
        cells[at] = ""  # the kernel refused: no count
    writer.writerow(cells)
open(path, "w").write(out.getvalue())
EOF
	run --separate-stderr "$COMPARE" --wide --from "$rec"
	assert_line "migr: n/a: perf_event_open: Permission denied (kernel.perf_event_paranoid, or a seccomp filter)"
	[ "$(grep -c '^migr: n/a' <<<"$output")" -eq 1 ]
	refute_line --regexp ' migr '
	run --separate-stderr "$COMPARE" --wide --from "$rec" --format json
	assert_output --partial '"migrations_uncounted": "perf_event_open: Permission denied (kernel.perf_event_paranoid, or a seccomp filter)"'
}

# write_record FILE COMMAND KERNEL THP GOVERNOR [PLACEMENTS]: a record
# with context, two placements (none, hot), six rounds; hot 10% slower.
write_record() {
	local file=$1 cmd=$2 kernel=$3 thp=$4 gov=$5 places=${6:-'{"none": null, "hot": ["--hot"]}'}
	{
		echo '# pinrun-compare record'
		echo "# command: [\"$cmd\"]"
		echo '# metric: null'
		echo '# unit: "s"'
		echo '# better: "lower"'
		echo '# host: "Test CPU, 2 CPUs, Linux '"$kernel"'"'
		echo "# placements: $places"
		echo '# fingerprint: {"kernel": "'"$kernel"'", "load": "0.10 0.20 0.30", "smt": "off", "thp": "'"$thp"'", "numa_balancing": "0", "placements": {"none": {"cpus": "0-1", "governor": "'"$gov"'", "mhz": 2000, "smt_siblings_online": 0}, "hot": {"cpus": "0", "governor": "'"$gov"'", "mhz": 2100, "smt_siblings_online": 0}}}'
		echo 'seq,round,phase,placement,cpus,status,exit,wall_s,figure,better'
		for r in 1 2 3 4 5 6; do
			echo "$((2 * r - 1)),$r,measure,none,0-1,ok,0,0.0$((10 + r)),0.0$((10 + r)),lower"
			echo "$((2 * r)),$r,measure,hot,0,ok,0,0.0$((11 + r))1,0.0$((11 + r))1,lower"
		done
		echo '# end: {"interrupted": null, "stopped": null, "runs_made": 12, "runs_planned": 12}'
	} >"$file"
}

# from_two KERNEL THP GOVERNOR: --from a.csv --from b.csv succeeds, b.csv
# of the same command from those conditions.
from_two() {
	cd "$BATS_TEST_TMPDIR" || return
	write_record a.csv work 6.1.0 madvise performance
	write_record b.csv work "$@"
	run --separate-stderr "$COMPARE" --wide --from a.csv --from b.csv
	assert_success
}

@test "compare: --from twice analyses two records of the same command together" {
	from_two 6.1.0 madvise performance
	assert_line --index 0 "pinrun-compare: work"
	assert_line --index 1 --partial "; runs recorded in a.csv, b.csv"
	assert_line --regexp '^none +0-1 +12 +0 '
	assert_line --regexp '^hot +0 +12 +0 .* no significant difference|^hot +0 +12 +0 .* slower$'
	refute_output --partial "warning"
	run --separate-stderr "$COMPARE" --wide --from a.csv --from b.csv --format json
	assert_output --partial '"from": "a.csv, b.csv"'
	run --separate-stderr "$COMPARE" --wide --from a.csv --from ./a.csv
	assert_failure 2
	[ "$stderr" = "pinrun-compare: --from names the file './a.csv' twice
Try 'pinrun-compare --help' for more information." ]
}

@test "compare: records of another command, unit or placements are refused with exit 5" {
	cd "$BATS_TEST_TMPDIR"
	write_record a.csv work 6.1.0 madvise performance
	write_record b.csv other 6.1.0 madvise performance
	write_record c.csv work 6.1.0 madvise performance '{"none": null, "hot": ["--cpus", "1"]}'
	sed 's/^# unit: "s"$/# unit: null/' a.csv >d.csv
	for case in "b.csv:the command differs" "c.csv:the placements differ" "d.csv:the unit differs"; do
		run --separate-stderr "$COMPARE" --from a.csv --from "${case%%:*}"
		assert_failure 5
		assert_output ""
		[ "$stderr" = "pinrun-compare: ${case%%:*}: cannot be analysed with a.csv: ${case#*:}" ]
	done
}

@test "compare: records from conditions that cannot be compared warn in one line naming the keys" {
	from_two 6.12.0 always powersave
	assert_line "warning: a.csv and b.csv come from conditions that cannot be compared: machine, kernel, THP, governor differ"
	[ "$(grep -c '^warning' <<<"$output")" -eq 1 ]
	# The load and the frequency may differ.
	sed 's/"load": "0.10 0.20 0.30"/"load": "9.00 9.00 9.00"/; s/"mhz": 2000/"mhz": 800/' a.csv >c.csv
	run --separate-stderr "$COMPARE" --wide --from a.csv --from c.csv
	assert_success
	refute_output --partial "warning"
}

@test "compare: a failed run is reported, not hidden, and the exit status is 3" {
	run --separate-stderr "$COMPARE" --wide -q -n 2 -w 0 -p none -p hot -- sh -c 'echo "no luck" >&2; exit 4'
	assert_failure 3
	assert_line --regexp "^none +[-0-9,]+ +0 +2 +- +- +- +- +- +- +baseline$"
	assert_line --regexp "^hot +[0-9]+ +0 +2 +- +- +- +- +- +- +too few runs \(need 6\)$"
	assert_line "hot: no round with a successful run of both it and the baseline; 6 would reach 95%"
	assert_line "failed: none, runs 1, 3: exit 4: no luck"
	assert_line "failed: hot, runs 2, 4: exit 4: no luck"
	[ -z "$stderr" ]
	# -i: the status is recorded, the run counts.
	run --separate-stderr "$COMPARE" --wide -q -i -n 2 -w 0 --format csv -p none -- sh -c 'exit 4'
	assert_success
	csv_only
	assert_line --index 1 --regexp '^1,1,measure,none,[-0-9,]+,ok,4,'
}

@test "compare: when a placement's first 3 runs all fail it stops there, unless -i" {
	local csv=$BATS_TEST_TMPDIR/runs.csv
	run --separate-stderr "$COMPARE" --wide -q -n 10 -w 1 -p none -p hot --export-csv "$csv" -- sh -c 'echo "no luck" >&2; exit 1'
	assert_failure 3
	[ "$stderr" = "pinrun-compare: stopped: the first 3 runs of 'none' failed: exit 1: no luck (-i counts runs whatever their exit status)" ]
	assert_line --index 0 "pinrun-compare: sh -c 'echo \"no luck\" >&2; exit 1'"
	assert_line --index 1 "figure: wall time in seconds (lower is better); 10 runs per placement after 1 warm-up round, interleaved; stopped after 5 of 22 runs"
	assert_line "failed: none, runs 1, 3, 5: exit 1: no luck"
	assert_line "failed: hot, runs 2, 4: exit 1: no luck"
	run cut -d, -f1-4,6,7 < <(grep -v '^#' "$csv")
	assert_output "seq,round,phase,placement,status,exit
1,1,warmup,none,failed,1
2,1,warmup,hot,failed,1
3,1,measure,none,failed,1
4,1,measure,hot,failed,1
5,2,measure,none,failed,1"
	# -i: every run is made and counts.
	run --separate-stderr "$COMPARE" --wide -q -i -n 5 -w 1 -p none -p hot --export-csv "$csv" -- sh -c 'exit 1'
	assert_success
	[ "$(lines_of "$csv")" -eq 13 ]
}

@test "compare: it says which placement failed its first runs, and how" {
	needs_two_cpus
	run --separate-stderr "$COMPARE" -q -n 10 -w 0 -p none -p hot --format csv -- \
		sh -c '[ "$(nproc)" -gt 1 ] || { echo "needs 2 CPUs, has $(nproc)" >&2; exit 7; }'
	assert_failure 3
	[ "$stderr" = "pinrun-compare: stopped: the first 3 runs of 'hot' failed: exit 7: needs 2 CPUs, has 1 (-i counts runs whatever their exit status)" ]
	run cut -d, -f1-4,6 < <(grep -v '^#' <<<"$output")
	assert_output "seq,round,phase,placement,status
1,1,measure,none,ok
2,1,measure,hot,failed
3,2,measure,none,ok
4,2,measure,hot,failed
5,3,measure,none,ok
6,3,measure,hot,failed"
}

@test "compare: --ignore-status counts a run by its time whatever its exit status (long options)" {
	run --separate-stderr "$COMPARE" --quiet --runs 2 --warmup 0 --placement none --placement hot \
		--ignore-status --format csv -- sh -c 'exit 4'
	assert_success
	[ -z "$stderr" ]
	csv_only
	[ "${#lines[@]}" -eq 5 ]
	run cut -d, -f1-4,6,7 < <(grep -v '^#' <<<"$output")
	assert_output "seq,round,phase,placement,status,exit
1,1,measure,none,ok,4
2,1,measure,hot,ok,4
3,2,measure,none,ok,4
4,2,measure,hot,ok,4"
}

@test "compare: --timeout kills a run and its children; it fails" {
	run --separate-stderr "$COMPARE" -q -n 1 -w 0 -p none -p 'spread --follow' --timeout 0.5 --format csv -- \
		sh -c 'sleep 37.5 & sleep 37.5; wait'
	# Both timed out in the only round: nothing to tell them apart.
	assert_failure 4
	csv_only
	assert_line --index 1 --regexp '^1,1,measure,none,[-0-9,]+,failed,timeout,0\.[5-9][0-9]*,.*,killed after the 0.5 s timeout$'
	assert_line --index 2 --regexp '^2,1,measure,spread --follow,[-0-9,]+,failed,timeout,0\.[5-9][0-9]*,.*,killed after the 0.5 s timeout$'
	run pgrep -f '^sleep 37.5$'
	[ -z "$output" ] || fail "left behind: $output"
}

@test "compare: --prepare and --cleanup run around every run, untimed, and can fail it" {
	export LOG=$BATS_TEST_TMPDIR/log
	run --separate-stderr "$COMPARE" -q -n 2 -w 1 -p none -p hot --format csv \
		--prepare 'echo "prepare $PINRUN_COMPARE_PLACEMENT $PINRUN_COMPARE_PHASE $PINRUN_COMPARE_ROUND $PINRUN_COMPARE_RUN" >>"$LOG"; sleep 0.3' \
		--cleanup 'echo "cleanup $PINRUN_COMPARE_PLACEMENT $PINRUN_COMPARE_RUN" >>"$LOG"; sleep 0.3' \
		-- sh -c 'echo "run ${PINRUN_COMPARE_RUN:-(not set)}" >>"$LOG"'
	assert_success
	run cat "$LOG"
	assert_output "prepare none warmup 1 1
run (not set)
cleanup none 1
prepare hot warmup 1 2
run (not set)
cleanup hot 2
prepare none measure 1 3
run (not set)
cleanup none 3
prepare hot measure 1 4
run (not set)
cleanup hot 4
prepare none measure 2 5
run (not set)
cleanup none 5
prepare hot measure 2 6
run (not set)
cleanup hot 6"
	# The 0.3 s of each is in no figure.
	awk -F, 'NR > 1 && $8 >= 0.3 { bad = 1; print } END { exit bad }' <<<"$output" || fail "timed: $output"
	# A failed prepare fails the run, and the command does not run.
	rm "$LOG"
	run --separate-stderr "$COMPARE" -q -n 1 -w 0 -p none --prepare 'echo "nothing to clean" >&2; exit 2' \
		-- sh -c 'echo ran >>"$LOG"'
	assert_failure 3
	assert_line "failed: none, run 1: prepare exited with status 2: nothing to clean"
	[ ! -e "$LOG" ]
	# A failed cleanup fails the run.
	run --separate-stderr "$COMPARE" -q -n 1 -w 0 -p none --cleanup 'exit 5' -- true
	assert_failure 3
	assert_line "failed: none, run 1: cleanup exited with status 5"
	# The timeout applies to each.
	run --separate-stderr "$COMPARE" -q -n 1 -w 0 -p none --timeout 0.3 --prepare 'sleep 38.5' -- true
	assert_failure 3
	assert_line "failed: none, run 1: prepare killed after the 0.3 s timeout"
}

@test "compare: --metric compares the metric's last line while the command runs" {
	run --separate-stderr "$COMPARE" -q -n 2 -w 0 -p none -p hot --format csv --higher-is-better \
		--metric 'echo starting; kill -0 "$PINRUN_COMPARE_PID" && echo "$PINRUN_COMPARE_RUN"0' -- sleep 30
	assert_success
	run cut -d, -f1-4,6,7,12,13 < <(grep -v '^#' <<<"$output")
	assert_output "seq,round,phase,placement,status,exit,figure,better
1,1,measure,none,ok,SIGINT,10,higher
2,1,measure,hot,ok,SIGINT,20,higher
3,2,measure,none,ok,SIGINT,30,higher
4,2,measure,hot,ok,SIGINT,40,higher"
}

@test "compare: a command that ignores SIGINT is stopped with SIGTERM after its metric" {
	run --separate-stderr "$COMPARE" -q -n 1 -w 0 -p none --format csv --metric 'sleep 0.5; echo 3' -- \
		sh -c 'trap "" INT; while :; do sleep 0.1; done'
	assert_success
	csv_only
	assert_line --index 1 --regexp '^1,1,measure,none,[-0-9,]+,ok,SIGTERM,2\.[5-9][0-9]*,.*,3,lower,.*,$'
}

@test "compare: a figure that is not a finite plain decimal fails its run, said in one escaped, limited line" {
	local fig
	# float() took all of these.
	for fig in 1_000 '١٢٣' inf nan 1e309 Infinity ' 0x10'; do
		run --separate-stderr "$COMPARE" --wide -q -n 1 -w 0 -p none --metric "printf '%s\\n' '$fig'" -- sleep 30
		assert_failure 3
		assert_line "failed: none, run 1: metric printed no positive number last: '${fig# }'"
	done
	# Still figures: exponents, a leading +, no integer part.
	run --separate-stderr "$COMPARE" --wide -q -n 1 -w 0 -p none --metric 'echo +.5e-3' --format csv -- sleep 30
	assert_success
	csv_only
	assert_line --index 1 --regexp ',ok,.*,0\.0005,lower,'
	# A 3 MB line: 120 characters of its end, and how many more.
	run --separate-stderr "$COMPARE" --wide -q -n 1 -w 0 -p none --metric "head -c 3000000 /dev/zero | tr '\\0' x; echo" -- sleep 30
	assert_failure 3
	assert_line "failed: none, run 1: metric printed no positive number last: '$(printf 'x%.0s' $(seq 120))... (65415 more characters)'"
	# A terminal's control characters, from the command's stderr.
	run --separate-stderr "$COMPARE" --wide -q -n 1 -w 0 -p none -- sh -c 'printf "\033[2J\033]0;owned\007gone\r\n" >&2; exit 1'
	assert_failure 3
	assert_line 'failed: none, run 1: exit 1: \x1b[2J\x1b]0;owned\x07gone'
	[[ "$output" != *$'\e'* ]] || fail "an escape character reached the terminal"
}

@test "compare: huge and tiny figures of a record: ratios from logs, no overflow, no traceback" {
	local rec=$BATS_TEST_TMPDIR/huge.csv r fmt
	echo round,phase,placement,status,figure,better >"$rec"
	for r in 1 2 3 4 5 6 7; do
		printf '%s,measure,none,ok,1e-300,lower\n%s,measure,hot,ok,1.7e308,lower\n%s,measure,spread,ok,5e-324,lower\n' "$r" "$r" "$r" >>"$rec"
	done
	run --separate-stderr "$COMPARE" --wide --from "$rec" --fail-if-slower 5
	assert_failure 1
	assert_line "hot           7       0    1.7e+308    1.7e+308    1.7e+308    0  1.70e+608  [1.70e+608, 1.70e+608]  slower than 5%"
	assert_line "spread        7       0  4.941e-324  4.941e-324  4.941e-324    0   4.94e-24  [4.94e-24, 4.94e-24]    no slower than 5%"
	[ "$stderr" = "pinrun-compare: 'hot' is slower than 'none' by more than 5%: ratio 1.70e+608, 95% CI [1.70e+608, 1.70e+608]
pinrun-compare: 'spread' is no slower than 'none' by more than 5%: ratio 4.94e-24, 95% CI [4.94e-24, 4.94e-24]" ]
	for fmt in json markdown csv; do
		run --separate-stderr "$COMPARE" --wide --from "$rec" --format "$fmt" --plot "$BATS_TEST_TMPDIR/h.svg"
		assert_success
		[ -z "$stderr" ] || fail "$fmt: $stderr"
	done
	json_check 'assert doc["placements"][1]["ratio"] is None and abs(doc["placements"][1]["log_ratio"] - 1400.5) < 0.1, doc["placements"][1]' < <("$COMPARE" --wide --from "$rec" --format json)
	# A figure float() reads but a record must not hold.
	printf '8,measure,none,ok,1_000,lower\n' >>"$rec"
	bad_record "$rec: line 23: invalid figure '1_000'" --from "$rec"
}

@test "compare: --from reads a byte order mark, escapes the names it echoes, and a 100000-deep header is a bad record" {
	cd "$BATS_TEST_TMPDIR"
	# A UTF-8 byte order mark (as an editor or a spreadsheet saves one)
	# before a record's first line, "# pinrun-compare record": the same
	# record (it was refused: no column round, ...).
	"$COMPARE" --wide -q -n 6 -w 0 -p none --export-csv plain.csv -- true >/dev/null
	{ printf '\357\273\277'; cat plain.csv; } >bom.csv
	run --separate-stderr "$COMPARE" --wide --from bom.csv
	assert_success
	[ "$output" = "$("$COMPARE" --wide --from plain.csv | sed "s|plain.csv|bom.csv|")" ]
	{ printf '\357\273\277'; cat "$FIX/shift.csv"; } >bom.csv
	run --separate-stderr "$COMPARE" --wide --from bom.csv
	assert_success
	# An ESC in a name, a CPU list and a host goes to the terminal escaped.
	sed 's/,hot,1,/,\x1b[2Jhot,\x1b[2J1,/; s/Made-up CPU/\x1b]0;x\x07Made-up CPU/' "$FIX/shift.csv" >esc.csv
	run --separate-stderr "$COMPARE" --wide --from esc.csv --fail-if-slower 10
	assert_failure 1
	[[ "$output$stderr" != *$'\e'* && "$output$stderr" != *$'\a'* ]] || fail "a control character reached the terminal"
	assert_line --regexp '^\\x1b\[2Jhot +\\x1b\[2J1 +8 '
	assert_line "machine: \\x1b]0;x\\x07Made-up CPU, 2 CPUs, Linux 6.1.0"
	[ "${stderr_lines[0]}" = "pinrun-compare: '\\x1b[2Jhot' is slower than 'none' by more than 10%: ratio 2.013, 95% CI [1.944, 2.091]" ]
	# A header line nested 100000 deep: Python's parser gives up (it was
	# an internal error, 70).
	python3 -c 'import sys; sys.stdout.write("# pinrun-compare record\n# command: " + "[" * 100000 + "]" * 100000 + "\n")' >deep.csv
	cat "$FIX/shift.csv" >>deep.csv
	bad_record "deep.csv: line 2: '# command:' line: its value is nested too deeply" --from deep.csv
}

@test "compare: only the last 64 KiB of a run's standard error is kept, and not on disk" {
	# A file size limit of 1 MiB, and a command printing 3 MB to its
	# standard error: kept whole in a file, it was killed by SIGXFSZ
	# ("SIGXFSZ: x"); now its own status and last line are reported.
	run --separate-stderr bash -c 'ulimit -f 2048; "$1" -q -n 1 -w 0 -p none -- sh -c "yes x | head -c 3000000 >&2; echo the last line >&2; exit 3"' _ "$COMPARE"
	assert_failure 3
	assert_line "failed: none, run 1: exit 3: the last line"
}

@test "compare: a metric that prints no number, or fails, fails the run" {
	run --separate-stderr "$COMPARE" -q -n 1 -w 0 -p none --metric 'echo 12; echo n/a' -- sleep 30
	assert_failure 3
	assert_line "failed: none, run 1: metric printed no positive number last: 'n/a'"
	run --separate-stderr "$COMPARE" -q -n 1 -w 0 -p none --metric 'echo refused >&2; exit 7' -- sleep 30
	assert_failure 3
	assert_line "failed: none, run 1: metric exited with status 7: refused"
	run --separate-stderr "$COMPARE" -q -n 1 -w 0 -p none --metric 'sleep 1; echo 5' -- sh -c 'echo crashed >&2; exit 1'
	assert_failure 3
	assert_line "failed: none, run 1: the command ended before the metric: exit 1: crashed"
}

@test "compare: live, CPU-bound processes hot and spread: a valid verdict with its reasons, whichever it is" {
	# Which placement wins depends on what else the machine runs: that is
	# a benchmark's to say. A test can say the tool reaches one of the
	# verdicts it may reach, and that its exit status, interval and
	# messages agree with it.
	needs_two_cpus
	local burn='awk "BEGIN { for (i = 0; i < 300000; i++) s += i }"'
	run --separate-stderr "$COMPARE" -q -n 6 -w 1 -p spread -p hot --format json --fail-if-slower 10 -- \
		sh -c "$burn & $burn & $burn & $burn & wait"
	case $status in
	0 | 1 | 4) ;;
	*) fail "exit status $status: $stderr" ;;
	esac
	export STATUS=$status
	json_check '
import os
status = int(os.environ["STATUS"])
hot = doc["placements"][1]
v = hot["verdict"]
assert v in ("slower than 10%", "no slower than 10%", "not decided at 10%"), hot
assert hot["pairs"] == 6 and hot["runs"] == 6 and hot["failed"] == 0, hot
if v == "slower than 10%":
    assert hot["ci_low"] > 1.1, hot
elif v == "no slower than 10%":
    assert hot["ci_high"] <= 1.1, hot
else:
    assert hot["ci_low"] <= 1.1 < hot["ci_high"], hot
assert hot["slower_than_allowed"] == (status == 1), (status, hot)
assert hot["slower_than_allowed"] == (v == "slower than 10%"), hot
assert hot["cannot_decide"] == (status == 4), (status, hot)' <<<"$output"
	case $status in
	0) [[ "$stderr" == "pinrun-compare: 'hot' is no slower than 'spread' by more than 10%: ratio "* ]] || fail "exit 0 with: $stderr" ;;
	1) [[ "$stderr" == "pinrun-compare: 'hot' is slower than 'spread' by more than 10%: ratio "* ]] || fail "no gate message: $stderr" ;;
	4) [[ "$stderr" == "pinrun-compare: not decided whether 'hot' is slower than 'spread' by more than 10%: ratio "* ]] || fail "no reason: $stderr" ;;
	esac
}

# --- progress ---------------------------------------------------------------

# rounds: stderr's progress records in $rounds, each a record's rows joined
# (a row under the one before is indented by 16 spaces), every row at most
# 80 columns.
progress_records() {
	local row
	rounds=()
	for row in "${stderr_lines[@]}"; do
		[ "${#row}" -le 80 ] || fail "a row of ${#row} columns: '$row'"
		if [[ $row == "                "[!\ ]* ]]; then
			rounds[${#rounds[@]} - 1]+=" ${row#                }"
		else
			rounds+=("$row")
		fi
	done
}

# The live line's writes on a terminal of $1 columns ($output, from script):
# each clear goes up as many rows as the line before it took, and no row
# is wider than the terminal's last column.
live_rows() {
	python3 - "$1" "$output" <<'EOF' || fail "live line: $(printf '%q' "$output")"
import re, sys
cols, out = int(sys.argv[1]), sys.argv[2]
parts = re.split(r"\r\x1b\[K((?:\x1b\[1A\x1b\[K)*)", out)
# parts: text before the first clear, then (ups, line) pairs
lines = parts[2::2]
ups = [u.count("\x1b[1A") for u in parts[1::2]]
assert len(lines) > 2, lines
for i, line in enumerate(lines[:-1]):
    rows = line.split("\r\n")
    assert ups[i + 1] == len(rows) - 1, (i, ups[i + 1], rows)
    assert all(len(r) < cols for r in rows), rows
print(max(len(line.split("\r\n")) for line in lines))
EOF
}

@test "compare: progress: one line per round on a pipe, one live line on a terminal, none with -q" {
	run --separate-stderr "$COMPARE" -n 2 -w 1 -p none -p hot --format csv -- true
	assert_success
	progress_records
	[ "${#rounds[@]}" -eq 3 ] || fail "stderr: $stderr"
	# Wider than 80 columns, a record wraps at its "; " parts.
	[ "${#stderr_lines[@]}" -eq 6 ] || fail "stderr: $stderr"
	assert_equal "${stderr_lines[1]}" "                ratio to none: hot -"
	local t='[0-9]+:[0-9]{2}'
	[[ "${rounds[0]}" =~ ^"pinrun-compare: round 1 of 3 (warm-up), "$t" elapsed, about "$t" left; ratio to none: hot -"$ ]] ||
		fail "record 1: ${rounds[0]}"
	[[ "${rounds[1]}" =~ ^"pinrun-compare: round 2 of 3, "$t" elapsed, about "$t" left; ratio to none: hot "[0-9]\.[0-9]{3}$ ]] ||
		fail "record 2: ${rounds[1]}"
	[[ "${rounds[2]}" =~ ^"pinrun-compare: round 3 of 3, "$t" elapsed, about 0:00 left; ratio to none: hot "[0-9]\.[0-9]{3}$ ]] ||
		fail "record 3: ${rounds[2]}"
	# The running ratio is the median of the rounds' ratios so far.
	python3 -c "$(cat <<'EOF'
import csv, statistics, sys
runs = [r for r in csv.DictReader(l for l in sys.stdin if not l.startswith("#")) if r["phase"] == "measure"]
by = {(r["round"], r["placement"]): float(r["figure"]) for r in runs}
ratios = [by[k, "hot"] / by[k, "none"] for k in ("1", "2")]
assert "%.3f" % statistics.median(ratios) == sys.argv[1], (ratios, sys.argv[1])
EOF
)" "${rounds[2]##* }" <<<"$output" || fail "ratio: $output"
	# Failures are counted as they come.
	run --separate-stderr "$COMPARE" -n 1 -w 0 -p none -p hot -- false
	assert_failure 3
	progress_records
	[ "${#rounds[@]}" -eq 1 ] || fail "stderr: $stderr"
	[[ "${rounds[0]}" =~ ^"pinrun-compare: round 1 of 1, "$t" elapsed, about 0:00 left; ratio to none: hot -; failed: none 1, hot 1"$ ]] ||
		fail "stderr: $stderr"
	# On a terminal: one line, rewritten run by run, cleared at the end.
	command -v script >/dev/null || skip_unless_works "no script(1) (Debian package bsdutils)"
	run env COLUMNS=300 script -qec "$(printf '%q ' "$COMPARE" -n 2 -w 1 -p none -p hot -o /dev/null -- true)" /dev/null
	assert_success
	[[ "$output" == *$'\r\e[Kpinrun-compare: round 1 of 3 (warm-up), none (1 of 2), '*' elapsed; ratio to none: hot -'$'\r\e[Kpinrun-compare: round 1 of 3 (warm-up), hot (2 of 2), '* ]] ||
		fail "no live line: $(printf '%q' "$output")"
	[[ "$output" == *$'\r\e[Kpinrun-compare: round 3 of 3, hot (2 of 2), '*' left; ratio to none: hot '[0-9].[0-9][0-9][0-9]$'\r\e[K'* ]] ||
		fail "no last line: $(printf '%q' "$output")"
	run live_rows 300
	assert_output 1
	# Wider than the terminal: whole, never cut, wrapped at spaces short of
	# its last column; the next line clears every row it took first.
	run env COLUMNS=50 script -qec "$(printf '%q ' "$COMPARE" -n 2 -w 1 -p none -p hot -o /dev/null -- true)" /dev/null
	assert_success
	[[ "$output" == *$'\r\e[Kpinrun-compare: round 1 of 3 (warm-up), none (1\r\n                of 2), '* ]] ||
		fail "not wrapped at a space: $(printf '%q' "$output")"
	run live_rows 50
	assert_success
	[ "$output" -ge 3 ] || fail "rows: $output"
	run script -qec "$(printf '%q ' "$COMPARE" -q -n 2 -w 1 -p none -p hot -o /dev/null -- true)" /dev/null
	assert_success
	[[ "$output" != *"pinrun-compare: round"* && "$output" != *$'\e'* ]] || fail "progress with -q: $(printf '%q' "$output")"
}

# --- never losing a run ---------------------------------------------------------

@test "compare: on SIGTERM or SIGINT the run in progress is killed, and every report is of the runs made" {
	needs_program jq -- to read the JSON reports
	cd "$BATS_TEST_TMPDIR"
	local sig code pid n got
	for sig in TERM INT; do
		code=$((128 + $(kill -l "$sig")))
		rm -rf "$sig" && mkdir "$sig" && cd "$sig"
		echo old >report.json
		"$COMPARE" --wide -n 50 -w 0 -p none -p hot --export-csv runs.csv --export-json report.json \
			--plot plot.svg -o table.md --format markdown -- sleep 0.317 >stdout 2>stderr &
		pid=$!
		wait_lines runs.csv 4
		# The reports are written at the end only, whole.
		[ "$(cat report.json)" = old ] || fail "report.json rewritten during the runs"
		[ ! -e plot.svg ] && [ ! -e table.md ]
		kill "-$sig" "$pid"
		got=0
		wait "$pid" || got=$?
		[ "$got" -eq "$code" ] || fail "SIG$sig: exit status $got, want $code: $(cat stderr)"
		n=$(($(lines_of runs.csv) - 1))
		run cat stderr
		assert_line "pinrun-compare: interrupted by SIG$sig after $n of 100 runs: the report is of those"
		run cat stdout
		assert_line --index 1 --regexp "^figure: wall time in (seconds|milliseconds) \(lower is better\); 50 runs per placement after 0 warm-up rounds, interleaved; interrupted by SIG$sig after $n of 100 runs\$"
		run --separate-stderr "$COMPARE" --wide --from runs.csv
		assert_line --index 1 --regexp "; interrupted by SIG$sig after $n of 100 runs\$"
		run --separate-stderr "$COMPARE" --wide --from runs.csv --format json
		assert_success
		[ "$(jq -c '[.placements[] | [.runs, .failed]]' report.json)" = "$(jq -c '[.placements[] | [.runs, .failed]]' <<<"$output")" ] ||
			fail "report.json and runs.csv disagree"
		[ "$(jq -r .interrupted report.json)" = "SIG$sig" ]
		[ "$(jq '.runs | length' report.json)" -eq "$n" ]
		grep -q "^### pinrun-compare: \`sleep 0.317\`" table.md
		grep -q '</svg>' plot.svg
		# No temporary file is left, and no command.
		run ls -A
		assert_output "plot.svg
report.json
runs.csv
stderr
stdout
table.md"
		run pgrep -f '^sleep 0.317$'
		[ -z "$output" ] || fail "left behind: $output"
		cd ..
	done
}

@test "compare: a record carries its context: --from reports the command, unit, metric, placements and how it ended" {
	local rec=$BATS_TEST_TMPDIR/rec.csv
	run --separate-stderr "$COMPARE" --wide -q -n 2 -w 0 -p none -p 'spread --follow' --metric 'echo 5' --export-csv "$rec" -- sleep 30
	assert_success
	run head -n 1 "$rec"
	assert_output "# pinrun-compare record"
	run --separate-stderr "$COMPARE" --wide --from "$rec"
	assert_success
	assert_line --index 0 "pinrun-compare: sleep 30"
	assert_line --index 1 "figure: the metric's figure (lower is better); runs recorded in $rec"
	assert_line "metric: echo 5"
	run --separate-stderr "$COMPARE" --wide --from "$rec" --format json
	json_check 'assert doc["command"] == ["sleep", "30"] and doc["metric"] == "echo 5", doc
assert [p["pinrun"] for p in doc["placements"]] == [None, ["--spread", "--follow"]], doc["placements"]' <<<"$output"
	# A CSV reader that skips the comment lines reads the runs alone.
	python3 -c 'import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
assert [r["placement"] for r in rows] == ["none", "spread --follow"] * 2, rows' "$rec"
	# --format csv of a record gives the record back, context and all.
	run --separate-stderr "$COMPARE" --wide --from "$rec" --format csv
	assert_success
	[ "$output" = "$(cat "$rec")" ] || fail "not the same record"
	# Wall time: the unit is known, and chosen.
	run --separate-stderr "$COMPARE" --wide -q -n 1 -w 0 -p none --export-csv "$rec" true
	run --separate-stderr "$COMPARE" --wide --from "$rec"
	assert_line --index 0 "pinrun-compare: true"
	assert_line --index 1 --regexp "^figure: wall time in (milliseconds|microseconds|seconds) \(lower is better\); runs recorded in $rec\$"
	# Cut short (no last line): said.
	head -n -1 "$rec" >"$rec.cut"
	run --separate-stderr "$COMPARE" --wide --from "$rec.cut"
	assert_line --index 1 --regexp "; runs recorded in $rec.cut; the record ends before its last line: cut short\$"
	# Conditions that changed between the first run and the last (here
	# transparent huge pages) make the runs unlike: said.
	sed -i -E '$ s/"thp": ("[a-z]+"|null)/"thp": "changed"/' "$rec"
	run --separate-stderr "$COMPARE" --wide --from "$rec"
	assert_line --regexp '^warning: the conditions changed during the runs: thp: ([a-z]+|None) -> changed$'
	# An old record (no context) still reads as before.
	run --separate-stderr "$COMPARE" --wide --from "$FIX/shift.csv"
	assert_success
	assert_line --index 0 "figure: the recorded figure (lower is better); runs recorded in $FIX/shift.csv"
}

@test "compare: two close signals, as timeout sends them, still report the runs made; SIGCHLD ignored works" {
	cd "$BATS_TEST_TMPDIR"
	# timeout signals its command, then its own process group (the
	# command again): the second signal used to end pinrun-compare with
	# no report, 3 times in 5. The same two signals, once runs are made
	# (a fixed timeout may come before the first on a loaded machine),
	# three times.
	local k pid
	for k in 1 2 3; do
		rm -f t.csv out err
		set -m
		"$COMPARE" -q -n 50 -w 0 -p none -p 'cpus 0' --export-csv t.csv -- sleep 0.2 >out 2>err &
		pid=$!
		set +m
		local waited=0 st=0
		until [ -f t.csv ] && [ "$(grep -c ',measure,' t.csv)" -ge 2 ]; do
			sleep 0.05
			waited=$((waited + 1))
			[ "$waited" -lt 1200 ] || fail "try $k: no runs in 60 s"
		done
		kill -TERM "$pid"
		kill -TERM -- "-$pid"
		wait "$pid" || st=$?
		[ "$st" -eq 143 ] || fail "try $k: exit $st: $(cat err)"
		run cat out
		assert_line --regexp '^placement +runs +median \[ms\] +ratio +95% CI +verdict$'
		assert_line --regexp '^none +[0-9]+ +[0-9.]+ +1\.000 '
		[[ "$(cat err)" == *"pinrun-compare: interrupted by SIGTERM after "*" of 100 runs: the report is of those" ]] || fail "try $k: $(cat err)"
		[[ "$(tail -n 1 t.csv)" == "# end: {\"interrupted\": \"SIGTERM\""* ]] || fail "try $k: $(tail -n 1 t.csv)"
	done
	# Started with SIGCHLD ignored (the kernel would reap the commands
	# first): it was an internal error, or "does not run the command".
	run --separate-stderr python3 -c 'import os, signal, sys; signal.signal(signal.SIGCHLD, signal.SIG_IGN); os.execv(sys.argv[1], sys.argv[1:])' \
		"$COMPARE" -q -n 6 -w 0 -p none -p 'cpus 0' -- sh -c 'exit 0'
	assert_success
	assert_line --regexp '^cpus 0 +6 +[0-9.]+ +[0-9.]+ +\[[0-9.]+, [0-9.]+\] +'
	[ -z "$stderr" ]
}

@test "compare: the record grows run by run: after a SIGKILL, --from analyses what it holds" {
	mkdir "$BATS_TEST_TMPDIR/k" && cd "$BATS_TEST_TMPDIR/k"
	# Each run counts the record's lines when it starts: the header and
	# one line per run before it, so 1, 2, 3...
	"$COMPARE" --wide -q -n 50 -w 1 -p none -p hot --export-csv runs.csv --export-json r.json -- \
		sh -c 'grep -vc "^#" runs.csv >>seen; sleep 0.219' &
	local pid=$!
	wait_lines seen 6
	kill -KILL "$pid"
	local st=0
	wait "$pid" || st=$?
	[ "$st" -eq 137 ] || fail "pinrun-compare killed by SIGKILL: status $st"
	# The run in progress was orphaned; it may have ended already (1).
	pkill -f '^sleep 0.219$' || [ $? -eq 1 ]
	run awk '$1 != NR { print NR ": " $1 }' seen
	assert_output ""
	# The last run is in the record, or was killed before its end.
	[ "$(lines_of runs.csv)" -ge "$(wc -l <seen)" ]
	run --separate-stderr "$COMPARE" --wide --from runs.csv --format csv
	assert_success
	[ "$output" = "$(cat runs.csv)" ] || fail "the record changed on re-reading"
	run --separate-stderr "$COMPARE" --wide --from runs.csv
	assert_success
	assert_line --regexp '^hot +[-0-9,]+ +[0-9]+ +0 +'
	[ ! -e r.json ] || fail "a report was written"
	[ -z "$(ls -A | grep -v '^runs.csv$' | grep -v '^seen$')" ] || fail "left: $(ls -A)"
}

# --- statistics on recorded runs ---------------------------------------------

@test "compare: a steady 3% that a 2x drift between rounds hides from independent samples is found paired" {
	# drift.csv: the machine's speed moves up to 2x from round to round,
	# and hot is 3% slower within every round. R's rank-sum (unpaired)
	# interval holds 1; the signed-rank (paired) one does not.
	run awk -F, '$1 == "drift.csv" { print $3, $7, $8, $9 }' wilcox-expected.csv
	assert_output "paired 1.03000083229214 1.02949172652751 1.03104284599201
unpaired 1.02984410281552 0.824787157383437 1.28717875578308"
	run --separate-stderr "$COMPARE" --wide --from drift.csv --fail-if-slower 2
	assert_failure 1
	assert_line "hot        1       12       0   1.492  1.032  2.060  0.309  1.030  [1.029, 1.031]  slower than 2%"
	[ "$stderr" = "pinrun-compare: 'hot' is slower than 'none' by more than 2%: ratio 1.030, 95% CI [1.029, 1.031]" ]
	# 3%: the interval straddles 1.030, not decided.
	run --separate-stderr "$COMPARE" --wide --from drift.csv --fail-if-slower 3
	assert_failure 4
	run --separate-stderr "$COMPARE" --wide --from drift.csv --fail-if-slower 4
	assert_success
}

@test "compare: the Walsh averages are selected, never listed: 20000 rounds in bounded memory" {
	# tests/unit/compare/test_stats.py checks the selection against
	# sorting them all.
	# 20000 rounds: a pairwise list would be 2e8 numbers (1.6 GB).
	[ -x /usr/bin/time ] || skip_unless_works "peak RSS needs GNU time (Debian package time)"
	local big=$BATS_TEST_TMPDIR/big.csv
	awk 'BEGIN {
		print "round,phase,placement,status,figure,better"
		srand(3)
		for (r = 1; r <= 20000; r++) {
			d = 1 + rand()
			printf "%d,measure,none,ok,%.6f,lower\n", r, d * (1 + rand() / 50)
			printf "%d,measure,hot,ok,%.6f,lower\n", r, 1.01 * d * (1 + rand() / 50)
		}
	}' >"$big"
	run --separate-stderr /usr/bin/time -f '%M' "$COMPARE" --wide --from "$big"
	assert_success
	assert_line --regexp '^hot +20000 +0 +.* 1\.010 +\[1\.010, 1\.010\] +slower$'
	[ "${stderr_lines[-1]}" -lt 60000 ] || fail "peak RSS ${stderr_lines[-1]} KiB"
}

@test "compare: identical runs: ratio 1, the interval a point, no significant difference" {
	run --separate-stderr "$COMPARE" --wide --from identical.csv
	assert_success
	assert_output "figure: the recorded figure (lower is better); runs recorded in identical.csv
machine: Made-up CPU, 2 CPUs, Linux 6.1.0
placement  CPUs  runs  failed  median    min    max    MAD  ratio  95% CI          verdict
none       0-1      8       0   1.004  0.972  1.023  0.013  1.000  -               baseline
hot        1        8       0   1.004  0.972  1.023  0.013  1.000  [1.000, 1.000]  no significant difference
ratio: Hodges-Lehmann estimate of the per-round ratios placement / baseline (none); CI: Wilcoxon signed-rank, 95%
hot ran 1.000 x as fast as none [1.000, 1.000]: no significant difference"
	[ -z "$stderr" ]
}

@test "compare: a clear 2x shift both ways: slower and faster; warm-ups ignored" {
	run --separate-stderr "$COMPARE" --wide --from shift.csv
	assert_success
	assert_output "figure: the recorded figure (lower is better); runs recorded in shift.csv
machine: Made-up CPU, 2 CPUs, Linux 6.1.0
placement  CPUs  runs  failed  median    min    max    MAD  ratio  95% CI          verdict
none       0-1      8       0   0.999  0.979  1.026  0.019  1.000  -               baseline
hot        1        8       0   2.026  1.952  2.059  0.027  2.013  [1.944, 2.091]  slower
spread     0-1      8       0   0.506  0.487  0.514  0.006  0.502  [0.491, 0.510]  faster
ratio: Hodges-Lehmann estimate of the per-round ratios placement / baseline (none); CI: Wilcoxon signed-rank, 95%
hot ran 2.013 x slower than none [1.944, 2.091]
spread ran 1.994 x faster than none [1.960, 2.036]"
}

@test "compare: overlapping noisy samples: no significant difference" {
	run --separate-stderr "$COMPARE" --wide --from noisy.csv
	assert_success
	assert_line "hot        1       10       0   10.41  9.02  11.46  0.66  1.061  [0.954, 1.170]  no significant difference"
}

@test "compare: too few runs for 95% confidence: no interval, and how many would do" {
	run --separate-stderr "$COMPARE" --wide --from few.csv
	assert_success
	assert_line "hot        1        3       0   1.963  1.916  1.993  0.030  2.005  -       too few runs (need 6)"
	assert_line "hot: 3 paired runs reach at most 75% confidence; 6 would reach 95%"
	run --separate-stderr "$COMPARE" --wide --from few.csv --format markdown
	assert_line "| \`hot\` | \`1\` | 3 | 0 | 1.963 | 1.916 | 1.993 | 0.030 | 2.005 | - | too few runs (need 6) |"
	assert_line "- \`hot\`: 3 paired runs reach at most 75% confidence; 6 would reach 95%"
}

@test "compare: failed runs in the record are counted, listed, and left out of the pairs" {
	run --separate-stderr "$COMPARE" --wide --from failed.csv --format json
	assert_failure 3
	json_check 'assert [(p["runs"], p["failed"], p["pairs"]) for p in doc["placements"]] == [(7, 1, None), (7, 1, 7)]' <<<"$output"
	run --separate-stderr "$COMPARE" --wide --from failed.csv
	assert_failure 3
	assert_line "none       0-1      7       1   1.010  0.971  1.029  0.017  1.000  -               baseline"
	assert_line "hot        1        7       1   2.021  1.951  2.041  0.020  1.977  [1.908, 2.030]  cannot decide"
	assert_line "hot: cannot decide: 1 round with a failed run of it or the baseline: their figures are unknown (-i counts a run whatever its exit status)"
	assert_line "failed: none, run 5: killed after the 5 s timeout"
	assert_line "failed: hot, run 4: SIGSEGV"
	[ "$stderr" = "pinrun-compare: cannot decide how 'hot' compares with 'none': 1 round with a failed run of it or the baseline: their figures are unknown (-i counts a run whatever its exit status)" ]
}

@test "compare: a timed-out run counts as at least the timeout: never faster from the runs that finished" {
	# hot finishes in half the baseline's time, or the timeout kills it:
	# in 16 of 24 rounds, then in 8. Dropping the timed-out runs said
	# "faster" (exit 0) both times.
	run --separate-stderr "$COMPARE" --wide --from censored.csv
	assert_failure 4
	assert_line "hot        1        8      16  0.4995  0.4907  0.5067  0.0051  1.015  [0.999, 1.994]  cannot decide"
	assert_line "hot: cannot decide: it timed out in 16 rounds: counted as at least the timeout, its ratio is a lower bound, which says no significant difference, not slower"
	[ "$stderr" = "pinrun-compare: cannot decide how 'hot' compares with 'none': it timed out in 16 rounds: counted as at least the timeout, its ratio is a lower bound, which says no significant difference, not slower" ]
	run --separate-stderr "$COMPARE" --wide --from censored-some.csv --fail-if-slower 5 --format json
	assert_failure 4
	json_check 'p = doc["placements"][1]
assert (p["verdict"], p["slower_than_allowed"], p["cannot_decide"]) == ("cannot decide", False, True), p' <<<"$output"
	[ "$stderr" = "pinrun-compare: cannot decide whether 'hot' is slower than 'none' by more than 5%: it timed out in 8 rounds: counted as at least the timeout, its ratio is a lower bound, which says no significant difference, not slower" ]
}

@test "compare: live, a placement the timeout kills in every round is slower, and the gate says so" {
	needs_two_cpus
	# Under hot the command has one CPU and sleeps until the timeout.
	run --separate-stderr "$COMPARE" --wide -q -n 6 -w 0 -p none -p hot --timeout 0.3 \
		--fail-if-slower 10 -- sh -c 'test "$(nproc)" -gt 1 || sleep 30'
	assert_failure 1
	assert_line --regexp '^hot +[0-9]+ +0 +6 +(- +)+[0-9.]+ +\[[0-9.]+, [0-9.]+\] +slower than 10%$'
	assert_line "failed: hot, runs 2, 4, 6, 8, 10, 12: killed after the 0.3 s timeout"
	[ "${stderr%%:*}" = "pinrun-compare" ]
	assert_equal "${stderr_lines[0]%%:*}" "pinrun-compare"
	[[ "${stderr_lines[0]}" == "pinrun-compare: 'hot' is slower than 'none' by more than 10%: ratio "* ]] || fail "$stderr"
}

@test "compare: a rate (higher is better): half the rate is slower" {
	run --separate-stderr "$COMPARE" --wide --from rate.csv
	assert_success
	assert_output "figure: the recorded figure (higher is better); runs recorded in rate.csv
machine: Made-up CPU, 2 CPUs, Linux 6.1.0
placement        CPUs  runs  failed  median   min    max  MAD  ratio  95% CI          verdict
none             0-1      6       0   100.6  97.6  102.3  1.2  1.000  -               baseline
hot              1        6       0    49.4  48.4   51.5  0.8  0.495  [0.486, 0.504]  slower
spread --follow  0-1      6       0   100.0  97.4  101.7  1.6  0.992  [0.963, 1.042]  no significant difference
ratio: Hodges-Lehmann estimate of the per-round ratios placement / baseline (none); CI: Wilcoxon signed-rank, 95%
hot ran 2.021 x slower than none [1.983, 2.059]
spread --follow ran 1.008 x slower than none [0.960, 1.038]: no significant difference"
}

@test "compare: the table fits 80 columns, units in its headers; --wide gives every column" {
	# A live run has CPU times and counters: 150 columns wide before.
	run --separate-stderr "$COMPARE" -q -n 2 -w 0 -p none -p 'spread --follow' -- true
	assert_success
	local line
	for line in "${lines[@]}"; do
		[ "${#line}" -le 80 ] || fail "${#line} columns: $line"
	done
	assert_line --regexp '^placement +runs +median \[(ms|µs)\] +ratio +95% CI +verdict$'
	assert_line --regexp '^spread --follow +2 +[0-9.]+ +[0-9.]+ +(\[[0-9.]+, [0-9.]+\]|-) +'
	assert_line --regexp '^conditions: '
	run --separate-stderr "$COMPARE" --wide -q -n 2 -w 0 -p none -p 'spread --follow' -- true
	assert_success
	assert_line --regexp '^placement +CPUs +runs +failed +median \[(ms|µs)\] +min \[(ms|µs)\] +max \[(ms|µs)\] +MAD \[(ms|µs)\] +user \[(ms|µs)\] +sys \[(ms|µs)\] +csw +icsw +minflt +majflt( +migr)? +ratio +95% CI +verdict$'
	# A record without a conditions line: the CPUs on a line of their own.
	run --separate-stderr "$COMPARE" --from "$FIX/shift.csv"
	assert_success
	assert_line "CPUs: none 0-1; hot 1; spread 0-1"
	assert_line "placement  runs  median  ratio  95% CI          verdict"
	assert_line "hot           8   2.026  2.013  [1.944, 2.091]  slower"
	# The markdown's headers carry the unit too.
	run --separate-stderr "$COMPARE" -q -n 2 -w 0 -p none --format markdown -- true
	assert_line --regexp '^\| placement \| CPUs \| runs \| failed \| median \[(ms|µs)\] \| min \[(ms|µs)\] \| max \[(ms|µs)\] \| MAD \[(ms|µs)\] \| ratio \| 95% CI \| verdict \|$'
}

@test "compare: --baseline and -p choose the baseline and the order" {
	run --separate-stderr "$COMPARE" --wide --from shift.csv -b hot -p spread -p none -p hot
	assert_success
	assert_line --index 3 "spread     0-1      8       0   0.506  0.487  0.514  0.006  0.249  [0.241, 0.256]  faster"
	assert_line --index 4 "none       0-1      8       0   0.999  0.979  1.026  0.019  0.497  [0.478, 0.514]  faster"
	assert_line --index 5 "hot        1        8       0   2.026  1.952  2.059  0.027  1.000  -               baseline"
}

@test "compare: the tables of docs/results.md are those of the recorded runs" {
	local doc=$REPO/docs/results.md f want got
	for f in results-configure.csv results-forkloop.csv results-forkloop-helper-on-slot.csv results-http-prefork.csv results-http-fork.csv; do
		run --separate-stderr "$COMPARE" --from "$f" --format markdown
		assert_success
		got=$(grep '^|' <<<"$output")
		want=$(awk -v m="<!-- $f -->" '$0 == m { on = 1; next } on && /^\|/ { print; next } on { exit }' "$doc")
		[ -n "$want" ] || fail "no table for $f in docs/results.md"
		[ "$got" = "$want" ] || fail "$f: docs/results.md has
$want
and the runs give
$got"
	done
	# The page stands on its own: nothing outside the repository.
	run grep -n 'shared/\|\.\./seeds' "$doc"
	assert_failure 1
}

# --- formats ----------------------------------------------------------------

@test "compare: readable results: a line per placement as hyperfine says it, automatic units, CPU times and counters" {
	run --separate-stderr "$COMPARE" --wide --from shift.csv
	assert_success
	assert_line "hot ran 2.013 x slower than none [1.944, 2.091]"
	assert_line "spread ran 1.994 x faster than none [1.960, 2.036]"
	# A rate: half the rate is twice as slow.
	run --separate-stderr "$COMPARE" --wide --from rate.csv
	assert_line "hot ran 2.021 x slower than none [1.983, 2.059]"
	run --separate-stderr "$COMPARE" --wide --from few.csv
	assert_line "hot ran 2.005 x slower than none (no interval: too few runs (need 6))"
	# One pair gives no interval at all (not "0% confidence").
	local rec=$BATS_TEST_TMPDIR/one.csv
	printf 'round,phase,placement,status,figure,better\n1,measure,none,ok,1,lower\n1,measure,hot,ok,2,lower\n' >"$rec"
	run --separate-stderr "$COMPARE" --wide --from "$rec"
	assert_line "hot: 1 paired run gives no interval; 6 would reach 95%"
	# Live wall time: in a unit that gives the median 1 to 999, with the
	# medians of user and sys time and of the kernel's counters.
	run --separate-stderr "$COMPARE" --wide -q -n 2 -w 0 -p none true
	assert_success
	assert_line --index 1 --regexp '^figure: wall time in (milliseconds|microseconds) \(lower is better\)'
	assert_line --index 4 --regexp '^placement +CPUs +runs +failed +median \[ms\] +min \[ms\] +max \[ms\] +MAD \[ms\] +user \[ms\] +sys \[ms\] +csw +icsw +minflt +majflt( +migr)? +ratio +95% CI +verdict$'
	assert_line --index 5 --regexp '^none +[-0-9,]+ +2 +0 +[0-9]{1,3}\.[0-9]+ '
}

@test "compare: nothing compared is said; -p auto compares every distinct placement of this machine" {
	run --separate-stderr "$COMPARE" --wide -q -n 1 -w 0 -p hot true
	assert_success
	[ -z "$stderr" ]
	assert_line "warning: only one placement, 'hot': nothing is compared (give another -p, or -p auto)"
	run --separate-stderr "$COMPARE" --wide -q -n 1 -w 0 -p auto --format json true
	assert_success
	json_check '
import os
names = [p["placement"] for p in doc["placements"]]
assert names[0] == "none", names
cpus = [p["cpus"] for p in doc["placements"]]
assert len(cpus) == len(set(cpus)), ("the same CPUs twice", doc["placements"])
allowed = os.sched_getaffinity(0)
assert len(names) >= (2 if len(allowed) > 1 else 1), names
assert set(names) <= {"none", "hot", "same-cache", "same-numa", "same-chip", "spread", "spread --smt"}, names' <<<"$output"
}

@test "compare: --format markdown is a step summary" {
	run --separate-stderr "$COMPARE" --from shift.csv --format markdown
	assert_success
	assert_output "### pinrun-compare

Figure: the recorded figure (lower is better); runs recorded in shift.csv.

Machine: Made-up CPU, 2 CPUs, Linux 6.1.0.

| placement | CPUs | runs | failed | median | min | max | MAD | ratio | 95% CI | verdict |
|---|---|--:|--:|--:|--:|--:|--:|--:|:-:|---|
| \`none\` | \`0-1\` | 8 | 0 | 0.999 | 0.979 | 1.026 | 0.019 | 1.000 | - | baseline |
| \`hot\` | \`1\` | 8 | 0 | 2.026 | 1.952 | 2.059 | 0.027 | 2.013 | [1.944, 2.091] | **slower** |
| \`spread\` | \`0-1\` | 8 | 0 | 0.506 | 0.487 | 0.514 | 0.006 | 0.502 | [0.491, 0.510] | **faster** |

Ratio: the Hodges–Lehmann estimate of the per-round ratios placement / baseline (\`none\`), with the 95% confidence interval of the Wilcoxon signed-rank test.

- hot ran 2.013 x slower than none [1.944, 2.091]
- spread ran 1.994 x faster than none [1.960, 2.036]"
}

@test "compare: markdown of a live run names the command, the machine, the CPUs, failures and the plot" {
	cd "$BATS_TEST_TMPDIR"
	mkdir md plots
	run --separate-stderr "$COMPARE" -q -n 1 -w 0 -p none --prepare 'true' --plot plots/p.svg \
		--export-markdown md/r.md --format markdown -- sh -c 'exit 1'
	assert_failure 3
	assert_line --index 0 "### pinrun-compare: \`sh -c 'exit 1'\`"
	# (bats' lines leave out the empty ones)
	assert_line --index 1 "Figure: wall time in seconds (lower is better); 1 run per placement after 0 warm-up rounds, interleaved."
	assert_line --index 2 --regexp "^Machine: .*, $(getconf _NPROCESSORS_ONLN) CPUs.*, Linux $(uname -r)\.$"
	assert_line --index 3 "Prepare: \`true\`."
	assert_line --regexp "^\| \`none\` \| \`$ALLOWED\` \| 0 \| 1 \| "
	assert_line "- failed: none, run 1: exit 1"
	assert_line "Plot: [p.svg](plots/p.svg)"
	# In a file, the link is relative to the file.
	run grep -c '^Plot: \[p.svg\](../plots/p.svg)$' md/r.md
	assert_output 1
}

@test "compare: --format csv carries every run and reads back unchanged" {
	for f in identical shift noisy failed rate few drift ties large sizes; do
		run --separate-stderr "$COMPARE" --from "$f.csv" --format csv
		[ "$output" = "$(cat "$f.csv")" ] || fail "$f.csv changed: $output"
	done
	# --export-csv from --from writes the same.
	run --separate-stderr "$COMPARE" --from shift.csv --export-csv "$BATS_TEST_TMPDIR/copy.csv"
	assert_success
	cmp shift.csv "$BATS_TEST_TMPDIR/copy.csv"
}

@test "compare: --export-json reads as hyperfine's: results[] with its keys and types" {
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr "$COMPARE" -q -n 3 -w 0 -p none -p 'cpus 0' --export-json r.json -- sh -c 'exit 0'
	assert_success
	# As hyperfine's scripts/advanced_statistics.py and plot_whisker.py
	# read it: json.load(f)["results"], each one's command (or name) and
	# times; and every key of hyperfine's schema, with its type.
	run python3 - r.json <<'EOF'
import json, statistics, sys
with open(sys.argv[1], encoding="utf-8") as f:
    results = json.load(f)["results"]
commands = [b["command"] for b in results]
labels = [b.get("name", b["command"]) for b in results]
times = [b["times"] for b in results]
assert commands == ["sh -c 'exit 0'", "pinrun --cpus 0 -- sh -c 'exit 0'"], commands
assert labels == ["none", "cpus 0"], labels
for b, ts in zip(results, times):
    assert len(ts) == 3 and all(type(t) is float and t > 0 for t in ts), ts
    for key in ("mean", "stddev", "median", "min", "max", "user", "system"):
        assert type(b[key]) is float, (key, b[key])
    assert abs(b["mean"] - statistics.mean(ts)) < 1e-6, b
    assert abs(b["stddev"] - statistics.stdev(ts)) < 1e-6, b
    assert (b["median"], b["min"], b["max"]) == (statistics.median(ts), min(ts), max(ts)), b
    assert b["exit_codes"] == [0, 0, 0], b
print("read")
EOF
	assert_output "read"
}

@test "compare: --format json carries the summary and every run" {
	run --separate-stderr "$COMPARE" --from shift.csv --format json --fail-if-slower 10
	assert_failure 1
	json_check '
assert list(doc) == ["command", "metric", "prepare", "cleanup", "better", "from",
    "host", "runs_per_placement", "warmup_rounds", "order", "analysis", "baseline",
    "confidence", "sequential_looks", "decided_at_round",
    "fail_if_slower_pct", "interrupted", "stopped", "plot",
    "migrations_uncounted",
    "placements", "results", "runs"], list(doc)
assert doc["baseline"] == "none" and doc["better"] == "lower"
assert doc["host"] == "Made-up CPU, 2 CPUs, Linux 6.1.0"
assert doc["analysis"] == "paired by round" and doc["interrupted"] is None
assert doc["runs_per_placement"] == 8 and doc["warmup_rounds"] == 1
assert doc["confidence"] == 0.95 and doc["fail_if_slower_pct"] == 10
p = doc["placements"]
assert [x["verdict"] for x in p] == ["baseline", "slower than 10%", "no slower than 10%"]
assert [x["decision"] for x in p] == [None, "slower", "no slower"]
assert [x["slower_than_allowed"] for x in p] == [False, True, False]
assert [x["pinrun"] for x in p] == [None, ["--hot"], ["--spread"]]
assert [x["cpus"] for x in p] == ["0-1", "1", "0-1"]
assert p[1] == {"placement": "hot", "pinrun": ["--hot"], "cpus": "1", "runs": 8,
    "failed": 0, "median": 2.025992, "min": 1.951605, "max": 2.059216,
    "mad": 0.0273145, "pairs": 8, "ratio": 2.01293965, "ci_low": 1.94396086,
    "ci_high": 2.09134744, "log_ratio": 0.699596168, "method": "exact",
    "verdict": "slower than 10%", "runs_needed": None, "slower_than_allowed": True,
    "cannot_decide": False, "decision": "slower", "rounds_to_decide": None}, p[1]
assert len(doc["runs"]) == 27
assert [r["phase"] for r in doc["runs"][:4]] == ["warmup"] * 3 + ["measure"]
assert list(doc["runs"][0]) == ["seq", "round", "phase", "placement", "status",
    "exit", "wall_s", "user_s", "sys_s", "maxrss_kb", "figure", "note"]' <<<"$output"
}

@test "compare: --output writes the format to a file and the table to stdout" {
	out=$BATS_TEST_TMPDIR/runs.csv
	run --separate-stderr "$COMPARE" --wide -q -n 2 -w 0 -p none --format csv -o "$out" -- true
	assert_success
	assert_line --index 0 "pinrun-compare: true"
	assert_line --index 3 --regexp "^conditions: none: CPUs [-0-9,]+, "
	assert_line --index 4 --regexp "^placement +CPUs +runs +failed +median \\[ms\\] +min \\[ms\\] +max \\[ms\\] +MAD \\[ms\\] +user \\[ms\\] +sys \\[ms\\] +csw +icsw +minflt +majflt( +migr)? +ratio +95% CI +verdict$"
	run "$COMPARE" --wide --from "$out" --format csv
	assert_success
	[ "$output" = "$(cat "$out")" ]
	[ "$(grep -vc '^#' <<<"$output")" -eq 3 ]
}

@test "compare: CSV, JSON and markdown from one run, each placement's CPUs in every one" {
	needs_two_cpus
	needs_program jq -- to read the JSON reports
	cd "$BATS_TEST_TMPDIR"
	local chip spread
	chip=$("$PINRUN" --same-chip --dry-run)
	spread=$("$PINRUN" --spread --dry-run)
	run --separate-stderr "$COMPARE" --wide -q -n 1 -w 0 -p none -p same-chip -p spread -p "cpus $SECOND" \
		--export-csv r.csv --export-json r.json --export-markdown r.md -- true
	assert_success
	assert_line --regexp "^none +$ALLOWED +1 +0 "
	assert_line --regexp "^same-chip +$chip +1 +0 "
	assert_line --regexp "^spread +$spread +1 +0 "
	assert_line --regexp "^cpus $SECOND +$SECOND +1 +0 "
	run jq -r '.placements[] | "\(.placement)=\(.cpus)"' r.json
	assert_output "none=$ALLOWED
same-chip=$chip
spread=$spread
cpus $SECOND=$SECOND"
	run cut -d, -f4,5 < <(grep -v '^#' r.csv)
	assert_output "placement,cpus
none,$ALLOWED
same-chip,$chip
spread,$spread
cpus $SECOND,$SECOND"
	run grep -c "^| \`same-chip\` | \`$chip\` | 1 | 0 |" r.md
	assert_output 1
	# The exports agree with each other and with stdout.
	[ "$(jq '.runs | length' r.json)" -eq 4 ]
	run "$COMPARE" --wide --from r.csv --format json
	[ "$(jq -c '[.placements[] | .runs, .cpus]' r.json)" = "$(jq -c '[.placements[] | .runs, .cpus]' <<<"$output")" ]
}

# --- the gate ---------------------------------------------------------------

@test "compare: --fail-if-slower exits 1 only beyond the percentage" {
	run --separate-stderr "$COMPARE" --wide --from shift.csv --fail-if-slower 90
	assert_failure 1
	[ "$stderr" = "pinrun-compare: 'hot' is slower than 'none' by more than 90%: ratio 2.013, 95% CI [1.944, 2.091]
pinrun-compare: 'spread' is no slower than 'none' by more than 90%: ratio 0.502, 95% CI [0.491, 0.510]" ]
	run --separate-stderr "$COMPARE" --wide --from shift.csv --fail-if-slower 95
	assert_failure 4
	[ "${stderr_lines[0]}" = "pinrun-compare: 'spread' is no slower than 'none' by more than 95%: ratio 0.502, 95% CI [0.491, 0.510]" ]
	[ "${stderr_lines[1]}" = "pinrun-compare: not decided whether 'hot' is slower than 'none' by more than 95%: ratio 2.013, 95% CI [1.944, 2.091], 0.147 wide, straddles 1.950; about 4 more rounds would decide it (the interval narrows as 1/sqrt(rounds))" ]
	run --separate-stderr "$COMPARE" --wide --from shift.csv --fail-if-slower 110
	assert_success
	run --separate-stderr "$COMPARE" --wide --from identical.csv --fail-if-slower 0
	assert_success
	# The old gate passed a straddling interval; now it is not decided.
	run --separate-stderr "$COMPARE" --wide --from noisy.csv --fail-if-slower 0
	assert_failure 4
	assert_line "hot        1       10       0   10.41  9.02  11.46  0.66  1.061  [0.954, 1.170]  not decided at 0%"
	run --separate-stderr "$COMPARE" --wide --from noisy.csv --fail-if-slower 10
	assert_failure 4
	[ "$stderr" = "pinrun-compare: not decided whether 'hot' is slower than 'none' by more than 10%: ratio 1.061, 95% CI [0.954, 1.170], 0.216 wide, straddles 1.100; about 78 more rounds would decide it (the interval narrows as 1/sqrt(rounds))" ]
	run --separate-stderr "$COMPARE" --wide --from noisy.csv --fail-if-slower 20
	assert_success
	[ "$stderr" = "pinrun-compare: 'hot' is no slower than 'none' by more than 20%: ratio 1.061, 95% CI [0.954, 1.170]" ]
	# A rate: slower by more than 40% is less than 0.6 times the rate.
	run --separate-stderr "$COMPARE" --wide --from rate.csv --fail-if-slower 40
	assert_failure 1
	[ "${stderr_lines[0]}" = "pinrun-compare: 'hot' is slower than 'none' by more than 40%: ratio 0.495, 95% CI [0.486, 0.504]" ]
	assert_line "hot              1        6       0    49.4  48.4   51.5  0.8  0.495  [0.486, 0.504]  slower than 40%"
	run --separate-stderr "$COMPARE" --wide --from rate.csv -p none -p 'spread --follow' --fail-if-slower 3
	assert_failure 4
	[ "$stderr" = "pinrun-compare: not decided whether 'spread --follow' is slower than 'none' by more than 3%: ratio 0.992, 95% CI [0.963, 1.042], 0.079 wide, straddles 0.970; about 22 more rounds would decide it (the interval narrows as 1/sqrt(rounds))" ]
	run --separate-stderr "$COMPARE" --wide --from rate.csv --fail-if-slower 52
	assert_success
	# Against hot, the others are faster: nothing to fail.
	run --separate-stderr "$COMPARE" --wide --from shift.csv --baseline hot --fail-if-slower 0
	assert_success
	assert_line --index 5 "spread     0-1      8       0   0.506  0.487  0.514  0.006  0.249  [0.241, 0.256]  no slower than 0%"
}

@test "compare: --fail-if-slower cannot decide with too few runs: exit 4, never a pass" {
	run --separate-stderr "$COMPARE" --from few.csv --fail-if-slower 10
	assert_failure 4
	[ "$stderr" = "pinrun-compare: cannot decide whether 'hot' is slower than 'none' by more than 10%: 3 paired runs reach at most 75% confidence; 6 would reach 95%" ]
	run --separate-stderr "$COMPARE" --from few.csv --format json --fail-if-slower 10
	assert_failure 4
	json_check 'assert [(p["cannot_decide"], p["runs_needed"]) for p in doc["placements"]] == [(False, None), (True, 6)]' <<<"$output"
	# A live -n 4, which used to report [min, max] and so could never fail.
	run --separate-stderr "$COMPARE" -q -n 4 -w 0 -p none -p hot --fail-if-slower 10 --format markdown -- true
	assert_failure 4
	[ "$stderr" = "pinrun-compare: cannot decide whether 'hot' is slower than 'none' by more than 10%: 4 paired runs reach at most 87.5% confidence; 6 would reach 95%" ]
	assert_line --regexp '^\| `hot` \| `[-0-9,]+` \| 4 \| 0 \| .* \| - \| too few runs \(need 6\) \|$'
	assert_line "- **cannot decide**: cannot decide whether 'hot' is slower than 'none' by more than 10%: 4 paired runs reach at most 87.5% confidence; 6 would reach 95%"
	# A placement found slower outranks it: 1.
	run --separate-stderr "$COMPARE" --from sizes.csv -p none -p n7 -p n3 --fail-if-slower 0
	assert_failure 1
	[ "${stderr_lines[0]}" = "pinrun-compare: 'n7' is slower than 'none' by more than 0%: ratio 1.035, 95% CI [1.001, 1.071]" ]
	[ "${stderr_lines[1]}" = "pinrun-compare: cannot decide whether 'n3' is slower than 'none' by more than 0%: 3 paired runs reach at most 75% confidence; 6 would reach 95%" ]
}

@test "compare: --sequential needs a margin and a budget, never -n" {
	refused "--sequential needs --fail-if-slower <pct>: the margin it decides each placement against" --sequential true
	refused "--max-rounds is the budget of --sequential" --max-rounds 20 true
	refused "--max-time is the budget of --sequential" --max-time 60 true
	refused "--sequential chooses the number of rounds: give it a budget with --max-rounds, not -n" --sequential --fail-if-slower 5 -n 4 true
	refused "invalid number of rounds '5': expected a whole number from 6 to 100000" --sequential --fail-if-slower 5 --max-rounds 5 true
	refused "invalid time budget '0': expected a positive number" --sequential --fail-if-slower 5 --max-time 0 true
	refused "--sequential cannot be used with --from: the runs are recorded" --from "$FIX/shift.csv" --sequential
}

@test "compare: --sequential stops at the first look where every placement is decided" {
	# The same command twice: no slower than 50%, decided at the first
	# look (10 rounds), at 99.3% (95% shared among 7 looks).
	run --separate-stderr "$COMPARE" --wide -q -w 0 -p none -p 'cpus 0-1' --sequential --fail-if-slower 50 \
		--metric 'echo 5' --export-csv "$BATS_TEST_TMPDIR/seq.csv" --format json -- sleep 5
	assert_success
	[ "$stderr" = "pinrun-compare: 'cpus 0-1' is no slower than 'none' by more than 50%: ratio 1.000, 99.3% CI [1.000, 1.000]" ]
	json_check 'assert doc["decided_at_round"] == 10, doc["decided_at_round"]
assert doc["sequential_looks"] == [10, 15, 22, 33, 50, 75, 100]
assert abs(doc["confidence"] - (1 - 0.05 / 7)) < 1e-12
assert doc["runs_per_placement"] == 10 and len(doc["runs"]) == 20
assert doc["placements"][1]["decision"] == "no slower"' <<<"$output"
	# The record keeps the looks: --from gives the same intervals.
	run --separate-stderr "$COMPARE" --wide --from "$BATS_TEST_TMPDIR/seq.csv" --fail-if-slower 50
	assert_success
	assert_line --index 1 --regexp "; sequential, 99.3% intervals \(95% shared among 7 looks at rounds 10, 15, 22, 33, 50, 75, 100\): decided after 10 rounds$"
	assert_line --regexp "^placement .* 99.3% CI +verdict$"
}

@test "compare: --sequential stops when the rounds or the time run out, not decided" {
	# A metric that makes the ratios 1.2 and 1/1.2 in turn, round after
	# round: never decided, so the budget ends it, exit 4.
	local c=$BATS_TEST_TMPDIR/count
	local metric="n=\$(cat $c 2>/dev/null || echo 0); echo \$((n + 1)) >$c; case \$((n % 4)) in 0 | 3) echo 100 ;; *) echo 120 ;; esac"
	run --separate-stderr "$COMPARE" --wide -q -w 0 -p none -p 'cpus 0-1' --sequential --fail-if-slower 5 \
		--max-rounds 6 --metric "$metric" -- sleep 0.05
	assert_failure 4
	assert_line --index 1 --regexp "; sequential, 95% intervals \(95% shared among 1 looks at rounds 6\): not decided within 6 rounds$"
	assert_line --regexp "^cpus 0-1 +0-1 +6 +0 .* too few runs$"
	# Each run 0.1 s at least (the metric's sleep: the command stops
	# when the metric ends).
	rm -f "$c"
	metric="sleep 0.1; $metric"
	run --separate-stderr "$COMPARE" --wide -q -w 0 -p none -p 'cpus 0-1' --sequential --fail-if-slower 5 \
		--max-time 0.5 --metric "$metric" --format json -- sleep 5
	assert_failure 4
	json_check 'n = doc["runs_per_placement"]
assert 1 <= n <= 3, n
assert doc["decided_at_round"] is None
assert doc["placements"][1]["decision"] in (None, "not decided"), doc["placements"][1]' <<<"$output"
	run --separate-stderr "$COMPARE" --wide -q -w 0 -p none -p 'cpus 0-1' --sequential --fail-if-slower 5 \
		--max-time 0.3 --metric "$metric" -- sleep 5
	assert_failure 4
	assert_line --index 1 --regexp ": not decided: the time budget of 0.3s was spent after [1-2] rounds?$"
}

# --- the plot ---------------------------------------------------------------

# Decode a PNG, here, and answer: "count RRGGBB..." the pixels near each
# colour (each channel within 40: anti-aliasing), or "edges RRGGBB N" the
# pixels within N of the border that are not near that colour.
png() {
	python3 - "$@" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        assert depth == 8 and ctype in (2, 6) and not interlace, body
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, rows = bytearray(stride), []
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
def near(line, x, c):
    return all(abs(line[x * bpp + j] - c[j]) <= 40 for j in range(3))
if sys.argv[2] == "count":
    want = [bytes.fromhex(c) for c in sys.argv[3:]]
    counts = [sum(near(line, x, c) for line in rows for x in range(w)) for c in want]
    print(w, h, *counts)
else:
    bg, n = bytes.fromhex(sys.argv[3]), int(sys.argv[4])
    print(sum(not near(rows[y], x, bg) for y in range(h) for x in range(w)
              if x < n or y < n or x >= w - n or y >= h - n))
EOF
}

@test "compare: --plot writes a self-contained SVG in two panels that renders" {
	command -v rsvg-convert >/dev/null || skip_unless_works "no rsvg-convert (Debian package librsvg2-bin)"
	svg=$BATS_TEST_TMPDIR/plot.svg
	run --separate-stderr "$COMPARE" --from shift.csv --plot "$svg"
	assert_success
	assert_line "plot: $svg"
	# Nothing to fetch: no links, scripts, images or imports.
	run grep -c -E 'href|url\(|<script|<image|@import|<foreignObject' "$svg"
	assert_output 0
	run grep -o 'http[^"]*' "$svg"
	assert_output "http://www.w3.org/2000/svg"
	# A dot per measured run in the strip plot, and again by round; a line
	# per placement through its 8 rounds.
	run grep -c '<circle ' "$svg"
	assert_output 50
	run grep -c '<polyline ' "$svg"
	assert_output 3
	[ "$(grep -o '<polyline [^>]*points="[^"]*"' "$svg" | head -n 1 | sed 's/.*points="//; s/"//' | wc -w)" -eq 8 ]
	run grep -c -E '>(none  \[CPUs 0-1\]|hot  \[CPUs 1\]|spread  \[CPUs 0-1\]|baseline median|2.013 \[1.944, 2.091\] slower|0.502 \[0.491, 0.510\] faster|by round, in the order run: .*)<' "$svg"
	assert_output 9
	# Above them, the decision: a forest plot of each ratio and interval
	# against 1, labelled, with its legend.
	run grep -c -E '>(the decision: ratio to none, with its 95% interval \(log scale\)|ratio to none \(time, lower is better\): left of 1 faster, right slower|← faster|slower →|a dot: the ratio \(Hodges-Lehmann\); a line: its 95% interval|1)<' "$svg"
	assert_output 6
	run grep -c 'fail-if-slower' "$svg"
	assert_output 0
	run --separate-stderr "$COMPARE" --from shift.csv --plot "$BATS_TEST_TMPDIR/gate.svg" --fail-if-slower 5
	assert_failure 1
	run grep -c '>--fail-if-slower 5%<' "$BATS_TEST_TMPDIR/gate.svg"
	assert_output 1
	rsvg-convert -o "$BATS_TEST_TMPDIR/plot.png" "$svg"
	# The baseline's dashed red line, the dots and the white background.
	run png "$BATS_TEST_TMPDIR/plot.png" count cf222e 0969da ffffff
	assert_success
	read -r w h red blue white <<<"$output"
	[ "$w" -eq 899 ] && [ "$h" -eq 766 ] || fail "size $w x $h"
	[ "$red" -gt 150 ] || fail "baseline line: $red red pixels"
	[ "$blue" -gt 300 ] || fail "dots and line: $blue blue pixels"
	[ "$white" -gt $((w * h / 2)) ] || fail "background: $white white pixels"
}

@test "compare: --plot and the table of a rate: a slower placement is slower everywhere" {
	# hot has half the rate: slower. The caption, the arrows, the colour
	# and the words come from the direction (the caption was always
	# "left of 1 faster" while a slower rate's dot sits left of 1).
	svg=$BATS_TEST_TMPDIR/rate.svg
	run --separate-stderr "$COMPARE" --wide --from rate.csv --plot "$svg" --fail-if-slower 10
	assert_failure 1
	assert_line "hot              1        6       0    49.4  48.4   51.5  0.8  0.495  [0.486, 0.504]  slower than 10%"
	assert_line "hot ran 2.021 x slower than none [1.983, 2.059]: slower than 10%"
	run grep -o -E '>[^<{]*(faster|slower)[^<{]*<' "$svg"
	assert_output ">ratio to none (rate, higher is better): left of 1 slower, right faster<
>← slower<
>faster →<
>--fail-if-slower 10%<
>0.495 [0.486, 0.504] slower than 10%<
>0.992 [0.963, 1.042] no slower than 10%<"
	# The slower one in red, the other in green.
	grep -q '<text [^>]*class="slower" fill="#cf222e">0.495 \[0.486, 0.504\] slower than 10%<' "$svg"
	grep -q '<text [^>]*class="faster" fill="#1a7f37">0.992 \[0.963, 1.042\] no slower than 10%<' "$svg"
	# hot's dot is left of 1, on the side the arrow calls slower.
	local one dot
	one=$(grep -o '<line x1="[0-9.]*" y1="[0-9]*" x2="[0-9.]*" y2="[0-9]*" stroke-width="2" class="grid"' "$svg" | head -n 1 | sed 's/.*x1="//; s/".*//')
	dot=$(grep -o '<circle cx="[0-9.]*" cy="[0-9.]*" r="5" class="s1"' "$svg" | sed 's/.*cx="//; s/".*//')
	awk -v d="$dot" -v o="$one" 'BEGIN { exit !(d < o) }' || fail "hot's dot at $dot, 1 at $one"
	# The margin band, from 0.9 to 1.
	grep -q '>shaded: within the 10% margin<' "$svg"
}

@test "compare: --plot: quartile boxes only from 8 runs" {
	run --separate-stderr "$COMPARE" --from shift.csv --plot "$BATS_TEST_TMPDIR/8.svg"
	run grep -c 'class="box"' "$BATS_TEST_TMPDIR/8.svg"
	assert_output 3
	run --separate-stderr "$COMPARE" --from rate.csv --plot "$BATS_TEST_TMPDIR/6.svg"
	run grep -c 'class="box"' "$BATS_TEST_TMPDIR/6.svg"
	assert_output 0
}

@test "compare: --plot: no label is clipped, however long" {
	command -v rsvg-convert >/dev/null || skip_unless_works "no rsvg-convert (Debian package librsvg2-bin)"
	cd "$BATS_TEST_TMPDIR"
	# Longer than the plot is wide: cut at the right edge if it were
	# given a fixed column, at the left if right-aligned in one.
	local long="cpus 0 --all --no-cache --follow=strict --threads --wait-all"
	long+=" --report /var/tmp/a-rather-long-path/to/where/the/report/of/every/process/goes.json"
	sed "s|,hot,1,|,$long,0,|" "$FIX/shift.csv" >long.csv
	run --separate-stderr "$COMPARE" --from long.csv --plot long.svg --baseline "$long" --fail-if-slower 0
	assert_success
	grep -q ">$long  \[CPUs 0\]<" long.svg
	rsvg-convert -z 0.5 -o long.png long.svg
	# Nothing but background within 2 pixels of the edges.
	run png long.png edges ffffff 2
	assert_output 0
	# A long command, in a live run, wraps in the title.
	run --separate-stderr "$COMPARE" -q -n 1 -w 0 -p none --plot cmd.svg -- \
		true "$(printf 'word%.0s ' {1..60})" "$(printf 'x%.0s' {1..150})"
	assert_success
	[ "$(grep -c 'font-weight="bold"' cmd.svg)" -ge 3 ] || fail "the title did not wrap"
	rsvg-convert -z 0.5 -o cmd.png cmd.svg
	run png cmd.png edges ffffff 2
	assert_output 0
}

@test "compare: --plot: readable on light and dark backgrounds" {
	command -v rsvg-convert >/dev/null || skip_unless_works "no rsvg-convert (Debian package librsvg2-bin)"
	cd "$BATS_TEST_TMPDIR"
	"$COMPARE" --from "$FIX/shift.csv" --plot p.svg >/dev/null
	# Contrast (WCAG 2) of the text and of the marks against the
	# background, in the light colours and in the dark ones.
	python3 - p.svg <<'EOF'
import re, sys
svg = open(sys.argv[1]).read()
css = re.search(r"<style>(.*)</style>", svg).group(1)
light, dark = css.split("@media (prefers-color-scheme: dark){")
def colours(rules):
    return dict(re.findall(r"\.([a-z0-9]+)\{(?:fill|stroke):(#[0-9a-f]{6})", rules))
def luminance(c):
    v = [int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    v = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in v]
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]
def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)
for rules in (light, dark):
    c = colours(rules)
    for text in ("fg", "muted", "faster", "slower"):
        assert contrast(c[text], c["bg"]) >= 4.5, (text, c)
        assert contrast(c[text], c["band"]) >= 4.5, (text, c)
    for mark in ["base", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"]:
        assert contrast(c[mark], c["bg"]) >= 3, (mark, c)
    assert contrast(c["fg"], c["box"]) >= 4.5, c
assert luminance(colours(light)["bg"]) > 0.9 and luminance(colours(dark)["bg"]) < 0.02
EOF
	# Rendered dark: the dark rules outside their @media, after the light.
	sed 's/@media (prefers-color-scheme: dark){\(.*\)}<\/style>/\1<\/style>/' p.svg >dark.svg
	! cmp -s p.svg dark.svg || fail "no dark rules"
	rsvg-convert -o dark.png dark.svg
	run png dark.png count 0d1117 e6edf3
	read -r w h bg text <<<"$output"
	[ "$bg" -gt $((w * h / 2)) ] || fail "dark background: $bg pixels"
	[ "$text" -gt 500 ] || fail "light text: $text pixels"
}

@test "compare: --plot of a live run with a failed placement" {
	needs_two_cpus
	command -v rsvg-convert >/dev/null || skip_unless_works "no rsvg-convert (Debian package librsvg2-bin)"
	svg=$BATS_TEST_TMPDIR/live.svg
	run --separate-stderr "$COMPARE" -q -n 2 -w 0 -p none -p hot --plot "$svg" -- sh -c '[ "$(nproc)" -gt 1 ]'
	assert_failure 3
	# In the decision's rows and the runs' rows.
	run grep -c ">hot  \[CPUs [0-9]*\] (2 failed)<" "$svg"
	assert_output 2
	run rsvg-convert -o "$BATS_TEST_TMPDIR/live.png" "$svg"
	assert_success
}

# --- bash completion ----------------------------------------------------------

# pinrun-compare's completion in a real bash, without bash-completion:
# complete_compare_line LINE CWORD WORD... (COMP_LINE, the cursor at its
# end, and COMP_WORDS as bash splits them); prints COMPREPLY, one a line.
complete_compare_line() {
	bash --norc --noprofile -c '
		source "$1" || exit 9
		COMP_LINE=$2
		COMP_POINT=${#2}
		COMP_CWORD=$3
		shift 3
		COMP_WORDS=("$@")
		_pinrun_compare
		printf "%s\n" "${COMPREPLY[@]}"' _ "$REPO/completion/pinrun-compare.bash" "$@"
}

@test "compare: bash completion: options, their values, the baseline, files and the command" {
	run bash --norc --noprofile -c 'source "$1"; complete -p pinrun-compare' _ "$REPO/completion/pinrun-compare.bash"
	assert_success
	assert_output "complete -F _pinrun_compare pinrun-compare"
	run complete_compare_line "pinrun-compare --exp" 1 pinrun-compare --exp
	assert_output "--export-csv
--export-json
--export-markdown"
	run complete_compare_line "pinrun-compare -n 3 --q" 3 pinrun-compare -n 3 --q
	assert_output "--quiet"
	run complete_compare_line "pinrun-compare --format " 2 pinrun-compare --format ""
	assert_output "table
markdown
csv
json"
	# --format=m: bash splits at '=', unless COMP_WORDBREAKS lacks it.
	run complete_compare_line "pinrun-compare --format=m" 3 pinrun-compare --format = m
	assert_output "markdown"
	run complete_compare_line "pinrun-compare --format=" 2 pinrun-compare --format =
	assert_output "table
markdown
csv
json"
	run complete_compare_line "pinrun-compare --format=m" 1 pinrun-compare --format=m
	assert_output "--format=markdown"
	run complete_compare_line "pinrun-compare --format=csv -q" 4 pinrun-compare --format = csv -q
	assert_output "-q"
	run complete_compare_line "pinrun-compare -p s" 2 pinrun-compare -p s
	assert_output "same-chip
same-numa
same-cache
spread"
	run complete_compare_line "pinrun-compare -p a" 2 pinrun-compare -p a
	assert_output "auto"
	# The baseline is one of the placements given, quoted as needed, or
	# of the default ones.
	run complete_compare_line "pinrun-compare -p none -p 'spread --follow' -b " 6 pinrun-compare -p none -p "'spread --follow'" -b ""
	assert_output "none
'spread --follow'"
	run complete_compare_line "pinrun-compare --baseline s" 2 pinrun-compare --baseline s
	assert_output "same-chip
spread"
	run complete_compare_line "pinrun-compare --placement=hot -pnone -b " 6 pinrun-compare --placement = hot -pnone -b ""
	assert_output "hot
none"
	# --from takes a CSV file (or a directory on the way).
	cd "$BATS_TEST_TMPDIR"
	mkdir -p sub && touch runs.csv notes.txt
	run complete_compare_line "pinrun-compare --from " 2 pinrun-compare --from ""
	assert_output "sub
runs.csv"
	# Numbers get nothing; the command is a command, after -- too.
	run complete_compare_line "pinrun-compare -n " 2 pinrun-compare -n ""
	assert_output ""
	run complete_compare_line "pinrun-compare -n 3 tru" 3 pinrun-compare -n 3 tru
	assert_line "true"
	run complete_compare_line "pinrun-compare -q -- -" 3 pinrun-compare -q -- -
	assert_output ""
	run complete_compare_line "pinrun-compare --prepare mak" 2 pinrun-compare --prepare mak
	assert_line "make"
}

# --- the examples -------------------------------------------------------------

# Run the examples of a man page's EXAMPLES (each .EX block a script, the
# "$ " prompts removed, roff escapes undone) in the current directory.
man_examples() {
	awk '/^\.SH EXAMPLES/ { on = 1 } on && /^\.EE/ { print "#--"; ex = 0 }
		ex { print } on && /^\.EX/ { ex = 1 }' "$1" |
		sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\e/\\/g' -e 's/^\$ //'
}

@test "compare: the man page's examples run as written" {
	cd "$BATS_TEST_TMPDIR"
	man_examples "$REPO/man/pinrun-compare.1" >examples
	# Four examples, split at "#--".
	[ "$(grep -c '^#--$' examples)" -eq 4 ] || fail "$(cat examples)"
	csplit -s -z -f ex examples '/^#--$/+1' '{*}'
	export PATH=$REPO/scripts:$PATH GITHUB_STEP_SUMMARY=$BATS_TEST_TMPDIR/summary.md
	# 1: a configure script.
	mkdir one && cd one
	printf '#!/bin/sh\nfor i in 1 2 3; do /bin/true; done\n' >configure && chmod +x configure
	run --separate-stderr bash -e ../ex00
	assert_success
	assert_line --regexp '^spread --follow +15 +[0-9.]+ '
	cd ..
	# 2: a build from make clean, into the step summary.
	make_project two 0.15
	cd two
	run --separate-stderr bash -e ../ex01
	# The gate's verdict is this machine's timing (a sanitizer build, a
	# loaded runner): 0; 1, slower; 4, the runs cannot tell; each with its
	# reason. Never a usage error (2) or a failed run (3).
	case $status in
	0) ;;
	1) [[ "$stderr" == *"'same-chip' is slower than 'none' by more than 5%: ratio "* ]] || fail "status 1: $stderr" ;;
	4) [[ "$stderr" == *"cannot decide whether 'same-chip' is slower than 'none' by more than 5%: "* ||
		"$stderr" == *"not decided whether 'same-chip' is slower than 'none' by more than 5%: "* ]] || fail "status 4: $stderr" ;;
	*) fail "status $status: $stderr" ;;
	esac
	[ "$(wc -l <build.log)" -eq 22 ] || fail "$(wc -l <build.log) builds, not 22: --prepare did not clean"
	grep -q '^### pinrun-compare: `make -j4`$' "$GITHUB_STEP_SUMMARY"
	grep -q '^| `same-chip` | ' "$GITHUB_STEP_SUMMARY"
	grep -q '^Plot: \[runs.svg\](runs.svg)$' "$GITHUB_STEP_SUMMARY"
	[ "$(lines_of runs.csv)" -eq 23 ]
	cd ..
	# 3: a server loaded by ab, on a free port instead of 8080.
	if command -v ab >/dev/null; then
		mkdir three && cd three
		cc -O2 -o burnserver "$REPO/examples/http/burnserver.c"
		printf '#!/bin/sh\nexec ./burnserver -w 2 -n 1000 "$1"\n' >server && chmod +x server
		port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		sed "s/8080/$port/g" ../ex02 >ex
		run --separate-stderr bash -e ex
		assert_success
		assert_line --regexp '^figure: the metric.s figure \(higher is better\); 6 runs per placement'
		assert_line --regexp '^hot +6 +[0-9.]+ '
		assert_line --regexp '^spread --follow +6 +[0-9.]+ '
		cd ..
	else
		skip_unless_works "no ab (Debian package apache2-utils)"
	fi
	# 4: record, then re-analyse against hot.
	mkdir four && cd four
	printf '#!/bin/sh\nsleep 0.01\n' >bench && chmod +x bench
	run --separate-stderr bash -e ../ex03
	assert_success
	assert_line "### pinrun-compare: \`./bench\`"
	assert_line --regexp '^\| `hot` \| `[-0-9,]+` \| 10 \| 0 \| .* \| 1\.000 \| - \| baseline \|$'
	assert_line --regexp '^\| `none` \| `[-0-9,]+` \| 10 \| 0 \| .* \| [01]\.[0-9]{3} \| \[[0-9.]+, [0-9.]+\] \| '
	[ "$(lines_of runs.csv)" -eq 45 ]
}

@test "compare: the README's pinrun-compare example runs as written" {
	cd "$BATS_TEST_TMPDIR"
	awk '/^## Does a placement make it faster\?/ { on = 1; next } on && /^## / { exit }
		on && /^```sh$/ { ex = 1; next } ex && /^```$/ { ex = 0; next } ex' "$REPO/README.md" >example
	[ -s example ] || fail "no example in the README section"
	make_project . 0.15
	export PATH=$REPO/scripts:$PATH GITHUB_STEP_SUMMARY=$BATS_TEST_TMPDIR/summary.md
	run --separate-stderr bash -e example
	# The gate's answer is this machine's timing: 0 no slower than 10%,
	# 1 slower, 4 not decided; each with its line.
	case $status in
	0) [[ "$stderr" == *"is no slower than 'none' by more than 10%: "* ]] || fail "status 0: $stderr" ;;
	1) [[ "$stderr" == *"is slower than 'none' by more than 10%: "* ]] || fail "status 1: $stderr" ;;
	4) [[ "$stderr" == *"not decided whether '"*"' is slower than 'none' by more than 10%: "* ]] || fail "status 4: $stderr" ;;
	*) fail "status $status: $stderr" ;;
	esac
	[ "$(wc -l <build.log)" -eq 33 ] || fail "$(wc -l <build.log) builds, not 33"
	run grep -c -E '^\| `(none|hot|spread --follow)` \| `[-0-9,]+` \| 10 \| 0 \|' "$GITHUB_STEP_SUMMARY"
	assert_output 3
	[ -s runs.svg ] && [ "$(lines_of runs.csv)" -eq 34 ]
}

@test "compare: docs/ci.md's workflow parses, and its steps run here" {
	python3 -c 'import yaml' 2>/dev/null || skip_unless_works "no python3-yaml (Debian package python3-yaml)"
	cd "$BATS_TEST_TMPDIR"
	make_project project 0.12
	# The steps, in order: checkouts stood in for (the project is here,
	# pinrun is this tree), the apt-get step checked (its packages are
	# installed), the artifact's paths checked, every other one run with
	# bash -e; a step without if: always() only while all went well.
	run --separate-stderr python3 - "$REPO" "$REPO/docs/ci.md" "$BATS_TEST_TMPDIR" <<'EOF'
import os, re, shutil, subprocess, sys, yaml
repo, doc, tmp = sys.argv[1:]
text = open(doc).read()
block = re.search(r"<!-- workflow -->\n```yaml\n(.*?)```", text, re.S).group(1)
wf = yaml.safe_load(block)
assert wf["name"] == "placement" and set(wf[True]) == {"pull_request", "workflow_dispatch"}, wf
job = wf["jobs"]["placement"]
ws = os.path.join(tmp, "project")
env = {k: v for k, v in os.environ.items() if k != "PINRUN"}
env.update({k: str(v) for k, v in job["env"].items()})
env.update(MAX_ROUNDS="6", RUNNER_TEMP=os.path.join(tmp, "runner"),
           GITHUB_STEP_SUMMARY=os.path.join(tmp, "summary.md"),
           GITHUB_PATH=os.path.join(tmp, "github_path"))
os.mkdir(env["RUNNER_TEMP"])
open(env["GITHUB_PATH"], "w").close()
ok = True
for step in job["steps"]:
    name = step["name"]
    if not ok and step.get("if") != "always()":
        print("%s: skipped" % name)
        continue
    if "uses" in step:
        action, args = step["uses"], step.get("with", {})
        if action == "actions/checkout@v4" and "repository" not in args:
            print("%s: the project is here" % name)
        elif action == "actions/checkout@v4":
            assert args["repository"] == "${{ env.PINRUN_REPOSITORY }}", args
            shutil.copytree(repo, os.path.join(ws, args["path"]), symlinks=True,
                            ignore=shutil.ignore_patterns(".git", "tmp"))
            print("%s: copied" % name)
        elif action == "actions/upload-artifact@v4":
            paths = args["path"].split()
            missing = [p for p in paths if not os.path.isfile(os.path.join(ws, p))]
            print("%s: %s, missing: %s" % (name, " ".join(paths), missing))
        else:
            raise SystemExit("unknown action " + action)
        continue
    script = step["run"]
    if "apt-get install" in script:
        pkgs = script.split("--no-install-recommends")[1].replace("\\", " ").split()
        r = subprocess.run(["dpkg", "-s"] + pkgs, capture_output=True)
        print("%s: %s installed: %s" % (name, " ".join(pkgs), r.returncode == 0))
        continue
    path = [line for line in open(env["GITHUB_PATH"]).read().splitlines() if line]
    step_env = dict(env, PATH=":".join(path[::-1] + [env["PATH"]]))
    r = subprocess.run(["bash", "-e", "-c", script], cwd=ws, env=step_env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sys.stderr.write(r.stdout + r.stderr)
    if name.startswith("Compare"):
        rounds = [l for l in r.stderr.splitlines() if l.startswith("pinrun-compare: round ")]
        print("%s: %d progress lines" % (name, len(rounds)))
        # The gate's answer is the machine's (a loaded runner, a sanitizer
        # build): what must hold is that the exit status is the answer's:
        # 0 only when every placement is no slower than 10%, 1 when one
        # is slower, 4 when one is not decided; never a pass otherwise.
        said = [l for l in r.stderr.splitlines() if " than 'none' by more than 10%" in l]
        no_slower = [l for l in said if l.startswith("pinrun-compare: '")
                     and " is no slower than " in l]
        slower = [l for l in said if l.startswith("pinrun-compare: '")
                  and " is slower than " in l]
        open_ = [l for l in said if l.startswith(("pinrun-compare: not decided ",
                                                  "pinrun-compare: cannot decide "))]
        answer = {0: len(no_slower) == 3 and not slower and not open_,
                  1: bool(slower), 4: bool(open_) and not slower}
        print("%s: %s" % (name, "answered" if answer.get(r.returncode)
                                 else "exit %d: %s" % (r.returncode, said)))
        continue
    print("%s: exit %d" % (name, r.returncode))
    ok = ok and r.returncode == 0
EOF
	assert_success
	assert_output "Check out the project: the project is here
Check out pinrun: copied
Install pinrun's dependencies: gcc make pkg-config libhwloc-dev hwloc python3 time installed: True
Install pinrun: exit 0
Compare placements of the build: 7 progress lines
Compare placements of the build: answered
Summary: exit 0
Keep the runs: placement.csv placement.svg, missing: []"
	cd project
	# It used the pinrun it installed, built every run from make clean,
	# and summed it up.
	[ -x "$BATS_TEST_TMPDIR/runner/pinrun/bin/pinrun-compare" ]
	[ "$(wc -l <build.log)" -eq 28 ] || fail "$(wc -l <build.log) builds, not 28"
	[ "$(lines_of placement.csv)" -eq 29 ]
	run cat "$BATS_TEST_TMPDIR/summary.md"
	assert_line --index 0 "### pinrun-compare: \`make -j$(nproc)\`"
	assert_line "Prepare: \`make clean\`."
	assert_line --regexp '^\| `spread` \| `[-0-9,]+` \| 6 \| 0 \| '
	assert_line "Plot: [placement.svg](placement.svg)"
}
