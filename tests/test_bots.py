"""Bots choose only legal plays from their seat's view, reproduce under a seed, and read the
public events correctly."""

from __future__ import annotations

import random

import pytest

import scripted
from bones.ai.beliefs import infer
from bones.ai.levels import LEVELS, make_bot
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


def test_a_drawn_tile_is_unknown_until_the_drawer_moves_again():
    game = _scripted(draw=True)
    game = play(game, Play(0, parse_tiles("6-6")[0]))
    game = play(game, Draw(1))  # 4-3: no six
    beliefs = infer(observe(game, 0))
    assert beliefs.parts[1] == ((frozenset({6}), 7), (frozenset(), 1))
    assert beliefs.voids[1] == set()  # the tile drawn may be a six, for all seat 0 knows
    game = play(game, Draw(1))  # drawing again: the first tile drawn was no six either
    beliefs = infer(observe(game, 0))
    assert beliefs.parts[1] == ((frozenset({6}), 8), (frozenset(), 1))
    assert all(m.tile is None for m in observe(game, 0).moves if isinstance(m, Draw))


def test_tiles_held_before_a_draw_still_lack_what_they_lacked():
    """Seat 1 draws on a six and plays the tile drawn, then draws on a one and a blank and
    plays that tile too: the seven tiles it was dealt lack all three numbers."""
    game = scripted.hand(PRESETS["draw"], ["6-6 6-0 6-5 6-4 6-3 1-1 2-2",
                                           "5-5 5-4 5-3 5-2 4-4 4-3 4-2"], "6-1 1-0", 0)
    # after 6-0 the arms are a blank and a one
    game = scripted.moves(game, "6-6, draw, 6-1 right, 6-0 left, draw, 1-0 right")
    beliefs = infer(observe(game, 0))
    assert beliefs.parts[1] == ((frozenset({0, 1, 6}), 7),)
    assert beliefs.voids[1] == {0, 1, 6}


@pytest.mark.parametrize(("preset", "options"), [
    ("draw", {}), ("draw", {"players": 3}), ("draw", {"players": 4}),
    ("pagat-draw", {"set": 9, "hand_size": 7, "players": 4}),
])
def test_inferred_parts_never_rule_out_the_real_hands(preset, options):
    """Every other seat's real hand can be split into its inferred parts: each part gets
    as many tiles as it says, none holding a number it lacks."""
    rules = PRESETS[preset].replace(**options)
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        game = deal_hand(new_game(rules), rng)
        while (state := game.current) is not None:
            moves = state.legal_moves()
            viewer = state.to_move
            beliefs = infer(observe(game, viewer))
            for seat in range(rules.players):
                if seat != viewer:
                    assert _splits(list(state.hands[seat]), list(beliefs.parts[seat]))
                    checked += 1
            game = play(game, rng.choice(moves))
    assert checked > 300


def _splits(hand: list, parts: list[tuple[frozenset[int], int]]) -> bool:
    """Whether ``hand`` can be shared among ``parts`` (exactly their counts, none holding
    a number its part lacks)."""
    if not hand:
        return all(count == 0 for _, count in parts)
    tile, rest = hand[0], hand[1:]
    for k, (lacked, count) in enumerate(parts):
        if count and tile.high not in lacked and tile.low not in lacked:
            left = parts[:k] + [(lacked, count - 1)] + parts[k + 1:]
            if _splits(rest, left):
                return True
    return False
