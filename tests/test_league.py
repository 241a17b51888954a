"""``bones league``: every pair of levels in a duplicate match on the same deals, and one
rating per level fitted to all the pairs."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bones.cli.main import main
from bones.sim.league import EDGE, ELO, pairs, ratings


@given(st.lists(st.floats(-600, 600), min_size=2, max_size=7))
def test_ratings_recover_the_levels_that_made_the_strengths(true):
    """Strengths made by the logistic curve from known ratings give those ratings back
    (less their mean): the fit is exact when the pairs agree with one scale."""
    levels = [f"l{i}" for i in range(len(true))]
    strength = {(a, b): 1 / (1 + math.exp(-(true[i] - true[j]) / ELO))
                for (a, b), (i, j) in zip(pairs(levels),
                                          [(i, j) for i in range(len(true))
                                           for j in range(i + 1, len(true))], strict=True)}
    if any(not EDGE <= p <= 1 - EDGE for p in strength.values()):
        return  # a sweep is held off the edge on purpose
    mean = sum(true) / len(true)
    fitted = ratings(levels, strength)
    assert fitted is not None
    for level, rating in zip(levels, true, strict=True):
        assert fitted[level] == pytest.approx(rating - mean, abs=1e-6)


def test_a_sweep_gives_a_finite_rating_and_a_pair_with_no_strength_none():
    assert ratings(["a", "b"], {("a", "b"): 1.0})["a"] == pytest.approx(
        ELO * math.log((1 - EDGE) / EDGE) / 2)
    assert ratings(["a", "b", "c"], {("a", "b"): 0.6, ("a", "c"): None, ("b", "c"): 0.5}) \
        is None


def _json(capsys, *args: str) -> dict:
    capsys.readouterr()
    assert main([*args, "--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def test_each_pair_is_the_arena_match_of_the_same_seed(capsys):
    league = _json(capsys, "league", "--bots", "greedy,random,basic", "--games", "8",
                   "--seed", "4", "--jobs", "1")
    assert [(m["a"], m["b"]) for m in league["pairs"]] == [
        ("greedy", "random"), ("greedy", "basic"), ("random", "basic")]
    for match in league["pairs"]:
        arena = _json(capsys, "arena", "--bots", f"{match['a']},{match['b']}", "--games", "8",
                      "--seed", "4", "--jobs", "1")
        assert match["relative"] == arena["relative"]
        assert match["relative_interval"] == arena["relative_interval"]
        assert match["hands"] == arena["hands"] == 16
    assert set(league["ratings"]) == {"greedy", "random", "basic"}
    assert sum(league["ratings"].values()) == pytest.approx(0, abs=1e-9)


def test_a_seeded_league_reproduces_whatever_the_workers_and_in_three_player_draw(capsys):
    args = ("league", "--bots", "greedy,random", "--rules", "draw", "--players", "3",
            "--games", "6", "--seed", "9")
    one = _json(capsys, *args, "--jobs", "1")
    two = _json(capsys, *args, "--jobs", "2")
    assert one == two and one["rotations"] == 3 and one["pairs"][0]["hands"] == 18


@pytest.mark.parametrize(("bots", "said"), [
    ("greedy", "a league needs two different levels or more"),
    ("greedy,greedy", "a league needs two different levels or more"),
    ("greedy,wizard", "wizard"),
])
def test_a_league_that_cannot_be_played_is_one_line_before_any_deal(capsys, bots, said):
    capsys.readouterr()
    assert main(["league", "--bots", bots, "--games", "2", "--quiet"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and said in err and err.startswith("bones: ")


def test_the_table_names_every_pair_and_rates_every_level(capsys):
    capsys.readouterr()
    assert main(["league", "--bots", "greedy,random", "--games", "4", "--seed", "1",
                 "--jobs", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "greedy over random" in out and "ratings on the Elo scale" in out
    assert "seed 1" in out


def _stopped_after(monkeypatch, finished: int) -> None:
    """Let the first ``finished`` pairs play, and Ctrl-C the next one as it starts."""
    from bones.cli import league

    real, started = league.play_deals, []

    def playing(*args, **kwargs):
        started.append(args[1])
        if len(started) > finished:
            raise KeyboardInterrupt
        yield from real(*args, **kwargs)

    monkeypatch.setattr(league, "play_deals", playing)
    monkeypatch.setattr(league, "stop", lambda deals: None)


def test_an_interrupted_league_reports_the_pairs_it_finished_and_rates_none(monkeypatch,
                                                                           capsys):
    _stopped_after(monkeypatch, 1)
    capsys.readouterr()
    assert main(["league", "--bots", "greedy,random,basic", "--games", "3", "--seed", "1",
                 "--jobs", "1", "--json", "--quiet"]) == 130
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["interrupted"] is True and result["ratings"] is None
    assert [(m["a"], m["b"]) for m in result["pairs"]] == [("greedy", "random")]
    assert err == "bones: interrupted after 1 pair of 3; the results so far:\n"


def test_a_league_interrupted_in_its_first_pair_just_stops(monkeypatch, capsys):
    _stopped_after(monkeypatch, 0)
    capsys.readouterr()
    assert main(["league", "--bots", "greedy,random", "--games", "3", "--json",
                 "--quiet"]) == 130
    out, err = capsys.readouterr()
    assert out == "" and err.strip() == "bones: interrupted"


def test_a_pair_with_no_hand_won_leaves_no_ratings_and_says_which(capsys):
    """Seed 597's one deal of random against greedy is blocked and tied in both rotations."""
    league = _json(capsys, "league", "--bots", "random,greedy,basic", "--games", "1",
                   "--seed", "597", "--jobs", "1")
    assert league["ratings"] is None and league["pairs"][0]["relative"] is None
    assert main(["league", "--bots", "random,greedy,basic", "--games", "1", "--seed", "597",
                 "--jobs", "1", "--quiet"]) == 0
    assert "no ratings: random over greedy had no hand won by either level" in \
        capsys.readouterr().out
