"""The expert's exact solver agrees with a plain minimax, and its choices are legal."""

from __future__ import annotations

import math
import random

import pytest

from bones.ai.expert import Judge
from bones.ai.position import PLAYING, Position
from bones.engine.game import deal_hand, new_game
from bones.engine.rules import PRESETS
from bones.engine.state import apply_unchecked


def _minimax(judge: Judge, pos: Position) -> float:
    if pos.status != PLAYING:
        return judge.value(pos)
    values = []
    for move in pos.moves():
        pos.play(move)
        values.append(_minimax(judge, pos))
        pos.undo()
    return max(values) if judge.sides[pos.to_move] == judge.side else min(values)


@pytest.mark.parametrize(("preset", "options"), [
    ("block", {}), ("draw", {"reserve": 10}), ("pool", {"players": 3}),
    ("block", {"players": 4, "partnerships": True, "hand_size": 7}),
])
def test_alpha_beta_with_table_equals_plain_minimax(preset, options):
    rules = PRESETS[preset].replace(**options)
    rng = random.Random(8)
    checked = 0
    for _ in range(60):
        state = deal_hand(new_game(rules), rng).current
        while state.end is None and sum(len(h) for h in state.hands) > 7:
            state = apply_unchecked(state, rng.choice(state.legal_moves()))
        if state.end is not None:
            continue
        pos = Position.from_state(state)
        judge = Judge(rules, 0, (0,) * rules.sides)
        exact = _minimax(judge, pos)
        assert math.isclose(judge.solve(pos, 10**7), exact)
        checked += 1
    assert checked > 10
