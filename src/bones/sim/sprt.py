"""Wald's sequential probability ratio test on decisive hands, as engine testers use it:
stop as soon as the evidence says one bot beats the other by the margin, or does not.

Each decisive hand (one of the two bots' sides won) is a Bernoulli trial, 1 when the first
bot won. H0: p = ``p0``; H1: p = ``p1``. With error rates alpha and beta the test accepts H1
when the log-likelihood ratio reaches ln((1 - beta) / alpha) and H0 when it falls to
ln(beta / (1 - alpha)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

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

    def verdict(self, wins: int, losses: int) -> Verdict:
        """``"H1"`` (the first bot is stronger by the margin), ``"H0"``, or ``"continue"``."""
        low, high = self.bounds
        value = self.llr(wins, losses)
        if value >= high:
            return "H1"
        if value <= low:
            return "H0"
        return "continue"
