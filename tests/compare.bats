#!/usr/bin/env bats
# scripts/pinrun-compare: argument errors, the round-robin order, the
# statistics and verdicts on fixed recorded runs (tests/fixtures/compare),
# the report formats, --fail-if-slower, the SVG plot, and one live effect
# too large for a shared machine's noise to hide.

load test_helper

setup() {
	COMPARE=$BATS_TEST_DIRNAME/../scripts/pinrun-compare
	FIX=$BATS_TEST_DIRNAME/fixtures/compare
	ALLOWED=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)
	FIRST=$(expand "$ALLOWED" | cut -d, -f1)
	SECOND=$(expand "$ALLOWED" | cut -d, -f2)
	# The fixtures' names appear in the reports as given.
	cd "$FIX"
}

# pinrun-compare's argument errors: exit 2 and one
# "pinrun-compare: MESSAGE" line.
refused() {
	local message=$1
	shift
	one_line_error "$COMPARE" 2 pinrun-compare "$message" "$@"
}

needs_two_cpus() {
	[ "$FIRST" != "$SECOND" ] || skip_unless_works "needs 2 allowed CPUs, this process has $ALLOWED"
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
	for opt in runs warmup placement baseline format output plot \
		fail-if-slower timeout metric higher-is-better ignore-status from \
		help version; do
		assert_output --partial -- "--$opt"
	done
	run "$COMPARE" -h
	assert_success
	assert_line --index 0 "Usage:"
}

@test "compare: --version" {
	run "$COMPARE" --version
	assert_success
	assert_output --regexp '^pinrun-compare [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "compare: a failed write to stdout is an error (--help >/dev/full)" {
	[ -w /dev/full ] || skip_unless_works "no /dev/full"
	run bash -c '"$1" --help >/dev/full' _ "$COMPARE"
	assert_failure 2
	assert_output "pinrun-compare: write error: No space left on device"
}

@test "compare: bad arguments are refused with one line and exit 2" {
	refused "no command given (or --from FILE to re-analyse recorded runs)"
	refused "unknown option '--bogus'" --bogus true
	refused "unknown option '-x'" -x true
	refused "option '-n' needs a value" -n
	refused "invalid number of runs '0': expected a whole number from 1 to 100000" -n 0 true
	refused "invalid number of runs 'ten': expected a whole number from 1 to 100000" --runs=ten true
	refused "invalid number of warm-up rounds '-1': expected a whole number from 0 to 100000" -w -1 true
	refused "invalid format 'xml': expected table, markdown, csv or json" --format xml true
	refused "invalid percentage 'abc': expected a non-negative number" --fail-if-slower abc true
	refused "invalid percentage '-5': expected a non-negative number" --fail-if-slower -5 true
	refused "invalid timeout '0': expected a positive number" --timeout 0 true
	refused "option '-n' given twice" -n 3 -n 4 true
	refused "option '--help' takes no value" --help=yes
	refused "--higher-is-better needs --metric: wall time is never better higher" --higher-is-better true
	refused "empty metric command" --metric ' ' true
	refused "--output and --plot name the same file 'x'" -o x --plot x true
}

@test "compare: bad placements are refused before anything runs" {
	refused "empty placement: use none for the plain command" -p '' true
	refused "invalid placement 'none --follow': none takes no options" -p 'none --follow' true
	refused "invalid placement 'hot -- x': '--' would end pinrun's options" -p 'hot -- x' true
	refused "invalid placement 'hot 'x': unbalanced quotes" -p "hot 'x" true
	refused "placement 'hot' given twice" -p hot -p ' hot ' true
	refused "baseline 'spread' is not one of the placements: none, hot" -p none -p hot -b spread true
	refused "placement 'bogus': pinrun: unrecognized option '--bogus'" -p none -p bogus true
	refused "placement 'cpus x': pinrun: invalid location 'x': unknown object type 'x'" -p 'cpus x' true
	refused "placement 'hot --json' does not run the command (pinrun --hot --json exited with status 0)" -p 'hot --json' true
	refused "placement 'hot echo' does not run the command (pinrun --hot echo exited with status 0)" -p 'hot echo' true
}

