"""The after-hand review: it judges a seat's plays by an exact solve of the revealed deal,
so it must only ever see a hand that is over."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bones.ai.review import Outcome, cost_words, deep_text, mistake_text, review
from bones.cli.main import main
from bones.engine.game import deal_hand, new_game
from bones.engine.moves import Play
from bones.engine.rules import PRESETS
from bones.engine.scoring import outcome
from bones.engine.state import apply_unchecked, new_hand
from bones.record import read_file
from bones.record.writer import undealt

#: Small hands, so that every decision solves: two players, and three (where the review
#: takes the other two to play together against the seat judged).
SMALL = {2: PRESETS["block"].replace(hand_size=4), 3: PRESETS["block"].replace(players=3,
                                                                                hand_size=3)}


def _hand(seed: int, moves: int | None = None, players: int = 2):
    rng = random.Random(seed)
    state = deal_hand(new_game(SMALL[players]), rng).current
    while state.end is None and (moves is None or len(state.moves) < moves):
        state = apply_unchecked(state, rng.choice(state.legal_moves()))
    return state


def test_a_hand_still_in_play_is_not_reviewed():
    with pytest.raises(ValueError, match="only once it is over"):
        review(_hand(1, moves=2), 0, (0, 0))


def test_a_finished_hand_lists_only_the_seats_own_costly_plays_worst_first():
    found = 0
    for seed in range(20):
        hand = _hand(seed)
        mistakes, skipped = review(hand, 0, (0, 0))
        assert skipped == 0  # four tiles a hand: every decision solves
        costs = [m.cost for m in mistakes]
        assert costs == sorted(costs, reverse=True) and all(c > 0 for c in costs)
        for m in mistakes:
            assert isinstance(m.played, Play) and m.played.seat == 0
            assert m.played == hand.moves[m.move_number - 1] and m.best != m.played
            own = [p for p in hand.moves[:m.move_number]
                   if isinstance(p, Play) and p.seat == 0]
            assert m.play_number == len(own)  # counted among the seat's own plays
            assert mistake_text(m, own=True).startswith(f"your play {m.play_number}: ")
            assert mistake_text(m).startswith(f"move {m.move_number}: ")
        found += len(mistakes)
    assert found > 0  # random play makes mistakes


def _double_dummy(state, side: int) -> float:
    """The hand's value for ``side`` with every player seeing every tile and playing
    perfectly: plain minimax over the engine's own moves, no pruning, no table."""
    if state.end is not None:
        result = outcome(state)
        if result.winner is None:
            return 0.0
        sign = 1.0 if result.winner == side else -1.0
        return sign * (1.0 + 0.01 * result.points[result.winner])
    values = [_double_dummy(apply_unchecked(state, m), side) for m in state.legal_moves()]
    return max(values) if state.rules.side_of(state.to_move) == side else min(values)


@pytest.mark.parametrize("players", [2, 3])
def test_a_play_costs_what_a_double_dummy_minimax_of_the_deal_says(players):
    """The review judges by perfect play of everyone (not by the expert's habits of its
    opponents): its mistakes are exactly the plays a brute-force minimax of the revealed
    deal rates worse than the best, by the same margins. With three players the minimax is
    paranoid: both others minimise the seat's value, as the review's docstring says."""
    compared = 0
    for seed in range(30):
        hand = _hand(seed, players=players)
        mistakes, skipped = review(hand, 0, (0,) * players)
        assert skipped == 0
        expected = {}
        state = new_hand(hand.rules, hand.deal, undealt(hand), hand.leader, hand.opening)
        for number, move in enumerate(hand.moves, start=1):
            choices = [m for m in state.legal_moves() if isinstance(m, Play)]
            if move.seat == 0 and len(choices) > 1:
                side = hand.rules.side_of(0)
                values = {m: _double_dummy(apply_unchecked(state, m), side) for m in choices}
                cost = max(values.values()) - values[move]
                if cost > 0.005:
                    expected[number] = cost
                compared += 1
            state = apply_unchecked(state, move)
        assert {m.move_number: m.cost for m in mistakes} == pytest.approx(expected)
    assert compared > 20


RECORDS = Path(__file__).resolve().parent / "records"


