"""bones as a PettingZoo environment: one hand of any rule set, agent by agent (AEC).

``env(set=3, hand_size=3)`` (any rules option by name, or ``rules=`` a ``Rules``) is the
environment wrapped as PettingZoo's own are; ``BonesEnv`` is the environment itself. The
agents are ``seat_0`` ... ``seat_{n-1}``; each observation is a dict of ``observation``
(the float32 observation tensor of docs/research.md, what the seat may see now) and
``action_mask`` (int8, 1 for each legal action; all 0 when it is not the seat's turn). The
actions are those of OpenSpiel's ``bones`` game: a play per tile and arm, and the pass, the
only legal action where the rules force one. Chance is the engine's: ``reset(seed=s)``
deals what ``bones.engine.game.deal`` deals from ``random.Random(s)``, and the draws come
from that deal's boneyard in its order. When the hand ends every agent gets its return
(``returns``: ``"points"``, ``"win-loss"`` or ``"scored"``, as in the OpenSpiel game) and
is terminated. ``render_mode="ansi"`` renders the table as a spectator sees it: no seat's
tiles.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from bones.engine.rules import Rules
from bones.research.core import (
    OVER,
    Dealer,
    Hand,
    Returns,
    Setup,
    observation_entries,
    observation_pieces,
    render_table,
    rules_from,
    setup,
    size_of,
)

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as exc:  # pragma: no cover - where PettingZoo is not installed
    raise ImportError("bones.research.pettingzoo needs PettingZoo: pip install "
                      "'bones[research]' (or pip install pettingzoo)") from exc

Observation = dict[str, np.ndarray[Any, Any]]


class BonesEnv(AECEnv):  # type: ignore[misc]
    """One hand of bones for several agents, one seat each (see the module's text)."""

    metadata = {  # noqa: RUF012 (PettingZoo's attribute)
        "render_modes": ["ansi"], "name": "bones_v0", "is_parallelizable": False,
        "render_fps": 1}

    def __init__(self, rules: Rules | None = None, returns: Returns = "points",
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"bones renders only as text: render_mode 'ansi', not "
                             f"{render_mode!r}")
        self.rules = rules_from(rules, options)
        self.setup: Setup = setup(self.rules, returns)
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        size = size_of(observation_pieces(self.setup))
        s = self.setup
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, float(s.count), (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (s.actions,), np.int8),
        })
        self._action_space = spaces.Discrete(s.actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self._size = size
        self._rng = random.Random()
        self.dealer: Dealer | None = None
        self._clear()

    def _clear(self) -> None:
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}

    def observation_space(self, agent: str) -> Any:
        return self._observation_space

    def action_space(self, agent: str) -> Any:
        return self._action_space

    @property
    def hand(self) -> Hand:
        """The hand in play (``reset`` first)."""
        if self.dealer is None:
            raise RuntimeError("bones: call reset() before using the environment")
        return self.dealer.hand

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.dealer = Dealer(self.setup, self._rng)
        self.agents = self.possible_agents[:]
        self._clear()
        self.agent_selection = self.possible_agents[self.dealer.hand.to_move]

    def observe(self, agent: str) -> Observation:
        hand = self.hand
        seat = self.possible_agents.index(agent)
        obs = np.zeros(self._size, np.float32)
        ones, counts = observation_entries(hand, seat)
        obs[ones] = 1.0
        for index, value in counts:
            obs[index] = value
        mask = np.zeros(self.setup.actions, np.int8)
        if hand.to_move == seat:
            mask[hand.legal_actions()] = 1
        return {"observation": obs, "action_mask": mask}

    def action_mask(self, agent: str) -> np.ndarray[Any, Any]:
        return self.observe(agent)["action_mask"]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        hand = self.hand
        assert action is not None
        if int(action) not in hand.legal_actions():
            raise ValueError(f"bones: action {action} is not legal for {agent} now "
                             f"(legal: {hand.legal_actions()})")
        self._cumulative_rewards[agent] = 0.0
        assert self.dealer is not None
        self.dealer.act(int(action))
        if hand.phase == OVER:
            for agent_, value in zip(self.agents, hand.returns(), strict=True):
                self.rewards[agent_] = value
                self.terminations[agent_] = True
            # The agents are told in seat order, from the one that ended the hand on.
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[hand.to_move]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_table(self.hand)

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> Any:
    """``BonesEnv(**kwargs)`` wrapped as PettingZoo's own environments are (steps out of
    order, or before ``reset``, are refused)."""
    return wrappers.OrderEnforcingWrapper(BonesEnv(**kwargs))


raw_env = BonesEnv
