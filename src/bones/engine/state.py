"""One hand in play: hands, boneyard, layout, whose turn, the moves so far, and how it ended.

``HandState`` is a value: ``apply`` (checked, explains every refusal) and ``apply_unchecked``
(fast, for search and simulation) return a new state and never change the one they are given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from bones.engine.errors import IllegalMove, quoted
from bones.engine.layout import Layout, empty_layout
from bones.engine.moves import ARMS, Arm, Draw, Move, Pass, Play
from bones.engine.rules import Rules
from bones.engine.scoring import End, play_points
from bones.engine.tiles import Tile

# -- what the draw rules say (``draw``, ``reserve``, ``call_block``) ---------------------------
# Bots, front ends and records ask these rather than read the options, so a rule about
# drawing is decided in one place; ``HandState`` uses them too.


def reserve_of(rules: Rules) -> int | None:
    """The tiles a boneyard keeps back that are never drawn: the ``reserve`` in Draw; ``None``
    in Block, where nothing is drawn at all (and ``reserve`` is ignored, as the spec says).

    For front ends that say which undealt tiles can still come into play, and for messages
    that quote the reserve."""
    return rules.reserve if rules.draw else None


def drawable(rules: Rules, left: int) -> int:
    """How many of the ``left`` tiles in the boneyard may still be drawn: 0 in Block, else
    those above the reserve. A bot that counts the tiles still to come asks this."""
    kept = reserve_of(rules)
    return 0 if kept is None else max(0, left - kept)


def would_draw(rules: Rules, left: int) -> bool:
    """Whether a seat that cannot play would draw, the boneyard holding ``left`` tiles (Draw,
    and more tiles than the reserve); else it passes. ``HandState.can_draw`` is this for
    the state's own boneyard; a seat's view or a search position knows only the count."""
    return rules.draw and left > rules.reserve


def calls_block(rules: Rules) -> bool:
    """Whether the hand ends as blocked as soon as the layout is dead (``call_block``, which
    only Draw reads: in Block nobody can play once it is dead anyway)."""
    return rules.draw and rules.call_block


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
    #: Points each side has scored by its plays so far (``scoring.play_points``), added to
    #: the hand's result by ``scoring.outcome``; ``()`` while none has, which under every
    #: ``score`` rule of the spec is always (they score only at the end of the hand).
    scored: tuple[int, ...] = ()

    @property
    def is_over(self) -> bool:
        return self.end is not None

    def can_draw(self) -> bool:
        """Whether a seat that cannot play would draw now (Draw, boneyard above the reserve)."""
        return would_draw(self.rules, len(self.boneyard))

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
        layout=empty_layout(rules),
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
            return f"seat {seat} holds {t}, which matches the {arm} arm ({state.layout.shows(arm)})"
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
        number = layout.shows(end)
        if number is None:
            raise IllegalMove(f"the {end} arm is not open (open: {_arms_text(layout)})")
        if not t.matches(number):
            raise IllegalMove(f"{t} does not match the {end} arm ({number})")
        return end
    arms = layout.arms_for(t)
    if not arms:
        raise IllegalMove(f"{t} matches no open arm ({_arms_text(layout)})")
    if len(arms) > 1:
        fits = " and ".join(f"the {a} arm ({layout.shows(a)})" for a in arms)
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
        after = _evolve(state, hands=hands, boneyard=state.boneyard[1:],
                        moves=state.moves + (Draw(seat, drawn),))
        return _check_blocked(after)
    if isinstance(move, Pass):
        return _evolve(state, to_move=(seat + 1) % n, moves=state.moves + (move,))
    rules = state.rules
    held = state.hands[seat]
    i = held.index(move.tile)
    hand = held[:i] + held[i + 1:]
    layout = state.layout.place(move.tile, move.end)
    points = play_points(rules, layout, move.tile)  # the per-play scoring hook
    end: End | None = None
    if not hand:
        end = "out"
    elif calls_block(rules) and layout.is_dead(rules.set):
        end = "blocked"
    after = _evolve(state, hands=_with_hand(state.hands, seat, hand), layout=layout,
                    to_move=(seat + 1) % n, moves=state.moves + (move,), end=end,
                    scored=_credit(state, seat, points) if points else state.scored)
    return after if end is not None else _check_blocked(after)


#: ``HandState``'s fields, in order, for ``_evolve``.
_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(HandState))


def _evolve(state: HandState, **changes: object) -> HandState:
    """``dataclasses.replace(state, **changes)`` for the fast path, in about half the time:
    it copies every field as ``replace`` does (so a field added later is carried too), but
    without ``replace``'s checks per field and ``__init__`` (``HandState`` has no
    ``__post_init__`` to miss). Every move makes one state, and ``replace`` costs more with
    each field; this is what keeps ``scored`` and the per-play hook from slowing the engine."""
    new = object.__new__(HandState)
    for name in _FIELDS:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(state, name))
    return new


def _credit(state: HandState, seat: int, points: int) -> tuple[int, ...]:
    """``state.scored`` with ``points`` added to the side of ``seat``."""
    rules = state.rules
    scored = list(state.scored or (0,) * rules.sides)
    scored[rules.side_of(seat)] += points
    return tuple(scored)


def called_block(state: HandState) -> bool:
    """Whether the hand was ended by ``call_block`` (blocked, its layout dead) rather than
    because nobody could play or draw: what a front end tells the players about the end."""
    rules = state.rules
    return state.end == "blocked" and calls_block(rules) and state.layout.is_dead(rules.set)


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
    return _evolve(state, end="blocked")

