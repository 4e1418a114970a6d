# SPDX-License-Identifier: BSD-3-Clause
import math
import shlex
import unicodedata

from .report import (describe_figure, fci, fratio, heading, level,
                     ratio_text)
from .stats import NO_SLOWER, SLOWER, median


# --- the plot ----------------------------------------------------------------

def xml(text):
    return (str(text).replace("&", "&amp;").replace("<", "&lt;")
            .replace(">", "&gt;").replace('"', "&quot;"))


# Monospace text, so that its width is known: 0.6 em a character (1.2 for
# the wide ones of East Asian scripts), with a margin.
FONT = 12
CHAR_W = 0.62 * FONT


def text_width(text, size=FONT):
    cells = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1
                for c in text)
    return cells * 0.62 * size


def wrap(text, width_px, size=FONT):
    """Lines of at most width_px, broken at blanks where there are any."""
    lines, line = [], ""
    for word in text.split(" "):
        cand = word if not line else line + " " + word
        if line and text_width(cand, size) > width_px:
            lines.append(line)
            line = word
        else:
            line = cand
        while text_width(line, size) > width_px and len(line) > 1:
            cut = max(1, int(width_px / (0.62 * size * 2)))
            while cut < len(line) and text_width(line[:cut + 1],
                                                 size) <= width_px:
                cut += 1
            lines.append(line[:cut])
            line = line[cut:]
    lines.append(line)
    return lines


