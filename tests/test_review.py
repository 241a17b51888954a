"""The after-hand review: it judges a seat's plays by an exact solve of the revealed deal,
so it must only ever see a hand that is over."""

from __future__ import annotations

import random

import pytest

from bones.ai.review import review
from bones.engine.game import deal_hand, new_game
from bones.engine.moves import Play
from bones.engine.rules import PRESETS
from bones.engine.state import apply_unchecked


def _hand(seed: int, moves: int | None = None):
    rng = random.Random(seed)
    state = deal_hand(new_game(PRESETS["block"].replace(hand_size=4)), rng).current
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
        found += len(mistakes)
    assert found > 0  # random play makes mistakes
