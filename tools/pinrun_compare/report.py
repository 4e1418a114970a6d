# SPDX-License-Identifier: BSD-3-Clause
import json
import math
import os
import shlex
import textwrap
import urllib.parse
from dataclasses import dataclass, field

from .paths import escape
from .common import CONFIDENCE, COUNTERS, PROG
from .common import CSV_FIELDS
from .record import RECORD_MARK, csv_line, info_lines
from .stats import NO_SLOWER, OPEN, SLOWER, percent, shortfall


# --- what the reports say ----------------------------------------------------

@dataclass
class Meta:
    """What a report says besides the rows."""
    command: list | None
    metric: str | None
    prepare: str | None
    cleanup: str | None
    better: str
    from_file: str | None
    runs: int
    warmup: int
    baseline: str
    host: str | None
    fail_if_slower: float | None
    words: dict
    runs_made: int = 0
    runs_planned: int | None = None
    interrupted: str | None = None
    stopped: str | None = None
    plot: str | None = None
    unit: tuple | None = None  # wall time's (symbol, name, factor)
    cut: bool = False  # a record without its last line
    conditions: str | None = None  # the fingerprint, in a line
    changed: list = field(default_factory=list)  # conditions, first to last
    uncounted: str | None = None  # why the kernel counted no migrations
    differ: list = field(default_factory=list)  # records' conditions
    confidence: float = CONFIDENCE  # of the intervals
    labels: list = field(default_factory=list)
    looks: list = field(default_factory=list)  # --sequential's rounds
    looked: int = 0  # how many looks it made
    decided_at: int | None = None  # the round every placement was decided
    budget_spent: str | None = None  # the time budget, spent undecided


# Wall time in the unit that gives its largest median 1 to 999.
TIME_UNITS = (("s", "seconds", 1.0), ("ms", "milliseconds", 1e3),
              ("µs", "microseconds", 1e6), ("ns", "nanoseconds", 1e9))


def time_unit(rows):
    """The unit of the tables' wall times: (symbol, name, factor)."""
    top = max([r.median for r in rows if r.median] or [1.0])
    for unit in TIME_UNITS:
        if top * unit[2] >= 1:
            return unit
    return TIME_UNITS[-1]


def number_format(rows, meta):
    """How the tables write a figure: four significant digits for the
    largest median, every figure with as many decimals, in meta.unit; a
    figure too large or small for that, with an exponent."""
    factor = meta.unit[2] if meta.unit else 1.0
    top = max([abs(r.median) for r in rows
               if r.median and math.isfinite(r.median)] or [1.0]) * factor
    if top >= 1e7 or top < 1e-4:
        return lambda x: "-" if x is None else "%.4g" % (x * factor)
    dec = max(0, 3 - math.floor(math.log10(top)))
    return lambda x: "-" if x is None else "%.*f" % (dec, x * factor)


def ratio_text(log):
    """A ratio from its log: three decimals, or, beyond what a float
    holds comfortably, a mantissa and a power of ten, never an overflow."""
    if abs(log) < 11.5:
        return "%.3f" % math.exp(log)
    tens = log / math.log(10)
    power = math.floor(tens)
    return "%.2fe%+d" % (10 ** (tens - power), power)


def fratio(row):
    log = row.log_ratio
    return "-" if log is None else ratio_text(log)


def fci(row):
    ci = row.log_ci
    return "-" if ci is None else "[%s, %s]" % (ratio_text(ci[0]),
                                                ratio_text(ci[1]))


def describe_figure(meta):
    direction = "%s is better" % meta.better
    if meta.metric is not None:
        return "the metric's figure (%s)" % direction
    if meta.from_file is not None and meta.unit is None:
        return "the recorded figure (%s)" % direction
    name = meta.unit[1] if meta.unit else "seconds"
    return "wall time in %s (%s)" % (name, direction)


