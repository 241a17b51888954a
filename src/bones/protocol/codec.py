"""The seat view as a ``bones-bot/1`` move request and back (``docs/bot-protocol.md``).

``request_of`` is the only way the referee builds what a bot process sees, and it is built
from a ``SeatView``, so it cannot carry another seat's tiles.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from bones.engine import lead as leads
from bones.engine.errors import BonesError
from bones.engine.moves import Move
from bones.engine.rules import is_int, rules_from_json
from bones.engine.tiles import Tile, parse_tile
from bones.engine.view import SeatView
from bones.protocol.public import replay_public
from bones.protocol.quoting import QUOTE_LIMIT, in_json_terms, quoted
from bones.record.reader import read_move
from bones.table.wire import view_json

PROTOCOL = "bones-bot/1"



#: The fields of a seat's view (``bones.table.wire.view_json``) that a move request carries.
REQUEST_FIELDS = ("rules", "seat", "hand", "dealt", "boneyard", "leader", "moves", "scores")


def request_of(view: SeatView, request_id: int, think: float) -> dict[str, Any]:
    """The move request for a seat that must play: its view as JSON (the form every front
    end receives), with the fields the protocol names."""
    seen = view_json(view)
    return {"type": "move", "id": request_id, **{key: seen[key] for key in REQUEST_FIELDS},
            "think": think}


def view_of(request: Mapping[str, Any]) -> SeatView:
    """Rebuild a ``SeatView`` from a move request (what ``bones bot`` does with each line).

    Every field is checked, and the moves are replayed from the seat's side
    (``bones.protocol.public``), so a request no hand could produce is refused with a one-line
    ``BonesError`` instead of reaching the bot.
    """
    # Rules "as in a record" may leave the players out (a preset name alone), where a
    # record's players list gives the count; a request's ``dealt`` has one entry per seat.
    given, dealt = _field(request, "rules"), _list(request, "dealt")
    omits = isinstance(given, str) or (isinstance(given, Mapping) and "players" not in given)
    try:
        rules = rules_from_json(given, players=len(dealt) if omits and dealt else None)
    except BonesError as exc:  # its messages write values as Python does: rewritten
        raise BonesError(in_json_terms(str(exc), _parts(given))) from None
    players = rules.players
    seat = _seat(request, "seat", players)
    leader = _seat(request, "leader", players)
    hand = tuple(_tile(t, rules.set) for t in _list(request, "hand"))
    if len(set(hand)) != len(hand):
        raise BonesError("the hand lists a tile twice")
    # is_int: 5.0 and true are not whole numbers of JSON, though Python finds them equal
    if not all(is_int(d) for d in dealt) or dealt != [rules.dealt] * players:
        raise BonesError(f'"dealt" must be {quoted([rules.dealt] * players)} (these rules '
                         f"deal {rules.dealt} tiles to each of {players} seats), not "
                         f"{quoted(dealt)}")
    undealt = _field(request, "boneyard")
    if not is_int(undealt) or undealt != rules.undealt:
        raise BonesError(f'"boneyard" must be {rules.undealt} (the tiles these rules leave '
                         f"undealt), not {quoted(undealt)}")
    scores = _list(request, "scores")
    if len(scores) != rules.sides or not all(is_int(s) for s in scores):
        raise BonesError(f'"scores" must list {rules.sides} whole numbers, one per side, '
                         f"not {quoted(scores)}")
    moves = []
    for number, obj in enumerate(_list(request, "moves"), 1):
        try:
            move = _move(obj)
        except BonesError as exc:
            raise BonesError(f"move {number}: {exc}") from None
        if not 0 <= move.seat < players:
            raise BonesError(f"move {number}: there is no seat {quoted(move.seat)} at a "
                             f"{players}-player table")
        moves.append(move)
    public = replay_public(rules, seat, hand, leader, moves)
    opening = None
    if public.layout.is_empty:
        decided = leads.decide(rules, _deal_guess(hand, seat, players), None)
        opening = decided.opening if decided is not None and decided.seat == seat else None
    return SeatView(rules=rules, seat=seat, hand=hand, dealt=tuple(dealt),
                    undealt=rules.undealt, leader=leader, moves=public.moves,
                    scores=tuple(scores), held=public.held,
                    boneyard_left=public.boneyard_left, layout=public.layout,
                    to_move=public.to_move, opening=opening, pool=0,
                    chips=(0,) * players)


def _parts(value: object) -> list[object]:
    """``value`` and, for an object, its names and values: what a reader of it may name."""
    if isinstance(value, Mapping):
        return [value, *value.keys(), *value.values()]
    return [value]


def _move(obj: object) -> Move:
    """``read_move`` with its messages in JSON terms, and a tile that is too long to be one
    named as such (cut) rather than read."""
    if isinstance(obj, Mapping):
        for kind in ("play", "draw"):
            text = obj.get(kind)
            if isinstance(text, str) and len(text) > QUOTE_LIMIT:
                raise BonesError(f"{quoted(text)} is not a tile")
    try:
        return read_move(obj, hidden_draws=True)
    except BonesError as exc:
        raise BonesError(in_json_terms(str(exc), _parts(obj))) from None


def _field(request: Mapping[str, Any], name: str) -> Any:
    if name not in request:
        raise BonesError(f'the move request has no "{name}"')
    return request[name]


def _list(request: Mapping[str, Any], name: str) -> list[Any]:
    value = _field(request, name)
    if not isinstance(value, list):
        raise BonesError(f'"{name}" must be a list, not {quoted(value)}')
    return value


def _seat(request: Mapping[str, Any], name: str, players: int) -> int:
    value = _field(request, name)
    if not is_int(value) or not 0 <= value < players:
        raise BonesError(f'"{name}" must be a seat number from 0 to {players - 1}, '
                         f"not {quoted(value)}")
    return cast(int, value)


def _tile(text: object, top: int) -> Tile:
    if isinstance(text, str) and len(text) > QUOTE_LIMIT:  # "18-18" is the longest tile
        raise BonesError(f"hand: {quoted(text)} is not a tile")
    try:
        return parse_tile(text, top)
    except ValueError as exc:
        raise BonesError(f"hand: {in_json_terms(str(exc), [text])}") from None


def _deal_guess(hand: tuple[Tile, ...], seat: int, players: int) -> list[tuple[Tile, ...]]:
    """Only the seat's own hand is known; enough to tell whether it holds a named opening."""
    return [hand if s == seat else () for s in range(players)]


__all__ = ["PROTOCOL", "request_of", "view_of"]
