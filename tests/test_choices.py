"""``benchmarks/choices.py``: a bot level's plays explained by simple habits."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmark_script import load
from bones.cli.main import main

choices = load("choices")


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """Arena records of basic against greedy, and of random against greedy."""
    folder = tmp_path_factory.mktemp("runs")
    for bots in ("basic,greedy", "random,greedy"):
        assert main(["arena", "--quiet", "--bots", bots, "--games", "60", "--seed", "4",
                     "--jobs", "1", "--record", str(folder / bots.split(",")[0])]) == 0
    return folder


def test_a_heaviest_shedder_is_explained_by_pips(runs):
    plays = choices.read_plays(runs / "basic", "greedy")
    weights, mean = choices.fit(plays, (0, 1))
    assert weights[0] > 3.0  # greedy sheds its heaviest tile
    assert mean > choices.uniform(plays) + 0.5


def test_a_club_player_is_explained_by_the_numbers_it_keeps(runs):
    plays = choices.read_plays(runs / "basic", "basic")
    _, without = choices.fit(plays, (0, 1))
    weights, with_kept = choices.fit(plays, (0, 1, 2))
    assert weights[2] > 1.0  # basic plays from its longest suit
    assert with_kept > without + 0.1


def test_a_random_player_has_no_habit(runs):
    plays = choices.read_plays(runs / "random", "random")
    weights, mean = choices.fit(plays, (0, 1, 2))
    assert np.all(np.abs(weights) < 0.35)
    assert mean == pytest.approx(choices.uniform(plays), abs=0.02)


def test_the_gradient_is_the_likelihoods_slope(runs):
    plays = choices.read_plays(runs / "basic", "basic")
    w = np.array([0.3, -0.5, 0.8])
    _, gradient = choices.log_likelihood(w, plays, (0, 1, 2))
    for i in range(3):
        step = np.zeros(3)
        step[i] = 1e-6
        up, _ = choices.log_likelihood(w + step, plays, (0, 1, 2))
        down, _ = choices.log_likelihood(w - step, plays, (0, 1, 2))
        assert gradient[i] == pytest.approx((up - down) / 2e-6, rel=1e-4)


def test_every_choice_row_is_a_legal_play_and_one_is_taken(runs):
    plays = choices.read_plays(runs / "basic", "basic")
    sizes = np.diff(np.append(plays.starts, len(plays.features)))
    assert np.all(sizes >= 2)
    assert np.all(plays.chosen >= plays.starts)
    assert np.all(plays.chosen < plays.starts + sizes)


def test_bad_input_gets_one_line_and_exit_1(runs, tmp_path, capsys):
    assert choices.main([str(tmp_path), "--level", "basic"]) == 1
    assert choices.main([str(runs / "basic"), "--level", "ismcts"]) == 1
    assert choices.main([str(tmp_path / "missing"), "--level", "basic"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and all(line.startswith("choices: ") for line in err)


def test_the_report_prints_every_model(runs, capsys):
    assert choices.main([str(runs / "basic"), "--level", "basic"]) == 0
    out = capsys.readouterr().out
    for name, _ in choices.MODELS:
        assert name in out
    assert "uniform" in out
