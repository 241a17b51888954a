"""The end of a hand: counts, the winning side, and its points under each ``score`` rule."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bones.engine.rules import Rules
from bones.engine.state import HandState


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won a finished hand and what each side scored (``winner`` is ``None`` on a tie)."""

    counts: tuple[int, ...]
    side_counts: tuple[int, ...]
    winner: int | None
    tied: tuple[int, ...]
    points: tuple[int, ...]
    winner_seat: int | None


def _others_minus_own(side_counts: Sequence[int], side: int) -> int:
    return max(0, sum(side_counts) - 2 * side_counts[side])


def _others(side_counts: Sequence[int], side: int) -> int:
    return sum(side_counts) - side_counts[side]


SCORES: dict[str, Callable[[Sequence[int], int], int]] = {
    "others-minus-own": _others_minus_own,
    "others": _others,
}


def side_counts(rules: Rules, counts: Sequence[int]) -> tuple[int, ...]:
    """Each side's count: the sum of its players' pips."""
    return tuple(sum(counts[s] for s in rules.seats_of(side)) for side in range(rules.sides))


def outcome(state: HandState) -> Outcome:
    """Score a finished hand (``state.end`` must be set)."""
    rules = state.rules
    counts = tuple(state.count(seat) for seat in range(rules.players))
    sides = side_counts(rules, counts)
    tied: tuple[int, ...] = ()
    if state.end == "out":
        out_seat = state.moves[-1].seat
        winner: int | None = rules.side_of(out_seat)
        winner_seat: int | None = out_seat
    else:
        low = min(sides)
        lowest = tuple(side for side, c in enumerate(sides) if c == low)
        winner = lowest[0] if len(lowest) == 1 else None
        tied = lowest if winner is None else ()
        winner_seat = None if winner is None else _lowest_seat(state, winner, counts)
    points = [0] * rules.sides
    if winner is not None:
        points[winner] = SCORES[rules.score](sides, winner)
    return Outcome(counts, sides, winner, tied, tuple(points), winner_seat)


def _lowest_seat(state: HandState, side: int, counts: Sequence[int]) -> int:
    """The winning side's seat with the lowest count; ties go to the earliest in turn order
    counting from the hand's leader itself (``next_lead: "winner"``)."""
    n = state.rules.players
    order = sorted(state.rules.seats_of(side), key=lambda s: (counts[s], (s - state.leader) % n))
    return order[0]
