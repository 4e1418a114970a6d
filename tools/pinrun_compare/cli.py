# SPDX-License-Identifier: BSD-3-Clause
"""The command line: the options, checked before anything runs, and the
program's entry with its exit status."""

import argparse
import difflib
import math
import os
import re
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field

from .common import (version, CompareError, EXIT_INTERNAL, EXIT_OK, FORMATS,
                     MAX_RUNS, OUTPUT_OPTIONS, PROG, UsageError)
from .placement import parse_placement
from .paths import escape, write_stdout
from .runner import Child, Stop
from .session import live, recorded


USAGE = """\
Usage:
 pinrun-compare [options] [--] <command> [<argument>...]
 pinrun-compare --from <file.csv> [options]

Run a command under several CPU placements, interleaved in rounds, and say,
round by round, whether each is faster or slower than the baseline.

Options:
 -n, --runs <n>              measured rounds, one run of each placement in
                               each (default 10, at most 100000; 95%
                               confidence needs 6)
 -w, --warmup <n>            unmeasured rounds first (default 1)
 -p, --placement <options>   pinrun's options, or none; repeat it
                               (default: none, hot, same-chip, spread;
                               auto: every distinct one this machine has)
 -b, --baseline <name>       the placement the others are compared with
                               (default: the first)
     --prepare <cmd>         run <cmd> with sh before every run, untimed
     --cleanup <cmd>         run <cmd> with sh after every run, untimed
 -m, --metric <cmd>          compare the last line that <cmd> (run by sh
                               while the command runs) prints, not wall time
     --higher-is-better      the metric is a rate: larger is faster
     --timeout <s>           kill a run after <s> seconds; its time counts
                               as at least <s>
 -i, --ignore-status         a non-zero exit status does not fail a run,
                               and failed runs never stop the comparison
     --fail-if-slower <pct>  decide each placement against a margin of
                               <pct> percent: exit 0 only when all are no
                               slower, 1 when one is slower, 4 when the
                               interval straddles it (not decided)
     --sequential            add rounds until every placement is decided
                               against --fail-if-slower's margin, looking
                               at 10, 15, 23, ... rounds with error rates
                               that stay honest (see the man page)
     --max-rounds <n>        --sequential's budget in rounds (default 100)
     --max-time <s>          --sequential's budget in seconds: no round
                               starts after it
     --format <format>       table, markdown, csv or json (default table)
     --wide                  the table with every column (min, max, MAD,
                               CPU times, counters), wider than 80
 -o, --output <file>         write the report there; the table goes to stdout
     --export-csv <file>     write every run there too, as it is made
     --export-json <file>    write the JSON report there too
     --export-markdown <file>
                             write the markdown report there too
     --plot <file.svg>       draw every run, by placement and in run order
 -q, --quiet                 no progress on standard error
     --from <file.csv>       re-analyse runs recorded by --format csv or
                               --export-csv; repeat it to analyse records
                               of the same command together

 -h, --help                  display this help
 -V, --version               display version

Exit status: 0 fine, 1 slower than allowed, 2 a usage error, 3 failed runs,
4 cannot decide, 5 a bad --from record, 6 a file not written, 70 an
internal error, 130/143 interrupted (the report is of the runs made).

For more details see pinrun-compare(1).
"""

# --- the command line --------------------------------------------------------

