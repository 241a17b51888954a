"""A record's hands move by move, in words (``bones replay --moves``): who was dealt what,
who led, and every play, draw and pass, numbered as ``--review`` numbers them.

A record is the referee's account, so every tile is named, the drawn ones too; this is a
listing for studying a finished game, not a seat's view of one.
"""

from __future__ import annotations

import textwrap

from bones.engine.game import Game
from bones.engine.layout import has_spinner
from bones.engine.moves import Draw, Move, Pass, Play
from bones.engine.state import drawable, reserve_of
from bones.engine.tiles import Tile
from bones.record.summary import distinct
from bones.record.writer import undealt

#: The listing's width, as every report of bones: tile lists wrap under their label.
WIDTH = 80


def listing(game: Game, players: tuple[str, ...]) -> str:
    """Every hand of ``game``: its deal and leader, then its moves, one numbered line each,
    and how it ended."""
    names = distinct(tuple(players[s] if s < len(players) else f"seat {s}"
                           for s in range(game.rules.players)))
    lines: list[str] = []
    results = game.hand_results()
    for number, (hand, result) in enumerate(zip(game.hands, results, strict=True), start=1):
        lines.append(f"hand {number}: {_says(names[hand.leader], 'leads')}")
        for seat, tiles in enumerate(hand.deal):
            lines += _wrapped(f"{_says(names[seat], 'holds')} ", tiles)
        lines += _boneyard(game, undealt(hand))
        width = len(str(len(hand.moves)))
        spinner = has_spinner(game.rules)
        for index, move in enumerate(hand.moves, start=1):
            said = _said(move, names)
            if spinner and isinstance(move, Play) and move.tile.is_double:
                said += " (the spinner)"  # the first double: later up and down arms are its
                spinner = False
            lines.append(f"  {index:>{width}}. {said}")
        if result.end == "unfinished":
            lines.append("  end: still in play")
        elif result.end == "blocked":
            lines.append("  end: blocked")
        else:
            lines.append(f"  end: {_says(names[hand.moves[-1].seat], 'goes')} out")
    return "\n".join(lines) if lines else "no hand dealt yet"


def _boneyard(game: Game, boneyard: tuple[Tile, ...]) -> list[str]:
    """The undealt tiles: in Draw, those that may be drawn, in order, then the reserve that
    never is; else all of them, never drawn."""
    if not boneyard:
        return []
    if reserve_of(game.rules) is None:
        return _wrapped("boneyard, never drawn here: ", boneyard)
    split = drawable(game.rules, len(boneyard))
    drawn, kept = boneyard[:split], boneyard[split:]
    lines = _wrapped("boneyard, drawn in this order: ", drawn) if drawn else []
    return lines + (_wrapped("reserve, never drawn: ", kept) if kept else [])


def _wrapped(label: str, tiles: tuple[Tile, ...]) -> list[str]:
    """``label`` and the tiles, wrapped at ``WIDTH`` under the label's start."""
    return textwrap.wrap(label + _tiles(tiles), WIDTH, initial_indent="  ",
                         subsequent_indent="    ", break_on_hyphens=False)


def _tiles(tiles: tuple[Tile, ...]) -> str:
    return " ".join(str(t) for t in tiles) if tiles else "nothing"


def _says(name: str, verb: str) -> str:
    """``name`` and ``verb`` agreeing: "Greedy plays", but "You play" (the name ``bones
    play`` gives a lone person)."""
    if name != "You":
        return f"{name} {verb}"
    return f"You {verb[:-2] if verb.endswith(('sses', 'oes')) else verb[:-1]}"


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
