"""What a seat can infer from public events: which numbers each other seat lacks, and which
tiles it has not seen.

A pass (or, in Draw, a draw) means the seat held no tile matching any open arm at that
moment. A draw gives the seat unknown new tiles, which may hold numbers it lacked before, so
each draw restarts that seat's voids from the open numbers of that moment.
"""

from __future__ import annotations

from dataclasses import dataclass

from bones.engine.layout import Layout
from bones.engine.moves import Draw, Pass, Play
from bones.engine.tiles import Tile, full_set
from bones.engine.view import SeatView


@dataclass(frozen=True, slots=True)
class Beliefs:
    """Public knowledge from one seat's point of view."""

    #: For each seat, the numbers it is known to hold no tile of now.
    voids: tuple[frozenset[int], ...]
    #: Tiles the viewer has not seen: in other hands or in the boneyard.
    unseen: frozenset[Tile]
    #: The number each seat last left open by its own play (for partnership play).
    last_exposed: tuple[int | None, ...]


def infer(view: SeatView) -> Beliefs:
    """Read the beliefs of ``view.seat`` from the public moves of the hand."""
    n = view.rules.players
    voids: list[set[int]] = [set() for _ in range(n)]
    exposed: list[int | None] = [None] * n
    layout = Layout(uses_spinner=view.rules.spinner == "first-double")
    for move in view.moves:
        seat = move.seat
        if isinstance(move, Play):
            before = layout
            layout = layout.place(move.tile, move.end if not layout.is_empty else None)
            if before.is_empty:
                exposed[seat] = None
            elif move.end is not None:
                exposed[seat] = layout.end(move.end)
        elif isinstance(move, Draw):
            # The arms do not change during a run of draws, so every draw of the run lacks the
            # same numbers; what the seat lacked before may be among the unknown tiles drawn.
            voids[seat] = set(layout.open_numbers())
        elif isinstance(move, Pass):
            voids[seat] |= layout.open_numbers()
    seen = set(view.hand) | set(layout.placed)
    unseen = frozenset(t for t in full_set(view.rules.set) if t not in seen)
    return Beliefs(tuple(frozenset(v) for v in voids), unseen, tuple(exposed))


@dataclass(frozen=True, slots=True)
class Decision:
    """A play another seat made, with what it could see then: the open numbers (``None`` for
    the first tile of the hand) and the tiles it has played since (so its hand at the time was
    its hand now plus these, when it has not drawn since)."""

    seat: int
    tile: Tile
    numbers: frozenset[int] | None
    later: frozenset[Tile]


def decisions(view: SeatView) -> tuple[Decision, ...]:
    """Every play by another seat whose hand at the time is known from its hand now: plays
    after the seat's last draw (a draw brings tiles nobody else saw), less a first tile the
    rules named (no choice, so no information)."""
    layout = Layout(uses_spinner=view.rules.spinner == "first-double")
    found: list[tuple[int, Tile, frozenset[int] | None]] = []
    last_draw = [-1] * view.rules.players
    for index, move in enumerate(view.moves):
        if isinstance(move, Play):
            numbers = None if layout.is_empty else layout.open_numbers()
            forced = layout.is_empty and view.rules.opening != "any"
            if move.seat != view.seat and not forced:
                found.append((index, move.tile, numbers))
            layout = layout.place(move.tile, move.end if not layout.is_empty else None)
        elif isinstance(move, Draw):
            last_draw[move.seat] = index
    out = []
    for index, tile, numbers in found:
        seat = view.moves[index].seat
        if index < last_draw[seat]:
            continue
        later = frozenset(m.tile for m in view.moves[index + 1:]
                          if isinstance(m, Play) and m.seat == seat)
        out.append(Decision(seat, tile, numbers, later))
    return tuple(out)
