"""``benchmarks/public_bots.py``: our bot process plays inside the ``dominoes`` package's own
engine through bones-bot/1, every reply legal there, and bad replies are refused."""

from __future__ import annotations

import random
import subprocess
import sys

import dominoes
import pytest

from benchmark_script import load

public_bots = load("public_bots")


def _game_after(moves: int, seed: int = 3):
    hands, leader = public_bots.deal(seed, 1)
    game = dominoes.Game(dominoes.Board(), [dominoes.Hand(h) for h in hands], [], leader,
                         tuple((d, True) for d in hands[leader]), leader, None)
    rng = random.Random(seed)
    for _ in range(moves):
        game.make_move(*rng.choice(game.valid_moves))
    return game


def test_the_first_tile_lies_higher_half_left_as_in_our_records():
    game = _game_after(1)
    tile, _ = game.moves[0]
    assert tile.first >= tile.second
    assert game.board.left_end() == tile.first
    assert "end" not in public_bots.moves_json(game)[0]


def test_moves_are_written_seat_by_seat_with_passes():
    game = _game_after(16)
    written = public_bots.moves_json(game)
    assert len(written) == len(game.moves)
    assert [m["seat"] for m in written] == [(game.starting_player + i) % 4
                                          for i in range(len(written))]
    for move, entry in zip(game.moves, written, strict=True):
        assert ("pass" in entry) == (move is None)


def test_a_legal_reply_becomes_the_packages_move():
    game = _game_after(2)
    tile, left = game.valid_moves[0]
    reply = {"id": 5, "play": f"{tile.second}-{tile.first}",
             "end": "left" if left else "right"}
    assert public_bots.package_move(game, reply, 5) == (tile, left)


@pytest.mark.parametrize("reply", [
    None, "4-3", {"id": 4, "play": "PLAY"}, {"play": "1-1"}, {"id": 5, "play": "x-y"},
    {"id": 5, "play": "9-9"}, {"id": 5, "end": "left"},
])
def test_a_malformed_or_wrong_id_reply_is_refused(reply):
    assert public_bots.package_move(_game_after(2), reply, 5) is None


def test_a_tile_not_held_or_on_an_arm_it_does_not_fit_is_refused():
    game = _game_after(2)
    held = list(game.hands[game.turn])
    others = [d for h in game.hands for d in h if d not in held]
    assert public_bots.package_move(
        game, {"id": 1, "play": f"{others[0].first}-{others[0].second}", "end": "left"},
        1) is None
    left_end, right_end = game.board.left_end(), game.board.right_end()
    misfit = [(d, "left") for d in held if left_end not in d] + \
        [(d, "right") for d in held if right_end not in d]
    for tile, end in misfit:
        reply = {"id": 1, "play": f"{tile.first}-{tile.second}", "end": end}
        assert public_bots.package_move(game, reply, 1) is None


def test_our_bot_process_plays_whole_hands_in_the_packages_engine():
    out = subprocess.run(
        [sys.executable, public_bots.__file__, "--opponent", "bota_gorda", "--level", "greedy",
         "--deals", "2", "--jobs", "1", "--think", "0.5"],
        capture_output=True, text=True, timeout=120, check=True).stdout
    assert "2 deals x 2 rotations = 4 hands" in out
    assert "faults (late, malformed or illegal) 0" in out
