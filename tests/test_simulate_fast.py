"""bones simulate with every seat random runs on the fast path, and says the same things the
refereed path says about the same rules."""

from __future__ import annotations

import argparse
import json
import math

import pytest

import bones.cli.simulate as simulate
from bones.cli.main import main
from bones.cli.options import add_rules_arguments, rules_from_args
from bones.sim.referee import play_series


def _run(capsys, *args: str) -> dict:
    assert main(["simulate", "--json", "--quiet", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_random_versus_random_never_goes_through_the_referee(capsys, monkeypatch):
    calls = []

    def referee(*args, **kwargs):
        calls.append(args)
        return play_series(*args, **kwargs)

    monkeypatch.setattr(simulate, "play_series", referee)
    out = _run(capsys, "--bots", "random,random", "--hands", "3000", "--jobs", "1", "--seed", "4")
    assert out["hands"] == 3000 and not calls
    _run(capsys, "--bots", "greedy,random", "--games", "1", "--seed", "4")
    assert len(calls) == 1


@pytest.mark.parametrize("unit", ["--hands", "--games"])
def test_fast_series_does_not_depend_on_jobs_and_adds_up(capsys, unit):
    count = "120000" if unit == "--hands" else "2500"
    one = _run(capsys, "--bots", "random", unit, count, "--jobs", "1", "--seed", "9")
    two = _run(capsys, "--bots", "random", unit, count, "--jobs", "2", "--seed", "9")
    assert one == two
    wins = sum(side["wins"] for side in one["sides"])
    if unit == "--hands":
        assert one["hands"] == 120000 and wins + one["tied_hands"] == one["hands"]
    else:
        assert one["games"] == 2500 and wins == 2500


@pytest.mark.parametrize("options", [[], ["--rules", "draw", "--players", "3"],
                                     ["--rules", "pool", "--players", "4"]])
def test_fast_and_refereed_paths_agree_on_the_blocked_share(capsys, options):
    """Two independent samples of the same random play: their blocked shares must agree
    within 4.5 standard errors (a false alarm about once in 150,000 runs)."""
    fast = _run(capsys, "--bots", "random", "--hands", "40000", "--seed", "2", *options)
    refereed = _refereed_blocked(options, 1500)
    p1, n1 = fast["blocked_share"], fast["hands"]
    p2, n2 = refereed
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    assert abs(p1 - p2) < 4.5 * se


def _refereed_blocked(options: list[str], hands: int) -> tuple[float, int]:
    """The blocked share of random play through the engine and referee."""
    parser = argparse.ArgumentParser()
    add_rules_arguments(parser)
    rules = rules_from_args(parser.parse_args(options))
    levels = ("random",) * rules.players
    blocked = total = 0
    for outcome in play_series(rules, levels, 2, hands=hands):
        for result in outcome.results:
            total += 1
            blocked += result.end == "blocked"
    return blocked / total, total


@pytest.mark.parametrize("options", [["--rules", "pool", "--players", "3"], []])
def test_a_hands_series_counts_the_game_it_cut_short(capsys, options):
    """``games`` counts every game begun, ``games_finished`` those played to the target:
    hands left over after the finished games belong to one more, unfinished game."""
    out = _run(capsys, "--bots", "random", "--hands", "1000", "--seed", "1", *options)
    finished = out["games_finished"]
    leftover = out["hands"] - out["hands_per_game"] * finished
    assert leftover > -0.5
    assert out["games"] == finished + (leftover > 0.5)


def test_any_count_starts_at_once_and_ctrl_c_keeps_the_chunks_finished(monkeypatch):
    """Chunks are made as they are read, so a count of 10**30 hands costs no memory up front;
    Ctrl-C (here raised from the progress callback after the first chunk) returns that chunk,
    marked interrupted; Ctrl-C before any chunk is done goes on up. The lab's chunks are as
    lazy."""
    import bones.sim.fastsim as fastsim
    from bones.engine.rules import PRESETS
    from bones.lab.running import CHUNK, chunk_sizes

    def stop(_: object) -> None:
        raise KeyboardInterrupt

    block = PRESETS["block"]
    series = fastsim.fast_series(block, 1, "hands", 10**30, jobs=1, progress=stop)
    assert series.interrupted and series.totals.hands == fastsim.HANDS_PER_CHUNK
    whole = fastsim.fast_series(block, 1, "hands", fastsim.HANDS_PER_CHUNK, jobs=1)
    assert not whole.interrupted and whole.totals == series.totals
    monkeypatch.setattr(fastsim, "play_chunk", stop)
    with pytest.raises(KeyboardInterrupt):
        fastsim.fast_series(block, 1, "hands", 10**30, jobs=1)
    assert next(iter(chunk_sizes(10**30))) == CHUNK
