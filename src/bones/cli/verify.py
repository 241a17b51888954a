"""``bones verify RECORD``: check a fair game's deals against its revealed seed, then replay
it as ``bones replay`` does.

The record's ``x-fair`` (docs/fair-deals.md) holds the commitment published before the
first deal, the players' seeds and, once the game is over or left, the server seed. The
revealed seed must match the commitment, and every hand's deal, boneyard order and (where
lots decided it) leader must be the ones the seeds give. The deals depend on the seeds and
the hands' numbers only, never on the play, so each hand is checked as it stands in the
file before the moves are replayed: a changed tile is named in its own hand, even where
the change would also break a rule further on.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from bones.cli.common import counted, nonempty_path
from bones.engine.errors import BonesError
from bones.engine.game import Game
from bones.engine.rules import Rules, is_int, rules_from_json
from bones.engine.tiles import Tile, parse_tile
from bones.record.model import Record
from bones.record.reader import RecordFormatError, load, read_file
from bones.record.summary import text
from bones.table.fair import (
    FIELD,
    FairError,
    FairRecord,
    check_hand,
    check_seed,
    fair_deal,
    read_fair,
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "verify", help="check that a fair game's deals are the ones its revealed seed gives",
        description="Check a record of a game dealt fair (bones play --fair): that the "
        "server seed it reveals matches the commitment published before the first deal, and "
        "that every hand's deal, boneyard order and, where lots decided it, leader are the "
        "ones the seeds give (docs/fair-deals.md); then replay it as bones replay does and "
        "print each hand's result. Exit 0 when all holds, 1 naming the first hand that does "
        "not (or for a record without x-fair, without a revealed seed, or that breaks a rule), "
        "2 if the file is not a record at all.",
    )
    p.add_argument("file", metavar="RECORD", type=nonempty_path, help="the record (JSON)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for line in verify(args.file):
        print(line)
    return 0


def verify(path: str) -> list[str]:
    """The report of a record whose deals all check out; ``RecordFormatError`` for a file
    that is not a record, ``BonesError`` (one line) for one that does not check out."""
    broken: BonesError | None = None
    record: Record | None = None
    game: Game | None = None
    try:
        record, game = read_file(path)
    except RecordFormatError:
        raise
    except BonesError as exc:  # said once the deals before it are checked
        broken = exc
    try:
        doc = load(Path(path).read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as exc:  # it was readable a moment ago
        raise RecordFormatError(f"cannot read {path}: {exc}") from None
    fair = _fair_of(doc, path)
    check_seed(fair)
    seeds = fair.seeds
    rules = record.rules if record is not None else _rules(doc)
    if rules is None:
        assert broken is not None
        raise broken
    if len(seeds.player_seeds) != rules.players:
        raise FairError(f"{FIELD}: {counted(len(seeds.player_seeds), 'player seed')} for "
                        f"{rules.players} players")
    for number, (deal, boneyard, leader) in enumerate(_hands(doc), start=1):
        wrong = check_hand(rules, seeds, number, deal, boneyard, leader)
        if wrong is not None:
            raise FairError(wrong)
    if broken is not None:
        raise broken
    assert record is not None and game is not None
    lines = [f"the revealed seed matches the commitment {fair.commitment}"]
    for number in range(1, len(record.hands) + 1):
        dealt = fair_deal(rules, seeds, number)
        notes = []
        if dealt.attempts > 1:
            notes.append(f"redealt {counted(dealt.attempts - 1, 'time')}")
        if dealt.lots is not None:
            notes.append(f"lots: seat {dealt.lots.leader} leads, drawing "
                         f"{dealt.lots.drawn[dealt.lots.leader]}")
        lines.append(f"hand {number}: dealt as the seeds give"
                     + (f" ({'; '.join(notes)})" if notes else ""))
    lines += ["", text(game, record.players), "",
              f"verified: {_every(len(record.hands))}"]
    return lines


def _every(hands: int) -> str:
    if hands == 0:
        return "the record holds no hand yet"
    return ("the 1 hand was" if hands == 1 else f"all {hands} hands were") \
        + " dealt as the seeds give"


def _fair_of(doc: Mapping[str, Any], path: str) -> FairRecord:
    """The record's ``x-fair``, or a refusal naming what is missing."""
    if doc.get(FIELD) is None:
        raise FairError(f"{path} has no {FIELD}: its deals were not dealt to be checked "
                        "(bones play --fair deals such games)")
    return read_fair(doc[FIELD])


def _rules(doc: Mapping[str, Any]) -> Rules | None:
    """The rules of a record the reader refused, if they can be read at all."""
    players = doc.get("players")
    if not isinstance(players, list):
        return None
    try:
        return rules_from_json(doc.get("rules"), players=len(players))
    except BonesError:
        return None


def _hands(doc: Mapping[str, Any]) -> Iterator[tuple[tuple[tuple[Tile, ...], ...],
                                                     tuple[Tile, ...], int | None]]:
    """Each hand's deal, boneyard and leader as the file has them, up to the first that
    cannot be read (the reader names its fault)."""
    hands = doc.get("hands")
    if not isinstance(hands, list):
        return
    for hand in hands:
        if not isinstance(hand, dict):
            return
        deal, boneyard, leader = hand.get("deal"), hand.get("boneyard"), hand.get("leader")
        if not isinstance(deal, list) or not all(isinstance(h, list) for h in deal) \
                or not isinstance(boneyard, list) or not (leader is None or is_int(leader)):
            return
        try:
            yield (tuple(tuple(parse_tile(t) for t in h) for h in deal),
                   tuple(parse_tile(t) for t in boneyard), leader)
        except ValueError:
            return
