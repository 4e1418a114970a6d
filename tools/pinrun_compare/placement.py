# SPDX-License-Identifier: BSD-3-Clause
"""A -p value: a placement's label and pinrun's words."""

import difflib
import shlex
import shutil
from dataclasses import dataclass

from .common import UsageError


@dataclass
class Placement:
    """A -p value: its name in the reports, pinrun's words (None for
    none) and the CPUs it gives the command (None when unknown)."""
    label: str
    words: list | None
    cpus: str | None = None


# pinrun's options that can begin a placement without their dashes, the
# policies first: -p hot is pinrun --hot.
POLICIES = ("hot", "same-chip", "same-numa", "same-cache", "spread", "cpus")
OPTION_WORDS = POLICIES + ("smt", "no-smt", "all", "physical", "near", "mem",
                           "follow", "threads", "wait-all", "share", "kind",
                           "no-cache", "topology")
BRIEFLY = ("none, hot, same-chip, same-numa, same-cache, spread, 'cpus "
           "<list>', with pinrun's options after them ('spread --follow')")


# -p auto: every one of these this machine offers, each set of CPUs once.
AUTO = ["auto"]
AUTO_CANDIDATES = ("none", "hot", "same-cache", "same-numa", "same-chip",
                   "spread", "spread --smt")


def check_words(text, words):
    """Refuse, with what was meant, a -p value that is not a placement:
    -p=hot, a misspelt policy, or hyperfine's -p (--prepare) command."""
    if text.startswith("="):
        raise UsageError("invalid placement '%s': write -p %s or "
                         "--placement=%s; placements: %s" %
                         (text, text[1:], text[1:], BRIEFLY))
    first = words[0]
    if first.startswith("-") or first.split("=")[0] in OPTION_WORDS:
        return
    if shutil.which(first) is not None or len(words) > 1:
        raise UsageError("invalid placement '%s': -p is --placement here; "
                         "hyperfine's -p is --prepare: --prepare '%s'" %
                         (text, text.replace("'", "'\\''")))
    close = difflib.get_close_matches(first.split("=")[0],
                                      ("none",) + OPTION_WORDS, n=1)
    hint = " (did you mean %s?)" % close[0] if close else ""
    raise UsageError("invalid placement '%s'%s; placements: %s" %
                     (text, hint, BRIEFLY))


def parse_placement(text, given=True):
    """A -p value: its label and pinrun's words (None for none). given:
    it comes from the command line (not a record), and is checked."""
    try:
        words = shlex.split(text)
    except ValueError:
        raise UsageError("invalid placement '%s': unbalanced quotes" %
                         text) from None
    if not words:
        raise UsageError("empty placement: use none for the plain command")
    label = " ".join(words)
    if words[0] == "none":
        if len(words) > 1:
            raise UsageError("invalid placement '%s': none takes no "
                             "options" % label)
        return Placement(label, None)
    if words == AUTO:
        return Placement(label, AUTO)
    if given:
        check_words(text, words)
    if "--" in words:
        raise UsageError("invalid placement '%s': '--' would end "
                         "pinrun's options" % label)
    if not words[0].startswith("-"):
        words[0] = "--" + words[0]
    return Placement(label, words)