# Every option: its spellings, the name it is known by below (that of the
# Options field it sets), and whether it takes a value. argparse reads
# each option word (option_parser).
OPTIONS = (
    (("-n", "--runs"), "runs", True),
    (("-w", "--warmup"), "warmup", True),
    (("-p", "--placement"), "placement", True),
    (("-b", "--baseline"), "baseline", True),
    (("--prepare",), "prepare", True),
    (("--cleanup",), "cleanup", True),
    (("-m", "--metric"), "metric", True),
    (("--higher-is-better",), "higher", False),
    (("--timeout",), "timeout", True),
    (("-i", "--ignore-status"), "ignore_status", False),
    (("--fail-if-slower",), "fail_if_slower", True),
    (("--sequential",), "sequential", False),
    (("--max-rounds",), "max_rounds", True),
    (("--max-time",), "max_time", True),
    (("--format",), "format", True),
    (("--wide",), "wide", False),
    (("-o", "--output"), "output", True),
    (("--export-csv",), "export_csv", True),
    (("--export-json",), "export_json", True),
    (("--export-markdown",), "export_markdown", True),
    (("--plot",), "plot", True),
    (("-q", "--quiet"), "quiet", False),
    (("--from",), "from_file", True),
    (("-h", "--help"), "help", False),
    (("-V", "--version"), "version", False),
)
# Options that may be given more than once.
REPEATABLE = ("placement", "from_file")
# Options that only make sense when commands are run.
RUN_ONLY = ("runs", "warmup", "prepare", "cleanup", "metric", "higher",
            "timeout", "ignore_status", "sequential", "max_rounds",
            "max_time")
# A sequential comparison's budget when --max-rounds is not given.
SEQUENTIAL_ROUNDS = 100


@dataclass
class Options:
    command: list = field(default_factory=list)
    runs: int = 10
    warmup: int = 1
    placements: list = field(default_factory=list)
    baseline: str | None = None
    prepare: str | None = None
    cleanup: str | None = None
    metric: str | None = None
    higher: bool = False
    timeout: float | None = None
    ignore_status: bool = False
    fail_if_slower: float | None = None
    sequential: bool = False
    max_time: float | None = None
    format: str = "table"
    wide: bool = False
    output: str | None = None
    export_csv: str | None = None
    export_json: str | None = None
    export_markdown: str | None = None
    plot: str | None = None
    quiet: bool = False
    from_file: str | None = None  # the first of from_files
    from_files: list = field(default_factory=list)
    help: bool = False
    version: bool = False

    @property
    def better(self):
        return "higher" if self.higher else "lower"


# hyperfine's options that pinrun-compare lacks, or spells otherwise:
# what to write here instead.
HYPERFINE = {
    "-r": "hyperfine's -r (--runs) is -n here: -n <n> rounds",
    "-m": None,  # -m is --metric here: checked as a command
    "--min-runs": "every placement runs exactly -n <n> rounds here, or "
                  "--sequential rounds until decided (hyperfine's "
                  "--min-runs)",
    "-M": "every placement runs exactly -n <n> rounds here, or "
          "--sequential --max-rounds <n> (hyperfine's -M is --max-runs)",
    "--max-runs": "every placement runs exactly -n <n> rounds here, or "
                  "--sequential --max-rounds <n> until decided",
    "-N": "no shell runs the command here: it is its words already "
          "(hyperfine's -N is --shell=none)",
    "--shell": "no shell runs the command here: give its words, or "
               "sh -c '...'",
    "-S": "no shell runs the command here: give its words, or sh -c '...' "
          "(hyperfine's -S is --shell)",
    "--show-output": "the command's output is discarded here, and the "
                     "last line of its standard error is shown when a run "
                     "fails; to watch it, run it under pinrun alone",
    "--command-name": "each placement is named by its -p value here",
    "-c": "write --cleanup <cmd> (hyperfine's -c is --cleanup)",
    "--setup": "use --prepare <cmd>: it runs before every run",
    "-s": "no styles here: -q for no progress (hyperfine's -s is --style)",
    "--style": "no styles here: -q for no progress",
    "-u": "the unit is chosen from the figures here (hyperfine's -u is "
          "--time-unit)",
    "--time-unit": "the unit is chosen from the figures here",
    "-P": "no parameter scan here: run pinrun-compare once per value",
    "--parameter-scan": "no parameter scan here: run pinrun-compare once "
                        "per value",
    "-L": "no parameter list here: run pinrun-compare once per value",
    "--parameter-list": "no parameter list here: run pinrun-compare once "
                        "per value",
    "--export-asciidoc": "use --export-markdown or --export-json",
    "--export-orgmode": "use --export-markdown or --export-json",
}
LONG_OPTIONS = sorted(o for spellings, _, _ in OPTIONS for o in spellings
                      if o.startswith("--"))


