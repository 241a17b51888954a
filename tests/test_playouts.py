"""Random playouts under every preset and across every option value: each game is written as
a record, replayed through ``bones replay --json`` and by the independent referee, and must
come out the same. The checked and fast move paths must agree move for move."""

from __future__ import annotations

import contextlib
import json
import random

import pytest

import generators as gen
import reference as ref
from bones.cli.main import main
from bones.engine.game import Game, deal_hand, new_game, play, play_unchecked
from bones.engine.moves import ARMS, Draw, Pass, Play
from bones.engine.rules import PRESETS, Rules, rules_from_json
from bones.engine.state import HandState, resolve
from bones.record.summary import summary
from bones.record.writer import dump, record_of


def _replayed(tmp_path, capsys, game: Game, name: str = "game") -> dict:
    """Write ``game`` as a record and run ``bones replay FILE --json`` on it."""
    path = tmp_path / f"{name}.json"
    path.write_text(dump(record_of(game, [f"P{i}" for i in range(game.rules.players)])))
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    doc = json.loads(path.read_text())
    assert ref.public(ref.replay(doc)) == summary(game)
    return json.loads(out)


PRESET_TABLES = [(name, players, partners)
                 for name in sorted(PRESETS)
                 for players, partners in ((2, False), (3, False), (4, False), (4, True))]
PRESET_TABLES += [("pool", players, False) for players in (5, 6)]


@pytest.mark.parametrize(("preset", "players", "partnerships"), PRESET_TABLES)
def test_random_playouts_under_every_preset_replay_to_the_same_result(
        tmp_path, capsys, preset, players, partnerships):
    rules = rules_from_json({"preset": preset, "players": players,
                             "partnerships": partnerships}, players=players)
    for seed in range(4):
        game = gen.engine_game(random.Random(seed), rules, max_hands=12)
        assert _replayed(tmp_path, capsys, game, f"{preset}-{seed}") == summary(game)


#: Every value of every option, each played with otherwise random rules around it.
OPTION_VALUES = [(option, value) for option, values in {
    "set": (2, 3, 4, 5, 6, 9, 12, 15, 18),
    "players": (2, 3, 4, 5, 6),
    "partnerships": (False, True),
    "hand_size": ("standard", "pool", 1, 2, 5, 7),
    "draw": (False, True),
    "reserve": (0, 1, 2, 4),
    "call_block": (False, True),
    "lead": ("lots", "highest-double", "heaviest"),
    "opening": ("any", "highest-double", "top-double"),
    "no_double": ("redeal", "heaviest"),
    "next_lead": ("left", "winner", "same"),
    "spinner": ("none", "first-double"),
    "score": ("others-minus-own", "others"),
    "target": (1, 30, 61, 100, "pagat"),
    "ante": (0, 1, 3),
    "pool": ("hand", "game"),
    "pool_tie": ("split", "carry"),
}.items() for value in values]


def _rules_with(rng: random.Random, option: str, value: object) -> Rules:
    """Random rules with ``option`` forced to ``value`` (redrawn until dealable)."""
    for _ in range(1000):
        given = gen.random_rules(rng)
        given[option] = value
        if option == "partnerships" and value:
            given["players"] = 4
        if option == "hand_size" and value == "standard":
            given.pop("set", None)
            given.pop("preset", None)
        try:
            return rules_from_json(given, players=given["players"])
        except ValueError:
            continue
    raise AssertionError(f"no dealable rules with {option}={value!r}")


@pytest.mark.parametrize(("option", "value"), OPTION_VALUES)
def test_random_playouts_for_every_option_value_replay_to_the_same_result(
        tmp_path, capsys, option, value):
    rng = random.Random(f"{option}={value}")
    for k in range(4):
        rules = _rules_with(rng, option, value)
        assert getattr(rules, option) == value
        game = gen.engine_game(rng, rules, max_hands=5)
        assert _replayed(tmp_path, capsys, game, f"g{k}") == summary(game)


def test_many_random_option_mixes_replay_to_the_same_result(tmp_path, capsys):
    rng = random.Random(2024)
    for k in range(80):
        rules = gen.engine_rules(rng)
        game = gen.engine_game(rng, rules, max_hands=4)
        assert _replayed(tmp_path, capsys, game, f"mix{k}") == summary(game)


def test_referee_played_records_replay_through_the_cli_to_the_referee_result(tmp_path,
                                                                            capsys):
    for seed in range(150):
        doc = gen.random_record(random.Random(seed))
        path = tmp_path / f"r{seed}.json"
        path.write_text(json.dumps(doc))
        capsys.readouterr()
        assert main(["replay", str(path), "--json"]) == 0, capsys.readouterr().err
        assert json.loads(capsys.readouterr().out) == ref.public(ref.replay(doc))


# -- the checked path and the fast path agree --------------------------------------------------


def _candidates(state: HandState) -> list:
    """Every move a seat might try now: each held tile on each arm (or none), a draw, a pass."""
    seat = state.to_move
    out: list = [Draw(seat), Pass(seat)]
    for t in state.hands[seat]:
        out.append(Play(seat, t))
        out.extend(Play(seat, t, arm) for arm in ARMS)
    return out


def _accepted(state: HandState) -> set:
    """The moves the checked path accepts, as it resolves them."""
    accepted = set()
    for move in _candidates(state):
        with contextlib.suppress(ValueError):
            accepted.add(resolve(state, move))
    return accepted


def _lockstep(rules: Rules, seed: int, thorough: bool, hands: int = 3) -> None:
    rng = random.Random(seed)
    checked = fast = new_game(rules)
    for _ in range(hands):
        if checked.finished:
            break
        state_rng = rng.getstate()
        checked = deal_hand(checked, rng)
        rng.setstate(state_rng)
        fast = deal_hand(fast, rng)
        assert checked == fast
        while checked.current is not None:
            legal = checked.current.legal_moves()
            assert legal == fast.current.legal_moves()
            assert len(set(legal)) == len(legal) > 0
            if thorough:
                assert _accepted(checked.current) == set(legal)
            move = rng.choice(legal)
            checked, fast = play(checked, move), play_unchecked(fast, move)
            a, b = checked.hands[-1], fast.hands[-1]
            assert a.moves[-1] == b.moves[-1] and a.to_move == b.to_move and a.end == b.end
            assert a.hands == b.hands and a.layout == b.layout and a.boneyard == b.boneyard
        assert checked == fast  # scores, results, ledger, pool and every hand
    assert checked == fast and summary(checked) == summary(fast)


def test_checked_and_fast_paths_agree_on_thousands_of_seeded_games():
    rng = random.Random(99)
    presets = sorted(PRESETS)
    for seed in range(1200):
        if seed % 3 == 0:
            rules = gen.engine_rules(rng)
        else:
            rules = PRESETS[presets[seed % len(presets)]].replace(players=2 + seed % 3)
        _lockstep(rules, seed, thorough=seed % 20 == 0, hands=2)


def test_checked_path_accepts_exactly_the_legal_moves_under_random_rules():
    rng = random.Random(5)
    for seed in range(60):
        _lockstep(gen.engine_rules(rng), seed, thorough=True)
