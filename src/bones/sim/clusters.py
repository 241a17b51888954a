"""Win rates of a duplicate match with an interval that counts each deal as one sample.

In a duplicate match every deal is played once per rotation of the seats, so the hands of
one deal are not independent: a deal whose tiles favour one seat is won by whichever bot
sits there, and that luck cancels inside the deal. Counting the hands as independent trials
(Wilson's interval over hands) ignores that, which is the reason engine testers score game
pairs rather than games (fishtest's "pentanomial" model). Here the win rate is the ratio of
wins to hands over all deals, and its variance is the ratio estimator's over deals (the
sampling units, Cochran's cluster sampling); the interval is Wilson's at the effective
number of trials that variance is worth (Kish's design effect), so it stays inside [0, 1].
When the bots' luck cancels within deals the interval is narrower than the per-hand one;
when it does not (the same deal goes one way in every rotation) it is wider.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bones.sim.stats import Z95, wilson, wilson_rate


@dataclass
class Clustered:
    """Running sums of (wins, hands) per deal: enough for the ratio and its variance."""

    deals: int = 0
    wins: int = 0
    hands: int = 0
    #: Sums over deals of wins squared, wins times hands, and hands squared (the variance).
    wins2: int = 0
    cross: int = 0
    hands2: int = 0

    def add(self, wins: int, hands: int) -> None:
        """Count one deal in which the bot won ``wins`` of its ``hands``."""
        self.deals += 1
        self.wins += wins
        self.hands += hands
        self.wins2 += wins * wins
        self.cross += wins * hands
        self.hands2 += hands * hands

    def variance(self) -> float | None:
        """The variance of the win rate estimated from the spread between deals, or None
        with fewer than two deals or no hands.

        >>> c = Clustered()
        >>> for w, h in ((1, 2), (2, 2), (0, 2), (1, 2)):
        ...     c.add(w, h)
        >>> round(c.variance(), 6)
        0.041667
        """
        if self.deals < 2 or self.hands == 0:
            return None
        p = self.wins / self.hands
        spread = self.wins2 - 2 * p * self.cross + p * p * self.hands2
        return max(0.0, spread) * self.deals / ((self.deals - 1) * self.hands * self.hands)

    def effective_trials(self) -> float | None:
        """The number of independent trials the deals are worth (hands / design effect),
        or None where it cannot be estimated (fewer than two deals, no spread between
        deals, or a rate of 0 or 1)."""
        variance = self.variance()
        if variance is None or variance <= 0.0 or self.wins in (0, self.hands):
            return None
        p = self.wins / self.hands
        return p * (1 - p) / variance

    def interval(self, z: float = Z95) -> tuple[float, float]:
        """The 95% interval of the win rate counting deals as the samples; where the
        deals cannot say (``effective_trials`` is None) it is the per-hand Wilson interval,
        the usual and here the more cautious reading."""
        trials = self.effective_trials()
        if trials is None:
            return wilson(self.wins, self.hands, z)
        return wilson_rate(self.wins / self.hands, trials, z)


def relative_strength(deals: Sequence[tuple[int, int, int, int]],
                      ) -> tuple[float, float] | None:
    """The relative strength a / (a + b) of two levels and its variance, their win rates a
    and b coming from ``deals`` of (first's wins, first's hands, second's wins, second's
    hands); the variance by the delta method over deals (each deal's pull on the share,
    linearised). None where it cannot be estimated (fewer than two deals, or no wins).

    With two seats it is the share of decisive hands, with the same variance as
    ``Clustered`` gives that share.
    """
    m = len(deals)
    wins_a = sum(d[0] for d in deals)
    hands_a = sum(d[1] for d in deals)
    wins_b = sum(d[2] for d in deals)
    hands_b = sum(d[3] for d in deals)
    if m < 2 or hands_a == 0 or hands_b == 0 or wins_a + wins_b == 0:
        return None
    a, b = wins_a / hands_a, wins_b / hands_b
    share = a / (a + b)
    da, db = b / (a + b) ** 2, -a / (a + b) ** 2
    pulls = [da * (wa - a * ha) / hands_a + db * (wb - b * hb) / hands_b
             for wa, ha, wb, hb in deals]
    return share, sum(x * x for x in pulls) * m / (m - 1)


def relative_interval(deals: Sequence[tuple[int, int, int, int]],
                      z: float = Z95) -> tuple[float, float] | None:
    """The 95% interval of ``relative_strength`` (normal, clipped to [0, 1]), or None
    where the deals cannot say: too few of them, or no spread between them (two deals
    that came out alike would otherwise claim a certainty of zero width)."""
    found = relative_strength(deals)
    if found is None or found[1] <= 0.0:
        return None
    share, variance = found
    half = z * math.sqrt(variance)
    return max(0.0, share - half), min(1.0, share + half)
