"""Deals consistent with a seat's view: the hidden hands and boneyard, sampled so that every
seat holds as many tiles as the view says and none of the numbers it is known to lack.

Search bots (``ismcts``, ``expert``) think about such determinized deals; only this module
turns a view into a full ``HandState``, and it uses nothing a seat may not see.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from bones.ai.beliefs import Beliefs, Decision, infer
from bones.engine.state import HandState
from bones.engine.tiles import Tile
from bones.engine.view import SeatView

#: Attempts to honour every known void before a deal that ignores them is accepted.
TRIES = 40


def sample_hands(view: SeatView, beliefs: Beliefs, rng: random.Random,
                 use_voids: bool = True, excluded: Sequence[frozenset[Tile]] = (),
                 ) -> tuple[list[tuple[Tile, ...]], list[Tile]]:
    """Hidden hands for the other seats and a boneyard in random draw order.

    Each seat gets none of the numbers it is known to lack (``use_voids``) and none of the
    tiles ``excluded`` names for it (what the bot believes it lacks, e.g. from how it
    plays). When no deal honours every exclusion, the exclusions are dropped first, then the
    voids."""
    others = [s for s in range(view.rules.players) if s != view.seat]
    unseen = sorted(beliefs.unseen)
    none: frozenset[Tile] = frozenset()

    def lacks(seat: int) -> int:
        void = len(beliefs.voids[seat]) if use_voids else 0
        return void * 8 + (len(excluded[seat]) if excluded else 0)

    order = sorted(others, key=lambda s: -lacks(s))
    for _ in range(TRIES if use_voids or excluded else 1):
        pool = unseen[:]
        rng.shuffle(pool)
        hands: list[tuple[Tile, ...]] = [()] * view.rules.players
        hands[view.seat] = view.hand
        for seat in order:
            void = beliefs.voids[seat] if use_voids else none
            out = excluded[seat] if excluded else none
            allowed = [t for t in pool
                       if t.high not in void and t.low not in void and t not in out]
            need = view.held[seat]
            if len(allowed) < need:
                break
            taken = allowed[:need]
            hands[seat] = tuple(taken)
            chosen = set(taken)
            pool = [t for t in pool if t not in chosen]
        else:
            return hands, pool
    if excluded:
        return sample_hands(view, beliefs, rng, use_voids)
    return sample_hands(view, beliefs, rng, use_voids=False)


def determinize(view: SeatView, rng: random.Random, beliefs: Beliefs | None = None,
                use_voids: bool = True) -> HandState:
    """A full hand state that agrees with everything ``view`` shows."""
    beliefs = beliefs if beliefs is not None else infer(view)
    return state_of(view, *sample_hands(view, beliefs, rng, use_voids))


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
