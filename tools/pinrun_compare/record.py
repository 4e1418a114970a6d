# SPDX-License-Identifier: BSD-3-Clause
import csv
import io
import json
import math
import os
import re
import tempfile
from dataclasses import dataclass

from .paths import AtomicFile, escape
from .common import (CSV_FIELDS, MAX_RUNS, NEEDED_COLUMNS, OutputError,
                     RecordError)


# --- one run -----------------------------------------------------------------

@dataclass(slots=True)
class Run:
    """One run of the command under one placement: a line of the record."""
    seq: int | None
    round: int
    phase: str
    placement: str
    cpus: str = ""
    status: str = "ok"
    exit: str = ""
    wall_s: float | None = None
    user_s: float | None = None
    sys_s: float | None = None
    maxrss_kb: int | None = None
    figure: float | None = None
    better: str = "lower"
    host: str = ""
    # The kernel's accounting of the command's tree (wait4's rusage):
    # voluntary and involuntary context switches, minor and major faults.
    vcsw: int | None = None
    ivcsw: int | None = None
    minflt: int | None = None
    majflt: int | None = None
    # perf_event_open's count of CPU migrations (counters.py), where the
    # kernel allows it.
    migrations: int | None = None
    note: str = ""

    def fail(self, note, exit_text=None):
        self.status, self.figure, self.note = "failed", None, note
        if exit_text is not None:
            self.exit = exit_text


GNU_TIME = "/usr/bin/time"
RUSAGE_MARK = "pinrun-compare-rusage"

def fail_reason(exit_column):
    if re.fullmatch("[0-9]+", exit_column):
        return "exit " + exit_column
    return exit_column or "failed"


# A figure: a plain decimal number, ASCII digits, an optional exponent.
# float() would also take 1_000, other scripts' digits, inf and nan.
FIGURE = re.compile(r"\+?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]{1,4})?",
                    re.ASCII)


def parse_figure(text):
    """A positive, finite, plain decimal number, or None."""
    text = text.strip()
    if len(text) > 64 or not FIGURE.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) and value > 0 else None


# --- the record --------------------------------------------------------------

def csv_value(name, value):
    if value is None:
        return ""
    if name in ("wall_s", "user_s", "sys_s"):
        return "%.6f" % value
    if name == "figure":
        return "%.10g" % value
    return str(value)


def csv_line(run, fields=CSV_FIELDS):
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(
        [csv_value(f, getattr(run, f)) for f in fields])
    return buf.getvalue()


CSV_HEADER = ",".join(CSV_FIELDS) + "\n"


# The record's context: comment lines before the CSV header ("# key:
# JSON value"), and one after the last run ("# end: {...}") that says
# how the comparison ended. A CSV reader that skips lines beginning with
# "#" reads the runs alone; records without them still read.
RECORD_MARK = "# pinrun-compare record"


def info_lines(info):
    """The comment lines of a record's context, a dict."""
    return "".join("# %s: %s\n" % (key, json.dumps(value, ensure_ascii=False))
                   for key, value in info.items())


class Commented:
    """A record's lines without its comment lines, which are kept in
    info (only "# key: JSON" ones: anything else is a comment); line is
    the number of the last line read."""

    def __init__(self, f, path="record"):
        self.f = f
        self.path = path
        self.info = {}
        self.line = 0
        self.fields = None  # the header's, that pinrun-compare knows

    def __iter__(self):
        for text in self.f:
            self.line += 1
            if text.startswith("#"):
                self.take(text)
                continue
            yield text

    def take(self, text):
        key, sep, value = text[1:].strip().partition(": ")
        if not sep or not key.isidentifier():
            return
        try:
            self.info[key] = json.loads(value)
        except ValueError:
            pass
        except RecursionError:
            # Nested deeper than Python's parser goes: no record's.
            raise RecordError(self.path, self.line, "'# %s:' line: its "
                              "value is nested too deeply" %
                              escape(key, 60)) from None


