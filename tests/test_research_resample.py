"""``bones.research.resample``: a hand drawn from one seat's information state (OpenSpiel's
``resample_from_infostate``). The seat cannot tell it from the true hand: the same
information state and observation, strings and tensors, the same legal actions; it is a
hand that could have been played (it replays through ``Hand`` move for move); it is drawn
from what the seat knows alone, never from the hidden tiles; and the hidden tiles do vary.
The model's tests run everywhere; OpenSpiel's own IS-MCTS playing with it needs OpenSpiel.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from bones.engine.rules import Rules
from bones.research.core import (
    DEAL,
    OVER,
    Dealer,
    Hand,
    information_state_pieces,
    observation_pieces,
    setup,
    size_of,
    write_information_state,
    write_observation,
)
from bones.research.resample import Known, resample
from extras import need
from test_fast_agreement import CASES

#: Rule sets with passes, draws, a spinner, partnerships, three seats, a lead by the highest
#: double and a redeal: each way a seat learns something of the others' tiles.
NAMES = ["preset-block", "preset-draw", "set-2-three-players", "set-3-spinner-draw",
         "set-4-partnerships", "set-5-highest-double", "set-4-call-block", "random-small-3"]


def _tensors(hand: Hand, seat: int) -> bytes:
    s = hand.setup
    info = np.zeros(size_of(information_state_pieces(s)), np.float32)
    seen = np.zeros(size_of(observation_pieces(s)), np.float32)
    write_information_state(hand, seat, info)
    write_observation(hand, seat, seen)
    return info.tobytes() + seen.tobytes()


def _hands(rules: Rules, seeds: range) -> list[Hand]:
    """Every state of random hands, the deal dealt tile by tile included."""
    s = setup(rules)
    states = []
    for seed in seeds:
        rng = random.Random(seed)
        hand = Hand(s)
        while hand.phase == DEAL:
            states.append(hand.copy())
            tiles, odds = zip(*hand.chance_outcomes(), strict=True)
            hand.apply(rng.choices(tiles, odds)[0])
        dealer = Dealer(s, rng)
        states.append(dealer.hand.copy())
        while dealer.hand.phase != OVER:
            dealer.act(rng.choice(dealer.hand.legal_actions()))
            states.append(dealer.hand.copy())
    return states


def _same_to(seat: int, a: Hand, b: Hand) -> None:
    assert a.information_state_string(seat) == b.information_state_string(seat)
    assert a.observation_string(seat) == b.observation_string(seat)
    assert _tensors(a, seat) == _tensors(b, seat)
    assert a.phase == b.phase and a.to_move == b.to_move
    if a.to_move == seat:
        assert a.legal_actions() == b.legal_actions()
    assert Known.of(a, seat) == Known.of(b, seat)


@pytest.mark.parametrize("name", NAMES)
def test_the_seat_cannot_tell_the_resample_from_the_hand(name):
    for hand in _hands(CASES[name], range(3)):
        for seat in range(hand.setup.players):
            _same_to(seat, resample(hand, seat, random.Random(seat)), hand)


@pytest.mark.parametrize("name", NAMES[:4])
def test_the_resample_depends_on_what_the_seat_knows_alone(name):
    """Two hands the seat cannot tell apart (the hand, and a resample of it standing in
    for another truth) give the same resample from the same RNG: nothing hidden is read."""
    for hand in _hands(CASES[name], range(2)):
        for seat in range(hand.setup.players):
            other = resample(hand, seat, random.Random(99))
            assert str(resample(hand, seat, random.Random(5))) == \
                str(resample(other, seat, random.Random(5)))


def test_the_hidden_tiles_vary_and_the_seat_keeps_its_own():
    hand = Dealer(setup(Rules()), random.Random(3)).hand
    seen = set()
    for k in range(40):
        again = resample(hand, 0, random.Random(k))
        assert again.hands[0] == hand.hands[0]
        assert not set(again.hands[1]) & set(hand.hands[0])
        seen.add(tuple(sorted(again.hands[1])))
    assert len(seen) > 30  # 7 of 21 unseen tiles: a repeat is rare


def test_a_seat_that_passed_is_never_given_the_numbers_it_passed_on():
    """In Block for two, seat 1 passes on the numbers open; every resample, from seat 0's
    side, keeps those numbers out of seat 1's hand for as long as they stay open."""
    s = setup(Rules())
    for seed in range(200):
        rng = random.Random(seed)
        dealer = Dealer(s, rng)
        while dealer.hand.phase != OVER and not dealer.hand.passed[1]:
            dealer.act(rng.choice(dealer.hand.legal_actions()))
        hand = dealer.hand
        if hand.phase == OVER or hand.to_move != 0:
            continue
        open_now = {hand.ends[a] for a in range(hand.arms_open)}
        lacked = {n for n in range(s.numbers) if hand.passed[1] >> n & 1} & open_now
        for k in range(10):
            again = resample(hand, 0, random.Random(k))
            assert not any({s.high[t], s.low[t]} & lacked for t in again.hands[1])
        return
    pytest.fail("no hand of 200 had seat 1 pass before the end")


def test_openspiel_states_resample_and_its_ismcts_plays_with_them():
    pyspiel = need("pyspiel", "OpenSpiel",
                   "pip install --only-binary open_spiel -e '.[research]'", "openspiel.log")
    from open_spiel.python.algorithms import ismcts, mcts

    import bones.research.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("bones(draw=True)")
    rng = random.Random(4)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                           2.0, 20, random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, odds)[0])
            continue
        player = state.current_player()
        other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0., 1.))
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(bot.step(state) if player == 0 else rng.choice(state.legal_actions()))
    assert checked > 2 and len(state.returns()) == 2
