# SPDX-License-Identifier: BSD-3-Clause
import array
import math
import statistics
from dataclasses import dataclass, field

from .common import (CONFIDENCE, COUNTERS, EQUAL_LOGS, EXACT_BELOW,
                     RecordError, Z975)
from .record import fail_reason


# --- the tally: what the statistics need, run by run -------------------------

@dataclass
class Series:
    """One placement's runs: its measured figures by round (NaN where
    none), counts, and its failures grouped by reason."""
    label: str
    cpus: str = ""
    figures: array.array = field(default_factory=lambda: array.array("d"))
    # By round: NONE, OK, FAILED or TIMED_OUT (figures has its wall time,
    # a lower bound of the figure it would have had).
    state: bytearray = field(default_factory=bytearray)
    ok: int = 0
    failed: int = 0
    timed_out: int = 0  # measured runs killed at the timeout
    # Of the finished measured runs: CPU times and counters, by name.
    extra: dict = field(default_factory=dict)
    attempts_timed_out: int = 0  # warm-ups included
    attempts: int = 0
    attempts_failed: int = 0
    failures: dict = field(default_factory=dict)  # warm-ups included

    def figure(self, rnd):
        if rnd <= len(self.figures):
            return self.figures[rnd - 1]
        return math.nan

    def measured(self):
        """The figures of the runs that finished."""
        return [v for v, k in zip(self.figures, self.state) if k == OK]


NONE, OK, FAILED, TIMED_OUT = range(4)
# What a finished run carries besides its figure: the reports give the
# median of each per placement.
EXTRA = ("user_s", "sys_s") + tuple(name for name, _ in COUNTERS)


def timed_out(run):
    """A run the timeout killed, with its wall time: its figure, had it
    finished, would be at least that."""
    return run.status == "failed" and run.exit == "timeout" and \
        run.wall_s is not None and run.wall_s > 0


class Tally:
    """Every run folded in as it comes, in memory proportional to the
    number of rounds: the record keeps the rest."""

    SHOWN_SEQS = 8  # failed runs listed by number, per reason

    def __init__(self, labels=()):
        self.series = {label: Series(label) for label in labels}
        self.order = list(labels)
        self.warmup_rounds = set()
        self.hosts = []
        self.runs = 0
        self.better = "lower"
        # Whether the figures are wall times (no --metric): only then is a
        # timed-out run's figure known to be at least its wall time.
        self.wall_figures = True

    def add(self, run, where=None):
        s = self.series.get(run.placement)
        if s is None:
            s = self.series[run.placement] = Series(run.placement)
            self.order.append(run.placement)
        self.runs += 1
        self.better = run.better
        if run.cpus and not s.cpus:
            s.cpus = run.cpus
        if run.host and run.host not in self.hosts and len(self.hosts) < 2:
            self.hosts.append(run.host)
        s.attempts += 1
        if run.status == "ok" and (run.wall_s is None or abs(
                run.figure - run.wall_s) > 1e-6 * max(1.0, run.wall_s)):
            self.wall_figures = False
        censored = timed_out(run)
        s.attempts_timed_out += censored
        if run.status == "failed":
            s.attempts_failed += 1
            reason = run.note or fail_reason(run.exit)
            count, seqs = s.failures.get(reason, (0, []))
            if len(seqs) < self.SHOWN_SEQS:
                seqs.append("?" if run.seq is None else str(run.seq))
            s.failures[reason] = (count + 1, seqs)
        if run.phase == "warmup":
            self.warmup_rounds.add(run.round)
            return
        while len(s.figures) < run.round:
            s.figures.append(math.nan)
            s.state.append(NONE)
        if s.state[run.round - 1] != NONE:
            path, line = where or ("record", 0)
            raise RecordError(path, line, "a second measured run of '%s' "
                              "in round %d" % (run.placement, run.round))
        if censored:
            s.state[run.round - 1] = TIMED_OUT
            s.figures[run.round - 1] = run.wall_s
            s.failed += 1
            s.timed_out += 1
        elif run.status == "failed":
            s.state[run.round - 1] = FAILED
            s.failed += 1
        else:
            s.state[run.round - 1] = OK
            for name in EXTRA:
                value = getattr(run, name)
                if value is not None:
                    s.extra.setdefault(name, array.array("d")).append(value)
            s.figures[run.round - 1] = run.figure
            s.ok += 1

    def rounds(self):
        return max([len(s.figures) for s in self.series.values()] or [0])

    def host(self):
        if len(self.hosts) > 1:
            return "several machines: %s; %s" % tuple(self.hosts)
        return self.hosts[0] if self.hosts else None


