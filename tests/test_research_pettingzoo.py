"""``bones.research.pettingzoo`` and ``bones.research.gym``: bones as a PettingZoo AEC
environment and as a Gymnasium environment for one agent against bones bots.

Both pass their library's own checks (PettingZoo's ``api_test`` and ``seed_test``,
Gymnasium's ``check_env``) under every preset and under option mixes Hypothesis draws;
``reset(seed=s)`` deals what the engine deals from ``random.Random(s)``, and random hands
played through them end as the engine ends them; no observation, nor the rendered table,
holds a tile its seat may not see.
"""

from __future__ import annotations

import random
import re
import warnings

import pytest

from extras import need

need("pettingzoo", "PettingZoo", "pip install -e '.[environments]'", "environments.log")
need("gymnasium", "Gymnasium", "pip install -e '.[environments]'", "environments.log")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from bones.ai.levels import LEVELS  # noqa: E402
from bones.engine.game import deal, new_game, play_unchecked, start_hand  # noqa: E402
from bones.engine.moves import Draw  # noqa: E402
from bones.engine.rules import PRESETS, SETS, Rules  # noqa: E402
from bones.engine.tiles import Tile  # noqa: E402
from bones.research import pettingzoo as bpz  # noqa: E402
from bones.research.core import RETURNS, observation_pieces, setup  # noqa: E402
from bones.research.gym import ENV_ID, BonesGymEnv  # noqa: E402

TILE = re.compile(r"\b(\d+)-(\d+)\b")
PRESET_RULES = {f"{name}-{players}p": PRESETS[name].replace(players=players)
                for name in PRESETS for players in ((2, 3, 4) if name != "pool" else (2, 4, 6))}
#: What PettingZoo's ``api_test`` says of every environment whose observation is a dict of
#: an observation and an action mask (its own classic games included): not a fault.
DICT_OBSERVATION = ("Observation space for each agent probably should be",
                    "Observation is not a NumPy array")


def _api_test(env) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=300, verbose_progress=False)
    faults = [str(w.message) for w in caught
              if not str(w.message).startswith(DICT_OBSERVATION)]
    assert not faults, faults


@pytest.mark.parametrize("name", list(PRESET_RULES))
def test_pettingzoos_api_test_passes_under_every_preset(name):
    _api_test(bpz.env(rules=PRESET_RULES[name], render_mode="ansi"))


