"""``bones bot``: one of our bots as a process speaking ``bones-bot/1`` on stdin/stdout.

Each move request is turned back into a ``SeatView`` (``codec.view_of``); the bot never
sees anything but what the request carries. Bad requests get an ``error`` reply so the
referee is not left waiting; unknown request types are ignored, as the protocol says.

Each move is thought over for the ``think`` its request carries (the referee's budget,
which it enforces at ``2 * think + 1`` seconds), no longer than ``--think`` when that is
given, and for ``--think`` (else ``DEFAULT_THINK``) when a request carries none.

Input is read in lines of at most ``MAX_REQUEST`` bytes, a bounded piece at a time: a line
past the limit is answered with an error and skipped to its end without being held, so no
input can make the process grow past a few times the limit, and Ctrl-C and SIGTERM are
heard between pieces. Every line that is not blank gets a reply except ``quit`` and the
request types the protocol says to ignore: a line that is too long, not JSON, not an
object, or a move request whose ``id`` cannot be written back gets ``{"id": null, "error":
...}``, so a referee never waits for its deadline on a line it got wrong.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator
from typing import IO, Any

from bones import __version__
from bones.ai.levels import MAX_THINK, make_bot
from bones.engine.errors import BonesError
from bones.engine.rules import is_int
from bones.protocol.codec import PROTOCOL, view_of
from bones.protocol.quoting import quoted
from bones.record.reader import is_unreadable, json_fault, strict_json

#: Seconds per move when neither the request nor ``--think`` says.
DEFAULT_THINK = 0.1
#: The longest request line read, in bytes (its newline not counted). The longest real
#: request is a move request late in a long Draw hand on a big set: 13.8 KB measured
#: (double-18, 6 players, random play), and about 40 KB as the most such a hand can write
#: (every tile played or drawn, five passes after each play; some 110 KB at 20 players).
#: 256 KiB is 6 times that and 19 times the measured one, while the Python objects a line
#: of that size parses into stay a few megabytes.
MAX_REQUEST = 1 << 18
#: The most arrays and objects a request line may open (counted before it is parsed, as
#: its brackets): a real one opens one per move and a few more, under 1,400 at 6 players,
#: while a line of nothing but ``{}`` would parse into 25 times its size in Python objects.
MAX_CONTAINERS = 20_000
#: The bytes read at a time while skipping the rest of a line past ``MAX_REQUEST``.
SKIP_CHUNK = 1 << 16
#: The longest ``id`` written back, as JSON text: a whole number or a string (a UUID is 38).
MAX_ID = 64
#: The longest error message a reply carries; the values it names are already cut
#: (``quoting``), so only a message built of many of them reaches this.
MAX_MESSAGE = 300


def serve(level: str, stdin: IO[str] | IO[bytes], stdout: IO[str], stderr: IO[str],
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

    for line in request_lines(stdin):
        if line is None:
            reply: dict[str, Any] | str | None = _refuse(
                None, f"request line longer than {MAX_REQUEST} bytes", stderr)
        elif not line.strip():
            continue
        else:
            reply = _answer(bot_for, line, stderr, level)
        if reply == "quit":
            return 0
        if reply is not None:
            stdout.write(json.dumps(reply, allow_nan=False) + "\n")
            stdout.flush()
    return 0


def request_lines(stream: IO[str] | IO[bytes], limit: int = MAX_REQUEST
                  ) -> Iterator[str | None]:
    """Each line of ``stream`` (bytes, read as UTF-8 with a replacement character for a
    byte that is not; or text), without its end, or ``None`` for a line longer than
    ``limit`` bytes, which is skipped to its end ``SKIP_CHUNK`` at a time, never held.

    ``readline`` with a size returns after that many: no line, however long, is read
    whole, and the caller's Ctrl-C or SIGTERM is heard between pieces (a read that never
    waits, from a stream that never ends, would otherwise hear neither)."""
    while True:
        part = stream.readline(limit + 1)
        if not part:
            return
        ended = part[-1:] in (b"\n", "\n")
        if not ended and len(part) > limit:
            while rest := stream.readline(SKIP_CHUNK):
                if rest[-1:] in (b"\n", "\n"):
                    break
            yield None
            continue
        body = part[:-1] if ended else part
        if isinstance(body, bytes):
            yield body.decode("utf-8", "replace")
        elif len(body.encode("utf-8", "surrogatepass")) > limit:  # counted in bytes too
            yield None
        else:
            yield body


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
    if line.count("{") + line.count("[") > MAX_CONTAINERS:
        return _refuse(None, f"the line opens more than {MAX_CONTAINERS} arrays and objects "
                       "(no request does)", stderr)
    try:
        request = strict_json(line)
    except ValueError as exc:  # malformed, NaN, too deep, a huge number, a name twice
        what = "cannot read the line" if is_unreadable(exc) else "the line is not JSON"
        return _refuse(_id_of_unreadable(line), f"{what}: {json_fault(exc)}", stderr)
    if not isinstance(request, dict):
        return _refuse(None, f"a request must be a JSON object, not {quoted(request)}", stderr)
    kind = request.get("type")
    if kind == "hello":
        return {"type": "hello", "protocol": PROTOCOL, "name": f"bones-{level} {__version__}"}
    if kind == "quit":
        return "quit"
    if kind != "move":
        return None
    request_id = request.get("id")
    if not _echoable(request_id):
        return _refuse(None, '"id" must be a whole number or a string of at most '
                       f"{MAX_ID} characters as JSON, not {quoted(request_id)}", stderr)
    try:
        view = view_of(request)
        if not view.legal:
            raise BonesError("the request gives this seat no legal play")
        play = bot_for(request).choose(view)
    except BonesError as exc:
        return _refuse(request_id, str(exc), stderr)
    reply: dict[str, Any] = {"id": request_id, "play": str(play.tile)}
    if play.end is not None:
        reply["end"] = play.end
    return reply


def _refuse(request_id: Any, message: str, stderr: IO[str]) -> dict[str, Any]:
    """The error reply, said on standard error too: one line, at most ``MAX_MESSAGE``
    characters of message."""
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + "..."
    print(f"bones bot: {message}", file=stderr)
    return {"id": request_id, "error": message}


def _echoable(request_id: Any) -> bool:
    """Whether a reply may carry ``request_id`` back as it came: absent (``null``), a whole
    number or a string, at most ``MAX_ID`` characters as JSON. Not ``1e400`` (read as
    infinity, which JSON cannot write), ``true`` or ``1.5`` (which the referee did not send
    as ids: the protocol's ids are whole numbers), nor a megabyte of text."""
    if request_id is None:
        return True
    if is_int(request_id):
        return bool(request_id.bit_length() <= 4 * MAX_ID and len(str(request_id)) <= MAX_ID)
    return isinstance(request_id, str) and len(json.dumps(request_id)) <= MAX_ID


def _id_of_unreadable(line: str) -> Any:
    """The ``id`` of a line ``strict_json`` refused, when Python's own reader takes it
    anyway (a ``NaN`` elsewhere in the request, a name given twice, nesting past our
    depth) and it is one a reply may carry; ``None`` otherwise. An error reply that names
    the request's id lets the referee tell at once which request failed."""
    try:
        doc = json.loads(line.removeprefix("\ufeff"))
    except (ValueError, RecursionError):
        return None
    found = doc.get("id") if isinstance(doc, dict) else None
    return found if _echoable(found) else None
