"""Scripted hands written compactly: deals as ``"6-6 5-4 3-1"`` strings, moves as
``"6-5 right"``, ``"draw"`` or ``"pass"`` (always for the seat whose turn it is).

Everything goes through the checked path (``start_hand``, ``play``), as a record would.
"""

from __future__ import annotations

from typing import Any

from bones.engine.game import Game, new_game, play, start_hand
from bones.engine.moves import Draw, Pass, Play
from bones.engine.rules import Rules
from bones.engine.state import HandState
from bones.engine.tiles import Tile, full_set, parse_tile, parse_tiles


def rules(**options: Any) -> Rules:
    return Rules(**options)


def boneyard_for(r: Rules, deal: list[tuple[Tile, ...]], first: str = "") -> tuple[Tile, ...]:
    """The undealt tiles: ``first`` in that order, then the rest heaviest-high-half first."""
    head = parse_tiles(first)
    used = {t for h in deal for t in h} | set(head)
    rest = sorted((t for t in full_set(r.set) if t not in used), reverse=True)
    return head + tuple(rest)


def deal(game: Game, hands: list[str], boneyard: str = "", leader: int | None = None) -> Game:
    """Start the next hand of ``game`` with these hands; ``boneyard`` lists the first tiles to
    be drawn (the rest follow)."""
    dealt = [parse_tiles(h) for h in hands]
    return start_hand(game, dealt, boneyard_for(game.rules, dealt, boneyard), leader)


def hand(r: Rules, hands: list[str], boneyard: str = "", leader: int | None = None) -> Game:
    """A new game of rules ``r`` with its first hand dealt."""
    return deal(new_game(r), hands, boneyard, leader)


def move(game: Game, text: str) -> Game:
    """Apply one scripted move for the seat to move."""
    state = current(game)
    seat = state.to_move
    words = text.split()
    if words[0] == "pass":
        return play(game, Pass(seat))
    if words[0] == "draw":
        return play(game, Draw(seat, parse_tile(words[1]) if len(words) > 1 else None))
    end = words[1] if len(words) > 1 else None
    return play(game, Play(seat, parse_tile(words[0]), end))  # type: ignore[arg-type]


def moves(game: Game, script: str) -> Game:
    """Apply moves separated by commas: ``"6-6, 6-5 right, draw, pass"``."""
    for text in script.split(","):
        if text.strip():
            game = move(game, text.strip())
    return game


def current(game: Game) -> HandState:
    """The hand in play (or the last one, once it has ended)."""
    return game.hands[-1]


def arms(game: Game) -> dict[str, int]:
    """The open arms of the last hand's layout and their numbers."""
    return dict(current(game).layout.ends)


def tiles(text: str) -> tuple[Tile, ...]:
    return parse_tiles(text)
