"""``expert``: belief-driven search. It samples deals consistent with everything its seat has
seen (tiles played, hand sizes, and the numbers each seat has shown it lacks by passing or
drawing), evaluates each candidate play in every sampled deal, and plays the best on average.

This module is the bot itself: what it reads from the view, which deals it samples and how
it weighs them, and the budget it spends. Its search of one deal is ``bones.ai.judge``
(``Judge``, with the C search ``bones.fast.search`` beside it), the ways of turning searched
deals into values for its candidates are ``bones.ai.expert_deals``, its settings are one
``ExpertConfig`` (``bones.ai.expert_config``; the defaults are the shipped bot), and the
reason its hint gives is ``bones.ai.explain``.

What the other seats chose to play is evidence too. Each is read as one of a few kinds of
player (``ExpertConfig.kinds``: indifferent to pips, leaning to heavy tiles, shedding doubles
first, or always shedding its heaviest), by Bayes' rule over deals and kinds together;
sampled deals are weighed by how well they explain the plays, and a seat that looks like a
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

import random
import time
from dataclasses import dataclass

from bones.ai.beliefs import Beliefs, Decision, decisions, infer
from bones.ai.budget import safety_net
from bones.ai.expert_config import DEFAULT_CONFIG, ExpertConfig
from bones.ai.expert_deals import CDeals, Deals, NextTurnDeals, PythonDeals
from bones.ai.judge import Judge
from bones.ai.sampling import Dealer, Reading, set_scale
from bones.engine.moves import Play
from bones.engine.tiles import Tile
from bones.engine.view import SeatView
from bones.fast import search
from bones.fast.paths import Backend, default_backend


class ExpertBot:
    """The strongest level. ``inference=False`` samples deals ignoring what passes and draws
    reveal (for measuring what that inference is worth: the ``expert-noinfer`` level).
    ``steps`` overrides the budget the think time buys, ``backend`` the search path, and
    ``config`` the settings (``ExpertConfig()``: the shipped bot)."""

    def __init__(self, rng: random.Random, *, think: float = 0.1, inference: bool = True,
                 steps: int | None = None, backend: Backend | None = None,
                 config: ExpertConfig = DEFAULT_CONFIG) -> None:
        self.rng = rng
        self.think = think
        self.inference = inference
        self.config = config
        #: Where sampled deals are searched: ``"c"`` (``bones.fast.search``) when it is
        #: built, else ``"python"`` (``Judge``); ``BONES_PURE=1`` chooses Python.
        self.backend: Backend = backend or ("c" if search.available()
                                            and default_backend() == "c" else "python")
        if self.backend == "c" and not search.available():
            raise ValueError(search.MISSING)
        cost = config.cost(self.backend)
        self.deal_per_seat = cost.deal_per_seat
        self.per_state = cost.per_state
        self.steps = steps if steps is not None else max(40 * cost.deal_per_seat,
                                                         int(think * cost.per_second))
        self.name = "expert" if inference else "expert-noinfer"
        #: Each kind's prior, read for every seat of every candidate deal.
        self.priors = tuple(kind.prior for kind in config.kinds)
        #: The same bot searching with the Python judge, for rules the C search does not
        #: support (``search.supports``): made when first needed, sharing this one's rng.
        self._python: ExpertBot | None = None

    def _fallback(self, view: SeatView) -> ExpertBot | None:
        """The Python twin when the C search cannot value these rules, else ``None``."""
        if self.backend != "c" or search.supports(view.rules) is None:
            return None
        if self._python is None:
            self._python = ExpertBot(self.rng, think=self.think, inference=self.inference,
                                     backend="python", config=self.config)
        return self._python

    def choose(self, view: SeatView) -> Play:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if (twin := self._fallback(view)) is not None:
            return twin.choose(view)
        config = self.config
        beliefs = infer(view)
        if not self.inference:
            beliefs = Beliefs(tuple(frozenset() for _ in beliefs.voids), beliefs.unseen,
                              beliefs.last_exposed)
        made = decisions(view) if self.inference else ()
        scale = set_scale(view.rules)
        dealer = Dealer(view, beliefs, self.inference)
        kinds = self._read_kinds(dealer, made) if made else None
        judge = Judge(view.rules, view.seat, view.scores, config=config,
                      betas=kinds.betas if kinds else None,
                      doubles=kinds.doubles if kinds else None, limit=self.steps,
                      deal_cost=int(self.deal_per_seat * view.rules.players * scale),
                      state_cost=int(self.per_state * scale))
        if kinds is not None:  # the deals the reading drew, and the counting they took
            judge.charge(config.prepass, dealer.work())
        deals: Deals
        if self.backend == "python":
            deals = PythonDeals(view, judge, legal, self.rng)
        elif view.rules.players == 2 and config.information_sets:
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

    def _read_kinds(self, dealer: Dealer, made: tuple[Decision, ...]) -> Kinds:
        """Judge each other seat's kind of player from its plays so far (Bayes over
        ``config.prepass`` deals sampled from what the seat is known to lack), which is also
        the search's model of it.

        Returns, per seat, the tiles it lacks if it always sheds its heaviest (any tile
        heavier than one it played that it could have played instead) and the chance that
        it is that kind; that share of the sampled deals then leaves those tiles out of its
        hand, which a deal drawn blind would rarely do once the seat has made a few plays.
        The deals drawn are not charged to any budget here (``Judge.charge``)."""
        view, beliefs = dealer.view, dealer.beliefs
        config = self.config
        kinds = config.kinds
        reading = Reading(made, beliefs.unseen, tuple((k.beta, k.double) for k in kinds))
        evidence: dict[int, list[float]] = {}
        for _ in range(config.prepass):
            hands, _ = dealer.deal(self.rng)
            for seat, chances in reading.chances(hands).items():
                row = evidence.setdefault(seat, [0.0] * len(kinds))
                for k, c in enumerate(chances):
                    row[k] += c
        players = view.rules.players
        excluded = [frozenset[Tile]() for _ in range(players)]
        greedy = [0.0] * players
        betas = [config.beta] * players
        doubles = [config.double] * players
        for seat, row in evidence.items():
            weighed = [kind.prior * e for kind, e in zip(kinds, row, strict=True)]
            total = sum(weighed)
            if total <= 0.0:
                continue
            best = kinds[max(range(len(kinds)), key=lambda k: weighed[k])]
            betas[seat], doubles[seat] = best.beta, best.double
            greedy[seat] = weighed[-1] / total
            excluded[seat] = heavier_than_played(made, seat, beliefs.unseen)
        return Kinds(reading, excluded, greedy, betas, doubles)

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

        With plays to read, a batch of ``config.candidates`` candidates is drawn (each
        leaving out at most one seat's ``kinds.excluded`` tiles, ``_ruled_out``) and weighed
        by how well it explains every seat's plays under the mixture of ``config.kinds``.
        The Python search is dear, so it searches one candidate picked by weight (sampling
        importance resampling); the C search is cheaper than drawing a deal, so it searches
        every candidate that carries weight, which wastes none of them."""
        if kinds is None:
            hands, boneyard = dealer.deal(self.rng)
            judge.charge(1, dealer.work())
            return [(hands, boneyard, 1.0)]
        config = self.config
        candidates = [dealer.deal(self.rng, self._ruled_out(kinds))
                      for _ in range(config.candidates)]
        weights = []
        priors = self.priors
        for hands, _ in candidates:
            weight = 1.0
            for chances in kinds.reading.chances(hands).values():
                weight *= sum(p * c for p, c in zip(priors, chances, strict=True))
            weights.append(weight)
        judge.charge(config.candidates, dealer.work())
        total = sum(weights)
        if total <= 0.0:
            return [(*candidates[0], 1.0)]
        if self.backend == "python":
            return [(*self.rng.choices(candidates, weights)[0], 1.0)]
        floor = max(weights) * config.negligible_deal
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
    #: Per seat, the search's model of it: the beta and double bonus of the kind that
    #: explains its plays best (``config.beta`` and ``config.double`` where they told
    #: nothing).
    betas: list[float]
    doubles: list[float]


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
