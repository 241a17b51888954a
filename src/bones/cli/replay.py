"""``bones replay FILE [--json]``: check a record and print its results."""

from __future__ import annotations

import argparse
import json

from bones.record.reader import read_file
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
    record, game = read_file(args.file)
    if args.json:
        print(json.dumps(summary(game)))
    else:
        print(text(game, record.players))
    return 0
