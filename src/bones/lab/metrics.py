"""What the lab measures, hand by hand, and the 95% intervals around it.

``Counts`` are integer sums over raw hands (``bones.fast.results.RawHand``), so chunks
played in any process add up to the same numbers in any order. ``Totals`` alone cannot give
the lab what it needs: it does not say whether the leader's side won a hand, nor the spread
of points per hand or of hands per game, which a mean's interval needs. So each hand's
trace is read once here and reduced to sums and sums of squares.

Intervals: a share (blocked, tied, the leader's side winning) gets Wilson's interval, a mean
(points per hand, hands per game, chips per game) the normal one, mean ± 1.96 s/√n with the
sample standard deviation s. Hands are counted as independent trials: a hand's deal is
fresh, though its leader and a carried pool may depend on the hand before. Games are
independent; only finished games count for the per-game means, since a game cut short at
the end of a chunk would bias them towards short games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from bones.engine.pool import has_pool
from bones.engine.rules import Rules
from bones.engine.scoring import BLOCKED
from bones.fast.results import RawHand, Totals
from bones.sim.stats import Z95, wilson


@dataclass(frozen=True, slots=True)
class Counts:
    """Sums over the hands of a run; ``+`` merges two runs of the same rules."""

    hands: int = 0
    #: Hands somebody won (not tied).
    decided: int = 0
    #: Decided hands won by the side of the seat that led them.
    leader_wins: int = 0
    blocked: int = 0
    #: Blocked hands where two or more sides tied for the lowest count: nobody scores.
    tied: int = 0
    #: Points scored in each hand, summed, and their squares summed.
    points: int = 0
    points_sq: int = 0
    #: Finished games (a side reached the target), their lengths in hands, and squares.
    games: int = 0
    game_hands: int = 0
    game_hands_sq: int = 0
    #: Per side: hands won.
    side_wins: tuple[int, ...] = ()
    #: Per seat: net chips (won minus antes) over finished games, and their squares summed.
    seat_chips: tuple[int, ...] = ()
    seat_chips_sq: tuple[int, ...] = ()

    def __add__(self, other: Counts) -> Counts:
        merged: list[Any] = []
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if isinstance(a, tuple):
                merged.append(tuple(x + y for x, y in zip(a, b, strict=True)) if a and b
                              else a or b)
            else:
                merged.append(a + b)
        return Counts(*merged)


def count_hands(rules: Rules, raws: Sequence[RawHand]) -> Counts:
    """Reduce the raw hands of one ``play_hands``-style run (games one after another, the
    last possibly cut short) to ``Counts``. A game ends after the hand in which its winner's
    total reaches the target, as ``docs/rules.md`` says; ``check`` holds this against the
    playout's own ``Totals``."""
    sides, players, target = rules.sides, rules.players, rules.target_points
    hands = decided = leader_wins = blocked = tied = points = points_sq = 0
    games = game_hands = game_hands_sq = 0
    side_wins = [0] * sides
    seat_chips, seat_chips_sq = [0] * players, [0] * players
    scores, game_chips, length = [0] * sides, [0] * players, 0
    for _order, leader, _moves, end, winner, _counts, hand_points, chips in raws:
        hands += 1
        length += 1
        blocked += end == BLOCKED
        scored = sum(hand_points)
        points += scored
        points_sq += scored * scored
        for seat, c in enumerate(chips):
            game_chips[seat] += c
        if winner < 0:
            tied += 1
            continue
        decided += 1
        side_wins[winner] += 1
        leader_wins += rules.side_of(leader) == winner
        scores[winner] += hand_points[winner]
        if scores[winner] >= target:
            games += 1
            game_hands += length
            game_hands_sq += length * length
            for seat, c in enumerate(game_chips):
                seat_chips[seat] += c
                seat_chips_sq[seat] += c * c
            scores, game_chips, length = [0] * sides, [0] * players, 0
    return Counts(hands, decided, leader_wins, blocked, tied, points, points_sq, games,
                  game_hands, game_hands_sq, tuple(side_wins), tuple(seat_chips),
                  tuple(seat_chips_sq))