def heading(meta):
    if meta.from_file is not None:
        where = "runs recorded in %s" % meta.from_file
    else:
        where = "%d run%s per placement after %d warm-up round%s, " \
                "interleaved" % (meta.runs, "s"[:meta.runs != 1],
                                 meta.warmup, "s"[:meta.warmup != 1])
    if meta.looks:
        where += "; " + sequential_text(meta)
    if meta.interrupted:
        where += "; interrupted by %s after %d of %d runs" % (
            meta.interrupted, meta.runs_made, meta.runs_planned)
    elif meta.stopped:
        where += "; stopped after %d of %d runs" % (meta.runs_made,
                                                     meta.runs_planned)
    elif meta.cut:
        where += "; the record ends before its last line: cut short"
    return where


def sequential_text(meta):
    """How a sequential comparison ended, in a clause."""
    k = len(meta.looks)
    text = "sequential, %s intervals (95%% shared among %d looks at " \
        "rounds %s)" % (level(meta), k, ", ".join(map(str, meta.looks)))
    if meta.decided_at is not None:
        text += ": decided after %d rounds" % meta.decided_at
    elif meta.budget_spent:
        text += ": not decided: %s" % meta.budget_spent
    elif meta.from_file is None and not (meta.interrupted or meta.stopped):
        text += ": not decided within %d rounds" % meta.looks[-1]
    return text


def failures(tally, labels):
    """The failed runs, one line per placement and reason."""
    out = []
    for label in labels:
        for reason, (count, seqs) in tally.series[label].failures.items():
            shown = ", ".join(seqs)
            if count > len(seqs):
                shown += " and %d more" % (count - len(seqs))
            out.append("%s, run%s %s: %s" % (label, "s"[:count > 1], shown,
                                             escape(reason, 200)))
    return out


def gate_lines(rows, meta):
    """What the margin decided, a line per placement that it did."""
    out = []
    for r in rows:
        if r.decision == SLOWER:
            out.append("'%s' is slower than '%s' by more than %g%%: ratio "
                       "%s, %s CI %s" % (r.label, meta.baseline,
                                         meta.fail_if_slower, fratio(r),
                                         level(meta), fci(r)))
        elif r.decision == NO_SLOWER and r.censor is None:
            out.append("'%s' is no slower than '%s' by more than %g%%: "
                       "ratio %s, %s CI %s" % (r.label, meta.baseline,
                                               meta.fail_if_slower,
                                               fratio(r), level(meta),
                                               fci(r)))
    return out


def more_rounds_text(r):
    """About how many more rounds would decide an open decision."""
    more = r.more_rounds
    if more is None:
        return ""
    if math.isinf(more):
        return ("; the estimate sits on the margin: more rounds may never "
                "decide it")
    return ("; about %d more round%s would decide it (the interval "
            "narrows as 1/sqrt(rounds))" % (more, "s"[:more != 1]))


def undecided_lines(rows, meta):
    out = []
    for r in rows:
        if not r.undecided:
            continue
        if r.decision == OPEN:
            ci = r.ci
            out.append("not decided whether '%s' is slower than '%s' by "
                       "more than %g%%: ratio %s, %s CI %s, %s wide, "
                       "straddles %s%s" % (
                           r.label, meta.baseline, meta.fail_if_slower,
                           fratio(r), level(meta), fci(r),
                           "%.3f" % (ci[1] - ci[0]),
                           margin_text(meta), more_rounds_text(r)))
            continue
        why = shortfall(r)
        if why.startswith("cannot decide: "):
            why = why[len("cannot decide: "):]
        if meta.fail_if_slower is None:
            out.append("cannot decide how '%s' compares with '%s': %s" %
                       (r.label, meta.baseline, why))
        else:
            out.append("cannot decide whether '%s' is slower than '%s' by "
                       "more than %g%%: %s" % (r.label, meta.baseline,
                                               meta.fail_if_slower, why))
    return out


def margin_text(meta):
    """The ratio the margin puts the line at: 1.100 for a time 10%
    slower, 0.900 for a rate 10% lower."""
    pct = meta.fail_if_slower
    if meta.better == "lower":
        return "%.3f" % (1 + pct / 100)
    return "%.3f" % max(0.0, 1 - pct / 100)


