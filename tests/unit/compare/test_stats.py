# SPDX-License-Identifier: BSD-3-Clause
"""The signed-rank statistics, against what R's wilcox.test says of the
records in tests/fixtures/compare (wilcox-expected.csv, made by wilcox.R)."""

import csv
import math
import random
import unittest

from helpers import fixture
from pinrun_compare import record, stats


def rows_of(name):
    """The rows of a record, as R sees it: a failed or timed-out run's
    round left out (R has no censoring)."""
    tally = stats.Tally()
    for line, run in record.FileRecord(fixture(name)).read():
        tally.add(run, (name, line))
    tally.wall_figures = False  # a timed-out run is a failed one
    labels = list(tally.order)
    return {r.label: r for r in stats.summarize(tally, labels, labels[0],
                                                tally.better, None)}


class AgainstR(unittest.TestCase):
    def test_every_paired_interval_is_rs(self):
        checked = 0
        cache = {}
        with open(fixture("wilcox-expected.csv"), encoding="utf-8") as f:
            expected = [e for e in csv.DictReader(f)
                        if e["analysis"] == "paired"]
        for e in expected:
            if e["file"] not in cache:
                cache[e["file"]] = rows_of(e["file"])
            r = cache[e["file"]][e["placement"]]
            what = "%s %s" % (e["file"], e["placement"])
            self.assertEqual(r.estimate.pairs, int(e["pairs"]), what)
            if e["ratio"] == "NaN":
                self.assertEqual(r.estimate.method, "all equal", what)
                self.assertEqual(r.ci, (r.ratio, r.ratio), what)
                continue
            tol = 1e-8 if e["method"] == "exact" else 1e-4
            self.assertLessEqual(abs(math.log(r.ratio / float(e["ratio"]))),
                                 tol, what)
            if float(e["conf_level"]) < 0.95 or int(e["pairs"]) < 6:
                self.assertIsNone(r.ci, what)
                self.assertEqual(r.verdict, "too few runs (need 6)", what)
                continue
            self.assertEqual(r.estimate.method, e["method"], what)
            for got, want in zip(r.ci, (e["ci_low"], e["ci_high"])):
                self.assertLessEqual(abs(math.log(got / float(want))), tol,
                                     what)
            checked += 1
        self.assertEqual(checked, 22)

    def test_z_is_the_normal_quantile(self):
        # R's qnorm(0.975), to the last place but one.
        self.assertAlmostEqual(stats.Z975, 1.959963984540054, places=15)


class Walsh(unittest.TestCase):
    def test_selected_as_if_sorted(self):
        rng = random.Random(7)
        for trial in range(60):
            n = rng.randint(1, 50)
            if trial % 2:
                xs = sorted(rng.gauss(0, 0.05) for _ in range(n))
            else:
                xs = sorted(rng.choice([-0.02, -0.01, 0.0, 0.01, 0.03])
                            for _ in range(n))
            walsh = sorted((xs[i] + xs[j]) / 2 for i in range(n)
                           for j in range(i, n))
            for k in range(1, len(walsh) + 1, max(1, len(walsh) // 40)):
                self.assertEqual(stats.walsh(xs, k), walsh[k - 1], (xs, k))

    def test_signrank_counts_are_subset_sums(self):
        # n = 4: subsets of {1,2,3,4} by sum.
        self.assertEqual(stats.signrank_counts(4),
                         [1, 1, 1, 2, 2, 2, 2, 2, 1, 1, 1])

    def test_pairs_needed_for_95(self):
        self.assertEqual(stats.pairs_needed(), 6)


class Verdicts(unittest.TestCase):
    def test_verdict_by_interval(self):
        self.assertEqual(stats.verdict((1.1, 1.2), "lower"), "slower")
        self.assertEqual(stats.verdict((1.1, 1.2), "higher"), "faster")
        self.assertEqual(stats.verdict((0.8, 0.9), "lower"), "faster")
        self.assertEqual(stats.verdict((0.9, 1.1), "lower"),
                         "no significant difference")

    def test_three_answers_against_a_margin(self):
        log = math.log
        # The CI run: ratio 0.756, [0.558, 1.679], 10%: open.
        ci = (log(0.558), log(1.679))
        self.assertEqual(stats.decide(ci, "lower", 10), stats.OPEN)
        self.assertEqual(stats.decide((log(1.06), log(1.2)), "lower", 5),
                         stats.SLOWER)
        self.assertEqual(stats.decide((log(1.04), log(1.2)), "lower", 5),
                         stats.OPEN)
        self.assertEqual(stats.decide((log(0.8), log(1.09)), "lower", 10),
                         stats.NO_SLOWER)
        self.assertEqual(stats.decide((log(0.8), log(1.11)), "lower", 10),
                         stats.OPEN)
        # A rate: slower is lower.
        self.assertEqual(stats.decide((log(0.5), log(0.94)), "higher", 5),
                         stats.SLOWER)
        self.assertEqual(stats.decide((log(0.91), log(1.3)), "higher", 10),
                         stats.NO_SLOWER)
        self.assertEqual(stats.decide((log(0.89), log(1.3)), "higher", 10),
                         stats.OPEN)
        self.assertEqual(stats.decide((log(0.01), log(1.3)), "higher", 100),
                         stats.NO_SLOWER)

    def test_rounds_to_decide(self):
        # Half-width 0.1 around 0, margin log(1.05) ~ 0.0488: about
        # (0.1 / 0.0488)^2 = 4.2 times the 10 pairs.
        e = stats.Estimate(10, 0.0, (-0.1, 0.1))
        self.assertEqual(stats.rounds_to_decide(e, "lower", 5), 33)
        e = stats.Estimate(10, math.log(1.05), (-0.1, 0.2))
        self.assertEqual(stats.rounds_to_decide(e, "lower", 5), math.inf)
        e = stats.Estimate(10, 0.0, (-0.01, 0.01))
        self.assertIsNone(stats.rounds_to_decide(e, "lower", 5))

    def test_summary_with_a_margin(self):
        tally = stats.Tally()
        for line, run in record.FileRecord(fixture("noisy.csv")).read():
            tally.add(run, ("noisy.csv", line))
        rows = stats.summarize(tally, ["none", "hot"], "none", "lower", 10)
        self.assertEqual(rows[1].verdict, "not decided at 10%")
        self.assertTrue(rows[1].undecided)
        self.assertFalse(rows[1].gate)
        self.assertEqual(rows[1].more_rounds, 78)
        rows = stats.summarize(tally, ["none", "hot"], "none", "lower", 20)
        self.assertEqual(rows[1].verdict, "no slower than 20%")
        self.assertFalse(rows[1].undecided or rows[1].gate)


if __name__ == "__main__":
    unittest.main()
