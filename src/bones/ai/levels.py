"""bones's own bot levels by name: the registry the command line, the referee and ``bones bot``
choose from.

Outside bots (``cmd:PROGRAM``) are not here: they belong to the bot protocol, above this
package (``bones.protocol.bots.make_seat_bot`` makes either kind).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bones.ai.base import Bot
from bones.ai.basic import BasicBot
from bones.ai.expert import ExpertBot
from bones.ai.ismcts import IsmctsBot
from bones.ai.simple import GreedyBot, RandomBot
from bones.engine.errors import BonesError


def _expert_noinfer(rng: random.Random, think: float) -> Bot:
    return ExpertBot(rng, think=think, inference=False)


#: Bot levels by name; each factory takes the RNG the bot will use.
BOTS: dict[str, Callable[[random.Random], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "basic": BasicBot,
}

#: Search bots, whose factories also take the think time per move in seconds.
SEARCH_BOTS: dict[str, Callable[[random.Random, float], Bot]] = {
    "ismcts": lambda rng, think: IsmctsBot(rng, think=think),
    "expert": lambda rng, think: ExpertBot(rng, think=think),
    "expert-noinfer": _expert_noinfer,
}

#: The longest think time per move, in seconds, that any bot is given: the command line
#: refuses more, and a bot-protocol request asking more gets this (its ``think`` is what
#: the bot *may* spend). Far beyond any table's patience, and it keeps the search bots'
#: step budgets within the integers their searches count in.
MAX_THINK = 600.0

#: Every level name, in order of strength.
LEVELS: tuple[str, ...] = (*BOTS, *SEARCH_BOTS)


def make_bot(level: str, rng: random.Random, think: float = 1.0) -> Bot:
    """A bot of ``level`` (one of ``LEVELS``), thinking ``think`` seconds per move if it
    searches; ``BonesError`` naming the known levels otherwise."""
    if level in SEARCH_BOTS:
        return SEARCH_BOTS[level](rng, think)
    try:
        factory = BOTS[level]
    except KeyError:
        raise BonesError(f"unknown bot {level!r} (known: {', '.join(LEVELS)})") from None
    return factory(rng)
