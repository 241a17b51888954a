"""What a seat can infer from public events: which numbers each other seat lacks, and which
tiles it has not seen.

A pass (or, in Draw, a draw) means the seat held no tile matching any open arm at that
moment. A draw gives the seat an unknown new tile, which may hold numbers it lacked before,
so a seat's hand is kept in parts: the tiles it held at its earlier passes and draws lack
more numbers than the tiles it drew since. Each part is a number of tiles and the numbers
none of them holds; ``voids`` are the numbers no part holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from bones.engine.layout import empty_layout
from bones.engine.lead import opening_named
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
    #: Per seat, the parts of its hand as (numbers lacked, tiles), oldest first: the oldest
    #: part lacks every number a later one lacks. Empty: one part per seat, its ``voids``.
    parts: tuple[tuple[tuple[frozenset[int], int], ...], ...] = ()


class _Hand:
    """One seat's hand as parts, oldest first, for ``infer``.

    Which part a played tile left is not always known; it is taken from the oldest part
    that may hold it. That never rules out the real hand: a part that lacks more numbers
    keeps fewer tiles, so the parts allow at least every hand the truth allows."""

    def __init__(self, dealt: int) -> None:
        self.parts: list[tuple[frozenset[int], int]] = [(frozenset(), dealt)]
        self._merge()

    def lacks(self, numbers: frozenset[int]) -> None:
        """A pass or a draw: no tile in the hand matches ``numbers``."""
        self.parts = [(lacked | numbers, count) for lacked, count in self.parts]
        self._merge()

    def drew(self) -> None:
        self.parts.append((frozenset(), 1))
        self._merge()

    def played(self, tile: Tile) -> None:
        # _merge keeps only parts that hold tiles; not from a legal record, a tile no part
        # may hold is lost from the newest part
        fits = [k for k, (lacked, _) in enumerate(self.parts)
                if tile.high not in lacked and tile.low not in lacked]
        if self.parts:
            k = fits[0] if fits else len(self.parts) - 1
            self.parts[k] = (self.parts[k][0], self.parts[k][1] - 1)
        self._merge()

    def _merge(self) -> None:
        merged: list[tuple[frozenset[int], int]] = []
        for lacked, count in self.parts:
            if not count:
                continue
            if merged and merged[-1][0] == lacked:
                merged[-1] = (lacked, merged[-1][1] + count)
            else:
                merged.append((lacked, count))
        self.parts = merged

    @property
    def voids(self) -> frozenset[int]:
        if not self.parts:
            return frozenset()
        return frozenset.intersection(*(lacked for lacked, _ in self.parts))


def infer(view: SeatView) -> Beliefs:
    """Read the beliefs of ``view.seat`` from the public moves of the hand."""
    n = view.rules.players
    dealt = list(view.held)
    for move in view.moves:
        if isinstance(move, Play):
            dealt[move.seat] += 1
        elif isinstance(move, Draw):
            dealt[move.seat] -= 1
    hands = [_Hand(count) for count in dealt]
    exposed: list[int | None] = [None] * n
    layout = empty_layout(view.rules)
    for move in view.moves:
        seat = move.seat
        if isinstance(move, Play):
            before = layout
            layout = layout.place(move.tile, move.end if not layout.is_empty else None)
            hands[seat].played(move.tile)
            if before.is_empty:
                exposed[seat] = None
            elif move.end is not None:
                exposed[seat] = layout.shows(move.end)
        elif isinstance(move, Draw):
            # Nothing in the hand matched the arms; the tile drawn is unknown until the
            # seat's next move says more (another draw or a pass: it did not match either).
            hands[seat].lacks(frozenset(layout.open_numbers()))
            hands[seat].drew()
        elif isinstance(move, Pass):
            hands[seat].lacks(frozenset(layout.open_numbers()))
    seen = set(view.hand) | set(layout.placed)
    unseen = frozenset(t for t in full_set(view.rules.set) if t not in seen)
    return Beliefs(tuple(hand.voids for hand in hands), unseen, tuple(exposed),
                   tuple(tuple(hand.parts) for hand in hands))


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
    layout = empty_layout(view.rules)
    found: list[tuple[int, Tile, frozenset[int] | None]] = []
    last_draw = [-1] * view.rules.players
    for index, move in enumerate(view.moves):
        if isinstance(move, Play):
            numbers = None if layout.is_empty else layout.open_numbers()
            forced = layout.is_empty and opening_named(view.rules)
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
