"""``benchmarks/paired.py``: two arena runs of one seed compared deal by deal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark_script import load
from bones.cli.main import main

paired = load("paired")


def _run(capsys, folder: Path, bots: str, seed: int, games: int = 30) -> dict:
    assert main(["arena", "--json", "--quiet", "--bots", bots, "--games", str(games),
                 "--seed", str(seed), "--jobs", "1", "--record", str(folder)]) == 0
    return json.loads(capsys.readouterr().out)


def _wins(result: dict, level: str) -> int:
    return next(row["wins"] for row in result["levels"] if row["level"] == level)


def test_a_run_against_itself_differs_by_nothing(capsys, tmp_path):
    result = _run(capsys, tmp_path / "a", "basic,greedy", 3)
    _run(capsys, tmp_path / "b", "basic,greedy", 3)
    found = paired.compare(paired.deals(tmp_path / "a", "basic"),
                           paired.deals(tmp_path / "b", "basic"))
    assert found.deals == 30 and found.hands == 60
    assert found.wins_a == found.wins_b == _wins(result, "basic")
    assert found.mean == 0.0 and found.se == 0.0


def test_the_difference_is_b_minus_a_per_hand_with_the_spread_of_the_deals(capsys, tmp_path):
    """greedy against basic (A) and against random (B) on the same deals: the mean is the
    difference of the two tables' wins per hand, and the standard error that of the
    per-deal differences."""
    a = _run(capsys, tmp_path / "a", "basic,greedy", 4)
    b = _run(capsys, tmp_path / "b", "random,greedy", 4)
    found = paired.compare(paired.deals(tmp_path / "a", "greedy"),
                           paired.deals(tmp_path / "b", "greedy"))
    assert (found.wins_a, found.wins_b) == (_wins(a, "greedy"), _wins(b, "greedy"))
    assert found.mean == pytest.approx((found.wins_b - found.wins_a) / found.hands)
    diffs = []
    for deal in range(30):
        x = paired.deals(tmp_path / "a", "greedy")[deal]
        y = paired.deals(tmp_path / "b", "greedy")[deal]
        diffs.append((y.wins - x.wins) / 2)
    mean = sum(diffs) / 30
    se = (sum((d - mean) ** 2 for d in diffs) / 29 / 30) ** 0.5
    assert found.se == pytest.approx(se) and found.se > 0


def test_runs_of_other_seeds_or_no_records_are_refused_in_one_line(capsys, tmp_path):
    _run(capsys, tmp_path / "a", "basic,greedy", 5, games=3)
    _run(capsys, tmp_path / "b", "basic,greedy", 6, games=3)
    assert paired.main([str(tmp_path / "a"), str(tmp_path / "b")]) == 1
    assert "deal 0 differs" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert paired.main([str(tmp_path / "a"), str(tmp_path / "empty")]) == 1
    assert "no arena records" in capsys.readouterr().err
    assert paired.main([str(tmp_path / "a"), str(tmp_path / "a"), "--level", "expert"]) == 1
    assert "no seat is 'expert'" in capsys.readouterr().err


def test_a_record_that_the_reader_refuses_is_named(capsys, tmp_path):
    _run(capsys, tmp_path / "a", "basic,greedy", 5, games=3)
    bad = tmp_path / "a" / "deal-0001-1.json"
    doc = json.loads(bad.read_text())
    doc["hands"][0]["moves"][1]["seat"] = doc["hands"][0]["moves"][0]["seat"]
    bad.write_text(json.dumps(doc))
    assert paired.main([str(tmp_path / "a"), str(tmp_path / "a")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "deal-0001-1.json" in err and "hand 1, move 2" in err


def test_the_printed_lines_name_the_level_and_both_runs(capsys, tmp_path):
    _run(capsys, tmp_path / "a", "basic,greedy", 7, games=4)
    assert paired.main([str(tmp_path / "a"), str(tmp_path / "a")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("4 deals, 8 hands of basic in each run: A won ")
    assert out[1].startswith("B - A, win rate per hand: +0.00 points")
