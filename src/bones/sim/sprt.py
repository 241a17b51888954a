"""Wald's sequential probability ratio test on decisive hands, as engine testers use it:
stop as soon as the evidence says one bot beats the other by the margin, or does not.

Each decisive hand (one of the two bots' sides won) is a Bernoulli trial, 1 when the first
bot won. H0: p = ``p0``; H1: p = ``p1``. With error rates alpha and beta the test accepts H1
when the log-likelihood ratio reaches ln((1 - beta) / alpha) and H0 when it falls to
ln(beta / (1 - alpha)).

A duplicate match's hands are not independent trials, though: the rotations of one deal
share its luck. So the arena reads the ratio over deals: the generalised SPRT engine
testers use for game pairs (Van den Bergh's normal approximation, as in fishtest,
``llr_normal``), which takes the variance of the share from the spread between deals. Where
luck cancels within a deal it reaches a verdict sooner, and where it does not it is rightly
slower than the per-hand test. The share it tests is the arena's relative strength
(``ArenaTally.sprt_llr``), which with two seats is the share of decisive hands and, unlike
that share, stays 50% for equal bots when one holds more seats than the other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from bones.sim.clusters import Clustered

Verdict = Literal["H1", "H0", "continue"]


@dataclass(frozen=True, slots=True)
class Sprt:
    """The test's settings; ``llr`` and ``verdict`` read a count of wins and losses."""

    p0: float = 0.5
    p1: float = 0.55
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not 0 < self.p0 < self.p1 < 1:
            raise ValueError("the SPRT needs 0 < p0 < p1 < 1")

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) bounds of the log-likelihood ratio."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def llr(self, wins: int, losses: int) -> float:
        """Log-likelihood ratio of H1 against H0 after ``wins`` and ``losses``.

        >>> round(Sprt().llr(60, 40), 3)
        1.504
        """
        return (wins * math.log(self.p1 / self.p0)
                + losses * math.log((1 - self.p1) / (1 - self.p0)))

    def llr_deals(self, deals: Clustered) -> float:
        """The log-likelihood ratio of H1 against H0 from the first bot's wins among the
        decisive hands of each deal: that of a normal share with the variance the deals
        show, (p1 - p0)(2 p - p0 - p1) / (2 var). Where the deals cannot give a variance
        (fewer than two, none spread, a share of 0 or 1) it is the per-hand ``llr``.

        With one hand per deal it is close to the per-hand ratio:

        >>> deals = Clustered()
        >>> for won in [1] * 60 + [0] * 40:
        ...     deals.add(won, 1)
        >>> round(Sprt().llr_deals(deals), 1), round(Sprt().llr(60, 40), 1)
        (1.5, 1.5)
        """
        variance = deals.variance()
        if variance is None or deals.effective_trials() is None:
            return self.llr(deals.wins, deals.hands - deals.wins)
        return self.llr_normal(deals.wins / deals.hands, variance)

    def llr_normal(self, p: float, variance: float) -> float:
        """The log-likelihood ratio of H1 against H0 for an estimate ``p`` of a share that
        is normal with ``variance``: (p1 - p0)(2 p - p0 - p1) / (2 var).

        >>> round(Sprt().llr_normal(0.55, 0.0005), 3)
        2.5
        """
        return (self.p1 - self.p0) * (2 * p - self.p0 - self.p1) / (2 * variance)

    def verdict(self, wins: int, losses: int) -> Verdict:
        """``"H1"`` (the first bot is stronger by the margin), ``"H0"``, or ``"continue"``."""
        return self.judge(self.llr(wins, losses))

    def judge(self, llr: float) -> Verdict:
        """The verdict a log-likelihood ratio reaches."""
        low, high = self.bounds
        if llr >= high:
            return "H1"
        if llr <= low:
            return "H0"
        return "continue"
