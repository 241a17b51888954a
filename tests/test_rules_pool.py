"""The pool: ``ante``, ``pool: "hand" | "game"`` and ``pool_tie`` (rules.md step 7, the
Domino Pool decisions, and the ledger that ``bones replay --json`` reports)."""

from __future__ import annotations

from bones.engine.rules import Rules
from scripted import deal, hand, moves

ONE3 = Rules(players=3, hand_size=1, ante=2, target=1000)


def _conserved(g) -> None:
    assert sum(g.chips) + g.pool == 0
    assert [sum(col) for col in zip(*g.ledger, strict=True)] == list(g.chips)


def test_no_pool_without_an_ante():
    g = moves(hand(Rules(hand_size=1), ["6-6", "5-5"], leader=0), "6-6")
    assert g.pool == 0 and g.chips == (0, 0) and g.results[-1].pool == (0, 0)


def test_each_player_antes_before_every_hand_and_the_hand_winner_takes_the_pool():
    g = hand(ONE3, ["6-6", "5-5", "4-4"], leader=1)
    assert g.pool == 6 and g.chips == (-2, -2, -2)  # antes are in before the first tile
    g = moves(g, "5-5")  # seat 1 goes out
    assert g.results[-1].pool == (-2, 4, -2) and g.pool == 0
    g = moves(deal(g, ["6-6", "5-5", "4-4"]), "4-4")  # seat 2 leads and goes out
    assert g.results[-1].pool == (-2, -2, 4)
    assert g.chips == (-4, 2, 2)
    _conserved(g)


# Seat 0 sets 6-6 and nobody holds a six: blocked, counts 4, 4, 12; seats 0 and 1 tie.
TIE3 = ["6-6 3-1", "3-0 1-0", "4-4 2-2"]


def test_pool_tie_split_leaves_remainder():
    r = Rules(players=3, hand_size=2, ante=1, pool_tie="split")
    g = moves(hand(r, TIE3, leader=0), "6-6")
    res = g.results[-1]
    assert res.winner is None and res.points == (0, 0, 0)
    # pool 3 between two tied seats: 1 each, 1 chip stays for the next hand
    assert res.pool == (0, 0, -1) and g.pool == 1
    _conserved(g)
    # next hand: 3 more antes; seat 1 (left of seat 0) leads 6-6 and the others cannot
    # play; seat 1 holds 1 pip and wins the 4 chips
    g = moves(deal(g, ["5-5 4-0", "6-6 1-0", "4-4 2-2"]), "6-6")
    assert g.results[-1].winner == 1 and g.results[-1].pool == (-1, 3, -1)
    assert g.pool == 0 and g.chips == (-1, 3, -2)
    _conserved(g)


def test_pool_tie_carry_keeps_the_whole_pool_for_the_next_hand():
    r = Rules(players=3, hand_size=2, ante=1, pool_tie="carry")
    g = moves(hand(r, TIE3, leader=0), "6-6")
    assert g.results[-1].pool == (-1, -1, -1) and g.pool == 3
    g = moves(deal(g, ["5-5 4-0", "6-6 1-0", "4-4 2-2"]), "6-6")
    assert g.results[-1].pool == (-1, 5, -1) and g.pool == 0
    _conserved(g)


def test_partners_share_the_pool_equally():
    r = Rules(players=4, partnerships=True, hand_size=1, ante=3)
    g = moves(hand(r, ["6-6", "5-5", "4-4", "3-3"], leader=2), "4-4")
    res = g.results[-1]
    assert res.winner == 0 and res.pool == (3, -3, 3, -3)  # 12 chips, 6 to each partner
    _conserved(g)


def test_pool_game_antes_once_and_the_game_winner_takes_the_pool():
    r = Rules(hand_size=1, ante=5, pool="game", target=10)
    g = moves(hand(r, ["6-6", "2-1"], leader=0), "6-6")   # seat 0 scores 3
    assert g.results[-1].pool == (-5, -5) and g.pool == 10
    g = moves(deal(g, ["1-0", "6-5"]), "6-5")               # seat 1 leads, scores 1
    assert g.results[-1].pool == (0, 0) and g.pool == 10
    g = moves(deal(g, ["5-5", "4-3"]), "5-5")               # seat 0 reaches 3 + 7 = 10
    assert g.scores == (10, 1) and g.finished and g.winner == 0
    assert g.results[-1].pool == (10, 0) and g.pool == 0
    assert g.chips == (5, -5)
    _conserved(g)


def test_pool_game_pays_nothing_on_a_hand_that_does_not_reach_the_target():
    r = Rules(players=3, hand_size=2, ante=1, pool="game", pool_tie="split")
    g = moves(hand(r, TIE3, leader=0), "6-6")  # a tie: pool_tie plays no part in "game"
    assert g.results[-1].pool == (-1, -1, -1) and g.pool == 3


def test_domino_pool_blocked_hand_pays_the_low_hand_the_others_pips_and_the_pool():
    r = Rules(preset="pool", players=3, hand_size="pool", score="others", ante=1,
              next_lead="same")
    assert r.dealt == 6
    deal_ = ["6-6 3-1 0-0 1-1 2-0 1-0", "3-0 2-1 2-2 4-0 5-0 3-2", "4-4 5-5 5-4 5-3 5-2 4-3"]
    g = moves(hand(r, deal_, leader=0), "6-6")  # nobody else holds a six: blocked
    res = g.results[-1]
    assert res.counts == (4 + 0 + 2 + 2 + 1, 3 + 3 + 4 + 4 + 5 + 5, 8 + 10 + 9 + 8 + 7 + 7)
    assert res.winner == 0 and res.points == (24 + 49, 0, 0) and res.pool == (2, -1, -1)


def test_domino_pool_tied_low_hands_divide_the_pool():
    r = Rules(preset="pool", players=3, hand_size=2, score="others", ante=1,
              next_lead="same")
    g = moves(hand(r, TIE3, leader=0), "6-6")
    res = g.results[-1]
    assert res.winner is None and res.points == (0, 0, 0)
    assert res.pool == (0, 0, -1) and g.pool == 1


def test_chips_left_in_the_pool_are_credited_to_nobody():
    r = Rules(players=3, hand_size=2, ante=1)
    g = moves(hand(r, TIE3, leader=0), "6-6")
    assert g.pool == 1 and sum(g.chips) == -1
