"""Values named in messages as JSON writes them, and cut: what the bot protocol's error
replies and logs say about a request or a reply from a program we do not control.

A message quotes a value so its reader can tell what was wrong, in the reader's terms:
``true`` and ``null``, not Python's ``True`` and ``None``; ``"text"``, not ``'text'``. And
never whole: a seat of 4,300 digits or a list of 10,000 entries is named by its first
``QUOTE_LIMIT`` characters and ``...``, so a reply stays one short line whatever it answers.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Mapping

#: The characters of a quoted value (``quoted``) before it is cut with ``...``: enough to
#: tell a value, never an echo of a megabyte of input.
QUOTE_LIMIT = 40


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as JSON writes it (``true``, ``null``, ``"text"``), cut to ``limit``
    characters and ``...`` when longer: how a message names a value it was given.

    Only the start is ever written, so a value of any size or depth costs ``limit``
    characters of work. A number JSON cannot write (infinity, from ``1e400``) is named as
    JavaScript does, ``Infinity``."""
    text = ""
    for piece in _json_pieces(value, limit + 1):
        text += piece
        if len(text) > limit:
            return text[:limit] + "..."
    return text


def _json_pieces(value: object, budget: int) -> Iterator[str]:
    """The JSON text of ``value`` in pieces, in order, of about ``budget`` characters at
    most each (a long string or number is cut to its first ``budget``); the caller stops
    once it has enough."""
    if isinstance(value, str):
        yield json.dumps(value[:budget])  # a cut string loses its closing quote in ``quoted``
    elif isinstance(value, bool) or value is None:
        yield json.dumps(value)
    elif isinstance(value, int):
        # Cut before it is written: a whole number of thousands of digits is slow to write.
        yield str(value) if value.bit_length() < 4 * budget else \
            f"{'-' if value < 0 else ''}{_leading_digits(abs(value), budget)}"
    elif isinstance(value, float):
        yield json.dumps(value) if math.isfinite(value) else \
            ("NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity")
    elif isinstance(value, Mapping):
        yield "{"
        for n, (key, item) in enumerate(value.items()):
            yield (", " if n else "") + json.dumps(str(key)[:budget]) + ": "
            yield from _json_pieces(item, budget)
        yield "}"
    elif isinstance(value, list | tuple):
        yield "["
        for n, item in enumerate(value):
            if n:
                yield ", "
            yield from _json_pieces(item, budget)
        yield "]"
    else:  # not a JSON value (a request holds none): its text, cut
        yield str(value)[:budget]


def _leading_digits(value: int, count: int) -> str:
    """The first ``count`` digits of the positive whole number ``value`` (which has more),
    without writing all of them."""
    digits = int(value.bit_length() * math.log10(2))  # one short of its length, or exact
    while 10 ** digits <= value:
        digits += 1
    return str(value // 10 ** (digits - count))


def in_json_terms(message: str, values: Iterable[object]) -> str:
    """``message``, from code that writes the values it was given as Python does
    (``True``, ``None``, ``'text'``, or whole and in double quotes), with each of ``values``
    written as ``quoted`` writes it instead: a reply to a program speaks JSON, and never
    echoes a long input whole."""
    found: dict[str, str] = {}
    for value in values:
        wanted = quoted(value)
        for spelling in _spellings(value):
            if spelling != wanted and spelling in message:
                found[spelling] = wanted
    for spelling in sorted(found, key=len, reverse=True):  # "'ab'" before "ab"
        message = message.replace(spelling, found[spelling])
    return message


def _spellings(value: object) -> tuple[str, ...]:
    """How Python code may have written ``value`` in a message."""
    if isinstance(value, int) and not isinstance(value, bool) \
            and value.bit_length() > 4 * QUOTE_LIMIT:  # long: written whole (slow) only here
        return (str(value),)
    return (repr(value), f'"{value}"')


__all__ = ["QUOTE_LIMIT", "in_json_terms", "quoted"]
