"""Deals drawn for the search bots are uniform among those the view allows: every seat holds
as many tiles as it shows, none it is known to lack, and no allowed deal is likelier than
another. A sampler that deals the seats one after another is not uniform once two seats
lack numbers; these tests would catch it."""

from __future__ import annotations

import collections
import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bones.ai.dealing import DealCount, TooDear
from bones.engine.tiles import Tile, full_set

TILES = sorted(full_set(6))

Deal = tuple[tuple[frozenset[Tile], ...], frozenset[Tile]]


def _every_deal(tiles: list[Tile], needs: list[int],
                allowed: list[frozenset[Tile]]) -> set[Deal]:
    """Every deal, by trying each holder (a seat or the boneyard) for each tile."""
    boneyard = len(tiles) - sum(needs)
    found = set()
    if boneyard < 0:
        return found
    holders = range(len(needs) + 1)
    for owners in itertools.product(holders, repeat=len(tiles)):
        counts = collections.Counter(owners)
        if any(counts[i] != n for i, n in enumerate(needs)):
            continue
        if any(o < len(needs) and t not in allowed[o]
               for t, o in zip(tiles, owners, strict=True)):
            continue
        hands = tuple(frozenset(t for t, o in zip(tiles, owners, strict=True) if o == i)
                      for i in range(len(needs)))
        found.add((hands, frozenset(t for t, o in zip(tiles, owners, strict=True)
                                    if o == len(needs))))
    return found


@st.composite
def _problems(draw: st.DrawFn) -> tuple[list[Tile], list[int], list[frozenset[Tile]]]:
    tiles = draw(st.lists(st.sampled_from(TILES), min_size=1, max_size=7, unique=True))
    seats = draw(st.integers(1, 3))
    needs = [draw(st.integers(0, 3)) for _ in range(seats)]
    allowed = [frozenset(draw(st.lists(st.sampled_from(tiles), unique=True)))
               if draw(st.booleans()) else frozenset(tiles) for _ in range(seats)]
    return sorted(tiles), needs, allowed


@settings(max_examples=150, deadline=None)
@given(problem=_problems())
def test_the_table_counts_every_allowed_deal(problem):
    tiles, needs, allowed = problem
    every = _every_deal(tiles, needs, allowed)
    table = DealCount(tiles, needs, allowed)
    if sum(needs) > len(tiles):
        assert not table.possible
        return
    assert table.count == len(every)
    assert table.possible == bool(every)


@settings(max_examples=60, deadline=None)
@given(problem=_problems(), seed=st.integers(0, 1000))
def test_every_drawn_deal_is_allowed_and_complete(problem, seed):
    tiles, needs, allowed = problem
    table = DealCount(tiles, needs, allowed)
    if not table.possible:
        return
    every = _every_deal(tiles, needs, allowed)
    rng = random.Random(seed)
    for _ in range(20):
        hands, boneyard = table.deal(rng)
        assert (tuple(frozenset(h) for h in hands), frozenset(boneyard)) in every
        assert len(boneyard) == len(set(boneyard))


def _assert_uniform(tiles: list[Tile], needs: list[int], allowed: list[frozenset[Tile]],
                    seed: int, per_deal: int) -> None:
    """Draw ``per_deal`` times as many deals as there are, and check every deal comes up as
    often as the others by a chi-square test."""
    every = _every_deal(tiles, needs, allowed)
    table = DealCount(tiles, needs, allowed)
    assert table.count == len(every)
    rng = random.Random(seed)
    draws = per_deal * len(every)
    counts = collections.Counter[Deal]()
    for _ in range(draws):
        hands, boneyard = table.deal(rng)
        counts[(tuple(frozenset(h) for h in hands), frozenset(boneyard))] += 1
    assert set(counts) == every
    # chi-square with len(every) - 1 degrees of freedom: mean k, sd sqrt(2k); a biased
    # sampler lands hundreds of standard deviations out, a uniform one within a few
    k = len(every) - 1
    chi_square = sum((counts[d] - per_deal) ** 2 / per_deal for d in every)
    assert chi_square < k + 6 * math.sqrt(2 * k)


def test_every_allowed_deal_is_equally_likely_when_two_seats_lack_numbers():
    # seat 0 lacks 3 and 6, seat 1 lacks 6: dealing seat 0 first from a shuffled pile and
    # seat 1 from what is left makes seat 1 hold the 3s far too often
    tiles = [t for t in TILES if t.high in (0, 1, 3, 6) and t.low in (0, 1, 3, 6)]
    allowed = [frozenset(t for t in tiles if not {t.high, t.low} & {3, 6}),
               frozenset(t for t in tiles if 6 not in (t.high, t.low))]
    _assert_uniform(tiles, [2, 2], allowed, seed=7, per_deal=40)


