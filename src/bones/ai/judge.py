"""The expert's search of one deal in Python, ``Judge``: what a finished hand is worth to
one seat's side, a heavy-tile-first playout, and an exact alpha-beta solve in which the
other sides play as the expert expects them to (or, for the after-hand review, perfectly).

It is its own module because two users need it apart from the bot: the expert
(``bones.ai.expert``, through ``bones.ai.expert_deals``) searches sampled deals with it, and
the review (``bones.ai.review``) solves a finished hand's revealed deal. It is also the
reference the C search (``bones.fast.search``) is held to, value for value and node for node.

A judge also keeps the decision's account of search steps (``steps``, against ``limit``):
every playout move, solve node and sampled deal is charged to it, which is how the expert's
budget is counted in steps rather than seconds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from bones.ai.expert_config import DEFAULT_CONFIG, ExpertConfig
from bones.ai.position import OUT, PLAYING, Position
from bones.engine.rules import Rules
from bones.engine.scoring import hand_scorer
from bones.fast import search

#: A memo of solved positions (a transposition table): a position's key to its (value, bound kind).
Memo = dict[tuple[object, ...], tuple[float, int]]


class OutOfNodes(Exception):
    """An exact solve needed more nodes than it was allowed."""


class Judge:
    """Values of finished or searched positions from one seat's side's point of view.

    ``scores`` are the sides' game totals before the hand (for the game bonus). ``betas``
    and ``doubles`` are how strongly each seat is expected to prefer heavy tiles, and
    doubles, when it is not the bot's side (one per seat; by default ``config.beta`` and
    ``config.double`` for every seat). ``limit`` is the steps the decision may spend (a
    search that walks many positions in one call stops solving there); a sampled deal is
    charged ``deal_cost`` steps and a state of deal counting ``state_cost`` (``charge``).
    """

    def __init__(self, rules: Rules, seat: int, scores: Sequence[int], *,
                 config: ExpertConfig = DEFAULT_CONFIG, betas: Sequence[float] | None = None,
                 doubles: Sequence[float] | None = None, limit: int = 1 << 62,
                 deal_cost: int = 0, state_cost: int = 0) -> None:
        self.rules = rules
        self.config = config
        self.seat = seat
        self.side = rules.side_of(seat)
        self.score = hand_scorer(rules)
        self.scores = scores
        self.target = rules.target_points
        self.sides = [rules.side_of(s) for s in range(rules.players)]
        self.betas = list(betas) if betas is not None else [config.beta] * rules.players
        self.doubles = (list(doubles) if doubles is not None
                        else [config.double] * rules.players)
        #: Whether the other sides choose by that preference in exact solves (expectimax)
        #: or minimise the bot's value seeing every tile (minimax).
        self.model_opponents = config.model_opponents
        self.limit = limit
        self.deal_cost = deal_cost
        self.state_cost = state_cost
        #: Work done so far: moves made in playouts, nodes searched, and what ``charge``
        #: adds; and the nodes of the last solve.
        self.steps = 0
        self.nodes = 0

    def charge(self, deals: int, states: int) -> None:
        """Count the work of sampling ``deals`` deals and ``states`` states of deal
        counting."""
        self.steps += self.deal_cost * deals + self.state_cost * states

    def spec(self, node_limit: int) -> search.SearchSpec:
        """The same search for the C extension (``bones.fast.search``), its exact solves
        allowed ``node_limit`` nodes each."""
        config = self.config
        return search.SearchSpec.for_rules(
            self.rules, self.seat, self.scores, betas=self.betas,
            model_opponents=self.model_opponents, node_limit=node_limit,
            points_weight=config.points_weight, game_weight=config.game_weight,
            doubles=self.doubles)

    def value(self, pos: Position) -> float:
        """The value of a finished hand."""
        rules = self.rules
        counts = [0] * rules.sides
        for seat in range(rules.players):
            counts[self.sides[seat]] += pos.count(seat)
        if pos.status == OUT:
            winner: int | None = self.sides[pos.winner_seat]
        else:
            low = min(counts)
            lowest = [s for s, c in enumerate(counts) if c == low]
            winner = lowest[0] if len(lowest) == 1 else None
        if winner is None:
            return 0.0
        points = self.score(counts, winner)
        sign = 1.0 if winner == self.side else -1.0
        value = sign * (1.0 + self.config.points_weight * points)
        if self.scores[winner] + points >= self.target:
            value += sign * self.config.game_weight
        return value

    def playout(self, pos: Position, rng: random.Random) -> float:
        """Play the hand out with each seat laying its heaviest playable tile."""
        depth = 0
        pips = pos.set.pips
        while pos.status == PLAYING:
            moves = pos.moves()
            if len(moves) > 1:
                heaviest = max(pips[m >> 2] for m in moves)
                moves = [m for m in moves if pips[m >> 2] == heaviest]
                move = moves[0] if len(moves) == 1 else rng.choice(moves)
            else:
                move = moves[0]
            pos.play(move)
            depth += 1
        value = self.value(pos)
        for _ in range(depth):
            pos.undo()
        self.steps += depth + 1
        return value

    def solve(self, pos: Position, limit: int, table: Memo | None = None) -> float:
        """The exact value of a position with best play by all (the other sides minimise the
        bot's value), by alpha-beta; ``OutOfNodes`` past ``limit`` nodes, with ``pos`` as
        it was.

        Pass the same ``table`` to every solve of one deal: a position's value does not
        depend on the line that reached it, and the lines after different candidates cross
        (the C search shares its table the same way, node for node)."""
        self.nodes = 0
        depth = len(pos.stack)
        try:
            return self._search(pos, -math.inf, math.inf, limit, {} if table is None else table)
        except OutOfNodes:
            while len(pos.stack) > depth:  # take back the moves the search was inside
                pos.undo()
            raise
        finally:
            self.steps += self.nodes

    def _search(self, pos: Position, alpha: float, beta: float, limit: int,
                table: Memo) -> float:
        """Fail-soft alpha-beta with a table of (value, kind): kind 0 exact, 1 a lower
        bound (a cut-off at a maximising node), -1 an upper bound."""
        if pos.status != PLAYING:
            return self.value(pos)
        self.nodes += 1
        if self.nodes > limit:
            raise OutOfNodes
        key = (tuple(pos.hands), tuple(pos.arms), pos.spinner, pos.waiting, pos.to_move,
               pos.drawn)
        stored = table.get(key)
        if stored is not None:
            value, kind = stored
            if kind == 0 or (kind > 0 and value >= beta) or (kind < 0 and value <= alpha):
                return value
        maximise = self.sides[pos.to_move] == self.side
        if not maximise and self.model_opponents:
            return self._expected(pos, limit, table)
        a, b = alpha, beta
        best = -math.inf if maximise else math.inf
        for move in pos.moves():
            pos.play(move)
            value = self._search(pos, a, b, limit, table)
            pos.undo()
            if maximise:
                best = max(best, value)
                a = max(a, best)
            else:
                best = min(best, value)
                b = min(b, best)
            if a >= b:
                break
        table[key] = (best, -1 if best <= alpha else 1 if best >= beta else 0)
        return best

    def weights(self, pos: Position, moves: list[int]) -> list[float]:
        """How the seat to move is expected to choose among ``moves`` (plays): each
        exp(score - best score), a play scoring beta * pips plus the seat's double bonus."""
        tiles = pos.set
        beta, bonus = self.betas[pos.to_move], self.doubles[pos.to_move]
        scores = [beta * tiles.pips[t] + (bonus if tiles.high[t] == tiles.low[t] else 0.0)
                  for t in (m >> 2 for m in moves)]
        top = max(scores)
        return [math.exp(score - top) for score in scores]

    def _expected(self, pos: Position, limit: int, table: Memo) -> float:
        """An opponent's turn under the behaviour model: the mean over its plays, weighted
        by exp(beta * pips) with the seat's beta, each searched with a full window (so
        values stay exact)."""
        moves = pos.moves()
        if len(moves) == 1:
            pos.play(moves[0])
            value = self._search(pos, -math.inf, math.inf, limit, table)
            pos.undo()
            return value
        negligible = self.config.negligible
        total = weight_sum = 0.0
        for move, weight in zip(moves, self.weights(pos, moves), strict=True):
            if weight < negligible:
                continue
            pos.play(move)
            total += weight * self._search(pos, -math.inf, math.inf, limit, table)
            pos.undo()
            weight_sum += weight
        return total / weight_sum
