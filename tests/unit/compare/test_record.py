# SPDX-License-Identifier: BSD-3-Clause
"""Records: the context in comment lines, still a CSV; old records read;
figures checked; written back unchanged."""

import csv
import os
import tempfile
import unittest

from helpers import FIXTURES, fixture
from pinrun_compare import record, report


def make_record(path):
    rec = record.LiveRecord(path, {"command": ["make", "-j2"], "unit": "s",
                                   "placements": {"none": None,
                                                  "hot": ["--hot"]}})
    for seq, label in ((1, "none"), (2, "hot")):
        run = record.Run(seq, 1, "measure", label)
        run.wall_s = run.figure = 0.5 * seq
        rec.add(run)
    rec.close({"interrupted": "SIGINT", "stopped": None, "runs_made": 2,
               "runs_planned": 20})
    return rec


class Records(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "runs.csv")

    def tearDown(self):
        self.tmp.cleanup()

    def test_context_reads_back(self):
        make_record(self.path)
        f = record.FileRecord(self.path)
        runs = [run for _, run in f.read()]
        self.assertEqual([r.placement for r in runs], ["none", "hot"])
        self.assertEqual(f.info["command"], ["make", "-j2"])
        self.assertEqual(f.info["unit"], "s")
        self.assertEqual(f.info["placements"]["hot"], ["--hot"])
        self.assertEqual(f.info["end"]["interrupted"], "SIGINT")

    def test_a_csv_reader_skipping_comments_reads_the_runs(self):
        make_record(self.path)
        with open(self.path, encoding="utf-8") as f:
            rows = list(csv.DictReader(line for line in f
                                       if not line.startswith("#")))
        self.assertEqual([r["placement"] for r in rows], ["none", "hot"])
        self.assertEqual(rows[1]["figure"], "1")

    def test_written_back_unchanged(self):
        make_record(self.path)
        f = record.FileRecord(self.path)
        list(f.read())
        with open(self.path, encoding="utf-8") as g:
            self.assertEqual("".join(report.report_csv(f)), g.read())

    def test_old_records_read_and_write_back_unchanged(self):
        names = [n for n in os.listdir(FIXTURES) if n.endswith(".csv")
                 and not n.startswith(("bad-", "twice", "wilcox"))]
        self.assertGreater(len(names), 10)
        for name in names:
            f = record.FileRecord(fixture(name))
            self.assertTrue(list(f.read()), name)
            self.assertEqual(f.info, {}, name)
            with open(fixture(name), encoding="utf-8", newline="") as g:
                self.assertEqual("".join(report.report_csv(f)), g.read(),
                                 name)

    def test_line_numbers_count_the_comment_lines(self):
        with open(self.path, "w", encoding="utf-8") as f:
            f.write("# pinrun-compare record\n# unit: \"s\"\n"
                    "round,phase,placement,status,figure,better\n"
                    "1,measure,none,ok,1_000,lower\n")
        with self.assertRaises(record.RecordError) as cm:
            list(record.FileRecord(self.path).read())
        self.assertEqual(str(cm.exception), "%s: line 4: invalid figure "
                         "'1_000'" % self.path)


class Figures(unittest.TestCase):
    def test_only_plain_finite_positive_decimals(self):
        for text in ("1_000", "\u0661\u0662\u0663", "inf", "nan", "1e309",
                     "Infinity", "0x10", "-1", "0", "", "1" * 65,
                     "\uff11"):
            self.assertIsNone(record.parse_figure(text), text)
        for text, value in (("12", 12.0), ("+.5e-3", 0.0005),
                            ("1.7e308", 1.7e308), ("3.", 3.0)):
            self.assertEqual(record.parse_figure(text), value, text)


if __name__ == "__main__":
    unittest.main()


class FingerprintDiffers(unittest.TestCase):
    """The keys that keep two records from being compared: not the load
    nor the frequency."""

    def test_the_keys_that_differ_by_name(self):
        from pinrun_compare.record import fingerprint_differs
        a = {"kernel": "6.1", "load": "1 1 1", "smt": "on", "thp": "never",
             "numa_balancing": "0", "placements": {"hot": {
                 "cpus": "0", "governor": "performance", "mhz": 2000,
                 "smt_siblings_online": 1}}}
        b = dict(a, load="9 9 9", smt="off", placements={"hot": dict(
            a["placements"]["hot"], mhz=800, cpus="1")})
        self.assertEqual(fingerprint_differs(a, a), [])
        self.assertEqual(fingerprint_differs(a, b), ["SMT", "CPUs"])
        self.assertEqual(fingerprint_differs(a, None), [])
