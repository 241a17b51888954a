"""``bones replay FILE [--json] [--review]``: check a record, print its results, and on
request judge the players' plays."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any

from rich.console import Console

from bones.ai.review import COST_LEGEND, deep_text, mistake_text, review
from bones.cli.common import nonempty_path, positive, progress_bar
from bones.engine.game import Game
from bones.record.listing import listing
from bones.record.model import Record
from bones.record.reader import read_file
from bones.record.summary import printable, summary, text


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay", help="check a game record and print each hand's result",
        description="Read a bones-record/1 file, replay every move through the engine, and "
        "print each hand's result and the game score. Exit 1 if the record breaks a rule "
        "(one line naming the hand and move), 2 if it is not a record at all, or for a flag "
        "it cannot take (an unknown one, a --seat the record does not have, --seat or --top "
        "without --review).",
    )
    p.add_argument("file", metavar="FILE", type=nonempty_path, help="the record (JSON)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--review", action="store_true",
                   help="also list, for every finished hand, the plays that cost each seat "
                   "the most, judged by an exact solve of the revealed deal (as `r` does "
                   "after a hand of bones play; big hands take a while, and decisions too "
                   "deep to solve are counted, not judged)")
    p.add_argument("--moves", action="store_true",
                   help="also list every hand move by move: the deal, the leader, and each "
                   "play, draw and pass, numbered as --review numbers them")
    p.add_argument("--seat", type=int, action="append", metavar="S",
                   help="with --review: only this seat (repeat for more; default every seat)")
    p.add_argument("--top", type=positive, default=None, metavar="N",
                   help="with --review: the N costliest plays per seat and hand (default 3)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not args.review and (args.seat or args.top):
        print("bones: --seat and --top go with --review", file=sys.stderr)
        return 2
    if args.moves and args.json:
        print("bones: --moves goes with the text report (the record itself lists the moves "
              "in JSON)", file=sys.stderr)
        return 2
    # The record format's contract: "prints the one message to standard error"; it is
    # printed as every command's refusals are, after ``bones: ``, by ``main``: status 2
    # for a file that is not a record at all (``RecordFormatError``), else 1.
    record, game = read_file(args.file)
    top = args.top or 3
    seats = tuple(range(game.rules.players))
    if args.seat:
        wrong = [s for s in args.seat if s not in seats]
        if wrong:
            print(f"bones: --seat {wrong[0]}: the record has seats 0 to {seats[-1]}",
                  file=sys.stderr)
            return 2
        seats = tuple(dict.fromkeys(args.seat))
    if args.json:
        out = summary(game)
        if args.review:
            out["review"] = list(_shown_progress(_reviews(game, seats, top),
                                                 len(game.results) * len(seats)))
        print(json.dumps(out))
        return 0
    print(text(game, record.players))
    if (undone := _undone(record)) is not None:
        print(undone)
    if args.moves:
        print()
        print(listing(game, record.players))
    if args.review:
        _print_review(game, record, seats, top)
    return 0


def _undone(record: Record) -> str | None:
    """A record of a game in which ``undo`` was used says so (``x-undo``, how many plays
    were taken back): its plays are a practice game's, not one try each."""
    times = dict(record.extra).get("x-undo")
    if not isinstance(times, int) or isinstance(times, bool) or times <= 0:
        return None
    return f"practice game: undo was used {times} time{'' if times == 1 else 's'}"


def _shown_progress(rows: Iterator[dict[str, Any]], total: int) -> Iterator[dict[str, Any]]:
    """The reviews, with a progress bar on standard error while they are solved (a big
    hand takes seconds); off where standard error is not a terminal."""
    err = Console(stderr=True)
    with progress_bar(err, disable=not err.is_terminal) as progress:
        task = progress.add_task("reviewing", total=total)
        for row in rows:
            yield row
            progress.advance(task)


def _reviews(game: Game, seats: tuple[int, ...], top: int) -> Iterator[dict[str, Any]]:
    """Per finished hand and seat: its ``top`` costliest plays and how many of its decisions
    were too deep to solve. The game score before each hand goes to the judge, which knows
    when a hand decides the game."""
    scores = [0] * game.rules.sides
    finished = game.hands[:len(game.results)]
    for number, (hand, result) in enumerate(zip(finished, game.results, strict=True), start=1):
        for seat in seats:
            mistakes, skipped = review(hand, seat, tuple(scores))
            yield {"hand": number, "seat": seat, "skipped": skipped,
                   "mistakes": [{"move": m.move_number, "own_play": m.play_number,
                                 "play": str(m.played.tile), "end": m.played.end,
                                 "best": str(m.best.tile), "best_end": m.best.end,
                                 "cost": round(m.cost, 6),
                                 "text": mistake_text(m)}
                                for m in mistakes[:top]]}
        scores = [s + p for s, p in zip(scores, result.points, strict=True)]


def _print_review(game: Game, record: Record, seats: tuple[int, ...], top: int) -> None:
    print("\nreview: each seat's costliest plays by an exact solve of the revealed deal "
          f"({COST_LEGEND})")
    for row in _shown_progress(_reviews(game, seats, top), len(game.results) * len(seats)):
        seat = row["seat"]
        name = printable(record.players[seat]) if seat < len(record.players) \
            else f"seat {seat}"
        deep = f" ({deep_text(row['skipped'])})" if row["skipped"] else ""
        head = f"hand {row['hand']}, {name} (seat {seat})"
        if not row["mistakes"]:
            print(f"{head}: no play could have done better{deep}")
            continue
        print(f"{head}:{deep}")
        for mistake in row["mistakes"]:
            print(f"  {mistake['text']}")
    unfinished = len(game.hands) - len(game.results)
    if unfinished:
        print(f"hand {len(game.hands)} is still in play: not reviewed")
