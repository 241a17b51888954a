"""ismcts: its budget is a number of search steps derived from the think time, so what it
does depends on the seed and the budget, never on the clock."""

from __future__ import annotations

import random

import pytest

import bones.ai.ismcts as ismcts
from bones.ai.ismcts import DEAL_STEPS, STEPS_PER_SECOND, IsmctsBot
from bones.engine.game import deal_hand, new_game
from bones.engine.rules import PRESETS
from bones.engine.view import observe


def _view(seed: int):
    game = deal_hand(new_game(PRESETS["block"]), random.Random(seed))
    return observe(game, game.current.to_move)


def _iterations(monkeypatch: pytest.MonkeyPatch, bot: IsmctsBot, seed: int) -> int:
    """How many deals ``bot`` samples (one per iteration) for its first play of a hand."""
    count = 0
    sample = ismcts.determinize

    def counted(*args, **kwargs):
        nonlocal count
        count += 1
        return sample(*args, **kwargs)

    monkeypatch.setattr(ismcts, "determinize", counted)
    bot.choose(_view(seed))
    return count


def test_think_time_becomes_a_step_budget():
    assert IsmctsBot(random.Random(1), think=0.1).steps == int(0.1 * STEPS_PER_SECOND)
    assert IsmctsBot(random.Random(1), think=1e-9).steps == DEAL_STEPS
    assert IsmctsBot(random.Random(1), steps=77).steps == 77


def test_more_steps_buy_more_iterations_and_iterations_still_cap(monkeypatch):
    few = _iterations(monkeypatch, IsmctsBot(random.Random(1), think=60, steps=200), 3)
    many = _iterations(monkeypatch, IsmctsBot(random.Random(1), think=60, steps=2000), 3)
    capped = _iterations(monkeypatch, IsmctsBot(random.Random(1), think=60, steps=2000,
                                                iterations=5), 3)
    # Every iteration costs the deal and at least one move, so 200 steps allow at most 66.
    assert 1 <= few <= 200 // (DEAL_STEPS + 1) < many
    assert capped == 5


def test_the_steps_not_the_clock_end_the_search(monkeypatch):
    """With a think time of 1 ms but a budget of 600 steps it runs well past 1 ms (a
    clocked search would stop after an iteration or two), and a clock that never moves
    changes nothing."""
    real = _iterations(monkeypatch, IsmctsBot(random.Random(4), think=0.001, steps=600), 8)
    monkeypatch.setattr(ismcts.time, "monotonic", lambda: 0.0)
    frozen = _iterations(monkeypatch, IsmctsBot(random.Random(4), think=0.001, steps=600), 8)
    assert real == frozen > 20
