"""The JSON form of every view and event, for programs on the other side of a pipe or a
socket: a bot (the ``bones-bot/1`` move request is one use of a seat's view), a browser, a
research environment.

Everything a seat receives is built here from that seat's view (``SeatView``), a
spectator's from the public view (``PublicView``): a draw by another seat is ``null``, the
boneyard is a count, and tiles are revealed only in ``hand_ended``, once the hand is over.
The shapes are documented in ``docs/table.md``.
"""

from __future__ import annotations

from typing import Any

from bones.engine.game import HandResult
from bones.engine.layout import Layout
from bones.engine.moves import Draw
from bones.engine.rules import Rules
from bones.engine.tiles import Tile
from bones.engine.view import PublicView, SeatView
from bones.record.writer import move_json
from bones.table.events import Event, GameEnded, HandDealt, HandEnded, Moved, Undone

#: Bumped when a shape below changes in a way an old reader would misread.
VERSION = "bones-table/1"


def rules_json(rules: Rules) -> dict[str, Any]:
    """The rules as in a record, always an object that names the players."""
    form = rules.to_json()
    shaped: dict[str, Any] = {"preset": form} if isinstance(form, str) else dict(form)
    shaped["players"] = rules.players
    return shaped


def tiles_json(tiles: tuple[Tile, ...]) -> list[str]:
    return [str(t) for t in tiles]


def layout_json(layout: Layout) -> dict[str, Any]:
    """The tiles on the table: the first tile, then each open arm from the centre out as
    ``[touching half, open half]`` pairs, the number it shows, and the spinner (``at``:
    ``null`` when it is the first tile, else its arm and place on that arm from 0)."""
    spinner: dict[str, Any] | None = None
    if layout.spinner is not None:
        at = layout.spinner_at
        spinner = {"tile": str(layout.spinner),
                   "at": None if at is None else {"arm": at[0], "index": at[1]},
                   "waiting": sorted(layout.spinner_waiting)}
    return {
        "first": None if layout.first is None else str(layout.first),
        "arms": {arm: {"open": number, "tiles": [list(link) for link in layout.chain(arm)]}
                 for arm, number in layout.ends},
        "spinner": spinner,
    }


def _table_json(view: SeatView | PublicView) -> dict[str, Any]:
    """The fields a seat and a spectator share."""
    return {
        "rules": rules_json(view.rules),
        "dealt": list(view.dealt),
        "boneyard": view.undealt,
        "boneyard_left": view.boneyard_left,
        "leader": view.leader,
        "moves": [move_json(m) for m in view.moves],
        "held": list(view.held),
        "layout": layout_json(view.layout),
        "to_move": view.to_move,
        "scores": list(view.scores),
        "pool": view.pool,
        "chips": list(view.chips),
    }


def view_json(view: SeatView | PublicView) -> dict[str, Any]:
    """A seat's view (its own tiles, its plays now, the tile it must set if the rules name
    one), or a spectator's (``"seat": null``, no tiles)."""
    if isinstance(view, PublicView):
        return {"seat": None, **_table_json(view)}
    return {
        "seat": view.seat,
        "hand": tiles_json(view.hand),
        "legal": [move_json(p) for p in view.legal],
        "opening": None if view.opening is None else str(view.opening),
        **_table_json(view),
    }


def result_json(result: HandResult) -> dict[str, Any]:
    """A hand's result, as ``bones replay --json`` gives it."""
    return {"end": result.end, "winner": result.winner, "counts": list(result.counts),
            "points": list(result.points), "pool": list(result.pool)}


def event_json(event: Event, seat: int | None) -> dict[str, Any]:
    """``event`` as ``seat`` may see it (``None``: a spectator): another seat's draw names
    no tile."""
    if isinstance(event, HandDealt):
        return {"type": "hand_dealt", "seq": event.seq, "hand": event.hand,
                "leader": event.leader}
    if isinstance(event, Moved):
        move = event.move
        if isinstance(move, Draw) and move.seat != seat:
            move = Draw(move.seat, None)
        doc = {"type": "moved", "seq": event.seq, "hand": event.hand,
               "number": event.number, "move": move_json(move), "by": event.by}
        if event.why is not None:
            doc["why"] = event.why
        return doc
    if isinstance(event, HandEnded):
        return {"type": "hand_ended", "seq": event.seq, "hand": event.hand,
                "result": result_json(event.result),
                "deal": [tiles_json(h) for h in event.deal],
                "held": [tiles_json(h) for h in event.held]}
    if isinstance(event, GameEnded):
        return {"type": "game_ended", "seq": event.seq, "winner": event.winner,
                "scores": list(event.scores), "chips": list(event.chips)}
    assert isinstance(event, Undone)
    return {"type": "undone", "seq": event.seq, "seat": event.seat, "hand": event.hand,
            "tile": str(event.tile), "moves": event.moves}
