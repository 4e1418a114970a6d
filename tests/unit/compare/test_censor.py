# SPDX-License-Identifier: BSD-3-Clause
"""Timed-out runs count as at least the timeout; failed runs make the
verdict "cannot decide"; never "faster" from the survivors alone."""

import unittest

from pinrun_compare import record, stats


def run(rnd, label, figure=None, timeout=None, failed=False):
    r = record.Run(None, rnd, "measure", label)
    if timeout is not None:
        r.fail("killed after the timeout", "timeout")
        r.wall_s = timeout
    elif failed:
        r.fail("", "1")
        r.wall_s = 1.0
    else:
        r.wall_s = r.figure = figure
    return r


def rows(runs):
    tally = stats.Tally(["none", "hot"])
    for r in runs:
        tally.add(r)
    return {r.label: r for r in stats.summarize(tally, ["none", "hot"],
                                                "none", "lower", None)}


class Censoring(unittest.TestCase):
    def test_always_timed_out_is_slower(self):
        r = rows([x for k in range(1, 9) for x in
                  (run(k, "none", 0.01 * (1 + k / 100)),
                   run(k, "hot", timeout=0.3))])["hot"]
        self.assertEqual(r.verdict, "slower")
        self.assertFalse(r.undecided)
        self.assertEqual(r.timed_out, 8)

    def test_fast_survivors_never_say_faster(self):
        runs = []
        for k in range(1, 25):
            runs.append(run(k, "none", 1.0 + k / 1000))
            runs.append(run(k, "hot", timeout=2.0) if k % 3 == 1
                        else run(k, "hot", 0.5 + k / 1000))
        r = rows(runs)["hot"]
        self.assertEqual(r.verdict, "cannot decide")
        self.assertTrue(r.undecided)
        self.assertEqual(stats.shortfall(r), "cannot decide: it timed out "
                         "in 8 rounds: counted as at least the timeout, its "
                         "ratio is a lower bound, which says no significant "
                         "difference, not slower")

    def test_a_timed_out_baseline_leaves_only_faster(self):
        runs = []
        for k in range(1, 13):
            runs.append(run(k, "none", timeout=2.0) if k % 2
                        else run(k, "none", 1.0 + k / 1000))
            runs.append(run(k, "hot", 1.0 + k / 999))
        r = rows(runs)["hot"]
        self.assertEqual(r.verdict, "cannot decide")
        self.assertIn("the baseline timed out in 6 rounds", r.censor)

    def test_a_failed_run_makes_it_undecided(self):
        runs = []
        for k in range(1, 13):
            runs.append(run(k, "none", 1.0 + k / 1000))
            runs.append(run(k, "hot", failed=True) if k == 5
                        else run(k, "hot", 0.5 + k / 1000))
        r = rows(runs)["hot"]
        self.assertEqual(r.verdict, "cannot decide")
        self.assertEqual(r.censor, "1 round with a failed run of it or the "
                         "baseline: their figures are unknown (-i counts a "
                         "run whatever its exit status)")

    def test_a_metric_timeout_is_a_failed_run(self):
        runs = []
        for k in range(1, 9):
            a = run(k, "none", 5.0)
            a.wall_s = 7.0  # a metric's figure is not the wall time
            runs += [a, run(k, "hot", timeout=2.0)]
        r = rows(runs)["hot"]
        # No bound: not a pair, so no interval at all.
        self.assertEqual(r.estimate.pairs, 0)
        self.assertEqual(r.verdict, "too few runs (need 6)")


if __name__ == "__main__":
    unittest.main()
