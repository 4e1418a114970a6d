# SPDX-License-Identifier: BSD-3-Clause
"""The entry: exit status per class of error, the version, and no
traceback ever; the command line as argparse reads it, with our own
messages."""

import contextlib
import io
import os
import re
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


USAGE_HINT = "Try 'pinrun-compare --help' for more information.\n"
REPO = os.path.normpath(os.path.join(os.path.dirname(
    os.path.abspath(cli.__file__)), "..", ".."))


class CommandLine(unittest.TestCase):
    """What argparse could change: each refusal is our one line (and the
    hint), exit 2; the command's words are never ours."""

    def refused(self, argv, message):
        status, out, err = entry(argv)
        self.assertEqual((status, out, err),
                         (2, "", "pinrun-compare: %s\n%s" %
                          (message, USAGE_HINT)))

    def test_unknown_option(self):
        self.refused(["--bogus", "true"], "unknown option '--bogus'")
        self.refused(["-x", "true"], "unknown option '-x'")
        self.refused(["--wamup", "1", "true"],
                     "unknown option '--wamup' (did you mean --warmup?)")
        self.refused(["--wamup=1", "true"],
                     "unknown option '--wamup' (did you mean --warmup?)")
        self.refused(["-r", "5", "true"], "unknown option '-r': "
                     "hyperfine's -r (--runs) is -n here: -n <n> rounds")

    def test_an_ambiguous_abbreviation_lists_every_match(self):
        self.refused(["--ex=x", "true"], "option '--ex' is ambiguous: "
                     "--export-csv, --export-json, --export-markdown")
        self.refused(["--f", "x", "true"], "option '--f' is ambiguous: "
                     "--fail-if-slower, --format, --from")

    def test_an_abbreviation_is_named_whole(self):
        given, command = cli.split_options(["--war", "0", "--qui", "--ru=2",
                                            "true"])
        self.assertEqual(given, [("warmup", "--warmup", "0"),
                                 ("quiet", "--quiet", None),
                                 ("runs", "--runs", "2")])
        self.assertEqual(command, ["true"])
        self.refused(["--ru"], "option '--runs' needs a value")
        self.refused(["--qui=1", "true"], "option '--quiet' takes no value")

    def test_missing_value(self):
        self.refused(["-n"], "option '-n' needs a value")
        self.refused(["-q", "--placement"],
                     "option '--placement' needs a value")

    def test_a_flag_takes_no_value_and_short_ones_do_not_bundle(self):
        self.refused(["--help=yes"], "option '--help' takes no value")
        self.refused(["--quiet=", "true"], "option '--quiet' takes no value")
        self.refused(["-iq", "true"], "unknown option '-iq'")
        self.refused(["-i=x", "true"], "unknown option '-i'")

    def test_a_value_is_the_next_word_whatever_it_is(self):
        given, command = cli.split_options(
            ["-p", "--bogus", "-p=hot", "-p-x", "--placement", "-q",
             "--plot=--x", "-w", "-1", "-b", "", "true"])
        self.assertEqual(given, [("placement", "-p", "--bogus"),
                                 ("placement", "-p", "=hot"),
                                 ("placement", "-p", "-x"),
                                 ("placement", "--placement", "-q"),
                                 ("plot", "--plot", "--x"),
                                 ("warmup", "-w", "-1"),
                                 ("baseline", "-b", "")])
        self.assertEqual(command, ["true"])

    def test_double_dash_ends_the_options(self):
        with_dash = cli.parse_args(["-n", "3", "--", "cmd", "-x"])
        without = cli.parse_args(["-n", "3", "cmd", "-x"])
        for o in with_dash, without:
            self.assertEqual((o.runs, o.command), (3, ["cmd", "-x"]))
        self.assertEqual(cli.split_options(["-q", "--", "-n", "--", "x"]),
                         ([("quiet", "-q", None)], ["-n", "--", "x"]))
        self.assertEqual(cli.split_options(["--", "--"]), ([], ["--"]))
        self.assertEqual(cli.split_options(["-"]), ([], ["-"]))

    def test_the_commands_words_are_never_ours(self):
        # Ours, an abbreviation argparse would call ambiguous, a flag
        # given a value, and "--": all the command's.
        words = ["true", "-n", "5", "--ex", "--help=yes", "--", "-V"]
        self.assertEqual(cli.split_options(["-q"] + words),
                         ([("quiet", "-q", None)], words))
        o = cli.parse_args(["-n", "2"] + words)
        self.assertEqual((o.runs, o.command, o.help, o.version),
                         (2, words, False, False))

    def test_repeatable_options(self):
        given, _ = cli.split_options(["-p", "none", "--placement=hot",
                                      "-pspread", "true"])
        self.assertEqual(given, [("placement", "-p", "none"),
                                 ("placement", "--placement", "hot"),
                                 ("placement", "-p", "spread")])
        o = cli.parse_args(["--from", "a.csv", "--fr=b.csv", "-p", "x",
                            "-p", "y"])
        self.assertEqual(o.from_files, ["a.csv", "b.csv"])
        self.assertEqual(o.from_file, "a.csv")
        self.assertEqual([p.label for p in o.placements], ["x", "y"])
        self.refused(["-p", "hot", "-p", " hot ", "true"],
                     "placement 'hot' given twice")
        self.refused(["-n", "3", "--runs=4", "true"],
                     "option '--runs' given twice")
        # Flags may be repeated.
        self.assertTrue(cli.parse_args(["-q", "--quiet", "true"]).quiet)

    def test_the_first_error_from_the_left_is_said(self):
        self.refused(["--bogus", "-n", "3", "-n", "4", "true"],
                     "unknown option '--bogus'")
        self.refused(["-n", "3", "-n", "4", "--ex", "true"],
                     "option '-n' given twice")

    def test_help_is_usage(self):
        for argv in ["--help"], ["-h"], ["--he"], ["-q", "-h", "true"]:
            self.assertEqual(entry(argv), (0, cli.USAGE, ""), argv)
        self.assertEqual(cli.PARSER.format_help(), cli.USAGE)

    def test_usage_lists_every_option(self):
        listed = re.findall(r"^ (?:(-\w), | {4})(--[\w-]+)", cli.USAGE, re.M)
        spellings = [o for o, _, _ in cli.OPTIONS]
        self.assertEqual(sorted(tuple(o for o in pair if o)
                                for pair in listed), sorted(spellings))

    def test_the_completion_knows_the_same_options(self):
        with open(os.path.join(REPO, "completion", "pinrun-compare.bash"),
                  encoding="utf-8") as f:
            text = f.read()
        words = re.search(r'\[\[ \$cur == -\* \]\]; then\s+'
                          r'_pinrun_compare_reply "([^"]*)"', text)
        self.assertIsNotNone(words)
        every = [o for spellings, _, _ in cli.OPTIONS for o in spellings]
        self.assertEqual(words.group(1).split(), every + ["--"])
        case = re.search(r"_pinrun_compare_takes_value\(\)\n\{\n"
                         r"    case \$1 in\n(.*?)\)\n", text, re.S)
        self.assertIsNotNone(case)
        patterns = case.group(1).replace("\\", " ").replace("|", " ")
        takes = set()
        for p in patterns.split():
            m = re.fullmatch(r"-\[(\w+)\]", p)
            takes |= {"-" + c for c in m.group(1)} if m else {p}
        self.assertEqual(takes, {o for spellings, _, t in cli.OPTIONS
                                 if t for o in spellings})


if __name__ == "__main__":
    unittest.main()
