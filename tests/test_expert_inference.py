"""The expert reads what kind of player each other seat is from its plays, and samples deals
that agree with it: a seat that always sheds its heaviest tile cannot hold a heavier tile it
could have played."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bones.ai.base import make_bot
from bones.ai.beliefs import Decision, decisions, infer
from bones.ai.expert import KINDS, ExpertBot, Judge, heavier_than_played
from bones.ai.sampling import Dealer, Reading, likelihood, sample_hands, seat_likelihoods
from bones.engine.game import deal_hand, new_game, play_unchecked
from bones.engine.layout import Layout
from bones.engine.moves import Play
from bones.engine.rules import PRESETS
from bones.engine.tiles import Tile, full_set, parse_tile
from bones.engine.view import observe


def _tile(code: str) -> Tile:
    return parse_tile(f"{code[0]}-{code[1]}")


def test_a_heaviest_shedder_lacks_every_heavier_tile_it_could_have_played():
    unseen = frozenset(full_set(6)) - {_tile("44")}
    made = (Decision(1, _tile("43"), (3, 4), frozenset(), 3),)
    lacks = heavier_than_played(made, 1, unseen)
    # heavier than 7 pips and showing a 3 or a 4: 6-3, 5-3, 6-4, 5-4 (4-4 is not unseen)
    assert lacks == {_tile(c) for c in ("63", "53", "64", "54")}
    assert heavier_than_played(made, 2, unseen) == frozenset()


def test_a_heaviest_shedder_that_led_lacks_every_heavier_tile():
    unseen = frozenset(full_set(6))
    made = (Decision(1, _tile("55"), None, frozenset(), None),)
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
        judge = Judge(view.rules, view.seat, view.scores)
        kinds = bot._read_kinds(Dealer(view, infer(view)), decisions(view), judge)
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
        judge = Judge(view.rules, view.seat, view.scores)
        bot._read_kinds(Dealer(view, infer(view)), made, judge)
        found.append((judge.betas[1], judge.doubles[1]))
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
       bonus=st.sampled_from([0.0, 1.5]), suit=st.sampled_from([0.0, 0.35]))
def test_per_seat_likelihoods_multiply_to_the_whole_likelihood(seed, beta, bonus, suit):
    views = list(_views("basic", 1, seed))
    if not views:
        return
    view = views[-1]
    made = decisions(view)
    hands, _ = sample_hands(view, infer(view), random.Random(seed), True)
    per_seat = seat_likelihoods(hands, made, ((beta, bonus, suit),))
    product = math.prod(row[0] for row in per_seat.values())
    if beta or bonus or suit:
        assert product == pytest.approx(likelihood(hands, made, beta, bonus, suit))
    else:  # every legal play alike: 1 / (plays it could have made, per tile and arm)
        expected = 1.0
        for d in made:
            held = set(hands[d.seat]) | d.later | {d.tile}
            plays = (len(held) if d.ends is None
                     else sum(1 for t in held for n in d.ends if n in (t.high, t.low)))
            expected /= plays
        assert product == pytest.approx(expected)


def _kept(hand: tuple[Tile, ...], play: Play, layout: Layout) -> int:
    """Other tiles of ``hand`` showing what ``play`` leaves open, worked out on the layout."""
    rest = [t for t in hand if t != play.tile]
    if layout.is_empty:
        numbers = {play.tile.high, play.tile.low}
    else:
        assert play.end is not None
        covered = layout.end(play.end)
        assert covered is not None
        numbers = {play.tile.other(covered)}
    return sum(1 for t in rest if t.high in numbers or t.low in numbers)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), opponent=st.sampled_from(["basic", "random", "doubles"]),
       kind=st.sampled_from([(0.2, 1.5, 0.35), (0.0, 0.0, 1.0), (0.6, 0.0, 0.0)]))
def test_a_kind_chooses_among_the_engines_legal_plays_by_the_numbers_they_keep(
        seed, opponent, kind):
    """The likelihood of seat 1's plays, read from seat 0's view, is the product over its
    plays of a softmax over the plays the engine allowed it then (one per tile and arm),
    each scored by its pips, double and the tiles of the number it left open, worked out
    from the referee's states."""
    rules = PRESETS["block"]
    rng = random.Random(seed)
    other = (DoublesFirst(random.Random(seed + 1)) if opponent == "doubles"
             else make_bot(opponent, random.Random(seed + 1)))
    game = deal_hand(new_game(rules), rng)
    expected = 0.0
    beta, bonus, suit = kind
    while (state := game.current) is not None and len(state.moves) < 9:
        move = state.legal_moves()[0]
        if isinstance(move, Play):
            view = observe(game, state.to_move)
            move = rng.choice(view.legal) if state.to_move == 0 else other.choose(view)
            if state.to_move == 1:
                def score(p: Play) -> float:
                    return (beta * p.tile.pips + (bonus if p.tile.is_double else 0.0)
                            + suit * _kept(state.hands[1], p, state.layout))
                scores = [score(p) for p in view.legal]
                top = max(scores)
                expected += score(move) - top - math.log(sum(math.exp(x - top)
                                                             for x in scores))
        game = play_unchecked(game, move)
    current = game.current if game.current is not None else game.hands[-1]
    made = decisions(observe(game, 0))
    if not made:
        return
    hands = list(current.hands)
    assert math.log(likelihood(hands, made, beta, bonus, suit)) == pytest.approx(expected)
    reading = Reading(made, infer(observe(game, 0)).unseen, (kind,))
    assert math.log(reading.chances(hands)[1][0]) == pytest.approx(expected)


def test_a_play_that_keeps_a_number_makes_deals_holding_it_likelier():
    """Seat 1 covered a 3 with the 5-3, leaving 5 open, when it could have laid the 6-2 on
    the 6: to a reader that knows players keep their numbers, a deal giving it another 5
    explains that play better than one giving it a tile of the same pips that shows no 5."""
    made = (Decision(1, _tile("53"), (3, 6), frozenset(), 5),)
    kind = (0.0, 0.0, 0.35)
    with_five = [(), (_tile("62"), _tile("50"))]  # 5-0 and 4-1: 5 pips, neither plays
    without = [(), (_tile("62"), _tile("41"))]
    keep = math.exp(0.35)
    assert likelihood(with_five, made, *kind) == pytest.approx(keep / (keep + 1))
    assert likelihood(without, made, *kind) == pytest.approx(1 / 2)
    # a reader that ignores kept numbers sees no difference
    assert likelihood(with_five, made, 0.2, 1.5) == likelihood(without, made, 0.2, 1.5)


def test_the_kinds_are_a_distribution():
    assert sum(kind[0] for kind in KINDS) == pytest.approx(1.0)
    # the last kind is the heaviest-shedder, whose deals leave out heavier playable tiles
    assert KINDS[-1][1] == max(kind[1] for kind in KINDS)


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
    kinds = tuple(kind[1:] for kind in KINDS)
    reading = Reading(made, beliefs.unseen, kinds)
    rng = random.Random(seed)
    for _ in range(5):
        hands, _ = sample_hands(view, beliefs, rng, True)
        fast, plain = reading.chances(hands), seat_likelihoods(hands, made, kinds)
        assert fast.keys() == plain.keys()
        for seat, row in plain.items():
            assert fast[seat] == pytest.approx(row, rel=1e-9, abs=1e-300)
