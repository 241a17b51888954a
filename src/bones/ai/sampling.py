"""Deals consistent with a seat's view: the hidden hands and boneyard, sampled so that every
seat holds as many tiles as the view says, each part of its hand none of the numbers that
part is known to lack (``Beliefs.parts``), and every such deal is equally likely
(``bones.ai.dealing``); and how likely the other seats' plays are under each kind of
player, to weigh those deals by.

Search bots (``ismcts``, ``expert``) think about such determinized deals; only this module
turns a view into a full ``HandState``, and it uses nothing a seat may not see.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from bones.ai.beliefs import Beliefs, Decision, infer
from bones.ai.dealing import DealCount, Sequential, TooDear
from bones.engine.rules import Rules
from bones.engine.state import HandState
from bones.engine.tiles import Tile
from bones.engine.view import SeatView

#: Counting the deals that honour exclusions (a guess at how a seat plays, not a fact) may
#: visit at most this many states; past it the exclusions are dropped.
EXCLUDED_STATES = 200
#: Counting the deals that honour the known voids may visit at most this many states
#: (about 25 us each; double-six tables take at most about a hundred, double-nine with four
#: players up to about a thousand); past it the deals are drawn seat after seat
#: (``Sequential``), close to uniform. Both limits are for a double-six set and shrink
#: by ``set_scale`` for larger ones, whose states cost more.
VOID_STATES = 1_000
#: The tiles of the double-six set, on which the costs of this module's work were measured.
DOUBLE_SIX_TILES = 28


def set_scale(rules: Rules) -> float:
    """How much dearer sampling and counting deals are than with a double-six set: shuffling
    the unseen tiles, weighing a deal against each seat's plays and splitting a group of
    tiles among the seats all grow with the set, roughly in proportion to its tiles. (With
    double-twelve and eight players a deal took about 0.5 ms and a counting state 40 to
    80 us, where double-six ones take about 0.17 ms and 25 us.)"""
    return max(rules.tiles, DOUBLE_SIX_TILES) / DOUBLE_SIX_TILES


class Dealer:
    """Deals consistent with one seat's view, drawn uniformly among those it allows
    (``bones.ai.dealing``): the other seats' hidden hands and the boneyard in random draw
    order.

    Each part of a seat's hand (``Beliefs.parts``: the tiles it held at a pass or draw lack
    more numbers than those it drew since) gets none of the numbers it is known to lack
    (``use_voids``), each part dealt as a seat of its own, and every seat, per deal,
    none of the tiles ``excluded`` names for it (what the bot believes it lacks, e.g. from
    how it plays). A decision draws many deals under a few sets of such constraints, so
    each set's table is counted once; ``work`` tells how many states that took, which a
    search bot charges to its budget."""

    def __init__(self, view: SeatView, beliefs: Beliefs, use_voids: bool = True) -> None:
        self.view = view
        self.beliefs = beliefs
        self.use_voids = use_voids
        self.others = tuple(s for s in range(view.rules.players) if s != view.seat)
        self._scale = set_scale(view.rules)
        self._work = 0
        self._tables: dict[tuple[bool, tuple[frozenset[Tile], ...]],
                           tuple[DealCount | Sequential | None, tuple[int, ...]]] = {}

    def deal(self, rng: random.Random, excluded: Sequence[frozenset[Tile]] = (),
             ) -> tuple[list[tuple[Tile, ...]], list[Tile]]:
        """Hands for every seat (the viewer's own as it is) and the boneyard. When no deal
        honours every exclusion, or counting those deals would visit more than
        ``EXCLUDED_STATES`` states, the exclusions are dropped; when none honours the voids
        (which inference from a legal record never makes so), they are dropped too."""
        none: frozenset[Tile] = frozenset()
        outs = tuple(excluded[s] if excluded else none for s in self.others)
        plain = tuple(none for _ in outs)
        attempts = [(self.use_voids, outs)]
        if any(outs):
            attempts.append((self.use_voids, plain))
        if self.use_voids:
            attempts.append((False, plain))
        dealt = None
        for use_voids, constraints in attempts:
            table, owners = self._table(use_voids, constraints)
            dealt = table.deal(rng) if table is not None else None
            if dealt is not None:
                break
        assert dealt is not None, "a deal that ignores every void always exists"
        hidden, boneyard = dealt
        hands: list[tuple[Tile, ...]] = [()] * self.view.rules.players
        hands[self.view.seat] = self.view.hand
        for seat, part in zip(owners, hidden, strict=True):
            hands[seat] += part
        return hands, boneyard

    def work(self) -> int:
        """The states of deal counting (``DealCount.states``) worked out since the last call."""
        done, self._work = self._work, 0
        return done

    def _parts(self, seat: int, use_voids: bool) -> tuple[tuple[frozenset[int], int], ...]:
        """The parts of ``seat``'s hand to deal, as (numbers lacked, tiles): those
        ``Beliefs.parts`` gives, or the whole hand lacking its ``voids``."""
        held = self.view.held[seat]
        if not use_voids:
            return ((frozenset(), held),)
        parts = self.beliefs.parts[seat] if self.beliefs.parts else ()
        if sum(count for _, count in parts) != held:
            return ((self.beliefs.voids[seat], held),)
        return parts

    def _table(self, use_voids: bool, outs: tuple[frozenset[Tile], ...],
               ) -> tuple[DealCount | Sequential | None, tuple[int, ...]]:
        """The deals for one set of constraints: counted (``DealCount``), or seat after seat
        (``Sequential``) when counting the known voids alone would pass ``VOID_STATES`` states;
        ``None`` when no deal meets them or counting the exclusions too would pass
        ``EXCLUDED_STATES``. Each part of a hand (``_parts``) is dealt as a seat of its own;
        the seat each belongs to comes with the table."""
        key = (use_voids, outs)
        if key in self._tables:
            return self._tables[key]
        unseen = self.beliefs.unseen
        allowed = []
        needs = []
        owners = []
        for seat, out in zip(self.others, outs, strict=True):
            for lacked, count in self._parts(seat, use_voids):
                allowed.append(frozenset(t for t in unseen if t.high not in lacked
                                         and t.low not in lacked and t not in out))
                needs.append(count)
                owners.append(seat)
        tiles = sorted(unseen)
        limit = EXCLUDED_STATES if any(outs) else VOID_STATES
        table = DealCount(tiles, needs, allowed, int(limit / self._scale))
        found: DealCount | Sequential | None
        try:
            found = table if table.possible else None
        except TooDear:
            found = None if any(outs) else Sequential(tiles, needs, allowed)
        self._work += table.states
        self._tables[key] = found, tuple(owners)
        return self._tables[key]


def sample_hands(view: SeatView, beliefs: Beliefs, rng: random.Random,
                 use_voids: bool = True, excluded: Sequence[frozenset[Tile]] = (),
                 ) -> tuple[list[tuple[Tile, ...]], list[Tile]]:
    """One deal from a ``Dealer`` made for it (many deals should share a dealer)."""
    return Dealer(view, beliefs, use_voids).deal(rng, excluded)


def determinize(view: SeatView, rng: random.Random, dealer: Dealer | None = None,
                ) -> HandState:
    """A full hand state that agrees with everything ``view`` shows."""
    dealer = dealer if dealer is not None else Dealer(view, infer(view))
    return state_of(view, *dealer.deal(rng))


def state_of(view: SeatView, hands: list[tuple[Tile, ...]], boneyard: list[Tile]) -> HandState:
    """The hand state of ``view`` completed with sampled hidden hands and boneyard."""
    return HandState(
        rules=view.rules,
        hands=tuple(hands),
        boneyard=tuple(boneyard),
        layout=view.layout,
        leader=view.leader,
        to_move=view.to_move,
        deal=tuple(hands),
        opening=view.opening,
        moves=view.moves,
    )


#: A kind of player, as (beta, bonus): it plays a tile with weight exp(beta * pips), times
#: exp(bonus) for a double, among the tiles it could play.
Kind = tuple[float, float]


def likelihood(hands: list[tuple[Tile, ...]], made: tuple[Decision, ...], beta: float,
               bonus: float = 0.0) -> float:
    """How likely the other seats' observed plays are if they hold ``hands``, when a player
    sheds heavier tiles (and doubles) more readily: P(tile) proportional to
    exp(beta * pips + bonus * double) among the tiles it could have played then. ``beta``
    and ``bonus`` 0 make every deal equally likely."""
    if (beta == 0.0 and bonus == 0.0) or not made:
        return 1.0
    return math.exp(sum(_log_chance(hands, d, (beta, bonus)) for d in made))


def seat_likelihoods(hands: list[tuple[Tile, ...]], made: tuple[Decision, ...],
                     kinds: Sequence[Kind]) -> dict[int, list[float]]:
    """For each seat with observed plays, how likely those plays are under each kind of
    player (each ``(beta, bonus)`` of ``kinds``), if the seats hold ``hands``."""
    logs: dict[int, list[float]] = {}
    for d in made:
        row = logs.setdefault(d.seat, [0.0] * len(kinds))
        options = _options(hands, d)
        for k, kind in enumerate(kinds):
            row[k] += _log_chance_among(options, d.tile, kind)
    return {seat: [math.exp(x) for x in row] for seat, row in logs.items()}


def _options(hands: list[tuple[Tile, ...]], d: Decision) -> list[Tile]:
    """The tiles the seat of ``d`` could have played then."""
    held = set(hands[d.seat]) | d.later | {d.tile}
    if d.numbers is None:
        return list(held)
    return [t for t in held if t.high in d.numbers or t.low in d.numbers]


def _log_chance(hands: list[tuple[Tile, ...]], d: Decision, kind: Kind) -> float:
    return _log_chance_among(_options(hands, d), d.tile, kind)


def _score(tile: Tile, kind: Kind) -> float:
    beta, bonus = kind
    return beta * tile.pips + (bonus if tile.is_double else 0.0)


def _log_chance_among(options: list[Tile], tile: Tile, kind: Kind) -> float:
    """log P(playing ``tile``) among ``options``, by exp(score) with the kind's score."""
    scores = [_score(t, kind) for t in options]
    top = max(scores)
    return _score(tile, kind) - top - math.log(sum(math.exp(x - top) for x in scores))


class Reading:
    """``seat_likelihoods`` for one decision's many sampled deals, made cheap: what does not
    depend on the hidden hands (the tiles played later, which unseen tiles each play could
    have been instead, and every tile's weight under each kind) is worked out once.

    Chances are multiplied rather than their logs added, so a seat whose plays a kind of
    player explains extremely badly (below about 1e-300) reads as 0 for that kind."""

    def __init__(self, made: tuple[Decision, ...], unseen: frozenset[Tile],
                 kinds: Sequence[Kind]) -> None:
        self.kinds = tuple(kinds)
        tiles = set(unseen) | {d.tile for d in made} | {t for d in made for t in d.later}
        # Scores are taken from the top score of all these tiles, so weights stay in (0, 1].
        tops = [max((_score(t, kind) for t in tiles), default=0.0) for kind in self.kinds]
        weight = {t: tuple(math.exp(_score(t, kind) - top)
                           for kind, top in zip(self.kinds, tops, strict=True))
                  for t in tiles}
        self.plays: list[tuple[int, tuple[float, ...], tuple[float, ...],
                               dict[Tile, tuple[float, ...]]]] = []
        for d in made:
            known = d.later | {d.tile}
            if d.numbers is None:
                fixed = list(known)
                could = {t: weight[t] for t in unseen}
            else:
                numbers = d.numbers
                fixed = [t for t in known if t.high in numbers or t.low in numbers]
                could = {t: weight[t] for t in unseen if t.high in numbers or t.low in numbers}
            fixed_sum = tuple(sum(weight[t][k] for t in fixed) for k in range(len(self.kinds)))
            self.plays.append((d.seat, weight[d.tile], fixed_sum, could))

    def chances(self, hands: list[tuple[Tile, ...]]) -> dict[int, list[float]]:
        """For each seat with observed plays, how likely those plays are under each kind of
        player, if the seats hold ``hands``."""
        out: dict[int, list[float]] = {}
        for seat, chosen, fixed_sum, could in self.plays:
            extra = [could[t] for t in hands[seat] if t in could]
            # per kind: the weights of the tiles it could have played, summed
            sums = ([f + sum(column)
                     for f, column in zip(fixed_sum, zip(*extra, strict=True), strict=True)]
                    if extra else fixed_sum)
            row = out.get(seat)
            if row is None:
                out[seat] = [c / total for c, total in zip(chosen, sums, strict=True)]
            else:
                out[seat] = [r * c / total for r, c, total in zip(row, chosen, sums,
                                                                     strict=True)]
        return out
