"""``bones.research.core``: the model of one hand the research adapters step, held to the
engine without any of the optional libraries (so it is checked on every Python; the
adapters' own tests, which need them, walk the same hands through OpenSpiel's interface).
"""

from __future__ import annotations

import random

import pytest

from bones.engine import lead as leads
from bones.engine.game import deal, new_game, play_unchecked, start_hand
from bones.engine.moves import Draw
from bones.engine.rules import Rules
from bones.engine.tiles import full_set
from bones.engine.view import observe
from bones.research.core import (
    DEAL,
    LOTS,
    OVER,
    PLAY,
    Dealer,
    Hand,
    information_state_pieces,
    observation_pieces,
    setup,
    size_of,
    write_information_state,
    write_observation,
)
from test_fast_agreement import CASES

SMALL_AND_PRESETS = {name: rules for name, rules in CASES.items()
                     if name.startswith(("preset-", "set-", "random-small"))}


@pytest.mark.parametrize("name", list(SMALL_AND_PRESETS))
def test_engine_hands_replay_in_the_model_to_the_same_moves_views_and_points(name):
    rules = SMALL_AND_PRESETS[name]
    s = setup(rules, "scored")
    for seed in range(10):
        rng = random.Random(seed)
        game = new_game(rules)
        hands, boneyard, leader = deal(game, rng)
        game = start_hand(game, hands, boneyard, leader)
        hand = Hand(s)
        for dealt in hands:
            for t in sorted(s.tiles.index(t) for t in dealt):
                assert hand.phase == DEAL and t in dict(hand.chance_outcomes())
                hand.apply(t)
        if hand.phase == LOTS:
            hand.apply(leader)
        assert hand.phase == PLAY and hand.to_move == leader
        while game.current is not None:
            engine = game.current
            legal = engine.legal_moves()
            seat = engine.to_move
            view = hand.seat_view(seat)
            theirs = observe(game, seat)
            assert (view.moves, view.layout, view.held, view.opening) == \
                (theirs.moves, theirs.layout, theirs.held, theirs.opening)
            if isinstance(legal[0], Draw):
                hand.apply(s.tiles.index(engine.boneyard[0]))
                game = play_unchecked(game, legal[0])
                continue
            assert hand.legal_actions() == sorted(s.action(m) for m in legal)  # type: ignore[arg-type]
            move = rng.choice(legal)
            hand.apply(s.action(move))  # type: ignore[arg-type]
            game = play_unchecked(game, move)
        assert hand.phase == OVER
        result = game.results[-1]
        assert hand.points() == (result.winner, list(result.points))
        assert hand.returns() == [float(result.points[rules.side_of(p)])
                                  for p in range(rules.players)]


@pytest.mark.parametrize("rules", [
    Rules(), Rules(lead="highest-double"), Rules(opening="top-double", players=3),
    Rules(opening="highest-double", no_double="heaviest"),
    Rules(set=9, hand_size=2, players=3, lead="highest-double"),
    Rules(set=3, hand_size=1, opening="highest-double"), Rules(lead="heaviest"),
], ids=lambda r: f"{r.lead}-{r.opening}-{r.no_double}-set{r.set}")
def test_the_tiles_a_kept_deal_needs_are_those_the_engine_redeals_without(rules):
    s = setup(rules)
    rng = random.Random(1)
    tiles = list(full_set(rules.set))
    for _ in range(300):
        rng.shuffle(tiles)
        size = rng.randint(1, rules.dealt)
        hands = [tiles[i * size:(i + 1) * size] for i in range(rules.players)]
        kept = leads.decide(rules, hands, None) is not None
        holds = s.needed is None or any(s.tiles.index(t) in s.needed
                                        for h in hands for t in h)
        assert kept == holds
    assert s.lots == (rules.lead == "lots" and rules.opening == "any")


def test_tensors_fill_their_declared_sizes_and_the_dealer_deals_the_engines_deal():
    rules = Rules(players=3, draw=True, spinner="first-double")
    s = setup(rules)
    for seed in range(5):
        dealer = Dealer(s, random.Random(seed))
        hands, _, leader = deal(new_game(rules), random.Random(seed))
        assert [sorted(s.tiles[t] for t in h) for h in dealer.hand.deal] == \
            [sorted(h) for h in hands] and dealer.hand.leader == leader
        rng = random.Random(seed)
        while dealer.hand.phase != OVER:
            for seat in range(3):
                info = [0.0] * size_of(information_state_pieces(s))
                obs = [0.0] * size_of(observation_pieces(s))
                write_information_state(dealer.hand, seat, info)
                write_observation(dealer.hand, seat, obs)
                assert info[seat] == obs[seat] == 1.0
            dealer.act(rng.choice(dealer.hand.legal_actions()))


def test_a_copy_is_independent():
    s = setup(Rules(draw=True))
    hand = Dealer(s, random.Random(3)).hand
    copy = hand.copy()
    copy.apply(copy.legal_actions()[0])
    assert copy.history != hand.history and hand.legal_actions() != [] \
        and copy.setup is hand.setup
