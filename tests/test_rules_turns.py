"""Turns, drawing, passing and the end of a hand (rules.md "A hand" steps 3 to 5 and the
decisions on passes and blocked hands)."""

from __future__ import annotations

import pytest

from bones.engine.errors import IllegalMove
from bones.engine.game import play
from bones.engine.moves import Draw, Pass, Play
from bones.engine.rules import Rules
from bones.engine.tiles import Tile, count
from scripted import arms, current, hand, moves, tiles

BLOCK3 = Rules(players=3, hand_size=3)


def test_play_passes_to_the_left():
    g = hand(BLOCK3, ["6-6 6-5 1-0", "6-4 6-3 2-1", "6-2 6-1 4-1"], leader=1)
    seen = []
    for text in ("6-4", "6-1 left", "1-0 left", "pass", "4-1 right"):
        seen.append(current(g).to_move)
        g = moves(g, text)
    assert seen == [1, 2, 0, 1, 2]


def test_first_tile_lies_higher_half_left_however_it_is_written():
    g = hand(BLOCK3, ["3-6 1-0 2-0", "5-5 4-4 3-3", "2-2 1-1 0-0"], leader=0)
    g = play(g, Play(0, Tile(6, 3), "right"))  # a first tile's end is ignored
    assert arms(g) == {"left": 6, "right": 3}


def test_playing_a_tile_leaves_its_other_half_open_on_that_arm():
    g = hand(BLOCK3, ["6-3 1-0 2-0", "5-3 4-4 3-3", "2-2 1-1 0-0"], leader=0)
    g = moves(g, "6-3, 5-3")
    assert arms(g) == {"left": 6, "right": 5}


def test_tile_must_match_the_arm_it_is_laid_on():
    g = moves(hand(BLOCK3, ["6-3 1-0 2-0", "5-3 4-4 6-1", "2-2 1-1 0-0"], leader=0), "6-3")
    with pytest.raises(IllegalMove, match="5-3 does not match the left arm"):
        play(g, Play(1, Tile(5, 3), "left"))
    with pytest.raises(IllegalMove, match="matches no open arm"):
        play(g, Play(1, Tile(4, 4)))
    with pytest.raises(IllegalMove, match="does not hold"):
        play(g, Play(1, Tile(2, 2)))
    with pytest.raises(IllegalMove, match="seat 1's turn"):
        play(g, Play(2, Tile(2, 2)))


def test_tile_fitting_two_arms_needs_an_end_even_when_both_show_the_same_number():
    g = moves(hand(BLOCK3, ["6-6 1-0 2-0", "6-3 4-4 3-3", "2-2 1-1 0-0"], leader=0), "6-6")
    with pytest.raises(IllegalMove, match="must name its end"):
        play(g, Play(1, Tile(6, 3)))
    assert arms(play(g, Play(1, Tile(6, 3), "right"))) == {"left": 6, "right": 3}


def test_end_may_be_left_out_where_the_tile_fits_one_arm():
    g = moves(hand(BLOCK3, ["6-3 1-0 2-0", "5-3 4-4 3-3", "2-2 1-1 0-0"], leader=0), "6-3")
    g = play(g, Play(1, Tile(5, 3)))
    assert current(g).moves[-1] == Play(1, Tile(5, 3), "right")  # the end is filled in


def test_double_does_not_branch_without_spinner():
    g = hand(BLOCK3, ["6-5 1-0 2-0", "5-5 4-4 3-3", "5-4 1-1 0-0"], leader=0)
    g = moves(g, "6-5, 5-5")  # the double lies crosswise on the right arm
    assert arms(g) == {"left": 6, "right": 5}
    for arm in ("up", "down"):
        with pytest.raises(IllegalMove, match=f"the {arm} arm is not open"):
            play(g, Play(2, Tile(5, 4), arm))  # type: ignore[arg-type]
    assert arms(moves(g, "5-4")) == {"left": 6, "right": 4}


def test_leader_must_set_a_tile_and_may_not_pass_or_draw():
    g = hand(Rules(draw=True, hand_size=3), ["6-6 1-0 2-0", "5-3 4-4 3-3"], leader=0)
    with pytest.raises(IllegalMove, match="must set a tile"):
        play(g, Pass(0))
    with pytest.raises(IllegalMove, match="must set a tile"):
        play(g, Draw(0))


