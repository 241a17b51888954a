"""What a person types at the move prompt, read into a command.

Only the shape of the input is checked here (is it a number, a tile, an arm); whether the
move is legal is the engine's question, so its ``IllegalMove`` text is what the player sees.

>>> read_command("65r", choices=3, top=6)
TileCode(tile=Tile(high=6, low=5), end='right')
>>> read_command("2", choices=3, top=6)
Pick(number=2)
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from bones.engine.moves import Arm
from bones.engine.tiles import Tile, tile


@dataclass(frozen=True, slots=True)
class Pick:
    """A number from the list of legal plays (from 1)."""

    number: int


@dataclass(frozen=True, slots=True)
class TileCode:
    """A tile named by its halves, with the arm if one was given."""

    tile: Tile
    end: Arm | None


@dataclass(frozen=True, slots=True)
class Forced:
    """``pass`` or ``draw`` typed by hand: never needed (the game makes forced moves itself),
    but handed to the engine so its refusal explains why."""

    kind: str


@dataclass(frozen=True, slots=True)
class Help:
    """Show how to move."""


@dataclass(frozen=True, slots=True)
class Hint:
    """Ask the expert bot what it would play, and why."""


@dataclass(frozen=True, slots=True)
class Quit:
    """Leave the game (after a confirmation)."""


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the person's last play (and the moves after it)."""


@dataclass(frozen=True, slots=True)
class Sort:
    """Show the hand in the next order: by suit, by pips, as dealt."""


@dataclass(frozen=True, slots=True)
class ShowLine:
    """Show the whole layout, every tile, however long its line."""


@dataclass(frozen=True, slots=True)
class Unreadable:
    """Input that is not a command; ``reason`` is one line for the player."""

    reason: str


Command = Pick | TileCode | Forced | Help | Hint | Quit | Undo | Sort | ShowLine | Unreadable

ARM_WORDS: dict[str, Arm] = {
    "l": "left", "left": "left", "r": "right", "right": "right",
    "u": "up", "up": "up", "d": "down", "down": "down",
}

#: ``6-5``, ``6 5``, ``6/5``, ``12-10 left``, ``6-5r``.
_SPLIT = re.compile(r"^(\d+)\s*[-/|:\s]\s*(\d+)\s*([a-z]*)$")
#: ``65``, ``65r``, ``65 left``: two single-digit halves written together.
_PACKED = re.compile(r"^(\d)(\d)\s*([a-z]*)$")

HINT = "type a number from the list, a tile such as 6-5 or 65r, hint, help or quit"


def read_arm(text: str) -> Arm | None:
    """An arm from ``l``/``left``, ``r``, ``u``, ``d`` (any case), or ``None``."""
    return ARM_WORDS.get(text.strip().lower())


def _shown(words: str) -> str:
    """Typed text quoted back in a refusal: at most 12 characters, so a pasted page is not
    written back at length."""
    return words if len(words) <= 12 else words[:11] + "~"


def read_command(text: str, choices: int, top: int,
                 playable: Collection[Tile] = ()) -> Command:
    """Read one line typed at the move prompt.

    A bare number from 1 to ``choices`` picks from the list, and ``#11`` always does; any
    other two-digit number is read as a tile (``65`` is 6-5, ``03`` is 3-0: no list number
    starts with 0). Where a number is both a list number and a ``playable`` tile (``11``
    with twelve plays listed and 1-1 in hand) it is refused as unclear, naming both
    readings, rather than one of them played silently. With one play listed, an empty
    answer (Enter) picks it.
    """
    words = " ".join(text.strip().lower().split())
    if not words:
        return Pick(1) if choices == 1 else Unreadable(HINT)
    if words in ("help", "h", "?"):
        return Help()
    if words in ("hint", "?h"):
        return Hint()
    if words in ("quit", "q", "exit"):
        return Quit()
    if words == "undo":
        return Undo()
    if words == "sort":
        return Sort()
    if words in ("line", "layout"):
        return ShowLine()
    if words in ("pass", "draw"):
        return Forced(words)
    if words.lstrip("#").isdecimal() and len(words) > 9:  # no list is that long
        return Unreadable(f"there is no play {_shown(words)}: the list runs from 1 to "
                          f"{choices}")
    if words.startswith("#") and words[1:].strip().isdecimal():
        number = int(words[1:])
        if 1 <= number <= choices:
            return Pick(number)
        return Unreadable(f"there is no play {number}: the list runs from 1 to {choices}")
    if words.isdecimal() and not words.startswith("0") and 1 <= int(words) <= choices:
        packed = _PACKED.match(words)
        named = tile(int(packed[1]), int(packed[2])) if packed else None
        if named is not None and named in playable:
            return Unreadable(f"{words} is both play {words} and the tile {named} you hold: "
                              f"type {named} for the tile, or #{words} for play {words}")
        return Pick(int(words))
    if words.isdecimal() and len(words) != 2:
        above_nine = " (a tile with a half above 9 is written 12-11)" if top > 9 else ""
        return Unreadable(f"there is no play {words}: the list runs from 1 to {choices}"
                          + above_nine)
    match = _SPLIT.match(words) or _PACKED.match(words)
    if match is None:
        return Unreadable(f'"{_shown(words)}" is not a move (try a number, 6-5, 65r, help or '
                          'quit)')
    a, b, arm_word = int(match[1]), int(match[2]), match[3]
    if max(a, b) > top:
        return Unreadable(f"{max(a, b)}-{min(a, b)} is not in the double-{top} set")
    end: Arm | None = None
    if arm_word:
        end = read_arm(arm_word)
        if end is None:
            return Unreadable(f'"{_shown(arm_word)}" is not an arm: use left, right, up or '
                              "down (l, r, u, d)")
    return TileCode(tile(a, b), end)
