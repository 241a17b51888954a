"""One hand in play: hands, boneyard, layout, whose turn, the moves so far, and how it ended.

``HandState`` is a value: ``apply`` (checked, explains every refusal) and ``apply_unchecked``
(fast, for search and simulation) return a new state and never change the one they are given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from bones.engine.errors import IllegalMove, quoted
from bones.engine.layout import Layout
from bones.engine.moves import ARMS, Arm, Draw, Move, Pass, Play
from bones.engine.rules import Rules
from bones.engine.tiles import Tile

End = Literal["out", "blocked"]


@dataclass(frozen=True, slots=True)
class HandState:
    """The whole truth of a hand: only the referee holds one; seats get ``observe`` views."""

    rules: Rules
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    layout: Layout
    leader: int
    to_move: int
    deal: tuple[tuple[Tile, ...], ...]
    #: The tile the leader must set when ``opening`` (or ``no_double``) names one.
    opening: Tile | None = None
    moves: tuple[Move, ...] = ()
    end: End | None = None

    @property
    def is_over(self) -> bool:
        return self.end is not None

    def can_draw(self) -> bool:
        """Whether a seat that cannot play would draw now (Draw, boneyard above the reserve)."""
        return self.rules.draw and len(self.boneyard) > self.rules.reserve

    def playable(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` could lay now (the first tile of a hand included)."""
        hand = self.hands[seat]
        if self.layout.is_empty:
            if self.opening is not None:
                return (self.opening,) if self.opening in hand else ()
            return hand
        numbers = self.layout.open_numbers()
        return tuple(t for t in hand if t.high in numbers or t.low in numbers)

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move for the seat to move: plays (one per tile and arm), or the forced
        draw, or the forced pass. Empty once the hand is over."""
        if self.end is not None:
            return ()
        seat = self.to_move
        plays = plays_of(seat, self.hands[seat], self.layout, self.opening)
        if plays or self.layout.is_empty:
            return plays
        if self.can_draw():
            return (Draw(seat, self.boneyard[0]),)
        return (Pass(seat),)

    def count(self, seat: int) -> int:
        """Pips in a seat's hand."""
        return sum(t.high + t.low for t in self.hands[seat])


def plays_of(seat: int, hand: Sequence[Tile], layout: Layout,
             opening: Tile | None) -> tuple[Play, ...]:
    """The plays ``seat`` may make with ``hand``: on an empty layout each tile (or only the
    tile ``opening`` names), else one per tile and arm it fits. Shared by the referee's
    ``legal_moves`` and a seat's ``SeatView.legal``, so the two cannot drift apart."""
    if layout.is_empty:
        if opening is not None:
            return (Play(seat, opening),) if opening in hand else ()
        return tuple(Play(seat, t) for t in hand)
    return tuple(Play(seat, t, arm) for t in hand for arm in layout.arms_for(t))


def new_hand(rules: Rules, deal: Sequence[Sequence[Tile]], boneyard: Sequence[Tile],
             leader: int, opening: Tile | None = None) -> HandState:
    """A hand ready for its first tile. The deal must already be checked (see ``game``)."""
    hands = tuple(tuple(h) for h in deal)
    return HandState(
        rules=rules,
        hands=hands,
        boneyard=tuple(boneyard),
        layout=Layout(uses_spinner=rules.spinner == "first-double"),
        leader=leader,
        to_move=leader,
        deal=hands,
        opening=opening,
    )


# -- the checked path ------------------------------------------------------------------------


def _arms_text(layout: Layout) -> str:
    return ", ".join(f"{arm} {n}" for arm, n in layout.ends)


def _first_playable(state: HandState, seat: int) -> str:
    """Describe one playable tile of ``seat``, for "it may not pass/draw" messages."""
    for t in state.hands[seat]:
        arms = state.layout.arms_for(t)
        if arms:
            arm = arms[0]
            return f"seat {seat} holds {t}, which matches the {arm} arm ({state.layout.end(arm)})"
    raise AssertionError("no playable tile")  # pragma: no cover - callers check first


