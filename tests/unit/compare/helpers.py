# SPDX-License-Identifier: BSD-3-Clause
"""Shared by the unit tests: where the fixtures are."""

import os

HERE = os.path.dirname(os.path.realpath(__file__))
FIXTURES = os.path.normpath(os.path.join(HERE, "..", "..", "fixtures",
                                         "compare"))


def fixture(name):
    return os.path.join(FIXTURES, name)
