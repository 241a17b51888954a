"""Two arena runs of the same seed, compared deal by deal: what a change to a bot is worth.

    bones arena --rules block --bots expert,ismcts --games 1000 --seed 77 --record a/
    (change the bot)
    bones arena --rules block --bots expert,ismcts --games 1000 --seed 77 --record b/
    .venv/bin/python benchmarks/paired.py a/ b/ [--level expert]

Both runs deal the same hands (the seed decides them), so the luck of the deals cancels in
the difference: per deal, the level's win rate per hand in run B minus that in run A. The
mean over the deals both runs played, its standard error and its 95% interval are printed
with each run's wins. This is far tighter than the two runs' own intervals: for two
versions of the expert against ``ismcts``, 1,000 deals of 2-player Block gave standard errors
of 0.6 to 0.8 points, a 95% interval of about ±1.2 to ±1.6, where each run's own interval is
about ±1.8 and the difference of two runs on other deals would be about ±2.5.

Each hand is read back with ``bones.record.read_file``, so every record is checked by the
engine on the way; a deal that differs between the runs (another seed, other rules) is
refused, naming it.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bones.engine.errors import BonesError
from bones.record import Record, read_file
from bones.record.folder import PATTERN
from bones.sim.arena import DealOutcome
from bones.sim.arena_stats import ArenaTally
from bones.sim.stats import Z95


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal of a run: its records (one per rotation) and the level's (wins, hands)."""

    records: tuple[Record, ...]
    wins: int
    hands: int


def deals(folder: Path, level: str) -> dict[int, Deal]:
    """Every deal of a run's records folder, by deal number."""
    found: dict[int, list[tuple[int, Path]]] = {}
    for path in folder.glob(PATTERN):
        try:
            _, deal, rotation = path.stem.split("-")
            found.setdefault(int(deal), []).append((int(rotation), path))
        except ValueError:
            raise BonesError(f"{path}: not a name bones arena --record writes") from None
    if not found:
        raise BonesError(f"{folder}: no arena records (deal-*.json) in it")
    return {deal: _deal(sorted(paths), level) for deal, paths in found.items()}


def _deal(paths: list[tuple[int, Path]], level: str) -> Deal:
    records = []
    plays = []
    rules = None
    for _, path in paths:
        try:
            record, game = read_file(path)
        except BonesError as exc:
            raise BonesError(f"{path}: {exc}") from None
        records.append(record)
        plays.append((record.players, game.results[-1]))
        rules = record.rules
    assert rules is not None
    names = tuple(dict.fromkeys(name for seats, _ in plays for name in seats))
    if level not in names:
        raise BonesError(f"{paths[0][1]}: no seat is {level!r} (the lineup: {', '.join(names)})")
    tally = ArenaTally(rules, (level, *(name for name in names if name != level)))
    tally.add(DealOutcome(0, tuple(plays), tuple((((0, 0),) * rules.players) for _ in plays)))
    stats = tally.stats[level]
    return Deal(tuple(records), stats.wins, stats.hands)


def _dealt(deal: Deal) -> tuple[object, ...]:
    """What makes two runs' deal the same: rules, tiles, draw order and leader (the lineups
    may differ: the level's results against one opponent and another compare too)."""
    record = deal.records[0]
    hand = record.hands[0]
    return record.rules, hand.deal, hand.boneyard, hand.leader


@dataclass(frozen=True, slots=True)
class Paired:
    """The comparison: deals compared, each run's wins and hands, and the mean difference
    in win rate per hand (B minus A) with its standard error."""

    deals: int
    wins_a: int
    wins_b: int
    hands: int
    mean: float
    se: float

    def lines(self, level: str) -> Iterator[str]:
        yield (f"{self.deals} deals, {self.hands} hands of {level} in each run: A won "
               f"{self.wins_a} ({100 * self.wins_a / self.hands:.2f}%), B won {self.wins_b} "
               f"({100 * self.wins_b / self.hands:.2f}%)")
        low, high = self.mean - Z95 * self.se, self.mean + Z95 * self.se
        yield (f"B - A, win rate per hand: {100 * self.mean:+.2f} points, standard error "
               f"{100 * self.se:.2f}, 95% interval [{100 * low:+.2f}, {100 * high:+.2f}]")


def compare(a: dict[int, Deal], b: dict[int, Deal]) -> Paired:
    shared = sorted(set(a) & set(b))
    if len(shared) < 2:
        raise BonesError(f"the runs share {len(shared)} deal(s); at least 2 are needed")
    diffs = []
    for deal in shared:
        x, y = a[deal], b[deal]
        if _dealt(x) != _dealt(y) or x.hands != y.hands:
            raise BonesError(f"deal {deal} differs between the runs (another seed or other "
                             "rules?)")
        if x.hands == 0:
            raise BonesError(f"deal {deal}: the level holds no side of its own in it")
        diffs.append((y.wins - x.wins) / x.hands)
    n = len(diffs)
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return Paired(n, sum(a[d].wins for d in shared), sum(b[d].wins for d in shared),
                  sum(a[d].hands for d in shared), mean, math.sqrt(variance / n))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", type=Path, help="the first run's --record folder")
    parser.add_argument("b", type=Path, help="the second run's --record folder")
    parser.add_argument("--level", default=None,
                        help="the bot level to compare (default: the first seat's in run A)")
    args = parser.parse_args(argv)
    try:
        level = args.level
        if level is None:
            first = min(args.a.glob(PATTERN), default=None)
            if first is None:
                raise BonesError(f"{args.a}: no arena records (deal-*.json) in it")
            level = read_file(first)[0].players[0]
        paired = compare(deals(args.a, level), deals(args.b, level))
    except BonesError as exc:
        print(f"paired: {exc}", file=sys.stderr)
        return 1
    for line in paired.lines(level):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
