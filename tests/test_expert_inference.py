"""The expert reads what kind of player each other seat is from its plays, and samples deals
that agree with it: a seat that always sheds its heaviest tile cannot hold a heavier tile it
could have played."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bones.ai.beliefs import Decision, decisions, infer
from bones.ai.expert import ExpertBot, heavier_than_played
from bones.ai.expert_config import DEFAULT_CONFIG
from bones.ai.levels import make_bot
from bones.ai.sampling import Dealer, Reading, likelihood, sample_hands, seat_likelihoods
from bones.engine.game import deal_hand, new_game, play_unchecked
from bones.engine.moves import Play
from bones.engine.rules import PRESETS
from bones.engine.tiles import Tile, full_set, parse_tile
from bones.engine.view import observe


def _tile(code: str) -> Tile:
    return parse_tile(f"{code[0]}-{code[1]}")


def test_a_heaviest_shedder_lacks_every_heavier_tile_it_could_have_played():
    unseen = frozenset(full_set(6)) - {_tile("44")}
    made = (Decision(1, _tile("43"), frozenset({3, 4}), frozenset()),)
    lacks = heavier_than_played(made, 1, unseen)
    # heavier than 7 pips and showing a 3 or a 4: 6-3, 5-3, 6-4, 5-4 (4-4 is not unseen)
    assert lacks == {_tile(c) for c in ("63", "53", "64", "54")}
    assert heavier_than_played(made, 2, unseen) == frozenset()


def test_a_heaviest_shedder_that_led_lacks_every_heavier_tile():
    unseen = frozenset(full_set(6))
    made = (Decision(1, _tile("55"), None, frozenset()),)
    assert heavier_than_played(made, 1, unseen) == {_tile("65"), _tile("66")}


class DoublesFirst:
    """A player that sheds a playable double first, else plays at random: the habit that
    sets searching players apart from the pip-driven kinds."""

    name = "doubles"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view):  # type: ignore[no-untyped-def]
        doubles = [p for p in view.legal if p.tile.is_double]
        return self.rng.choice(doubles or list(view.legal))


def _views(opponent: str, hands: int, seed: int):
    """Seat 0's views with a choice to make, while ``opponent`` plays seat 1 in 2-player
    Block (seat 0 plays at random: only seat 1's plays are read)."""
    rules = PRESETS["block"]
    rng = random.Random(seed)
    other = (DoublesFirst(random.Random(seed + 1)) if opponent == "doubles"
             else make_bot(opponent, random.Random(seed + 1)))
    for _ in range(hands):
        game = deal_hand(new_game(rules), rng)
        while (state := game.current) is not None:
            move = state.legal_moves()[0]
            if isinstance(move, Play):
                view = observe(game, state.to_move)
                if state.to_move == 0:
                    if len(view.legal) > 1 and decisions(view):
                        yield view
                    move = rng.choice(view.legal)
                else:
                    move = other.choose(view)
            game = play_unchecked(game, move)


def _greedy_chance(opponent: str) -> list[float]:
    bot = ExpertBot(random.Random(3), think=0.01)
    chances = []
    for view in _views(opponent, 40, 11):
        if len(decisions(view)) < 3:
            continue
        kinds = bot._read_kinds(Dealer(view, infer(view)), decisions(view))
        chances.append(kinds.greedy[1])
    return chances


def _modelled_kinds(opponent: str) -> list[tuple[float, float]]:
    """The (beta, double bonus) the expert's search gives seat 1 after reading its plays."""
    bot = ExpertBot(random.Random(3), think=0.01)
    found = []
    for view in _views(opponent, 40, 12):
        made = decisions(view)
        if sum(1 for d in made if d.numbers is not None) < 3:
            continue
        kinds = bot._read_kinds(Dealer(view, infer(view)), made)
        found.append((kinds.betas[1], kinds.doubles[1]))
    return found


def test_kind_reading_models_a_doubles_first_player_as_one():
    doubles_first = _modelled_kinds("doubles")
    greedy = _modelled_kinds("greedy")
    assert len(doubles_first) > 20 and len(greedy) > 20
    # most readings of the doubles-first player give it the kind with a double bonus ...
    assert sum(bonus > 0 for _, bonus in doubles_first) > 0.6 * len(doubles_first)
    # ... and a heaviest-shedder is rarely taken for one
    assert sum(bonus > 0 for _, bonus in greedy) < 0.3 * len(greedy)


def test_kind_reading_tells_a_heaviest_shedder_from_a_random_player():
    greedy = _greedy_chance("greedy")
    scattered = _greedy_chance("random")
    assert len(greedy) > 20 and len(scattered) > 20
    assert sum(greedy) / len(greedy) > 0.5
    assert sum(scattered) / len(scattered) < 0.3


def test_sampled_deals_leave_out_excluded_tiles():
    view = next(_views("greedy", 5, 4))
    beliefs = infer(view)
    lacks = heavier_than_played(decisions(view), 1, beliefs.unseen)
    excluded = [frozenset[Tile](), lacks]
    rng = random.Random(2)
    for _ in range(50):
        hands, boneyard = sample_hands(view, beliefs, rng, True, excluded)
        assert not set(hands[1]) & lacks
        assert len(hands[1]) == view.held[1]
        assert set(hands[1]) | set(boneyard) == set(beliefs.unseen)


def test_exclusions_that_no_deal_can_honour_are_dropped_not_the_hand_sizes():
    view = next(_views("greedy", 5, 4))
    beliefs = infer(view)
    impossible = [frozenset[Tile](), frozenset(beliefs.unseen)]
    hands, boneyard = sample_hands(view, beliefs, random.Random(1), True, impossible)
    assert len(hands[1]) == view.held[1]
    assert set(hands[1]) | set(boneyard) == set(beliefs.unseen)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), beta=st.sampled_from([0.0, 0.6, 4.0]),
       bonus=st.sampled_from([0.0, 1.5]))
