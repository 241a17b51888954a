"""``bones.research.openspiel``: bones as an OpenSpiel game, and bones's bot levels as
OpenSpiel bots.

The game passes OpenSpiel's own checks of a game (``pyspiel.random_sim_test``, with its
serialization round trip) under every preset and under option combinations Hypothesis
draws; random hands dealt and played by the engine replay move by move in it to the same
legal moves, the same seat views and the same returns; the deal's chance outcomes give
every kept deal the engine's odds; and no information state or observation, string or
tensor, holds a tile its seat may not see (the ``Watcher`` of ``test_table.py``).
"""

from __future__ import annotations

import pickle
import random
import re
from collections import defaultdict
from fractions import Fraction
from itertools import permutations

import pytest

from extras import need

pyspiel = need("pyspiel", "OpenSpiel", "pip install --only-binary open_spiel -e '.[research]'",
               "openspiel.log")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from bones.ai.levels import LEVELS  # noqa: E402
from bones.engine import lead as leads  # noqa: E402
from bones.engine.game import deal, new_game, play_unchecked, start_hand  # noqa: E402
from bones.engine.moves import Draw  # noqa: E402
from bones.engine.rules import OPTION_NAMES, PRESETS, SETS, Rules  # noqa: E402
from bones.engine.tiles import Tile, full_set  # noqa: E402
from bones.engine.view import observe  # noqa: E402
from bones.research import openspiel as bos  # noqa: E402
from bones.research.core import RETURNS  # noqa: E402
from test_fast_agreement import CASES  # noqa: E402

TILE = re.compile(r"\b(\d+)-(\d+)\b")

#: Every preset, with the player counts it is played with.
PRESET_RULES = {f"{name}-{players}p": PRESETS[name].replace(players=players)
                for name in PRESETS for players in ((2, 3, 4) if name != "pool" else (2, 4, 6))}


def _state(rules: Rules, returns: str = "points"):
    return bos.load(rules, returns).new_initial_state()  # type: ignore[arg-type]


# -- OpenSpiel's own checks ----------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PRESET_RULES))
def test_openspiels_random_simulation_and_serialization_pass_under_every_preset(name):
    game = bos.load(PRESET_RULES[name])
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


