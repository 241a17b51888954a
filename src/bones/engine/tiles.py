"""Tiles, sets and the "heavier" order that settles every highest-tile rule.

A tile is a small immutable value written high half first (``6-5``); sets are double-N for
N in 2, 3, 4, 5 (small sets for teaching and
research) and 6, 9, 12, 15, 18.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from bones.engine.errors import quoted


class Tile(NamedTuple):
    """One domino, normalised so that ``high >= low``."""

    high: int
    low: int

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    @property
    def pips(self) -> int:
        """Total pips: what the tile adds to a count."""
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    def matches(self, number: int) -> bool:
        """Whether either half shows ``number``."""
        return self.high == number or self.low == number

    def other(self, number: int) -> int:
        """The half left open when the half showing ``number`` is laid against an arm."""
        return self.low if self.high == number else self.high


def tile(a: int, b: int) -> Tile:
    """Build a tile from two halves in either order.

    >>> tile(4, 6)
    Tile(high=6, low=4)
    """
    return Tile(a, b) if a >= b else Tile(b, a)


def parse_tile(text: object, top: int | None = None) -> Tile:
    """Read ``"a-b"`` (either order); with ``top`` also check the tile belongs to double-``top``.

    >>> str(parse_tile("4-6"))
    '6-4'
    """
    if not isinstance(text, str):
        raise ValueError(f'a tile is written as a string such as "6-4", not {quoted(text)}')
    # Exactly "a-b": no spaces, no sign, no leading zero ("06-6"), ASCII digits only, so a
    # record or a reply that another program would read otherwise is never taken for one;
    # and at most two digits a half, since no set goes past double-18 (a half of thousands
    # of digits would only make a message thousands of characters long).
    parts = text.split("-")
    if len(parts) != 2 or not all(p.isdigit() and p.isascii() and (p == "0" or p[0] != "0")
                                  and len(p) <= 2 for p in parts):
        raise ValueError(f"{quoted(text)} is not a tile: a tile is two numbers and a dash, "
                         'such as "6-4"')
    t = tile(int(parts[0]), int(parts[1]))
    if top is not None and t.high > top:
        raise ValueError(f'{t} is not in the double-{top} set')
    return t


def parse_tiles(text: str, top: int | None = None) -> tuple[Tile, ...]:
    """Read a compact list such as ``"6-6 5-4 3-1"`` (spaces or commas)."""
    return tuple(parse_tile(part, top) for part in text.replace(",", " ").split())


def full_set(top: int) -> tuple[Tile, ...]:
    """Every tile of double-``top``, in a fixed order (lowest first)."""
    return tuple(Tile(a, b) for a in range(top + 1) for b in range(a + 1))


def set_size(top: int) -> int:
    """Number of tiles in double-``top``: (N+1)(N+2)/2."""
    return (top + 1) * (top + 2) // 2


def weight(t: Tile) -> tuple[int, bool, int]:
    """Sort key for "heavier": more pips, then a double, then the higher high half."""
    return (t.pips, t.is_double, t.high)


def heaviest(tiles: Iterable[Tile]) -> Tile:
    """The heaviest of ``tiles`` (which must not be empty)."""
    return max(tiles, key=weight)


def highest_double(tiles: Iterable[Tile]) -> Tile | None:
    """The double with the most pips among ``tiles``, or ``None`` if there is none."""
    doubles = [t for t in tiles if t.is_double]
    return max(doubles) if doubles else None


def count(tiles: Iterable[Tile]) -> int:
    """Pips in a hand: the hand's count."""
    return sum(t.high + t.low for t in tiles)
