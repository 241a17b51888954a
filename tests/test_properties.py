"""Hypothesis properties over games of random legal moves under random rules: tiles are
conserved, states are values, hands end within a computed bound, scores and chips add up,
and records round-trip."""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import generators as gen
import reference as ref
from bones.engine.game import Game, deal_hand, new_game, play, start_hand
from bones.engine.moves import Play
from bones.engine.state import HandState, apply, apply_unchecked
from bones.engine.tiles import full_set
from bones.record.reader import parse
from bones.record.summary import summary
from bones.record.writer import dump, record_of, to_json

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _random_game(seed: int, on_state=None, max_hands: int = 4) -> Game:
    rng = random.Random(seed)
    rules = gen.engine_rules(rng)
    return gen.engine_game(rng, rules, max_hands=max_hands, on_state=on_state)


def _tiles_in_place(state: HandState) -> None:
    everything = [t for h in state.hands for t in h] + list(state.boneyard)
    everything += list(state.layout.placed)
    assert len(everything) == len(set(everything)) == state.rules.tiles
    assert set(everything) == set(full_set(state.rules.set))
    played = [m.tile for m in state.moves if isinstance(m, Play)]
    assert sorted(played) == sorted(state.layout.placed)


@FAST
@given(SEEDS)
def test_every_tile_is_in_exactly_one_place_at_every_moment(seed):
    def check(game: Game) -> None:
        _tiles_in_place(game.hands[-1])

    _random_game(seed, check)


@FAST
@given(SEEDS)
def test_applying_a_move_never_changes_the_state_it_was_applied_to(seed):
    rng = random.Random(seed)
    seen = 0

    def check(game: Game) -> None:
        nonlocal seen
        state = game.current
        if state is None or rng.random() > 0.3:
            return
        before, game_before = copy.deepcopy(state), copy.deepcopy(game)
        for move in state.legal_moves():
            after = apply(state, move)
            apply_unchecked(state, move)
            play(game, move)
            assert after is not state
        assert state == before and game == game_before
        assert state.hands == before.hands and state.layout == before.layout
        seen += 1

    _random_game(seed, check, max_hands=2)


def _max_moves(state: HandState) -> int:
    """An upper bound on a hand's moves: every play may be followed by at most n - 1
    passes before the next play (n passes in a row would mean the hand had blocked), and
    draws are limited by the tiles above the reserve."""
    r = state.rules
    draws = max(0, r.undealt - r.reserve) if r.draw else 0
    plays = r.dealt * r.players + draws
    return plays * r.players + draws


@FAST
@given(SEEDS)
def test_every_sequence_of_legal_moves_ends_within_the_bound(seed):
    rng = random.Random(seed)
    game = new_game(gen.engine_rules(rng))
    for _ in range(4):
        if game.finished:
            break
        game = deal_hand(game, rng)
        state = game.hands[-1]
        bound = _max_moves(state)
        for _ in range(bound):
            game = play(game, rng.choice(game.hands[-1].legal_moves()))
            if game.current is None:
                break
        assert game.current is None, f"hand still going after {bound} moves"
        assert game.hands[-1].legal_moves() == ()


@FAST
@given(SEEDS)
def test_hand_points_add_up_to_the_game_scores(seed):
    game = _random_game(seed, max_hands=6)
    totals = [sum(r.points[s] for r in game.results) for s in range(game.rules.sides)]
    assert tuple(totals) == game.scores
    for r in game.results:
        nonzero = [p for p in r.points if p]
        assert len(nonzero) <= 1 and all(p >= 0 for p in r.points)
        if r.winner is None:
            assert r.end == "blocked" and not any(r.points)


@FAST
@given(SEEDS)
def test_chips_are_conserved(seed):
    def check(game: Game) -> None:
        assert sum(game.chips) + game.pool == 0
        assert game.pool >= 0
        if game.ledger:
            cols = [sum(row[s] for row in game.ledger) for s in range(game.rules.players)]
            assert tuple(cols) == game.chips

    _random_game(seed, check, max_hands=6)


@FAST
@given(SEEDS)
def test_record_written_and_read_back_is_equal_and_replays_to_the_same_summary(seed):
    game = _random_game(seed, max_hands=4)
    names = [f"p{i}" for i in range(game.rules.players)]
    record = record_of(game, names)
    doc = json.loads(dump(record))
    assert doc == to_json(record)
    again, replayed = parse(doc)
    assert again == record
    assert summary(replayed) == summary(game)
    assert to_json(again) == to_json(record)


@FAST
@given(SEEDS)
def test_unfinished_record_round_trips(seed):
    rng = random.Random(seed)
    rules = gen.engine_rules(rng)
    game = gen.engine_game(rng, rules, max_hands=1)
    # cut the game at a random moment of its only hand by replaying a prefix
    state = game.hands[0]
    cut = rng.randrange(len(state.moves) + 1)
    partial = start_hand(new_game(rules), state.deal, record_of(game, ["a"] * rules.players)
                         .hands[0].boneyard, state.leader)
    for move in state.moves[:cut]:
        partial = play(partial, move)
    record = record_of(partial, ["a"] * rules.players)
    again, replayed = parse(json.loads(dump(record)))
    assert again == record and summary(replayed) == summary(partial)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS)
def test_engine_agrees_with_the_independent_referee_on_engine_played_games(seed):
    game = _random_game(seed, max_hands=5)
    doc = to_json(record_of(game, [f"p{i}" for i in range(game.rules.players)]))
    assert ref.public(ref.replay(json.loads(json.dumps(doc)))) == summary(game)
    assert ref.referee(doc).summary["x-pool"] == game.pool


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS)
def test_engine_accepts_referee_played_records_with_the_same_summary(seed):
    doc = gen.random_record(random.Random(seed))
    _, game = parse(json.loads(json.dumps(doc)))
    assert summary(game) == ref.public(ref.replay(doc))