def check(counts: Counts, totals: Totals) -> None:
    """Raise ``RuntimeError`` unless ``counts`` agree with the playout's own totals of the
    same run: a guard on the game boundaries ``count_hands`` infers."""
    expected = {
        "hands": totals.hands, "blocked": totals.blocked, "tied": totals.tied,
        "decided": sum(totals.side_hands), "side_wins": totals.side_hands,
        "points": sum(totals.side_points), "games": totals.games,
        "game_hands": totals.game_hands,
    }
    for name, value in expected.items():
        if getattr(counts, name) != value:
            raise RuntimeError(f"lab: {name} counted from the hands is "
                               f"{getattr(counts, name)}, the playout says {value}")


@dataclass(frozen=True, slots=True)
class Estimate:
    """A measured value and its 95% interval ``[low, high]``, from ``n`` trials."""

    value: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        """Half the interval's width: the ``±`` the table prints."""
        return (self.high - self.low) / 2

    def shifted(self, by: float) -> Estimate:
        return Estimate(self.value + by, self.low + by, self.high + by, self.n)

    def to_json(self, digits: int = 4) -> dict[str, Any]:
        return {"value": round(self.value, digits),
                "ci95": [round(self.low, digits), round(self.high, digits)], "n": self.n}


def proportion(successes: int, trials: int) -> Estimate | None:
    """A share with Wilson's interval; ``None`` with no trials."""
    if trials <= 0:
        return None
    low, high = wilson(successes, trials)
    return Estimate(successes / trials, low, high, trials)


def mean(total: int, total_sq: int, n: int) -> Estimate | None:
    """A mean with the normal interval from the sample variance; ``None`` under 2 trials,
    where no spread can be measured.

    >>> e = mean(10, 30, 4)   # values 1, 2, 3, 4
    >>> e.value, round(e.half_width, 3)
    (2.5, 1.265)
    """
    if n < 2:
        return None
    centre = total / n
    variance = max(0.0, (total_sq - total * centre) / (n - 1))
    half = Z95 * math.sqrt(variance / n)
    return Estimate(centre, centre - half, centre + half, n)


@dataclass(frozen=True, slots=True)
class Metrics:
    """The lab's answers for one rule set (``None`` where there was nothing to measure)."""

    hands: int
    games: int
    #: The leader's side's share of decided hands minus the fair share ``1 / sides``.
    leader_advantage: Estimate | None
    blocked: Estimate | None
    tied: Estimate | None
    points_per_hand: Estimate | None
    hands_per_game: Estimate | None
    #: Per side: its share of all hands won (with the tied share these add up to 1).
    side_wins: tuple[Estimate | None, ...]
    #: Per seat: mean net chips per finished game; ``None`` when the rules have no ante.
    chips_per_game: tuple[Estimate | None, ...] | None

    @classmethod
    def from_counts(cls, rules: Rules, c: Counts) -> Metrics:
        """Turn sums into estimates. The leader's advantage is measured over decided hands:
        with ties counted, every side's share falls below ``1 / sides`` and an even game
        would look like a disadvantage to lead."""
        lead = proportion(c.leader_wins, c.decided)
        chips = None
        if has_pool(rules):
            chips = tuple(mean(total, sq, c.games)
                          for total, sq in zip(c.seat_chips, c.seat_chips_sq, strict=True))
        return cls(
            hands=c.hands, games=c.games,
            leader_advantage=None if lead is None else lead.shifted(-1 / rules.sides),
            blocked=proportion(c.blocked, c.hands), tied=proportion(c.tied, c.hands),
            points_per_hand=mean(c.points, c.points_sq, c.hands),
            hands_per_game=mean(c.game_hands, c.game_hands_sq, c.games),
            side_wins=tuple(proportion(w, c.hands) for w in c.side_wins),
            chips_per_game=chips,
        )

    def to_json(self) -> dict[str, Any]:
        """The metrics part of a ``--json`` row; keys are documented in ``docs/lab.md``."""
        def one(e: Estimate | None) -> dict[str, Any] | None:
            return None if e is None else e.to_json()

        return {
            "hands": self.hands, "games": self.games,
            "leader_advantage": one(self.leader_advantage),
            "blocked_share": one(self.blocked), "tied_share": one(self.tied),
            "points_per_hand": one(self.points_per_hand),
            "hands_per_game": one(self.hands_per_game),
            "side_win_share": [one(e) for e in self.side_wins],
            "chips_per_game": None if self.chips_per_game is None
            else [one(e) for e in self.chips_per_game],
        }