@st.composite
def option_mixes(draw: st.DrawFn) -> Rules:
    """Any dealable rules: every option drawn, small sets included."""
    top = draw(st.sampled_from(SETS[:6]))
    players = draw(st.integers(2, 5))
    tiles = (top + 1) * (top + 2) // 2
    size = draw(st.one_of(st.just("pool"), st.integers(1, max(1, tiles // players))))
    options = {
        "set": top, "players": players, "hand_size": size,
        "partnerships": players == 4 and draw(st.booleans()),
        "draw": draw(st.booleans()), "reserve": draw(st.integers(0, 3)),
        "call_block": draw(st.booleans()),
        **{name: draw(st.sampled_from(values)) for name, values in (
            ("lead", ("lots", "highest-double", "heaviest")),
            ("opening", ("any", "highest-double", "top-double")),
            ("no_double", ("redeal", "heaviest")), ("spinner", ("none", "first-double")),
            ("score", ("others-minus-own", "others")))},
    }
    try:
        return Rules(**options)  # type: ignore[arg-type]
    except ValueError:
        from hypothesis import assume
        assume(False)
        raise


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.filter_too_much])
@given(rules=option_mixes(), returns=st.sampled_from(RETURNS))
def test_openspiels_checks_pass_for_random_option_mixes(rules, returns):
    game = bos.load(rules, returns)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_game_and_a_state_round_trip_through_openspiels_serialization_and_pickle():
    game = pyspiel.load_game("bones(preset=draw,players=3,spinner=first-double)")
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state)
    assert state2.history() == state.history()
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    clone = state.clone()
    assert str(clone) == str(state) and clone.hand is not state.hand


# -- the parameters ---------------------------------------------------------------------------


def test_the_parameters_are_the_options_with_their_defaults_and_preset_and_returns():
    assert list(bos.PARAMETERS) == [*OPTION_NAMES, "preset", "returns"]
    defaults = Rules()
    for name in OPTION_NAMES:
        expected = {"standard": 0, "pagat": 0}.get(getattr(defaults, name),
                                                     getattr(defaults, name))
        assert bos.PARAMETERS[name] == expected
    assert pyspiel.load_game("bones").rules == Rules()


@pytest.mark.parametrize("rules", [*PRESETS.values(), PRESETS["pool"].replace(players=5),
                                   Rules(set=3, hand_size=2, players=3, draw=True),
                                   Rules(target="pagat", players=3, hand_size=4)])
def test_rules_round_trip_through_the_parameters_and_the_game_string(rules):
    game = bos.load(rules)
    assert game.rules == rules
    assert pyspiel.load_game(str(game)).rules == rules


def test_a_preset_fills_the_options_left_at_their_defaults():
    game = pyspiel.load_game("bones(preset=pool,players=3)")
    assert game.rules == PRESETS["pool"].replace(players=3)
    assert "ante=1" in str(game) and "hand_size=-1" in str(game)
    assert pyspiel.load_game("bones(hand_size=-1,players=5)").rules.hand_size == "pool"


@pytest.mark.parametrize(("text", "option"), [
    ("bones(set=7)", '"set"'), ("bones(set=3)", '"hand_size"'),
    ("bones(players=3,partnerships=True)", '"partnerships"'),
    ("bones(preset=mexican)", '"preset"'), ("bones(spinner=always)", '"spinner"'),
    ("bones(hand_size=-2)", '"hand_size"'), ("bones(returns=chips)", "returns"),
])
def test_rules_the_engine_refuses_are_refused_naming_the_option(text, option):
    with pytest.raises(Exception, match=re.escape(option)):
        pyspiel.load_game(text)


# -- against the engine ------------------------------------------------------------------------

#: Rule sets walked against the engine: every preset, and the agreement cases of the fast
#: playouts (every option value, random mixes, the small sets).
WALKS = {**PRESET_RULES, **{name: rules for name, rules in CASES.items()
                            if not name.startswith("preset-")}}


def _points_returns(rules: Rules, points, winner) -> list[float]:
    sides = rules.sides
    total = sum(points)
    by_side = [p - (total - p) / (sides - 1) for p in points]
    win = [0.0] * sides if winner is None else \
        [1.0 if side == winner else -1.0 / (sides - 1) for side in range(sides)]
    return [by_side[rules.side_of(s)] for s in range(rules.players)], \
        [win[rules.side_of(s)] for s in range(rules.players)]


class Watcher:
    """The tiles a seat may not see now (other seats' tiles, the undrawn boneyard) must not
    appear in its information state or observation, strings or tensors."""

    def __init__(self, game) -> None:
        self.info = bos.BonesObserver(game.setup, pyspiel.IIGObservationType(
            perfect_recall=True), None)
        self.obs = bos.BonesObserver(game.setup, None, None)
        self.tiles = game.setup.tiles

    def check(self, state, engine_state, seat: int) -> None:
        hidden = {t for s, hand in enumerate(engine_state.hands) if s != seat for t in hand}
        hidden |= set(engine_state.boneyard)
        for text in (state.information_state_string(seat), state.observation_string(seat)):
            for high, low in TILE.findall(text):
                assert Tile(int(high), int(low)) not in hidden, (text, seat)
        self.info.set_from(state, seat)
        self.obs.set_from(state, seat)
        pieces = [self.info.dict["dealt"], self.obs.dict["hand"], self.obs.dict["laid"]]
        p, t = engine_state.rules.players, len(self.tiles)
        pieces += [row[p + 3:p + 3 + t] for row in self.info.dict["moves"]]
        for piece in pieces:
            for index in piece.nonzero()[0]:
                assert self.tiles[index] not in hidden, (seat, self.tiles[index])
        assert list(self.info.tensor) == list(state.information_state_tensor(seat))
        assert list(self.obs.tensor) == list(state.observation_tensor(seat))


def _walk(rules: Rules, seed: int, watch: bool) -> None:
    """Deal and play one random hand on the engine; replay it in OpenSpiel's game under
    every way of counting returns, checking each turn and the end."""
    rng = random.Random(seed)
    game = new_game(rules)
    hands, boneyard, leader = deal(game, rng)
    game = start_hand(game, hands, boneyard, leader)
    states = {mode: _state(rules, mode) for mode in RETURNS}
    first = states["points"]
    s = first.hand.setup
    watcher = Watcher(first.get_game()) if watch else None

    def both(action: int) -> None:
        assert action in first.legal_actions()
        for st_ in states.values():
            st_.apply_action(action)

    for seat, hand in enumerate(hands):
        for t in sorted(s.tiles.index(t) for t in hand):
            assert first.is_chance_node() and first.hand.dealing_to == seat
            both(t)
    if first.is_chance_node():  # lots
        assert dict(first.chance_outcomes()) == {seat: 1 / rules.players
                                                 for seat in range(rules.players)}
        both(leader)
    assert first.current_player() == leader
    while game.current is not None:
        engine = game.current
        if watcher is not None:
            for seat in range(rules.players):
                watcher.check(first, engine, seat)
        for seat in range(rules.players):
            ours, theirs = first.hand.seat_view(seat), observe(game, seat)
            assert sorted(ours.hand) == sorted(theirs.hand)
            assert (ours.moves, ours.layout, ours.held, ours.boneyard_left, ours.to_move,
                    ours.leader, ours.opening, ours.legal and set(ours.legal)) == \
                (theirs.moves, theirs.layout, theirs.held, theirs.boneyard_left,
                 theirs.to_move, theirs.leader, theirs.opening,
                 theirs.legal and set(theirs.legal))
        legal = engine.legal_moves()
        if isinstance(legal[0], Draw):
            assert first.is_chance_node() and first.hand.to_move == engine.to_move
            tile = s.tiles.index(engine.boneyard[0])
            assert dict(first.chance_outcomes()) == pytest.approx(
                {s.tiles.index(t): 1 / len(engine.boneyard) for t in engine.boneyard})
            both(tile)
            game = play_unchecked(game, legal[0])
            continue
        assert first.current_player() == engine.to_move
        assert first.legal_actions() == sorted(s.action(m) for m in legal)  # type: ignore[arg-type]
        assert pyspiel.State.legal_actions(first) == first.legal_actions()
        move = rng.choice(legal)
        both(s.action(move))  # type: ignore[arg-type]
        game = play_unchecked(game, move)
    assert all(st_.is_terminal() for st_ in states.values())
    result = game.results[-1]
    assert first.hand.end == {"out": 1, "blocked": 2}[result.end]
    scored = [float(result.points[rules.side_of(seat)]) for seat in range(rules.players)]
    assert states["scored"].returns() == scored
    points, win = _points_returns(rules, result.points, result.winner)
    assert states["points"].returns() == pytest.approx(points)
    assert states["win-loss"].returns() == pytest.approx(win)
    assert sum(states["points"].returns()) == pytest.approx(0)


@pytest.mark.parametrize("name", list(WALKS))
def test_engine_hands_replay_move_by_move_to_the_same_returns(name):
    rules = WALKS[name]
    small = rules.set <= 6
    # The big sets' hands are long and their information-state tensors large (a row per
    # move the hand could take): fewer of them, and their tensors checked on the small.
    for seed in range(12 if small else 3):
        _walk(rules, seed, watch=small and seed < 3)


def test_the_walks_meet_draws_passes_lots_and_every_end():
    """What the walks above must have met to mean anything."""
    met: dict[str, int] = defaultdict(int)
    for name in ("draw-3p", "block-4p", "draw-reserve-0", "set-2-draw", "ties-split"):
        rules = WALKS[name]
        for seed in range(12):
            rng = random.Random(seed)
            game = new_game(rules)
            game = start_hand(game, *deal(game, rng))
            while game.current is not None:
                move = rng.choice(game.current.legal_moves())
                met[type(move).__name__] += 1
                game = play_unchecked(game, move)
            met[game.results[-1].end] += 1
    assert met["Draw"] > 20 and met["Pass"] > 5 and met["out"] > 5 and met["blocked"] > 1


# -- the deal's chance outcomes -----------------------------------------------------------------


def _deal_odds(rules: Rules) -> dict[tuple[frozenset[Tile], ...], Fraction]:
    """The chance tree of the deal, walked whole: each set of hands and its probability."""
    game = bos.load(rules)
    out: dict[tuple[frozenset[Tile], ...], Fraction] = defaultdict(Fraction)
    tiles = game.setup.tiles

    def walk(state, p: Fraction) -> None:
        if state.hand.phase != 0:  # the deal is done
            out[tuple(frozenset(tiles[t] for t in h) for h in state.hand.deal)] += p
            return
        for action, q in state.chance_outcomes():
            walk(state.child(action), p * Fraction(q).limit_denominator(10**9))
    walk(game.new_initial_state(), Fraction(1))
    return out


def _engine_odds(rules: Rules) -> dict[tuple[frozenset[Tile], ...], Fraction]:
    """Every order of the set, dealt as the engine cuts it; the deals the rules redeal
    left out; each kept set of hands with its share of the kept orders."""
    kept: dict[tuple[frozenset[Tile], ...], int] = defaultdict(int)
    size = rules.dealt
    for order in permutations(full_set(rules.set)):
        hands = [order[s * size:(s + 1) * size] for s in range(rules.players)]
        if leads.decide(rules, hands, None) is not None:
            kept[tuple(frozenset(h) for h in hands)] += 1
    total = sum(kept.values())
    return {k: Fraction(v, total) for k, v in kept.items()}


@pytest.mark.parametrize("rules", [
    Rules(set=2, hand_size=2),
    Rules(set=2, hand_size=1, players=3, lead="highest-double"),
    Rules(set=2, hand_size=2, opening="top-double"),
    Rules(set=2, hand_size=1, players=2, opening="highest-double"),
], ids=["plain", "lead-double", "top-double", "opening-double"])
def test_every_deal_the_rules_keep_is_dealt_with_the_engines_odds(rules):
    ours, theirs = _deal_odds(rules), _engine_odds(rules)
    assert set(ours) == set(theirs)
    for deal_, p in theirs.items():
        assert abs(float(ours[deal_] - p)) < 1e-9


def test_redealing_rules_never_deal_what_they_would_redeal():
    game = bos.load(Rules(set=5, hand_size=1, players=3, opening="highest-double"))
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while state.hand.phase == 0:
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(rng.choices(actions, probs)[0])
        assert any(game.setup.tiles[t].is_double for h in state.hand.deal for t in h)


# -- what a seat may know ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", [Rules(set=2, hand_size=2),
                                   Rules(set=2, hand_size=2, draw=True, reserve=0),
                                   Rules(set=2, hand_size=1, players=3,
                                         spinner="first-double")],
                         ids=["block", "draw", "three-spinner"])
