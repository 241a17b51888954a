"""Random hands per second through each research adapter, side by side with OpenSpiel's own
``python_block_dominoes``, in one run.

Every row plays whole hands of 2-player double-six Block, 7 tiles each, choosing uniformly
at random among the legal actions and sampling every chance event by its probabilities,
each through the interface a user of that row would use:

- **OpenSpiel python_block_dominoes**: OpenSpiel's own Python game of block dominoes
  (``pyspiel.load_game("python_block_dominoes")``), the baseline;
- **bones OpenSpiel game**: ``pyspiel.load_game("bones(score=others)")`` after ``import
  bones.research.openspiel`` (the same rules but for the lead, drawn by lots here; OpenSpiel's
  game always starts with its first player), through the same loop: ``is_terminal``,
  ``is_chance_node``, ``chance_outcomes`` or ``legal_actions``, ``apply_action``;
- **bones PettingZoo AEC**: ``BonesEnv``, ``agent_iter`` and ``last`` (an observation and
  an action mask built for every turn) and ``step``;
- **bones Gymnasium**: ``BonesGymEnv`` for one agent, the other seat bones's ``random``
  level, ``reset`` and ``step`` with the mask from ``info``;
- **OpenSpiel floor**: a Python game that does nothing but answer OpenSpiel's interface,
  with as many chance events and turns as a bones hand has on average: what any Python game
  of that length costs at the least through this loop (OpenSpiel calls back into Python for
  ``current_player`` and ``_apply_action`` on every ``apply_action``);
- **PettingZoo floor**: the same for PettingZoo, an AEC environment that does nothing but
  answer its interface (a zero observation and a full mask of the bones environment's sizes
  every turn) for as many turns as a bones hand has on average;
- for scale, **bones model** (``bones.research.core.Hand``, what the adapters step, asked
  directly) and **bones.fast C playouts** (``bones.fast.play_hands``: the same kind of hand
  with no interface at all).

Each row plays for a time budget (2 s by default) in doubling batches, timed with the
process's CPU time (``--clock wall`` for the wall clock), after a warm-up batch. The ratio
column divides each rate by OpenSpiel's own game's.

    python benchmarks/research_paths.py [--seconds 2] [--clock cpu|wall]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any, ClassVar

from bones.cli.common import seconds
from bones.engine.rules import Rules
from bones.fast import extension_built, play_hands
from bones.research.core import OVER, PLAY, Hand, setup

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401 (registers the game)

    from bones.research import openspiel as bones_openspiel
    from bones.research.gym import BonesGymEnv
    from bones.research.pettingzoo import BonesEnv
except ImportError as exc:
    MISSING: str | None = str(exc)
else:
    MISSING = None

#: OpenSpiel's game's rules in bones's words, but the lead (drawn by lots here).
RULES = Rules(score="others")

#: Plays ``hands`` hands, continuing from the state it keeps between batches.
Batch = Callable[[int], None]


def _sample(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    actions, probs = zip(*outcomes, strict=True)
    return rng.choices(actions, probs)[0]


def openspiel_batch(game: Any) -> Batch:
    rng = random.Random(1)

    def play(hands: int) -> None:
        for _ in range(hands):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(_sample(state.chance_outcomes(), rng))
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            state.returns()

    return play


def floor_game(chance: int, moves: int) -> Any:
    """A Python game of OpenSpiel's that does nothing but answer its interface: ``chance``
    chance events of two outcomes, then ``moves`` turns of two legal actions. What any
    Python game with as many nodes costs at the least, through the loop above."""

    class FloorState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.n = 0

        def current_player(self) -> int:
            if self.n >= chance + moves:
                return int(pyspiel.PlayerId.TERMINAL)
            return int(pyspiel.PlayerId.CHANCE) if self.n < chance else self.n % 2

        def is_chance_node(self) -> bool:
            return self.n < chance

        def is_terminal(self) -> bool:
            return self.n >= chance + moves

        def legal_actions(self, player: int | None = None) -> list[int]:
            return [0, 1]

        def _legal_actions(self, player: int) -> list[int]:
            return [0, 1]

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return [(0, 0.5), (1, 0.5)]

        def _apply_action(self, action: int) -> None:
            self.n += 1

        def returns(self) -> list[float]:
            return [0.0, 0.0]

    name = "research_paths_floor"
    game_type = pyspiel.GameType(
        short_name=name, long_name=name, dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL, max_num_players=2,
        min_num_players=2, provides_information_state_string=False,
        provides_information_state_tensor=False, provides_observation_string=False,
        provides_observation_tensor=False, parameter_specification={})
    info = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=2, num_players=2,
                            min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                            max_game_length=chance + moves)

    class FloorGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> FloorState:
            return FloorState(self)

    return FloorGame()


def nodes_per_hand(game: Any, hands: int = 300) -> tuple[int, int]:
    """The mean chance events and turns of a random hand of ``game``, rounded."""
    rng = random.Random(2)
    chance = turns = 0
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                chance += 1
                state.apply_action(_sample(state.chance_outcomes(), rng))
            else:
                turns += 1
                state.apply_action(rng.choice(state.legal_actions()))
    return round(chance / hands), round(turns / hands)


def pettingzoo_floor(turns: int, actions: int, size: int) -> Any:
    """A PettingZoo AEC environment that does nothing but answer its interface: two agents
    alternate for ``turns`` turns, each told an observation of ``size`` zeros and a mask of
    ``actions`` with every action allowed, then both are done. The least any AEC
    environment of a bones hand's length costs through the same loop."""
    from pettingzoo import AECEnv  # type: ignore[import-untyped]

    class FloorEnv(AECEnv):  # type: ignore[misc]
        metadata: ClassVar[dict[str, Any]] = {"name": "research_paths_floor",
                                              "render_modes": []}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = ["player_0", "player_1"]
            self.turn = 0

        def reset(self, seed: int | None = None,
                  options: dict[str, Any] | None = None) -> None:
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
            self.agent_selection = self.agents[0]
            self.turn = 0

        def observe(self, agent: str) -> dict[str, Any]:
            return {"observation": np.zeros(size, np.float32),
                    "action_mask": np.ones(actions, np.int8)}

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self.turn += 1
            if self.turn >= turns:
                for other in self.agents:
                    self.rewards[other] = 1.0 if other == agent else -1.0
                    self.terminations[other] = True
            else:
                self.agent_selection = self.agents[self.turn % 2]
            self._accumulate_rewards()

    return FloorEnv()


