"""A game: hands until a side's total reaches the target (rules.md step 8), with the
deal checks that come before every hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bones.engine.errors import DealError
from bones.engine.game import new_game, start_hand
from bones.engine.rules import Rules
from bones.engine.tiles import parse_tiles
from bones.record.summary import summary
from scripted import current, deal, hand, moves

R = Rules(hand_size=1, target=10)


def test_game_ends_after_the_hand_in_which_a_side_reaches_the_target():
    g = moves(hand(R, ["6-6", "5-4"], leader=0), "6-6")  # seat 0 scores 9
    assert g.scores == (9, 0) and not g.finished and g.winner is None
    g = moves(deal(g, ["0-0", "1-0"]), "1-0")  # seat 1 leads and scores 0
    assert g.scores == (9, 0) and not g.finished
    g = moves(deal(g, ["1-1", "0-0"]), "1-1")  # seat 0 again: 9 + 0 = 9
    assert not g.finished
    g = moves(deal(g, ["3-0", "2-1"]), "2-1")  # seat 1 scores 3
    g = moves(deal(g, ["1-0", "2-0"]), "1-0")  # seat 0 scores 2: 11 >= 10
    assert g.scores == (11, 3) and g.finished and g.winner == 0


def test_reaching_the_target_exactly_wins():
    g = moves(hand(R.replace(target=9), ["6-6", "5-4"], leader=0), "6-6")
    assert g.finished and g.winner == 0


def test_no_hand_may_follow_a_won_game():
    g = moves(hand(R.replace(target=9), ["6-6", "5-4"], leader=0), "6-6")
    with pytest.raises(DealError, match="already won"):
        deal(g, ["6-6", "5-4"])


def test_a_hand_may_not_start_before_the_last_one_ends():
    g = hand(Rules(hand_size=2), ["6-6 5-5", "6-5 4-4"], leader=0)
    with pytest.raises(DealError, match="not ended"):
        deal(g, ["6-6 5-5", "6-5 4-4"])


@pytest.mark.parametrize(("players", "goal"), [(2, 100), (3, 61)])
def test_pagat_target_decides_when_the_game_is_won(players, goal):
    r = Rules(players=players, hand_size=2, target="pagat")
    assert r.target_points == goal
    g = new_game(r)
    assert replace(g, scores=(goal - 1,) + (0,) * (players - 1)).winner is None
    assert replace(g, scores=(0,) * (players - 1) + (goal,)).winner == players - 1


def test_deal_must_give_every_seat_its_hand_size_and_partition_the_set():
    r = Rules(hand_size=2)
    g = new_game(r)
    rest = sorted(set(parse_tiles("6-6 6-5 6-4 6-3 6-2 6-1 6-0 5-5 5-4 5-3 5-2 5-1 5-0 "
                                  "4-4 4-3 4-2 4-1 4-0 3-3 3-2 3-1 3-0 2-2 2-1 2-0 1-1 1-0 "
                                  "0-0")) - set(parse_tiles("6-6 5-5 6-5 4-4")))
    ok = (parse_tiles("6-6 5-5"), parse_tiles("6-5 4-4"))
    assert current(start_hand(g, ok, rest, 0)).hands == ok
    with pytest.raises(DealError, match="dealt 3 tiles"):
        start_hand(g, (parse_tiles("6-6 5-5 3-3"), parse_tiles("6-5 4-4")),
                   [t for t in rest if str(t) != "3-3"], 0)
    with pytest.raises(DealError, match="3 hands"):
        start_hand(g, ok + (parse_tiles("3-3 2-2"),), rest, 0)
    with pytest.raises(DealError, match="more than once"):
        start_hand(g, ok, rest[:-1] + [parse_tiles("6-6")[0]], 0)
    with pytest.raises(DealError, match="neither"):
        start_hand(g, ok, rest[:-1], 0)
    with pytest.raises(DealError, match="double-6"):
        start_hand(g, ok, rest + list(parse_tiles("7-0")), 0)
    with pytest.raises(DealError, match="not a seat"):
        start_hand(g, ok, rest, 2)


def test_summary_reports_an_unfinished_hand_with_its_counts_so_far():
    r = Rules(players=3, hand_size=2, ante=1)
    g = moves(hand(r, ["6-6 6-1", "5-4 0-0", "4-4 2-2"], leader=0), "6-6, pass")
    s = summary(g)
    assert s == {"hands": [{"end": "unfinished", "winner": None, "counts": [7, 9, 12],
                            "points": [0, 0, 0], "pool": [-1, -1, -1]}],
                 "scores": [0, 0, 0], "finished": False, "winner": None,
                 "chips": [-1, -1, -1]}


def test_summary_numbers_partnership_sides_by_their_lowest_seat():
    r = Rules(players=4, partnerships=True, hand_size=2, target=5)
    g = moves(hand(r, ["6-6 6-1", "5-4 0-0", "3-2 1-0", "4-4 2-0"], leader=1), "5-4")
    # seat 1 sets 5-4 (arms 5 and 4); seat 2 passes; seat 3 lays 4-4 on the right, and now
    # nobody holds a 4 or a 5: blocked.
    g = moves(g, "pass, 4-4 right")
    assert current(g).end == "blocked"
    s = summary(g)
    # side 0 = seats 0 and 2: 19 + 6 = 25; side 1 = seats 1 and 3: 0 + 2 = 2
    assert s["hands"][0]["counts"] == [19, 0, 6, 2]
    assert s["hands"][0]["winner"] == 1 and s["hands"][0]["points"] == [0, 25 - 2]
    assert s["scores"] == [0, 23] and s["finished"] is True and s["winner"] == 1
