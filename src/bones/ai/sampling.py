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


def likelihood(hands: list[tuple[Tile, ...]], made: tuple[Decision, ...], beta: float) -> float:
    """How likely the other seats' observed plays are if they hold ``hands``, when a player
    sheds heavier tiles more readily: P(tile) proportional to exp(beta * pips) among the
    tiles it could have played then. ``beta`` 0 makes every deal equally likely."""
    if beta == 0.0 or not made:
        return 1.0
    return math.exp(sum(_log_chance(hands, d, beta) for d in made))


def seat_likelihoods(hands: list[tuple[Tile, ...]], made: tuple[Decision, ...],
                     betas: tuple[float, ...]) -> dict[int, list[float]]:
    """For each seat with observed plays, how likely those plays are under each kind of
    player (each ``beta`` of ``betas``), if the seats hold ``hands``."""
    logs: dict[int, list[float]] = {}
    for d in made:
        row = logs.setdefault(d.seat, [0.0] * len(betas))
        options = _options(hands, d)
        for k, beta in enumerate(betas):
            row[k] += _log_chance_among(options, d.tile.pips, beta)
    return {seat: [math.exp(x) for x in row] for seat, row in logs.items()}


def _options(hands: list[tuple[Tile, ...]], d: Decision) -> list[int]:
    """The pips of the tiles the seat of ``d`` could have played then."""
    held = set(hands[d.seat]) | d.later | {d.tile}
    if d.numbers is None:
        return [t.pips for t in held]
    return [t.pips for t in held if t.high in d.numbers or t.low in d.numbers]


def _log_chance(hands: list[tuple[Tile, ...]], d: Decision, beta: float) -> float:
    return _log_chance_among(_options(hands, d), d.tile.pips, beta)


def _log_chance_among(options: list[int], pips: int, beta: float) -> float:
    """log P(playing a tile of ``pips``) among tiles of ``options`` pips, by exp(beta * pips)."""
    if beta == 0.0:
        return -math.log(len(options))
    top = max(options)
    total = sum(math.exp(beta * (p - top)) for p in options)
    return beta * (pips - top) - math.log(total)


class Reading:
    """``seat_likelihoods`` for one decision's many sampled deals, made cheap: what does not
    depend on the hidden hands (the tiles played later, which unseen tiles each play could
    have been instead, exp(-beta * pips) by table) is worked out once.

    Chances are multiplied rather than their logs added, so a seat whose plays a kind of
    player explains extremely badly (below about 1e-300) reads as 0 for that kind."""

    def __init__(self, made: tuple[Decision, ...], unseen: frozenset[Tile],
                 betas: tuple[float, ...]) -> None:
        self.betas = betas
        heaviest = max((t.pips for t in unseen), default=0)
        heaviest = max([heaviest, *(d.tile.pips for d in made),
                        *(t.pips for d in made for t in d.later)])
        #: ``fall[k][n]`` = exp(-betas[k] * n): the weight of a tile n pips below the top.
        self.fall = [[math.exp(-beta * n) for n in range(heaviest + 1)] for beta in betas]
        self.plays: list[tuple[int, int, list[int], dict[Tile, int]]] = []
        for d in made:
            known = d.later | {d.tile}
            if d.numbers is None:
                fixed = [t.pips for t in known]
                could = {t: t.pips for t in unseen}
            else:
                numbers = d.numbers
                fixed = [t.pips for t in known if t.high in numbers or t.low in numbers]
                could = {t: t.pips for t in unseen if t.high in numbers or t.low in numbers}
            self.plays.append((d.seat, d.tile.pips, fixed, could))

    def chances(self, hands: list[tuple[Tile, ...]]) -> dict[int, list[float]]:
        """For each seat with observed plays, how likely those plays are under each kind of
        player, if the seats hold ``hands``."""
        kinds = range(len(self.betas))
        out: dict[int, list[float]] = {}
        for seat, pips, fixed, could in self.plays:
            options = fixed + [could[t] for t in hands[seat] if t in could]
            top = max(options)
            row = out.get(seat)
            if row is None:
                row = out[seat] = [1.0] * len(self.betas)
            for k in kinds:
                fall = self.fall[k]
                row[k] *= fall[top - pips] / sum(fall[top - p] for p in options)
        return out
