"""The end of a hand: counts, the winning side, and its points under each ``score`` rule;
the points a single play scores (none, under every rule of the spec, so far); and the
numbers that stand for how a hand ended wherever a hand is kept as plain integers.

Front ends and bots ask these functions rather than re-deriving a formula, so a new
``score`` value is added here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal, Protocol

from bones.engine.layout import Layout
from bones.engine.moves import Move
from bones.engine.rules import Rules
from bones.engine.tiles import Tile

#: How a hand ended (``HandState.end``).
End = Literal["out", "blocked"]

# -- how a hand stands, as an integer --------------------------------------------------------
# One numbering for every place that keeps a hand as plain integers: ``Position.status`` of
# the search, the raw traces of the playouts (``bones.fast``) and both C extensions, which
# export their copies of these values so that a test holds them to these.

#: The hand is still being played.
PLAYING: Final = 0
#: A player went out ("Domino!").
OUT: Final = 1
#: Nobody could play or draw (or ``call_block`` found the layout dead).
BLOCKED: Final = 2
#: The integer of each way a hand ends, and back.
END_CODES: Final[dict[End, int]] = {"out": OUT, "blocked": BLOCKED}
ENDS: Final[dict[int, End]] = {OUT: "out", BLOCKED: "blocked"}


class Finished(Protocol):
    """What ``outcome`` reads of a finished hand: a ``HandState``, named here by its shape
    because ``bones.engine.state`` imports this module (for ``play_points``), not the
    other way round."""

    @property
    def rules(self) -> Rules: ...
    @property
    def leader(self) -> int: ...
    @property
    def moves(self) -> tuple[Move, ...]: ...
    @property
    def end(self) -> End | None: ...
    @property
    def scored(self) -> tuple[int, ...]: ...
    def count(self, seat: int) -> int: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won a finished hand and what each side scored (``winner`` is ``None`` on a tie)."""

    counts: tuple[int, ...]
    side_counts: tuple[int, ...]
    winner: int | None
    tied: tuple[int, ...]
    points: tuple[int, ...]
    winner_seat: int | None


# -- the points of a hand's end: one entry per ``score`` value ----------------------------


def _others_minus_own(side_counts: Sequence[int], side: int) -> int:
    return max(0, sum(side_counts) - 2 * side_counts[side])


def _others(side_counts: Sequence[int], side: int) -> int:
    return sum(side_counts) - side_counts[side]


#: Each ``score`` value's points for the winning side ``side`` of a hand with these side
#: counts. ``score_terms`` below must say the same sum in words.
SCORES: dict[str, Callable[[Sequence[int], int], int]] = {
    "others-minus-own": _others_minus_own,
    "others": _others,
}

#: Whether each ``score`` value takes the winning side's own count away from the others'.
_TAKES_OWN: dict[str, bool] = {"others-minus-own": True, "others": False}


def side_counts(rules: Rules, counts: Sequence[int]) -> tuple[int, ...]:
    """Each side's count: the sum of its players' pips."""
    return tuple(sum(counts[s] for s in rules.seats_of(side)) for side in range(rules.sides))


def lowest_sides(side_counts: Sequence[int]) -> tuple[int, ...]:
    """The sides with the lowest count, in side order. A blocked hand is won by the one side
    this names; when it names two or more, they tie and nobody scores."""
    low = min(side_counts)
    return tuple(side for side, c in enumerate(side_counts) if c == low)


def hand_scorer(rules: Rules) -> Callable[[Sequence[int], int], int]:
    """``hand_points`` for these rules as one function of (side counts, winner), for a
    search that scores millions of hand ends and should not look the rule up each time."""
    return SCORES[rules.score]


def hand_points(rules: Rules, side_counts: Sequence[int], winner: int) -> int:
    """What side ``winner`` scores for winning a hand that ended with these side counts,
    under ``score`` (never below 0). Points scored by plays during the hand are not in it."""
    return SCORES[rules.score](side_counts, winner)


