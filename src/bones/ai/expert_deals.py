"""How the expert turns its sampled deals into a value for each candidate play (``Deals``):
deal by deal with the Python search (``PythonDeals``) or the C search (``CDeals``), or, with
two players, deciding its own next turns by what it will have seen rather than by the deal
(``NextTurnDeals``).

The bot (``bones.ai.expert``) decides which deals to sample and how much to weigh each; these
strategies decide what searching a deal means. They are kept apart from the bot because they
are interchangeable behind one small interface (``add`` a weighted deal, read the
``totals``), and the tests hold them against each other and against Python references.
Every setting they read comes from their judge's ``ExpertConfig``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from bones.ai.judge import Judge, Memo, OutOfNodes
from bones.ai.position import Position, tile_set
from bones.ai.sampling import state_of
from bones.engine.moves import Play
from bones.engine.state import drawable
from bones.engine.tiles import Tile
from bones.engine.view import SeatView
from bones.fast import search

#: More turns than any hand has (a double-eighteen set has 190 tiles): ``NextTurnDeals``
#: decides every turn left at this depth.
EVERY_TURN = 1000


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
    """Deals searched by ``Judge`` on a ``Position``: an exact solve once at most
    ``exact_tiles`` tiles remain (falling back to playouts for the deal's later candidates
    past ``node_limit`` nodes), else a heavy-tile-first playout."""

    def __init__(self, view: SeatView, judge: Judge, legal: Sequence[Play],
                 rng: random.Random) -> None:
        self.view, self.judge, self.legal, self.rng = view, judge, legal, rng

    def values(self, hands: list[tuple[Tile, ...]], boneyard: list[Tile]) -> list[float]:
        judge = self.judge
        config = judge.config
        pos = Position.from_state(state_of(self.view, hands, boneyard))
        exact = pos.tiles_left() <= config.exact_tiles
        table: Memo = {}
        out = []
        for play in self.legal:
            pos.play(pos.encode(play))
            value = None
            if exact:
                try:
                    value = judge.solve(pos, config.node_limit, table)
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
    (``c_exact_tiles``). Once one solve runs out of nodes the rest of the decision is
    played out instead, so the budget goes to many deals rather than a few hard ones."""

    def __init__(self, view: SeatView, judge: Judge, legal: Sequence[Play],
                 rng: random.Random) -> None:
        self.judge, self.rng, self.legal = judge, rng, legal
        config = judge.config
        rules = view.rules
        self.index = tile_set(rules.set).index
        #: Each tile's bit in a hand's mask.
        self.bits = {tile: 1 << i for tile, i in self.index.items()}
        # The public part of every deal: the layout, whose turn it is, the opening rule.
        public = Position.from_state(state_of(view, [()] * rules.players, []))
        self.public = public
        self.moves = [public.encode(p) for p in legal]
        self.exact = sum(view.held) <= config.c_exact_tiles
        self.call_cost = config.c_call_cost
        self.spec = judge.spec(config.c_node_limit)
        self.candidates = search.Candidates(
            spec=self.spec, to_move=public.to_move, arms=public.arms, spinner=public.spinner,
            waiting=public.waiting, placed=public.placed, opening=public.opening,
            status=public.status, moves=self.moves)

    def masks(self, hands: list[tuple[Tile, ...]], boneyard: list[Tile],
              ) -> tuple[list[int], list[int]]:
        """A sampled deal as the C search reads it: each hand as a mask of tile indices,
        the boneyard as tile indices."""
        bit = self.bits.__getitem__
        return [sum(map(bit, hand)) for hand in hands], list(map(self.index.__getitem__, boneyard))

    def values(self, hands: list[tuple[Tile, ...]], boneyard: list[Tile]) -> list[float]:
        held, pile = self.masks(hands, boneyard)
        values, steps, exact = search.evaluate(self.candidates, held, pile, 0, self.exact,
                                               self.rng.getrandbits(63))
        self.judge.steps += steps + self.call_cost
        self.exact = exact  # off for the rest of the decision once a solve ran out of nodes
        return list(values)


class NextTurnDeals(CDeals):
    """The C search with the bot's next turns played as they really will be: without seeing
    the other hand (two players).

    Solving each sampled deal as if the bot would know it later (perfect-information
    sampling) lets it pick, in every deal, the later plays that suit that deal, which no
    player can do: it overrates plays that leave it choices to make later. Here the bot's
    next ``turns`` turns (every one left, late in the hand) are decided once per thing it
    will have seen by then: for each candidate, the opponent's replies (and any draws or
    passes between) are taken from each deal as its kind of player would choose, the bot's
    moves are followed through those turns, and the values are summed by what the bot will
    have seen (the replies, its own moves, and the tiles it draws itself) in a trie kept in
    C (``search.sights``). At each such sight the bot gets only its best move over all the
    deals that lead there. Only turns past those are solved with every tile known.

    ``depth`` sets the turns decided by sight (``EVERY_TURN`` for all); by default it is
    worked out from the config as above.
    """

    def __init__(self, view: SeatView, judge: Judge, legal: Sequence[Play],
                 rng: random.Random, depth: int | None = None) -> None:
        super().__init__(view, judge, legal, rng)
        config = judge.config
        #: Per candidate, what the bot will have seen (the public moves, its own draws with
        #: their tiles) and the weighted value of its moves there, summed over the deals.
        self.sights = search.sights(len(legal))
        if depth is None:
            playable = sum(view.held) + drawable(view.rules, view.boneyard_left)
            depth = EVERY_TURN if playable <= config.all_turns_tiles else config.turns
        self.depth = depth

    def add(self, hands: list[tuple[Tile, ...]], boneyard: list[Tile], weight: float) -> None:
        judge = self.judge
        held, pile = self.masks(hands, boneyard)
        steps, exact = search.evaluate_sights(
            self.candidates, held, pile, 0, self.exact, self.rng.getrandbits(63),
            max(0, judge.limit - judge.steps), self.sights, weight, self.depth)
        judge.steps += steps + self.call_cost
        self.exact = exact

    def totals(self) -> list[float]:
        return list(self.sights.totals())
