import math
from bisect import insort
import os
import shutil
import sys
import time

from .placement import parse_placement
from .common import OUTPUT_OPTIONS, DEFAULT_PLACEMENTS, EXIT_FAILED_RUNS, EXIT_OK, EXIT_SLOWER, EXIT_UNDECIDED, FIRST_RUNS, OutputError, PROG, UsageError
from .paths import AtomicFile, write_stdout
from .plot import plot_svg
from .record import FileRecord, LiveRecord, Run, fail_reason
from .report import Meta, gate_lines, report_csv, report_json, report_markdown, report_table, undecided_lines
from .runner import Stop, check_command, check_placement, cpu_list, find_pinrun, machine_line, one_run, signal_name
from .stats import Tally, median, summarize


# --- progress ----------------------------------------------------------------

def clock(s):
    s = int(s)
    if s >= 3600:
        return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)
    return "%d:%02d" % (s // 60, s % 60)


class Progress:
    """On standard error: to a terminal, one line kept up to date, run by
    run; otherwise (a CI log) one line per round. Both give the round,
    the time elapsed and left, and the running ratios to the baseline:
    the median of the per-round ratios so far."""

    def __init__(self, o, labels, baseline, tally):
        self.on = not o.quiet
        self.tty = self.on and sys.stderr.isatty()
        self.warmup, self.rounds = o.warmup, o.warmup + o.runs
        self.labels, self.baseline, self.tally = labels, baseline, tally
        self.total = self.rounds * len(labels)
        self.start = time.perf_counter()
        self.ratios = {label: [] for label in labels if label != baseline}
        self.done = 0

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
        cols = shutil.get_terminal_size((80, 24)).columns
        self.say("\r\033[K" + line[:max(10, cols - 1)])

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
            self.say("%s: round %d of %d%s, %s%s\n" % (
                PROG, k, self.rounds, self.phase(k), self.times(),
                self.running()))

    def close(self):
        if self.tty:
            self.say("\r\033[K")


# --- the two ways in: a live comparison and a recorded one -------------------

def measure(o, placements, pinrun, record, tally, progress, host):
    """The runs, interleaved: warm-up rounds, then measured rounds, each
    round every placement once, in the order given. Returns why it ended
    early (a sentence), or None."""
    plan = [("warmup", r) for r in range(1, o.warmup + 1)]
    plan += [("measure", r) for r in range(1, o.runs + 1)]
    seq = 0
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
                    and s.attempts_failed == FIRST_RUNS):
                reasons = list(s.failures) or [run.note or
                                               fail_reason(run.exit)]
                return ("the first %d run%s of '%s' failed: %s (-i counts "
                        "runs whatever their exit status)" %
                        (s.attempts, "s"[:s.attempts > 1], p.label,
                         "; ".join(reasons[:3])))
        progress.round_done(k)
    return None


def live(o):
    """Run the comparison: check everything, measure, report."""
    if not o.placements:
        o.placements = [parse_placement(p) for p in DEFAULT_PLACEMENTS]
    labels = [p.label for p in o.placements]
    baseline = o.baseline if o.baseline is not None else labels[0]
    if baseline not in labels:
        raise UsageError("baseline '%s' is not one of the placements: %s" %
                         (baseline, ", ".join(labels)))
    outputs = open_outputs(o)
    check_command(o.command[0])
    pinrun = None
    if any(p.words is not None for p in o.placements):
        pinrun = find_pinrun()
    for p in o.placements:
        if p.words is None:
            p.cpus = cpu_list(os.sched_getaffinity(0))
        else:
            check_placement(pinrun, p)
    host = machine_line()
    record = LiveRecord(o.export_csv)
    tally = Tally(labels)
    progress = Progress(o, labels, baseline, tally)
    meta = Meta(o.command, o.metric, o.prepare, o.cleanup, o.better, None,
                o.runs, o.warmup, baseline, host, o.fail_if_slower,
                {p.label: p.words for p in o.placements}, plot=o.plot,
                runs_planned=(o.runs + o.warmup) * len(labels))
    error = None
    Stop.measuring = True
    try:
        meta.stopped = measure(o, o.placements, pinrun, record, tally,
                               progress, host)
    except OutputError as e:
        error = e
        meta.stopped = str(e)
    finally:
        Stop.measuring = False
        progress.close()
    if Stop.signum is not None:
        meta.interrupted = signal_name(Stop.signum)
    meta.runs_made = record.count
    record.close()
    try:
        status = report(o, meta, labels, tally, record, outputs)
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
    if error is not None:
        raise error
    return status