def test_states_a_seat_cannot_tell_apart_look_the_same_to_it(rules):
    """Over every state of a small game: two states with the same information state for a
    seat give it the same tensors, the same observation and the same legal actions. A
    tensor that held a hidden tile would tell them apart."""
    from open_spiel.python.algorithms.get_all_states import get_all_states

    game = bos.load(rules)
    states = get_all_states(game, include_chance_states=True,
                            to_string=lambda s: s.history_str())
    seen: dict[tuple[int, str], tuple] = {}
    groups = 0
    for state in states.values():
        if state.is_terminal():
            continue
        for seat in range(rules.players):
            key = (seat, state.information_state_string(seat))
            look = (tuple(state.information_state_tensor(seat)),
                    state.observation_string(seat), tuple(state.observation_tensor(seat)),
                    tuple(state.legal_actions()) if state.current_player() == seat else ())
            if key in seen:
                groups += 1
                assert seen[key] == look, key
            seen[key] = look
    assert groups > 100


def test_the_public_and_private_observations_split_the_observation():
    game = bos.load(PRESETS["draw"].replace(players=3))
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        for seat in range(3):
            public = game.make_py_observer(pyspiel.IIGObservationType(
                perfect_recall=True, public_info=True,
                private_info=pyspiel.PrivateInfoType.NONE)).string_from(state, seat)
            assert public == game.make_py_observer(pyspiel.IIGObservationType(
                perfect_recall=True, public_info=True,
                private_info=pyspiel.PrivateInfoType.NONE)).string_from(state, (seat + 1) % 3)
            assert "draws " not in public.replace("draws,", "") or public.endswith("draws")
        state.apply_action(rng.choice(state.legal_actions()))


