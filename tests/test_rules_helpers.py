"""The engine's answers to what front ends and bots ask of the rules (the layout to start
from, whether a seat would draw, how a hand is scored and shown, the pool), the one
numbering of how a hand ended, and the per-play scoring hook (which scores nothing under
every rule of the spec, and adds what it scores to the hand's result in one place)."""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import random

import pytest

from bones.ai.position import Position
from bones.engine.game import new_game
from bones.engine.layout import Layout, empty_layout, has_spinner
from bones.engine.lead import decide, opening_named
from bones.engine.pool import has_pool, paid_each_hand
from bones.engine.rules import PRESETS, Rules
from bones.engine.scoring import (
    BLOCKED,
    END_CODES,
    ENDS,
    OUT,
    PLAY_SCORES,
    PLAYING,
    SCORES,
    hand_points,
    lowest_sides,
    no_play_points,
    play_points,
    score_terms,
    scores_plays,
)
from bones.engine.state import (
    called_block,
    calls_block,
    drawable,
    new_hand,
    reserve_of,
    would_draw,
)
from bones.engine.tiles import Tile, full_set
from bones.fast import params, search
from bones.fast.reference import random_game, random_hand, trace_of
from bones.fast.results import decode_hand, encode_hand
from scripted import hand, moves

DRAW_3 = Rules(players=3, draw=True)


# -- the layout --------------------------------------------------------------------------------


@pytest.mark.parametrize("spinner", ["none", "first-double"])
def test_the_empty_layout_carries_the_spinner_rule(spinner):
    rules = Rules(spinner=spinner)
    assert has_spinner(rules) == (spinner == "first-double")
    assert empty_layout(rules) == Layout(uses_spinner=has_spinner(rules))
    assert empty_layout(rules).is_empty
    state = new_hand(rules, [list(full_set(6)[:7]), list(full_set(6)[7:14])],
                     full_set(6)[14:], 0)
    assert state.layout == empty_layout(rules)


# -- drawing -----------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [Rules(), Rules(reserve=0), Rules(reserve=40), DRAW_3,
                                   DRAW_3.replace(reserve=0), DRAW_3.replace(reserve=13)])
def test_draw_answers_agree_with_each_other_and_the_state(rules):
    kept = reserve_of(rules)
    assert (kept is None) == (not rules.draw)
    tiles = full_set(6)
    deal = [tiles[i * rules.dealt:(i + 1) * rules.dealt] for i in range(rules.players)]
    rest = tiles[rules.dealt * rules.players:]
    for left in range(rules.undealt + 1):
        assert drawable(rules, left) == (0 if kept is None else max(0, left - kept))
        assert would_draw(rules, left) == (drawable(rules, left) > 0)
        assert new_hand(rules, deal, rest[:left], 0).can_draw() == would_draw(rules, left)


@pytest.mark.parametrize(("draw", "call_block", "calls"), [
    (False, False, False), (False, True, False), (True, False, False), (True, True, True)])
def test_call_block_is_read_only_in_draw(draw, call_block, calls):
    assert calls_block(Rules(draw=draw, call_block=call_block)) is calls


@pytest.mark.parametrize("draw", [False, True])
def test_a_called_block_is_told_from_a_hand_nobody_could_play(draw):
    """With call_block in Draw, a blocked hand whose layout is dead was called; in Block
    (where call_block is ignored) no hand is, dead layout or not."""
    rng = random.Random(1)
    seen = {True: 0, False: 0}
    rules = PRESETS["draw" if draw else "block"].replace(call_block=True)
    for _ in range(150):
        game = random_game(rules, rng)
        for state in game.hands:
            dead = state.end == "blocked" and state.layout.is_dead(rules.set)
            assert called_block(state) == (draw and dead)
            seen[dead] += 1
    assert seen[False] and (seen[True] or not draw)


# -- who leads ---------------------------------------------------------------------------------


@pytest.mark.parametrize("opening", ["any", "highest-double", "top-double"])
def test_opening_named_says_whether_the_first_tile_is_the_rules_choice(opening):
    rules = Rules(opening=opening, no_double="heaviest")
    tiles = list(full_set(6))
    rng = random.Random(2)
    for _ in range(20):
        rng.shuffle(tiles)
        lead = decide(rules, [tiles[:7], tiles[7:14]], None)
        assert lead is not None and (lead.opening is not None) == opening_named(rules)


# -- the pool ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("ante", "pool", "has", "each"), [
    (0, "hand", False, False), (0, "game", False, False),
    (1, "hand", True, True), (3, "game", True, False)])
def test_pool_answers(ante, pool, has, each):
    rules = Rules(ante=ante, pool=pool)
    assert has_pool(rules) is has and paid_each_hand(rules) is each


# -- scoring -----------------------------------------------------------------------------------


def test_lowest_sides():
    assert lowest_sides((4, 9, 12)) == (0,)
    assert lowest_sides((9, 4, 4)) == (1, 2)
    assert lowest_sides((0, 0)) == (0, 1)


@pytest.mark.parametrize("score", ["others-minus-own", "others"])
def test_score_terms_say_the_points_of_every_score_rule(score):
    rules = Rules(players=3, score=score)
    for counts in itertools.product(range(0, 30, 7), repeat=3):
        for winner in range(3):
            added, taken = score_terms(rules, counts, winner)
            assert added == tuple(c for s, c in enumerate(counts) if s != winner)
            assert taken == ((counts[winner],) if score == "others-minus-own" else ())
            points = hand_points(rules, counts, winner)
            assert points == max(0, sum(added) - sum(taken)) == SCORES[score](counts, winner)


