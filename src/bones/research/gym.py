"""bones as a Gymnasium environment for one agent: a seat at a table of bones bots.

``BonesGymEnv(opponents=("greedy",), seat=0, set=3, hand_size=3)`` seats the agent at
``seat`` and the bones bot levels ``opponents`` (one per other seat, in seat order, or one
level for all) at the others. An episode is one hand: ``reset`` deals it (the engine's
deal from ``random.Random(seed)``) and lets the bots play until the agent's turn (a hand
that ends before it, which no action of the agent's could change, is followed by the next
deal); ``step``
applies the agent's action, then the bots' moves, and returns the agent's next
observation. The observation is the agent's float32 observation tensor of
docs/research.md; the legal actions are ``info["action_mask"]`` (int8) and
``action_masks()`` (as the masked-action learners of the Stable-Baselines family ask them).
The actions are those of OpenSpiel's ``bones`` game; the agent is asked on each of its
turns, a forced pass included. The reward is 0 until the hand ends, then the agent's
return (``returns``: ``"points"``, ``"win-loss"`` or ``"scored"``). An illegal action
forfeits the hand (``illegal="forfeit"``: the episode ends with the least return a seat can
get and ``info["illegal"]``), so that learners without masks and Gymnasium's own checks,
which send any action of the space, can run; ``illegal="raise"`` refuses it instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from bones.ai.base import Bot
from bones.ai.levels import make_bot
from bones.engine.rules import Rules
from bones.research.core import (
    OVER,
    Dealer,
    Hand,
    Returns,
    observation_entries,
    observation_pieces,
    render_table,
    rules_from,
    setup,
    size_of,
)

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - where Gymnasium is not installed
    raise ImportError("bones.research.gym needs Gymnasium: pip install 'bones[research]' "
                      "(or pip install gymnasium)") from exc


class BonesGymEnv(gymnasium.Env[np.ndarray[Any, Any], np.int64]):
    """One seat of a hand of bones, the other seats bones bots (see the module's text)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's)

    def __init__(self, opponents: Sequence[str] | str = "random", seat: int = 0,
                 rules: Rules | None = None, returns: Returns = "points",
                 think: float = 0.05, illegal: str = "forfeit",
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"bones renders only as text: render_mode 'ansi', not "
                             f"{render_mode!r}")
        self.rules = rules_from(rules, options)
        players = self.rules.players
        if not 0 <= seat < players:
            raise ValueError(f"bones: seat {seat} is not a seat (0 to {players - 1})")
        levels = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(levels) != players - 1:
            raise ValueError(f"bones: {len(levels)} opponents for {players - 1} other seats")
        for level in levels:
            make_bot(level, random.Random(0), think)  # an unknown level is refused now
        self.levels = tuple(levels)
        self.seat = seat
        self.think = think
        self.setup = setup(self.rules, returns)
        self.render_mode = render_mode
        self._size = size_of(observation_pieces(self.setup))
        self.observation_space = spaces.Box(0.0, float(self.setup.count), (self._size,),
                                            np.float32)
        self.action_space = spaces.Discrete(self.setup.actions)
        if illegal not in ("forfeit", "raise"):
            raise ValueError(f"bones: illegal is 'forfeit' or 'raise', not {illegal!r}")
        self.illegal = illegal
        self._forfeited = False
        self._rng = random.Random()
        self.dealer: Dealer | None = None
        self.bots: dict[int, Bot] = {}

    @property
    def hand(self) -> Hand:
        if self.dealer is None:
            raise RuntimeError("bones: call reset() before using the environment")
        return self.dealer.hand

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self._forfeited = False
        others = [s for s in range(self.rules.players) if s != self.seat]
        while True:
            self.dealer = Dealer(self.setup, self._rng)
            self.bots = {s: make_bot(level, random.Random(self._rng.getrandbits(64)),
                                     self.think)
                         for s, level in zip(others, self.levels, strict=True)}
            self._bots_play()
            if self.dealer.hand.phase != OVER:
                return self._observation(), self._info()
            # The hand ended before the agent's first turn (blocked at once, or the others
            # went out): nothing in it was the agent's doing, so the next deal is played.

    def step(self, action: int | np.int64) -> tuple[np.ndarray[Any, Any], float, bool, bool,
                                         dict[str, Any]]:
        hand = self.hand
        if hand.phase == OVER or self._forfeited:
            raise RuntimeError("bones: the hand is over; call reset()")
        if int(action) not in hand.legal_actions():
            if self.illegal == "raise":
                raise ValueError(f"bones: action {action} is not legal now "
                                 f"(legal: {hand.legal_actions()})")
            self._forfeited = True  # the agent loses the hand as badly as it can be lost
            mask = np.zeros(self.setup.actions, np.int8)
            return (self._observation(), self.setup.utility_range()[0], True, False,
                    {"action_mask": mask, "illegal": True})
        assert self.dealer is not None
        self.dealer.act(int(action))
        self._bots_play()
        over = hand.phase == OVER
        reward = hand.returns()[self.seat] if over else 0.0
        return self._observation(), reward, over, False, self._info()

    def _bots_play(self) -> None:
        """The bots' moves until the agent's turn or the end of the hand."""
        dealer = self.dealer
        assert dealer is not None
        hand = dealer.hand
        while hand.phase != OVER and hand.to_move != self.seat:
            legal = hand.legal_actions()
            if legal == [hand.setup.pass_action]:
                dealer.act(legal[0])
                continue
            play = self.bots[hand.to_move].choose(hand.seat_view(hand.to_move))
            dealer.act(hand.setup.action(play))

    def _observation(self) -> np.ndarray[Any, Any]:
        obs = np.zeros(self._size, np.float32)
        ones, counts = observation_entries(self.hand, self.seat)
        obs[ones] = 1.0
        for index, value in counts:
            obs[index] = value
        return obs

    def action_masks(self) -> np.ndarray[Any, Any]:
        """1 for each legal action of the agent now (all 0 once the hand is over)."""
        mask = np.zeros(self.setup.actions, np.int8)
        mask[self.hand.legal_actions()] = 1
        return mask

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_table(self.hand)


#: The id ``gymnasium.make`` knows the environment by (``import bones.research.gym``
#: first): ``gymnasium.make("bones/Hand-v0", opponents="greedy", set=3, hand_size=3)``.
ENV_ID = "bones/Hand-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="bones.research.gym:BonesGymEnv")
