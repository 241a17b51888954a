"""A round robin of bot levels: every pair plays a duplicate match on the same deals, and
the pairs' relative strengths become one rating per level.

The rating is the least-squares fit of ``rating[a] - rating[b] = logit(strength of a over
b)`` over every pair, on the Elo scale (400 points to a factor of ten in the odds), with
the levels' mean at 0. With every pair played once, the fit has a closed form: a level's
rating is the mean of its logits against all the levels, itself counted as 0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

#: Elo's scale: 400 rating points for odds of ten to one.
ELO = 400 / math.log(10)
#: A pair one level swept gives an infinite logit; a strength is held at least this far
#: from 0 and 1 (a sweep of a short match says "far stronger", not "infinitely"), so any
#: pair beyond 99% to 1% counts as 99% to 1%.
EDGE = 0.01


def pairs(levels: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of distinct levels, each once, in the order given."""
    return [(a, b) for i, a in enumerate(levels) for b in levels[i + 1:]]


def ratings(levels: Sequence[str],
            strength: Mapping[tuple[str, str], float | None]) -> dict[str, float] | None:
    """Each level's rating from ``strength[(a, b)]``, a's relative strength over b for
    every pair of ``pairs(levels)``; ``None`` if a pair has none (no hand was won).

    >>> r = ratings(["a", "b"], {("a", "b"): 0.75})
    >>> round(r["a"] - r["b"])
    191
    """
    n = len(levels)
    logit: dict[tuple[str, str], float] = {}
    for a, b in pairs(levels):
        p = strength.get((a, b))
        if p is None:
            return None
        p = min(1 - EDGE, max(EDGE, p))
        logit[(a, b)] = math.log(p / (1 - p))
        logit[(b, a)] = -logit[(a, b)]
    return {a: ELO * sum(logit.get((a, b), 0.0) for b in levels) / n for a in levels}