def level(meta):
    """The intervals' confidence, as the reports name it: 95%."""
    return percent(meta.confidence)


def method_line(meta):
    return ("ratio: Hodges-Lehmann estimate of the per-round ratios "
            "placement / baseline (%s); CI: Wilcoxon signed-rank, %s" %
            (meta.baseline, level(meta)))


def show_cpus(rows):
    return any(r.cpus for r in rows)


def extra_columns(rows, meta, fnum):
    """(heading, cell of a row) of the columns shown when the runs have
    them: the medians of user and sys CPU time (in the figure's unit,
    with wall time), and of the kernel's counters."""
    cols = []
    if meta.unit and any("user_s" in r.extra for r in rows):
        cols += [(unit_head("user", meta),
                  lambda r: fnum(r.extra.get("user_s"))),
                 (unit_head("sys", meta),
                  lambda r: fnum(r.extra.get("sys_s")))]
    for name, title in COUNTERS:
        if any(name in r.extra for r in rows):
            cols.append((title, lambda r, n=name: count(r.extra.get(n))))
    return cols


def count(x):
    return "-" if x is None else "%.0f" % x if x == int(x) else "%.1f" % x


def warnings(rows, meta):
    """When there is nothing to compare, or the conditions changed while
    the runs were made (the runs are not alike)."""
    out = list(meta.differ)
    if meta.changed:
        out.append("warning: the conditions changed during the runs: " +
                   "; ".join(meta.changed))
    if len(rows) != 1:
        return out
    return out + ["warning: only one placement, '%s': nothing is compared "
                  "(give another -p, or -p auto)" % rows[0].label]


def summary_lines(rows, meta):
    """One line per placement: how many times faster or slower than the
    baseline it ran, with the interval, as hyperfine says it."""
    out = []
    for r in rows:
        log = r.log_ratio
        if r.estimate is None or log is None:
            continue
        sign = 1 if meta.better == "lower" else -1
        slow = sign * log  # > 0: slower
        how = "slower than" if slow > 0 else "faster than" if slow < 0 \
            else "as fast as"
        text = "%s ran %s x %s %s" % (r.label, ratio_text(abs(slow)), how,
                                      meta.baseline)
        if r.log_ci is not None:
            ends = sorted(abs(sign * v) if (sign * v > 0) == (slow > 0)
                          else -abs(sign * v) for v in r.log_ci)
            text += " [%s, %s]" % (ratio_text(ends[0]), ratio_text(ends[1]))
        else:
            text += " (no interval: %s)" % r.verdict
        if r.verdict == "cannot decide":
            text += ", but cannot decide"
        elif r.log_ci is not None and (r.decision is not None or
                                       r.verdict not in ("faster",
                                                         "slower")):
            # The same statistic's verdict, so that "faster" beside "no
            # significant difference" is not read as faster.
            text += ": %s" % r.verdict
        out.append(text)
    base = [r for r in rows if r.label == meta.baseline]
    if base and any(differs(r, base[0]) for r in rows):
        out.append("(the ratio pairs the runs round by round; the medians' "
                   "ratio mixes rounds a drift of the machine slowed with "
                   "rounds it did not, so the two may differ)")
    return out


def differs(r, base):
    """Whether the ratio of r's median to the baseline's lies outside r's
    paired interval: the table's medians then seem to say otherwise."""
    if r.log_ci is None or not r.median or not base.median:
        return False
    log = math.log(r.median) - math.log(base.median)
    return not r.log_ci[0] <= log <= r.log_ci[1]


TABLE_COLUMNS = 80  # the narrow table's width, and its lines


def unit_head(title, meta):
    """A column's heading with the figure's unit: median [ms]."""
    return "%s [%s]" % (title, meta.unit[0]) if meta.unit else title


