"""The expert's exact solver agrees with a plain minimax, and its choices are legal."""

from __future__ import annotations

import math
import random

import pytest

from bones.ai import expert
from bones.ai.expert import Judge
from bones.ai.position import PLAYING, Position
from bones.ai.simple import GreedyBot
from bones.engine.game import deal_hand, new_game, play_unchecked
from bones.engine.moves import Play
from bones.engine.rules import PRESETS
from bones.engine.state import apply_unchecked
from bones.engine.view import observe
from bones.fast import search


def _reference(judge: Judge, pos: Position, model: bool) -> float:
    """Plain full-width search: the side maximises; the others minimise, or with ``model``
    choose by weights exp(BETA * pips) (an expectation)."""
    if pos.status != PLAYING:
        return judge.value(pos)
    moves = pos.moves()
    values = []
    for move in moves:
        pos.play(move)
        values.append(_reference(judge, pos, model))
        pos.undo()
    if judge.sides[pos.to_move] == judge.side:
        return max(values)
    if not model:
        return min(values)
    weights = [math.exp(expert.BETA * pos.set.pips[m >> 2]) for m in moves]
    return sum(w * v for w, v in zip(weights, values, strict=True)) / sum(weights)


@pytest.mark.parametrize(("preset", "options"), [
    ("block", {}), ("draw", {"reserve": 10}), ("pool", {"players": 3}),
    ("block", {"players": 4, "partnerships": True, "hand_size": 7}),
])
@pytest.mark.parametrize("model", [False, True])
def test_search_with_pruning_and_table_equals_plain_search(preset, options, model, monkeypatch):
    monkeypatch.setattr(expert, "MODEL_OPPONENTS", model)
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
        exact = _reference(judge, pos, model)
        assert math.isclose(judge.solve(pos, 10**7), exact)
        checked += 1
    assert checked > 10


def test_a_solve_that_runs_out_of_nodes_leaves_the_position_as_it_was():
    rules = PRESETS["block"]
    rng = random.Random(4)
    tried = 0
    for _ in range(20):
        state = deal_hand(new_game(rules), rng).current
        pos = Position.from_state(state)
        before = (list(pos.hands), pos.arms[:], pos.to_move, len(pos.stack), pos.status)
        judge = Judge(rules, 0, (0,) * rules.sides)
        with pytest.raises(expert.OutOfNodes):
            judge.solve(pos, 5)
        assert (list(pos.hands), pos.arms[:], pos.to_move, len(pos.stack), pos.status) == before
        assert judge.steps == 6  # the nodes visited, counted even though the solve failed
        tried += 1
    assert tried == 20


def _expert_game(rules, backend: str, seed: int) -> list[Play]:
    rng = random.Random(seed)
    bots = [expert.ExpertBot(random.Random(seed + s), think=0.005, backend=backend)
            if s % 2 == 0 else GreedyBot(random.Random(seed + s)) for s in range(rules.players)]
    game = deal_hand(new_game(rules), rng)
    chosen = []
    while (state := game.current) is not None:
        moves = state.legal_moves()
        move = moves[0]
        if isinstance(move, Play):
            move = bots[state.to_move].choose(observe(game, state.to_move))
            assert move in moves
            chosen.append(move)
        game = play_unchecked(game, move)
    return chosen


@pytest.mark.parametrize("backend", ["python", "c"])
@pytest.mark.parametrize(("preset", "options"), [
    ("block", {}), ("draw", {"players": 3}), ("pool", {"players": 4, "spinner": "first-double"}),
    ("block", {"players": 4, "partnerships": True, "hand_size": 7}),
    ("pagat-draw", {"set": 9, "hand_size": 7, "players": 4}),
])
def test_expert_plays_legal_moves_and_reproduces_on_either_search_path(backend, preset,
                                                                        options):
    if backend == "c" and not search.available():
        pytest.skip(search.MISSING)
    rules = PRESETS[preset].replace(**options)
    for seed in (1, 2):
        first = _expert_game(rules, backend, seed)
        assert first and first == _expert_game(rules, backend, seed)
