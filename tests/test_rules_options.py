"""The options table of rules.md: every value is accepted, every rules object that cannot be
dealt is refused naming the option, and each preset sets exactly what its row says."""

from __future__ import annotations

import pytest

from bones.engine.errors import RulesError
from bones.engine.rules import PRESETS, Rules, rules_from_json

#: Every value the options table lists (integers: a few, including the bounds).
VALUES: dict[str, tuple[object, ...]] = {
    "set": (2, 3, 4, 5, 6, 9, 12, 15, 18),
    "players": (2, 3, 4, 5, 8),
    "partnerships": (False, True),
    "hand_size": (1, 3, "standard", "pool"),
    "draw": (False, True),
    "reserve": (0, 2, 5),
    "call_block": (False, True),
    "lead": ("lots", "highest-double", "heaviest"),
    "opening": ("any", "highest-double", "top-double"),
    "no_double": ("redeal", "heaviest"),
    "next_lead": ("left", "winner", "same"),
    "spinner": ("none", "first-double"),
    "score": ("others-minus-own", "others"),
    "target": (1, 61, 100, 250, "pagat"),
    "ante": (0, 1, 3),
    "pool": ("hand", "game"),
    "pool_tie": ("split", "carry"),
}

#: Options that only make sense together with others.
CONTEXT: dict[tuple[str, object], dict[str, object]] = {
    ("set", 2): {"hand_size": 3}, ("set", 3): {"hand_size": "pool"},
    ("set", 4): {"hand_size": 7}, ("set", 5): {"hand_size": 7},
    ("set", 9): {"hand_size": 7}, ("set", 12): {"hand_size": 7},
    ("set", 15): {"hand_size": 7}, ("set", 18): {"hand_size": 7},
    ("players", 5): {"hand_size": "pool"}, ("players", 8): {"hand_size": 2},
    ("partnerships", True): {"players": 4},
}

DEFAULTS = {"set": 6, "players": 2, "partnerships": False, "hand_size": "standard",
            "draw": False, "reserve": 2, "call_block": False, "lead": "lots",
            "opening": "any", "no_double": "redeal", "next_lead": "left", "spinner": "none",
            "score": "others-minus-own", "target": 100, "ante": 0, "pool": "hand",
            "pool_tie": "split"}


def test_defaults_are_those_of_the_options_table():
    assert Rules().options() == DEFAULTS
    assert list(Rules().options()) == list(DEFAULTS)


@pytest.mark.parametrize(("option", "value"),
                         [(o, v) for o, vs in VALUES.items() for v in vs])
def test_every_listed_option_value_is_accepted_and_read_from_a_record(option, value):
    given = {option: value, **CONTEXT.get((option, value), {})}
    players = given.get("players", 2)
    assert isinstance(players, int)
    r = rules_from_json(given, players=players)
    assert getattr(r, option) == value
    assert r == Rules(**given)  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "dealt"), [(2, 7), (3, 5), (4, 5)])
def test_standard_hand_size_is_7_for_two_players_and_5_for_three_or_four(players, dealt):
    assert Rules(players=players).dealt == dealt


@pytest.mark.parametrize(("players", "dealt"), [(2, 10), (3, 6), (4, 5), (5, 4), (6, 3)])
def test_pool_hand_size_leaves_at_least_8_undealt_with_double_six(players, dealt):
    r = Rules(players=players, hand_size="pool")
    assert r.dealt == dealt == (28 - 8) // players
    assert r.undealt >= 8


@pytest.mark.parametrize(("top", "players"), [(9, 2), (9, 7), (12, 4), (15, 9), (18, 3)])
def test_pool_hand_size_is_floor_of_tiles_less_8_over_players(top, players):
    tiles = (top + 1) * (top + 2) // 2
    assert Rules(set=top, players=players, hand_size="pool").dealt == (tiles - 8) // players


def test_integer_hand_size_deals_that_many():
    assert Rules(players=3, hand_size=9).dealt == 9
    assert Rules(players=2, hand_size=14).undealt == 0  # every tile dealt is allowed in Block


@pytest.mark.parametrize(("target", "sides", "points"), [
    ({"players": 2}, 2, 100),
    ({"players": 4, "partnerships": True, "hand_size": 5}, 2, 100),
    ({"players": 3}, 3, 61),
    ({"players": 4}, 4, 61),
])
def test_pagat_target_is_100_for_two_sides_and_61_for_more(target, sides, points):
    r = Rules(target="pagat", **target)  # type: ignore[arg-type]
    assert r.sides == sides and r.target_points == points


def test_reserve_and_call_block_are_accepted_and_ignored_in_block():
    r = Rules(players=4, reserve=27, call_block=True)  # 8 undealt < 27: fine without draw
    assert r.reserve == 27 and not r.draw


# -- refusals: "a rules object that cannot be dealt ... is refused naming the option" -------

