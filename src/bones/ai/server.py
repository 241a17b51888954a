"""``bones bot``: one of our bots as a process speaking ``bones-bot/1`` on stdin/stdout.

Each move request is turned back into a ``SeatView`` (``protocol.view_of``); the bot never
sees anything but what the request carries. Bad requests get an ``error`` reply so the
referee is not left waiting; unknown request types are ignored, as the protocol says.
"""

from __future__ import annotations

import json
import random
from typing import IO, Any

from bones import __version__
from bones.ai.base import make_bot
from bones.ai.protocol import PROTOCOL, view_of
from bones.engine.errors import BonesError


def serve(level: str, stdin: IO[str], stdout: IO[str], stderr: IO[str],
          seed: int | None = None) -> int:
    """Answer requests until ``quit`` or end of input; returns the exit status."""
    bot = make_bot(level, random.Random(seed))
    for line in stdin:
        if not line.strip():
            continue
        reply = _answer(bot, line, stderr, level)
        if reply == "quit":
            return 0
        if reply is not None:
            stdout.write(json.dumps(reply) + "\n")
            stdout.flush()
    return 0


def _answer(bot: Any, line: str, stderr: IO[str], level: str) -> dict[str, Any] | str | None:
    try:
        request = json.loads(line)
    except json.JSONDecodeError:
        print(f"bones bot: ignoring a line that is not JSON: {line.strip()[:80]}", file=stderr)
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
        view = view_of(request)
        if not view.legal:
            raise BonesError("the request gives this seat no legal play")
        play = bot.choose(view)
    except BonesError as exc:
        print(f"bones bot: {exc}", file=stderr)
        return {"id": request_id, "error": str(exc)}
    reply: dict[str, Any] = {"id": request_id, "play": str(play.tile)}
    if play.end is not None:
        reply["end"] = play.end
    return reply