class NotAnOption(Exception):
    """argparse's refusal of a word: an ambiguous abbreviation."""


class WordParser(argparse.ArgumentParser):
    """argparse, given one option word at a time by split_options: given
    them all, it would read the command's words too (it refuses an
    ambiguous abbreviation anywhere: true --ex) and never take a value
    that starts with '-' (-p --bogus). Its refusals are not its messages
    (unknown_option says what was meant), nor is its help USAGE."""

    def error(self, message):
        raise NotAnOption(message)

    def format_help(self):
        return USAGE


class Given(argparse.Action):
    """Which option argparse took a word for, named as it names it (--war
    is --warmup), with the value attached to the word (--runs=5, -n5), or
    None when none is: the value of one that takes a value is then the
    next word, whatever it is (-p --bogus)."""

    def __init__(self, option_strings, dest, takes_value, **kwargs):
        super().__init__(option_strings, dest, nargs="?",
                         default=argparse.SUPPRESS, **kwargs)
        self.takes_value = takes_value

    def __call__(self, parser, namespace, values, option_string=None):
        namespace.given = (self, option_string, values)


def option_parser():
    """The options; -h and -V too, checked like the others (--help=yes is
    refused): main prints the help and the version."""
    parser = WordParser(prog=PROG, add_help=False, allow_abbrev=True)
    for spellings, name, takes in OPTIONS:
        parser.add_argument(*spellings, dest=name, action=Given,
                            takes_value=takes)
    return parser


PARSER = option_parser()


def unknown_option(word):
    """The UsageError for a word that is none of our options: what was
    meant, where that can be told."""
    name = word.split("=", 1)[0]
    if word.startswith("--"):
        if name in HYPERFINE:
            return UsageError("unknown option '%s': %s" %
                              (name, HYPERFINE[name]))
        matches = [o for o in LONG_OPTIONS if o.startswith(name)]
        if len(matches) > 1:
            return UsageError("option '%s' is ambiguous: %s" %
                              (name, ", ".join(matches)))
        close = difflib.get_close_matches(name, LONG_OPTIONS, n=1,
                                          cutoff=0.7)
        if close:
            return UsageError("unknown option '%s' (did you mean %s?)" %
                              (name, close[0]))
    elif word in HYPERFINE:
        return UsageError("unknown option '%s': %s" %
                          (word, HYPERFINE[word]))
    return UsageError("unknown option '%s'" % name)


def parse_option(word):
    """The option that a word starting with '-' is, as argparse reads it:
    (its Given, its name, the value attached to it or None)."""
    try:
        namespace, extra = PARSER.parse_known_args([word])
    except NotAnOption:
        raise unknown_option(word) from None
    if extra or not hasattr(namespace, "given"):
        raise unknown_option(word)
    action, option, value = namespace.given
    if not word.startswith("--") and len(word) > 2:
        # Short options are never bundled (-iq), and one's value is all
        # that follows it: -p=hot is '=hot', where argparse drops the '='.
        if not action.takes_value:
            raise unknown_option(word)
        value = word[2:]
    return action, option, value


def split_options(argv):
    """The options as (name, option as argparse names it, value), and the
    command after them. Parsing stops at "--" or at the first word that is
    not an option, so the command's own options are never taken for
    ours."""
    given = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        action, option, value = parse_option(arg)
        if action.takes_value and value is None:
            if i + 1 >= len(argv):
                raise UsageError("option '%s' needs a value" % option)
            i += 1
            value = argv[i]
        elif not action.takes_value and value is not None:
            raise UsageError("option '%s' takes no value" % option)
        if action.takes_value and action.dest not in REPEATABLE and \
                any(g[0] == action.dest for g in given):
            raise UsageError("option '%s' given twice" % option)
        given.append((action.dest, option, value))
        i += 1
    return given, argv[i:]


def whole_number(text, what, low, high):
    if not re.fullmatch("[0-9]+", text) or not low <= int(text) <= high:
        raise UsageError("invalid %s '%s': expected a whole number from "
                         "%d to %d" % (what, text, low, high))
    return int(text)


