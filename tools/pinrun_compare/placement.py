"""A -p value: a placement's label and pinrun's words."""

import shlex
from dataclasses import dataclass

from .common import UsageError


@dataclass
class Placement:
    """A -p value: its name in the reports, pinrun's words (None for
    none) and the CPUs it gives the command (None when unknown)."""
    label: str
    words: list | None
    cpus: str | None = None


def parse_placement(text):
    """A -p value: its label and pinrun's words (None for none)."""
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
    if "--" in words:
        raise UsageError("invalid placement '%s': '--' would end "
                         "pinrun's options" % label)
    if not words[0].startswith("-"):
        words[0] = "--" + words[0]
    return Placement(label, words)
