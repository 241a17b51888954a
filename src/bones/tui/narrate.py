"""What just happened, in words: the moves of a hand grouped into turns and told as sentences.

A turn is the draws a seat made and the play or pass that ended them, so a screen can say
"Ben draws 2 tiles and plays 5-3 on the right" in one line. Tiles another seat drew are never
named, only counted: the views hide them and these sentences would not show them anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bones.engine.layout import Layout
from bones.engine.moves import Draw, Move, Pass, Play
from bones.engine.tiles import Tile


@dataclass(frozen=True, slots=True)
class Turn:
    """One seat's turn: the tiles it drew (``None`` where hidden) and the move that ended it
    (``None`` while the seat has drawn and has yet to play, or when drawing blocked the hand)."""

    seat: int
    draws: tuple[Tile | None, ...]
    end: Play | Pass | None


def turns(moves: Sequence[Move]) -> list[Turn]:
    """Group a hand's moves into turns, in the order they were made."""
    out: list[Turn] = []
    drawn: list[Tile | None] = []
    seat = -1
    for move in moves:
        if isinstance(move, Draw):
            drawn.append(move.tile)
            seat = move.seat
        else:
            out.append(Turn(move.seat, tuple(drawn), move))
            drawn = []
    if drawn:
        out.append(Turn(seat, tuple(drawn), None))
    return out


def since_last_turn(moves: Sequence[Move], seat: int) -> tuple[list[Turn], bool]:
    """The turns a seat has not yet seen, after a reminder of its own last play: a person
    sees the table only when asked to play, so a pass the rules made for the seat since
    (and a draw) is news to it too.

    The flag says whether the seat has played no tile yet this hand (so the hand's start,
    and who led, is news to it too).
    """
    all_turns = turns(moves)
    played = [i for i, t in enumerate(all_turns)
              if t.seat == seat and isinstance(t.end, Play)]
    if not played:
        return all_turns, True
    return all_turns[played[-1]:], False


def open_numbers(moves: Sequence[Move], spinner: bool) -> tuple[int, ...]:
    """The numbers the layout's arms showed after ``moves`` (the first moves of a hand),
    lowest first: what a seat that passed or drew then could not match."""
    layout = Layout(uses_spinner=spinner)
    for move in moves:
        if isinstance(move, Play):
            layout = layout.place(move.tile, move.end)
    return tuple(sorted(layout.open_numbers()))


def why_forced(turn: Turn, before: Sequence[Move], spinner: bool, draw: bool) -> str:
    """Why the rules drew or passed for a seat: the numbers it could not match, the
    boneyard it could not draw from (``before``: the hand's moves before the turn)."""
    numbers = open_numbers(before, spinner)
    shown = " or ".join(str(n) for n in numbers) if numbers else "the layout"
    if isinstance(turn.end, Pass):
        empty = ", and no tile was left to draw" if draw else ""
        return f"nothing in your hand matched {shown}{empty}"
    return f"nothing in your hand matched {shown}"


def _tiles(n: int) -> str:
    return f"{n} tile{'' if n == 1 else 's'}"


def describe(turn: Turn, names: Sequence[str], you: int | None = None) -> str:
    """One turn as a sentence; ``you`` is the seat reading it, told in the second person
    and, for its own draws only, with the tiles named."""
    mine = turn.seat == you
    subject = "You" if mine else names[turn.seat]
    drawn = _tiles(len(turn.draws))
    if mine and turn.draws and all(t is not None for t in turn.draws):
        drawn += " (" + ", ".join(str(t) for t in turn.draws) + ")"
    if turn.end is None:
        if mine:
            return f"You cannot play: you draw {drawn}"
        return f"{subject} draws {drawn}"
    parts = []
    if turn.draws:
        parts.append(("draw " if mine else "draws ") + drawn)
    if isinstance(turn.end, Pass):
        if not turn.draws:
            return "You cannot play and pass" if mine else f"{subject} passes"
        parts.append("pass" if mine else "passes")
    elif turn.end.end is None:
        parts.append(("set " if mine else "sets ") + str(turn.end.tile))
    else:
        parts.append(("play " if mine else "plays ") + f"{turn.end.tile} on the {turn.end.end} arm")
    return f"{subject} {' and '.join(parts)}"