@test "compare: a missing command, pinrun or output file is refused" {
	refused "command 'no-such-command-here' not found" -- no-such-command-here
	refused "cannot run './no-such-file': not an executable file" -- ./no-such-file
	PINRUN=/nonexistent/pinrun refused "cannot run pinrun '/nonexistent/pinrun': No such file or directory" -p hot true
	refused "cannot write '/nonexistent/out.csv': No such file or directory" -o /nonexistent/out.csv true
	refused "cannot write '/nonexistent/plot.svg': No such file or directory" --plot /nonexistent/plot.svg true
}

@test "compare: --from refuses what only a live run can use, and bad files" {
	refused "--from re-analyses recorded runs: no command may be given" --from shift.csv true
	refused "-n cannot be used with --from: the runs are recorded" --from shift.csv -n 3
	refused "--metric cannot be used with --from: the runs are recorded" --from shift.csv --metric true
	refused "cannot read 'nothing.csv': No such file or directory" --from nothing.csv
	refused "bad-figure.csv: line 3: invalid figure 'abc'" --from bad-figure.csv
	refused "bad-columns.csv: not a pinrun-compare CSV: no column status, better" --from bad-columns.csv
	refused "placement 'same-chip' is not in shift.csv: it has none, hot, spread" --from shift.csv -p same-chip
}

# --- running ----------------------------------------------------------------

@test "compare: runs are interleaved round-robin after the warm-up rounds" {
	needs_two_cpus
	export LOG=$BATS_TEST_TMPDIR/log
	run --separate-stderr "$COMPARE" -n 2 -w 1 --format csv \
		-p "cpus $FIRST" -p "cpus $SECOND" -p none -- \
		sh -c 'awk "/^Cpus_allowed_list/ { print \$2 }" /proc/self/status >>"$LOG"'
	assert_success
	[ -z "$stderr" ]
	# What each run saw, in the order they ran.
	run cat "$LOG"
	assert_output "$(printf '%s\n' "$FIRST" "$SECOND" "$ALLOWED" "$FIRST" "$SECOND" "$ALLOWED" "$FIRST" "$SECOND" "$ALLOWED")"
	# What the CSV says about them.
	run --separate-stderr "$COMPARE" -n 2 -w 1 --format csv \
		-p "cpus $FIRST" -p "cpus $SECOND" -p none -- true
	assert_success
	run cut -d, -f1-5 <<<"$output"
	assert_output "seq,round,phase,placement,status
1,1,warmup,cpus $FIRST,ok
2,1,warmup,cpus $SECOND,ok
3,1,warmup,none,ok
4,1,measure,cpus $FIRST,ok
5,1,measure,cpus $SECOND,ok
6,1,measure,none,ok
7,2,measure,cpus $FIRST,ok
8,2,measure,cpus $SECOND,ok
9,2,measure,none,ok"
}