def test_score_terms_of_the_worked_examples():
    assert score_terms(Rules(players=3), (4, 9, 12), 0) == ((9, 12), (4,))
    assert score_terms(Rules(players=3, score="others"), (4, 9, 12), 0) == ((9, 12), ())


# -- how a hand ended, as an integer -----------------------------------------------------------


def test_one_numbering_of_hand_ends():
    assert len({PLAYING, OUT, BLOCKED}) == 3
    assert END_CODES == {"out": OUT, "blocked": BLOCKED}
    assert {v: k for k, v in END_CODES.items()} == ENDS
    assert search.PLAYING == PLAYING and search.OUT == OUT and search.BLOCKED == BLOCKED


@pytest.mark.parametrize("name", ["bones.fast._playout", "bones.fast._search"])
def test_a_built_extension_numbers_hand_ends_as_the_engine(name):
    """A compiled extension exports its numbering; one built from older sources would be
    left unused (``params.agrees``), so a stale build fails here rather than going unseen."""
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not built")
    module = importlib.import_module(name)
    names = ("OUT", "BLOCKED") if name.endswith("_playout") else ("PLAYING", "OUT", "BLOCKED")
    assert params.agrees(module, *names)
    assert module.OUT == OUT and module.BLOCKED == BLOCKED


def test_position_status_uses_the_engine_numbering():
    rng = random.Random(4)
    game = random_game(PRESETS["draw"], rng)
    for state in game.hands:
        assert Position.from_state(state).status == END_CODES[state.end]


@pytest.mark.parametrize("rules", [PRESETS["draw"].replace(players=3), PRESETS["pool"],
                                   PRESETS["block"].replace(spinner="first-double")])
def test_an_engine_hand_encodes_to_the_raw_form_and_back(rules):
    game = random_game(rules, random.Random(6))
    for state, result, trace in zip(game.hands, game.results, trace_of(game), strict=True):
        raw = encode_hand(rules, state, result)
        assert raw[3] == END_CODES[result.end]
        assert decode_hand(rules, raw) == trace


# -- the per-play scoring hook -----------------------------------------------------------------


def test_no_rule_of_the_spec_scores_during_play():
    layout = Layout().place(Tile(5, 5), None)
    for name in ("others-minus-own", "others"):
        rules = Rules(score=name)
        assert not scores_plays(rules)
        assert play_points(rules, layout, Tile(5, 5)) == 0
    assert no_play_points(layout, Tile(5, 5)) == 0


def test_random_hands_never_score_during_play():
    rng = random.Random(8)
    for rules in (PRESETS["pool"], PRESETS["draw"].replace(spinner="first-double")):
        game = new_game(rules)
        for _ in range(20):
            if game.finished:
                game = new_game(rules)
            game = random_hand(game, rng)
            assert game.hands[-1].scored == ()


def _fives(layout: Layout, tile: Tile) -> int:
    """A toy All Fives: the open ends' sum when it is a multiple of five."""
    total = sum(number for _, number in layout.ends)
    return total if total % 5 == 0 else 0


def test_a_per_play_scorer_adds_its_points_to_the_hand_in_one_place(monkeypatch):
    monkeypatch.setitem(PLAY_SCORES, "others", _fives)
    rules = Rules(players=2, hand_size=2, score="others")
    assert scores_plays(rules)
    # seat 0 sets 5-0 (ends 5 and 0: 5 points), seat 1 lays 5-5 on the left arm (ends 5
    # and 0: 5 points), seat 0 goes out with 3-0 on the right (ends 5 and 3: none).
    g = moves(hand(rules, ["5-0 3-0", "5-5 6-6"], leader=0), "5-0, 5-5 left, 3-0 right")
    state, result = g.hands[-1], g.results[-1]
    assert state.scored == (5, 5)
    # the end: seat 0 out, side 1 holds 6-6 (12): "others" gives side 0 twelve points
    assert result.points == (12 + 5, 5)
    assert g.scores == (17, 5)


def test_the_hook_changes_nothing_it_is_not_asked_to(monkeypatch):
    """With a scorer registered for another score value, these rules score as before."""
    rules = Rules(players=3)
    plain = random_game(rules, random.Random(5))
    monkeypatch.setitem(PLAY_SCORES, "others", _fives)
    again = random_game(rules, random.Random(5))
    assert not scores_plays(rules)
    assert plain.results == again.results and plain.scores == again.scores


def test_the_fast_paths_copy_of_a_state_is_replace():
    """``apply_unchecked`` copies states with ``state._evolve``: every field, as
    ``dataclasses.replace`` does, with no ``__post_init__`` skipped."""
    from dataclasses import fields, replace

    from bones.engine import state as states
    assert not hasattr(states.HandState, "__post_init__")
    assert tuple(f.name for f in fields(states.HandState)) == states._FIELDS
    game = random_game(PRESETS["draw"].replace(players=3), random.Random(9))
    for state in game.hands:
        for changes in ({}, {"to_move": 1}, {"end": "blocked", "scored": (1, 2, 3)},
                        {"moves": state.moves[:2], "boneyard": ()}):
            copied = states._evolve(state, **changes)
            assert copied == replace(state, **changes) and copied is not state
            assert hash(copied) == hash(replace(state, **changes))