def positive_number(text, what, allow_zero):
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not math.isfinite(value) or value < 0 or (value == 0
                                                 and not allow_zero):
        raise UsageError("invalid %s '%s': expected a %s number" %
                         (what, text, "non-negative" if allow_zero
                          else "positive"))
    return value


def shell_command(text, what):
    if not text.strip():
        raise UsageError("empty %s command" % what)
    return text


def same_file(a, b):
    """Whether two paths name the same file as a report writes it: the
    same final component in the same directory (a link is replaced, not
    followed)."""
    def where(p):
        return os.path.join(os.path.realpath(os.path.dirname(p) or "."),
                            os.path.basename(p))
    return where(a) == where(b)


def sequential_options(o, values):
    """--sequential and its budget: rounds until every placement is
    decided against --fail-if-slower's margin, at most --max-rounds (and
    --max-time seconds)."""
    o.sequential = "sequential" in values
    budget = [opt for name, opt in (("max_rounds", "--max-rounds"),
                                    ("max_time", "--max-time"))
              if name in values]
    if not o.sequential:
        if budget:
            raise UsageError("%s is the budget of --sequential" % budget[0])
        return
    if o.fail_if_slower is None:
        raise UsageError("--sequential needs --fail-if-slower <pct>: the "
                         "margin it decides each placement against")
    if "runs" in values:
        raise UsageError("--sequential chooses the number of rounds: give "
                         "it a budget with --max-rounds, not -n")
    o.runs = SEQUENTIAL_ROUNDS
    if "max_rounds" in values:
        o.runs = whole_number(values["max_rounds"], "number of rounds", 6,
                              MAX_RUNS)
    if "max_time" in values:
        o.max_time = positive_number(values["max_time"], "time budget",
                                     False)


def parse_args(argv):
    """Everything checked before anything runs: an Options."""
    given, command = split_options(argv)
    o = Options(command=command)
    values = {}
    # A record's placements are its names, not pinrun's words to check.
    live = not any(name == "from_file" for name, _, _ in given)
    for name, _, value in given:
        if name == "placement":
            p = parse_placement(value, live)
            if any(q.label == p.label for q in o.placements):
                raise UsageError("placement '%s' given twice" % p.label)
            o.placements.append(p)
        else:
            values[name] = value
    o.help, o.version = "help" in values, "version" in values
    if o.help or o.version:
        return o
    o.from_files = [v for name, _, v in given if name == "from_file"]
    o.from_file = o.from_files[0] if o.from_files else None
    if o.from_file is not None:
        for name, arg, _ in given:
            if name in RUN_ONLY:
                raise UsageError("%s cannot be used with --from: the runs "
                                 "are recorded" % arg)
        if command:
            raise UsageError("--from re-analyses recorded runs: no command "
                             "may be given")
        for k, path in enumerate(o.from_files):
            if not path:
                raise UsageError("empty file name for --from")
            if any(same_file(path, p) for p in o.from_files[:k]):
                raise UsageError("--from names the file '%s' twice" % path)
    elif not command:
        raise UsageError("no command given (or --from FILE to re-analyse "
                         "recorded runs)")
    if "runs" in values:
        if not re.fullmatch("[0-9]+", values["runs"]) and \
                ("runs", "-n", values["runs"]) in given:
            raise UsageError("invalid number of runs '%s': expected a whole "
                             "number; hyperfine's -n is --command-name, and "
                             "each placement is named by its -p value here"
                             % values["runs"])
        o.runs = whole_number(values["runs"], "number of runs", 1, MAX_RUNS)
    if "warmup" in values:
        o.warmup = whole_number(values["warmup"], "number of warm-up "
                                "rounds", 0, MAX_RUNS)
    if "format" in values:
        if values["format"] not in FORMATS:
            raise UsageError("invalid format '%s': expected table, "
                             "markdown, csv or json" % values["format"])
        o.format = values["format"]
    if "fail_if_slower" in values:
        o.fail_if_slower = positive_number(values["fail_if_slower"],
                                           "percentage", True)
    if "timeout" in values:
        o.timeout = positive_number(values["timeout"], "timeout", False)
    sequential_options(o, values)
    for name in ("metric", "prepare", "cleanup"):
        if name in values:
            setattr(o, name, shell_command(values[name], name))
    if "higher" in values:
        if o.metric is None:
            raise UsageError("--higher-is-better needs --metric: wall time "
                             "is never better higher")
        o.higher = True
    o.ignore_status = "ignore_status" in values
    o.wide = "wide" in values
    o.quiet = "quiet" in values
    named = []
    for name, opt in OUTPUT_OPTIONS:
        if name not in values:
            continue
        if not values[name]:
            raise UsageError("empty file name for %s" % opt)
        for other, path in named:
            if same_file(path, values[name]):
                raise UsageError("%s and %s name the same file '%s'" %
                                 (other, opt, values[name]))
        if any(same_file(p, values[name]) for p in o.from_files):
            raise UsageError("--from and %s name the same file '%s'" %
                             (opt, values[name]))
        named.append((opt, values[name]))
        setattr(o, name, values[name])
    if "baseline" in values:
        o.baseline = parse_placement(values["baseline"], False).label
    return o



