"""``expert``: belief-driven search. It samples deals consistent with everything its seat has
seen (tiles played, hand sizes, and the numbers each seat has shown it lacks by passing or
drawing), evaluates each candidate play in every sampled deal, and plays the best on average.

What the other seats chose to play is evidence too. Each is read as one of a few kinds of
player (``KINDS``: indifferent to pips, leaning to heavy tiles, shedding doubles first, or
always shedding its heaviest), by Bayes' rule over deals and kinds together; sampled deals
are weighed by how well they explain the plays, and a seat that looks like a
heaviest-shedder is, in that share of the deals, dealt none of the heavier tiles it could
have played instead.

In a sampled deal a candidate is judged by a playout with a heavy-tile-first policy, or, once
few enough tiles remain in the hands, by an exact search of the deal: the bot's side
maximises, and the other sides choose as their kind says (an expectation rather than a worst
case). The search runs in C (``bones.fast.search``) when the extension is built, else in
Python (``Judge``); both compute the same values.

Solving each deal on its own assumes the bot will know the deal on its later turns. With two
players and the C search, the bot's next turns are therefore decided per thing it will have
seen by then, over all the deals (``NextTurnDeals``): the next two, and late in the hand
every one left. A candidate is worth only what the bot can really make of it without seeing
the other hand.

The value of a hand is, for the bot's side: +1 for a win, -1 for a loss, 0 for a tie, plus
a small share of the points at stake and a bonus when the hand decides the game (it knows
the score rule, the target and the game score). In a partnership it plays for the side.

The budget is a number of search steps (moves made in playouts, nodes of exact solves, and a
fixed cost per sampled deal) derived from the think time, so a seeded run reproduces on any
machine with the same search path; a wall-clock stop at three times the think time plus
50 ms (``safety_net``: never past the bot-protocol referee's patience) is the safety net for
a machine far slower than the calibration (only then can a seeded run differ).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bones.ai.beliefs import Beliefs, Decision, decisions, infer
from bones.ai.budget import safety_net
from bones.ai.position import OUT, PLAYING, Position, tile_set
from bones.ai.sampling import Dealer, Reading, set_scale, state_of
from bones.engine.moves import Play
from bones.engine.rules import Rules
from bones.engine.scoring import SCORES
from bones.engine.tiles import Tile
from bones.engine.view import SeatView
from bones.fast import search
from bones.fast.paths import Backend, default_backend


@dataclass(frozen=True, slots=True)
class Cost:
    """The search-step budget of one backend: steps per second of think time (calibrated
    on a 2-core development machine so the 95th-percentile decision stays within the think
    time), what sampling one candidate deal (in Python on both) costs in its steps, per
    seat at the table (more seats, more hands to draw and plays to read), and what one
    state of counting the deals a view allows costs (``bones.ai.dealing``; about 25 us).
    Both were measured with a double-six set; ``set_scale`` scales them up for larger
    sets."""

    per_second: int
    deal_per_seat: int
    per_state: int


#: A step is a move of a playout or a node of an exact solve; the C search makes them about
#: a hundred times faster, so work done in Python costs it many more of them.
COSTS: dict[Backend, Cost] = {"python": Cost(75_000, 6, 2), "c": Cost(7_000_000, 150, 175)}
#: Extra steps charged for handing one deal to the C search (packing it, the call).
C_CALL_COST = 300
#: The C search solves a deal exactly when the hands hold at most this many tiles, and
#: keeps doing so for the decision until a solve runs past ``C_NODE_LIMIT`` nodes.
C_EXACT_TILES = 16
C_NODE_LIMIT = 60_000
#: Candidate deals drawn for each deal searched: the searched one is picked in proportion to
#: how well it explains the other seats' plays (sampling importance resampling).
CANDIDATES = 6
#: How strongly players are assumed to prefer shedding heavier tiles (per pip, log-odds),
#: and doubles (log-odds), for a seat whose play has told nothing yet: the doubles-first
#: kind below, which fits searching players best (against ``ismcts``, 1,000 deals of
#: 2-player Block, it won 56.9% of hands with this and 55.6% with beta 0.6 and no bonus).
BETA = 0.2
DOUBLE = 1.5
#: The kinds of player each other seat may be, as (prior, beta, double bonus): one that
#: plays any tile alike, one that leans to heavy tiles, one that sheds doubles first (as
#: searching players do: fitted to ``ismcts`` and ``expert`` plays, it explains them far
#: better than pips alone), and one that nearly always sheds its heaviest (as a beginner's
#: "greedy" habit does). A sampled deal is weighed by how well it explains each seat's plays
#: under this mixture, which is Bayes' rule over deal and kind together; the kind that
#: explains a seat best is also how the exact search expects it to play.
KINDS = ((0.15, 0.0, 0.0), (0.25, 0.6, 0.0), (0.3, 0.2, 1.5), (0.3, 4.0, 0.0))
#: An opponent's play whose weight under its kind is below this share of the heaviest
#: play's is not searched (it would hardly move the expectation).
NEGLIGIBLE = 1e-6
#: A candidate deal weighing less than this share of its batch's heaviest is not searched.
NEGLIGIBLE_DEAL = 0.01
#: Deals sampled to judge each seat's kind before searching.
PREPASS = 16
#: In exact solves, model the other sides' choices by that same preference (expectimax)
#: instead of assuming they see every tile and play perfectly against us (minimax).
MODEL_OPPONENTS = True
#: With two players, decide the bot's next turns without seeing the other hand
#: (``NextTurnDeals``) rather than deal by deal.
INFORMATION_SETS = True
#: How many of the bot's turns ``NextTurnDeals`` decides by what the bot will have seen
#: rather than deal by deal: its next two, and every one left once at most
#: ``ALL_TURNS_TILES`` tiles can still be played (in the hands, and in a boneyard that can
#: still be drawn from), since every later turn of the bot multiplies the walk. Against
#: ``ismcts``, 1,000 deals of 2-player Block: 55.55% of hands won deciding only the next
#: turn, 56.30% with this (on 2,000 other deals: 56.0%, both ways).
TURNS = 2
ALL_TURNS_TILES = 10
#: More turns than any hand has (a double-eighteen set has 190 tiles).
EVERY_TURN = 1000
#: Solve a sampled deal exactly when the hands hold at most this many tiles in all.
EXACT_TILES = 9
#: Search nodes one exact solve may visit before it gives up for a playout.
NODE_LIMIT = 4000
#: Weight of the points at stake, per point, beside the +1/-1 of the hand's result.
POINTS_WEIGHT = 0.01
#: Extra value of a hand that wins (or loses) the game.
GAME_WEIGHT = 0.5


class OutOfNodes(Exception):
    """An exact solve needed more nodes than it was allowed."""


class ExpertBot:
    """The strongest level. ``inference=False`` samples deals ignoring what passes and draws
    reveal (for measuring what that inference is worth)."""

    def __init__(self, rng: random.Random, think: float = 0.1, inference: bool = True,
                 steps: int | None = None, backend: Backend | None = None) -> None:
        self.rng = rng
        self.think = think
        self.inference = inference
        #: Where sampled deals are searched: ``"c"`` (``bones.fast.search``) when it is
        #: built, else ``"python"`` (``Judge``); ``BONES_PURE=1`` chooses Python.
        self.backend: Backend = backend or ("c" if search.available()
                                            and default_backend() == "c" else "python")
        if self.backend == "c" and not search.available():
            raise ValueError(search.MISSING)
        cost = COSTS[self.backend]
        self.deal_per_seat = cost.deal_per_seat
        self.per_state = cost.per_state
        self.steps = steps if steps is not None else max(40 * cost.deal_per_seat,
                                                         int(think * cost.per_second))
        self.name = "expert" if inference else "expert-noinfer"

    def choose(self, view: SeatView) -> Play:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        beliefs = infer(view)
        if not self.inference:
            beliefs = Beliefs(tuple(frozenset() for _ in beliefs.voids), beliefs.unseen,
                              beliefs.last_exposed)
        made = decisions(view) if self.inference else ()
        judge = Judge(view.rules, view.seat, view.scores)
        scale = set_scale(view.rules)
        judge.deal_cost = int(self.deal_per_seat * view.rules.players * scale)
        judge.state_cost = int(self.per_state * scale)
        judge.limit = self.steps
        dealer = Dealer(view, beliefs, self.inference)
        kinds = self._read_kinds(dealer, made, judge) if made else None
        deals: Deals
        if self.backend == "python":
            deals = PythonDeals(view, judge, legal, self.rng)
        elif view.rules.players == 2 and INFORMATION_SETS:
            deals = NextTurnDeals(view, judge, legal, self.rng)
        else:
            deals = CDeals(view, judge, legal, self.rng)
        deadline = time.monotonic() + safety_net(self.think, 0.05)
        while judge.steps < self.steps:
            for hands, boneyard, weight in self._sample(dealer, kinds, judge):
                deals.add(hands, boneyard, weight)
            if time.monotonic() > deadline:
                break
        totals = deals.totals()
        best = max(totals)
        return self.rng.choice([p for p, t in zip(legal, totals, strict=True) if t == best])

    def _read_kinds(self, dealer: Dealer, made: tuple[Decision, ...], judge: Judge) -> Kinds:
        """Judge each other seat's kind of player from its plays so far (Bayes over deals
        sampled from what the seat is known to lack) and set the search's model of it.

        Returns, per seat, the tiles it lacks if it always sheds its heaviest (any tile
        heavier than one it played that it could have played instead) and the chance that
        it is that kind; that share of the sampled deals then leaves those tiles out of its
        hand, which a deal drawn blind would rarely do once the seat has made a few plays."""
        view, beliefs = dealer.view, dealer.beliefs
        reading = Reading(made, beliefs.unseen, tuple((beta, bonus) for _, beta, bonus in KINDS))
        evidence: dict[int, list[float]] = {}
        for _ in range(PREPASS):
            hands, _ = dealer.deal(self.rng)
            for seat, chances in reading.chances(hands).items():
                row = evidence.setdefault(seat, [0.0] * len(KINDS))
                for k, c in enumerate(chances):
                    row[k] += c
        judge.steps += judge.deal_cost * PREPASS + judge.state_cost * dealer.work()
        excluded = [frozenset[Tile]() for _ in range(view.rules.players)]
        greedy = [0.0] * view.rules.players
        for seat, row in evidence.items():
            weighed = [kind[0] * e for kind, e in zip(KINDS, row, strict=True)]
            total = sum(weighed)
            if total <= 0.0:
                continue
            best = max(range(len(KINDS)), key=lambda k: weighed[k])
            _, judge.betas[seat], judge.doubles[seat] = KINDS[best]
            greedy[seat] = weighed[-1] / total
            excluded[seat] = heavier_than_played(made, seat, beliefs.unseen)
        return Kinds(reading, excluded, greedy)

    def _ruled_out(self, kinds: Kinds) -> list[frozenset[Tile]]:
        """What one candidate deal leaves out: one seat's ``kinds.excluded`` tiles, that
        seat picked with the chance ``kinds.greedy`` gives it, or no seat's.

        One seat at most, because each pattern of exclusions is a table of deals to count
        (``bones.ai.dealing``): with five other seats, excluding each independently made
        up to 32 of them in a decision."""
        none = frozenset[Tile]()
        unit = self.rng.random() * max(1.0, sum(kinds.greedy))
        for seat, chance in enumerate(kinds.greedy):
            if unit < chance:
                return [out if s == seat else none for s, out in enumerate(kinds.excluded)]
            unit -= chance
        return [none] * len(kinds.excluded)

    def _sample(self, dealer: Dealer, kinds: Kinds | None, judge: Judge,
                ) -> list[tuple[list[tuple[Tile, ...]], list[Tile], float]]:
        """Deals to search, each with its weight (a batch's weights sum to 1).

        With plays to read, a batch of candidates is drawn (each leaving out at most one
        seat's ``kinds.excluded`` tiles, ``_ruled_out``) and weighed by how well it
        explains every seat's plays under the mixture of ``KINDS``.
        The Python search is dear, so it searches one candidate picked by weight (sampling
        importance resampling); the C search is cheaper than drawing a deal, so it searches
        every candidate that carries weight, which wastes none of them."""
        if kinds is None:
            hands, boneyard = dealer.deal(self.rng)
            judge.steps += judge.deal_cost + judge.state_cost * dealer.work()
            return [(hands, boneyard, 1.0)]
        candidates = [dealer.deal(self.rng, self._ruled_out(kinds)) for _ in range(CANDIDATES)]
        weights = []
        for hands, _ in candidates:
            weight = 1.0
            for chances in kinds.reading.chances(hands).values():
                weight *= sum(kind[0] * c for kind, c in zip(KINDS, chances, strict=True))
            weights.append(weight)
        judge.steps += judge.deal_cost * CANDIDATES + judge.state_cost * dealer.work()
        total = sum(weights)
        if total <= 0.0:
            return [(*candidates[0], 1.0)]
        if self.backend == "python":
            return [(*self.rng.choices(candidates, weights)[0], 1.0)]
        floor = max(weights) * NEGLIGIBLE_DEAL
        kept = [(c, w) for c, w in zip(candidates, weights, strict=True) if w >= floor]
        total = sum(w for _, w in kept)
        return [(hands, boneyard, w / total) for (hands, boneyard), w in kept]


@dataclass(frozen=True, slots=True)
class Kinds:
    """What the expert made of the other seats' plays in one decision."""

    #: How likely each seat's plays are under each kind, for any sampled deal.
    reading: Reading
    #: Per seat: the tiles it lacks if it always sheds its heaviest ...
    excluded: list[frozenset[Tile]]
    #: ... and the chance that it is that kind of player.
    greedy: list[float]


def heavier_than_played(made: tuple[Decision, ...], seat: int,
                        unseen: frozenset[Tile]) -> frozenset[Tile]:
    """The unseen tiles ``seat`` would have played instead of a lighter one, had it held
    them, if it always sheds its heaviest playable tile."""
    out = set()
    for d in made:
        if d.seat != seat:
            continue
        for t in unseen:
            if t.pips > d.tile.pips and (d.numbers is None or t.high in d.numbers
                                         or t.low in d.numbers):
                out.add(t)
    return frozenset(out)


class Deals(Protocol):
    """Values the candidate plays of one decision over weighted sampled deals."""

    def add(self, hands: list[tuple[Tile, ...]], boneyard: list[Tile], weight: float) -> None:
        """Search the deal of ``hands`` and ``boneyard`` (draw order), counting ``weight``."""
        ...

    def totals(self) -> list[float]:
        """Each candidate's weighted value over the deals added (higher is better)."""
        ...


class PerDeal:
    """Deals whose candidates are valued deal by deal (perfect-information sampling): the
    totals are the weighted sums of ``values``."""

    legal: Sequence[Play]
    _sums: list[float] | None = None

    def values(self, hands: list[tuple[Tile, ...]], boneyard: list[Tile]) -> list[float]:
        raise NotImplementedError

    def add(self, hands: list[tuple[Tile, ...]], boneyard: list[Tile], weight: float) -> None:
        if self._sums is None:
            self._sums = [0.0] * len(self.legal)
        for i, value in enumerate(self.values(hands, boneyard)):
            self._sums[i] += weight * value

    def totals(self) -> list[float]:
        return self._sums if self._sums is not None else [0.0] * len(self.legal)


class PythonDeals(PerDeal):
    """Deals searched by ``Judge`` on a ``Position``: an exact solve once few tiles remain
    (falling back to playouts for the deal's later candidates past ``NODE_LIMIT``), else a
    heavy-tile-first playout."""

    def __init__(self, view: SeatView, judge: Judge, legal: Sequence[Play],
                 rng: random.Random) -> None:
        self.view, self.judge, self.legal, self.rng = view, judge, legal, rng

    def values(self, hands: list[tuple[Tile, ...]], boneyard: list[Tile]) -> list[float]:
        judge = self.judge
        pos = Position.from_state(state_of(self.view, hands, boneyard))
        exact = pos.tiles_left() <= EXACT_TILES
        table: dict[tuple[object, ...], tuple[float, int]] = {}
        out = []
        for play in self.legal:
            pos.play(pos.encode(play))
            value = None
            if exact:
                try:
                    value = judge.solve(pos, NODE_LIMIT, table)
                except OutOfNodes:
                    exact = False
            if value is None:
                value = judge.playout(pos, self.rng)
            pos.undo()
            out.append(value)
        return out


class CDeals(PerDeal):
    """Deals searched by the C extension (``bones.fast.search``), the same search made
    about a hundred times faster, which lets it solve deals exactly from more tiles
    (``C_EXACT_TILES``). Once one solve runs out of nodes the rest of the decision is
    played out instead, so the budget goes to many deals rather than a few hard ones."""

    def __init__(self, view: SeatView, judge: Judge, legal: Sequence[Play],
                 rng: random.Random) -> None:
        self.judge, self.rng, self.legal = judge, rng, legal
        rules = view.rules
        self.index = tile_set(rules.set).index
        # The public part of every deal: the layout, whose turn it is, the opening rule.
        public = Position.from_state(state_of(view, [()] * rules.players, []))
        self.public = public
        self.moves = [public.encode(p) for p in legal]
        self.exact = sum(view.held) <= C_EXACT_TILES
        self.spec = search.SearchSpec.for_rules(
            rules, view.seat, view.scores, betas=judge.betas,
            model_opponents=judge.model_opponents, node_limit=C_NODE_LIMIT,
            points_weight=POINTS_WEIGHT, game_weight=GAME_WEIGHT, doubles=judge.doubles)

    def deal(self, hands: list[tuple[Tile, ...]], boneyard: list[Tile],
             ) -> tuple[list[int], list[int], int, int, list[int], int, int, int, int, int]:
        """The position arguments of the C search for this decision in one sampled deal."""
        index, p = self.index, self.public
        return ([sum(1 << index[t] for t in hand) for hand in hands],
                [index[t] for t in boneyard], 0, p.to_move, p.arms, p.spinner, p.waiting,
                p.placed, p.opening, p.status)

    def values(self, hands: list[tuple[Tile, ...]], boneyard: list[Tile]) -> list[float]:
        values, steps, exact = search.evaluate(
            self.spec, *self.deal(hands, boneyard), self.moves, self.exact,
            self.rng.getrandbits(63))
        self.judge.steps += steps + C_CALL_COST
        self.exact = exact  # off for the rest of the decision once a solve ran out of nodes
        return list(values)


class NextTurnDeals(CDeals):
    """The C search with the bot's next turns played as they really will be: without seeing
    the other hand (two players).

    Solving each sampled deal as if the bot would know it later (perfect-information
    sampling) lets it pick, in every deal, the later plays that suit that deal, which no
    player can do: it overrates plays that leave it choices to make later. Here the bot's
    next ``TURNS`` turns (every one left, late in the hand) are decided once per thing it
    will have seen by then: for each candidate, the opponent's replies (and any draws or
    passes between) are taken from each deal as its kind of player would choose, the bot's
    moves are followed through those turns, and the values are summed by what the bot will
    have seen (the replies, its own moves, and the tiles it draws itself) in a trie kept in
    C (``search.sights``). At each such sight the bot gets only its best move over all the
    deals that lead there. Only turns past those are solved with every tile known.
    """

    def __init__(self, view: SeatView, judge: Judge, legal: Sequence[Play],
                 rng: random.Random) -> None:
        super().__init__(view, judge, legal, rng)
        #: Per candidate, what the bot will have seen (the public moves, its own draws with
        #: their tiles) and the weighted value of its moves there, summed over the deals.
        self.sights = search.sights(len(legal))
        playable = sum(view.held)
        if view.rules.draw:
            playable += max(0, view.boneyard_left - view.rules.reserve)
        self.depth = EVERY_TURN if playable <= ALL_TURNS_TILES else TURNS

    def add(self, hands: list[tuple[Tile, ...]], boneyard: list[Tile], weight: float) -> None:
        steps, exact = search.evaluate_sights(
            self.spec, *self.deal(hands, boneyard), self.moves, self.exact,
            self.rng.getrandbits(63), max(0, self.judge.limit - self.judge.steps),
            self.sights, weight, self.depth)
        self.judge.steps += steps + C_CALL_COST
        self.exact = exact

    def totals(self) -> list[float]:
        return list(self.sights.totals())


class Judge:
    """Values of finished or searched positions from one seat's side's point of view.

    ``scores`` are the sides' game totals before the hand (for the game bonus).
    """

    def __init__(self, rules: Rules, seat: int, scores: Sequence[int]) -> None:
        self.rules = rules
        self.side = rules.side_of(seat)
        self.score = SCORES[rules.score]
        self.scores = scores
        self.target = rules.target_points
        self.sides = [rules.side_of(s) for s in range(rules.players)]
        self.nodes = 0
        #: How strongly each seat is expected to prefer heavy tiles, and doubles, when it is
        #: not the bot's side (see ``KINDS``).
        self.betas = [BETA] * rules.players
        self.doubles = [DOUBLE] * rules.players
        #: Whether the other sides choose by that preference in exact solves (expectimax)
        #: or minimise the bot's value seeing every tile (minimax: a double-dummy solve,
        #: which the after-hand review wants).
        self.model_opponents = MODEL_OPPONENTS
        #: Work done so far: moves made in playouts and nodes searched, deals sampled at
        #: ``deal_cost`` steps each and states of deal counting at ``state_cost``.
        self.steps = 0
        self.deal_cost = 0
        self.state_cost = 0
        #: The steps the decision may spend (a search that walks many positions in one
        #: call stops solving there).
        self.limit = 1 << 62

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
        value = sign * (1.0 + POINTS_WEIGHT * points)
        if self.scores[winner] + points >= self.target:
            value += sign * GAME_WEIGHT
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

    def solve(self, pos: Position, limit: int,
              table: dict[tuple[object, ...], tuple[float, int]] | None = None) -> float:
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
                table: dict[tuple[object, ...], tuple[float, int]]) -> float:
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

    def _expected(self, pos: Position, limit: int,
                  table: dict[tuple[object, ...], tuple[float, int]]) -> float:
        """An opponent's turn under the behaviour model: the mean over its plays, weighted
        by exp(beta * pips) with the seat's beta, each searched with a full window (so
        values stay exact)."""
        moves = pos.moves()
        if len(moves) == 1:
            pos.play(moves[0])
            value = self._search(pos, -math.inf, math.inf, limit, table)
            pos.undo()
            return value
        total = weight_sum = 0.0
        for move, weight in zip(moves, self.weights(pos, moves), strict=True):
            if weight < NEGLIGIBLE:
                continue
            pos.play(move)
            total += weight * self._search(pos, -math.inf, math.inf, limit, table)
            pos.undo()
            weight_sum += weight
        return total / weight_sum


def describe(view: SeatView, play: Play, names: Sequence[str] = ()) -> str:
    """A short reason for a play, for ``hint``: what it keeps and what it sheds. ``names``
    are the seats as the screen calls them (else ``seat N``)."""
    beliefs = infer(view)
    rest = [t for t in view.hand if t != play.tile]
    reasons = []
    if play.tile.is_double:
        reasons.append("gets a double out of the hand")
    if play.tile.pips >= 9:
        reasons.append(f"sheds {play.tile.pips} pips")
    if play.end is not None and not view.layout.is_empty:
        covered = view.layout.end(play.end)
        assert covered is not None
        opened = play.tile.other(covered)
        held = sum(1 for t in rest if t.matches(opened))
        if held:
            reasons.append(f"leaves {opened} open, which you hold {held} more of")
        lacking = [s for s in range(view.rules.players)
                   if view.rules.side_of(s) != view.rules.side_of(view.seat)
                   and opened in beliefs.voids[s]]
        if lacking:
            who = " and ".join(names[s] if s < len(names) else f"seat {s}" for s in lacking)
            reasons.append(f"leaves open a number {who} {'have' if len(lacking) > 1 else 'has'} "
                           "shown to lack")
    return "; ".join(reasons) if reasons else "the best result over the deals it sampled"


