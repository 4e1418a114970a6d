# SPDX-License-Identifier: BSD-3-Clause
"""What the reports say beside the table: the summary line and the
verdict from the same statistic, and the line on why the medians' ratio
may differ from the paired one."""

import math
import unittest

from pinrun_compare import report, stats


def meta(better="lower", pct=None):
    return report.Meta(["true"], None, None, None, better, None, 8, 1,
                       "none", None, pct, {})


def row(label, med, center=None, ci=None, verdict="", decision=None):
    r = stats.Row(label, "", 8, 0, med, med, med, 0.0)
    if center is None:
        r.verdict = "baseline"
    else:
        r.estimate = stats.Estimate(8, math.log(center),
                                    tuple(map(math.log, ci)))
        r.verdict, r.decision = verdict, decision
    return r


class Summary(unittest.TestCase):
    def test_the_verdict_rides_with_the_ratio(self):
        rows = [row("none", 7.104), row("spread", 7.0, 0.862, (0.7, 1.2),
                                        "no significant difference")]
        self.assertEqual(report.summary_lines(rows, meta()), [
            "spread ran 1.160 x faster than none [0.833, 1.429]: no "
            "significant difference"])

    def test_a_margin_s_answer_too(self):
        rows = [row("none", 100.0), row("hot", 49.0, 0.495, (0.486, 0.504),
                                        "slower than 10%", stats.SLOWER)]
        self.assertEqual(report.summary_lines(rows, meta("higher", 10)), [
            "hot ran 2.020 x slower than none [1.984, 2.058]: slower "
            "than 10%"])

    def test_medians_that_seem_to_say_otherwise_are_explained(self):
        # The case: a median of 8.753 s against 7.104 s, and a
        # paired ratio of 0.979.
        rows = [row("none", 7.104), row("spread", 8.753, 0.979,
                                        (0.95, 1.01),
                                        "no significant difference")]
        lines = report.summary_lines(rows, meta())
        self.assertEqual(lines[-1], "(the ratio pairs the runs round by "
                         "round; the medians' ratio mixes rounds a drift of "
                         "the machine slowed with rounds it did not, so the "
                         "two may differ)")
        rows[1].median = 7.0  # 0.985, inside the interval: nothing to say
        self.assertEqual(len(report.summary_lines(rows, meta())), 1)


if __name__ == "__main__":
    unittest.main()