@test "compare: every run records wall, user and sys time, peak RSS and exit status" {
	[ -x /usr/bin/time ] || skip_unless_works "peak RSS needs GNU time (Debian package time)"
	# dd's 40 MiB buffer counts; the memory of pinrun-compare's Python
	# (about 14 MiB) must not leak into a small command's figure. A run
	# through pinrun counts pinrun's peak before its exec too: about 8 MiB
	# when pinrun is built with ASan (make SAN=1 check).
	for cmd in "dd bs=40M count=1 if=/dev/zero of=/dev/null status=none" true; do
		# shellcheck disable=SC2086 # the words of the command
		run --separate-stderr "$COMPARE" -n 3 -w 0 --format csv -p none -p hot -- $cmd
		assert_success
		assert_line --index 0 "seq,round,phase,placement,status,exit,wall_s,user_s,sys_s,maxrss_kb,figure,better,note"
		[ "${#lines[@]}" -eq 7 ]
		for line in "${lines[@]:1}"; do
			IFS=, read -r seq rnd phase placement status code wall user sys rss figure better note <<<"$line"
			[ "$status,$code,$better,$note" = "ok,0,lower," ] || fail "run $seq: $line"
			[[ "$wall" =~ ^[0-9]+\.[0-9]{6}$ && "$user" =~ ^[0-9]+\.[0-9]{6}$ && "$sys" =~ ^[0-9]+\.[0-9]{6}$ ]] || fail "times: $line"
			if [ "$cmd" = true ] && [ "$placement" = none ]; then
				[ "$rss" -lt 8000 ] || fail "peak RSS $rss KiB: $line"
			elif [ "$cmd" = true ]; then
				[ "$rss" -lt 12000 ] || fail "peak RSS $rss KiB: $line"
			else
				[ "$rss" -gt 40000 ] && [ "$rss" -lt 80000 ] || fail "peak RSS $rss KiB: $line"
			fi
			awk -v w="$wall" -v f="$figure" 'BEGIN { exit !(w == f) }' || fail "figure is not the wall time: $line"
		done
	done
}

@test "compare: a failed run is reported, not hidden, and the exit status is 3" {
	run --separate-stderr "$COMPARE" -n 2 -w 0 -p none -p hot -- sh -c 'echo "no luck" >&2; exit 4'
	assert_failure 3
	assert_line "none          0       2       -    -    -    -      -  -       baseline"
	assert_line "hot           0       2       -    -    -    -      -  -       too few runs"
	assert_line "failed: none, runs 1, 3: exit 4: no luck"
	assert_line "failed: hot, runs 2, 4: exit 4: no luck"
	[ -z "$stderr" ]
	# -i: the status is recorded, the run counts.
	run --separate-stderr "$COMPARE" -i -n 2 -w 0 --format csv -p none -- sh -c 'exit 4'
	assert_success
	assert_line --index 1 --regexp '^1,1,measure,none,ok,4,'
}

@test "compare: --ignore-status counts a run by its time whatever its exit status (long options)" {
	run --separate-stderr "$COMPARE" --runs 2 --warmup 0 --placement none --placement hot \
		--ignore-status --format csv -- sh -c 'exit 4'
	assert_success
	[ "${#lines[@]}" -eq 5 ]
	run cut -d, -f1-6 <<<"$output"
	assert_output "seq,round,phase,placement,status,exit
1,1,measure,none,ok,4
2,1,measure,hot,ok,4
3,2,measure,none,ok,4
4,2,measure,hot,ok,4"
}

@test "compare: --timeout kills a run and its children; it fails" {
	run --separate-stderr "$COMPARE" -n 1 -w 0 -p none -p 'spread --follow' --timeout 0.5 --format csv -- \
		sh -c 'sleep 37.5 & sleep 37.5; wait'
	assert_failure 3
	assert_line --index 1 --regexp '^1,1,measure,none,failed,timeout,0\.[5-9][0-9]*,.*,killed after the 0.5 s timeout$'
	assert_line --index 2 --regexp '^2,1,measure,spread --follow,failed,timeout,0\.[5-9][0-9]*,.*,killed after the 0.5 s timeout$'
	run pgrep -f '^sleep 37.5$'
	[ -z "$output" ] || fail "left behind: $output"
}

@test "compare: --metric compares the metric's last line while the command runs" {
	run --separate-stderr "$COMPARE" -n 2 -w 0 -p none -p hot --format csv --higher-is-better \
		--metric 'echo starting; kill -0 "$PINRUN_COMPARE_PID" && echo "$PINRUN_COMPARE_RUN"0' -- sleep 30
	assert_success
	run cut -d, -f1-6,11,12 <<<"$output"
	assert_output "seq,round,phase,placement,status,exit,figure,better
1,1,measure,none,ok,SIGINT,10,higher
2,1,measure,hot,ok,SIGINT,20,higher
3,2,measure,none,ok,SIGINT,30,higher
4,2,measure,hot,ok,SIGINT,40,higher"
}