def main(argv):
    o = parse_args(argv)
    if o.help:
        write_stdout(PARSER.format_help())
        return EXIT_OK
    if o.version:
        write_stdout("%s %s\n" % (PROG, version()))
        return EXIT_OK
    if o.from_file is not None:
        return recorded(o)
    return live(o)


# The same signal again within this many seconds is the same request:
# timeout(1) signals its command, then its own process group, which
# holds the command too; a closing terminal may do likewise.
REPEAT_S = 2.0


def on_signal(signum, _frame):
    """While runs are made, the first signal stops them (the one in
    progress is killed) and the report is made of the runs so far; the
    same signal again at once changes nothing; any other signal, or the
    same one later (a second Ctrl-C), ends pinrun-compare now."""
    if Stop.measuring and Stop.signum is None:
        Stop.signum = signum
        Stop.when = time.monotonic()
        for child in list(Child.live):
            child.signal(signal.SIGKILL)
        return
    if Stop.signum == signum and time.monotonic() - Stop.when < REPEAT_S:
        return
    raise KeyboardInterrupt(signum)


def entry(argv=None):
    """The program: its status, whatever happens; a traceback never."""
    # A handler, not an inherited SIG_IGN (a background job's): the
    # commands then start with SIGINT at its default, so that stopping a
    # command after its metric works.
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    # Started with SIGCHLD ignored, the kernel would reap the commands
    # before wait4 could: their status and resource usage lost. The
    # commands then start with SIGCHLD at its default.
    if signal.getsignal(signal.SIGCHLD) == signal.SIG_IGN:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    if signal.getsignal(signal.SIGHUP) != signal.SIG_IGN:  # nohup
        signal.signal(signal.SIGHUP, on_signal)
    try:
        status = main(sys.argv[1:] if argv is None else argv)
    except CompareError as err:
        sys.stderr.write("%s: %s\n" % (PROG, err))
        if isinstance(err, UsageError):
            sys.stderr.write("Try '%s --help' for more information.\n" %
                             PROG)
        status = err.status
    except KeyboardInterrupt as err:
        for child in list(Child.live):
            child.signal(signal.SIGKILL)
        sys.stderr.write("%s: interrupted\n" % PROG)
        status = 128 + (err.args[0] if err.args else signal.SIGINT)
    except Exception as err:  # pylint: disable=broad-except
        for child in list(Child.live):
            child.signal(signal.SIGKILL)
        status = internal_error(err)
    return status


def internal_error(err):
    """A bug: one line that says so, where, and the status of its own."""
    tb = traceback.extract_tb(err.__traceback__)
    where = ""
    if tb:
        last = tb[-1]
        where = " at %s:%d" % (os.path.basename(last.filename), last.lineno)
    try:
        sys.stderr.write("%s: internal error%s: %s: %s (please report "
                         "it)\n" % (PROG, where, type(err).__name__,
                                    escape(str(err), 200)))
    except OSError:
        pass
    return EXIT_INTERNAL
