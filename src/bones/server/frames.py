"""What a browser may send, read strictly; and the JSON the server sends, escaped.

Every client frame is one JSON object of at most ``Settings.frame_bytes`` bytes, nested at
most ``Settings.frame_depth`` deep, with a ``type`` this module knows, a message ``id`` of
the client's choosing, and only the fields of its type. Anything else is refused here with a
plain reason (``FrameError``), before any table sees it. The text sent back has ``<``,
``>`` and ``&`` written as JSON escapes, so no frame or API answer ever holds markup, even
one that quotes a player's name.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import Any

from bones.record.reader import json_fault, strict_json

#: Each client frame's type and the fields it may carry besides ``type`` and ``id``:
#: ``hello`` names the seat token (``token``) or the spectator link (``watch``) and the last
#: sequence number the client has (``last``); ``move`` carries one of the view's ``legal``
#: plays; the others carry nothing.
FIELDS: dict[str, tuple[str, ...]] = {
    "hello": ("token", "watch", "last"),
    "move": ("move",),
    "undo": (),
    "hint": (),
    "next": (),
    "rematch": (),
    "back": (),
}

#: A message id: what the client chose to tell its messages apart (a replayed one is
#: refused), 1 to 64 letters, digits, ``-`` and ``_``.
MESSAGE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class FrameError(ValueError):
    """A frame refused before it reached a table: the reason, one line, for the sender."""


@dataclass(frozen=True, slots=True)
class Frame:
    """A client frame that passed every check of its shape."""

    type: str
    id: str
    fields: dict[str, Any]


def depth(text: str) -> int:
    """How deep the arrays and objects of JSON ``text`` nest (brackets inside strings do
    not count). Measured before parsing, on text already limited in size."""
    deepest = level = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            level += 1
            deepest = max(deepest, level)
        elif ch in "]}":
            level -= 1
    return deepest


def read_json(text: str, most_bytes: int, most_depth: int) -> Any:
    """``text`` as JSON within the limits, strictly (no ``NaN``, no member named twice);
    ``FrameError`` with the reason otherwise."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > most_bytes:
        raise FrameError(f"a frame may hold at most {most_bytes} bytes, not {size}")
    if depth(text) > most_depth:
        raise FrameError(f"a frame's JSON may nest at most {most_depth} levels deep")
    try:
        return strict_json(text)
    except ValueError as exc:
        raise FrameError(f"not JSON: {json_fault(exc)}") from None


def read_frame(text: str, most_bytes: int = 4096, most_depth: int = 4) -> Frame:
    """One client frame, checked: see the module's docstring."""
    doc = read_json(text, most_bytes, most_depth)
    if not isinstance(doc, dict):
        raise FrameError("a frame is a JSON object")
    kind = doc.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise FrameError(f"unknown frame type (known: {', '.join(FIELDS)})")
    ident = doc.get("id")
    if not isinstance(ident, str) or not MESSAGE_ID.fullmatch(ident):
        raise FrameError("every frame needs an id: 1 to 64 letters, digits, - or _")
    for name in doc:
        if name not in ("type", "id", *FIELDS[kind]):
            raise FrameError(f"a {kind} frame has no field {json.dumps(name)[:40]}")
    fields = {k: v for k, v in doc.items() if k not in ("type", "id")}
    if kind == "move" and not isinstance(fields.get("move"), dict):
        raise FrameError("a move frame carries a move object, one of the view's legal plays")
    if kind == "hello":
        _check_hello(fields)
    return Frame(kind, ident, fields)


def _check_hello(fields: dict[str, Any]) -> None:
    if ("token" in fields) == ("watch" in fields):
        raise FrameError("hello names either a seat token or a spectator link")
    last = fields.get("last")
    if last is not None and (not isinstance(last, int) or isinstance(last, bool) or last < 0):
        raise FrameError("last is the last sequence number the client has, a whole number")


#: One encoder for every frame (``json.dumps`` with separators builds one a call).
_JSON = json.JSONEncoder(separators=(",", ":"))


def dumps(doc: object) -> str:
    """JSON text with ``<``, ``>``, ``&`` and every character past ASCII escaped: the same
    document to a JSON reader, never markup, and always sendable (a lone surrogate that a
    client's own escapes made stays an escape)."""
    # str.replace scans in C at memchr speed; str.translate with a mapping to longer
    # strings looks up every character, and every frame to every socket passes here
    return _JSON.encode(doc).replace("<", "\\u003c").replace(">", "\\u003e") \
        .replace("&", "\\u0026")


@dataclass(slots=True)
class Bucket:
    """A token bucket: ``burst`` messages at once, refilled at ``rate`` a second."""

    rate: float
    burst: int
    tokens: float = -1.0
    stamp: float = 0.0

    def take(self, now: float | None = None) -> bool:
        """Whether one more message may pass now (and count it)."""
        self.refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def refill(self, now: float | None = None) -> float:
        """Add what has dripped in since last time; the messages that may pass now."""
        now = time.monotonic() if now is None else now
        if self.tokens < 0:  # the first message: a full bucket
            self.tokens, self.stamp = float(self.burst), now
        dripped = max(0.0, now - self.stamp) * self.rate
        self.tokens = min(float(self.burst), self.tokens + dripped)
        self.stamp = now
        return self.tokens
