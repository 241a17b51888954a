"""The two beginner bots: ``random`` (any legal play) and ``greedy`` (the heaviest tile)."""

from __future__ import annotations

import random

from bones.engine.moves import Play
from bones.engine.tiles import weight
from bones.engine.view import SeatView


class RandomBot:
    """Plays a uniformly random legal move: the baseline every other bot must beat."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Play:
        return self.rng.choice(view.legal)


class GreedyBot:
    """Sheds the heaviest playable tile (fewest pips caught if the hand is lost); ties between
    arms are broken at random."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Play:
        legal = view.legal
        best = max(weight(p.tile) for p in legal)
        return self.rng.choice([p for p in legal if weight(p.tile) == best])