def recorded(o):
    """Analyse a --from record: the same reports, nothing run."""
    outputs = open_outputs(o)
    record = FileRecord(o.from_file)
    tally = Tally()
    for line, run in record.read():
        tally.add(run, (o.from_file, line))
    labels = list(tally.order)
    if o.placements:
        for p in o.placements:
            if p.label not in tally.series:
                raise UsageError("placement '%s' is not in %s: it has %s" %
                                 (p.label, o.from_file, ", ".join(labels)))
        labels = [p.label for p in o.placements]
    baseline = o.baseline if o.baseline is not None else labels[0]
    if baseline not in labels:
        raise UsageError("baseline '%s' is not one of the placements: %s" %
                         (baseline, ", ".join(labels)))
    runs = max([tally.series[label].ok + tally.series[label].failed
                for label in labels] or [0])
    meta = Meta(None, None, None, None, tally.better, o.from_file, runs,
                len(tally.warmup_rounds), baseline, tally.host(),
                o.fail_if_slower,
                {label: parse_placement(label).words for label in labels},
                plot=o.plot)
    return report(o, meta, labels, tally, record, outputs)


def open_outputs(o):
    """Every report file, checked before the first run, so that a typo
    does not throw the runs away. A live run's --export-csv is its
    record, written as it goes; any other file is written at the end."""
    return {name: AtomicFile(getattr(o, name))
            for name, _ in OUTPUT_OPTIONS
            if getattr(o, name) is not None
            and (name != "export_csv" or o.from_file is not None)}


def report(o, meta, labels, tally, record, outputs):
    """Write every report; the exit status the rows give."""
    rows = summarize(tally, labels, meta.baseline, meta.better,
                     o.fail_if_slower)
    out_dir = None
    if o.output is not None:
        out_dir = os.path.dirname(os.path.abspath(o.output))
    render = {
        "table": lambda d: report_table(rows, tally, meta),
        "markdown": lambda d: report_markdown(rows, tally, meta, d),
        "csv": lambda d: report_csv(record),
        "json": lambda d: report_json(rows, record, meta),
    }
    if "export_csv" in outputs:
        outputs["export_csv"].write(report_csv(record))
    if "output" in outputs:
        outputs["output"].write(render[o.format](out_dir))
    if "export_json" in outputs:
        outputs["export_json"].write(render["json"](None))
    if "export_markdown" in outputs:
        md_dir = os.path.dirname(os.path.abspath(o.export_markdown))
        outputs["export_markdown"].write(render["markdown"](md_dir))
    if "plot" in outputs:
        outputs["plot"].write(plot_svg(rows, tally, meta))
    if o.output is not None and o.format == "table":
        text = ""  # the table is in the file
    else:
        text = render[o.format if o.output is None else "table"](None)
    if isinstance(text, str):
        write_stdout(text)
    else:
        buf = []
        for chunk in text:
            buf.append(chunk)
            if len(buf) >= 1000:
                write_stdout("".join(buf))
                buf = []
        write_stdout("".join(buf))
    for line in gate_lines(rows, meta) + undecided_lines(rows, meta):
        sys.stderr.write("%s: %s\n" % (PROG, line))
    if any(r.gate for r in rows):
        return EXIT_SLOWER
    if meta.stopped or any(tally.series[label].attempts_failed
                           for label in labels):
        return EXIT_FAILED_RUNS
    if any(r.undecided for r in rows):
        return EXIT_UNDECIDED
    return EXIT_OK
