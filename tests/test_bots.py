"""Bots choose only legal plays from their seat's view, reproduce under a seed, and read the
public events correctly."""

from __future__ import annotations

import random

import pytest

from bones.ai.base import LEVELS, make_bot
from bones.ai.beliefs import infer
from bones.engine.game import deal_hand, new_game, play, start_hand
from bones.engine.moves import Draw, Pass, Play
from bones.engine.rules import PRESETS, Rules
from bones.engine.tiles import parse_tiles, weight
from bones.engine.view import observe

#: Think time of search bots in these tests: enough to search, short enough to run everywhere.
THINK = 0.005

VARIANTS = [
    ("block", {}),
    ("draw", {"players": 3}),
    ("pool", {"players": 5, "spinner": "first-double"}),
    ("block", {"players": 4, "partnerships": True, "hand_size": 7}),
    ("pagat-draw", {"call_block": True, "reserve": 0}),
    ("puerto-rico", {"set": 9, "hand_size": 9, "players": 3}),
]


def _play_game(rules: Rules, levels: list[str], seed: int):
    rng = random.Random(seed)
    bots = [make_bot(level, random.Random(seed * 7 + s), THINK) for s, level in enumerate(levels)]
    game = new_game(rules)
    choices = []
    while not game.finished and len(game.hands) < 4:
        game = deal_hand(game, rng)
        while game.current is not None:
            state = game.current
            moves = state.legal_moves()
            if isinstance(moves[0], Play):
                view = observe(game, state.to_move)
                move = bots[state.to_move].choose(view)
                assert move in view.legal
                choices.append(move)
            else:
                move = moves[0]
            game = play(game, move)  # the checked path refuses anything illegal
    return game, choices


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("preset", "options"), VARIANTS)
def test_bot_plays_only_legal_moves_under_every_variant(level, preset, options):
    rules = PRESETS[preset].replace(**options)
    game, choices = _play_game(rules, [level] * rules.players, 3)
    assert choices and game.results


@pytest.mark.parametrize("level", LEVELS)
def test_seeded_bots_reproduce_the_same_game(level):
    """The search bots count steps rather than the clock, so a seed fixes their games too."""
    rules = PRESETS["draw"]
    first = _play_game(rules, [level, "random"], 9)
    again = _play_game(rules, [level, "random"], 9)
    assert first[1] == again[1] and first[0].scores == again[0].scores


def test_greedy_plays_the_heaviest_playable_tile():
    for seed in range(20):
        rng = random.Random(seed)
        game = deal_hand(new_game(PRESETS["block"]), rng)
        view = observe(game, game.current.to_move)
        choice = make_bot("greedy", random.Random(seed)).choose(view)
        assert weight(choice.tile) == max(weight(p.tile) for p in view.legal)


def _scripted(draw: bool):
    rules = PRESETS["draw" if draw else "block"]
    deal = [parse_tiles("6-6 6-5 6-4 6-3 6-2 6-1 6-0"), parse_tiles("5-5 5-4 5-3 5-2 5-1 5-0 4-4")]
    used = {t for hand in deal for t in hand}
    boneyard = [t for t in parse_tiles("4-3 4-2 4-1 4-0 3-3 3-2 3-1 3-0 2-2 2-1 2-0 1-1 1-0 0-0")
                if t not in used]
    return start_hand(new_game(rules), deal, boneyard, 0)


def test_a_pass_shows_the_passer_lacks_every_open_number():
    game = _scripted(draw=False)
    game = play(game, Play(0, parse_tiles("6-6")[0]))
    game = play(game, Pass(1))  # seat 1 holds no six
    beliefs = infer(observe(game, 0))
    assert beliefs.voids[1] == {6}
    assert parse_tiles("6-5")[0] not in beliefs.unseen  # seat 0 holds it
    assert parse_tiles("4-4")[0] in beliefs.unseen


def test_a_draw_restarts_what_the_drawer_is_known_to_lack():
    game = _scripted(draw=True)
    game = play(game, Play(0, parse_tiles("6-6")[0]))
    game = play(game, Draw(1))  # 4-3: no six
    beliefs = infer(observe(game, 0))
    assert beliefs.voids[1] == {6}
    assert all(m.tile is None for m in observe(game, 0).moves if isinstance(m, Draw))