def pettingzoo_batch(env: Any = None) -> Batch:
    rng = random.Random(1)
    env = env if env is not None else BonesEnv(rules=RULES)
    seeds = iter(range(10**9))

    def play(hands: int) -> None:
        for _ in range(hands):
            env.reset(seed=next(seeds))
            for _agent in env.agent_iter():
                obs, _reward, terminated, truncated, _info = env.last()
                if terminated or truncated:
                    env.step(None)
                else:
                    env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))

    return play


def gym_batch() -> Batch:
    rng = random.Random(1)
    env = BonesGymEnv(opponents="random", rules=RULES)
    seeds = iter(range(10**9))

    def play(hands: int) -> None:
        for _ in range(hands):
            _obs, info = env.reset(seed=next(seeds))
            done = False
            while not done:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
                _obs, _reward, done, _truncated, info = env.step(action)

    return play


def model_batch() -> Batch:
    rng = random.Random(1)
    s = setup(RULES)

    def play(hands: int) -> None:
        for _ in range(hands):
            hand = Hand(s)
            while hand.phase != OVER:
                if hand.phase == PLAY:
                    hand.apply(rng.choice(hand.legal_actions()))
                else:
                    hand.apply(_sample(hand.chance_outcomes(), rng))
            hand.returns()

    return play


def fast_batch() -> Batch:
    rng = random.Random(1)

    def play(hands: int) -> None:
        play_hands(RULES, rng, hands)

    return play


def floor_sizes() -> tuple[int, int]:
    """The bones environment's number of actions and observation length, for its floor."""
    env = BonesEnv(rules=RULES)
    env.reset(seed=0)
    observed = env.observe(env.agent_selection)
    return len(observed["action_mask"]), len(observed["observation"])


def rate(batch: Batch, budget: float, clock: Callable[[], float]) -> float:
    """Hands per second of ``batch`` over about ``budget`` seconds of ``clock``."""
    batch(4)  # warm-up: imports, caches, the first game built
    hands, spent, size = 0, 0.0, 8
    while spent < budget:
        started = clock()
        batch(size)
        spent += clock() - started
        hands += size
        size *= 2
    return hands / spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=seconds, default=2.0, help="time budget per row")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = parser.parse_args()
    if MISSING is not None:
        print(f"research_paths: the research extras are not installed ({MISSING}); "
              "pip install -e '.[research]'", file=sys.stderr)
        return 2
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    ours = bones_openspiel.load(RULES)
    chance, turns = nodes_per_hand(ours)
    rows: list[tuple[str, Batch]] = [
        ("OpenSpiel python_block_dominoes", openspiel_batch(
            pyspiel.load_game("python_block_dominoes"))),
        ("bones OpenSpiel game", openspiel_batch(ours)),
        (f"OpenSpiel floor ({chance}+{turns} nodes)",
         openspiel_batch(floor_game(chance, turns))),
        ("bones PettingZoo AEC", pettingzoo_batch()),
        (f"PettingZoo floor ({turns} turns)", pettingzoo_batch(
            pettingzoo_floor(turns, *floor_sizes()))),
        ("bones Gymnasium (vs random)", gym_batch()),
        ("bones model (core.Hand)", model_batch()),
    ]
    if extension_built():
        rows.append(("bones.fast C playouts", fast_batch()))
    print(f"Random 2-player double-six Block hands per second, {args.clock} time, "
          f"{args.seconds:g} s per row")
    print(f"{'interface':<34}{'hands/s':>12}{'vs OpenSpiel':>14}")
    print("-" * 60)
    baseline = None
    for name, batch in rows:
        value = rate(batch, args.seconds, clock)
        baseline = baseline or value
        print(f"{name:<34}{value:>12,.0f}{value / baseline:>13.1f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
