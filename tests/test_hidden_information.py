"""Hidden information is sacred: a seat's view, and so everything a bot or the terminal is
given, holds no tile of another seat's hand or of the boneyard that the seat has not seen."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bones.engine.game import deal_hand, new_game, play_unchecked
from bones.engine.layout import Layout
from bones.engine.moves import Draw
from bones.engine.rules import PRESETS
from bones.engine.tiles import Tile
from bones.engine.view import observe

VARIANTS = [
    ("block", {}), ("draw", {"players": 3}), ("pagat-draw", {"players": 4}),
    ("pool", {"players": 5, "opening": "highest-double"}),
    ("puerto-rico", {"opening": "top-double", "no_double": "heaviest"}),
    ("draw", {"players": 4, "partnerships": True, "spinner": "first-double"}),
]


def _tiles_in(value: object) -> set[Tile]:
    """Every tile anywhere inside a value (fields, tuples, sets, layouts)."""
    if isinstance(value, Tile):
        return {value}
    if isinstance(value, Layout):
        return set(value.placed) | ({value.first} if value.first else set())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return set().union(*(_tiles_in(getattr(value, f.name))
                             for f in dataclasses.fields(value)))
    if isinstance(value, (tuple, list, set, frozenset)):
        return set().union(*(_tiles_in(v) for v in value)) if value else set()
    return set()


@pytest.mark.parametrize(("preset", "options"), VARIANTS)
def test_a_seat_view_shows_only_its_own_tiles_and_public_ones(preset, options):
    rules = PRESETS[preset].replace(**options)
    rng = random.Random(23)
    for _ in range(15):
        game = deal_hand(new_game(rules), rng)
        while (state := game.current) is not None:
            for seat in range(rules.players):
                own_draws = {m.tile for m in state.moves if isinstance(m, Draw)
                             and m.seat == seat}
                allowed = set(state.hands[seat]) | state.layout.placed | own_draws
                view = observe(game, seat)
                leaked = _tiles_in(dataclasses.replace(view, rules=rules)) - allowed
                assert not leaked, f"seat {seat} sees {sorted(map(str, leaked))}"
            game = play_unchecked(game, rng.choice(state.legal_moves()))
