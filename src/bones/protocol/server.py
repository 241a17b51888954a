"""``bones bot``: one of our bots as a process speaking ``bones-bot/1`` on stdin/stdout.

Each move request is turned back into a ``SeatView`` (``codec.view_of``); the bot never
sees anything but what the request carries. Bad requests get an ``error`` reply so the
referee is not left waiting; unknown request types are ignored, as the protocol says.

Each move is thought over for the ``think`` its request carries (the referee's budget,
which it enforces at ``2 * think + 1`` seconds), no longer than ``--think`` when that is
given, and for ``--think`` (else ``DEFAULT_THINK``) when a request carries none.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from typing import IO, Any

from bones import __version__
from bones.ai.levels import MAX_THINK, make_bot
from bones.engine.errors import BonesError
from bones.protocol.codec import PROTOCOL, view_of
from bones.record.reader import is_unreadable, json_fault, strict_json

#: Seconds per move when neither the request nor ``--think`` says.
DEFAULT_THINK = 0.1


def serve(level: str, stdin: IO[str], stdout: IO[str], stderr: IO[str],
          seed: int | None = None, think: float | None = None) -> int:
    """Answer requests until ``quit`` or end of input; returns the exit status.

    ``think`` caps the seconds spent on any move (see the module's docstring)."""
    rng = random.Random(seed)
    # Bots keep nothing between moves, so a new think time just makes a new one, drawing on
    # the one seeded rng (a seeded process answers the same requests the same way).
    current: dict[float, Any] = {}

    def bot_for(request: dict[str, Any]) -> Any:
        budget = _think(request.get("think"), think)
        if budget not in current:
            current.clear()
            current[budget] = make_bot(level, rng, budget)
        return current[budget]

    for line in stdin:
        if not line.strip():
            continue
        reply = _answer(bot_for, line, stderr, level)
        if reply == "quit":
            return 0
        if reply is not None:
            stdout.write(json.dumps(reply, allow_nan=False) + "\n")
            stdout.flush()
    return 0


def _think(asked: Any, cap: float | None) -> float:
    """The seconds to spend on a move: the request's ``think`` if it is a positive number,
    at most ``cap`` and at most ``MAX_THINK``; ``cap`` (else ``DEFAULT_THINK``) otherwise."""
    fallback = cap if cap is not None else DEFAULT_THINK
    if isinstance(asked, bool) or not isinstance(asked, int | float) or asked <= 0 \
            or (isinstance(asked, float) and math.isnan(asked)):
        return fallback
    # Compared before converting: a whole number past 1e308 has no float.
    limit = min(cap, MAX_THINK) if cap is not None else MAX_THINK
    return float(asked) if asked < limit else limit


def _answer(bot_for: Callable[[dict[str, Any]], Any], line: str, stderr: IO[str],
            level: str) -> dict[str, Any] | str | None:
    try:
        request = strict_json(line)
    except ValueError as exc:  # malformed, NaN, too deep, a huge number
        what = f"it cannot read ({json_fault(exc)})" if is_unreadable(exc) else "that is not JSON"
        print(f"bones bot: ignoring a line {what}: {line.strip()[:80]}", file=stderr)
        return None
    if not isinstance(request, dict):
        return None
    kind = request.get("type")
    if kind == "hello":
        return {"type": "hello", "protocol": PROTOCOL, "name": f"bones-{level} {__version__}"}
    if kind == "quit":
        return "quit"
    if kind != "move":
        return None
    request_id = request.get("id")
    try:
        json.dumps(request_id, allow_nan=False)
    except ValueError:  # an id of 1e400 reads as infinity, which JSON cannot write back
        print("bones bot: ignoring a move request whose id cannot be written back as JSON "
              f"({request_id!r})", file=stderr)
        return None
    try:
        view = view_of(request)
        if not view.legal:
            raise BonesError("the request gives this seat no legal play")
        play = bot_for(request).choose(view)
    except BonesError as exc:
        print(f"bones bot: {exc}", file=stderr)
        return {"id": request_id, "error": str(exc)}
    reply: dict[str, Any] = {"id": request_id, "play": str(play.tile)}
    if play.end is not None:
        reply["end"] = play.end
    return reply
