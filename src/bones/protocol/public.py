"""A hand replayed from one seat's side: what the moves of a bot-protocol request say about
the layout, each seat's tile count, the boneyard and whose turn it is, checked move by move
as far as public facts allow.

A request comes from a program we do not control, so nothing in it is trusted. A move out of
turn, a tile that does not fit or is already laid, a draw in a Block game, a seat's own draw
without its tile, or a hand that is already over is refused with a one-line ``BonesError``
naming the move, rather than reaching a bot as a view that no deal could produce. Other
seats' tiles are unknown, so whether their passes and draws were forced cannot be checked,
except that nobody may pass while the boneyard can still be drawn from.

A play written without its ``end`` is read as a record reads it: it must fit exactly one arm.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bones.engine.errors import BonesError
from bones.engine.layout import Layout, empty_layout
from bones.engine.moves import ARMS, Draw, Move, Play
from bones.engine.rules import Rules
from bones.engine.state import arm_for, reserve_of, would_draw
from bones.engine.tiles import Tile
from bones.protocol.quoting import quoted


@dataclass(frozen=True, slots=True)
class Public:
    """The public state after a request's moves, with every play's ``end`` filled in."""

    layout: Layout
    held: tuple[int, ...]
    boneyard_left: int
    to_move: int
    moves: tuple[Move, ...]


def replay_public(rules: Rules, seat: int, hand: Sequence[Tile], leader: int,
                  moves: Sequence[Move]) -> Public:
    """Replay ``moves`` (seats already known to exist) from the deal, checking each; then
    check that it is ``seat``'s turn and that ``hand`` is what its moves leave it."""
    layout = empty_layout(rules)
    held = [rules.dealt] * rules.players
    left = rules.undealt
    to_move = leader
    mine = frozenset(hand)
    drawn: list[Tile] = []
    played: set[Tile] = set()
    out: int | None = None
    done: list[Move] = []
    for number, move in enumerate(moves, 1):
        try:
            if out is not None:
                raise BonesError(f"the hand is already over: seat {out} is out")
            if move.seat != to_move:
                raise BonesError(f"it is seat {to_move}'s turn, not seat {move.seat}'s")
            if isinstance(move, Play):
                move = _play(rules, layout, move, seat, mine, drawn)
                layout = layout.place(move.tile, move.end)
                held[move.seat] -= 1
                if move.seat == seat:
                    played.add(move.tile)
                if held[move.seat] == 0:
                    out = move.seat
                to_move = (move.seat + 1) % rules.players
            elif layout.is_empty:
                raise BonesError(f"seat {move.seat} leads and must set a tile")
            elif isinstance(move, Draw):
                _draw(rules, layout, move, seat, left, drawn)
                if move.tile is not None:
                    drawn.append(move.tile)
                held[move.seat] += 1
                left -= 1
            else:
                if would_draw(rules, left):
                    raise BonesError(f"seat {move.seat} may not pass: the boneyard holds "
                                     f"{left} tiles and the reserve is {reserve_of(rules)}")
                to_move = (move.seat + 1) % rules.players
        except BonesError as exc:
            raise BonesError(f"move {number}: {exc}") from None
        done.append(move)
    if out is not None:
        raise BonesError(f"the hand is already over: seat {out} is out")
    if to_move != seat:
        raise BonesError(f"after these moves it is seat {to_move}'s turn, not seat {seat}'s")
    if len(hand) != held[seat]:
        raise BonesError(f"by its moves seat {seat} holds {held[seat]} tiles, but the hand "
                         f"lists {len(hand)}")
    for t in hand:
        if t in layout.placed:
            raise BonesError(f"{t} is in the hand and on the layout")
    for t in drawn:
        if t not in mine and t not in played:
            raise BonesError(f"seat {seat} drew {t}, which is neither in its hand nor played")
    return Public(layout, tuple(held), left, to_move, tuple(done))


def _play(rules: Rules, layout: Layout, move: Play, seat: int, mine: frozenset[Tile],
          drawn: Sequence[Tile]) -> Play:
    """The play with its arm, or ``BonesError`` saying why it cannot have happened."""
    t = move.tile
    if t.high > rules.set:
        raise BonesError(f"{t} is not in the double-{rules.set} set")
    if t in layout.placed:
        raise BonesError(f"{t} is already on the layout")
    if t in mine:
        raise BonesError(f"{t} is still in seat {seat}'s hand")
    if move.seat != seat and t in drawn:
        raise BonesError(f"seat {seat} drew {t}; seat {move.seat} cannot play it")
    if layout.is_empty:
        return Play(move.seat, t)
    if move.end is not None and move.end not in ARMS:  # any JSON value: named as JSON
        raise BonesError(f"{quoted(move.end)} is not an arm (left, right, up, down)")
    return Play(move.seat, t, arm_for(layout, t, move.end))


def _draw(rules: Rules, layout: Layout, move: Draw, seat: int, left: int,
          drawn: Sequence[Tile]) -> None:
    """``BonesError`` unless ``move`` could have happened (its tile shown only to ``seat``)."""
    kept = reserve_of(rules)
    if kept is None:
        raise BonesError("this is a Block game (draw: false); nobody draws")
    if not would_draw(rules, left):
        raise BonesError(f"the boneyard holds {left} tiles and the reserve is "
                         f"{kept}; nobody may draw")
    t = move.tile
    if move.seat != seat:
        if t is not None:
            raise BonesError(f"seat {move.seat}'s drawn tile is shown; a request shows "
                             "another seat's draws as null")
        return
    if t is None:
        raise BonesError(f"seat {seat}'s own draw must show its tile")
    if t.high > rules.set:
        raise BonesError(f"{t} is not in the double-{rules.set} set")
    if t in layout.placed or t in drawn:
        raise BonesError(f"{t} was drawn, but it is already out of the boneyard")
