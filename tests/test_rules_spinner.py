"""``spinner: "first-double"``: the first double on the layout is the only spinner; once tiles
touch both of its sides along the line, ``up`` and ``down`` open showing its number."""

from __future__ import annotations

import pytest

from bones.engine.errors import IllegalMove
from bones.engine.game import play
from bones.engine.moves import Play
from bones.engine.rules import Rules
from bones.engine.tiles import Tile
from scripted import arms, current, hand, moves

SPIN = Rules(spinner="first-double", hand_size=4)


def test_spinner_opens_up_and_down_after_both_sides_touched():
    g = moves(hand(SPIN, ["5-5 5-2 5-0 1-1", "5-3 5-1 6-6 4-4"], leader=0), "5-5")
    assert arms(g) == {"left": 5, "right": 5}
    g = moves(g, "5-3 left")
    assert arms(g) == {"left": 3, "right": 5}  # one side touched: still closed
    with pytest.raises(IllegalMove, match="up arm is not open"):
        play(g, Play(0, Tile(5, 2), "up"))
    g = moves(g, "5-2")
    assert arms(g) == {"left": 3, "right": 2, "up": 5, "down": 5}


def test_spinner_up_and_down_are_arms_like_the_others():
    g = moves(hand(SPIN, ["5-5 5-2 5-0 1-1", "5-3 5-1 6-6 4-4"], leader=0), "5-5, 5-3 left, 5-2")
    with pytest.raises(IllegalMove, match=r"the up arm \(5\) and the down arm \(5\)"):
        play(g, Play(1, Tile(5, 1)))  # fits up and down, both showing 5: needs its end
    g = moves(g, "5-1 up")
    assert arms(g) == {"left": 3, "right": 2, "up": 1, "down": 5}
    g = moves(g, "5-0")  # fits only down now
    assert arms(g) == {"left": 3, "right": 2, "up": 1, "down": 0}
    assert current(g).moves[-1] == Play(0, Tile(5, 0), "down")


def test_spinner_that_is_not_the_first_tile_waits_for_its_outer_side():
    g = hand(SPIN, ["6-5 5-3 1-0 2-0", "5-5 3-2 4-4 4-0"], leader=0)
    g = moves(g, "6-5, 5-5")  # the first double, on the right arm: its inner side touches 6-5
    assert arms(g) == {"left": 6, "right": 5}
    assert current(g).layout.spinner == Tile(5, 5)
    g = moves(g, "5-3")  # a tile on its outer side: both sides touched
    assert arms(g) == {"left": 6, "right": 3, "up": 5, "down": 5}


def test_spinner_on_the_left_arm_opens_after_a_tile_on_its_left():
    g = hand(SPIN, ["5-4 5-3 1-0 2-0", "5-5 4-4 3-3 4-0"], leader=0)
    g = moves(g, "5-4, 5-5 left")
    assert arms(g) == {"left": 5, "right": 4}
    with pytest.raises(IllegalMove, match="up arm is not open"):
        play(g, Play(0, Tile(5, 3), "up"))
    g = moves(g, "5-3 left")
    assert arms(g) == {"left": 3, "right": 4, "up": 5, "down": 5}


def test_only_the_first_double_is_a_spinner():
    g = hand(SPIN, ["5-5 5-3 3-3 1-0", "5-2 2-2 6-6 4-0"], leader=0)
    g = moves(g, "5-5, 5-2 left, 5-3 right")
    assert arms(g) == {"left": 2, "right": 3, "up": 5, "down": 5}
    g = moves(g, "2-2 left, 3-3 right")  # two more doubles: crosswise, no new arms
    assert arms(g) == {"left": 2, "right": 3, "up": 5, "down": 5}
    assert current(g).layout.spinner == Tile(5, 5)


def test_double_does_not_spin_without_the_spinner_rule():
    r = SPIN.replace(spinner="none")
    g = hand(r, ["5-5 5-2 5-0 1-1", "5-3 5-1 6-6 4-4"], leader=0)
    g = moves(g, "5-5, 5-3 left, 5-2")
    assert arms(g) == {"left": 3, "right": 2}
    assert current(g).layout.spinner is None


def test_first_double_played_on_a_later_turn_becomes_the_spinner_after_a_non_double_start():
    g = hand(SPIN, ["4-3 3-3 3-1 0-0", "4-4 6-4 1-0 2-2"], leader=0)
    g = moves(g, "4-3, 4-4 left")  # 4-4 is the first double: the spinner
    assert current(g).layout.spinner == Tile(4, 4)
    g = moves(g, "3-3 right")  # a double, but not the spinner; right arm shows 3
    assert "up" not in arms(g)
    g = moves(g, "6-4 left")  # the spinner's outer side is touched
    assert arms(g) == {"left": 6, "right": 3, "up": 4, "down": 4}
