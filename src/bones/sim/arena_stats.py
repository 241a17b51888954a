"""Counting a duplicate match: per bot level, hands played and won by its sides, points, and
the head-to-head record of the first two levels for the SPRT.

A side counts for a level when every seat of the side is that level's bot, so a partnership
is one trial per hand, not two (counting seats would halve the width of the interval).
Each level's results are also kept deal by deal, because a deal's rotations are one sample
of luck, not several: the reported interval counts deals (``bones.sim.clusters``); the
per-hand Wilson interval is reported beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bones.engine.rules import Rules
from bones.sim.arena import DealOutcome
from bones.sim.clusters import Clustered, relative_interval, relative_strength
from bones.sim.sprt import Sprt
from bones.sim.stats import wilson


@dataclass
class LevelStats:
    """One level's side-hands: how many it played, won, tied, and its points."""

    level: str
    ties: int = 0
    points: int = 0
    #: Moves asked of an outside bot, and how many the referee made for it instead.
    asked: int = 0
    played_for: int = 0
    #: Wins and hands, summed per deal.
    by_deal: Clustered = field(default_factory=Clustered)

    @property
    def hands(self) -> int:
        return self.by_deal.hands

    @property
    def wins(self) -> int:
        return self.by_deal.wins

    def json(self) -> dict[str, Any]:
        return {"level": self.level, "hands": self.hands, "wins": self.wins, "ties": self.ties,
                "win_rate": _ratio(self.wins, self.hands),
                "interval": list(self.by_deal.interval()),
                "interval_per_hand": list(wilson(self.wins, self.hands)),
                "points_per_hand": _ratio(self.points, self.hands),
                "moves_asked": self.asked, "moves_played_for": self.played_for}


@dataclass
class ArenaTally:
    """Running totals of a match."""

    rules: Rules
    levels: tuple[str, ...]
    deals: int = 0
    hands: int = 0
    blocked: int = 0
    stats: dict[str, LevelStats] = field(default_factory=dict)
    #: Decisive hands between the first two levels (per side count) and the first level's
    #: wins among them, summed per deal.
    head_to_head_by_deal: Clustered = field(default_factory=Clustered)
    #: Per deal, the first two levels' (wins, hands, wins, hands): for the relative strength.
    firsts_by_deal: list[tuple[int, int, int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for level in self.levels:
            self.stats.setdefault(level, LevelStats(level))

    def add(self, outcome: DealOutcome) -> None:
        self.deals += 1
        rules = self.rules
        wins = dict.fromkeys(self.levels, 0)
        hands = dict.fromkeys(self.levels, 0)
        decisive = [0, 0]
        for (seats, _), played in zip(outcome.plays, outcome.played_for, strict=True):
            for level, (made_for, asked) in zip(seats, played, strict=True):
                self.stats[level].played_for += made_for
                self.stats[level].asked += asked
        for seats, result in outcome.plays:
            self.hands += 1
            self.blocked += result.end == "blocked"
            for side in range(rules.sides):
                levels = {seats[s] for s in rules.seats_of(side)}
                if len(levels) != 1:
                    continue
                level = levels.pop()
                stats = self.stats[level]
                hands[level] += 1
                stats.points += result.points[side]
                if result.winner == side:
                    wins[level] += 1
                elif result.winner is None:
                    stats.ties += 1
            if len(self.levels) >= 2 and result.winner is not None:
                # a side counts for a level only when every seat of it is that level's
                winners = {seats[s] for s in rules.seats_of(result.winner)}
                for i in (0, 1):
                    if winners == {self.levels[i]}:
                        decisive[i] += 1
        for level in self.levels:
            self.stats[level].by_deal.add(wins[level], hands[level])
        self.head_to_head_by_deal.add(decisive[0], sum(decisive))
        if len(self.levels) >= 2:
            first, second = self.levels[:2]
            self.firsts_by_deal.append((wins[first], hands[first], wins[second], hands[second]))

    @property
    def head_to_head(self) -> tuple[int, int]:
        """Decisive hands between the first two levels: (first won, second won)."""
        decisive = self.head_to_head_by_deal
        return decisive.wins, decisive.hands - decisive.wins

    def relative(self) -> float | None:
        """The first level's share of the two levels' win rates per side-hand: 0.5 means
        equal strength whatever number of seats each holds (with two seats it is the share
        of decisive hands)."""
        if len(self.levels) < 2:
            return None
        a, b = (self.stats[level] for level in self.levels[:2])
        rate_a, rate_b = _ratio(a.wins, a.hands), _ratio(b.wins, b.hands)
        if rate_a is None or rate_b is None or rate_a + rate_b == 0:
            return None
        return rate_a / (rate_a + rate_b)

    def sprt_llr(self, sprt: Sprt) -> float:
        """The SPRT's log-likelihood ratio on the relative strength over deals, which with
        two seats is the share of decisive hands, and stays 50% for equal bots when one
        holds more seats than the other; on the decisive share where it has no variance
        yet (too few deals)."""
        found = relative_strength(self.firsts_by_deal)
        if found is None or found[1] <= 0.0:
            return sprt.llr_deals(self.head_to_head_by_deal)
        return sprt.llr_normal(*found)

    def json(self) -> dict[str, Any]:
        first, second = self.head_to_head
        return {
            "relative": self.relative(),
            "relative_interval": _listed(relative_interval(self.firsts_by_deal)),
            "deals": self.deals,
            "hands": self.hands,
            "blocked": _ratio(self.blocked, self.hands),
            "levels": [self.stats[level].json() for level in self.levels],
            "head_to_head": {"wins": first, "losses": second,
                             "share": _ratio(first, first + second),
                             "interval": list(self.head_to_head_by_deal.interval()),
                             "interval_per_hand": list(wilson(first, first + second))},
        }


def _listed(interval: tuple[float, float] | None) -> list[float] | None:
    return None if interval is None else list(interval)


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None
