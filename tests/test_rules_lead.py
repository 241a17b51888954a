"""Who sets the first tile, and which: ``lead``, ``opening``, ``no_double``, ``next_lead``
(rules.md, "A hand" step 2 and the options table)."""

from __future__ import annotations

import random

import pytest

from bones.engine.errors import DealError, IllegalMove
from bones.engine.game import deal_hand, new_game, play, start_hand
from bones.engine.moves import Play
from bones.engine.rules import Rules
from bones.engine.tiles import Tile, parse_tile, parse_tiles
from scripted import current, deal, hand, moves


def leader_of(game) -> int:
    return current(game).leader


# -- the first hand ------------------------------------------------------------------------


def test_lots_leader_must_be_named_by_the_record():
    r = Rules(hand_size=3)
    with pytest.raises(DealError, match="lots"):
        hand(r, ["6-5 4-4 1-0", "5-5 3-2 2-1"])


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_lots_any_seat_may_lead_and_set_any_tile(seat):
    g = hand(Rules(players=3, hand_size=2), ["6-5 1-0", "5-5 3-2", "4-4 2-1"], leader=seat)
    assert leader_of(g) == seat and current(g).to_move == seat
    t = current(g).hands[seat][1]
    g = play(g, Play(seat, t))
    assert current(g).layout.first == t


def test_highest_double_lead_gives_the_first_hand_to_the_highest_double_holder():
    r = Rules(lead="highest-double", hand_size=3)
    g = hand(r, ["6-5 4-4 1-0", "5-5 3-2 2-1"])
    assert leader_of(g) == 1
    assert current(g).opening is None  # opening "any": any tile may be set
    g = moves(g, "3-2")
    assert current(g).layout.first == Tile(3, 2)
    with pytest.raises(DealError, match="seat 1"):
        hand(r, ["6-5 4-4 1-0", "5-5 3-2 2-1"], leader=0)
    assert leader_of(hand(r, ["6-5 4-4 1-0", "5-5 3-2 2-1"], leader=1)) == 1


def test_highest_double_lead_without_a_double_redeals():
    r = Rules(lead="highest-double", no_double="redeal", hand_size=3)
    with pytest.raises(DealError, match="redeal this deal: no double was dealt that the lead"):
        hand(r, ["6-5 4-1 3-0", "6-4 5-2 2-1"], leader=0)


def test_highest_double_lead_without_a_double_heaviest_holder_leads_and_may_set_any_tile():
    # Deliberate reading: with opening "any", no_double "heaviest" picks the leader only.
    r = Rules(lead="highest-double", no_double="heaviest", hand_size=3)
    g = hand(r, ["6-4 4-1 3-0", "6-5 5-2 2-1"])
    assert leader_of(g) == 1  # 6-5 (11 pips) is the heaviest dealt
    assert current(g).opening is None
    g = moves(g, "2-1")
    assert current(g).layout.first == Tile(2, 1)


def test_heaviest_lead_uses_the_heavier_order():
    # 6-0 and 3-3 both have 6 pips: the double is heavier.
    r = Rules(lead="heaviest", hand_size=3)
    g = hand(r, ["6-0 2-1 1-0", "3-3 2-0 4-1"])
    assert leader_of(g) == 1
    assert current(g).opening is None
    g = moves(g, "4-1")
    assert current(g).layout.first == Tile(4, 1)


@pytest.mark.parametrize("lead", ["lots", "highest-double", "heaviest"])
def test_opening_highest_double_forces_tile_and_holder_whatever_lead_says(lead):
    r = Rules(lead=lead, opening="highest-double", hand_size=3)
    hands = ["6-5 2-2 1-0", "4-4 3-1 2-0"]
    g = hand(r, hands)  # no leader needed even with lots: the tile names its holder
    assert leader_of(g) == 1 and current(g).opening == Tile(4, 4)
    with pytest.raises(IllegalMove, match="must be 4-4"):
        play(g, Play(1, parse_tile("3-1")))
    with pytest.raises(DealError):
        hand(r, hands, leader=0)
    assert current(play(g, Play(1, Tile(4, 4)))).layout.first == Tile(4, 4)


def test_opening_top_double_forces_six_six_and_its_holder():
    r = Rules(opening="top-double", players=3, hand_size=2)
    g = hand(r, ["5-5 1-0", "4-4 2-1", "6-6 3-0"])
    assert leader_of(g) == 2 and current(g).opening == Tile(6, 6)
    with pytest.raises(IllegalMove):
        moves(g, "3-0")


def test_opening_top_double_of_a_larger_set_is_its_top_double():
    r = Rules(set=9, opening="top-double", hand_size=2)
    g = hand(r, ["9-8 1-0", "9-9 2-1"])
    assert leader_of(g) == 1 and current(g).opening == Tile(9, 9)


