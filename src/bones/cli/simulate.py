"""``bones simulate``: play bots against each other and print win rates with 95% intervals.

Parsing, the progress bar, the table and the record files live here; the games are played by
``bones.sim.referee`` and counted by ``bones.sim.stats``.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bones.ai.base import LEVELS
from bones.cli.common import (
    cores,
    counted,
    fresh_seed,
    held_interrupts,
    nonempty_path,
    positive,
    print_tables,
    progress_bar,
    rules_name,
    seconds,
    seed_value,
    stopped,
)
from bones.cli.options import add_rules_arguments, rules_from_args
from bones.engine.errors import BonesError
from bones.engine.rules import Rules
from bones.record.files import (
    check_place,
    holds_something,
    probe,
    reason,
    rewrite,
    write_whole,
)
from bones.record.folder import refuse_used
from bones.record.writer import dump
from bones.sim.fastsim import fast_series, summary_of
from bones.sim.parallel import stop
from bones.sim.referee import GameOutcome, check_levels, game_seed, play_series
from bones.sim.stats import Summary, Tally, Unit


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "simulate", help="play bots against each other and report win rates",
        description="Play games (or hands) between bots and print, per seat or side, the wins "
        "with a 95% Wilson interval and the mean points per hand, plus hands per game and "
        "the share of blocked and tied hands. The same --seed gives the same output.",
    )
    p.add_argument("--bots", default="greedy", metavar="LEVELS",
                   help=f"bot level per seat, comma separated ({', '.join(LEVELS)}, or "
                   "cmd:PROGRAM for an outside bot); one level fills every seat "
                   "(default: greedy)")
    p.add_argument("--think", type=seconds, default=0.1, metavar="SECONDS",
                   help="time per move for search and outside bots (default: 0.1)")
    count = p.add_mutually_exclusive_group()
    count.add_argument("--games", type=positive, metavar="N",
                       help="whole games to play (default: 100)")
    count.add_argument("--hands", type=positive, metavar="N",
                       help="single hands to play instead, in games played one after another")
    p.add_argument("--seed", type=seed_value, help="seed of the series (default: a random one, "
                   "printed with the results)")
    p.add_argument("--record", metavar="PATH", type=nonempty_path,
                   help="save the records: PATH.json for a single game, else a directory of "
                   "game-0001.json, ...")
    p.add_argument("--jobs", type=positive, default=cores(), metavar="J",
                   help="worker processes; results equal those of one process (default: "
                   "every core it may use)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_rules_arguments(p)
    p.set_defaults(run=run, long_run=True)



def bot_levels(text: str, rules: Rules) -> tuple[str, ...]:
    """The ``--bots`` list checked against the seats; one level fills every seat."""
    levels = [level.strip() for level in text.split(",")]
    if len(levels) == 1:
        levels *= rules.players
    return check_levels(rules, levels)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    levels = bot_levels(args.bots, rules)
    seed = args.seed if args.seed is not None else fresh_seed()
    unit: Unit = "hands" if args.hands is not None else "games"
    total = args.hands if unit == "hands" else (args.games or 100)
    if args.record and Path(args.record).suffix == ".json" and (unit == "hands" or total > 1):
        plays = (f"--hands {total} plays games one after another" if unit == "hands"
                 else f"--games {total} plays several")
        raise BonesError(f"--record {args.record} names one game's file, but {plays}: "
                         "name a folder for their records")
    err = Console(stderr=True)
    if set(levels) == {"random"} and not args.record:
        summary, interrupted = _fast(rules, seed, unit, total, args, err)
    else:
        summary, interrupted = _refereed(rules, levels, seed, unit, total, args, err)
    if interrupted:
        done = summary.games if unit == "games" else summary.hands
        print(f"bones: {stopped()} after {done} of {total} {unit}; the results so far:",
              file=sys.stderr)
    if args.json:
        doc = summary.to_json()
        if interrupted:
            doc["interrupted"] = True
        print(json.dumps(doc))
    else:
        print_tables(Console(), *tables(summary))
    return 130 if interrupted else 0


def _fast(rules: Rules, seed: int, unit: Unit, total: int, args: argparse.Namespace,
          err: Console) -> tuple[Summary, bool]:
    """Every seat random and nothing to record: the fast path plays exactly that. Also
    whether Ctrl-C stopped it (the summary is then of the chunks finished)."""
    with progress_bar(err, disable=args.quiet or not err.is_terminal) as progress:
        task = progress.add_task(f"{unit} (fast path)", total=total)
        series = fast_series(rules, seed, unit, total, args.jobs,
                             lambda n: progress.advance(task, n))
    return summary_of(series, seed, unit), series.interrupted


def _refereed(rules: Rules, levels: tuple[str, ...], seed: int, unit: Unit, total: int,
              args: argparse.Namespace, err: Console) -> tuple[Summary, bool]:
    """Bots asked move by move through their seat's view, by the referee. Also whether
    Ctrl-C stopped the series: a long run stopped by hand still reports (and saves) the
    games it finished."""
    tally = Tally(rules, levels, seed, unit)
    recorder = Recorder(Path(args.record), seed) if args.record else None
    outcomes = play_series(rules, levels, seed, games=total if unit == "games" else None,
                           hands=total if unit == "hands" else None, jobs=args.jobs,
                           keep_records=recorder is not None, think=args.think)
    finished = 0
    interrupted = False
    try:
        with progress_bar(err, disable=args.quiet or not err.is_terminal) as progress:
            task = progress.add_task(f"{unit}", total=total)
            for outcome in outcomes:
                with held_interrupts():  # the tally and the records hold the same games
                    tally.add(outcome)
                    if recorder is not None:
                        recorder.add(outcome)
                    finished += 1
                progress.advance(task, 1 if unit == "games" else len(outcome.results))
    except KeyboardInterrupt:
        stop(outcomes)  # its workers end now, not after the games they began
        if finished == 0:
            raise
        interrupted = True
    finally:
        # However the series ended (done, stopped, failed), no game is left to play: add
        # every record's seed. A Ctrl-C meanwhile is dropped, since there is nothing left
        # to stop, only the run's records to lose.
        if recorder is not None:
            with held_interrupts(then_raise=False):
                recorder.close()
    return tally.summary(), interrupted



class Recorder:
    """Writes each game's record as it arrives: to ``path`` itself when it names a ``.json``
    file (a run of one game; ``run`` refuses more), else to ``game-0001.json``, ... in the
    folder ``path``.

    A record's ``seed`` (``game_seed``) names the series seed, which deals every game: an
    outside bot in the series runs with the user's permissions and could read the folder
    while the series goes on. So records are written without it, and ``close``, once no
    game is left to play, adds it to each."""

    def __init__(self, path: Path, seed: int) -> None:
        self.path = path
        self.seed = seed
        self.count = 0
        #: Each file written so far, and the index of its game in the series.
        self.written: list[tuple[Path, int]] = []
        # Refused before anything is played: a folder that already holds a series' games
        # (a shorter second run would leave the first one's later games behind as its own),
        # a file that holds something (it would be replaced without a word), and a place
        # where no file can be made (the run's work would be lost at its end).
        folder = path.parent if path.suffix == ".json" else path
        if path.suffix != ".json":
            refuse_used(path, ("game-*.json",), " (name a .json file to save a single game)")
        elif path.is_dir() and not path.is_symlink():
            raise BonesError(f"cannot write the record to {path}: it is a folder (name a "
                             "folder without .json for the records of several games)")
        elif holds_something(path):
            raise BonesError(f"cannot write the record to {path}: it already holds "
                             "something; choose a new file or remove it")
        else:
            try:
                check_place(path)  # a device, a pipe, a link: refused, never replaced
            except OSError as exc:
                raise BonesError(f"cannot write the record to {path}: {reason(exc)}") \
                    from None
        try:
            probe(folder)
        except OSError as exc:
            raise BonesError(f"cannot write the records to {folder}: {reason(exc)}") \
                from None

    def add(self, outcome: GameOutcome) -> None:
        self.count += 1
        single = self.path.suffix == ".json"
        self._write(self.path if single else self.path / f"game-{self.count:04d}.json",
                    outcome)

    def close(self) -> None:
        """Add each record's seed, the series being over."""
        for path, index in self.written:
            try:
                rewrite(path, functools.partial(_with_seed, seed=game_seed(self.seed, index)))
            except OSError as exc:
                raise BonesError(f"cannot write record {path}: {reason(exc)}") from None
        self.written.clear()

    def _write(self, path: Path, outcome: GameOutcome) -> None:
        assert outcome.record is not None
        try:
            write_whole(path, dump(outcome.record))
        except OSError as exc:
            raise BonesError(f"cannot write record {path}: {reason(exc)}") from None
        self.written.append((path, outcome.index))


