"""What a run of random playouts returns: aggregate ``Totals``, and for checking, the full
``HandTrace`` of every hand of a game.

Both playout paths hand back plain integers (a flat tuple of totals; raw traces of tile
indices and move codes, see ``params``); this module turns them into values with names, so
the paths stay free of engine objects on their hot loops.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from bones.engine.game import HandResult
from bones.engine.moves import ARMS, Draw, Move, Pass, Play
from bones.engine.rules import Rules
from bones.engine.scoring import END_CODES, ENDS
from bones.engine.state import HandState
from bones.engine.tiles import Tile, full_set
from bones.fast.params import DRAW, FIRST, PASS

#: One hand as a path reports it: the shuffled set (the deal, then the boneyard), the
#: leader, the move codes, the end (the engine's ``OUT`` or ``BLOCKED``), the winning side
#: (-1: none), the seats' counts, the sides' points and the seats' chips for the hand.
RawHand = tuple[
    tuple[int, ...], int, tuple[int, ...], int, int,
    tuple[int, ...], tuple[int, ...], tuple[int, ...],
]


@dataclass(frozen=True, slots=True)
class Totals:
    """Sums over every hand (and every finished game) of a run.

    ``games`` counts games that reached the target; a run of ``play_hands`` may stop in the
    middle of a game, whose hands still count. ``pool`` is what stayed in the pools at the
    end of each game (chips that could not be split, or the pool of a game cut short), so
    ``sum(seat_chips) + pool == 0``.
    """

    rules: Rules
    #: Hands played.
    hands: int
    #: Games finished (a side reached the target).
    games: int
    #: Hands that ended with a player out.
    out: int
    #: Hands that ended blocked.
    blocked: int
    #: Blocked hands in which two or more sides tied for the lowest count (nobody scores).
    tied: int
    plays: int
    draws: int
    passes: int
    #: Hands played in finished games (their mean length is ``game_hands / games``).
    game_hands: int
    #: Hands in the longest finished game.
    longest_game: int
    pool: int
    #: Per side: hands won, points scored, games won, and the side's count summed at the
    #: end of every hand.
    side_hands: tuple[int, ...]
    side_points: tuple[int, ...]
    side_games: tuple[int, ...]
    side_counts: tuple[int, ...]
    #: Per seat: hands in which the seat went out, hands it led, and chips won minus antes.
    seat_out: tuple[int, ...]
    seat_leads: tuple[int, ...]
    seat_chips: tuple[int, ...]

    @classmethod
    def from_flat(cls, rules: Rules, flat: Sequence[int]) -> Totals:
        """Read the flat tuple both paths return: the scalars in field order, then each side
        field (``rules.sides`` values), then each seat field (``rules.players`` values)."""
        values: list[object] = []
        at = 0
        for f in fields(cls)[1:]:
            if f.name.startswith("side_"):
                values.append(tuple(flat[at:at + rules.sides]))
                at += rules.sides
            elif f.name.startswith("seat_"):
                values.append(tuple(flat[at:at + rules.players]))
                at += rules.players
            else:
                values.append(flat[at])
                at += 1
        if at != len(flat):
            raise ValueError(f"{len(flat)} totals for rules that need {at}")
        return cls(rules, *values)  # type: ignore[arg-type]

    def __add__(self, other: Totals) -> Totals:
        """Totals of two runs with the same rules taken together (longest game: the longer)."""
        if other.rules != self.rules:
            return NotImplemented
        merged: list[object] = []
        for f in fields(self)[1:]:
            a, b = getattr(self, f.name), getattr(other, f.name)
            if f.name == "longest_game":
                merged.append(max(a, b))
            elif isinstance(a, tuple):
                merged.append(tuple(x + y for x, y in zip(a, b, strict=True)))
            else:
                merged.append(a + b)
        return Totals(self.rules, *merged)  # type: ignore[arg-type]


def zero_totals(rules: Rules) -> Totals:
    """Totals of a run that played nothing."""
    scalars = sum(1 for f in fields(Totals)[1:] if not f.name.startswith(("side_", "seat_")))
    return Totals.from_flat(rules, [0] * (scalars + 4 * rules.sides + 3 * rules.players))


@dataclass(frozen=True, slots=True)
class HandTrace:
    """One hand in full: what the engine's ``HandState`` and ``HandResult`` record of it."""

    deal: tuple[tuple[Tile, ...], ...]
    #: The boneyard as dealt, before any draw.
    boneyard: tuple[Tile, ...]
    leader: int
    moves: tuple[Move, ...]
    result: HandResult


@dataclass(frozen=True, slots=True)
class GameTrace:
    """Every hand of one game, and the game's totals (its scores are ``side_points``)."""

    hands: tuple[HandTrace, ...]
    totals: Totals


def decode_move(code: int, tiles: Sequence[Tile]) -> Move:
    """The engine move for a raw move code (see ``params``)."""
    seat, t, kind = code >> 16, tiles[(code >> 3) & 0x1FFF], code & 7
    if kind < FIRST:
        return Play(seat, t, ARMS[kind])
    if kind == FIRST:
        return Play(seat, t)
    if kind == DRAW:
        return Draw(seat, t)
    if kind == PASS:
        return Pass(seat)
    raise ValueError(f"{code} is not a move code")


def decode_hand(rules: Rules, raw: RawHand) -> HandTrace:
    """A ``HandTrace`` from a path's raw hand."""
    order, leader, codes, end, winner, counts, points, chips = raw
    tiles = full_set(rules.set)
    size = rules.dealt
    shuffled = tuple(tiles[i] for i in order)
    deal = tuple(shuffled[s * size:(s + 1) * size] for s in range(rules.players))
    result = HandResult(ENDS[end], None if winner < 0 else winner, tuple(counts),
                        tuple(points), tuple(chips))
    return HandTrace(deal, shuffled[size * rules.players:], leader,
                     tuple(decode_move(code, tiles) for code in codes), result)


def encode_move(move: Move, index: dict[Tile, int]) -> int:
    """The raw move code of an engine move (``index``: each tile's index in ``full_set``);
    ``decode_move`` undoes it."""
    if isinstance(move, Play):
        kind = FIRST if move.end is None else ARMS.index(move.end)
        return move.seat << 16 | index[move.tile] << 3 | kind
    if isinstance(move, Draw):
        assert move.tile is not None  # the referee's record names every drawn tile
        return move.seat << 16 | index[move.tile] << 3 | DRAW
    return move.seat << 16 | PASS


def encode_hand(rules: Rules, state: HandState, result: HandResult) -> RawHand:
    """The raw hand a path would report for a finished engine hand: what lets a hand played
    on the engine (for rules no fast path plays, ``bones.fast.supports``) be counted with
    the same code as a fast path's. ``decode_hand`` gives the hand back."""
    tiles = full_set(rules.set)
    index = {t: i for i, t in enumerate(tiles)}
    drawn = tuple(m.tile for m in state.moves if isinstance(m, Draw) and m.tile is not None)
    order = tuple(index[t] for hand in state.deal for t in hand) + \
        tuple(index[t] for t in drawn + state.boneyard)
    codes = tuple(encode_move(m, index) for m in state.moves)
    assert result.end != "unfinished", "only a finished hand has a raw form"
    return (order, state.leader, codes, END_CODES[result.end],
            -1 if result.winner is None else result.winner, result.counts, result.points,
            result.pool)
