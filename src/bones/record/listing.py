"""A record's hands move by move, in words (``bones replay --moves``): who was dealt what,
who led, and every play, draw and pass, numbered as ``--review`` numbers them.

A record is the referee's account, so every tile is named, the drawn ones too; this is a
listing for studying a finished game, not a seat's view of one.
"""

from __future__ import annotations

from bones.engine.game import Game
from bones.engine.moves import Draw, Move, Pass, Play
from bones.engine.tiles import Tile
from bones.record.summary import distinct
from bones.record.writer import undealt


def listing(game: Game, players: tuple[str, ...]) -> str:
    """Every hand of ``game``: its deal and leader, then its moves, one numbered line each."""
    names = distinct(tuple(players[s] if s < len(players) else f"seat {s}"
                           for s in range(game.rules.players)))
    lines: list[str] = []
    for number, hand in enumerate(game.hands, start=1):
        lines.append(f"hand {number}: {_says(names[hand.leader], 'leads')}")
        for seat, tiles in enumerate(hand.deal):
            lines.append(f"  {_says(names[seat], 'holds')} {_tiles(tiles)}")
        if boneyard := undealt(hand):
            kind = "drawn in this order" if game.rules.draw else "not drawn in Block"
            lines.append(f"  boneyard ({kind}): {_tiles(boneyard)}")
        width = len(str(len(hand.moves)))
        for index, move in enumerate(hand.moves, start=1):
            lines.append(f"  {index:>{width}}. {_said(move, names)}")
    return "\n".join(lines)


def _tiles(tiles: tuple[Tile, ...]) -> str:
    return " ".join(str(t) for t in tiles) if tiles else "nothing"


def _says(name: str, verb: str) -> str:
    """``name`` and ``verb`` agreeing: "Greedy plays", but "You play" (the name ``bones
    play`` gives a lone person)."""
    if name != "You":
        return f"{name} {verb}"
    return f"You {verb[:-2] if verb.endswith('sses') else verb[:-1]}"


def _said(move: Move, names: tuple[str, ...]) -> str:
    who = names[move.seat]
    if isinstance(move, Play):
        if move.end is None:
            return f"{_says(who, 'sets')} {move.tile}"
        return f"{_says(who, 'plays')} {move.tile} on the {move.end} arm"
    if isinstance(move, Draw):
        return f"{_says(who, 'draws')} {move.tile}" if move.tile is not None \
            else _says(who, "draws")
    assert isinstance(move, Pass)
    return _says(who, "passes")
