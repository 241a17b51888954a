"""The search position agrees with the engine move for move, and undo restores it exactly."""

from __future__ import annotations

import random

import pytest

from bones.ai.position import OUT, PLAYING, Position
from bones.engine.game import deal_hand, new_game
from bones.engine.rules import PRESETS
from bones.engine.state import apply_unchecked

VARIANTS = [
    ("block", {}),
    ("draw", {"players": 3}),
    ("draw", {"call_block": True, "reserve": 0}),
    ("pool", {"players": 4, "spinner": "first-double"}),
    ("block", {"players": 4, "partnerships": True, "hand_size": 7, "spinner": "first-double"}),
    ("pagat-draw", {"set": 9, "hand_size": 7, "players": 4, "opening": "top-double",
                    "no_double": "heaviest"}),
]


def _snapshot(pos: Position):
    return (list(pos.hands), pos.arms[:], pos.spinner, pos.waiting, pos.placed, pos.status,
            pos.drawn, pos.to_move)


@pytest.mark.parametrize(("preset", "options"), VARIANTS)
def test_position_follows_the_engine_and_undo_restores(preset, options):
    rules = PRESETS[preset].replace(**options)
    rng = random.Random(17)
    for _ in range(25):
        state = deal_hand(new_game(rules), rng).current
        pos = Position.from_state(state)
        history = []
        while state.end is None:
            engine_moves = set(state.legal_moves())
            ints = pos.moves()
            assert {pos.to_engine(m) for m in ints} == engine_moves
            move = rng.choice(ints)
            history.append(_snapshot(pos))
            expected = pos.to_engine(move)
            pos.play(move)
            state = apply_unchecked(state, expected)
            assert pos.to_move == state.to_move or state.end is not None
            assert (pos.status != PLAYING) == (state.end is not None)
            assert [pos.count(s) for s in range(rules.players)] == \
                [state.count(s) for s in range(rules.players)]
        assert (pos.status == OUT) == (state.end == "out")
        while history:
            pos.undo()
            assert _snapshot(pos) == history.pop()