@test "compare: a command that ignores SIGINT is stopped with SIGTERM after its metric" {
	run --separate-stderr "$COMPARE" -n 1 -w 0 -p none --format csv --metric 'sleep 0.5; echo 3' -- \
		sh -c 'trap "" INT; while :; do sleep 0.1; done'
	assert_success
	assert_line --index 1 --regexp '^1,1,measure,none,ok,SIGTERM,2\.[5-9][0-9]*,.*,3,lower,$'
}

@test "compare: a metric that prints no number, or fails, fails the run" {
	run --separate-stderr "$COMPARE" -n 1 -w 0 -p none --metric 'echo 12; echo n/a' -- sleep 30
	assert_failure 3
	assert_line "failed: none, run 1: metric printed no positive number last: 'n/a'"
	run --separate-stderr "$COMPARE" -n 1 -w 0 -p none --metric 'echo refused >&2; exit 7' -- sleep 30
	assert_failure 3
	assert_line "failed: none, run 1: metric exited with status 7: refused"
	run --separate-stderr "$COMPARE" -n 1 -w 0 -p none --metric 'sleep 1; echo 5' -- sh -c 'echo crashed >&2; exit 1'
	assert_failure 3
	assert_line "failed: none, run 1: the command ended before the metric: exit 1: crashed"
}

@test "compare: live, eight CPU-bound processes on one hot CPU are slower than spread" {
	needs_two_cpus
	# Eight processes, not two: on a shared machine, while another user's
	# process holds one CPU, two processes get about one CPU's worth under
	# spread as well, and eight keep more of two CPUs' worth. A machine
	# loaded to twice its CPUs (load average 5 here, from another suite
	# under valgrind) can still hide it, so up to three tries.
	local burn='awk "BEGIN { for (i = 0; i < 2500000; i++) s += i }"' work try
	work=$(printf '%s & ' "$burn" "$burn" "$burn" "$burn" "$burn" "$burn" "$burn" "$burn")
	for try in 1 2 3; do
		run --separate-stderr "$COMPARE" -n 8 -w 1 -p spread -p hot --format json --fail-if-slower 10 -- \
			sh -c "${work}wait"
		[ "$status" -ne 1 ] || break
		echo "# try $try of 3: hot not flagged slower (exit status $status)" >&3
	done
	assert_failure 1
	[[ "$stderr" == "pinrun-compare: 'hot' is slower than 'spread' by more than 10%: ratio "* ]] ||
		fail "no gate message: $stderr"
	python3 -c '
import json, sys
doc = json.load(sys.stdin)
hot = doc["placements"][1]
assert hot["placement"] == "hot" and hot["verdict"] == "slower", hot
assert hot["ratio"] > 1.3 and hot["slower_than_allowed"], hot
' <<<"$output" || fail "hot not found slower: $output"
}

# --- statistics on recorded runs ---------------------------------------------

@test "compare: identical samples: ratio 1, no significant difference" {
	run --separate-stderr "$COMPARE" --from identical.csv
	assert_success
	assert_output "figure: the recorded figure (lower is better); runs recorded in identical.csv
placement  runs  failed  median    min    max    MAD  ratio  95% CI          verdict
none          8       0   1.000  0.970  1.030  0.015  1.000  -               baseline
hot           8       0   1.000  0.970  1.030  0.015  1.000  [0.980, 1.020]  no significant difference
ratio: Hodges-Lehmann estimate of placement / baseline (none); CI: Mann-Whitney, 95%"
	[ -z "$stderr" ]
}

@test "compare: a clear 2x shift both ways: slower and faster; warm-ups ignored" {
	run --separate-stderr "$COMPARE" --from shift.csv
	assert_success
	assert_output "figure: the recorded figure (lower is better); runs recorded in shift.csv
placement  runs  failed  median    min    max    MAD  ratio  95% CI          verdict
none          8       0   1.000  0.970  1.030  0.015  1.000  -               baseline
hot           8       0   2.000  1.940  2.060  0.030  2.000  [1.960, 2.041]  slower
spread        8       0   0.500  0.485  0.515  0.008  0.500  [0.490, 0.510]  faster
ratio: Hodges-Lehmann estimate of placement / baseline (none); CI: Mann-Whitney, 95%"
}