def nice_ticks(low, high, count=6):
    """Round tick values (1, 2 or 5 times a power of ten) over [low, high]."""
    span = high - low
    raw = span / max(1, count - 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(s * mag for s in (1, 2, 5, 10) if s * mag >= raw)
    first = math.ceil(low / step - 1e-9) * step
    ticks = []
    t = first
    while t <= high + step * 1e-9:
        ticks.append(round(t, 12))
        t += step
    return ticks, step


def tick_label(t, step):
    dec = max(0, -math.floor(math.log10(step))) if step < 1 else 0
    return "%.*f" % (dec, t)


# Light colours, then dark ones for a viewer that prefers them: text at
# least 4.5:1 against its background, marks at least 3:1.
PALETTE = {
    "bg": ("#ffffff", "#0d1117"), "fg": ("#1f2328", "#e6edf3"),
    "muted": ("#59636e", "#9198a1"), "grid": ("#d1d9e0", "#3d444d"),
    "band": ("#f6f8fa", "#151b23"), "faster": ("#1a7f37", "#3fb950"),
    "slower": ("#cf222e", "#ff7b72"), "base": ("#cf222e", "#ff7b72"),
    "box": ("#d0e4f5", "#1c3047"),
}
SERIES = [("#0969da", "#58a6ff"), ("#bc4c00", "#f0883e"),
          ("#1a7f37", "#3fb950"), ("#8250df", "#bc8cff"),
          ("#bf3989", "#f778ba"), ("#9a6700", "#d29922"),
          ("#1b7c83", "#39c5cf"), ("#57606a", "#b1bac4")]
BOX_MIN_RUNS = 8  # fewer runs than this get no quartile box
MAX_DOTS = 500  # runs drawn as dots per placement; beyond, the box
MAX_POINTS = 600  # points on a run-order line; beyond, medians of bins


def style_sheet():
    rules = []
    for which in (0, 1):
        r = []
        for name, pair in PALETTE.items():
            prop = "stroke" if name in ("grid", "base") else "fill"
            r.append(".%s{%s:%s}" % (name, prop, pair[which]))
        for i, pair in enumerate(SERIES):
            r.append(".s%d{fill:%s}.l%d{stroke:%s}" % (i, pair[which], i,
                                                       pair[which]))
        rules.append("".join(r))
    return ("<style>%s@media (prefers-color-scheme: dark){%s}</style>" %
            (rules[0], rules[1]))


def paint(name, prop="fill"):
    """A class and the light colour as an attribute too, for a viewer
    without style sheets."""
    if isinstance(name, int):  # a placement's colour
        k = name % len(SERIES)
        return 'class="%s%d" %s="%s"' % ("l" if prop == "stroke" else "s",
                                         k, prop, SERIES[k][0])
    return 'class="%s" %s="%s"' % (name, prop, PALETTE[name][0])


def axis_range(values):
    """From zero (figures are positive), so that a bar's length is the
    figure and small differences are not made to look large."""
    high = max(values)
    if not math.isfinite(high) or high <= 0:
        high = 1.0
    low, high = 0.0, high * 1.05
    ticks, step = nice_ticks(low, high)
    return min(low, ticks[0]), max(high, ticks[-1]), ticks, step


def binned(points, count):
    """(x, y) points in at most count bins of x, each its median."""
    if len(points) <= count:
        return points
    lo, hi = points[0][0], points[-1][0]
    width = (hi - lo + 1) / count
    bins = {}
    for x, y in points:
        bins.setdefault(int((x - lo) / width), []).append((x, y))
    return [(median([p[0] for p in b]), median([p[1] for p in b]))
            for _, b in sorted(bins.items())]


def plot_svg(rows, tally, meta):
    """Two panels: every measured run of each placement as a dot on its
    row (the quartiles as a box where there are enough runs, the median
    as a bar, the baseline's median as a dashed line, the ratio and
    verdict at the right), then every figure by round, so that a drift of
    the machine shows. Self-contained: no script, link, image or font."""
    row_h, plot_w, pad = 40, 480, 16
    order_h = 200
    labels = []
    for r in rows:
        name = r.label + ("" if not r.cpus else "  [CPUs %s]" % r.cpus)
        if r.failed:
            name += " (%d failed)" % r.failed
        labels.append(name)
    rights = []
    for r in rows:
        text = r.verdict
        if r.ratio is not None and r.label != meta.baseline:
            text = "%s %s %s" % (fratio(r), fci(r), r.verdict)
        rights.append(text)
    label_w = max(text_width(t) for t in labels) + 36  # and a swatch
    right_w = max(text_width(t) for t in rights) + 2 * pad
    width = int(math.ceil(pad + label_w + plot_w + right_w))
    width = max(width, 760)
    title = "pinrun-compare"
    if meta.command:
        title += ": " + shlex.join(meta.command)
    heads = [(t, 14, "fg", "bold") for t in wrap(title, width - 2 * pad, 14)]
    sub = describe_figure(meta) + "; " + heading(meta)
    heads += [(t, FONT, "muted", None) for t in wrap(sub, width - 2 * pad)]
    if meta.host:
        heads += [(t, FONT, "muted", None)
                  for t in wrap("machine: " + meta.host, width - 2 * pad)]
    x0 = pad + label_w
    forest_top = pad + 18 * len(heads) + 40
    compared = [r for r in rows if r.label != meta.baseline]
    forest_bottom = forest_top + row_h * max(1, len(compared))
    top = forest_bottom + 120
    strip_bottom = top + row_h * len(rows)
    order_top = strip_bottom + 84
    order_bottom = order_top + order_h
    height = order_bottom + 52
    factor = meta.unit[2] if meta.unit else 1.0  # in the unit shown
    figs = {r.label: [v * factor for v in tally.series[r.label].measured()]
            for r in rows}
    values = [v for vs in figs.values() for v in vs] or [1.0]
    low, high, ticks, step = axis_range(values)

    def x(v):
        return x0 + (v - low) / (high - low) * plot_w

    s = ['<?xml version="1.0" encoding="UTF-8"?>',
         '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'viewBox="0 0 %d %d" font-family="monospace" font-size="%d">' %
         (width, height, width, height, FONT), style_sheet(),
         '<rect x="0" y="0" width="%d" height="%d" %s/>' %
         (width, height, paint("bg"))]
    y = pad + 12
    for text, size, color, weight in heads:
        s.append('<text x="%d" y="%d" font-size="%d"%s %s>%s</text>' %
                 (pad, y, size, ' font-weight="bold"' if weight else "",
                  paint(color), xml(text)))
        y += 18
    s += forest(compared, meta, x0, forest_top, row_h, plot_w, pad,
                labels=[labels[rows.index(r)] for r in compared],
                colors=[rows.index(r) for r in compared])
    # The strip plot.
    s.append('<text x="%d" y="%d" %s>every run, by placement: the median '
             'a bar, the quartiles a box</text>' %
             (pad, top - 28, paint("fg")))
    for t in ticks:
        s.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" %s/>' %
                 (x(t), top, x(t), strip_bottom, paint("grid", "stroke")))
        s.append('<text x="%.1f" y="%d" text-anchor="middle" %s>%s</text>'
                 % (x(t), strip_bottom + 16, paint("fg"),
                    tick_label(t, step)))
    s.append('<text x="%.1f" y="%d" text-anchor="middle" %s>%s</text>' %
             (x0 + plot_w / 2, strip_bottom + 34, paint("muted"),
              xml(axis_name(meta))))
    for i, r in enumerate(rows):
        cy = top + row_h * i + row_h / 2
        if i % 2:
            s.append('<rect x="0" y="%d" width="%d" height="%d" %s/>' %
                     (top + row_h * i, width, row_h, paint("band")))
        s.append('<rect x="%.1f" y="%.1f" width="10" height="10" %s/>' %
                 (pad, cy - 6, paint(i)))
        s.append('<text x="%.1f" y="%.1f" %s>%s</text>' %
                 (pad + 18, cy + 4, paint("fg"), xml(labels[i])))
        xs = figs[r.label]
        if len(xs) >= BOX_MIN_RUNS:
            q1, q3 = quartiles(xs)
            s.append('<rect x="%.1f" y="%.1f" width="%.1f" height="24" '
                     '%s/>' % (x(q1), cy - 12, max(1.0, x(q3) - x(q1)),
                               paint("box")))
        if len(xs) <= MAX_DOTS:
            for j, v in enumerate(xs):
                jitter = ((j * 0.6180339887) % 1 - 0.5) * 18
                s.append('<circle cx="%.1f" cy="%.1f" r="3.5" '
                         'fill-opacity="0.8" %s/>' %
                         (x(v), cy + jitter, paint(i)))
        if r.median is not None:
            s.append('<rect x="%.1f" y="%.1f" width="3" height="28" %s/>' %
                     (x(r.median * factor) - 1.5, cy - 14, paint("fg")))
        color = verdict_colour(r)
        s.append('<text x="%.1f" y="%.1f" %s>%s</text>' %
                 (x0 + plot_w + pad, cy + 4, paint(color), xml(rights[i])))
    base = [r for r in rows if r.label == meta.baseline]
    if base and base[0].median is not None:
        bx = x(base[0].median * factor)
        s.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" '
                 'stroke-width="2" stroke-dasharray="6,4" %s/>' %
                 (bx, top - 6, bx, strip_bottom, paint("base", "stroke")))
        s.append('<text x="%.1f" y="%d" text-anchor="middle" %s>baseline '
                 'median</text>' % (bx, top - 9, paint("slower")))
    # The figures by round.
    rounds = max(1, tally.rounds())
    s.append('<text x="%d" y="%d" %s>by round, in the order run: a drift '
             'of the machine moves every line alike</text>' %
             (pad, order_top - 28, paint("fg")))

    def ox(rnd):
        if rounds == 1:
            return x0 + plot_w / 2
        return x0 + (rnd - 1) / (rounds - 1) * plot_w

    def oy(v):
        return order_bottom - (v * factor - low) / (high - low) * order_h
    # The y axis, labelled with the figure and its unit; a legend.
    s.append('<text x="%d" y="%.1f" text-anchor="middle" transform="rotate('
             '-90 %d %.1f)" %s>%s</text>' %
             (pad + 4, order_top + order_h / 2, pad + 4,
              order_top + order_h / 2, paint("muted"),
              xml("wall time (%s)" % meta.unit[0] if meta.unit
                  else "figure")))
    lx = x0
    for i, r in enumerate(rows):
        name = short(r.label)
        s.append('<rect x="%.1f" y="%d" width="10" height="10" %s/>'
                 '<text x="%.1f" y="%d" %s>%s</text>' %
                 (lx, order_top - 12, paint(i), lx + 14, order_top - 3,
                  paint("fg"), xml(name)))
        lx += text_width(name) + 34
    for t in ticks:
        s.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" %s/>' %
                 (x0, oy(t / factor), x0 + plot_w, oy(t / factor),
                  paint("grid", "stroke")))
        s.append('<text x="%d" y="%.1f" text-anchor="end" %s>%s</text>' %
                 (x0 - 6, oy(t / factor) + 4, paint("fg"),
                  tick_label(t, step)))
    rticks, rstep = nice_ticks(1, rounds) if rounds > 1 else ([1], 1)
    for t in rticks:
        if 1 <= t <= rounds and float(t).is_integer():
            s.append('<text x="%.1f" y="%d" text-anchor="middle" %s>%d'
                     '</text>' % (ox(t), order_bottom + 16, paint("fg"), t))
    s.append('<text x="%.1f" y="%d" text-anchor="middle" %s>round</text>' %
             (x0 + plot_w / 2, order_bottom + 34, paint("muted")))
    for i, r in enumerate(rows):
        pts = [(k + 1, v) for k, v in enumerate(tally.series[r.label].figures)
               if not math.isnan(v)]
        pts = binned(pts, MAX_POINTS)
        if len(pts) > 1:
            s.append('<polyline fill="none" stroke-width="1.5" %s points="%s"'
                     '/>' % (paint(i, "stroke"), " ".join(
                         "%.1f,%.1f" % (ox(a), oy(b)) for a, b in pts)))
        if len(pts) <= 100:
            for a, b in pts:
                s.append('<circle cx="%.1f" cy="%.1f" r="2.5" %s/>' %
                         (ox(a), oy(b), paint(i)))
    s.append("</svg>")
    return "\n".join(s) + "\n"