def resolve(state: HandState, move: Move) -> Move:
    """Check ``move`` against the rules and return it with a play's ``end`` filled in.

    Raises ``IllegalMove`` with a one-line reason for every refusal.
    """
    if state.end is not None:
        raise IllegalMove(f"the hand is already over ({state.end}); no more moves")
    seat = state.to_move
    if move.seat != seat:
        raise IllegalMove(f"it is seat {seat}'s turn, not seat {quoted(move.seat)}'s")
    hand = state.hands[seat]
    layout = state.layout
    if layout.is_empty:
        if not isinstance(move, Play):
            raise IllegalMove(f"seat {seat} leads and must set a tile; it may not "
                              f"{'pass' if isinstance(move, Pass) else 'draw'}")
        if move.tile not in hand:
            raise IllegalMove(f"seat {seat} does not hold {move.tile}")
        if state.opening is not None and move.tile != state.opening:
            raise IllegalMove(f"the first tile must be {state.opening} "
                              f"(opening: {state.rules.opening}), not {move.tile}")
        return Play(seat, move.tile)
    if isinstance(move, Play):
        return _resolve_play(state, move)
    playable = state.playable(seat)
    if isinstance(move, Draw):
        if playable:
            raise IllegalMove(f"{_first_playable(state, seat)}; it may not draw")
        if not state.rules.draw:
            raise IllegalMove("this is a Block game (draw: false); nobody draws")
        if not state.can_draw():
            raise IllegalMove(f"the boneyard holds {len(state.boneyard)} tiles and the reserve "
                              f"is {state.rules.reserve}; seat {seat} may not draw")
        if move.tile is not None and move.tile != state.boneyard[0]:
            raise IllegalMove(f"the next tile of the boneyard is {state.boneyard[0]}, "
                              f"not {move.tile}")
        return Draw(seat, state.boneyard[0])
    if playable:
        raise IllegalMove(f"{_first_playable(state, seat)}; it may not pass")
    if state.can_draw():
        raise IllegalMove(f"seat {seat} can draw from the boneyard ({len(state.boneyard)} "
                          f"tiles, reserve {state.rules.reserve}); it may not pass")
    return move


def _resolve_play(state: HandState, move: Play) -> Play:
    seat, t = move.seat, move.tile
    if t not in state.hands[seat]:
        raise IllegalMove(f"seat {seat} does not hold {t}")
    return Play(seat, t, arm_for(state.layout, t, move.end))


def arm_for(layout: Layout, t: Tile, end: Arm | None) -> Arm:
    """The arm a play of ``t`` on a laid layout goes to: ``end`` if it is open and matches,
    else (no ``end`` given) the one arm ``t`` fits. ``IllegalMove`` says why there is none,
    or that ``t`` fits several and the move must name its end (as a record must)."""
    if end is not None:
        if end not in ARMS:
            raise IllegalMove(f"{quoted(end)} is not an arm (left, right, up, down)")
        number = layout.end(end)
        if number is None:
            raise IllegalMove(f"the {end} arm is not open (open: {_arms_text(layout)})")
        if not t.matches(number):
            raise IllegalMove(f"{t} does not match the {end} arm ({number})")
        return end
    arms = layout.arms_for(t)
    if not arms:
        raise IllegalMove(f"{t} matches no open arm ({_arms_text(layout)})")
    if len(arms) > 1:
        fits = " and ".join(f"the {a} arm ({layout.end(a)})" for a in arms)
        raise IllegalMove(f"{t} fits {fits}; the move must name its end")
    return arms[0]


def apply(state: HandState, move: Move) -> HandState:
    """The checked path: refuse an illegal move with ``IllegalMove``, else return the new state."""
    return apply_unchecked(state, resolve(state, move))


def apply_unchecked(state: HandState, move: Move) -> HandState:
    """The fast path: apply a move already known to be legal (a play must name its end unless
    it is the first tile). Garbage in, garbage out; ``apply`` is the path for untrusted input."""
    seat, n = move.seat, state.rules.players
    if isinstance(move, Draw):
        drawn = state.boneyard[0]
        hands = _with_hand(state.hands, seat, state.hands[seat] + (drawn,))
        after = replace(state, hands=hands, boneyard=state.boneyard[1:],
                        moves=state.moves + (Draw(seat, drawn),))
        return _check_blocked(after)
    if isinstance(move, Pass):
        return replace(state, to_move=(seat + 1) % n, moves=state.moves + (move,))
    held = state.hands[seat]
    i = held.index(move.tile)
    hand = held[:i] + held[i + 1:]
    layout = state.layout.place(move.tile, move.end)
    after = replace(state, hands=_with_hand(state.hands, seat, hand), layout=layout,
                    to_move=(seat + 1) % n, moves=state.moves + (move,))
    if not hand:
        return replace(after, end="out")
    if state.rules.draw and state.rules.call_block and layout.is_dead(state.rules.set):
        return replace(after, end="blocked")
    return _check_blocked(after)


def _with_hand(hands: tuple[tuple[Tile, ...], ...], seat: int,
               hand: tuple[Tile, ...]) -> tuple[tuple[Tile, ...], ...]:
    return hands[:seat] + (hand,) + hands[seat + 1:]


def _check_blocked(state: HandState) -> HandState:
    """End the hand as blocked when nobody holds a playable tile and nobody can draw."""
    if state.can_draw():
        return state
    numbers = state.layout.open_numbers()
    for hand in state.hands:
        for t in hand:
            if t.high in numbers or t.low in numbers:
                return state
    return replace(state, end="blocked")


def arm_names(layout: Layout) -> tuple[Arm, ...]:
    """The open arms, in the fixed order left, right, up, down."""
    return tuple(arm for arm, _ in layout.ends)
