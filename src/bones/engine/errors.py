"""Error types that say which mistake was made; all are ``ValueError`` so callers can catch one."""

import json
import unicodedata

#: How many characters of a value a message quotes (``quoted``) before cutting it.
QUOTED = 40


def quoted(value: object, limit: int = QUOTED) -> str:
    """``value`` as a message quotes it: as JSON text, since what it quotes came from JSON or
    is said in its terms (``true``, ``null``, ``"6-6 "``, ``[1, 2]``; never Python's ``True``
    or ``None``), cut to ``limit`` characters followed by ``...`` when longer, so that a
    message stays short whatever it was given (a seat of 4,000 digits, a page of text).
    Something JSON has no notation for is written as ``str`` writes it."""
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit + 1]  # escaping only adds characters: the cut is the same
    text = ""
    try:
        # Piece by piece (the pure-Python encoder): a long list is never written whole.
        for piece in json.JSONEncoder(ensure_ascii=False, default=str).iterencode(value):
            text += piece
            if len(text) > limit:
                break
    except (ValueError, RecursionError):  # a number past Python's digit limit, a cycle
        if isinstance(value, int):
            digits = int(value.bit_length() * 0.30103) + 1
            text = f"a number of about {digits:,} digits"
        else:
            text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit] + "..."


def one_line(text: str) -> str:
    """``text`` with every control character and line or paragraph separator written as an
    escape (``\\n``, ``\\x1b``, ``\\u2028``), so a message that quotes what it was given
    (a field name, a tile, an arm) stays one line whatever that held."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            escaped = repr(ch)[1:-1]
            out.append(escaped if escaped != ch else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


class BonesError(ValueError):
    """Base of every refusal the engine raises: the message is one line meant for a person,
    even when it quotes input that held a newline or a terminal escape."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


class InputError(BonesError):
    """Input that cannot be read at all, as opposed to one that breaks a rule: a file that
    is missing, too large, not UTF-8 text or not JSON (exit status 2, as for a flag whose
    value cannot be read)."""


class RulesError(BonesError):
    """A rules object that is unknown, malformed or cannot be dealt; names the option."""

    def __init__(self, option: str, message: str) -> None:
        self.option = option
        super().__init__(f"rules: option {quoted(option)} {message}")


class DealError(BonesError):
    """A deal or a leader that the rules do not allow (wrong sizes, a redeal, a wrong leader)."""


class IllegalMove(BonesError):
    """A move that the rules forbid at this moment; the message explains why."""
