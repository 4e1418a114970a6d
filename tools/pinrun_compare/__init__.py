# SPDX-License-Identifier: BSD-3-Clause
"""pinrun-compare: does this placement make my workload faster?

Runs a command under several pinrun placements, interleaved in rounds so
that the drift of a shared machine hits every placement alike, and
compares each with a baseline round by round: the Hodges-Lehmann estimate
of the per-round ratios and the Wilcoxon signed-rank confidence interval,
then a verdict. Every run goes to a CSV record as it is made; the
reports, the plot and --from are read from records. Python 3's standard
library only; the signed-rank statistics are implemented here (no library
has that interval). pinrun-compare(1) is the manual.

Modules: cli (options, entry), session (a live or recorded comparison),
runner (one run), record (the CSV), stats, report, plot, paths (writing
files), placement, common.
"""
