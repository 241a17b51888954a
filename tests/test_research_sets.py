"""The small sets, double-two to double-five: for teaching, and for research that solves whole
games. Every path that sizes by the set plays them or refuses them with the option's name:
the rules, every bot level (the expert's C search included), the records, fair deals.
(The engine and both fast playout paths agree on them in ``test_fast_agreement.py``, the
C search in ``test_fast_search.py``.)"""

from __future__ import annotations

import random

import pytest

from bones.ai.levels import LEVELS
from bones.engine.errors import RulesError
from bones.engine.game import deal_hand, new_game, play_unchecked
from bones.engine.rules import SETS, Rules
from bones.engine.tiles import full_set
from bones.record.reader import load, parse
from bones.record.summary import summary
from bones.record.writer import dump, record_of
from bones.sim.referee import play_game
from bones.table.fair import FairSeeds, fair_deal

SMALL = (2, 3, 4, 5)


def test_the_small_sets_are_sets_with_their_tile_counts():
    assert set(SMALL) <= set(SETS)
    assert [len(full_set(top)) for top in SMALL] == [6, 10, 15, 21]
    assert [Rules(set=top, hand_size=1).tiles for top in SMALL] == [6, 10, 15, 21]


@pytest.mark.parametrize("top", SMALL)
def test_standard_hands_are_double_six_only_and_the_refusal_names_hand_size(top):
    with pytest.raises(RulesError, match='option "hand_size" is "standard", which is defined '
                       "only for double-six"):
        Rules(set=top)


@pytest.mark.parametrize(("top", "players", "dealt"), [(3, 2, 1), (4, 2, 3), (4, 3, 2),
                                                       (5, 2, 6), (5, 4, 3)])
def test_pool_hands_leave_eight_undealt(top, players, dealt):
    rules = Rules(set=top, players=players, hand_size="pool")
    assert rules.dealt == dealt and rules.undealt >= 8


def test_what_a_small_set_cannot_deal_is_refused_naming_the_option():
    with pytest.raises(RulesError, match='option "hand_size" "pool" leaves no tiles'):
        Rules(set=2, hand_size="pool")
    with pytest.raises(RulesError, match=r'option "hand_size".*double-2'):
        Rules(set=2, hand_size=4)
    with pytest.raises(RulesError, match='option "reserve"'):
        Rules(set=2, hand_size=3, draw=True)
    for bad in (0, 1, 7, 8):
        with pytest.raises(RulesError, match='option "set" must be one of 2, 3, 4, 5, 6,'):
            Rules(set=bad, hand_size=1)


CASES = [
    Rules(set=2, hand_size=3, target=10),
    Rules(set=2, hand_size=2, draw=True, reserve=0, target=10),
    Rules(set=3, hand_size=3, spinner="first-double", target=20),
    Rules(set=4, players=3, hand_size=3, draw=True, call_block=True, target=20),
    Rules(set=5, players=4, partnerships=True, hand_size=4, target=30),
    Rules(set=5, hand_size="pool", opening="top-double", next_lead="winner", ante=1,
          target=30),
]


@pytest.mark.parametrize("rules", CASES, ids=lambda r: f"set{r.set}-{r.players}p-{r.dealt}")
def test_every_level_plays_small_sets_and_the_records_replay(rules):
    for level in LEVELS:
        game = play_game(rules, [level] * rules.players, 1, 0, hand_limit=2, think=0.01)
        _, again = parse(load(dump(record_of(game, [level] * rules.players))))
        assert summary(again) == summary(game), level


@pytest.mark.parametrize("top", SMALL)
def test_fair_deals_deal_the_whole_small_set(top):
    rules = Rules(set=top, hand_size=1, players=2)
    deal = fair_deal(rules, FairSeeds(b"s" * 32, ("ana", "ben")), 1)
    dealt = [t for hand in deal.deal for t in hand] + list(deal.boneyard)
    assert sorted(dealt) == sorted(full_set(top))


def test_random_engine_games_on_small_sets_end():
    rng = random.Random(4)
    for top in SMALL:
        game = deal_hand(new_game(Rules(set=top, hand_size=2, players=2, target=1)), rng)
        while game.current is not None:
            game = play_unchecked(game, rng.choice(game.current.legal_moves()))
        assert game.results[-1].end in ("out", "blocked")