def _with_seed(doc: dict[str, Any], seed: str) -> dict[str, Any]:
    """A record with its ``seed`` where ``record_of`` puts it: after the hands, before the
    ``x-`` fields, so the file reads as if written with it."""
    items = list(doc.items())
    items.insert(list(doc).index("hands") + 1, ("seed", seed))
    return dict(items)


def tables(summary: Summary) -> list[Table]:
    """The results table, and with partnerships a second one per seat for the chips."""
    rules = summary.rules
    title = (f"{rules_name(rules)}: {counted(summary.games, 'game')}, "
             f"{counted(summary.hands, 'hand')}, seed {summary.seed}")
    by_side = Table(title=title, caption=_caption(summary), title_justify="left",
                    caption_justify="left", caption_style="none")
    by_side.add_column("side" if rules.partnerships else "seat", justify="right")
    by_side.add_column("bots" if rules.partnerships else "bot")
    by_side.add_column(f"{summary.unit} won", justify="right")
    by_side.add_column("win rate [95% CI]", justify="right")
    by_side.add_column("points/hand", justify="right")
    chips = rules.ante > 0
    if chips and not rules.partnerships:
        by_side.add_column("chips/game", justify="right")
    for side in summary.sides:
        low, high = side.interval
        row = [" & ".join(str(s) for s in side.seats), " & ".join(side.bots), str(side.wins),
               f"{side.win_rate:.1%} [{low:.1%}, {high:.1%}]", f"{side.points_per_hand:.2f}"]
        if chips and not rules.partnerships:
            row.append(_chips(summary.seats[side.side].chips_per_game))
        by_side.add_row(*row)
    if not (chips and rules.partnerships):
        return [by_side]
    by_seat = Table(title="chips per game", title_justify="left")
    for name in ("seat", "bot", "side", "chips/game"):
        by_seat.add_column(name, justify="left" if name == "bot" else "right")
    for seat in summary.seats:
        by_seat.add_row(str(seat.seat), seat.bot, str(seat.side), _chips(seat.chips_per_game))
    return [by_side, by_seat]



def _chips(value: float | None) -> str:
    return "-" if value is None else f"{value:+.2f}"


def _caption(summary: Summary) -> str:
    per_game = "-" if summary.hands_per_game is None else f"{summary.hands_per_game:.2f}"
    blocked = summary.blocked_hands / summary.hands if summary.hands else 0.0
    tied = summary.tied_hands / summary.hands if summary.hands else 0.0
    return f"hands per game {per_game}, blocked hands {blocked:.1%}, tied hands {tied:.1%}"
