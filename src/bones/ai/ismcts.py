"""``ismcts``: Information Set Monte Carlo Tree Search (Cowling, Powley and Whitehouse, 2012),
single-observer form, as the reference search bot.

Each iteration samples a deal consistent with the view, walks the tree choosing among the
moves legal in that deal by UCB with availability counts, adds one node, plays out at random
and backs the result up. Forced draws and passes are applied without tree nodes. The reward
of a finished hand is, for each side, 1 for a win, 0.5 for a tie and 0 for a loss.

Like ``expert``, it budgets its thinking in steps rather than seconds, so a seeded run plays
the same moves on any machine and under any load: a step is a move applied in the tree or
a playout, and sampling a deal costs ``DEAL_STEPS``. ``STEPS_PER_SECOND`` is calibrated the
way ``expert``'s budget is: on the development machine its 95th-percentile decision stays
within the think time on every benchmarked rule set, and in 2-player Block its median
decision takes about as long as the expert's (57 ms against 54 at 0.1 s; at 30,000 steps per
second, its earlier rate, it took 76 ms and its 95th percentile 129 ms, so it did not keep
to its think time). A wall-clock stop at three times the think time plus 250 ms
(``safety_net``: never past the bot-protocol referee's patience) is the safety net for a far
slower machine.
"""

from __future__ import annotations

import math
import random
import time

from bones.ai.beliefs import infer
from bones.ai.budget import safety_net
from bones.ai.sampling import Dealer, determinize
from bones.engine.moves import Play
from bones.engine.scoring import outcome
from bones.engine.state import HandState, apply_unchecked
from bones.engine.view import SeatView

EXPLORATION = 0.7
#: Search steps per second of think time, and what sampling one deal costs in steps.
STEPS_PER_SECOND = 22_000
DEAL_STEPS = 2


class _Node:
    __slots__ = ("avail", "children", "reward", "side", "visits")

    def __init__(self, side: int) -> None:
        self.side = side  # the side that made the move leading here
        self.children: dict[Play, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


def _forced(state: HandState) -> HandState:
    """Apply draws and passes until a seat has a choice of plays or the hand ends."""
    while state.end is None:
        moves = state.legal_moves()
        if isinstance(moves[0], Play):
            return state
        state = apply_unchecked(state, moves[0])
    return state


def _rewards(state: HandState) -> list[float]:
    result = outcome(state)
    sides = state.rules.sides
    if result.winner is None:
        tied = set(result.tied)
        return [0.5 if side in tied else 0.0 for side in range(sides)]
    return [1.0 if side == result.winner else 0.0 for side in range(sides)]


class IsmctsBot:
    """Runs SO-ISMCTS for the steps of ``think`` seconds (or ``iterations``, whichever
    comes first)."""

    name = "ismcts"

    def __init__(self, rng: random.Random, think: float = 0.1,
                 iterations: int | None = None, steps: int | None = None) -> None:
        self.rng = rng
        self.think = think
        self.iterations = iterations
        self.steps = steps if steps is not None else max(DEAL_STEPS,
                                                         int(think * STEPS_PER_SECOND))

    def choose(self, view: SeatView) -> Play:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        rules = view.rules
        dealer = Dealer(view, infer(view))
        root = _Node(side=-1)
        deadline = time.monotonic() + safety_net(self.think, 0.25)
        done = steps = 0
        played = len(view.moves)
        while (self.iterations is None or done < self.iterations) and steps < self.steps \
                and (done == 0 or time.monotonic() < deadline):
            done += 1
            state = determinize(view, self.rng, dealer)
            node, path = root, [root]
            while True:
                state = _forced(state)
                if state.end is not None:
                    break
                moves = [m for m in state.legal_moves() if isinstance(m, Play)]
                for m in moves:
                    child = node.children.get(m)
                    if child is not None:
                        child.avail += 1
                untried = [m for m in moves if m not in node.children]
                side = rules.side_of(state.to_move)
                if untried:
                    move = self.rng.choice(untried)
                    child = _Node(side)
                    child.avail = 1
                    node.children[move] = child
                    state = apply_unchecked(state, move)
                    node = child
                    path.append(node)
                    break
                move = max(moves, key=lambda m: _ucb(node.children[m]))
                node = node.children[move]
                state = apply_unchecked(state, move)
                path.append(node)
            state = self._rollout(state)
            # Every iteration plays the hand to its end, so its moves are the steps it took.
            steps += DEAL_STEPS + len(state.moves) - played
            rewards = _rewards(state)
            for visited in path:
                visited.visits += 1
                if visited.side >= 0:
                    visited.reward += rewards[visited.side]
        best = max(legal, key=lambda m: root.children[m].visits if m in root.children else -1)
        return best

    def _rollout(self, state: HandState) -> HandState:
        while True:
            state = _forced(state)
            if state.end is not None:
                return state
            state = apply_unchecked(state, self.rng.choice(state.legal_moves()))


def _ucb(node: _Node) -> float:
    if node.visits == 0:
        return math.inf
    return node.reward / node.visits + EXPLORATION * math.sqrt(
        math.log(max(node.avail, 1)) / node.visits)
