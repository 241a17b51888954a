"""Read and check a record. Every fault becomes one ``RecordError`` line that names the hand
(from 1), the move (from 1) and the rule, e.g. ``hand 2, move 7: seat 1 holds 5-3, ...``.

Parsing and replaying happen in one pass, hand by hand and move by move, so the fault
reported is the first one in the record. Nothing is half-applied: the caller gets a finished
``Game`` or an exception.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from bones.engine import game as games
from bones.engine.errors import BonesError, InputError, RulesError, quoted
from bones.engine.game import Game
from bones.engine.moves import Arm, Draw, Move, Pass, Play
from bones.engine.rules import Rules, is_int, rules_from_json
from bones.engine.tiles import Tile, parse_tile
from bones.record.files import TooLarge, read_limited
from bones.record.model import FORMAT, OPTIONAL, HandRecord, Record


class RecordError(BonesError):
    """The record is well-formed JSON in the record format but breaks a rule (exit status 1)."""


class RecordFormatError(InputError):
    """The input is not a record at all: unreadable, too large, not UTF-8 text, not JSON,
    not an object, wrong format (exit status 2)."""


#: The most bytes a record file may hold, 8 MiB: twice the longest record measured, a game
#: of double-18 Draw between two to 10,000 points (100 times the usual target; 189 hands,
#: 4.2 MB as ``bones simulate --record`` writes it; the same to 10,000 in double-six is
#: 2.3 MB, a game to 100 about 25 kB). Reading stops one byte past it (``/dev/zero``, a
#: pipe that never ends), so memory stays bounded and Ctrl-C is answered while reading.
#: Rules files (``--rules FILE``, which may be a whole record) have the same limit.
MAX_BYTES = 8 * 2**20

#: The most JSON values a document may hold, about one per 8 bytes of ``MAX_BYTES``: a
#: record as bones writes it has one per 16 bytes, written compactly one per 9. Each value
#: costs Python 50 to 200 bytes, so text of small values (``[[],[],...]``) would take 20
#: to 50 times its own size; with this bound ``bones replay`` peaks at about 130 MB (half a
#: million one-member objects), against 465 MB for 8 MiB of ``[],`` before.
MAX_VALUES = 2**20


def read_text(path: str | Path, what: str) -> str:
    """The text of the file at ``path``, read within ``MAX_BYTES``, for ``what`` (``a
    record``, ``a rules file``): ``RecordFormatError`` (one line, status 2) if it cannot be
    read, is larger, or is not UTF-8 text. A byte-order mark, which some editors write, is
    skipped (RFC 8259 lets a reader ignore one); it is not part of the JSON."""
    try:
        data = read_limited(path, MAX_BYTES)
    except TooLarge:
        raise RecordFormatError(f"{path}: larger than {MAX_BYTES // 2**20} MiB, the limit "
                                f"for {what}") from None
    except OSError as exc:
        raise RecordFormatError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordFormatError(f"{path}: not UTF-8 text (byte 0x{data[exc.start]:02x} at "
                                f"offset {exc.start:,}), so not {what}") from None


def read_file(path: str | Path) -> tuple[Record, Game]:
    """Read, parse and replay a record file: ``RecordFormatError`` if it is not a record
    at all (its message names the file), ``RecordError`` if it breaks a rule."""
    text = read_text(path, "a record")
    try:
        doc = load(text)
    except RecordFormatError as exc:
        raise RecordFormatError(f"{path}: {exc}") from None
    return parse(doc)


#: A UTF-8 byte-order mark, which some Windows tools write before JSON text; RFC 8259 lets
#: a reader ignore it, and a JSON-lines peer may send one at the start of its stream.
BOM = "\ufeff"


class UnreadableJson(ValueError):
    """JSON text that is well formed but beyond what this reader takes (RFC 8259 lets a
    reader limit all three): a whole number longer than ``sys.get_int_max_str_digits``
    digits (a guard against slow conversion), arrays and objects nested more than
    ``MAX_DEPTH`` deep, or more than ``MAX_VALUES`` values."""


#: How deep arrays and objects may nest. Records and bot messages nest a few levels; the
#: limit is ours, not Python's, because Python's varies with the version (3.11 stops near
#: 1,000 levels, 3.13 past 5,000, 3.14 by the stack's size, past 100,000), and a document
#: that Python reads may still be too deep for the code that handles it after.
MAX_DEPTH = 500

#: A JSON string, with its escapes (its commas and brackets are not the document's); one
#: left open runs to the end, so text that is not JSON is never scanned again from each
#: later quote.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\Z)', re.DOTALL)


def _marks(text: str) -> int:
    return text.count(",") + text.count("[") + text.count("{")


def _too_many_values(text: str) -> bool:
    """Whether ``text`` holds more than ``MAX_VALUES`` values, counted before it is read
    (reading is what takes the memory) as the commas and opening brackets outside strings,
    plus one: every value but the first follows a comma or opens an array or object (so
    an empty array or object counts twice). All of them are counted first, in C; only if
    that is too many are those inside strings taken away, one string at a time (never a
    copy of the text: a copy made by pieces costs more than the text)."""
    if len(text) < MAX_VALUES:  # never more than one a character
        return False
    marks = _marks(text) + 1
    if marks <= MAX_VALUES:
        return False
    for found in _STRING.finditer(text):
        marks -= _marks(found.group())
        if marks <= MAX_VALUES:
            return False
    return True


def _nests_too_deep(doc: Any) -> bool:
    """Whether ``doc``, what Python's reader made of the text, has arrays and objects
    nested more than ``MAX_DEPTH`` deep: walked depth first with a stack of iterators, so
    memory grows with the depth only."""
    stack = [iter((doc,))]
    while stack:
        for value in stack[-1]:
            if isinstance(value, list | dict):
                if len(stack) > MAX_DEPTH:  # the depth of ``value``
                    return True
                stack.append(iter(value.values() if isinstance(value, dict) else value))
                break
        else:
            stack.pop()
    return False


def strict_json(text: str, twice: list[str] | None = None) -> Any:
    """``json.loads`` that also refuses ``NaN``, ``Infinity`` and ``-Infinity``, which
    Python's reader takes but JSON (RFC 8259) does not have, and an object naming one
    member twice, which RFC 8259 leaves to each reader (Python's keeps the last, another
    the first: the same file would be two different records), and skips a leading ``BOM``.
    Given a ``twice`` list, such names are put in it instead (the last value kept), for a
    caller that decides later. Raises ``ValueError``: a ``json.JSONDecodeError`` for
    malformed text, ``UnreadableJson`` for a number too long or nesting too deep, or
    ``NamedTwice``; text of more than ``MAX_VALUES`` values is refused before it is read."""

    def once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for name, value in pairs:
            if name in found:
                if twice is None:
                    raise NamedTwice(f"an object names {quoted(name)} twice")
                twice.append(name)
            found[name] = value
        return found

    if _too_many_values(text):  # before reading: the values are what takes the memory
        raise UnreadableJson(f"it holds more than {MAX_VALUES:,} values")
    # Read first, so text that is not JSON is said to be so; then measure what was read.
    # Python's own limit lies above ours in every version, so its refusal means ours too.
    too_deep = UnreadableJson(f"arrays and objects nest deeper than {MAX_DEPTH} levels")
    try:
        doc = json.loads(text.removeprefix(BOM), parse_constant=_not_json, parse_int=_whole,
                         object_pairs_hook=once_each)
    except RecursionError:
        raise too_deep from None
    if (text.count("[") + text.count("{") > MAX_DEPTH  # else it cannot nest that deep
            and _nests_too_deep(doc)):
        raise too_deep
    return doc


class NamedTwice(ValueError):
    """An object names one member twice: well-formed JSON, but no one document."""


def _whole(digits: str) -> int:
    limit = sys.get_int_max_str_digits()
    if limit and len(digits.lstrip("-")) > limit:
        raise UnreadableJson(f"a number has more than {limit:,} digits")
    return int(digits)


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def is_unreadable(exc: ValueError) -> bool:
    """Whether ``strict_json`` refused JSON that is well formed but beyond this reader (a
    number too long, nesting too deep), rather than text that is not JSON."""
    return isinstance(exc, UnreadableJson | NamedTwice)


def json_fault(exc: ValueError) -> str:
    """What ``strict_json`` found wrong, in a few words."""
    return exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)


def load(text: str) -> dict[str, Any]:
    """Decode JSON text and check it claims to be a record.

    A record whose objects name a member twice is JSON, an object and a record by its
    format, so it is not what status 2 is for: it is refused as a record (``RecordError``,
    status 1), since readers differ on which of the two counts."""
    twice: list[str] = []
    try:
        doc = strict_json(text, twice)
    except ValueError as exc:
        where = (f" (line {exc.lineno}, column {exc.colno})"
                 if isinstance(exc, json.JSONDecodeError) else "")
        what = "cannot read the JSON" if is_unreadable(exc) else "not JSON"
        raise RecordFormatError(f"{what}: {json_fault(exc)}{where}") from None
    if not isinstance(doc, dict):
        raise RecordFormatError("not a record: the JSON is not an object")
    if doc.get("format") != FORMAT:
        raise RecordFormatError(f'not a record: it lacks "format": "{FORMAT}"')
    if twice:
        raise RecordError(f"record: an object names {quoted(twice[0])} twice")
    return doc


def _unknown(obj: Mapping[str, Any], known: tuple[str, ...]) -> str | None:
    for key in obj:
        if key not in known and key not in OPTIONAL and not key.startswith("x-"):
            return key
    return None


def _extra(obj: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple((k, v) for k, v in obj.items() if k in OPTIONAL or k.startswith("x-"))



def parse(doc: Mapping[str, Any]) -> tuple[Record, Game]:
    """Check a decoded record against the format and the rules; return it and its game."""
    unknown = _unknown(doc, ("format", "rules", "players", "hands"))
    if unknown is not None:
        raise RecordError(f"record: unknown field {quoted(unknown)}")
    for key in ("rules", "players", "hands"):
        if key not in doc:
            raise RecordError(f'record: the "{key}" field is missing')
    players = doc["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError('record: "players" must be a list of names (strings)')
    try:
        rules = rules_from_json(doc["rules"], players=len(players))
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    hands = doc["hands"]
    if not isinstance(hands, list):
        raise RecordError('record: "hands" must be a list')
    game = games.new_game(rules)
    parsed: list[HandRecord] = []
    for index, hand in enumerate(hands, start=1):
        if game.current is not None:
            raise RecordError(f"hand {index - 1}: the moves stop before the hand ends, "
                              f"but hand {index} follows")
        record, game = _hand(rules, game, hand, index)
        parsed.append(record)
    return Record(rules, tuple(players), tuple(parsed), _extra(doc)), game


def _hand(rules: Rules, game: Game, obj: object, index: int) -> tuple[HandRecord, Game]:
    where = f"hand {index}"
    if not isinstance(obj, dict):
        raise RecordError(f"{where}: a hand must be an object")
    unknown = _unknown(obj, ("deal", "boneyard", "leader", "moves"))
    if unknown is not None:
        raise RecordError(f"{where}: unknown field {quoted(unknown)}")
    for key in ("deal", "boneyard", "moves"):
        if key not in obj:
            raise RecordError(f'{where}: the "{key}" field is missing')
    deal_obj, boneyard_obj = obj["deal"], obj["boneyard"]
    if not isinstance(deal_obj, list) or not all(isinstance(h, list) for h in deal_obj):
        raise RecordError(f'{where}: "deal" must be a list of each seat\'s tiles')
    if not isinstance(boneyard_obj, list):
        raise RecordError(f'{where}: "boneyard" must be a list of tiles')
    try:
        deal = tuple(tuple(_tile(t) for t in h) for h in deal_obj)
        boneyard = tuple(_tile(t) for t in boneyard_obj)
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None
    leader = obj.get("leader")
    if leader is not None and not is_int(leader):
        raise RecordError(f"{where}: leader {quoted(leader)} is not a seat number")
    if game.finished:
        raise RecordError(f"{where}: the game was already won by side {game.winner}; "
                          f"no hand may follow")
    try:
        game = games.start_hand(game, deal, boneyard, leader)
    except BonesError as exc:
        raise RecordError(f"{where}: {exc}") from None
    moves_obj = obj["moves"]
    if not isinstance(moves_obj, list):
        raise RecordError(f'{where}: "moves" must be a list')
    moves: list[Move] = []
    for number, move_obj in enumerate(moves_obj, start=1):
        here = f"{where}, move {number}"
        try:
            move = read_move(move_obj)
            game = games.play(game, move)
        except BonesError as exc:
            raise RecordError(f"{here}: {exc}") from None
        moves.append(game.hands[-1].moves[-1])
    return HandRecord(deal, boneyard, leader, tuple(moves), _extra(obj)), game


def read_move(obj: object, hidden_draws: bool = False) -> Move:
    """Turn a move object into a ``Move``; rule checks are the engine's. With
    ``hidden_draws`` a draw may be written ``"draw": null`` (a bot-protocol request shows
    other seats' draws so)."""
    if not isinstance(obj, dict):
        raise BonesError("a move must be an object")
    kinds = [k for k in ("play", "draw", "pass") if k in obj]
    if len(kinds) != 1:
        raise BonesError('a move must have exactly one of "play", "draw" or "pass"')
    kind = kinds[0]
    unknown = _unknown(obj, ("seat", kind, "end") if kind == "play" else ("seat", kind))
    if unknown is not None:
        raise BonesError(f"unknown field {quoted(unknown)}")
    seat = obj.get("seat")
    if not is_int(seat):
        raise BonesError(f"the move needs a seat number, not {quoted(seat)}")
    seat = cast(int, seat)
    try:
        if kind == "play":
            # ``end`` is checked by the engine, which ignores it on a hand's first tile.
            return Play(seat, _tile(obj["play"]), cast(Arm | None, obj.get("end")))
        if kind == "draw":
            if hidden_draws and obj["draw"] is None:
                return Draw(seat)
            return Draw(seat, _tile(obj["draw"]))
    except ValueError as exc:
        raise BonesError(str(exc)) from None
    if obj["pass"] is not True:
        raise BonesError('a pass is written "pass": true')
    return Pass(seat)


def _tile(text: object) -> Tile:
    """A record's tile string: exactly ``"a-b"`` (either order), no surrounding spaces."""
    if isinstance(text, str) and text != text.strip():
        raise ValueError(f'{quoted(text)} is not a tile: a tile is two numbers and a dash, '
                         'such as "6-4", without spaces')
    return parse_tile(text)


def replay(record: Record) -> Game:
    """Replay an already parsed record through the engine (checked)."""
    game = games.new_game(record.rules)
    for hand in record.hands:
        game = games.start_hand(game, hand.deal, hand.boneyard, hand.leader)
        for move in hand.moves:
            game = games.play(game, move)
    return game
