"""The duplicate-match interval and SPRT: deals, not hands, are the samples."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bones.engine.rules import PRESETS
from bones.sim.arena import play_deals
from bones.sim.arena_stats import ArenaTally
from bones.sim.clusters import Clustered, relative_interval
from bones.sim.sprt import Sprt
from bones.sim.stats import Z95, wilson


def _clustered(deals: list[tuple[int, int]]) -> Clustered:
    c = Clustered()
    for wins, hands in deals:
        c.add(wins, hands)
    return c


def _width(interval: tuple[float, float]) -> float:
    return interval[1] - interval[0]


def test_luck_that_cancels_within_deals_narrows_the_interval():
    # Most deals split one win each way: the deal decided who won, not the bot.
    cancels = _clustered([(1, 2)] * 80 + [(2, 2)] * 15 + [(0, 2)] * 5)
    per_hand = wilson(cancels.wins, cancels.hands)
    assert _width(cancels.interval()) < 0.7 * _width(per_hand)


def test_deals_that_go_one_way_in_every_rotation_widen_the_interval():
    same = _clustered([(2, 2)] * 55 + [(0, 2)] * 45)
    assert _width(same.interval()) > 1.3 * _width(wilson(same.wins, same.hands))


def test_one_hand_per_deal_is_the_per_hand_interval_less_one_trial():
    c = _clustered([(1, 1)] * 60 + [(0, 1)] * 40)
    assert c.effective_trials() == pytest.approx(99)


@pytest.mark.parametrize("deals", [[], [(1, 2)], [(1, 2), (1, 2)], [(2, 2), (2, 2)],
                                   [(0, 3), (0, 3), (0, 1)]])
def test_where_deals_cannot_say_the_interval_is_the_per_hand_one(deals):
    c = _clustered(deals)
    assert c.interval() == wilson(c.wins, c.hands)


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)).map(
    lambda t: (min(t), max(t))), min_size=2, max_size=40))
def test_variance_is_the_ratio_estimators_over_deals(deals):
    c = _clustered(deals)
    hands = sum(h for _, h in deals)
    if hands == 0:
        assert c.variance() is None
        return
    p = sum(w for w, _ in deals) / hands
    m = len(deals)
    mean_hands = hands / m
    direct = sum((w - p * h) ** 2 for w, h in deals) / (m * (m - 1) * mean_hands ** 2)
    assert c.variance() == pytest.approx(direct, abs=1e-12)
    low, high = c.interval()
    assert 0.0 <= low <= p + 1e-12 and p - 1e-12 <= high <= 1.0


def test_the_arena_tally_keeps_each_levels_hands_per_deal():
    rules = PRESETS["draw"].replace(players=3)
    tally = ArenaTally(rules, ("basic", "greedy"))
    for outcome in play_deals(rules, ["basic", "greedy", "greedy"], 3, 6):
        tally.add(outcome)
    basic, greedy = tally.stats["basic"], tally.stats["greedy"]
    assert (basic.by_deal.deals, basic.by_deal.hands, basic.by_deal.wins) == (6, 18, basic.wins)
    assert (greedy.by_deal.deals, greedy.by_deal.hands) == (6, 36)
    # Every deal's three hands count for basic, six side-hands for greedy.
    assert basic.by_deal.hands2 == 6 * 9 and greedy.by_deal.hands2 == 6 * 36
    h2h = tally.head_to_head_by_deal
    assert (h2h.wins, h2h.hands) == (tally.head_to_head[0], sum(tally.head_to_head))
    assert tally.json()["levels"][0]["interval"] == list(basic.by_deal.interval())


def test_sprt_over_deals_decides_sooner_when_luck_cancels_within_deals():
    cancels = _clustered([(1, 2)] * 80 + [(2, 2)] * 15 + [(0, 2)] * 5)
    sprt = Sprt()
    per_hand = sprt.llr(cancels.wins, cancels.hands - cancels.wins)
    assert sprt.llr_deals(cancels) > 1.3 * per_hand > 0


def test_sprt_over_deals_is_slower_when_deals_go_one_way_in_every_rotation():
    same = _clustered([(2, 2)] * 55 + [(0, 2)] * 45)
    sprt = Sprt()
    assert 0 < sprt.llr_deals(same) < 0.7 * sprt.llr(same.wins, same.hands - same.wins)


def test_sprt_over_deals_falls_back_to_hands_where_deals_cannot_say():
    sprt = Sprt()
    assert sprt.llr_deals(_clustered([(3, 3), (2, 2)])) == sprt.llr(5, 0)
    assert sprt.llr_deals(_clustered([(1, 2)])) == sprt.llr(1, 1)


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)).filter(lambda t: sum(t) <= 2),
                min_size=3, max_size=40))
def test_relative_strength_of_two_seats_has_the_head_to_head_variance(deals):
    """With two seats a / (a + b) is the share of decisive hands, so the delta method over
    deals must give exactly the ratio estimator's variance of that share."""
    firsts = [(wa, 2, wb, 2) for wa, wb in deals]
    decisive = _clustered([(wa, wa + wb) for wa, wb in deals])
    interval = relative_interval(firsts)
    if decisive.hands == 0 or decisive.variance() == 0:  # nothing to estimate a spread from
        assert interval is None
        return
    assert interval is not None
    share = decisive.wins / decisive.hands
    variance = decisive.variance()
    assert variance is not None
    half = Z95 * math.sqrt(variance)
    assert interval == pytest.approx((max(0.0, share - half), min(1.0, share + half)))