def short(label, most=20):
    """A placement's name in a legend or an axis' label: at most a few
    characters (the rows give it whole)."""
    return label if len(label) <= most else label[:most - 3] + "..."


def axis_name(meta):
    """The figure and its unit, for an axis."""
    if meta.unit:
        return "wall time (%s), %s is better" % (meta.unit[0], meta.better)
    return describe_figure(meta)


def forest(rows, meta, x0, top, row_h, plot_w, pad, labels, colors):
    """The decision: each placement's ratio to the baseline as a dot and
    its 95% interval as a line, on a log scale, against 1 (the baseline)
    and the --fail-if-slower threshold."""
    s = ['<text x="%d" y="%d" %s>the decision: ratio to %s, with its %s '
         'interval (log scale)</text>' % (pad, top - 22, paint("fg"),
                                        xml(short(meta.baseline)),
                                        level(meta))]
    logs = [0.0]
    for r in rows:
        logs += [v for v in (r.log_ratio,) + tuple(r.log_ci or ())
                 if v is not None]
    limit = None
    if meta.fail_if_slower is not None:
        pct = meta.fail_if_slower / 100
        if meta.better == "lower":
            limit = math.log1p(pct)
        elif pct < 1:
            limit = math.log1p(-pct)
        if limit is not None:
            logs.append(limit)
    low, high = min(logs), max(logs)
    span = max(high - low, 0.02)
    low, high = low - span * 0.1, high + span * 0.1
    bottom = top + row_h * max(1, len(rows))

    def x(v):
        return x0 + (v - low) / (high - low) * plot_w
    for v, name in ((low, None), (0.0, "1"), (high, None)):
        s.append('<text x="%.1f" y="%d" text-anchor="middle" %s>%s</text>' %
                 (x(v), bottom + 16, paint("fg"),
                  xml(name or ratio_text(v))))
    s.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke-width="2" %s'
             '/>' % (x(0.0), top - 6, x(0.0), bottom, paint("grid",
                                                            "stroke")))
    # Which side is slower comes from the figure's direction: a time is
    # slower above 1, a rate below it.
    left, right = ("faster", "slower") if meta.better == "lower" else \
        ("slower", "faster")
    s.append('<text x="%.1f" y="%d" text-anchor="middle" %s>ratio to %s '
             '(%s, %s is better): left of 1 %s, right %s</text>' %
             (x0 + plot_w / 2, bottom + 34, paint("muted"),
              xml(short(meta.baseline)), "time" if meta.better == "lower"
              else "rate", meta.better, left, right))
    s.append('<text x="%.1f" y="%d" text-anchor="start" %s>\u2190 %s</text>'
             % (x0, bottom + 66, paint(left), left))
    s.append('<text x="%.1f" y="%d" text-anchor="end" %s>%s \u2192</text>'
             % (x0 + plot_w, bottom + 66, paint(right), right))
    if limit is not None:
        # The margin: from 1 to the threshold, where "no slower than the
        # margin" may still lie.
        a, b = sorted((x(0.0), x(limit)))
        s.insert(1, '<rect x="%.1f" y="%d" width="%.1f" height="%d" %s/>' %
                 (a, top - 6, b - a, bottom - top + 6, paint("band")))
        s.append('<text x="%.1f" y="%d" text-anchor="middle" %s>shaded: '
                 'within the %g%% margin</text>' %
                 (x0 + plot_w / 2, bottom + 66, paint("muted"),
                  meta.fail_if_slower))
        s.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke-width="2"'
                 ' stroke-dasharray="6,4" %s/>' %
                 (x(limit), top - 6, x(limit), bottom,
                  paint("base", "stroke")))
        s.append('<text x="%.1f" y="%d" text-anchor="middle" %s>'
                 '--fail-if-slower %g%%</text>' %
                 (x(limit), top - 9, paint("slower"), meta.fail_if_slower))
    for i, r in enumerate(rows):
        cy = top + row_h * i + row_h / 2
        s.append('<rect x="%.1f" y="%.1f" width="10" height="10" %s/>' %
                 (pad, cy - 6, paint(colors[i])))
        s.append('<text x="%.1f" y="%.1f" %s>%s</text>' %
                 (pad + 18, cy + 4, paint("fg"), xml(labels[i])))
        if r.log_ci is not None:
            a, b = r.log_ci
            s.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" '
                     'stroke-width="3" %s/>' % (x(a), cy, x(b), cy,
                                                paint(colors[i], "stroke")))
        if r.log_ratio is not None:
            s.append('<circle cx="%.1f" cy="%.1f" r="5" %s/>' %
                     (x(r.log_ratio), cy, paint(colors[i])))
        else:
            s.append('<text x="%.1f" y="%.1f" %s>no ratio</text>' %
                     (x0, cy + 4, paint("muted")))
    s.append('<text x="%.1f" y="%d" text-anchor="middle" %s>a dot: the '
             'ratio (Hodges-Lehmann); a line: its %s interval</text>' %
             (x0 + plot_w / 2, bottom + 50, paint("muted"), level(meta)))
    return s


def verdict_colour(row):
    """Green for faster or no slower than the margin, red for slower,
    grey for the rest: from the verdict, whatever the figure's
    direction (a rate's "slower" is red too)."""
    if row.verdict == "faster" or row.decision == NO_SLOWER:
        return "faster"
    if row.verdict == "slower" or row.decision == SLOWER:
        return "slower"
    return "muted"


def quartiles(xs):
    s = sorted(xs)
    n = len(s)
    half = n // 2
    lower, upper = s[:half or 1], s[(n + 1) // 2:] or s[-1:]
    return median(lower), median(upper)
