"""The seat view as a ``bones-bot/1`` move request and back (``spec/bot-protocol.md``).

``request_of`` is the only way the referee builds what a bot process sees, and it is built
from a ``SeatView``, so it cannot carry another seat's tiles.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from bones.engine import lead as leads
from bones.engine.errors import BonesError
from bones.engine.moves import Arm, Draw, Move, Pass, Play
from bones.engine.rules import rules_from_json
from bones.engine.state import new_hand
from bones.engine.tiles import Tile, parse_tile
from bones.engine.view import SeatView
from bones.record.writer import move_json

PROTOCOL = "bones-bot/1"


def request_of(view: SeatView, request_id: int, think: float) -> dict[str, Any]:
    """The move request for a seat that must play."""
    rules = view.rules.to_json()
    if isinstance(rules, str):
        rules = {"preset": rules}
    rules["players"] = view.rules.players
    return {
        "type": "move",
        "id": request_id,
        "rules": rules,
        "seat": view.seat,
        "hand": [str(t) for t in view.hand],
        "dealt": list(view.dealt),
        "boneyard": view.boneyard,
        "leader": view.leader,
        "moves": [move_json(m) for m in view.moves],
        "scores": list(view.scores),
        "think": think,
    }


def view_of(request: Mapping[str, Any]) -> SeatView:
    """Rebuild a ``SeatView`` from a move request (what ``bones bot`` does with each line).

    Other seats' tiles are unknown, so the hand is replayed with placeholder tiles for them;
    only public facts (layout, counts, boneyard size) are read back from that replay.
    """
    try:
        rules = rules_from_json(request["rules"])
        seat = int(request["seat"])
        hand = tuple(parse_tile(t, rules.set) for t in request["hand"])
        dealt = tuple(int(d) for d in request["dealt"])
        moves = tuple(_move(m) for m in request["moves"])
        leader = int(request["leader"])
        scores = tuple(int(s) for s in request["scores"])
    except (KeyError, TypeError, ValueError) as exc:
        raise BonesError(f"bad move request: {exc}") from None
    layout = new_hand(rules, [() for _ in dealt], (), leader).layout
    held = list(dealt)
    boneyard_left = rules.undealt
    to_move = leader
    for m in moves:
        if isinstance(m, Play):
            layout = layout.place(m.tile, m.end if not layout.is_empty else None)
            held[m.seat] -= 1
            to_move = (m.seat + 1) % rules.players
        elif isinstance(m, Draw):
            held[m.seat] += 1
            boneyard_left -= 1
        else:
            to_move = (m.seat + 1) % rules.players
    opening = None
    if layout.is_empty:
        decided = leads.decide(rules, _deal_guess(hand, seat, dealt), None)
        opening = decided.opening if decided is not None and decided.seat == seat else None
    return SeatView(rules=rules, seat=seat, hand=hand, dealt=dealt, boneyard=rules.undealt,
                    leader=leader, moves=moves, scores=scores, held=tuple(held),
                    boneyard_left=boneyard_left, layout=layout, to_move=to_move,
                    opening=opening, pool=0, chips=(0,) * rules.players)


def _deal_guess(hand: tuple[Tile, ...], seat: int,
                dealt: tuple[int, ...]) -> list[tuple[Tile, ...]]:
    """Only the seat's own hand is known; enough to tell whether it holds a named opening."""
    return [hand if s == seat else () for s in range(len(dealt))]


def _move(obj: Mapping[str, Any]) -> Move:
    seat = int(obj["seat"])
    if "play" in obj:
        return Play(seat, parse_tile(obj["play"]), cast(Arm | None, obj.get("end")))
    if "draw" in obj:
        return Draw(seat, None if obj["draw"] is None else parse_tile(obj["draw"]))
    return Pass(seat)


__all__ = ["PROTOCOL", "request_of", "view_of"]
