# SPDX-License-Identifier: BSD-3-Clause
"""Progress records: whole when they fit, else each "; " part from a row
of its own, wrapped at spaces, indented under the text; the rows give the
record back."""

import unittest

from pinrun_compare import session

INDENT = " " * len("pinrun-compare: ")


def joined(rows):
    return " ".join([rows[0]] + [r[len(INDENT):] for r in rows[1:]])


class Rows(unittest.TestCase):
    def test_fits(self):
        text = "pinrun-compare: round 1 of 2, 0:00 elapsed"
        self.assertEqual(session.rows(text, 80), [text])

    def test_parts_and_words(self):
        text = ("pinrun-compare: round 4 of 11, 0:12 elapsed, about 0:21 "
                "left; ratio to none: " +
                ", ".join("p%d 1.0%02d" % (i, i) for i in range(20)) +
                "; failed: none 1")
        for width in (40, 50, 80, 120):
            rows = session.rows(text, width)
            self.assertTrue(all(len(r) <= width for r in rows), rows)
            self.assertTrue(all(r.startswith(INDENT) and r[len(INDENT)] != " "
                                for r in rows[1:]), rows)
            self.assertEqual(joined(rows), text)
            # Each part starts a row.
            starts = [r.strip() for r in rows]
            self.assertTrue(any(s.startswith("ratio to none: p0 ")
                                for s in starts), rows)
            self.assertIn("failed: none 1", starts)

    def test_a_wide_word_stands_alone(self):
        word = "x" * 100
        text = "pinrun-compare: round 1 of 1; " + word
        rows = session.rows(text, 60)
        self.assertEqual(rows, ["pinrun-compare: round 1 of 1;", INDENT + word])


if __name__ == "__main__":
    unittest.main()
