"""The rules lab: what a rule set is like under random play, measured with 95% intervals.

``bones lab`` plays millions of random hands (``bones.fast``) of a rule set, or of a grid of
rule sets that vary some options, and reports the leader's advantage, how often hands block
or tie, the points per hand, the hands per game and, with a pool, the chips each seat wins.
Random play is the point: these are properties of the rules when nobody plays well, a
baseline that bots and people can be compared against, not a claim about expert play.

The modules, in the order a run uses them: ``grid`` (``--vary`` into rule sets), ``running``
(chunks of seeded playouts over processes), ``metrics`` (counts and their intervals) and
``plotting`` (figures with error bars; it alone imports matplotlib).
"""

from __future__ import annotations

from bones.lab.grid import GridPoint, Variation, VaryError, expand, parse_vary
from bones.lab.metrics import Counts, Estimate, Metrics
from bones.lab.running import Row, run_lab

__all__ = [
    "Counts",
    "Estimate",
    "GridPoint",
    "Metrics",
    "Row",
    "Variation",
    "VaryError",
    "expand",
    "parse_vary",
    "run_lab",
]