def test_the_boneyard_order_is_uniform():
    tiles = TILES[:5]
    allowed = [frozenset(tiles[:3])]
    table = DealCount(tiles, [1], allowed)
    rng = random.Random(3)
    firsts = collections.Counter(table.deal(rng)[1][0] for _ in range(6000))
    # seat 0 takes one of the first three; of the four left each is first in the boneyard
    # with the same chance overall: (2/3 * 1/4) for the first three, 1/4 for the last two
    for tile in tiles:
        share = firsts[tile] / 6000
        assert abs(share - (1 / 6 if tile in tiles[:3] else 1 / 4)) < 0.025


def test_seats_that_may_hold_the_same_tiles_are_dealt_uniformly_too():
    # seats 0 and 1 both lack 6 (they passed on the same arm), seat 2 lacks 0
    tiles = [t for t in TILES if t.high in (0, 2, 6) and t.low in (0, 2, 6)]
    no_six = frozenset(t for t in tiles if 6 not in (t.high, t.low))
    allowed = [no_six, no_six, frozenset(t for t in tiles if 0 not in (t.high, t.low))]
    _assert_uniform(tiles, [1, 1, 2], allowed, seed=11, per_deal=60)


def test_counting_past_its_limit_is_refused_not_cut_short():
    tiles = TILES[:12]
    allowed = [frozenset(tiles[i::3]) | frozenset(tiles[:2]) for i in range(3)]
    with pytest.raises(TooDear):
        DealCount(tiles, [2, 2, 2], allowed, limit=1).possible  # noqa: B018
    assert DealCount(tiles, [2, 2, 2], allowed).possible


def test_a_count_that_would_try_too_many_splits_is_refused():
    # many seats with many tiles: a single state may try millions of splits of a group
    tiles = sorted(full_set(12))
    allowed = [frozenset(t for t in tiles if k not in (t.high, t.low)) for k in range(8)]
    with pytest.raises(TooDear):
        DealCount(tiles, [10] * 8, allowed, limit=50).possible  # noqa: B018


def test_deals_too_dear_to_count_are_drawn_seat_after_seat_and_honour_the_voids(
        monkeypatch: pytest.MonkeyPatch):
    from bones.ai import sampling
    from bones.ai.beliefs import infer
    from bones.ai.dealing import Sequential
    from bones.ai.sampling import Dealer
    from bones.engine.game import deal_hand, new_game, play_unchecked
    from bones.engine.moves import Play
    from bones.engine.rules import PRESETS
    from bones.engine.view import observe

    monkeypatch.setattr(sampling, "VOID_STATES", 0)
    rules = PRESETS["draw"].replace(players=3)
    rng = random.Random(5)
    checked = 0
    for _ in range(30):
        game = deal_hand(new_game(rules), rng)
        while (state := game.current) is not None:
            move = state.legal_moves()[0]
            if isinstance(move, Play) and state.to_move == 0:
                view = observe(game, 0)
                beliefs = infer(view)
                if sum(bool(beliefs.voids[s]) for s in (1, 2)) == 2:
                    dealer = Dealer(view, beliefs)
                    for _ in range(20):
                        hands, boneyard = dealer.deal(rng)
                        for seat in (1, 2):
                            assert len(hands[seat]) == view.held[seat]
                            assert not any(t.high in beliefs.voids[seat]
                                           or t.low in beliefs.voids[seat]
                                           for t in hands[seat])
                        assert sorted({*hands[1], *hands[2], *boneyard}) == sorted(
                            beliefs.unseen)
                    assert any(isinstance(t, Sequential) for t, _ in dealer._tables.values())
                    checked += 1
            game = play_unchecked(game, move)
    assert checked > 5


def test_larger_sets_count_fewer_states_and_double_six_keeps_its_limits(
        monkeypatch: pytest.MonkeyPatch):
    """Counting states and drawing deals cost more with a larger set, so its limits shrink
    by ``set_scale`` (the search bots charge their work by it too); the double-six limits,
    on which every benchmark was measured, stay as they are."""
    from bones.ai import sampling
    from bones.ai.beliefs import infer
    from bones.ai.sampling import Dealer, set_scale
    from bones.engine.game import deal_hand, new_game
    from bones.engine.rules import PRESETS
    from bones.engine.view import observe

    assert set_scale(PRESETS["block"]) == 1.0
    assert set_scale(PRESETS["draw"].replace(set=9, hand_size=7)) == 55 / 28
    assert set_scale(PRESETS["draw"].replace(set=12, players=8, hand_size=9)) == 91 / 28
    limits = []

    class Spy(sampling.DealCount):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            limits.append(self.plan.limit)

    monkeypatch.setattr(sampling, "DealCount", Spy)
    for rules in (PRESETS["draw"].replace(players=3),
                  PRESETS["draw"].replace(set=12, players=8, hand_size=9)):
        game = deal_hand(new_game(rules), random.Random(3))
        view = observe(game, game.current.to_move)
        Dealer(view, infer(view)).deal(random.Random(1))
    assert limits == [sampling.VOID_STATES, int(sampling.VOID_STATES * 28 / 91)]
