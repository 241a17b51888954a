"""The bot interface and the registry of levels by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from bones.engine.moves import Play
from bones.engine.view import SeatView


class Bot(Protocol):
    """Chooses a play from what its seat may see. Called only when the seat must play a tile
    (draws and passes are forced and made by the referee)."""

    name: str

    def choose(self, view: SeatView) -> Play:
        """One of ``view.legal``."""
        ...


def _random(rng: random.Random) -> Bot:
    from bones.ai.simple import RandomBot

    return RandomBot(rng)


def _greedy(rng: random.Random) -> Bot:
    from bones.ai.simple import GreedyBot

    return GreedyBot(rng)


def _basic(rng: random.Random) -> Bot:
    from bones.ai.basic import BasicBot

    return BasicBot(rng)


#: Bot levels by name; each factory takes the RNG the bot will use.
BOTS: dict[str, Callable[[random.Random], Bot]] = {
    "random": _random,
    "greedy": _greedy,
    "basic": _basic,
}


def make_bot(level: str, rng: random.Random, think: float = 1.0) -> Bot:
    """A bot of ``level`` (one of ``BOTS``, or ``cmd:PROGRAM`` for an outside bot process
    speaking ``bones-bot/1``); ``ValueError`` naming the known levels otherwise."""
    if level.startswith("cmd:"):
        from bones.ai.external import ExternalBot

        return ExternalBot(level[4:], rng, think)
    try:
        factory = BOTS[level]
    except KeyError:
        raise ValueError(f"unknown bot {level!r} (known: {', '.join(BOTS)})") from None
    return factory(rng)