class LiveRecord:
    """The runs of a live comparison, one CSV line each as it ends: in a
    private temporary file that the reports read back (so that no run is
    held in memory), and in the --export-csv file, flushed line by line so
    that whatever stops pinrun-compare, the runs made are there."""

    def __init__(self, export_path, info=None):
        self.path = export_path
        self.count = 0
        self.info = dict(info or {})
        head = RECORD_MARK + "\n" + info_lines(self.info) + CSV_HEADER
        self.tmp = tempfile.TemporaryFile("w+", encoding="utf-8",
                                          newline="")
        self.tmp.write(CSV_HEADER)
        self.export = None
        if export_path is not None:
            self.export = AtomicFile(export_path).open_growing()
            self.write_export(head)

    def write_export(self, text):
        try:
            self.export.write(text)
            self.export.flush()
        except OSError as e:
            raise OutputError("write", self.path, e) from None

    def add(self, run):
        line = csv_line(run)
        self.tmp.write(line)
        self.count += 1
        if self.export is not None:
            self.write_export(line)

    def runs(self):
        self.tmp.flush()
        self.tmp.seek(0)
        for _, run in parse_record(self.tmp, "record"):
            yield run
        self.tmp.seek(0, os.SEEK_END)

    def close(self, end=None):
        """The last line, how it ended, then the file closed."""
        if end is not None:
            self.info["end"] = end
        if self.export is not None:
            try:
                if end is not None:
                    self.export.write(info_lines({"end": end}))
                self.export.close()
            except OSError as e:
                raise OutputError("write", self.path, e) from None


class FileRecord:
    """The runs of a --from file, read twice: once to analyse them, once
    more for a report that lists them (no more lines than the first time,
    should the file be growing)."""

    def __init__(self, path):
        self.path = path
        self.count = 0
        self.info = {}
        # Written back with its own columns (those pinrun-compare knows),
        # so that --format csv of an older record gives it again.
        self.fields = CSV_FIELDS

    def open(self):
        try:
            # utf-8-sig: a byte order mark, as a spreadsheet saves one,
            # is not part of the first column's name.
            return open(self.path, newline="", encoding="utf-8-sig")
        except OSError as e:
            raise OutputError("read", self.path, e) from None

    def read(self):
        """(line number, run) for every line, checked."""
        with self.open() as f:
            lines = Commented(f, self.path)
            try:
                for line, run in parse_record(lines, self.path):
                    self.count += 1
                    yield line, run
                self.info = lines.info
                self.fields = lines.fields or CSV_FIELDS
            except UnicodeDecodeError:
                raise RecordError(self.path, 0,
                                  "not a UTF-8 text file") from None
        if self.count == 0:
            raise RecordError(self.path, 0, "no runs recorded")

    def runs(self):
        with self.open() as f:
            for k, (_, run) in enumerate(parse_record(f, self.path)):
                if k >= self.count:
                    break
                yield run


def bad_value(path, line, what, value):
    return RecordError(path, line, "invalid %s '%s'" %
                       (what, escape(value, 60)))


def parse_record(f, path):
    """(line number, Run) for each line of a CSV record, checked."""
    if not isinstance(f, Commented):
        f = Commented(f, path)
    reader = csv.reader(f)
    try:
        header = next(reader, None)
    except csv.Error as e:
        raise RecordError(path, f.line, str(e)) from None
    header = header or []
    missing = [c for c in NEEDED_COLUMNS if c not in header]
    if missing:
        raise RecordError(path, 0, "not a pinrun-compare CSV: no column %s"
                          % ", ".join(missing))
    col = {name: header.index(name) for name in CSV_FIELDS if name in header}
    f.fields = [name for name in header if name in col]
    better = None
    while True:
        try:
            row = next(reader, None)
        except csv.Error as e:
            raise RecordError(path, f.line, str(e)) from None
        if row is None:
            return
        line = f.line
        if len(row) != len(header):
            raise RecordError(path, line, "wrong number of fields")

        def get(name, row=row):
            return row[col[name]] if name in col else ""
        for name, allowed in (("phase", ("warmup", "measure")),
                              ("status", ("ok", "failed")),
                              ("better", ("lower", "higher"))):
            if get(name) not in allowed:
                raise bad_value(path, line, name, get(name))
        if better is None:
            better = get("better")
        elif get("better") != better:
            raise RecordError(path, line, "'better' changes from %s to %s"
                              % (better, get("better")))
        # Escaped: a name is echoed to the terminal (an ESC in it would
        # be obeyed there).
        label = escape(" ".join(get("placement").split()))
        if not label:
            raise bad_value(path, line, "placement", get("placement"))
        text = get("round")
        if not re.fullmatch("[0-9]+", text) or \
                not 1 <= int(text) <= MAX_RUNS:
            raise bad_value(path, line, "round", text)
        run = Run(None, int(text), get("phase"), label,
                  cpus=escape(get("cpus")), status=get("status"),
                  exit=get("exit"), better=better,
                  host=escape(get("host")), note=get("note"))
        for name in ("seq", "maxrss_kb", "vcsw", "ivcsw", "minflt",
                     "majflt", "migrations"):
            if get(name):
                if not re.fullmatch("[0-9]+", get(name)):
                    raise bad_value(path, line, name, get(name))
                setattr(run, name, int(get(name)))
        for name in ("wall_s", "user_s", "sys_s"):
            if get(name):
                try:
                    setattr(run, name, float(get(name)))
                except ValueError:
                    raise bad_value(path, line, name, get(name)) from None
        if run.status == "ok":
            run.figure = parse_figure(get("figure"))
            if run.figure is None:
                raise bad_value(path, line, "figure", get("figure"))
        yield line, run


