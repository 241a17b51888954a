"""``bones lab``: what a rule set, or a grid of rule sets, is like under random play.

Parsing, the progress bar, the tables and the ``--json`` object live here; the grid, the
playing and the statistics are ``bones.lab``'s, the figures ``bones.lab.plotting``'s.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from bones.cli.common import (
    add_jobs_arguments,
    fresh_seed,
    jobs_and_cluster,
    nonempty_path,
    positive,
    print_tables,
    progress_bar,
    rules_name,
    seed_value,
    stopped,
)
from bones.cli.options import add_rules_arguments, rules_from_args
from bones.engine.rules import Rules
from bones.fast import supports
from bones.lab.grid import Variation, expand, parse_vary, show
from bones.lab.metrics import Estimate, Metrics
from bones.lab.running import NOT_FINISHED, LabInterrupted, Row, run_lab

RANDOM_PLAY = ("Random play: these are properties of the rules under random play, not of "
               "expert play.")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "lab", help="measure a rule set under random play, and how options change it",
        description="Play random hands of a rule set, or of every combination of --vary "
        "values, and print with 95% intervals: the leader's advantage, the share of "
        "blocked and tied hands, points per hand, hands per game and, with an ante, chips "
        "per game by seat. " + RANDOM_PLAY + " The same --seed gives the same numbers, "
        "whatever --jobs, on this machine or a cluster (--cluster).",
        epilog="example: bones lab --rules pool --vary spinner --vary players=3..6",
    )
    p.add_argument("--vary", action="append", default=[], metavar="OPTION[=VALUES]",
                   help="vary an option: OPTION alone takes all its values (true/false, "
                   "spinner, set, ...), OPTION=A..B a range, OPTION=a,b,c a list; several "
                   "flags make a grid of every combination")
    p.add_argument("--hands", type=positive, default=200_000, metavar="N",
                   help="random hands per rule set (default: 200000)")
    p.add_argument("--seed", type=seed_value, help="seed (default: a random one, printed with the "
                   "results)")
    add_jobs_arguments(p, "the results")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--plot", metavar="DIR", type=nonempty_path,
                   help="write lab-<metric>.png and .svg into DIR, with error bars")
    p.add_argument("--quiet", action="store_true", help="no progress bar, no list of plots")
    add_rules_arguments(p)
    p.set_defaults(run=run, long_run=True)


def run(args: argparse.Namespace) -> int:
    """Check every flag before playing anything, so a typo costs no waiting; then play,
    plot, and print the tables or the JSON object."""
    base = rules_from_args(args)
    variations = [parse_vary(text) for text in args.vary]
    points = expand(base, variations)
    seed = args.seed if args.seed is not None else fresh_seed()
    dealable = sum(p.rules is not None for p in points)
    if args.plot:
        from bones.lab.plotting import prepare  # matplotlib loads only when plotting

        prepare(Path(args.plot))  # a folder that cannot take the plots costs no waiting
    err = Console(stderr=True)
    with jobs_and_cluster(args) as (jobs, cluster), \
            progress_bar(err, disable=args.quiet or not err.is_terminal) as progress:
        task = progress.add_task("hands", total=args.hands * dealable)
        try:
            rows = run_lab(points, args.hands, seed, jobs, cluster=cluster,
                           progress=lambda n: progress.advance(task, n))
        except LabInterrupted as stop:  # a long grid stopped by hand keeps what it finished
            rows = stop.rows
    interrupted = any(row.point.skipped == NOT_FINISHED for row in rows)
    if interrupted:
        finished = sum(row.metrics is not None for row in rows)
        print(f"bones: {stopped()} after {finished} of {dealable} rule sets; the results so "
              "far:", file=sys.stderr)
    title = f"{rules_name(base)}: {args.hands:,} random hands per rule set, seed {seed}"
    if args.plot:
        from bones.lab.plotting import plot  # matplotlib loads only when plotting

        written = plot(rows, variations, Path(args.plot), title)
        if not args.quiet:
            err.print(f"plots: {len(written)} files in {args.plot}", highlight=False)
    if args.json:
        doc = to_json(base, seed, args.hands, variations, rows)
        if interrupted:
            doc["interrupted"] = True
        print(json.dumps(doc))
    else:
        console = Console()
        for table in tables(title, variations, rows):
            print_tables(console, table)
            console.print()
        console.print(notes(rows), highlight=False)
    return 130 if interrupted else 0


def tables(title: str, variations: Sequence[Variation], rows: Sequence[Row]) -> list[Table]:
    """The metrics table, and with an ante a second one of chips per game by seat."""
    table = _table(title, variations)
    for name in ("leader\nadv. %", "blocked\n%", "tied\n%", "points\n/hand", "hands\n/game"):
        table.add_column(name, justify="right", no_wrap=True)
    for row in rows:
        m = row.metrics
        if m is None:
            table.add_row(*_labels(row), "skipped", "", "", "", "")
            continue
        table.add_row(*_labels(row), _cell(m.leader_advantage, 100, sign=True),
                      _cell(m.blocked, 100), _cell(m.tied, 100),
                      _cell(m.points_per_hand, 1), _cell(m.hands_per_game, 1))
    chipped = [r for r in rows if r.metrics is not None and r.metrics.chips_per_game]
    if not chipped:
        return [table]
    chips = _table("net chips per finished game, by seat 0, 1, ...", variations)
    seats = max(len(_seat_chips(r.metrics)) for r in chipped)
    for seat in range(seats):
        chips.add_column(str(seat), justify="right", no_wrap=True)
    chips.add_column(plus_minus(), justify="right", no_wrap=True)
    for row in chipped:
        estimates = _seat_chips(row.metrics)
        values = [f"{e.value:+.2f}" if e else "-" for e in estimates]
        widest = max((e.half_width for e in estimates if e), default=None)
        chips.add_row(*_labels(row), *values, *[""] * (seats - len(values)),
                      "-" if widest is None else f"{widest:.2f}")
    return [table, chips]


def _table(title: str, variations: Sequence[Variation]) -> Table:
    """A table with a rule under its head and no side walls: with one space of padding
    right of each column, most grids of two options fit in 80 columns. Where one does not,
    the options' values are shortened (``others-m…``), never the numbers, whose columns do
    not wrap; ``--json`` and a wider terminal show every value whole. The title sets the
    least width, so a narrow table does not fold its title."""
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False,
                  padding=(0, 1, 0, 0), min_width=min(80, len(title)))
    for v in variations:
        table.add_column(v.option.replace("_", " "))
    return table


def _labels(row: Row) -> list[str]:
    return [show(value) for _, value in row.point.changes]


def _seat_chips(m: Metrics | None) -> tuple[Estimate | None, ...]:
    return () if m is None or m.chips_per_game is None else m.chips_per_game


def _cell(e: Estimate | None, scale: float, sign: bool = False) -> str:
    """``45.1±0.3``: the value and half its 95% interval, both scaled (100: percent), to
    the decimal that shows the half-width's first digit (one decimal at least, three at
    most), so a narrow interval is never printed as ``±0.0``.

    >>> _cell(Estimate(0.004, 0.0036, 0.0044, 10**6), 100)
    '0.40±0.04'
    """
    if e is None:
        return "-"
    half = e.half_width * scale
    digits = 1 if half <= 0 else min(3, max(1, -math.floor(math.log10(half))))
    return f"{e.value * scale:{'+' if sign else ''}.{digits}f}{plus_minus()}{half:.{digits}f}"


def plus_minus() -> str:
    """``±``, or ``+/-`` where the output cannot encode it (an ASCII console), which would
    otherwise print ``\\xb1``."""
    try:
        "±".encode(sys.stdout.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return "+/-"
    return "±"


def notes(rows: Sequence[Row]) -> str:
    """What the table's numbers are, why each skipped rule set was skipped, and why any was
    played on the engine rather than the fast path (the same hands, only slower)."""
    lines = [
        f"{RANDOM_PLAY} {plus_minus()} is half the 95% interval (Wilson for shares, normal "
        "for means). "
        "Leader adv.: the leader's side's share of decided hands minus 1/sides, in "
        "percentage points.",
    ]
    lines += [f"skipped {row.point.label}: {row.point.skipped}" for row in rows
              if row.point.skipped]
    for row in rows:
        reason = None if row.point.rules is None else supports(row.point.rules)
        if reason is not None:
            where = f" {row.point.label}" if row.point.label else ""
            lines.append(f"played on the engine{where}: {reason}")
    return "\n".join(lines)


def to_json(base: Rules, seed: int, hands: int, variations: Sequence[Variation],
            rows: Sequence[Row]) -> dict[str, Any]:
    """The ``--json`` object; keys are documented in ``docs/lab.md``."""
    return {
        "rules": base.to_json(),
        "seed": seed,
        "hands": hands,
        "play": "random",
        "vary": [{"option": v.option, "values": list(v.values)} for v in variations],
        "rows": [_row_json(row) for row in rows],
    }


def _row_json(row: Row) -> dict[str, Any]:
    rules = row.point.rules
    head: dict[str, Any] = {
        "vary": dict(row.point.changes),
        "rules": None if rules is None else rules.to_json(),
        "skipped": row.point.skipped,
    }
    if rules is None or row.metrics is None:
        return head
    return {**head, "players": rules.players, "sides": rules.sides, **row.metrics.to_json()}
