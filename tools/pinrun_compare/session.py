# SPDX-License-Identifier: BSD-3-Clause
import math
from bisect import insort
import os
import shlex
import shutil
import sys
import tempfile
import textwrap
import time

from .placement import AUTO, AUTO_CANDIDATES, parse_placement
from .common import (DEFAULT_PLACEMENTS, EXIT_FAILED_RUNS, EXIT_OK,
                     EXIT_OUTPUT, EXIT_SLOWER, EXIT_UNDECIDED, FIRST_RUNS,
                     OUTPUT_OPTIONS, OutputError, PROG, UsageError, version)
from .paths import AtomicFile, escape, write_stdout
from .plot import plot_svg
from .counters import Counters
from .record import LiveRecord, Records, Run, fail_reason
from .report import (Meta, gate_lines, report_csv, report_json,
                     report_markdown, report_table, time_unit, undecided_lines)
from .runner import (Stop, check_command, check_placement,
                     check_shell_command, conditions_line, cpu_list,
                     find_pinrun, fingerprint, fingerprint_changes,
                     machine_line, one_run, signal_name)
from .stats import (NO_SLOWER, SLOWER, Tally, look_confidence,
                    look_rounds, median, summarize)


# --- progress ----------------------------------------------------------------

def clock(s):
    s = int(s)
    if s >= 3600:
        return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)
    return "%d:%02d" % (s // 60, s % 60)


def rows(text, width):
    """text as rows of at most width columns: whole if it fits, else each
    of its "; "-separated parts from a row of its own, wrapped at spaces (a
    word wider stands alone), every row after the first indented under
    the text after "pinrun-compare: ", as pinrun's own messages wrap.
    Joined with spaces, the rows give text back."""
    if len(text) <= width:
        return [text]
    indent = " " * len(PROG + ": ")
    parts = text.split("; ")
    out = []
    for i, part in enumerate(parts):
        out += textwrap.wrap(part + (";" if i < len(parts) - 1 else ""),
                             width, initial_indent=indent if out else "",
                             subsequent_indent=indent,
                             break_long_words=False, break_on_hyphens=False)
    return out


class Progress:
    """On standard error: to a terminal, one line kept up to date, run by
    run, wrapped at its width; otherwise (a CI log) one line per round,
    wrapped at 80 columns. Both give the round, the time elapsed and left,
    and the running ratios to the baseline: the median of the per-round
    ratios so far."""

    def __init__(self, o, labels, baseline, tally):
        self.on = not o.quiet
        self.tty = self.on and sys.stderr.isatty()
        self.warmup, self.rounds = o.warmup, o.warmup + o.runs
        self.labels, self.baseline, self.tally = labels, baseline, tally
        self.total = self.rounds * len(labels)
        self.start = time.perf_counter()
        self.ratios = {label: [] for label in labels if label != baseline}
        self.done = 0
        self.rows = 1  # the terminal rows of the line last written

    def phase(self, k):
        return " (warm-up)" if k <= self.warmup else ""

    def times(self):
        elapsed = time.perf_counter() - self.start
        text = "%s elapsed" % clock(elapsed)
        if self.done:
            left = elapsed / self.done * (self.total - self.done)
            text += ", about %s left" % clock(left)
        return text

    def running(self):
        parts = []
        for label, rs in self.ratios.items():
            m = median(rs)
            parts.append("%s %s" % (label, "-" if m is None else "%.3f" % m))
        text = "; ratio to %s: %s" % (self.baseline, ", ".join(parts)) \
            if parts else ""
        failed = ["%s %d" % (s.label, s.attempts_failed)
                  for s in (self.tally.series[lb] for lb in self.labels)
                  if s.attempts_failed]
        if failed:
            text += "; failed: " + ", ".join(failed)
        return text

    def say(self, text):
        try:
            sys.stderr.write(text)
            sys.stderr.flush()
        except OSError:
            self.on = self.tty = False

    def starting(self, k, i, label):
        if not self.tty:
            return
        line = "%s: round %d of %d%s, %s (%d of %d), %s%s" % (
            PROG, k, self.rounds, self.phase(k), label, i, len(self.labels),
            self.times(), self.running())
        # Whole, however long: wider than the terminal, it wraps at spaces
        # (short of the last column, where a terminal would wrap by
        # itself), and the next one clears every row of it first.
        cols = max(40, shutil.get_terminal_size((80, 24)).columns)
        wrapped = rows(escape(line), cols - 1)
        self.say(self.clear() + "\n".join(wrapped))
        self.rows = len(wrapped)

    def ran(self):
        self.done += 1

    def round_done(self, k):
        if k > self.warmup:
            rnd = k - self.warmup
            base = self.tally.series[self.baseline].figure(rnd)
            for label, rs in self.ratios.items():
                v = self.tally.series[label].figure(rnd)
                if not (math.isnan(v) or math.isnan(base)):
                    insort(rs, v / base)
        if self.on and not self.tty:
            self.say("\n".join(rows("%s: round %d of %d%s, %s%s" % (
                PROG, k, self.rounds, self.phase(k), self.times(),
                self.running()), 80)) + "\n")

    def clear(self):
        """Back to the start of the line before, every row of it erased."""
        return "\r\033[K" + "\033[1A\033[K" * (self.rows - 1)

    def close(self):
        if self.tty:
            self.say(self.clear())


# --- the two ways in: a live comparison and a recorded one -------------------

def decided(o, tally, meta, rnd, start):
    """Whether a sequential comparison ends after measured round rnd: at a
    planned look where every placement is decided, or when the time
    budget is spent (that look takes the place of the next planned one,
    so the looks are never more than planned)."""
    over = o.max_time is not None and \
        time.perf_counter() - start >= o.max_time
    if rnd not in meta.looks and not over:
        return False
    meta.looked += 1
    rows = summarize(tally, meta.labels, meta.baseline, meta.better,
                     o.fail_if_slower, meta.confidence)
    if all(r.decision in (NO_SLOWER, SLOWER) and r.censor is None
           for r in rows if r.label != meta.baseline):
        meta.decided_at = rnd
        return True
    if over:
        meta.budget_spent = ("the time budget of %gs was spent after %d "
                             "round%s" % (o.max_time, rnd, "s"[:rnd != 1]))
        return True
    return False


def measure(o, placements, pinrun, record, tally, progress, host,
            meta=None):
    """The runs, interleaved: warm-up rounds, then measured rounds, each
    round every placement once, in the order given; with --sequential,
    only until every placement is decided. Returns why it ended early (a
    sentence), or None."""
    plan = [("warmup", r) for r in range(1, o.warmup + 1)]
    plan += [("measure", r) for r in range(1, o.runs + 1)]
    seq = 0
    start = time.perf_counter()
    for k, (phase, rnd) in enumerate(plan, start=1):
        for i, p in enumerate(placements, start=1):
            if Stop.signum is not None:
                return None
            seq += 1
            progress.starting(k, i, p.label)
            run = Run(seq, rnd, phase, p.label, cpus=p.cpus or "",
                      better=o.better, host=host)
            if one_run(o, p, pinrun, run) is None:
                return None
            record.add(run)
            tally.add(run)
            progress.ran()
            s = tally.series[p.label]
            if (not o.ignore_status and len(plan) > FIRST_RUNS
                    and s.attempts == FIRST_RUNS
                    and s.attempts_failed - timeouts_counted(o, s)
                    == FIRST_RUNS):
                reasons = list(s.failures) or [run.note or
                                               fail_reason(run.exit)]
                return ("the first %d run%s of '%s' failed: %s (-i counts "
                        "runs whatever their exit status)" %
                        (s.attempts, "s"[:s.attempts > 1], p.label,
                         "; ".join(reasons[:3])))
        progress.round_done(k)
        if o.sequential and phase == "measure" and \
                decided(o, tally, meta, rnd, start):
            return None
    return None


def live(o):
    """Run the comparison: check everything, measure, report."""
    if not o.placements:
        o.placements = [parse_placement(p) for p in DEFAULT_PLACEMENTS]
    outputs = open_outputs(o)
    check_command(o.command[0], tuple(o.command[1:]))
    for kind in ("metric", "prepare", "cleanup"):
        if getattr(o, kind) is not None:
            check_shell_command(kind, getattr(o, kind))
    pinrun = None
    if any(p.words is not None for p in o.placements):
        pinrun = find_pinrun()
    for p in o.placements:
        if p.words is None:
            p.cpus = cpu_list(os.sched_getaffinity(0))
        elif p.words != AUTO:
            check_placement(pinrun, p)
    o.placements = distinct(o.placements, pinrun)
    labels = [p.label for p in o.placements]
    baseline = o.baseline if o.baseline is not None else labels[0]
    if baseline not in labels:
        raise UsageError("baseline '%s' is not one of the placements: %s" %
                         (baseline, ", ".join(labels)))
    host = machine_line()
    record = LiveRecord(o.export_csv, {
        "version": version(), "command": o.command, "metric": o.metric,
        "prepare": o.prepare, "cleanup": o.cleanup,
        "unit": "s" if o.metric is None else None, "better": o.better,
        "runs": o.runs, "warmup": o.warmup, "baseline": baseline,
        "sequential": {"looks": look_rounds(o.runs),
                       "max_time": o.max_time} if o.sequential else None,
        "timeout": o.timeout, "host": host,
        "placements": {p.label: p.words for p in o.placements},
        "cpus": {p.label: p.cpus for p in o.placements},
        "fingerprint": fingerprint(o.placements)})
    tally = Tally(labels)
    progress = Progress(o, labels, baseline, tally)
    meta = Meta(o.command, o.metric, o.prepare, o.cleanup, o.better, None,
                o.runs, o.warmup, baseline, host, o.fail_if_slower,
                {p.label: p.words for p in o.placements}, plot=o.plot,
                runs_planned=(o.runs + o.warmup) * len(labels),
                conditions=conditions_line(record.info["fingerprint"]))
    meta.labels = labels
    if o.sequential:
        meta.looks = look_rounds(o.runs)
        meta.confidence = look_confidence(meta.looks)
    error = None
    Stop.measuring = True
    try:
        meta.stopped = measure(o, o.placements, pinrun, record, tally,
                               progress, host, meta)
    except OutputError as e:
        error = e
        meta.stopped = str(e)
    finally:
        Stop.measuring = False
        progress.close()
    if Stop.signum is not None:
        meta.interrupted = signal_name(Stop.signum)
    meta.runs_made = record.count
    if o.sequential:
        meta.runs = tally.rounds()
    try:
        end = {"interrupted": meta.interrupted, "stopped": meta.stopped,
               "decided_at": meta.decided_at,
               "budget_spent": meta.budget_spent,
               "runs_made": meta.runs_made,
               "runs_planned": meta.runs_planned,
               "fingerprint": fingerprint(o.placements),
               "uncounted": Counters.refused}
        meta.uncounted = Counters.refused
        meta.changed = fingerprint_changes(record.info["fingerprint"],
                                           end["fingerprint"])
        record.close(end)
    except OutputError as e:
        error = error or e
    try:
        status = report(o, meta, labels, tally, record, outputs, error)
    except OutputError as e:
        if not meta.interrupted:
            raise
        # Ctrl-C also ended the pipe's reader (| tee): still 130.
        sys.stderr.write("%s: %s\n" % (PROG, e))
        status = None
    if meta.stopped and error is None:
        sys.stderr.write("%s: stopped: %s\n" % (PROG, meta.stopped))
    if meta.interrupted:
        sys.stderr.write("%s: interrupted by %s after %d of %d runs: the "
                         "report is of those\n" % (PROG, meta.interrupted,
                                                   meta.runs_made,
                                                   meta.runs_planned))
        return 128 + Stop.signum
    return status


def distinct(placements, pinrun):
    """-p auto made every placement this machine offers (AUTO_CANDIDATES
    that pinrun accepts here), those that are the same CPUs as one before
    them left out; the other placements as given."""
    out, seen = [], set()
    for p in placements:
        if p.words != AUTO:
            out.append(p)
            seen.add(p.cpus)
            continue
        for name in AUTO_CANDIDATES:
            q = parse_placement(name)
            if q.label in (r.label for r in out):
                continue
            if q.words is None:
                q.cpus = cpu_list(os.sched_getaffinity(0))
            else:
                try:
                    check_placement(pinrun, q)
                except UsageError:
                    continue  # not on this machine
            if q.cpus is not None and q.cpus in seen:
                continue
            seen.add(q.cpus)
            out.append(q)
    return out


def recorded(o):
    """Analyse a --from record: the same reports, nothing run."""
    outputs = open_outputs(o)
    record = Records(o.from_files)
    tally = Tally()
    for where, run in record.read():
        tally.add(run, where)
    labels = list(tally.order)
    if o.placements:
        for p in o.placements:
            if p.label not in tally.series:
                raise UsageError("placement '%s' is not in %s: it has %s" %
                                 (p.label, record.path, ", ".join(labels)))
        labels = [p.label for p in o.placements]
    baseline = o.baseline if o.baseline is not None else labels[0]
    if baseline not in labels:
        raise UsageError("baseline '%s' is not one of the placements: %s" %
                         (baseline, ", ".join(labels)))
    runs = max([tally.series[label].ok + tally.series[label].failed
                for label in labels] or [0])
    info = record.info
    words = info.get("placements")
    if not isinstance(words, dict):
        words = {}
    meta = Meta(text_list(info.get("command")), text(info.get("metric")),
                text(info.get("prepare")), text(info.get("cleanup")),
                tally.better, record.path, runs,
                len(tally.warmup_rounds), baseline, tally.host(),
                o.fail_if_slower,
                {label: words[label] if label in words else
                 parse_placement(label, False).words for label in labels},
                plot=o.plot, conditions=conditions_line(
                    info.get("fingerprint")))
    meta.differ = record.differ()
    seq = info.get("sequential")
    if isinstance(seq, dict) and isinstance(seq.get("looks"), list) and \
            seq["looks"] and all(isinstance(n, int) and not
                                 isinstance(n, bool) and n > 0
                                 for n in seq["looks"]):
        # The record's looks: its intervals at the confidence they had.
        meta.looks = seq["looks"]
        meta.confidence = look_confidence(meta.looks)
    if info.get("unit") == "s" and meta.metric is None:
        meta.unit = "s"  # made a unit by report()
    end = info.get("end")
    if isinstance(end, dict):
        meta.changed = fingerprint_changes(info.get("fingerprint"),
                                           end.get("fingerprint"))
        meta.uncounted = text(end.get("uncounted"))
        meta.interrupted = text(end.get("interrupted"))
        meta.stopped = text(end.get("stopped"))
        meta.budget_spent = text(end.get("budget_spent"))
        if isinstance(end.get("decided_at"), int):
            meta.decided_at = end["decided_at"]
        meta.runs_made = record.count
        if isinstance(end.get("runs_planned"), int):
            meta.runs_planned = end["runs_planned"]
    elif info:
        meta.cut = True
    return report(o, meta, labels, tally, record, outputs)


def text(value):
    """A string of a record's context, or None."""
    return value if isinstance(value, str) else None


def text_list(value):
    if isinstance(value, list) and value and \
            all(isinstance(v, str) for v in value):
        return value
    return None


def open_outputs(o):
    """Every report file, checked before the first run, so that a typo
    does not throw the runs away. A live run's --export-csv is its
    record, written as it goes; any other file is written at the end."""
    return {name: AtomicFile(getattr(o, name))
            for name, _ in OUTPUT_OPTIONS
            if getattr(o, name) is not None
            and (name != "export_csv" or o.from_file is not None)}


def report(o, meta, labels, tally, record, outputs, lost=None):
    """Write every report; the exit status the rows give. A file that
    cannot be written loses nothing: the others are still written, the
    table still goes to standard output, and the runs of a live
    comparison are kept in a file the message names (lost: an error of
    the record already met while the runs were made)."""
    rows = summarize(tally, labels, meta.baseline, meta.better,
                     o.fail_if_slower, meta.confidence)
    if meta.metric is None and (meta.from_file is None or meta.unit):
        meta.unit = time_unit(rows)
    out_dir = None
    if o.output is not None:
        out_dir = os.path.dirname(os.path.abspath(o.output))
    render = {
        "table": lambda d: report_table(rows, tally, meta, o.wide),
        "markdown": lambda d: report_markdown(rows, tally, meta, d),
        "csv": lambda d: report_csv(record),
        "json": lambda d: report_json(rows, record, meta),
    }
    errors = [] if lost is None else [lost]

    def write(name, make):
        if name not in outputs:
            return False
        try:
            outputs[name].write(make())
            return True
        except OutputError as e:
            errors.append(e)
            return False
    write("export_csv", lambda: report_csv(record))
    in_file = write("output", lambda: render[o.format](out_dir))
    write("export_json", lambda: render["json"](None))
    write("export_markdown", lambda: render["markdown"](
        os.path.dirname(os.path.abspath(o.export_markdown))))
    write("plot", lambda: plot_svg(rows, tally, meta))
    if in_file and o.format == "table":
        text = ""  # the table is in the file
    elif o.output is not None:
        text = render["table"](None)
    else:
        text = render[o.format](None)
    try:
        write_chunks(text)
    except OutputError as e:
        errors.append(e)
    for line in gate_lines(rows, meta) + undecided_lines(rows, meta):
        sys.stderr.write("%s: %s\n" % (PROG, line))
    if errors:
        keep = keep_record(o, record, meta, lost)
        for e in errors:
            sys.stderr.write("%s: %s%s\n" % (PROG, e, keep))
        return EXIT_OUTPUT
    if any(r.gate for r in rows):
        return EXIT_SLOWER
    if meta.stopped or any(failed_runs(tally, label) for label in labels):
        return EXIT_FAILED_RUNS
    if any(r.undecided for r in rows):
        return EXIT_UNDECIDED
    return EXIT_OK


def write_chunks(text):
    """Text or an iterable of it to standard output, 1000 pieces at a
    time."""
    if isinstance(text, str):
        write_stdout(text)
        return
    buf = []
    for chunk in text:
        buf.append(chunk)
        if len(buf) >= 1000:
            write_stdout("".join(buf))
            buf = []
    write_stdout("".join(buf))


def keep_record(o, record, meta, lost):
    """Where the runs are, for the message of a file not written: the
    --from file, the --export-csv file when it was written whole, else a
    new file in $TMPDIR (or the current directory)."""
    if meta.from_file is not None:
        return ""
    if o.export_csv is not None and lost is None:
        return "; the runs are in '%s'" % o.export_csv
    for where in (tempfile.gettempdir(), "."):
        try:
            fd, path = tempfile.mkstemp(prefix="pinrun-compare-",
                                        suffix=".csv", dir=where)
            with open(fd, "w", encoding="utf-8", newline="") as f:
                for chunk in report_csv(record):
                    f.write(chunk)
        except OSError:
            continue
        return ("; the runs are kept in '%s' (pinrun-compare --from %s)" %
                (path, shlex.quote(path)))
    return "; the runs could not be kept anywhere"


def failed_runs(tally, label):
    """Runs that failed, not counting those the timeout killed where
    they count as at least the timeout (wall time)."""
    s = tally.series[label]
    if tally.wall_figures:
        return s.attempts_failed - s.attempts_timed_out
    return s.attempts_failed


def timeouts_counted(o, s):
    """A wall time the timeout cut short is still a figure (at least the
    timeout), so a placement that always times out is slow, not broken."""
    return s.attempts_timed_out if o.metric is None else 0
