"""Words of rules.md: sets, tile notation, and the "heavier" order behind every highest-tile
rule (lots, the heaviest tile, the highest double)."""

from __future__ import annotations

import itertools
import random

import pytest

from bones.engine.game import draw_lots
from bones.engine.rules import Rules
from bones.engine.tiles import (
    Tile,
    count,
    full_set,
    heaviest,
    highest_double,
    parse_tile,
    parse_tiles,
    set_size,
    tile,
    weight,
)


@pytest.mark.parametrize(("top", "size"), [(6, 28), (9, 55), (12, 91), (15, 136), (18, 190)])
def test_set_double_n_has_one_tile_per_pair(top, size):
    tiles = full_set(top)
    assert len(tiles) == set_size(top) == size == (top + 1) * (top + 2) // 2
    expected = {(a, b) for a in range(top + 1) for b in range(top + 1) if b <= a}
    assert {(t.high, t.low) for t in tiles} == expected
    assert len(set(tiles)) == size
    assert sum(t.is_double for t in tiles) == top + 1


def test_tile_is_written_high_half_first():
    assert str(tile(4, 6)) == "6-4"
    assert str(tile(0, 4)) == "4-0"
    assert str(parse_tile("3-3")) == "3-3"


def test_reader_accepts_either_order_of_halves():
    assert parse_tile("4-6") == parse_tile("6-4") == Tile(6, 4)
    assert parse_tiles("6-6 4-5, 1-3") == (Tile(6, 6), Tile(5, 4), Tile(3, 1))


@pytest.mark.parametrize("text", ["6", "6-", "-6", "6:5", "six-five", "6-5-4", "", "a-b",
                                  "6.0-5", "\u0666-\u0665", "06-6", "6-05", "00-0", " 6-5",
                                  "6-5 ", "+6-5", "6 -5"])
def test_malformed_tile_strings_are_refused(text):
    with pytest.raises(ValueError):
        parse_tile(text)


def test_tile_outside_the_set_is_refused_when_the_set_is_given():
    with pytest.raises(ValueError, match="double-6"):
        parse_tile("7-1", top=6)
    assert parse_tile("9-1", top=9) == Tile(9, 1)


def test_blank_counts_zero_pips():
    assert count(parse_tiles("0-0 6-0 3-2")) == 0 + 6 + 5


def _heavier(a: Tile, b: Tile) -> bool:
    """rules.md, written out: more pips; on equal pips a double; else the higher high half."""
    if a.pips != b.pips:
        return a.pips > b.pips
    if a.is_double != b.is_double:
        return a.is_double
    return a.high > b.high


def test_heavier_order_more_pips_then_double_then_high_half():
    six = parse_tiles("6-0 5-1 4-2 3-3")
    assert heaviest(six) == Tile(3, 3)  # equal totals: the double beats the others
    assert heaviest(parse_tiles("6-0 5-1 4-2")) == Tile(6, 0)  # then the higher high half
    assert heaviest(parse_tiles("5-5 6-3")) == Tile(5, 5)
    assert heaviest(parse_tiles("6-4 5-5")) == Tile(5, 5)
    assert heaviest(parse_tiles("6-5 5-5")) == Tile(6, 5)  # more pips beats a double
    assert heaviest(parse_tiles("1-1 2-0")) == Tile(1, 1)


@pytest.mark.parametrize("top", [6, 9])
def test_heavier_order_is_total_and_matches_the_spec_on_every_pair(top):
    for a, b in itertools.combinations(full_set(top), 2):
        assert (weight(a) > weight(b)) == _heavier(a, b)
        assert weight(a) != weight(b)  # never two tiles equally heavy


def test_highest_double_is_the_double_with_most_pips():
    assert highest_double(parse_tiles("6-5 2-2 4-4 1-1")) == Tile(4, 4)
    assert highest_double(parse_tiles("6-5 4-3")) is None


class _FixedDraw(random.Random):
    """An rng that hands out given tiles as the seats' lots, in seat order."""

    def __init__(self, lots: str) -> None:
        super().__init__(0)
        self.lots = list(parse_tiles(lots))

    def shuffle(self, x):  # type: ignore[override]
        rest = [t for t in x if t not in self.lots]
        x[:] = self.lots + rest

    def sample(self, population, k, **kwargs):  # type: ignore[override]
        assert k == len(self.lots)
        return list(self.lots)


@pytest.mark.parametrize(("lots", "leader"), [
    ("6-0 3-3 5-1", 1),   # 6 pips each: the double leads
    ("6-0 5-1 4-2", 0),   # 6 pips each, no double: the higher high half
    ("2-1 6-6 0-0", 1),
    ("1-0 0-0 2-0 1-1", 3),
])
def test_lots_the_heavier_tile_leads(lots, leader):
    r = Rules(players=len(lots.split()), hand_size=3)
    assert draw_lots(r, _FixedDraw(lots)) == leader
