"""Write records: from a played ``Game`` to a ``Record`` and from a ``Record`` to JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bones.engine.game import Game
from bones.engine.moves import Draw, Move, Play
from bones.engine.state import HandState
from bones.engine.tiles import Tile
from bones.record.model import FORMAT, HandRecord, Record


def undealt(state: HandState) -> tuple[Tile, ...]:
    """The boneyard as dealt, in draw order: the tiles drawn so far, then what is left."""
    drawn = tuple(m.tile for m in state.moves if isinstance(m, Draw) and m.tile is not None)
    return drawn + state.boneyard


def record_of(game: Game, players: Sequence[str],
              extra: Sequence[tuple[str, Any]] = ()) -> Record:
    """The record of a game played so far."""
    hands = tuple(HandRecord(state.deal, undealt(state), state.leader, state.moves)
                  for state in game.hands)
    return Record(game.rules, tuple(players), hands, tuple(extra))


def _move_json(move: Move) -> dict[str, Any]:
    if isinstance(move, Play):
        out: dict[str, Any] = {"seat": move.seat, "play": str(move.tile)}
        if move.end is not None:
            out["end"] = move.end
        return out
    if isinstance(move, Draw):
        return {"seat": move.seat, "draw": None if move.tile is None else str(move.tile)}
    return {"seat": move.seat, "pass": True}


def to_json(record: Record) -> dict[str, Any]:
    """The record as a JSON-ready dict (``bones-record/1``)."""
    rules = record.rules.to_json()
    if isinstance(rules, dict):
        rules.setdefault("players", record.rules.players)
    else:
        rules = {"preset": rules, "players": record.rules.players}
    hands = []
    for hand in record.hands:
        hands.append({
            "deal": [[str(t) for t in h] for h in hand.deal],
            "boneyard": [str(t) for t in hand.boneyard],
            "leader": hand.leader,
            "moves": [_move_json(m) for m in hand.moves],
            **dict(hand.extra),
        })
    return {"format": FORMAT, "rules": rules, "players": list(record.players),
            "hands": hands, **dict(record.extra)}


def dump(record: Record) -> str:
    """The record as JSON text: one hand's tiles per line would be prettier, but the format
    is for machines first; indent keeps it readable in a diff."""
    return json.dumps(to_json(record), indent=1) + "\n"


def move_json(move: Move) -> dict[str, Any]:
    """A move in record notation (also the bot protocol's)."""
    return _move_json(move)
