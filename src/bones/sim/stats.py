"""Statistics of a series of games: wins with Wilson intervals, points, blocked and tied hands.

A win rate from a few hundred games is uncertain by several points of percentage; printing it
with its 95% interval stops readers from ranking bots on noise. Wilson's interval is used
rather than the normal approximation because it stays inside [0, 1] and behaves at 0 or all
wins, which short runs between unequal bots often produce.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bones.engine.rules import Rules
from bones.sim.referee import GameOutcome

#: The standard normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054

Unit = Literal["games", "hands"]


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / trials``.

    >>> [round(x, 4) for x in wilson(8, 10)]
    [0.4902, 0.9433]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return 0.0, 1.0
    return wilson_rate(successes / trials, trials, z)


def wilson_rate(p: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's interval for a proportion ``p`` worth ``trials`` independent trials, which
    need not be a whole number (an effective sample size, ``bones.sim.clusters``).

    >>> wilson_rate(0.8, 10) == wilson(8, 10)
    True
    """
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class SideStats:
    """One side's results: wins counted in the series' unit (games or hands)."""

    side: int
    seats: tuple[int, ...]
    bots: tuple[str, ...]
    wins: int
    trials: int
    points: int
    hands: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        return wilson(self.wins, self.trials)

    @property
    def points_per_hand(self) -> float:
        return self.points / self.hands if self.hands else 0.0


@dataclass(frozen=True, slots=True)
class SeatStats:
    """One seat's chips: net chips won minus antes over every hand, and per finished game."""

    seat: int
    bot: str
    side: int
    chips: int
    chips_per_game: float | None


@dataclass(frozen=True, slots=True)
class Summary:
    """Everything ``bones simulate`` reports; ``to_json`` is its ``--json`` object."""

    rules: Rules
    seed: int
    unit: Unit
    games: int
    games_finished: int
    hands: int
    blocked_hands: int
    tied_hands: int
    hands_per_game: float | None
    sides: tuple[SideStats, ...]
    seats: tuple[SeatStats, ...]

    @property
    def trials(self) -> int:
        """Games or hands, whichever the series counts wins in."""
        return self.games if self.unit == "games" else self.hands

    @property
    def ties(self) -> int:
        """Trials nobody won: tied hands when counting hands (a game always has a winner)."""
        return self.trials - sum(s.wins for s in self.sides)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object; keys are documented in ``docs/simulate.md``."""
        return {
            "rules": self.rules.to_json(),
            "players": self.rules.players,
            "seed": self.seed,
            "unit": self.unit,
            "games": self.games,
            "games_finished": self.games_finished,
            "hands": self.hands,
            "ties": self.ties,
            "hands_per_game": _round(self.hands_per_game),
            "blocked_hands": self.blocked_hands,
            "blocked_share": _round(_share(self.blocked_hands, self.hands)),
            "tied_hands": self.tied_hands,
            "tied_share": _round(_share(self.tied_hands, self.hands)),
            "sides": [_side_json(s) for s in self.sides],
            "seats": [_seat_json(s) for s in self.seats],
        }


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def _side_json(s: SideStats) -> dict[str, Any]:
    low, high = s.interval
    return {"side": s.side, "seats": list(s.seats), "bots": list(s.bots), "wins": s.wins,
            "win_rate": _round(s.win_rate), "win_rate_ci95": [_round(low), _round(high)],
            "points": s.points, "points_per_hand": _round(s.points_per_hand)}


def _seat_json(s: SeatStats) -> dict[str, Any]:
    return {"seat": s.seat, "bot": s.bot, "side": s.side, "chips": s.chips,
            "chips_per_game": _round(s.chips_per_game)}


@dataclass(slots=True)
class Tally:
    """Adds up game outcomes as they arrive, in game order, so a long series needs no list
    of every game (and a progress bar can follow it)."""

    rules: Rules
    levels: tuple[str, ...]
    seed: int
    unit: Unit
    games: int = 0
    games_finished: int = 0
    hands: int = 0
    hands_in_finished: int = 0
    blocked: int = 0
    tied: int = 0
    wins: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    chips: list[int] = field(default_factory=list)
    chips_in_finished: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.wins = [0] * self.rules.sides
        self.points = [0] * self.rules.sides
        self.chips = [0] * self.rules.players
        self.chips_in_finished = [0] * self.rules.players

    def add(self, outcome: GameOutcome) -> None:
        """Count one game (cut short or whole)."""
        self.games += 1
        self.hands += len(outcome.results)
        game_chips = [0] * self.rules.players
        for result in outcome.results:
            self.blocked += result.end == "blocked"
            self.tied += result.winner is None
            if self.unit == "hands" and result.winner is not None:
                self.wins[result.winner] += 1
            _add_into(self.points, result.points)
            _add_into(game_chips, result.pool)
        _add_into(self.chips, game_chips)
        if outcome.winner is not None:
            self.games_finished += 1
            self.hands_in_finished += len(outcome.results)
            _add_into(self.chips_in_finished, game_chips)
            if self.unit == "games":
                self.wins[outcome.winner] += 1

    def summary(self) -> Summary:
        """The statistics of every game added so far."""
        rules, finished = self.rules, self.games_finished
        trials = self.games if self.unit == "games" else self.hands
        sides = tuple(
            SideStats(side, rules.seats_of(side),
                      tuple(self.levels[s] for s in rules.seats_of(side)),
                      self.wins[side], trials, self.points[side], self.hands)
            for side in range(rules.sides))
        seats = tuple(
            SeatStats(seat, self.levels[seat], rules.side_of(seat), self.chips[seat],
                      self.chips_in_finished[seat] / finished if finished else None)
            for seat in range(rules.players))
        return Summary(rules, self.seed, self.unit, self.games, finished, self.hands,
                       self.blocked, self.tied,
                       self.hands_in_finished / finished if finished else None, sides, seats)


def _add_into(total: list[int], values: Sequence[int]) -> None:
    for i, v in enumerate(values):
        total[i] += v


def summarise(rules: Rules, levels: Sequence[str], seed: int, unit: Unit,
              outcomes: Iterable[GameOutcome]) -> Summary:
    """The statistics of a whole series at once."""
    tally = Tally(rules, tuple(levels), seed, unit)
    for outcome in outcomes:
        tally.add(outcome)
    return tally.summary()
