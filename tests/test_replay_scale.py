"""A game's hands are kept so that a move costs the same however many hands came before it:
replaying a record takes time in proportion to its length (``benchmarks/replay_hands.py``
measures it; these tests count memory, never time)."""

from __future__ import annotations

import copy
import pickle
import random
import tracemalloc

import pytest

from bones.engine.chain import Chain
from bones.engine.game import deal_hand, new_game, play_unchecked
from bones.engine.rules import PRESETS
from bones.record.reader import load, parse
from bones.record.writer import dump, record_of

RULES = PRESETS["draw"].replace(target=10**9, next_lead="same")


def _hands(count: int):
    """A game of ``count`` hands (one hand of random play, repeated), and its last hand's
    deal to play once more."""
    rng = random.Random(3)
    game = deal_hand(new_game(RULES), rng)
    while game.current is not None:
        game = play_unchecked(game, rng.choice(game.current.legal_moves()))
    text = dump(record_of(game, ("a", "b")))
    doc = load(text)
    doc["hands"] = doc["hands"] * count
    return parse(doc)[1]


def _allocated_by_a_hand(game) -> int:
    """Bytes allocated, at their peak, while one more hand is dealt and played out."""
    rng = random.Random(5)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        game = deal_hand(game, rng)
        while game.current is not None:
            game = play_unchecked(game, game.current.legal_moves()[0])
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def test_a_hand_costs_no_more_memory_after_a_thousand_hands_than_after_one():
    """Each move used to copy the tuple of every hand (8 bytes a hand, so 8 KB a move
    after a thousand hands); now a move shares the finished hands with the game before."""
    early, late = _allocated_by_a_hand(_hands(1)), _allocated_by_a_hand(_hands(1000))
    # the results' tuple still grows by a copy per hand (8 KB here), not per move
    assert late < early + 12_000, (early, late)


def test_a_long_game_is_replayed_and_written_as_before():
    game = _hands(50)
    assert len(game.hands) == len(game.results) == 50 and game.current is None
    assert game.hands[-1] is game.hands[49] and game.hands[0] == game.hands[-1]
    assert list(game.hands)[:2] == list(game.hands[:2])
    assert len(record_of(game, ("a", "b")).hands) == 50
    assert pickle.loads(pickle.dumps(game)) == game


def test_a_chain_is_a_sequence_equal_to_the_tuple_of_its_items():
    empty: Chain[int] = Chain()
    chain = empty.append(1).append(2).append(3)
    assert chain == (1, 2, 3) and chain == Chain([1, 2, 3]) and chain != (1, 2)
    assert hash(chain) == hash(Chain((1, 2, 3)))
    assert len(chain) == 3 and chain[-1] == 3 and chain[0] == 1 and chain[-3] == 1
    assert chain[1:] == (2, 3) and list(reversed(chain)) == [3, 2, 1]
    assert chain.with_last(9) == (1, 2, 9) and chain == (1, 2, 3)  # unchanged
    assert 2 in chain and chain.index(3) == 2 and not empty and repr(chain) == "Chain([1, 2, 3])"
    for index in (3, -4):
        with pytest.raises(IndexError):
            chain[index]
    with pytest.raises(IndexError):
        empty.with_last(1)


def test_a_long_chain_is_copied_pickled_and_freed_without_recursing():
    long = Chain(range(200_000))
    assert pickle.loads(pickle.dumps(long)) == long
    assert copy.deepcopy(long)[-1] == 199_999
    del long