def test_no_voluntary_pass_in_block():
    g = moves(hand(BLOCK3, ["6-3 1-0 2-0", "5-3 4-4 3-3", "2-2 1-1 0-0"], leader=0), "6-3")
    with pytest.raises(IllegalMove, match="seat 1 holds 5-3, which matches the right arm "
                                          r"\(3\); it may not pass"):
        play(g, Pass(1))


def test_no_voluntary_draw_in_draw():
    g = hand(Rules(draw=True, hand_size=3), ["6-3 1-0 2-0", "5-3 4-4 3-3"], leader=0)
    g = moves(g, "6-3")
    with pytest.raises(IllegalMove, match="it may not draw"):
        play(g, Draw(1))


def test_block_player_who_cannot_play_passes_and_nobody_draws():
    g = moves(hand(BLOCK3, ["6-3 1-0 2-0", "5-5 4-4 4-0", "3-2 1-1 0-0"], leader=0), "6-3")
    with pytest.raises(IllegalMove, match="Block"):
        play(g, Draw(1))
    g = moves(g, "pass")
    assert current(g).moves[-1] == Pass(1)  # a pass is a move and is kept
    assert current(g).to_move == 2 and len(current(g).boneyard) == 28 - 9


def test_draw_until_a_drawn_tile_is_playable_then_it_must_be_played_this_turn():
    r = Rules(draw=True, hand_size=2)
    g = moves(hand(r, ["6-6 5-5", "1-0 2-1"], boneyard="3-0 2-2 6-1", leader=0), "6-6")
    g = moves(g, "draw, draw")
    assert current(g).to_move == 1 and current(g).hands[1] == tiles("1-0 2-1 3-0 2-2")
    with pytest.raises(IllegalMove, match="next tile of the boneyard is 6-1, not 5-4"):
        play(g, Draw(1, Tile(5, 4)))
    g = moves(g, "draw")
    assert current(g).to_move == 1  # still seat 1's turn: it must play the 6-1 now
    with pytest.raises(IllegalMove, match="holds 6-1"):
        play(g, Pass(1))
    with pytest.raises(IllegalMove, match="holds 6-1"):
        play(g, Draw(1))
    g = moves(g, "6-1 left")
    assert current(g).to_move == 0 and arms(g) == {"left": 1, "right": 6}


# double-six, 12 tiles each, 4 undealt of which the reserve keeps 2.
RESERVE_DEAL = ["6-6 6-5 6-4 6-3 6-2 6-1 6-0 5-5 5-4 5-3 5-2 5-1",
                "5-0 4-4 4-3 4-2 4-1 4-0 3-2 3-1 3-0 2-1 2-0 1-0"]


def test_draw_keeps_reserve_tiles_undrawn():
    r = Rules(draw=True, hand_size=12, reserve=2)
    g = hand(r, RESERVE_DEAL, boneyard="0-0 1-1 2-2 3-3", leader=0)
    g = moves(g, "6-6, draw, draw")
    assert current(g).boneyard == tiles("2-2 3-3")
    with pytest.raises(IllegalMove, match="reserve is 2"):
        play(g, Draw(1))
    g = moves(g, "pass")
    assert current(g).to_move == 0 and current(g).boneyard == tiles("2-2 3-3")


def test_pass_is_refused_while_the_boneyard_holds_more_than_the_reserve():
    r = Rules(draw=True, hand_size=12, reserve=2)
    g = moves(hand(r, RESERVE_DEAL, boneyard="0-0 1-1 2-2 3-3", leader=0), "6-6, draw")
    with pytest.raises(IllegalMove, match="can draw"):
        play(g, Pass(1))


@pytest.mark.parametrize("reserve", [0, 1, 3, 4])
def test_reserve_option_sets_how_many_tiles_stay(reserve):
    r = Rules(draw=True, hand_size=12, reserve=reserve)
    g = moves(hand(r, RESERVE_DEAL, boneyard="0-0 1-1 2-2 3-3", leader=0), "6-6")
    for _ in range(4 - reserve):
        g = moves(g, "draw")
    assert len(current(g).boneyard) == reserve
    g = moves(g, "pass")
    assert not current(g).is_over


# With 6-6 set and the other sixes all in the reserve, nobody can ever play again.
STUCK = ["6-6 5-5 5-4 5-3 5-2 5-1 5-0 4-4 4-3 4-2",
         "4-1 4-0 3-3 3-2 3-1 3-0 2-2 2-1 2-0 1-0"]