def test_the_relative_strength_of_three_seats_has_an_interval_around_it():
    rules = PRESETS["draw"].replace(players=3)
    tally = ArenaTally(rules, ("basic", "greedy"))
    for outcome in play_deals(rules, ["basic", "greedy", "greedy"], 5, 12):
        tally.add(outcome)
    low, high = tally.json()["relative_interval"]
    relative = tally.relative()
    assert relative is not None and low < relative < high
    assert len(tally.firsts_by_deal) == 12


def test_the_arena_sprt_of_two_seats_is_the_sprt_of_decisive_hands_over_deals():
    rules = PRESETS["block"]
    tally = ArenaTally(rules, ("greedy", "random"))
    for outcome in play_deals(rules, ["greedy", "random"], 9, 40):
        tally.add(outcome)
    sprt = Sprt()
    assert tally.sprt_llr(sprt) == pytest.approx(sprt.llr_deals(tally.head_to_head_by_deal))


def test_the_arena_sprt_tests_relative_strength_when_one_level_holds_more_seats():
    """One expert seat against two: the expert's share of decisive hands is about a third
    for equal strength, so an SPRT on that share (p0 = 0.5) would call a much stronger
    expert "not stronger"; the arena tests the relative strength instead."""
    tally = ArenaTally(PRESETS["draw"].replace(players=3), ("expert", "other"))
    for deal in range(60):
        won = 1 + deal % 2  # of its 3 hands: a rate of 0.5, the other seats' 0.25
        tally.firsts_by_deal.append((won, 3, 3 - won, 6))
        tally.head_to_head_by_deal.add(won, 3)
    sprt = Sprt()
    assert sprt.llr_deals(tally.head_to_head_by_deal) < 0  # a decisive share of one half
    assert sprt.judge(tally.sprt_llr(sprt)) == "H1"  # relative strength 2/3


def test_deals_that_all_came_out_alike_give_no_relative_interval():
    """Two deals with the same result have no spread to estimate from: the interval is
    left out, not claimed at zero width."""
    assert relative_interval([(1, 3, 2, 6), (1, 3, 2, 6)]) is None
    assert relative_interval([(1, 3, 2, 6), (2, 3, 2, 6)]) is not None