def report_table(rows, tally, meta, wide=False):
    """The table: narrow by default, to fit 80 columns (placement, runs,
    median, ratio, interval, verdict; the CPUs are on the conditions
    line, or a line of their own), every column with wide."""
    fnum = number_format(rows, meta)
    if wide:
        head = ["placement", "CPUs", "runs", "failed",
                unit_head("median", meta), unit_head("min", meta),
                unit_head("max", meta), unit_head("MAD", meta), "ratio",
                "%s CI" % level(meta), "verdict"]
        body = [[r.label, r.cpus or "-", str(r.runs), str(r.failed),
                 fnum(r.median), fnum(r.min), fnum(r.max),
                 fnum(r.mad), fratio(r), fci(r), r.verdict]
                for r in rows]
        extra = extra_columns(rows, meta, fnum)
        for k, (title, cell) in enumerate(extra):
            head.insert(8 + k, title)
            for r, line in zip(rows, body):
                line.insert(8 + k, cell(r))
        left = {0, 1, 9 + len(extra), 10 + len(extra)}
        if not show_cpus(rows):
            head.pop(1)
            for line in body:
                line.pop(1)
            left = {i - 1 for i in left if i > 1} | {0}
    else:
        failed = any(r.failed for r in rows)
        head = ["placement", "runs"] + (["failed"] if failed else []) + \
            [unit_head("median", meta), "ratio", "%s CI" % level(meta),
             "verdict"]
        body = [[r.label, str(r.runs)] + ([str(r.failed)] if failed
                                          else []) +
                [fnum(r.median), fratio(r), fci(r), r.verdict]
                for r in rows]
        left = {0, len(head) - 2, len(head) - 1}
    widths = [max(len(line[i]) for line in [head] + body)
              for i in range(len(head))]
    lines = []
    if meta.command:
        lines.append("%s: %s" % (PROG, escape(shlex.join(meta.command))))
    lines.append("figure: %s; %s" % (describe_figure(meta), heading(meta)))
    if meta.host:
        lines.append("machine: %s" % meta.host)
    if meta.conditions:
        lines.append("conditions: %s" % meta.conditions)
    elif not wide and show_cpus(rows):
        lines.append("CPUs: " + "; ".join("%s %s" % (r.label, r.cpus or "-")
                                          for r in rows))
    for name in ("metric", "prepare", "cleanup"):
        if getattr(meta, name) is not None:
            lines.append("%s: %s" % (name, getattr(meta, name)))
    top = len(lines)
    for line in [head] + body:
        cells = [cell.ljust(widths[i]) if i in left
                 else cell.rjust(widths[i]) for i, cell in enumerate(line)]
        lines.append("  ".join(cells).rstrip())
    table_end = len(lines)
    lines.append(method_line(meta))
    if meta.uncounted:
        lines.append("migr: n/a: %s" % meta.uncounted)
    lines += warnings(rows, meta)
    lines += summary_lines(rows, meta)
    lines += ["%s: %s" % (r.label, shortfall(r)) for r in rows
              if shortfall(r)]
    lines += ["failed: " + f for f in failures(tally, [r.label
                                                        for r in rows])]
    if meta.plot:
        lines.append("plot: %s" % meta.plot)
    if not wide:
        # The lines around the table, folded to its width (the table's
        # own rows are not: a row is read across).
        lines = [fold(line) for line in lines[:top]] + \
            lines[top:table_end] + [fold(line) for line in lines[table_end:]]
    return "\n".join(lines) + "\n"


def fold(line):
    """A line folded at spaces to TABLE_COLUMNS, its continuations
    indented by two."""
    if len(line) <= TABLE_COLUMNS:
        return line
    return "\n".join(textwrap.wrap(line, TABLE_COLUMNS,
                                   subsequent_indent="  ",
                                   break_long_words=False,
                                   break_on_hyphens=False))


def md_cell(text):
    return text.replace("\\", "\\\\").replace("|", "\\|")


def md_code(text):
    fence = "``" if "`" in text else "`"
    pad = " " if "`" in text else ""
    return "%s%s%s%s%s" % (fence, pad, md_cell(text), pad, fence)


def md_link(target, base_dir):
    """target as a link from a markdown file in base_dir (None: as it is
    given, for standard output)."""
    if base_dir is not None:
        target = os.path.relpath(os.path.abspath(target), base_dir)
    return urllib.parse.quote(target)