@test "compare: overlapping noisy samples: no significant difference" {
	run --separate-stderr "$COMPARE" --from noisy.csv
	assert_success
	assert_line "hot          10       0   10.35  9.00  12.30  0.80  1.015  [0.910, 1.122]  no significant difference"
}

@test "compare: the interval is that of R's wilcox.test(conf.int = TRUE)" {
	# Sizes 8 and 8: qwilcox(0.025, 8, 8) = 14, so the interval runs from
	# the 14th smallest of the 64 ratios hot/none to the 14th largest.
	want=$(awk -F, '$3 == "measure" { v[$4] = v[$4] " " $11 }
		END {
			n = split(v["hot"], h, " "); split(v["none"], b, " ")
			for (i = 1; i <= n; i++) for (j = 1; j <= n; j++) print h[i] / b[j]
		}' shift.csv | sort -g | sed -n '14p;51p' | xargs printf '%.3f %.3f')
	[ "$want" = "1.960 2.041" ]
	run "$COMPARE" --from shift.csv --format json
	assert_line --partial '"placement": "hot", "pinrun": ["--hot"], "runs": 8, "failed": 0, "median": 2.0, "min": 1.94, "max": 2.06, "mad": 0.03, "ratio": 2.0, "ci_low": 1.96, "ci_high": 2.04081633, "verdict": "slower"'
}

@test "compare: too few runs for 95% confidence gives no verdict" {
	run --separate-stderr "$COMPARE" --from few.csv
	assert_success
	assert_line "hot           3       0   2.000  1.900  2.100  0.100  2.000  -       too few runs"
}

@test "compare: failed runs in the record are counted and listed" {
	run --separate-stderr "$COMPARE" --from failed.csv
	assert_failure 3
	assert_line "none          7       1   1.000  0.970  1.030  0.020  1.000  -               baseline"
	assert_line "hot           7       1   2.000  1.940  2.060  0.020  2.000  [1.942, 2.060]  slower"
	assert_line "failed: hot, run 6: SIGSEGV"
	assert_line "failed: none, run 9: killed after the 5 s timeout"
}

@test "compare: a rate (higher is better): half the rate is slower" {
	run --separate-stderr "$COMPARE" --from rate.csv
	assert_success
	assert_output "figure: the recorded figure (higher is better); runs recorded in rate.csv
placement        runs  failed  median   min    max  MAD  ratio  95% CI          verdict
none                6       0   100.5  98.0  103.0  1.5  1.000  -               baseline
hot                 6       0    50.2  48.0   52.0  0.8  0.500  [0.485, 0.515]  slower
spread --follow     6       0   101.0  98.5  104.0  1.8  1.005  [0.976, 1.035]  no significant difference
ratio: Hodges-Lehmann estimate of placement / baseline (none); CI: Mann-Whitney, 95%"
}

@test "compare: --baseline and -p choose the baseline and the order" {
	run --separate-stderr "$COMPARE" --from shift.csv -b hot -p spread -p none -p hot
	assert_success
	assert_line --index 2 "spread        8       0   0.500  0.485  0.515  0.008  0.250  [0.245, 0.255]  faster"
	assert_line --index 3 "none          8       0   1.000  0.970  1.030  0.015  0.500  [0.490, 0.510]  faster"
	assert_line --index 4 "hot           8       0   2.000  1.940  2.060  0.030  1.000  -               baseline"
}

@test "compare: the tables of docs/results.md are those of the recorded runs" {
	local doc=$BATS_TEST_DIRNAME/../docs/results.md f want got
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
}

# --- formats ----------------------------------------------------------------

@test "compare: --format markdown is a step summary" {
	run --separate-stderr "$COMPARE" --from shift.csv --format markdown
	assert_success
	assert_output "### pinrun-compare

Figure: the recorded figure (lower is better); runs recorded in shift.csv.

| placement | runs | failed | median | min | max | MAD | ratio | 95% CI | verdict |
|---|--:|--:|--:|--:|--:|--:|--:|:-:|---|
| \`none\` | 8 | 0 | 1.000 | 0.970 | 1.030 | 0.015 | 1.000 | - | baseline |
| \`hot\` | 8 | 0 | 2.000 | 1.940 | 2.060 | 0.030 | 2.000 | [1.960, 2.041] | **slower** |
| \`spread\` | 8 | 0 | 0.500 | 0.485 | 0.515 | 0.008 | 0.500 | [0.490, 0.510] | **faster** |

Ratio: the Hodges–Lehmann estimate of placement / baseline (\`none\`), with the 95% confidence interval of the Mann–Whitney test."
}

@test "compare: markdown of a live run names the command, the machine and failures" {
	run --separate-stderr "$COMPARE" -n 1 -w 0 -p none --format markdown -- sh -c 'exit 1'
	assert_failure 3
	assert_line --index 0 "### pinrun-compare: \`sh -c 'exit 1'\`"
	# (bats' lines leave out the empty ones)
	assert_line --index 1 "Figure: wall time in seconds (lower is better); 1 run per placement after 0 warm-up rounds, interleaved; $(getconf _NPROCESSORS_ONLN) CPUs, Linux $(uname -r)."
	assert_line "- failed: none, run 1: exit 1"
}

@test "compare: --format csv carries every run and reads back unchanged" {
	for f in identical shift noisy failed rate few; do
		run --separate-stderr "$COMPARE" --from "$f.csv" --format csv
		[ "$output" = "$(cat "$f.csv")" ] || fail "$f.csv changed: $output"
	done
}

@test "compare: --format json carries the summary and every run" {
	run --separate-stderr "$COMPARE" --from shift.csv --format json --fail-if-slower 10
	assert_failure 1
	python3 -c '
import json, sys
doc = json.load(sys.stdin)
assert sorted(doc) == sorted(["command", "metric", "better", "from", "host",
    "runs_per_placement", "warmup_rounds", "order", "baseline", "confidence",
    "fail_if_slower_pct", "placements", "runs"]), sorted(doc)
assert doc["baseline"] == "none" and doc["better"] == "lower"
assert doc["runs_per_placement"] == 8 and doc["warmup_rounds"] == 1
assert doc["confidence"] == 0.95 and doc["fail_if_slower_pct"] == 10
assert [p["verdict"] for p in doc["placements"]] == ["baseline", "slower", "faster"]
assert [p["slower_than_allowed"] for p in doc["placements"]] == [False, True, False]
assert [p["pinrun"] for p in doc["placements"]] == [None, ["--hot"], ["--spread"]]
assert len(doc["runs"]) == 27
assert [r["phase"] for r in doc["runs"][:4]] == ["warmup"] * 3 + ["measure"]
assert set(doc["runs"][0]) == {"seq", "round", "phase", "placement", "status",
    "exit", "wall_s", "user_s", "sys_s", "maxrss_kb", "figure", "note"}
' <<<"$output" || fail "bad JSON: $output"
}

@test "compare: --output writes the format to a file and the table to stdout" {
	out=$BATS_TEST_TMPDIR/runs.csv
	run --separate-stderr "$COMPARE" -n 2 -w 0 -p none --format csv -o "$out" -- true
	assert_success
	assert_line --index 0 "pinrun-compare: true"
	assert_line --index 2 --regexp "^placement +runs +failed +median +min +max +MAD +ratio +95% CI +verdict$"
	run "$COMPARE" --from "$out" --format csv
	assert_success
	[ "$output" = "$(cat "$out")" ]
	[ "${#lines[@]}" -eq 3 ]
}

# --- the gate ---------------------------------------------------------------

@test "compare: --fail-if-slower exits 1 only beyond the percentage" {
	run --separate-stderr "$COMPARE" --from shift.csv --fail-if-slower 50
	assert_failure 1
	[ "$stderr" = "pinrun-compare: 'hot' is slower than 'none' by more than 50%: ratio 2.000, 95% CI [1.960, 2.041]" ]
	run --separate-stderr "$COMPARE" --from shift.csv --fail-if-slower 96
	assert_success
	[ -z "$stderr" ]
	run --separate-stderr "$COMPARE" --from identical.csv --fail-if-slower 0
	assert_success
	run --separate-stderr "$COMPARE" --from noisy.csv --fail-if-slower 0
	assert_success
	# A rate: slower by more than 40% is less than 0.6 times the rate.
	run --separate-stderr "$COMPARE" --from rate.csv --fail-if-slower 40
	assert_failure 1
	[ "$stderr" = "pinrun-compare: 'hot' is slower than 'none' by more than 40%: ratio 0.500, 95% CI [0.485, 0.515]" ]
	run --separate-stderr "$COMPARE" --from rate.csv --fail-if-slower 49
	assert_success
	# Against hot, the others are faster: nothing to fail.
	run --separate-stderr "$COMPARE" --from shift.csv --baseline hot --fail-if-slower 0
	assert_success
}

# --- the plot ---------------------------------------------------------------

# Count the pixels near each colour given (RRGGBB, each channel within 40:
# anti-aliasing) in a PNG, decoded here.
count_pixels() {
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
want = [bytes.fromhex(c) for c in sys.argv[2:]]
counts = [0] * len(want)
for line in rows:
    for i in range(0, stride, bpp):
        for k, c in enumerate(want):
            if all(abs(line[i + j] - c[j]) <= 40 for j in range(3)):
                counts[k] += 1
print(w, h, *counts)
EOF
}

@test "compare: --plot writes a self-contained SVG that renders" {
	command -v rsvg-convert >/dev/null || skip_unless_works "no rsvg-convert (Debian package librsvg2-bin)"
	svg=$BATS_TEST_TMPDIR/plot.svg
	run --separate-stderr "$COMPARE" --from shift.csv --plot "$svg"
	assert_success
	# Nothing to fetch: no links, scripts, styles or images.
	run grep -c -E 'href|url\(|<script|<style|<image|@import' "$svg"
	assert_output 0
	run grep -o 'http[^"]*' "$svg"
	assert_output "http://www.w3.org/2000/svg"
	# One dot per measured run, and the labels.
	run grep -c '<circle ' "$svg"
	assert_output 24
	run grep -c -E '>(none|hot|spread|baseline median|2.000 \[1.960, 2.041\] slower|0.500 \[0.490, 0.510\] faster)<' "$svg"
	assert_output 6
	rsvg-convert -o "$BATS_TEST_TMPDIR/plot.png" "$svg"
	# Size; then the baseline's dashed red line, the dark blue dots and
	# the white background are all drawn (the dots are 75% opaque).
	run count_pixels "$BATS_TEST_TMPDIR/plot.png" d62728 467cb5 ffffff
	assert_success
	read -r w h red blue white <<<"$output"
	[ "$w" -eq 980 ] && [ "$h" -eq 250 ] || fail "size $w x $h"
	[ "$red" -gt 150 ] || fail "baseline line: $red red pixels"
	[ "$blue" -gt 300 ] || fail "dots: $blue blue pixels"
	[ "$white" -gt $((w * h / 2)) ] || fail "background: $white white pixels"
}

@test "compare: --plot of a live run with a failed placement" {
	needs_two_cpus
	command -v rsvg-convert >/dev/null || skip_unless_works "no rsvg-convert (Debian package librsvg2-bin)"
	svg=$BATS_TEST_TMPDIR/live.svg
	run --separate-stderr "$COMPARE" -n 2 -w 0 -p none -p hot --plot "$svg" -- sh -c '[ "$(nproc)" -gt 1 ]'
	assert_failure 3
	run grep -c '>hot (2 failed)<' "$svg"
	assert_output 1
	run rsvg-convert -o "$BATS_TEST_TMPDIR/live.png" "$svg"
	assert_success
}
