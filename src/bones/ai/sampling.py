"""Deals consistent with a seat's view: the hidden hands and boneyard, sampled so that every
seat holds as many tiles as the view says and none of the numbers it is known to lack.

Search bots (``ismcts``, ``expert``) think about such determinized deals; only this module
turns a view into a full ``HandState``, and it uses nothing a seat may not see.
"""

from __future__ import annotations

import math
import random

from bones.ai.beliefs import Beliefs, Decision, infer
from bones.engine.state import HandState
from bones.engine.tiles import Tile
from bones.engine.view import SeatView

#: Attempts to honour every known void before a deal that ignores them is accepted.
TRIES = 40


def sample_hands(view: SeatView, beliefs: Beliefs, rng: random.Random,
                 use_voids: bool = True) -> tuple[list[tuple[Tile, ...]], list[Tile]]:
    """Hidden hands for the other seats and a boneyard in random draw order."""
    others = [s for s in range(view.rules.players) if s != view.seat]
    unseen = sorted(beliefs.unseen)
    order = sorted(others, key=lambda s: -len(beliefs.voids[s])) if use_voids else others
    for _ in range(TRIES if use_voids else 1):
        pool = unseen[:]
        rng.shuffle(pool)
        hands: list[tuple[Tile, ...]] = [()] * view.rules.players
        hands[view.seat] = view.hand
        for seat in order:
            void = beliefs.voids[seat] if use_voids else frozenset()
            allowed = [t for t in pool if t.high not in void and t.low not in void]
            need = view.held[seat]
            if len(allowed) < need:
                break
            taken = allowed[:need]
            hands[seat] = tuple(taken)
            chosen = set(taken)
            pool = [t for t in pool if t not in chosen]
        else:
            return hands, pool
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
    log = 0.0
    for d in made:
        held = set(hands[d.seat]) | d.later | {d.tile}
        if d.numbers is None:
            options = held
        else:
            options = {t for t in held if t.high in d.numbers or t.low in d.numbers}
        top = max(t.pips for t in options)
        total = sum(math.exp(beta * (t.pips - top)) for t in options)
        log += beta * (d.tile.pips - top) - math.log(total)
    return math.exp(log)