def test_blocked_right_after_a_draw_that_leaves_only_the_reserve():
    r = Rules(draw=True, hand_size=10, reserve=6)
    g = hand(r, STUCK, boneyard="0-0 1-1 6-5 6-4 6-3 6-2 6-1 6-0", leader=0)
    g = moves(g, "6-6, draw")
    assert not current(g).is_over
    g = moves(g, "draw")
    state = current(g)
    assert state.end == "blocked" and isinstance(state.moves[-1], Draw)
    assert len(state.moves) == 3  # no trailing passes
    with pytest.raises(IllegalMove, match="already over"):
        play(g, Pass(0))
    res = g.results[-1]
    assert res.counts == (count(tiles(STUCK[0])) - 12, count(tiles(STUCK[1] + " 0-0 1-1")))
    assert res.winner == 1 and res.points == (0, res.counts[0] - res.counts[1])


def test_blocked_hand_ends_at_once_without_trailing_passes():
    g = moves(hand(BLOCK3, ["6-6 1-0 2-0", "5-5 4-4 4-0", "3-2 1-1 0-0"], leader=0), "6-6")
    state = current(g)
    assert state.end == "blocked" and len(state.moves) == 1
    with pytest.raises(IllegalMove):
        play(g, Pass(1))


def test_last_tile_that_also_blocks_is_out_not_blocked():
    g = moves(hand(Rules(hand_size=1), ["6-6", "5-5"], leader=0), "6-6")
    assert current(g).end == "out"
    assert g.results[-1].winner == 0 and g.results[-1].points == (10, 0)


# Ten plays that leave 6 on both arms with every six on the layout (a dead layout).
DEAD_DEAL = ["6-6 5-4 6-3 6-2 1-0 5-5 4-4", "6-5 6-4 3-2 6-1 6-0 3-3 2-2"]
DEAD_PLAYS = ("6-6, 6-5 left, 5-4 left, 6-4 left, 6-3 left, 3-2 left, 6-2 left, 6-1 right, "
              "1-0 right, 6-0 right")


def test_call_block_ends_the_hand_as_soon_as_the_layout_is_dead():
    r = Rules(draw=True, call_block=True)
    g = moves(hand(r, DEAD_DEAL, leader=0), DEAD_PLAYS)
    state = current(g)
    assert arms(g) == {"left": 6, "right": 6}
    assert state.end == "blocked" and len(state.boneyard) == 14  # nobody drew
    assert g.results[-1].counts == (18, 10) and g.results[-1].points == (0, 8)


def test_without_call_block_a_dead_layout_is_drawn_down_to_the_reserve():
    r = Rules(draw=True, call_block=False)
    g = moves(hand(r, DEAD_DEAL, leader=0), DEAD_PLAYS)
    assert not current(g).is_over
    before = current(g).boneyard
    for _ in range(12):
        g = moves(g, "draw")
    state = current(g)
    assert state.end == "blocked" and state.boneyard == before[12:]
    assert g.results[-1].counts == (18 + count(before[:12]), 10)


def test_call_block_is_ignored_in_block():
    for call_block in (False, True):
        g = moves(hand(Rules(call_block=call_block), DEAD_DEAL, leader=0), DEAD_PLAYS)
        assert current(g).end == "blocked" and g.results[-1].points == (0, 8)


def test_call_block_last_tile_on_a_dead_layout_is_out():
    r = Rules(players=3, hand_size=4, draw=True, call_block=True)
    deal = ["6-6 6-4 6-2 6-0", "6-5 6-3 6-1 5-5", "5-4 3-2 1-0 4-4"]
    plays = ("6-6, 6-5 left, 5-4 left, 6-4 left, 6-3 left, 3-2 left, 6-2 left, 6-1 right, "
             "1-0 right, 6-0 right")
    g = moves(hand(r, deal, leader=0), plays)
    assert current(g).layout.is_dead(6)
    assert current(g).end == "out" and g.results[-1].winner == 0


def test_no_moves_after_a_hand_has_gone_out():
    g = moves(hand(Rules(hand_size=1), ["6-6", "6-5"], leader=0), "6-6")
    with pytest.raises(IllegalMove, match="already over"):
        play(g, Play(1, Tile(6, 5), "left"))