def report_markdown(rows, tally, meta, base_dir=None):
    fnum = number_format(rows, meta)
    out = []
    title = "### pinrun-compare"
    if meta.command:
        title += ": " + md_code(shlex.join(meta.command))
    out += [title, ""]
    out += ["Figure: %s; %s." % (describe_figure(meta), heading(meta)), ""]
    if meta.host:
        out += ["Machine: %s." % md_cell(meta.host), ""]
    for name in ("metric", "prepare", "cleanup"):
        if getattr(meta, name) is not None:
            out += ["%s: %s." % (name.capitalize(),
                                 md_code(getattr(meta, name))), ""]
    cpus = show_cpus(rows)
    out.append("| placement |%s runs | failed | %s | %s | %s | %s | "
               "ratio | %s CI | verdict |" % (
                   " CPUs |" if cpus else "", unit_head("median", meta),
                   unit_head("min", meta), unit_head("max", meta),
                   unit_head("MAD", meta), level(meta)))
    out.append("|---|%s--:|--:|--:|--:|--:|--:|--:|:-:|---|" %
               ("---|" if cpus else ""))
    for r in rows:
        v = r.verdict
        if v in ("faster", "slower"):
            v = "**%s**" % v
        cells = [md_code(r.label)]
        if cpus:
            cells.append(md_code(r.cpus) if r.cpus else "-")
        cells += [str(r.runs), str(r.failed), fnum(r.median),
                  fnum(r.min), fnum(r.max), fnum(r.mad),
                  fratio(r), fci(r), v]
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    out.append("Ratio: the Hodges–Lehmann estimate of the per-round ratios "
               "placement / baseline (%s), with the %s confidence "
               "interval of the Wilcoxon signed-rank test." %
               (md_code(meta.baseline), level(meta)))
    notes = [md_cell(w) for w in warnings(rows, meta)]
    notes += [md_cell(line) for line in summary_lines(rows, meta)]
    notes += ["%s: %s" % (md_code(r.label), shortfall(r)) for r in rows
              if shortfall(r)]
    notes += ["failed: " + md_cell(f)
              for f in failures(tally, [r.label for r in rows])]
    notes += ["**gate**: " + md_cell(g) for g in gate_lines(rows, meta)]
    notes += ["**cannot decide**: " + md_cell(g)
              for g in undecided_lines(rows, meta)]
    if notes:
        out.append("")
        out += ["- " + n for n in notes]
    if meta.plot:
        out += ["", "Plot: [%s](%s)" % (md_cell(os.path.basename(meta.plot)),
                                        md_link(meta.plot, base_dir))]
    return "\n".join(out) + "\n"


def report_csv(record):
    """The record: its context, when it has one, then every run."""
    info = dict(record.info)
    end = info.pop("end", None)
    if info:
        yield RECORD_MARK + "\n" + info_lines(info)
    fields = getattr(record, "fields", CSV_FIELDS)
    yield ",".join(fields) + "\n"
    for run in record.runs():
        yield csv_line(run, fields)
    if end is not None:
        yield info_lines({"end": end})


def jnum(x):
    """A number for JSON, which has no infinity: None then."""
    if x is None or not math.isfinite(x):
        return None
    return float("%.9g" % x)


