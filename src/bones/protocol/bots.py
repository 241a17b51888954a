"""The bot for a seat by name: one of bones's own levels (``bones.ai.levels``) or an outside
program speaking ``bones-bot/1`` (``cmd:PROGRAM``, ``external``). Every table that seats
bots (simulations, the arena, the terminal game) makes them here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import IO

from bones.ai.base import Bot
from bones.ai.levels import LEVELS, make_bot
from bones.engine.errors import BonesError
from bones.protocol.external import ExternalBot

#: What starts the name of an outside bot: ``cmd:`` and the command line that runs it.
OUTSIDE = "cmd:"


def is_seat_bot(kind: str) -> bool:
    """Whether ``kind`` names a bot: one of ``LEVELS`` or ``cmd:PROGRAM``."""
    return kind in LEVELS or (kind.startswith(OUTSIDE) and len(kind) > len(OUTSIDE))


def make_seat_bot(kind: str, rng: random.Random, think: float = 1.0,
                  log: IO[str] | None = None,
                  cancelled: Callable[[], None] | None = None) -> Bot:
    """A bot of ``kind``: one of ``LEVELS``, or ``cmd:PROGRAM`` for an outside bot process
    speaking ``bones-bot/1``, whose faults go to ``log`` (standard error by default) and
    which, waiting for a reply, calls ``cancelled`` (when given) in case it raises to give
    the wait up (``ExternalBot``); ``BonesError`` naming the known kinds otherwise."""
    if kind.startswith(OUTSIDE):
        return ExternalBot(kind[len(OUTSIDE):], rng, think, log, cancelled)
    if kind not in LEVELS:
        raise BonesError(f"unknown bot {kind!r} (known: {', '.join(LEVELS)}, or "
                         "cmd:PROGRAM)")
    return make_bot(kind, rng, think)