def test_replay_review_judges_every_finished_hand_with_the_score_before_it(capsys):
    """``bones replay --review --json``: one entry per finished hand and seat, each the
    review of that hand with the game score as it stood before it."""
    path = RECORDS / "target_reached.json"
    assert main(["replay", str(path), "--review", "--json", "--top", "10"]) == 0
    out = json.loads(capsys.readouterr().out)
    _, game = read_file(path)
    scores = [0] * game.rules.sides
    expected = []
    for number, (hand, result) in enumerate(zip(game.hands, out["hands"], strict=True), 1):
        for seat in range(game.rules.players):
            mistakes, skipped = review(hand, seat, tuple(scores))
            expected.append({"hand": number, "seat": seat, "skipped": skipped,
                             "moves": [(m.move_number, str(m.played.tile), m.played.end,
                                        str(m.best.tile), m.best.end) for m in mistakes[:10]]})
        scores = [s + p for s, p in zip(scores, result["points"], strict=True)]
    assert scores[0] > 0 or scores[1] > 0  # the second hand is judged from a real score
    got = [{"hand": r["hand"], "seat": r["seat"], "skipped": r["skipped"],
            "moves": [(m["move"], m["play"], m["end"], m["best"], m["best_end"])
                      for m in r["mistakes"]]} for r in out["review"]]
    assert got == expected
    assert any(r["mistakes"] for r in out["review"])


def test_replay_review_prints_after_the_results_and_names_each_seat(capsys):
    path = str(RECORDS / "target_reached.json")
    assert main(["replay", path]) == 0
    plain = capsys.readouterr().out
    assert main(["replay", path, "--review", "--seat", "1", "--top", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(plain)
    review_lines = out[len(plain):].splitlines()
    heads = [line for line in review_lines if line.startswith("hand ")]
    assert [h.split(":")[0] for h in heads] == ["hand 1, Ben (seat 1)", "hand 2, Ben (seat 1)"]
    assert sum(line.startswith("  move ") for line in review_lines) <= 2
    assert "the cost is what it lost: points, the hand or the game" in review_lines[1]


def test_replay_review_skips_a_hand_still_in_play(capsys):
    assert main(["replay", str(RECORDS / "spec_example.json"), "--review"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("hand 1 is still in play: not reviewed")


@pytest.mark.parametrize("args", [["--review", "--seat", "2"], ["--seat", "0"], ["--top", "2"],
                                  ["--review", "--seat", "-1"]])
def test_replay_review_flags_out_of_place_are_one_line_and_status_2(capsys, args):
    assert main(["replay", str(RECORDS / "target_reached.json"), *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1


def _value(outcome: Outcome) -> float:
    """The expert's value of a hand's end, as the judge reckons it."""
    if outcome.result == "tie":
        return 0.0
    sign = 1.0 if outcome.result == "win" else -1.0
    return sign * (1.0 + 0.01 * outcome.points + (0.5 if outcome.game else 0.0))


@pytest.mark.parametrize("players", [2, 3])
def test_a_cost_is_told_in_points_or_as_the_hand_or_game_it_lost(players):
    """The cost a player reads is the game's: the points it cost, or the win, the tie, the
    hand or the game, with both ends of the hand as perfect play makes them; and those two
    ends are the ones the judge's values stand for."""
    told = 0
    for seed in range(12):
        hand = _hand(seed, players=players)
        for scores in ((0, 0, 0)[:SMALL[players].sides], (95, 95, 95)[:SMALL[players].sides]):
            for m in review(hand, 0, scores)[0]:
                assert _value(m.best_outcome) - _value(m.outcome) == pytest.approx(m.cost)
                text = mistake_text(m)
                assert "cost 0." not in text and re.search(
                    r"\) cost (\d+ points?|the (win|tie|hand|game)) \(", text), text
                told += 1
    assert told > 4
    assert cost_words(Outcome("win", 9), Outcome("win", 12)) == \
        "cost 3 points (a win of 9 points instead of 12)"
    assert cost_words(Outcome("tie"), Outcome("win", 12)) == \
        "cost the win (a tie instead of a win of 12 points)"
    assert cost_words(Outcome("loss", 5), Outcome("win", 12, game=True)) == \
        "cost the game (a loss of 5 points instead of a win of 12 points that takes the game)"
    assert deep_text(2) == ("2 decisions were not judged: too many ways the hand could still "
                            "go to solve in time")
