"""``bones replay FILE [--json]``: check a record and print its results."""

from __future__ import annotations

import argparse
import json
import sys

from bones.engine.errors import BonesError
from bones.record.reader import RecordFormatError, read_file
from bones.record.summary import summary, text


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay", help="check a game record and print each hand's result",
        description="Read a bones-record/1 file, replay every move through the engine, and "
        "print each hand's result and the game score. Exit 1 if the record breaks a rule "
        "(one line naming the hand and move), 2 if it is not a record at all.",
    )
    p.add_argument("file", metavar="FILE", help="the record (JSON)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # The record format's contract: "prints the one message to standard error", so the
    # message alone (``hand 2, move 7: ...``), without the ``bones: `` other commands add.
    try:
        record, game = read_file(args.file)
    except RecordFormatError as exc:
        print(exc, file=sys.stderr)
        return 2
    except BonesError as exc:
        print(exc, file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(summary(game)))
    else:
        print(text(game, record.players))
    return 0
