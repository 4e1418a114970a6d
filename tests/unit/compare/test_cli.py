# SPDX-License-Identifier: BSD-3-Clause
"""The entry: exit status per class of error, the version, and no
traceback ever."""

import contextlib
import io
import os
import tempfile
import unittest
from unittest import mock

from pinrun_compare import cli, common


def entry(argv):
    err = io.StringIO()
    out = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = cli.entry(argv)
    return status, out.getvalue(), err.getvalue()


class Entry(unittest.TestCase):
    def test_a_bug_is_an_internal_error_not_a_traceback(self):
        with mock.patch.object(cli, "main",
                               side_effect=ZeroDivisionError("x\x1b[2J")):
            status, out, err = entry(["--from", "x.csv"])
        self.assertEqual(status, common.EXIT_INTERNAL)
        self.assertEqual(status, 70)
        self.assertEqual(out, "")
        self.assertRegex(err, r"^pinrun-compare: internal error at "
                         r"[a-z_.]+:[0-9]+: ZeroDivisionError: x\\x1b\[2J "
                         r"\(please report it\)\n$")
        self.assertNotIn("Traceback", err)

    def test_usage_exits_2(self):
        status, _, err = entry(["--runs", "0", "true"])
        self.assertEqual(status, 2)
        self.assertTrue(err.startswith("pinrun-compare: invalid number of "
                                       "runs '0'"), err)

    def test_bad_record_exits_5(self):
        with tempfile.NamedTemporaryFile("w", suffix=".csv") as f:
            f.write("round,phase\n")
            f.flush()
            status, _, err = entry(["--from", f.name])
        self.assertEqual(status, 5)
        self.assertEqual(err, "pinrun-compare: %s: not a pinrun-compare "
                         "CSV: no column placement, status, figure, "
                         "better\n" % f.name)

    def test_version_is_the_version_file(self):
        here = os.path.dirname(os.path.abspath(cli.__file__))
        with open(os.path.join(here, "..", "..", "VERSION"),
                  encoding="utf-8") as f:
            want = f.read().strip()
        status, out, _ = entry(["--version"])
        self.assertEqual((status, out), (0, "pinrun-compare %s\n" % want))


if __name__ == "__main__":
    unittest.main()