@st.composite
def option_mixes(draw: st.DrawFn) -> Rules:
    top = draw(st.sampled_from(SETS[:6]))
    players = draw(st.integers(2, 5))
    tiles = (top + 1) * (top + 2) // 2
    options = {
        "set": top, "players": players,
        "hand_size": draw(st.one_of(st.just("pool"), st.integers(1, max(1, tiles // players)))),
        "draw": draw(st.booleans()), "reserve": draw(st.integers(0, 3)),
        "call_block": draw(st.booleans()),
        "lead": draw(st.sampled_from(("lots", "highest-double", "heaviest"))),
        "opening": draw(st.sampled_from(("any", "highest-double", "top-double"))),
        "no_double": draw(st.sampled_from(("redeal", "heaviest"))),
        "spinner": draw(st.sampled_from(("none", "first-double"))),
        "score": draw(st.sampled_from(("others-minus-own", "others"))),
    }
    try:
        return Rules(**options)  # type: ignore[arg-type]
    except ValueError:
        from hypothesis import assume
        assume(False)
        raise


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rules=option_mixes(), returns=st.sampled_from(RETURNS))
def test_the_api_tests_pass_for_random_option_mixes(rules, returns):
    _api_test(bpz.env(rules=rules, returns=returns))
    players = rules.players
    env = BonesGymEnv(opponents="random", seat=players - 1, rules=rules, returns=returns)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Gymnasium's notes on render fps and spec
        check_env(env, skip_render_check=True)


def test_pettingzoos_seed_test_passes():
    seed_test(lambda: bpz.env(rules=PRESETS["draw"].replace(players=3)), num_cycles=200)
    seed_test(lambda: bpz.env(set=3, hand_size=3, spinner="first-double"), num_cycles=200)


def test_options_by_name_and_a_refused_option():
    env = bpz.BonesEnv(set=3, hand_size=3, players=3)
    assert env.rules == Rules(set=3, hand_size=3, players=3)
    assert env.possible_agents == ["seat_0", "seat_1", "seat_2"]
    with pytest.raises(ValueError, match='option "hand_size"'):
        bpz.BonesEnv(set=3)
    with pytest.raises(ValueError, match="render_mode"):
        bpz.BonesEnv(render_mode="human")


# -- against the engine ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["block-2p", "draw-3p", "pool-4p", "pagat-draw-4p"])
def test_reset_deals_the_engines_deal_and_random_hands_end_as_the_engines(name):
    rules = PRESET_RULES[name]
    s = setup(rules)
    for seed in range(15):
        env = bpz.BonesEnv(rules=rules)
        env.reset(seed=seed)
        game = new_game(rules)
        hands, boneyard, leader = deal(game, random.Random(seed))
        game = start_hand(game, hands, boneyard, leader)
        assert [sorted(s.tiles[t] for t in h) for h in env.hand.deal] == \
            [sorted(h) for h in hands]
        assert env.hand.leader == leader and env.agent_selection == f"seat_{leader}"
        rng = random.Random(seed)
        while game.current is not None:
            legal = game.current.legal_moves()
            if isinstance(legal[0], Draw):
                game = play_unchecked(game, legal[0])  # the env drew it already
                continue
            agent = env.agent_selection
            mask = env.observe(agent)["action_mask"]
            assert sorted(np.flatnonzero(mask)) == sorted(s.action(m) for m in legal)
            move = rng.choice(legal)
            env.step(s.action(move))
            game = play_unchecked(game, move)
        result = game.results[-1]
        assert all(env.terminations.values())
        assert [env._cumulative_rewards[a] for a in env.possible_agents] == pytest.approx(
            env.hand.returns())
        assert env.hand.points()[1] == list(result.points)


# -- what a seat may know ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["block-2p", "draw-3p", "pool-4p"])
def test_no_observation_nor_the_rendered_table_shows_a_hidden_tile(name):
    rules = PRESET_RULES[name]
    s = setup(rules)
    pieces = observation_pieces(s)
    spans = {}
    at = 0
    for piece, shape in pieces:
        size = int(np.prod(shape))
        spans[piece] = (at, at + size)
        at += size
    env = bpz.BonesEnv(rules=rules, render_mode="ansi")
    rng = random.Random(2)
    for seed in range(5):
        env.reset(seed=seed)
        while not any(env.terminations.values()):
            hand = env.hand
            for seat, agent in enumerate(env.possible_agents):
                hidden = {s.tiles[t] for other, h in enumerate(hand.hands) if other != seat
                          for t in h} | {s.tiles[t] for t in hand.boneyard}
                obs = env.observe(agent)["observation"]
                for piece in ("hand", "laid"):
                    low, high = spans[piece]
                    for index in np.flatnonzero(obs[low:high]):
                        assert s.tiles[index] not in hidden, (piece, seat)
            shown = {Tile(int(a), int(b)) for a, b in TILE.findall(env.render())}
            assert not shown & ({s.tiles[t] for h in hand.hands for t in h}
                                | {s.tiles[t] for t in hand.boneyard})
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
        assert "returns" in env.render()


# -- Gymnasium ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["block-2p", "draw-3p", "puerto-rico-4p", "pool-6p"])
def test_gymnasiums_check_env_passes(name):
    rules = PRESET_RULES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Gymnasium's note that the env has no spec
        check_env(BonesGymEnv(opponents="greedy", rules=rules, render_mode="ansi"))
        check_env(BonesGymEnv(opponents="random", seat=rules.players - 1, rules=rules))


def test_gymnasium_makes_it_by_its_id():
    import gymnasium

    env = gymnasium.make(ENV_ID, opponents="basic", set=3, hand_size=3)
    obs, info = env.reset(seed=4)
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)


@pytest.mark.parametrize("level", LEVELS)
def test_the_agent_plays_whole_hands_against_every_level(level):
    env = BonesGymEnv(opponents=level, players=3, rules=PRESETS["draw"], think=0.01)
    rng = random.Random(level)
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            assert env.hand.to_move == env.seat
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, truncated, info = env.step(action)
            assert not truncated and env.observation_space.contains(obs)
        assert reward == env.hand.returns()[env.seat]


def test_the_same_seed_gives_the_same_hand_and_an_illegal_action_forfeits_or_raises():
    def actions(env: BonesGymEnv, seed: int) -> list[int]:
        _obs, info = env.reset(seed=seed)
        taken = []
        done = False
        while not done:
            action = int(np.flatnonzero(info["action_mask"])[0])
            taken.append(action)
            _obs, reward, done, _, info = env.step(action)
        return [*taken, reward]

    a = BonesGymEnv(opponents=("greedy", "random"), seat=1, players=3)
    b = BonesGymEnv(opponents=("greedy", "random"), seat=1, players=3)
    assert [actions(a, s) for s in range(5)] == [actions(b, s) for s in range(5)]
    _obs, info = a.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, done, _, info = a.step(illegal)
    assert done and info["illegal"] and reward == a.setup.utility_range()[0]
    raising = BonesGymEnv(opponents="random", illegal="raise")
    _obs, info = raising.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        raising.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    with pytest.raises(ValueError, match="opponents"):
        BonesGymEnv(opponents=("random",), players=3)
    with pytest.raises(ValueError, match="unknown bot"):
        BonesGymEnv(opponents="grandmaster")
