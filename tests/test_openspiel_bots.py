"""``benchmarks/openspiel_bots.py``: OpenSpiel's block dominoes read as our records, so our
bot process plays inside OpenSpiel's own game through bones-bot/1, and OpenSpiel's IS-MCTS
samples only deals its seat cannot tell from the real one.

Two engines written apart must agree here: at every turn of random OpenSpiel games, the
request built from OpenSpiel's history passes our own checks of a request (``view_of``
replays it under our rules) and our rules then allow exactly the plays OpenSpiel allows."""

from __future__ import annotations

import random

import pytest

from extras import need

pyspiel = need("pyspiel", "OpenSpiel", "pip install --only-binary open_spiel -e '.[openspiel]'",
               "openspiel.log")

from benchmark_script import load  # noqa: E402
from bones.engine.tiles import Tile  # noqa: E402
from bones.protocol.codec import view_of  # noqa: E402

openspiel_bots = load("openspiel_bots")
block_dominoes = openspiel_bots.block_dominoes


def _turns(seed: int):
    """(state, player) at every turn of a random OpenSpiel hand."""
    game = pyspiel.load_game(openspiel_bots.GAME)
    rng = random.Random(seed)
    state = openspiel_bots.dealt_state(game, openspiel_bots.deal(seed, 0))
    while not state.is_terminal():
        yield state, state.current_player()
        state.apply_action(rng.choice(state.legal_actions()))


def _their_plays(state) -> set[tuple[Tile, int | None]]:
    out = set()
    for action in state.legal_actions():
        act = block_dominoes._ACTIONS[action]
        out.add((openspiel_bots.ours(act.tile), None if act.edge is None else int(act.edge)))
    return out


def _our_plays(view) -> set[tuple[Tile, int | None]]:
    layout = view.layout
    return {(p.tile, None if layout.is_empty else layout.shows(p.end)) for p in view.legal}


@pytest.mark.parametrize("seed", range(40))
def test_every_request_is_valid_and_allows_exactly_openspiels_plays(seed):
    for state, player in _turns(seed):
        request = openspiel_bots.request(state, player, 1, 0.1)
        view = view_of(request)  # raises on any request our rules could not produce
        assert view.seat == player and view.to_move == player
        assert _our_plays(view) == _their_plays(state)


def test_the_games_cover_passes():
    """Passes (OpenSpiel's turn handed back) are the hard part; the games above meet them."""
    found = 0
    for seed in range(40):
        for state, player in _turns(seed):
            found += sum(1 for m in openspiel_bots.request(state, player, 1, 0.1)["moves"]
                         if m.get("pass"))
    assert found > 20


def test_a_reply_becomes_the_matching_openspiel_action_and_bad_ones_none():
    for state, player in _turns(5):
        view = view_of(openspiel_bots.request(state, player, 7, 0.1))
        for play in view.legal:
            reply = {"id": 7, "play": str(play.tile)}
            if play.end is not None:
                reply["end"] = play.end
            action = openspiel_bots.spiel_action(state, reply, 7)
            assert action in state.legal_actions()
            act = block_dominoes._ACTIONS[action]
            assert openspiel_bots.ours(act.tile) == play.tile
        assert openspiel_bots.spiel_action(state, {"id": 8, "play": "6-6"}, 7) is None
        assert openspiel_bots.spiel_action(state, {"id": 7, "play": "9-9"}, 7) is None
        assert openspiel_bots.spiel_action(state, {"id": 7}, 7) is None
        held = set(view.hand)
        unheld = next(t for t in openspiel_bots.deal(5, 1)[0] + [Tile(6, 6), Tile(0, 0)]
                      if t not in held)
        assert openspiel_bots.spiel_action(state, {"id": 7, "play": str(unheld)}, 7) is None
        if not view.layout.is_empty:
            for t in view.hand:  # a held tile named against an arm it does not fit
                for arm in ("left", "right"):
                    if view.layout.shows(arm) not in (t.high, t.low):
                        reply = {"id": 7, "play": str(t), "end": arm}
                        assert openspiel_bots.spiel_action(state, reply, 7) is None


@pytest.mark.parametrize("seed", range(10))
def test_ismcts_resamples_only_deals_its_seat_cannot_tell_apart(seed):
    import numpy as np

    game = pyspiel.load_game(openspiel_bots.GAME)
    sample = openspiel_bots.resampler(game, np.random.RandomState(seed))
    differs = 0
    for state, player in _turns(seed):
        for _ in range(3):
            other = sample(state, player)
            assert other.current_player() == player
            assert other.information_state_string(player) == \
                state.information_state_string(player)
            assert sorted(other.legal_actions()) == sorted(state.legal_actions())
            differs += other.hands[1 - player] != state.hands[1 - player]
    assert differs > 0


def test_our_bot_process_plays_whole_hands_in_openspiel_without_a_fault():
    import argparse

    args = argparse.Namespace(level="greedy", think=0.1, seed=3, opponent="random",
                              simulations=10, uct_c=2.0)
    tally = openspiel_bots.play_deal((args, 0))
    assert tally.hands == 2 and tally.faults == 0 and tally.decisions
    assert tally.wins + tally.losses <= 2