# What must agree for records to be analysed together, as a message
# names it.
AGREE = (("command", "the command"), ("metric", "the metric"),
         ("unit", "the unit"), ("better", "'better'"),
         ("placements", "the placements"))


class Records:
    """Several --from files analysed together: each one's rounds follow
    the previous one's (runs are paired within a record, never across),
    and the context is the first one's. They must agree on what they
    measured (AGREE); where they come from different conditions, differ
    names what differs."""

    def __init__(self, paths):
        self.parts = [FileRecord(p) for p in paths]
        self.path = ", ".join(paths)
        self.offsets = [0] * len(paths)
        self.count = 0
        self.info = {}
        self.fields = CSV_FIELDS

    def read(self):
        """((path, line number), run) for every run of every record."""
        offset = 0
        labels = []
        for k, part in enumerate(self.parts):
            self.offsets[k] = offset
            top = 0
            seen = []
            for line, run in part.read():
                top = max(top, run.round)
                if run.placement not in seen:
                    seen.append(run.placement)
                run.round += offset
                yield (part.path, line), run
            offset += top
            self.count += part.count
            info = dict(part.info, placements=part.info.get(
                "placements") or sorted(seen))
            if k == 0:
                self.info, self.fields, labels = part.info, part.fields, info
            else:
                self.agree(labels, info, part.path)
        if len(self.parts) > 1 and isinstance(self.info.get("end"), dict):
            ends = [p.info.get("end") for p in self.parts]
            if any(not isinstance(e, dict) for e in ends):
                self.info = {k: v for k, v in self.info.items()
                             if k != "end"}

    def agree(self, first, info, path):
        def same(key):
            a, b = first[key], info[key]
            if key == "placements" and not (isinstance(a, dict) and
                                            isinstance(b, dict)):
                return sorted(a) == sorted(b)  # the labels alone
            return a == b
        differ = [name for key, name in AGREE
                  if key in first and key in info and not same(key)]
        if differ:
            raise RecordError(path, 0, "cannot be analysed with %s: %s "
                              "differ%s" % (self.parts[0].path,
                                            ", ".join(differ),
                                            "" if len(differ) > 1 or
                                            differ[0].endswith("s")
                                            else "s"))

    def runs(self):
        for part, offset in zip(self.parts, self.offsets):
            for run in part.runs():
                run.round += offset
                yield run

    def differ(self):
        """A warning for each record whose fingerprint cannot be compared
        with the first one's: which of its keys differ."""
        first = self.parts[0]
        out = []
        for part in self.parts[1:]:
            keys = fingerprint_differs(first.info.get("fingerprint"),
                                       part.info.get("fingerprint"))
            if first.info.get("host") != part.info.get("host") and \
                    "machine" not in keys:
                keys.insert(0, "machine")
            if keys:
                out.append("warning: %s and %s come from conditions that "
                           "cannot be compared: %s differ" % (
                               escape(first.path, 200),
                               escape(part.path, 200), ", ".join(keys)))
        return out


# The keys of a fingerprint that say whether two records can be compared,
# as the warning names them (the load and the frequency may differ).
FINGERPRINT_KEYS = (("kernel", "kernel"), ("smt", "SMT"), ("thp", "THP"),
                    ("numa_balancing", "NUMA balancing"))
PLACEMENT_KEYS = (("cpus", "CPUs"), ("governor", "governor"),
                  ("smt_siblings_online", "SMT siblings online"))


def fingerprint_differs(a, b):
    """The names of the keys that differ between two fingerprints."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return []
    out = [name for key, name in FINGERPRINT_KEYS if a.get(key) != b.get(key)]
    pa, pb = a.get("placements"), b.get("placements")
    if isinstance(pa, dict) and isinstance(pb, dict):
        for key, name in PLACEMENT_KEYS:
            if any(isinstance(pa.get(label), dict) and
                   isinstance(pb.get(label), dict) and
                   pa[label].get(key) != pb[label].get(key) for label in pa):
                out.append(name)
    return out
