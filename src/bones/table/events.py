"""What happened at a table, as values: each ``advance``, ``submit`` and ``undo`` returns a
list of them, numbered in the order they happened (``seq``), so a front end can tell a
client only what it missed.

Events are named tuples: immutable values, and cheap to make, which matters at a table of
bots that makes thousands of moves a second (their ``seq`` tells any two apart). Events
hold the referee's truth (a draw names its tile); ``bones.table.wire`` turns each into the
JSON a given seat, or a spectator, may see.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from bones.engine.game import HandResult
from bones.engine.moves import Move
from bones.engine.tiles import Tile

#: Who made a move: a person, a bot, the table because the rules left no choice (a draw or
#: a pass), or the table in place of an outside bot that answered late or wrongly.
Maker = Literal["person", "bot", "forced", "played-for"]


class HandDealt(NamedTuple):
    """A hand was dealt (``hand`` counts from 1); ``leader`` sets its first tile."""

    seq: int
    hand: int
    leader: int


class Moved(NamedTuple):
    """Move ``number`` (from 1) of hand ``hand`` was made; ``why`` says why the table made
    it for an outside bot."""

    seq: int
    hand: int
    number: int
    move: Move
    by: Maker
    why: str | None = None


class HandEnded(NamedTuple):
    """Hand ``hand`` ended: its result, and every tile revealed (as dealt, and as held)."""

    seq: int
    hand: int
    result: HandResult
    deal: tuple[tuple[Tile, ...], ...]
    held: tuple[tuple[Tile, ...], ...]


class GameEnded(NamedTuple):
    """A side reached the target."""

    seq: int
    winner: int
    scores: tuple[int, ...]
    chips: tuple[int, ...]


class Undone(NamedTuple):
    """``seat`` took back its play of ``tile`` and the moves after it: hand ``hand`` now
    holds its first ``moves`` moves again."""

    seq: int
    seat: int
    hand: int
    tile: Tile
    moves: int


Event = HandDealt | Moved | HandEnded | GameEnded | Undone
