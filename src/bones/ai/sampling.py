"""Deals consistent with a seat's view: the hidden hands and boneyard, sampled so that every
seat holds as many tiles as the view says and none of the numbers it is known to lack.

Search bots (``ismcts``, ``expert``) think about such determinized deals; only this module
turns a view into a full ``HandState``, and it uses nothing a seat may not see.
"""

from __future__ import annotations

import random

from bones.ai.beliefs import Beliefs, infer
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
    hands, boneyard = sample_hands(view, beliefs, rng, use_voids)
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