def test_opening_top_double_not_dealt_redeals():
    r = Rules(opening="top-double", no_double="redeal", hand_size=3)
    with pytest.raises(DealError, match="redeal"):
        hand(r, ["5-5 4-4 1-0", "3-3 3-2 2-1"], leader=0)


def test_opening_top_double_not_dealt_heaviest_tile_is_set_by_its_holder():
    r = Rules(opening="top-double", no_double="heaviest", hand_size=3)
    g = hand(r, ["5-5 4-4 1-0", "6-4 3-2 2-1"])
    # 5-5 and 6-4 both have 10 pips; the double is heavier.
    assert leader_of(g) == 0 and current(g).opening == Tile(5, 5)
    with pytest.raises(IllegalMove):
        moves(g, "4-4")


def test_opening_highest_double_none_dealt_heaviest_tile_is_set():
    r = Rules(opening="highest-double", no_double="heaviest", hand_size=3)
    g = hand(r, ["6-3 4-1 1-0", "5-4 3-2 2-1"])
    # 6-3 and 5-4: 9 pips each, neither a double: the higher high half, 6-3.
    assert leader_of(g) == 0 and current(g).opening == Tile(6, 3)


def test_opening_highest_double_none_dealt_redeals():
    r = Rules(opening="highest-double", no_double="redeal", hand_size=3)
    with pytest.raises(DealError, match="no double was dealt that the opening needs"):
        hand(r, ["6-3 4-1 1-0", "5-4 3-2 2-1"], leader=0)


def test_opening_top_double_not_dealt_redeals_and_names_the_top_double():
    """Other doubles were dealt; the refusal says which one the opening needs."""
    r = Rules(opening="top-double", no_double="redeal", hand_size=3)
    with pytest.raises(DealError, match="6-6, the top double the opening needs, was not dealt"):
        hand(r, ["5-5 4-4 1-0", "6-4 3-3 2-1"], leader=0)


# -- later hands -----------------------------------------------------------------------------

ONE = Rules(players=3, hand_size=1, target=1000)


def _out(game):
    """With one tile each, the leader goes out with the first move."""
    state = current(game)
    return play(game, Play(state.to_move, state.hands[state.to_move][0]))


def test_next_lead_left_passes_the_lead_to_the_left_of_the_previous_leader():
    g = _out(hand(ONE, ["6-6", "5-5", "4-4"], leader=1))
    g2 = deal(g, ["6-6", "5-5", "4-4"])  # no leader needed: the rules decide
    assert leader_of(g2) == 2
    with pytest.raises(DealError, match="seat 2"):
        deal(g, ["6-6", "5-5", "4-4"], leader=1)
    g3 = deal(_out(g2), ["1-1", "2-2", "3-3"])
    assert leader_of(g3) == 0  # wraps around


def test_next_lead_winner_gives_the_lead_to_the_player_who_went_out():
    r = ONE.replace(hand_size=2, next_lead="winner")
    hands = ["5-5 6-6", "1-0 2-1", "5-4 4-4"]
    g = hand(r, hands, leader=0)
    # 5-5 set; seat 1 passes; seat 2 lays 5-4 on the left (4 open); seat 0 (6-6) and
    # seat 1 pass; seat 2 goes out with 4-4.
    g = moves(g, "5-5, pass, 5-4 left, pass, pass, 4-4")
    assert current(g).end == "out" and g.results[-1].winner == 2
    assert leader_of(deal(g, hands)) == 2  # "left" would give seat 1


def test_next_lead_winner_differs_from_left():
    r = ONE.replace(next_lead="winner")
    g = _out(hand(r, ["6-6", "5-5", "4-4"], leader=0))  # seat 0 goes out at once
    assert leader_of(deal(g, ["6-6", "5-5", "4-4"])) == 0  # left would be seat 1


def test_next_lead_winner_after_tie_goes_left():
    r = Rules(hand_size=2, next_lead="winner", lead="lots")
    g = hand(r, ["6-6 2-1", "3-0 0-0"], leader=0)
    g = moves(g, "6-6")  # nobody holds a 6: blocked, counts 3 and 3
    assert current(g).end == "blocked" and g.results[-1].winner is None
    assert leader_of(deal(g, ["6-6 2-1", "3-0 0-0"])) == 1