def test_per_seat_likelihoods_multiply_to_the_whole_likelihood(seed, beta, bonus):
    views = list(_views("basic", 1, seed))
    if not views:
        return
    view = views[-1]
    made = decisions(view)
    hands, _ = sample_hands(view, infer(view), random.Random(seed), True)
    per_seat = seat_likelihoods(hands, made, ((beta, bonus),))
    product = math.prod(row[0] for row in per_seat.values())
    if beta or bonus:
        assert product == pytest.approx(likelihood(hands, made, beta, bonus))
    else:  # every playable tile alike: 1 / (tiles it could have played), per play
        expected = 1.0
        for d in made:
            held = set(hands[d.seat]) | d.later | {d.tile}
            options = [t for t in held if d.numbers is None
                       or t.high in d.numbers or t.low in d.numbers]
            expected /= len(options)
        assert product == pytest.approx(expected)


def test_the_kinds_are_a_distribution():
    kinds = DEFAULT_CONFIG.kinds
    assert sum(kind.prior for kind in kinds) == pytest.approx(1.0)
    # the last kind is the heaviest-shedder, whose deals leave out heavier playable tiles
    assert kinds[-1].beta == max(kind.beta for kind in kinds)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000),
       opponent=st.sampled_from(["greedy", "random", "basic", "doubles"]))
def test_the_precomputed_reading_equals_the_plain_likelihoods(seed, opponent):
    views = list(_views(opponent, 1, seed))
    if not views:
        return
    view = views[-1]
    made = decisions(view)
    beliefs = infer(view)
    kinds = tuple((kind.beta, kind.double) for kind in DEFAULT_CONFIG.kinds)
    reading = Reading(made, beliefs.unseen, kinds)
    rng = random.Random(seed)
    for _ in range(5):
        hands, _ = sample_hands(view, beliefs, rng, True)
        fast, plain = reading.chances(hands), seat_likelihoods(hands, made, kinds)
        assert fast.keys() == plain.keys()
        for seat, row in plain.items():
            assert fast[seat] == pytest.approx(row, rel=1e-9, abs=1e-300)
