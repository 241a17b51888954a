"""The record as typed values: rules, player names, and per hand the deal and the moves."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bones.engine.moves import Move
from bones.engine.rules import Rules
from bones.engine.tiles import Tile

FORMAT = "bones-record/1"
#: Optional fields allowed on the record, a hand and a move (besides ``x-`` extensions).
OPTIONAL = ("seed", "started", "ended", "comment")


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as recorded: the deal, the undealt tiles in draw order, the leader, the moves."""

    deal: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    leader: int | None
    moves: tuple[Move, ...]
    #: Optional and ``x-`` fields, kept so a record round-trips.
    extra: tuple[tuple[str, Any], ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class Record:
    """A whole game record."""

    rules: Rules
    players: tuple[str, ...]
    hands: tuple[HandRecord, ...] = ()
    extra: tuple[tuple[str, Any], ...] = field(default=(), compare=False)