# -- bones's bots in OpenSpiel ----------------------------------------------------------------


@pytest.mark.parametrize("rules", [PRESETS["block"], PRESETS["draw"].replace(
    players=3, spinner="first-double"), Rules(set=3, hand_size=3)], ids=["block", "draw3", "d3"])
def test_every_level_plays_whole_hands_as_an_openspiel_bot(rules):
    import numpy as np
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    game = bos.load(rules)
    for level in LEVELS:
        for seed in range(2):
            players = bos.bots([level] + ["random"] * (rules.players - 1), seed, think=0.01)
            returns = evaluate_bots(game.new_initial_state(), players,
                                    np.random.RandomState(seed))
            assert len(returns) == rules.players and sum(returns) == pytest.approx(0)


def test_a_bones_bot_plays_what_the_same_level_plays_on_the_engine():
    """The bot sees its seat's view and nothing else: the same seed, the same plays."""
    game = bos.load(PRESETS["draw"])
    rng = random.Random(5)
    state = game.new_initial_state()
    from bones.ai.levels import make_bot

    ours = bos.BonesBot("basic", seed=9)
    theirs = make_bot("basic", random.Random(9))
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        action = ours.step(state)
        if action != state.hand.setup.pass_action:
            view = state.hand.seat_view(state.current_player())
            assert state.hand.setup.action(theirs.choose(view)) == action
        state.apply_action(action)