@dataclass
class Pairs:
    """The rounds of a placement and the baseline: the log ratios where
    both have a figure (a timed-out run's at least its wall time, and
    slower than any finished run of its placement), and the rounds that
    make them bounds or unknown."""
    logs: list
    censored: int = 0  # the placement timed out, the baseline finished
    base_censored: int = 0  # the other way round
    both_censored: int = 0
    unknown: int = 0  # a failed run (not a timeout) of either


def floor_of(s):
    """What a timed-out run of s counts as: at least its wall time, and
    more than every finished run of s."""
    xs = s.measured()
    top = max(xs) if xs else 0.0
    return lambda wall: max(wall, math.nextafter(top, math.inf))


def paired_logs(s, base, censoring=True):
    """The Pairs of placement s with the baseline, round by round."""
    p = Pairs([])
    fs, fb = floor_of(s), floor_of(base)
    for x, kx, y, ky in zip(s.figures, s.state, base.figures, base.state):
        if NONE in (kx, ky):
            continue
        if not censoring:
            kx = FAILED if kx == TIMED_OUT else kx
            ky = FAILED if ky == TIMED_OUT else ky
        if FAILED in (kx, ky):
            p.unknown += 1
            continue
        if kx == ky == TIMED_OUT:
            p.both_censored += 1
            continue
        if kx == TIMED_OUT:
            p.censored += 1
            x = fs(x)
        elif ky == TIMED_OUT:
            p.base_censored += 1
            y = fb(y)
        p.logs.append(math.log(x) - math.log(y))
    return p


# --- statistics --------------------------------------------------------------

def median(xs):
    """statistics.median, None for no values; the middle two halved
    before they are added, so that two figures near the largest float
    do not overflow."""
    n = len(xs)
    if n == 0:
        return None
    if n % 2:
        return statistics.median(xs)
    low, high = statistics.median_low(xs), statistics.median_high(xs)
    return low / 2 + high / 2


def mad(xs):
    """Median absolute deviation from the median (not scaled)."""
    m = median(xs)
    return median([abs(x - m) for x in xs])


def count_sums(xs, limit):
    """How many pairs i <= j of sorted xs have xs[i] + xs[j] <= limit:
    O(n), one pointer down as the other goes up."""
    n = len(xs)
    count = 0
    j = n - 1
    for i in range(n):
        xi = xs[i]
        while j >= i and xi + xs[j] > limit:
            j -= 1
        if j < i:
            break
        count += j - i + 1
    return count


def walsh(xs, k):
    """The k-th smallest (from 1) of the n(n+1)/2 Walsh averages
    (xs[i] + xs[j]) / 2, i <= j, of sorted xs, without listing them:
    bisect on the value until at most about 4n sums are left between the
    bounds, then sort those. O(n log n) time, O(n) memory. The sums are
    the floating-point sums R's wilcox.test sorts, so the result is the
    same number."""
    n = len(xs)
    lo = xs[0] + xs[0]
    c_lo = count_sums(xs, lo)
    if c_lo >= k:
        return lo / 2
    hi, c_hi = xs[-1] + xs[-1], n * (n + 1) // 2
    while c_hi - c_lo > 4 * n + 16:
        mid = lo + (hi - lo) / 2
        if not lo < mid < hi:
            break
        c = count_sums(xs, mid)
        if c >= k:
            hi, c_hi = mid, c
        else:
            lo, c_lo = mid, c
    between = []  # the sums in (lo, hi]
    j_lo = j_hi = n - 1
    for i in range(n):
        xi = xs[i]
        while j_hi >= i and xi + xs[j_hi] > hi:
            j_hi -= 1
        if j_hi < i:
            break
        while j_lo >= i and xi + xs[j_lo] > lo:
            j_lo -= 1
        between.extend(xi + xs[j] for j in range(max(j_lo + 1, i),
                                                    j_hi + 1))
    between.sort()
    return between[k - c_lo - 1] / 2


