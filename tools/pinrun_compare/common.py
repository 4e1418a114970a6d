# SPDX-License-Identifier: BSD-3-Clause
"""What every module shares: the name, the limits, the exit status and
the errors."""

import os
import re
import statistics

PROG = "pinrun-compare"
CONFIDENCE = 0.95
# The normal distribution's 97.5% quantile (R's qnorm(0.975) is
# 1.959963984540054, one unit in the last place away).
Z975 = statistics.NormalDist().inv_cdf(1 - (1 - CONFIDENCE) / 2)
MAX_RUNS = 100000
# The signed-rank interval is exact below this many pairs (as R's).
EXACT_BELOW = 50
# Log ratios closer than this are the same ratio: a record keeps figures
# to 10 significant digits.
EQUAL_LOGS = 1e-9
# The comparison stops when a placement's first runs all fail (without -i).
FIRST_RUNS = 3
DEFAULT_PLACEMENTS = ["none", "hot", "same-chip", "spread"]
# A command stopped after its metric: SIGINT, then SIGTERM, then SIGKILL.
STOP_TERM_S = 2.0
STOP_KILL_S = 5.0
CSV_FIELDS = ["seq", "round", "phase", "placement", "cpus", "status", "exit",
              "wall_s", "user_s", "sys_s", "maxrss_kb", "figure", "better",
              "host", "vcsw", "ivcsw", "minflt", "majflt", "migrations",
              "note"]
# The counters of a run, as the reports name them.
COUNTERS = (("vcsw", "csw"), ("ivcsw", "icsw"), ("minflt", "minflt"),
            ("majflt", "majflt"), ("migrations", "migr"))
NEEDED_COLUMNS = ("round", "phase", "placement", "status", "figure", "better")
FORMATS = ("table", "markdown", "csv", "json")

# The files written, by the option that names them.
OUTPUT_OPTIONS = (("output", "--output"), ("export_csv", "--export-csv"),
                  ("export_json", "--export-json"),
                  ("export_markdown", "--export-markdown"),
                  ("plot", "--plot"))

# The exit status, one per class of outcome (pinrun-compare(1), EXIT
# STATUS). 1 means only "slower than allowed": a CI job gates on it.
EXIT_OK = 0
EXIT_SLOWER = 1
EXIT_USAGE = 2
EXIT_FAILED_RUNS = 3
EXIT_UNDECIDED = 4
EXIT_RECORD = 5
EXIT_OUTPUT = 6
EXIT_INTERNAL = 70  # sysexits.h's EX_SOFTWARE

class CompareError(Exception):
    """pinrun-compare cannot go on: one line on stderr, and the exit
    status of its class."""
    status = EXIT_USAGE


class UsageError(CompareError):
    """A bad option, argument, placement or command."""


class RecordError(CompareError):
    """A --from file that is not a pinrun-compare record."""
    status = EXIT_RECORD

    def __init__(self, path, line, message):
        where = "%s: line %d" % (path, line) if line else path
        super().__init__("%s: %s" % (where, message))


class OutputError(CompareError):
    """A file that cannot be written (or, verb "read", a --from file
    that cannot be read)."""

    def __init__(self, verb, path, err):
        super().__init__("cannot %s '%s': %s" %
                         (verb, path, getattr(err, "strerror", None) or err))
        self.status = EXIT_RECORD if verb == "read" else EXIT_OUTPUT


def version():
    """The VERSION file: beside the package when installed, at the root
    of the tree when run from it."""
    pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    paths = [os.path.join(pkg_parent, "VERSION")]
    if os.path.basename(pkg_parent) == "tools":
        paths.append(os.path.join(pkg_parent, "..", "VERSION"))
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read().strip()
        except FileNotFoundError:
            continue
        except OSError as e:
            raise OutputError("read", path, e) from None
        if not re.fullmatch(r"[0-9]+(\.[0-9]+)*[0-9A-Za-z.~+-]*", text):
            raise CompareError("invalid version in '%s'" % path)
        return text
    raise CompareError("cannot find the VERSION file: looked at %s" %
                       ", ".join(os.path.normpath(p) for p in paths))