REFUSED: list[tuple[dict[str, object], str]] = [
    ({"players": 5}, "hand_size"),                          # standard: more than 4 players
    ({"players": 3, "set": 9}, "hand_size"),                # standard: another set
    ({"set": 12}, "hand_size"),
    ({"players": 3, "hand_size": 10}, "hand_size"),         # 30 tiles needed, 28 in the set
    ({"players": 2, "hand_size": 15}, "hand_size"),
    ({"players": 21, "hand_size": "pool"}, "hand_size"),    # pool: nothing left to deal
    ({"players": 4, "hand_size": 7, "draw": True}, "reserve"),   # 0 undealt, reserve 2
    ({"players": 2, "hand_size": 14, "draw": True, "reserve": 1}, "reserve"),
    ({"players": 2, "draw": True, "reserve": 15}, "reserve"),
    ({"players": 3, "partnerships": True}, "partnerships"),
    ({"players": 2, "partnerships": True}, "partnerships"),
    ({"set": 7}, "set"),
    ({"set": "6"}, "set"),
    ({"players": 1}, "players"),
    ({"players": 2.0}, "players"),
    ({"hand_size": 0}, "hand_size"),
    ({"hand_size": "big"}, "hand_size"),
    ({"draw": "yes"}, "draw"),
    ({"partnerships": 1}, "partnerships"),
    ({"call_block": None}, "call_block"),
    ({"reserve": -1}, "reserve"),
    ({"ante": -1}, "ante"),
    ({"ante": 1.5}, "ante"),
    ({"lead": "random"}, "lead"),
    ({"opening": "6-6"}, "opening"),
    ({"no_double": "pass"}, "no_double"),
    ({"next_lead": "right"}, "next_lead"),
    ({"spinner": "all"}, "spinner"),
    ({"score": "all-fives"}, "score"),
    ({"target": 0}, "target"),
    ({"target": "100"}, "target"),
    ({"target": True}, "target"),
    ({"pool": "round"}, "pool"),
    ({"pool_tie": "divide"}, "pool_tie"),
]


@pytest.mark.parametrize(("options", "option"), REFUSED)
def test_undealable_or_unknown_rules_are_refused_naming_the_option(options, option):
    with pytest.raises(RulesError) as err:
        Rules(**options)  # type: ignore[arg-type]
    assert err.value.option == option
    assert str(err.value).startswith(f'rules: option "{option}" ')
    with pytest.raises(RulesError) as err2:
        players = options.get("players", 2)
        rules_from_json(options, players=players if isinstance(players, int) else None)
    assert err2.value.option == option


def test_draw_with_exactly_reserve_undealt_is_dealable():
    assert Rules(players=2, hand_size=13, draw=True, reserve=2).undealt == 2


def test_unknown_option_in_a_record_is_refused_naming_it():
    with pytest.raises(RulesError) as err:
        rules_from_json({"preset": "block", "muggins": True}, players=2)
    assert err.value.option == "muggins"


def test_unknown_preset_is_refused_naming_preset():
    with pytest.raises(RulesError) as err:
        rules_from_json("mexican-train", players=2)
    assert err.value.option == "preset"


def test_record_rules_players_must_equal_the_players_list():
    with pytest.raises(RulesError) as err:
        rules_from_json({"players": 3}, players=2)
    assert err.value.option == "players"
    assert rules_from_json({"preset": "draw"}, players=4).players == 4  # list's length


def test_x_keys_in_rules_are_ignored():
    assert rules_from_json({"preset": "draw", "x-house": "yes"}, players=2) == PRESETS["draw"]


# -- presets -------------------------------------------------------------------------------

PRESET_ROWS: dict[str, dict[str, object]] = {
    "block": {"hand_size": "standard"},
    "draw": {"hand_size": "standard", "draw": True},
    "pagat-block": {"hand_size": "standard", "target": "pagat"},
    "pagat-draw": {"hand_size": "standard", "draw": True, "target": "pagat"},
    "puerto-rico": {"hand_size": "standard", "score": "others"},
    "pool": {"hand_size": "pool", "score": "others", "ante": 1, "next_lead": "same"},
}


def test_presets_are_exactly_the_table_rows():
    assert set(PRESETS) == set(PRESET_ROWS)


@pytest.mark.parametrize("name", sorted(PRESET_ROWS))
def test_preset_sets_its_options_and_the_rest_keep_defaults(name):
    assert PRESETS[name].options() == {**DEFAULTS, **PRESET_ROWS[name]}
    assert rules_from_json(name, players=2).options() == {**DEFAULTS, **PRESET_ROWS[name]}


@pytest.mark.parametrize("name", sorted(PRESET_ROWS))
def test_preset_overrides_apply_on_top_of_the_preset(name):
    r = rules_from_json({"preset": name, "players": 3, "target": 150}, players=3)
    assert r.options() == {**DEFAULTS, **PRESET_ROWS[name], "players": 3, "target": 150}


def test_pool_preset_with_domino_pool_variations_are_option_values():
    base = {"preset": "pool", "players": 4}
    for extra in ({"opening": "highest-double", "no_double": "redeal"},
                  {"opening": "top-double"},
                  {"opening": "highest-double", "no_double": "heaviest"},
                  {"spinner": "first-double"}, {"pool": "game"},
                  {"target": 50}, {"target": 101}, {"target": 150}, {"target": 200}):
        r = rules_from_json({**base, **extra}, players=4)
        for key, value in extra.items():
            assert getattr(r, key) == value
        assert r.dealt == 5 and r.ante == 1 and r.score == "others"


def test_rules_are_frozen_values_and_replace_validates():
    r = Rules()
    with pytest.raises(AttributeError):
        r.players = 3  # type: ignore[misc]
    with pytest.raises(RulesError):
        r.replace(players=9)
    assert r.replace(players=3).dealt == 5
