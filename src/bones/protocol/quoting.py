"""Values named in messages as JSON writes them, and cut: what the bot protocol's error
replies and logs say about a request or a reply from a program we do not control.

A message quotes a value so its reader can tell what was wrong, in the reader's terms:
``true`` and ``null``, not Python's ``True`` and ``None``; ``"text"``, not ``'text'``. And
never whole: a seat of 4,300 digits or a list of 10,000 entries is named by its first
``QUOTE_LIMIT`` characters and ``...``, so a reply stays one short line whatever it answers.
``quoted`` is the engine's own (``bones.engine.errors``), so the engine, the record reader
and the protocol name values alike; ``in_json_terms`` rewrites the messages of code that
still writes Python's forms.
"""

from __future__ import annotations

from collections.abc import Iterable

from bones.engine.errors import QUOTED as QUOTE_LIMIT
from bones.engine.errors import quoted


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
