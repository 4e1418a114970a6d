# SPDX-License-Identifier: BSD-3-Clause
"""--sequential, proven by simulation: on A/A data (no difference) with a
machine that drifts, a wrong "slower" stays at or under 5% over 1000
comparisons; a true 15% slowdown is found in at least 95%; and looking
as often without sharing the 5% among the looks would not be honest.
Seeded, so the figures are the same every time (they are in the man
page, STATISTICS)."""

import math
import random
import unittest

from pinrun_compare import stats

COMPARISONS = 1000
BUDGET = 100  # --max-rounds' default


def drifting(rng, rounds, effect):
    """The per-round log ratios placement / baseline of a machine whose
    speed wanders (a random walk of 2% a run, between the two runs of a
    round too), with 5% noise in every run and, one run in 20, a
    neighbour's burst of up to 40% more time: the shape of the records in
    tests/fixtures/compare/results-*.csv, where rounds drift together."""
    logs = []
    speed = 0.0
    for _ in range(rounds):
        base = speed + rng.gauss(0, 0.05)
        speed += rng.gauss(0, 0.02)
        if rng.random() < 0.05:
            base += rng.uniform(0, 0.4)
        place = speed + rng.gauss(0, 0.05) + math.log(effect)
        speed += rng.gauss(0, 0.02)
        if rng.random() < 0.05:
            place += rng.uniform(0, 0.4)
        logs.append(place - base)
    return logs


def simulate(effect, pct, seed, answer=stats.sequential_answer):
    """{answer: count} over COMPARISONS and the mean rounds used."""
    rng = random.Random(seed)
    counts = {stats.NO_SLOWER: 0, stats.SLOWER: 0, stats.OPEN: 0}
    rounds = 0
    for _ in range(COMPARISONS):
        said, n, _ = answer(drifting(rng, BUDGET, effect), "lower", pct,
                            BUDGET)
        counts[said] += 1
        rounds += n
    return counts, rounds / COMPARISONS


def unshared(logs, better, pct, max_rounds):
    """The same looks, each at 95%: what a gate that peeks without
    paying for it would say."""
    answer, n = stats.OPEN, 0
    for n in stats.look_rounds(max_rounds):
        e = stats.signed_rank(logs[:n])
        answer = stats.decide(e.ci, better, pct)
        if answer != stats.OPEN:
            break
    return answer, n, None


class Sequential(unittest.TestCase):
    def test_the_looks(self):
        self.assertEqual(stats.look_rounds(100),
                         [10, 15, 22, 33, 50, 75, 100])
        self.assertEqual(stats.look_rounds(6), [6])
        self.assertEqual(stats.look_rounds(12), [10, 12])
        self.assertAlmostEqual(stats.look_confidence([10, 15]), 0.975)

    def test_no_difference_against_no_margin(self):
        # The strictest gate (0%): an A/A comparison may only end "slower"
        # by chance, at most 5% (2.5% in theory: one side of 95%).
        counts, rounds = simulate(1.0, 0, 2027)
        self.assertLessEqual(counts[stats.SLOWER], 0.05 * COMPARISONS,
                             counts)
        self.assertEqual((counts, rounds), ({stats.NO_SLOWER: 17,
                                             stats.SLOWER: 21,
                                             stats.OPEN: 962}, 97.702))

    def test_no_difference_against_10_percent(self):
        counts, rounds = simulate(1.0, 10, 2028)
        self.assertLessEqual(counts[stats.SLOWER], 0.05 * COMPARISONS,
                             counts)
        self.assertGreaterEqual(counts[stats.NO_SLOWER], 0.95 * COMPARISONS)
        self.assertEqual((counts, rounds), ({stats.NO_SLOWER: 1000,
                                             stats.SLOWER: 0,
                                             stats.OPEN: 0}, 15.218))

    def test_a_15_percent_slowdown_is_found(self):
        counts, rounds = simulate(1.15, 10, 2029)
        self.assertGreaterEqual(counts[stats.SLOWER], 0.95 * COMPARISONS,
                                counts)
        self.assertEqual(counts[stats.NO_SLOWER], 0, counts)
        self.assertEqual((counts, rounds), ({stats.NO_SLOWER: 0,
                                             stats.SLOWER: 989,
                                             stats.OPEN: 11}, 41.69))

    def test_peeking_without_sharing_is_not_honest(self):
        # The same looks at 95% each: 96 wrong "slower" in 1000, far more
        # than the 2.5% one side of 95% promises (and above 5%), which is
        # why the looks share it.
        counts, _ = simulate(1.0, 0, 2027, unshared)
        self.assertGreater(counts[stats.SLOWER], 0.05 * COMPARISONS, counts)


if __name__ == "__main__":
    unittest.main()