def signrank_counts(n):
    """counts[v]: how many of the 2^n sign patterns of n untied values
    give the signed-rank statistic V = v (subsets of 1..n summing to v)."""
    counts = [0] * (n * (n + 1) // 2 + 1)
    counts[0] = 1
    top = 0
    for i in range(1, n + 1):
        top += i
        for v in range(top, i - 1, -1):
            counts[v] += counts[v - i]
    return counts


def standardized_v(xs, d):
    """R's W(d): the signed-rank statistic of xs - d, zeros dropped, with
    mid-ranks for ties, centred, continuity- and tie-corrected, over its
    standard deviation. NaN where everything is zero or tied."""
    xd = [v - d for v in xs]
    xd = [v for v in xd if v != 0]
    nx = len(xd)
    if nx == 0:
        return math.nan
    order = sorted(xd, key=abs)
    v = 0.0
    ties = 0
    i = 0
    while i < nx:
        j = i
        while j + 1 < nx and abs(order[j + 1]) == abs(order[i]):
            j += 1
        rank = (i + j + 2) / 2
        v += rank * sum(1 for k in range(i, j + 1) if order[k] > 0)
        ties += (j - i + 1) ** 3 - (j - i + 1)
        i = j + 1
    var = nx * (nx + 1) * (2 * nx + 1) / 24 - ties / 48
    if var <= 0:
        return math.nan
    z = v - nx * (nx + 1) / 4
    return (z - math.copysign(0.5, z) * (z != 0)) / math.sqrt(var)


@dataclass
class Estimate:
    """The paired comparison of a placement with the baseline, on the log
    scale: n pairs, the Hodges-Lehmann estimate, the 95% interval (None
    when the pairs cannot reach 95%), how it was computed, and, when it
    was not, the most confidence the pairs could give (when known) and
    how many pairs would give 95% (when that is the cause)."""
    pairs: int
    center: float | None = None
    ci: tuple | None = None
    method: str | None = None
    reached: float | None = None
    needed: int | None = None


def pairs_needed(confidence=CONFIDENCE):
    """The fewest pairs that give an exact interval at this confidence
    (95%: 2^(1-n) <= 0.05)."""
    n = 1
    while 2.0 ** (1 - n) > 1 - confidence:
        n += 1
    return n


def z_of(confidence):
    """The normal quantile of a two-sided interval."""
    if confidence == CONFIDENCE:
        return Z975
    return statistics.NormalDist().inv_cdf(1 - (1 - confidence) / 2)


_EXACT_Q = {}


def exact_rank(n, confidence):
    """R's qsignrank((1 - confidence) / 2, n) (at least 1), and the
    confidence the exact interval it gives really has; kept, as a
    sequential comparison asks for the same n again and again."""
    key = (n, confidence)
    if key not in _EXACT_Q:
        counts = signrank_counts(n)
        total = 1 << n
        tail = (1 - confidence) / 2
        # The smallest q with P(V <= q) >= tail.
        q, cum = 0, counts[0]
        while cum < total * tail:
            q += 1
            cum += counts[q]
        q = max(q, 1)
        _EXACT_Q[key] = (q, 1 - 2 * sum(counts[:q]) / total)
    return _EXACT_Q[key]


def signed_rank(d, confidence=CONFIDENCE):
    """Hodges-Lehmann estimate and Wilcoxon signed-rank interval of the
    paired log ratios d, as R's wilcox.test(conf.int = TRUE) computes
    them: rounds whose ratio is exactly 1 are dropped; the interval is
    exact below 50 pairs without ties, else from the normal approximation
    with the tie and continuity corrections. Unlike R, an interval that
    cannot reach 95% confidence is not given (R gives [min, max] at 5
    pairs and calls it 95%)."""
    est = Estimate(len(d))
    if len(d) < pairs_needed(confidence):
        est.reached = max(0.0, 1 - 2.0 ** (1 - len(d)))
        est.needed = pairs_needed(confidence)
    if not d:
        return est
    if max(d) - min(d) <= EQUAL_LOGS:
        # Every round gave the same ratio (to the 10 digits a record
        # keeps): so does every Walsh average, and every interval made
        # of them is that point. (R refuses: all observations are tied.)
        est.center = median(d)
        if est.needed is None:
            est.ci, est.method = (min(d), max(d)), "all equal"
        return est
    x = sorted(v for v in d if v != 0)
    zeros = len(d) - len(x)
    n = len(x)
    m = n * (n + 1) // 2
    if m % 2:
        est.center = walsh(x, (m + 1) // 2)
    else:
        est.center = (walsh(x, m // 2) + walsh(x, m // 2 + 1)) / 2
    if est.needed is not None:
        return est
    mags = sorted(abs(v) for v in x)
    ties = any(a == b for a, b in zip(mags, mags[1:]))
    if n < EXACT_BELOW and not ties and not zeros:
        est.method = "exact"
        q, reached = exact_rank(n, confidence)
        if reached < confidence:
            return est  # fewer than pairs_needed()
        est.ci = (walsh(x, q), walsh(x, m - q + 1))
        return est
    est.method = "normal"
    # R gives up, or lowers the confidence, unless the test can reject at
    # both ends of the data.
    z = z_of(confidence)
    w_min, w_max = standardized_v(x, x[0]), standardized_v(x, x[-1])
    if not (w_min >= z and w_max <= -z):
        return est
    # R finds the interval's ends as roots of W(d) = +-z with uniroot.
    # Between two Walsh averages, W(d) is the count of Walsh averages
    # above d, centred and corrected, over a standard deviation that
    # only ties among the data reduce; so each end is a Walsh average of
    # known rank, found exactly.
    var = n * (n + 1) * (2 * n + 1) / 24
    i = 0
    while i < n:
        j = i
        while j + 1 < n and x[j + 1] == x[i]:
            j += 1
        var -= ((j - i + 1) ** 3 - (j - i + 1)) / 48
        i = j + 1
    above = math.ceil(m / 2 + z * math.sqrt(var) + 0.5) - 1
    est.ci = (walsh(x, max(1, m - above)), walsh(x, min(m, above + 1)))
    return est


# --- the summary -------------------------------------------------------------

@dataclass
class Row:
    """One placement's line of the report."""
    label: str
    cpus: str
    runs: int
    failed: int
    median: float | None
    min: float | None
    max: float | None
    mad: float | None
    estimate: Estimate | None = None
    verdict: str = ""
    gate: bool = False
    undecided: bool = False
    timed_out: int = 0
    censor: str | None = None  # why it cannot decide, from its runs
    decision: str | None = None  # against the margin: NO_SLOWER, ...
    more_rounds: float | None = None  # about how many would decide it
    extra: dict = field(default_factory=dict)  # medians, by EXTRA name

    @property
    def ratio(self):
        e = self.estimate
        if e is None:  # the baseline
            return 1.0 if self.verdict == "baseline" and self.runs else None
        return None if e.center is None else exp(e.center)

    @property
    def log_ratio(self):
        e = self.estimate
        if e is None:
            return 0.0 if self.verdict == "baseline" and self.runs else None
        return e.center

    @property
    def log_ci(self):
        e = self.estimate
        return None if e is None else e.ci

    @property
    def ci(self):
        e = self.estimate
        if e is None or e.ci is None:
            return None
        return exp(e.ci[0]), exp(e.ci[1])


def exp(log):
    """A ratio from its log, infinite (never an OverflowError) beyond
    the largest float."""
    return math.exp(log) if log < 709.78 else math.inf


def summarize(tally, labels, baseline, better, pct, confidence=CONFIDENCE):
    """One Row per placement, in the order given: with pct (a margin in
    percent), each decided no slower, slower, or not decided."""
    base = tally.series[baseline]
    rows = []
    for label in labels:
        s = tally.series[label]
        xs = s.measured()
        row = Row(label, s.cpus, s.ok, s.failed, median(xs),
                  min(xs) if xs else None, max(xs) if xs else None,
                  mad(xs) if xs else None, timed_out=s.timed_out,
                  extra={k: median(v) for k, v in s.extra.items()})
        if label == baseline:
            row.verdict = "baseline"
            rows.append(row)
            continue
        pairs = paired_logs(s, base, tally.wall_figures)
        row.estimate = e = signed_rank(pairs.logs, confidence)
        said = leans = None
        if e.ci is not None:
            said = verdict(row.ci, better)
            row.decision = None if pct is None else decide(e.ci, better,
                                                          pct)
            leans = leaning(row.decision if pct is not None else said,
                            better)
        row.censor = censored_reason(pairs, said, leans)
        if row.censor is not None:
            row.verdict = "cannot decide"
            row.undecided = True
            row.decision = None
        elif e.ci is None:
            row.verdict = "too few runs"
            if e.needed is not None:
                row.verdict += " (need %d)" % e.needed
            row.undecided = pct is not None
        elif pct is not None:
            row.verdict = DECISION_WORDS[row.decision] % ("%g%%" % pct)
            row.gate = row.decision == SLOWER
            row.undecided = row.decision == OPEN
            row.more_rounds = rounds_to_decide(e, better, pct)
        else:
            row.verdict = said
        rows.append(row)
    return rows


# The three answers against a margin (--fail-if-slower PCT).
NO_SLOWER, SLOWER, OPEN = "no slower", "slower", "not decided"
DECISION_WORDS = {NO_SLOWER: "no slower than %s", SLOWER: "slower than %s",
                  OPEN: "not decided at %s"}


def margin_log(better, pct):
    """The margin as a bound on the slowness, the log ratio turned so
    that positive is slower: log(1 + pct/100) for a time; for a rate,
    -log(1 - pct/100) (infinite from 100%: a rate cannot fall further)."""
    if better == "lower":
        return math.log1p(pct / 100)
    return -math.log1p(-pct / 100) if pct < 100 else math.inf


def slowness(log_ci, better):
    """The interval of log ratios as slowness (positive: slower)."""
    if better == "lower":
        return log_ci
    return (-log_ci[1], -log_ci[0])


def decide(log_ci, better, pct):
    """NO_SLOWER when the whole interval is within the margin, SLOWER
    when it is wholly beyond it, OPEN when it straddles it."""
    low, high = slowness(log_ci, better)
    margin = margin_log(better, pct)
    if high <= margin:
        return NO_SLOWER
    if low > margin:
        return SLOWER
    return OPEN


def rounds_to_decide(e, better, pct):
    """For an open decision, about how many more paired rounds would
    decide it: the interval narrows as 1/sqrt(rounds), and must shrink
    to the distance between the estimate and the margin. None when it is
    decided; math.inf when the estimate sits on the margin."""
    low, high = slowness(e.ci, better)
    margin = margin_log(better, pct)
    if not low <= margin < high:
        return None
    center = e.center if better == "lower" else -e.center
    half = max(high - center, center - low)
    gap = abs(center - margin)
    if gap <= half * 1e-3:
        return math.inf
    total = math.ceil(e.pairs * (half / gap) ** 2)
    return max(1, total - e.pairs)


# --- run until decided (--sequential) -----------------------------------------

# The looks of a sequential comparison: the first at FIRST_LOOK rounds,
# each next one LOOK_GROWTH times as many, the last at the budget.
FIRST_LOOK = 10
LOOK_GROWTH = 1.5


def look_rounds(max_rounds):
    """The rounds after which a sequential comparison looks: 10, 15, 23,
    34, 51, 76, ..., and max_rounds (the only one below 10)."""
    looks = []
    n = FIRST_LOOK
    while n < max_rounds:
        looks.append(n)
        n = max(n + 1, round(n * LOOK_GROWTH))
    looks.append(max_rounds)
    return looks


def look_confidence(looks):
    """Each look's interval confidence: the 5% error shared equally among
    the planned looks (Bonferroni), so that the chance that any look's
    interval misses the true ratio, and so of any wrong answer, stays at
    most 5% however the looks' results depend on each other."""
    return 1 - (1 - CONFIDENCE) / len(looks)


def sequential_answer(logs, better, pct, max_rounds):
    """A sequential comparison of one placement, on paired log ratios
    given in round order (the simulation's and the tests' way in; the
    live comparison makes the same looks through summarize): (the
    answer, the rounds used, the Estimate of the last look)."""
    looks = look_rounds(max_rounds)
    confidence = look_confidence(looks)
    e, answer, n = None, OPEN, 0
    for n in looks:
        if n > len(logs):
            break
        e = signed_rank(logs[:n], confidence)
        if e.ci is None:
            continue
        answer = decide(e.ci, better, pct)
        if answer != OPEN:
            break
    return answer, n, e


def leaning(said, better):
    """Which way a verdict leans on the ratio of times: "up" when it
    needs the ratio high (slower, or faster for a rate), "down" when it
    needs it low, None when neither (an open decision, or no
    significant difference)."""
    up = {"slower", SLOWER} if better == "lower" else {"faster", NO_SLOWER}
    down = {"faster", NO_SLOWER} if better == "lower" else {"slower",
                                                            SLOWER}
    if said in up:
        return "up"
    if said in down:
        return "down"
    return None


def censored_reason(p, said, leans=None):
    """Why the verdict the pairs say cannot stand, or None (said: the
    verdict's words, leans: which way it needs the ratio, as leaning()
    says). A timed-out run's figure is only a lower bound: where the
    placement timed out, its ratios are too low, so only a verdict that
    needs them high stands; where the baseline did, they are too high,
    so only one that needs them low does. A failed run's figure is
    unknown: nothing stands. Never "faster" or "no significant
    difference" from the runs that finished alone."""
    if p.unknown and said is None:
        return None  # too few runs, and failed runs: says nothing
    if p.unknown:
        return ("%d round%s with a failed run of it or the baseline: their "
                "figures are unknown (-i counts a run whatever its exit "
                "status)" % (p.unknown, "s"[:p.unknown != 1]))
    if p.both_censored:
        return ("%d round%s where both it and the baseline timed out" %
                (p.both_censored, "s"[:p.both_censored != 1]))
    if p.censored and p.base_censored:
        return ("it timed out in %d round%s and the baseline in %d: the "
                "ratios are neither upper nor lower bounds" %
                (p.censored, "s"[:p.censored != 1], p.base_censored))
    says = "too few pairs for an interval" if said is None else \
        "which says %s" % said
    if p.censored and leans != "up":
        return ("it timed out in %d round%s: counted as at least the "
                "timeout, its ratio is a lower bound, %s, not slower" %
                (p.censored, "s"[:p.censored != 1], says))
    if p.base_censored and leans != "down":
        return ("the baseline timed out in %d round%s: counted as at least "
                "the timeout, the ratio is an upper bound, %s, not faster" %
                (p.base_censored, "s"[:p.base_censored != 1], says))
    return None


def verdict(ci, better):
    low, high = ci
    if low > 1:
        return "slower" if better == "lower" else "faster"
    if high < 1:
        return "faster" if better == "lower" else "slower"
    return "no significant difference"


def shortfall(row):
    """Why a placement has no interval or verdict, in a sentence, or
    None."""
    if row.censor is not None:
        return "cannot decide: " + row.censor
    e = row.estimate
    if e is None or e.ci is not None:
        return None
    if e.pairs == 0:
        text = "no round with a successful run of both it and the baseline"
    else:
        text = "%d paired run%s" % (e.pairs, "s"[:e.pairs != 1])
        if e.pairs == 1:
            text += " gives no interval"
        elif e.reached is not None:
            text += " reach at most %s confidence" % percent(e.reached)
        else:
            text += " cannot reach 95% confidence (too many equal figures)"
    if e.needed is not None:
        text += "; %d would reach 95%%" % e.needed
    return text


def percent(x):
    return ("%.1f" % (100 * x)).rstrip("0").rstrip(".") + "%"