def test_next_lead_winner_blocked_partnership_lowest_count_earliest_from_previous_leader():
    r = Rules(players=4, partnerships=True, hand_size=2, next_lead="winner")
    hands = ["3-0 1-0", "5-5 4-4", "2-0 1-1", "6-6 6-4"]
    g = hand(r, hands, leader=1)
    g = moves(g, "5-5")  # nobody holds a 5: blocked at once
    res = g.results[-1]
    assert current(g).end == "blocked"
    assert res.counts == (4, 8, 4, 22) and res.winner == 0 and res.points == (22, 0)
    # seats 0 and 2 tie on 4; in turn order from the previous leader (1): 1, 2, 3, 0.
    assert leader_of(deal(g, hands)) == 2


def test_next_lead_winner_blocked_counting_from_the_previous_leader_itself():
    r = Rules(players=4, partnerships=True, hand_size=2, next_lead="winner")
    hands = ["5-5 3-0", "6-6 4-4", "2-1 0-0", "6-4 6-3"]
    g = moves(hand(r, hands, leader=0), "5-5")  # nobody holds a 5: blocked at once
    assert g.results[-1].counts == (3, 20, 3, 19) and g.results[-1].winner == 0
    # seats 0 and 2 tie on 3; counting from the previous leader itself, seat 0 comes first.
    assert leader_of(deal(g, hands)) == 0


def test_next_lead_same_applies_the_lead_rule_afresh_every_hand():
    r = ONE.replace(next_lead="same")  # lead "lots": lots again, so the leader is required
    g = _out(hand(r, ["6-6", "5-5", "4-4"], leader=1))
    with pytest.raises(DealError, match="lots"):
        deal(g, ["6-6", "5-5", "4-4"])
    assert leader_of(deal(g, ["6-6", "5-5", "4-4"], leader=1)) == 1
    r = ONE.replace(next_lead="same", lead="highest-double")
    g = _out(hand(r, ["6-6", "5-5", "4-4"]))
    assert leader_of(g) == 0
    assert leader_of(deal(g, ["1-1", "5-5", "4-4"])) == 1


def test_lead_rule_applies_to_the_first_hand_only_unless_next_lead_same():
    r = ONE.replace(lead="highest-double")
    g = _out(hand(r, ["6-6", "5-5", "4-4"]))
    assert leader_of(g) == 0
    assert leader_of(deal(g, ["1-1", "5-5", "4-4"])) == 1  # left of 0, not the 5-5 holder
    g = _out(hand(r, ["1-1", "5-5", "4-4"]))
    assert leader_of(g) == 1


@pytest.mark.parametrize("next_lead", ["left", "winner", "same"])
def test_opening_that_names_the_tile_wins_over_next_lead(next_lead):
    r = ONE.replace(opening="top-double", no_double="heaviest", next_lead=next_lead,
                    hand_size=2)
    g = hand(r, ["6-6 1-0", "5-5 2-1", "4-4 3-0"])
    assert leader_of(g) == 0
    g = moves(g, "6-6")  # nobody holds a 6: blocked; seat 0 holds 1 pip and wins
    assert current(g).end == "blocked"
    g2 = deal(g, ["5-5 2-1", "6-6 1-0", "4-4 3-0"])
    assert leader_of(g2) == 1 and current(g2).opening == Tile(6, 6)
    with pytest.raises(DealError):
        deal(g, ["5-5 2-1", "6-6 1-0", "4-4 3-0"], leader=2)


def test_lots_first_hand_then_next_lead_left_needs_no_leader():
    g = _out(hand(ONE, ["6-6", "5-5", "4-4"], leader=2))
    assert leader_of(deal(g, ["6-6", "5-5", "4-4"])) == 0


@pytest.mark.parametrize("options", [
    {"opening": "top-double", "no_double": "redeal"},
    {"opening": "highest-double", "no_double": "redeal", "hand_size": 1},
    {"lead": "highest-double", "no_double": "redeal", "hand_size": 2},
])
def test_shuffle_and_deal_again_until_the_rules_accept_the_deal(options):
    r = Rules(**options)  # type: ignore[arg-type]
    rng = random.Random(7)
    for _ in range(50):
        g = deal_hand(new_game(r), rng)  # deal_hand checks the deal it made
        state = current(g)
        dealt = {t for h in state.deal for t in h}
        assert any(t.is_double for t in dealt)
        if r.opening == "top-double":
            assert Tile(6, 6) in state.hands[state.leader]


def test_a_deal_that_would_be_redealt_is_refused_by_start_hand_even_with_a_leader():
    r = Rules(opening="top-double")
    dealt = [parse_tiles("5-5 4-4 3-3 2-2 1-1 0-0 5-4"), parse_tiles("6-5 6-4 6-3 6-2 6-1 6-0 5-3")]
    rest = tuple(t for t in [Tile(a, b) for a in range(7) for b in range(a + 1)]
                 if t not in dealt[0] and t not in dealt[1])
    with pytest.raises(DealError, match="redeal"):
        start_hand(new_game(r), dealt, rest, 0)
