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

    def test_slower_than_allowed(self):
        self.assertTrue(stats.slower_than((1.06, 1.2), "lower", 5))
        self.assertFalse(stats.slower_than((1.04, 1.2), "lower", 5))
        self.assertTrue(stats.slower_than((0.5, 0.94), "higher", 5))


if __name__ == "__main__":
    unittest.main()
