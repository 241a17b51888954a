"""``--seats human,greedy,random,cmd:./mybot.py``: who sits where, read from the command line.

Every mistake becomes one ``BonesError`` line naming where the list came from; an outside
bot whose program cannot start is refused before any game begins.
"""

from __future__ import annotations

from bones.ai.levels import LEVELS
from bones.engine.errors import BonesError
from bones.protocol.bots import is_seat_bot
from bones.protocol.external import cannot_start
from bones.table.seats import HUMAN


def parse_seats(text: str) -> tuple[str, ...]:
    """Read ``--seats``: a comma-separated list of ``human`` and bot levels."""
    return checked_seats(tuple(part.strip() if part.strip().startswith("cmd:")
                               else part.strip().lower() for part in text.split(",")))


def checked_seats(kinds: tuple[str, ...], origin: str = "--seats") -> tuple[str, ...]:
    """``kinds`` if each is ``human``, a bot level or an outside bot that can start; else a
    ``BonesError`` naming where the list came from."""
    for kind in kinds:
        if kind != HUMAN and not is_seat_bot(kind):
            known = ", ".join((HUMAN, *LEVELS, "cmd:PROGRAM"))
            raise BonesError(f'{origin}: "{kind}" is not a seat (use {known})')
        if kind.startswith("cmd:"):
            why = cannot_start(kind[4:])
            if why is not None:
                raise BonesError(f'{origin}: bot "{kind}" cannot start: {why}')
    return kinds
