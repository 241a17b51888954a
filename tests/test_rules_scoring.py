"""Scoring a hand (rules.md "A hand" step 6), with the worked examples and the decisions
on partnerships and ties."""

from __future__ import annotations

import pytest

from bones.engine.rules import Rules
from scripted import current, hand, moves

THREE = Rules(players=3, hand_size=2)


def _out_0_9_12(score: str):
    """Seat 0 sets 6-6, the others hold no six and pass, seat 0 goes out with 6-1."""
    g = hand(THREE.replace(score=score), ["6-6 6-1", "5-4 0-0", "4-4 2-2"], leader=0)
    return moves(g, "6-6, pass, pass, 6-1 left")


def _blocked_4_9_12(score: str):
    """Seat 0 sets 6-6 and nobody holds a six: blocked at once with counts 4, 9, 12."""
    return moves(hand(THREE.replace(score=score), ["6-6 3-1", "5-4 0-0", "4-4 2-2"], leader=0),
                 "6-6")


def test_worked_example_out_scores_21():
    r = _out_0_9_12("others-minus-own").results[-1]
    assert r.end == "out" and r.counts == (0, 9, 12)
    assert r.winner == 0 and r.points == (9 + 12 - 0, 0, 0) == (21, 0, 0)


def test_worked_example_blocked_scores_17():
    r = _blocked_4_9_12("others-minus-own").results[-1]
    assert r.end == "blocked" and r.counts == (4, 9, 12)
    assert r.winner == 0 and r.points == (9 + 12 - 4, 0, 0) == (17, 0, 0)


def test_worked_example_blocked_with_others_scores_21():
    r = _blocked_4_9_12("others").results[-1]
    assert r.winner == 0 and r.points == (21, 0, 0)


def test_others_score_after_going_out_is_the_others_counts():
    assert _out_0_9_12("others").results[-1].points == (21, 0, 0)


def test_blocked_tie_scores_nobody():
    g = moves(hand(THREE, ["6-6 3-1", "3-0 1-0", "4-4 2-2"], leader=0), "6-6")
    r = g.results[-1]
    assert r.end == "blocked" and r.counts == (4, 4, 12)
    assert r.winner is None and r.points == (0, 0, 0)
    assert g.scores == (0, 0, 0)


def test_tie_above_the_lowest_count_does_not_stop_the_lowest_from_winning():
    g = moves(hand(THREE, ["6-6 3-1", "5-4 0-0", "5-3 1-0"], leader=0), "6-6")
    r = g.results[-1]
    assert r.counts == (4, 9, 9) and r.winner == 0 and r.points == (14, 0, 0)


def test_blocked_hand_is_won_by_the_lowest_count_not_by_the_last_to_play():
    g = hand(THREE, ["6-6 5-5", "6-1 0-0", "4-4 2-2"], leader=0)
    g = moves(g, "6-6, 6-1 left")  # seat 1 plays last; nobody holds a 1 or a 6: blocked
    r = g.results[-1]
    assert r.end == "blocked" and r.counts == (10, 0, 12)
    assert r.winner == 1 and r.points == (0, 22 - 0, 0)


FOUR = Rules(players=4, partnerships=True, hand_size=2)


def _partners_out(deal: list[str], score: str = "others-minus-own"):
    g = hand(FOUR.replace(score=score), deal, leader=0)
    return moves(g, "6-6, pass, pass, pass, 6-1 left")


def test_partner_tiles_count_against_side_that_went_out():
    g = _partners_out(["6-6 6-1", "5-4 0-0", "3-2 1-0", "4-4 2-0"])
    r = g.results[-1]
    assert r.end == "out" and r.counts == (0, 9, 6, 10)
    assert r.winner == 0 and r.points == ((9 + 10) - (0 + 6), 0) == (13, 0)


def test_partnership_others_score_ignores_the_partner():
    r = _partners_out(["6-6 6-1", "5-4 0-0", "3-2 1-0", "4-4 2-0"], "others").results[-1]
    assert r.points == (19, 0)


def test_winner_never_scores_below_zero():
    g = _partners_out(["6-6 6-1", "1-0 0-0", "5-5 4-4", "2-0 1-1"])
    r = g.results[-1]
    assert r.counts == (0, 1, 18, 4)
    assert r.winner == 0 and r.points == (0, 0)  # 5 - 18 would be negative
    assert g.scores == (0, 0)


def test_partnership_blocked_hand_compares_side_counts():
    g = moves(hand(FOUR, ["6-6 1-0", "5-5 0-0", "4-4 3-3", "1-1 2-1"], leader=0), "6-6")
    r = g.results[-1]
    # side 0: 1 + 14 = 15; side 1: 10 + 5 = 15: a tie although seat 0 holds only 1 pip.
    assert r.end == "blocked" and r.counts == (1, 10, 14, 5)
    assert r.winner is None and r.points == (0, 0)


@pytest.mark.parametrize("score", ["others-minus-own", "others"])
def test_seats_are_sides_without_partnerships(score):
    r = Rules(players=4, hand_size=2, score=score)
    g = moves(hand(r, ["6-6 6-1", "5-4 0-0", "3-2 1-0", "4-4 2-0"], leader=0),
              "6-6, pass, pass, pass, 6-1 left")
    assert g.results[-1].points == (25, 0, 0, 0)  # 9 + 6 + 10, seat 0 holds nothing


def test_seed_001_scores_pips_left_when_out_and_the_difference_when_blocked():
    two = Rules(hand_size=2)
    out = moves(hand(two, ["6-6 6-1", "5-4 2-0"], leader=0), "6-6, pass, 6-1 left")
    assert out.results[-1].points == (11, 0)
    blocked = moves(hand(two, ["6-6 3-1", "5-4 2-0"], leader=0), "6-6")
    assert blocked.results[-1].points == (11 - 4, 0)


def test_puerto_rico_blocked_hand_goes_to_the_fewest_pips_and_scores_all_the_others():
    r = Rules(preset="puerto-rico", score="others", hand_size=2)
    g = moves(hand(r, ["6-6 3-1", "5-4 2-0"], leader=0), "6-6")
    assert g.results[-1].winner == 0 and g.results[-1].points == (11, 0)


def test_hand_points_are_added_to_the_game_scores():
    g = _out_0_9_12("others-minus-own")
    assert g.scores == (21, 0, 0) and not g.finished
    assert current(g).is_over