def hyperfine_results(rows, record, meta):
    """hyperfine's results[]: per placement, its command as a shell line,
    the mean, standard deviation (n - 1), median, min and max of its
    measured figures, the figures in run order (times), the mean user and
    system CPU seconds, and each run's exit code; name is the placement.
    So that scripts written for hyperfine's --export-json read it."""
    runs = {r.label: {"times": [], "user": [], "system": [], "codes": []}
            for r in rows}
    for run in record.runs():
        got = runs.get(run.placement)
        if got is None or run.phase != "measure" or run.status != "ok":
            continue
        got["times"].append(run.figure)
        for key, value in (("user", run.user_s), ("system", run.sys_s)):
            if value is not None:
                got[key].append(value)
        got["codes"].append(int(run.exit) if run.exit and
                            run.exit.isdigit() else None)
    out = []
    for r in rows:
        got = runs[r.label]
        xs = got["times"]
        words = meta.words.get(r.label)
        command = shlex.join(meta.command) if meta.command else r.label
        if words and meta.command:
            command = shlex.join(["pinrun"] + list(words) + ["--"] +
                                 list(meta.command))
        out.append({
            "command": command, "name": r.label,
            "mean": jnum(sum(xs) / len(xs)) if xs else None,
            "stddev": jnum(stdev(xs)),
            "median": jnum(r.median), "min": jnum(r.min), "max": jnum(r.max),
            "user": mean_or_none(got["user"]),
            "system": mean_or_none(got["system"]),
            "times": [jnum(x) for x in xs], "exit_codes": got["codes"],
        })
    return out


def stdev(xs):
    """The sample standard deviation (hyperfine's), None below 2."""
    if len(xs) < 2:
        return None
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def mean_or_none(xs):
    return jnum(sum(xs) / len(xs)) if xs else None


def report_json(rows, record, meta):
    doc = {
        "command": meta.command,
        "metric": meta.metric,
        "prepare": meta.prepare,
        "cleanup": meta.cleanup,
        "better": meta.better,
        "from": meta.from_file,
        "host": meta.host,
        "runs_per_placement": meta.runs,
        "warmup_rounds": meta.warmup,
        "order": "round-robin",
        "analysis": "paired by round",
        "baseline": meta.baseline,
        "confidence": meta.confidence,
        "sequential_looks": meta.looks or None,
        "decided_at_round": meta.decided_at,
        "fail_if_slower_pct": meta.fail_if_slower,
        "interrupted": meta.interrupted,
        "stopped": meta.stopped,
        "plot": meta.plot,
        "migrations_uncounted": meta.uncounted,
    }
    places = []
    for r in rows:
        e = r.estimate
        ci = r.ci or (None, None)
        places.append({
            "placement": r.label, "pinrun": meta.words.get(r.label),
            "cpus": r.cpus or None, "runs": r.runs, "failed": r.failed,
            "median": jnum(r.median), "min": jnum(r.min),
            "max": jnum(r.max), "mad": jnum(r.mad),
            "pairs": e.pairs if e else None, "ratio": jnum(r.ratio),
            "log_ratio": jnum(r.log_ratio),
            "ci_low": jnum(ci[0]), "ci_high": jnum(ci[1]),
            "method": e.method if e else None, "verdict": r.verdict,
            "runs_needed": e.needed if e else None,
            "slower_than_allowed": r.gate, "cannot_decide": r.undecided,
            "decision": r.decision,
            "rounds_to_decide": None if r.more_rounds is None
            or math.isinf(r.more_rounds) else r.more_rounds,
        })
    # One placement, one run per line: easy to read, grep and diff.
    yield "{\n"
    for key, value in doc.items():
        yield ' "%s": %s,\n' % (key, json.dumps(value, ensure_ascii=False))
    yield ' "placements": [\n%s\n ],\n' % ",\n".join(
        "  " + json.dumps(p, ensure_ascii=False) for p in places)
    yield ' "results": [\n%s\n ],\n' % ",\n".join(
        "  " + json.dumps(r, ensure_ascii=False)
        for r in hyperfine_results(rows, record, meta))
    yield ' "runs": ['
    first = True
    for run in record.runs():
        item = {"seq": run.seq, "round": run.round, "phase": run.phase,
                "placement": run.placement, "status": run.status,
                "exit": run.exit, "wall_s": jnum(run.wall_s),
                "user_s": jnum(run.user_s), "sys_s": jnum(run.sys_s),
                "maxrss_kb": run.maxrss_kb, "figure": jnum(run.figure),
                "note": run.note}
        yield "%s\n  %s" % ("" if first else ",",
                            json.dumps(item, ensure_ascii=False))
        first = False
    yield "\n ]\n}\n" if not first else "]\n}\n"