def score_terms(rules: Rules, side_counts: Sequence[int],
                winner: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``hand_points`` as a sum a front end can show: the counts added (the other sides',
    in side order) and the counts taken away (the winner's own, under
    ``"others-minus-own"``). The points are the difference, or 0 if it is below 0."""
    added = tuple(c for side, c in enumerate(side_counts) if side != winner)
    taken = (side_counts[winner],) if _TAKES_OWN[rules.score] else ()
    return added, taken


def outcome(state: Finished) -> Outcome:
    """Score a finished hand (``state.end`` must be set): the end's points, plus any points
    the sides scored by their plays (``state.scored``; the one place they are added)."""
    rules = state.rules
    counts = tuple(state.count(seat) for seat in range(rules.players))
    sides = side_counts(rules, counts)
    tied: tuple[int, ...] = ()
    if state.end == "out":
        out_seat = state.moves[-1].seat
        winner: int | None = rules.side_of(out_seat)
        winner_seat: int | None = out_seat
    else:
        lowest = lowest_sides(sides)
        winner = lowest[0] if len(lowest) == 1 else None
        tied = lowest if winner is None else ()
        winner_seat = None if winner is None else _lowest_seat(state, winner, counts)
    points = [0] * rules.sides
    if winner is not None:
        points[winner] = hand_points(rules, sides, winner)
    for side, scored in enumerate(state.scored):
        points[side] += scored
    return Outcome(counts, sides, winner, tied, tuple(points), winner_seat)


def _lowest_seat(state: Finished, side: int, counts: Sequence[int]) -> int:
    """The winning side's seat with the lowest count; ties go to the earliest in turn order
    counting from the hand's leader itself (``next_lead: "winner"``)."""
    n = state.rules.players
    order = sorted(state.rules.seats_of(side), key=lambda s: (counts[s], (s - state.leader) % n))
    return order[0]


# -- points scored during play ------------------------------------------------------------

#: Points a play scores for the side of the seat that made it: ``(layout, tile)``, the
#: layout as it is after ``tile`` was laid on it.
PlayScore = Callable[[Layout, Tile], int]


def no_play_points(layout: Layout, tile: Tile) -> int:
    """A play scores nothing: every ``score`` rule of the spec scores only a hand's end."""
    return 0


#: The per-play scorer of each ``score`` value that scores during play; a value not listed
#: scores nothing during play (``no_play_points``), which is every value of the spec today.
PLAY_SCORES: dict[str, PlayScore] = {}


def play_points(rules: Rules, layout: Layout, tile: Tile) -> int:
    """The points laying ``tile`` scores for its player's side, ``layout`` being the layout
    after it: the hook the engine calls on every play (``state.apply_unchecked``), which
    adds the points to ``HandState.scored`` and so, at the hand's end, to its result
    (``outcome``). Every rule today scores 0 here, at the cost of one dictionary look-up
    per play.

    How All Fives would plug in, without touching the engine's move code or any front end:
    add ``"all-fives"`` to ``Score`` in ``rules.py`` (the ``score`` option's values); add
    its end-of-hand formula to ``SCORES`` and ``_TAKES_OWN`` (the others' pips rounded to
    fives); and register its per-play scorer here,
    ``PLAY_SCORES["all-fives"] = _all_fives``, where ``_all_fives(layout, tile)`` adds up
    the open ends of ``layout`` (``layout.ends``; a double at the end of an arm counts both
    halves, which ``layout.chains`` tells, and a spinner that has not opened ``up`` and
    ``down`` counts for its sides) and returns that sum when it is a multiple of five, else
    0. The fast paths refuse such rules with a reason (``scores_plays``) and the callers
    play them on the engine; a bot's search that should value those points needs them too.
    A game won in the middle of a hand (All Fives' target reached by a play) would need
    ``game._settle`` to look at ``scored`` after each play, which no rule needs today."""
    return PLAY_SCORES.get(rules.score, no_play_points)(layout, tile)


def scores_plays(rules: Rules) -> bool:
    """Whether these rules score points during play (see ``play_points``): the fast paths
    and the search positions, which score only a hand's end, refuse such rules."""
    return PLAY_SCORES.get(rules.score, no_play_points) is not no_play_points
