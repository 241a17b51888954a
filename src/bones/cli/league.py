"""``bones league``: a round robin of bot levels, every pair a duplicate match on the same
deals, with a table of relative strengths and one rating per level."""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.table import Table

from bones.ai.levels import LEVELS
from bones.cli.common import (
    add_match_arguments,
    counted,
    fresh_seed,
    held_interrupts,
    jobs_and_cluster,
    positive,
    print_tables,
    progress_bar,
    rules_name,
    stopped,
)
from bones.cli.options import add_rules_arguments, rules_from_args
from bones.engine.errors import BonesError
from bones.engine.rules import Rules
from bones.sim.arena import check_lineup, play_deals, rotations
from bones.sim.arena_stats import ArenaTally
from bones.sim.league import pairs, ratings
from bones.sim.parallel import stop
from bones.sim.ray_workers import Cluster


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "league", help="a round robin of bot levels: every pair in a duplicate match, rated",
        description="Play every pair of the levels given in a duplicate match, as bones "
        "arena does, all on the same deals; print each pair's relative strength with its "
        "95% interval, and a rating per level on the Elo scale (mean 0), fitted to every "
        "pair at once.",
    )
    p.add_argument("--bots", required=True, metavar="LEVELS",
                   help=f"two or more levels, comma-separated ({', '.join(LEVELS)}, or "
                   "cmd:PROGRAM); a level given twice counts once. Each pair plays as "
                   "bones arena --bots A,B: with an odd number of seats A holds one more")
    p.add_argument("--games", type=positive, default=100, metavar="N",
                   help="deals per pair (each is played once per rotation; default 100)")
    add_match_arguments(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_rules_arguments(p)
    p.set_defaults(run=run, long_run=True)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    levels = tuple(dict.fromkeys(level.strip() for level in args.bots.split(",")))
    if len(levels) < 2:
        raise BonesError("--bots: a league needs two different levels or more")
    matches = pairs(levels)
    for a, b in matches:  # every lineup checked before a single deal is played
        check_lineup(rules, (a, b))
    seed = args.seed if args.seed is not None else fresh_seed()
    with jobs_and_cluster(args) as (jobs, cluster):  # one connection for every pair
        return _round_robin(args, rules, levels, matches, seed, jobs, cluster)


def _round_robin(args: argparse.Namespace, rules: Rules, levels: tuple[str, ...],
                 matches: list[tuple[str, str]], seed: int, jobs: int,
                 cluster: Cluster | None) -> int:
    """Play every pair, on this machine or ``cluster``, and print the table."""
    played: list[dict[str, object]] = []
    strength: dict[tuple[str, str], float | None] = {}
    interrupted = False
    err = Console(stderr=True)
    with progress_bar(err, disable=args.quiet or not err.is_terminal) as progress:
        task = progress.add_task("league deals", total=args.games * len(matches))
        for a, b in matches:
            tally = ArenaTally(rules, (a, b))
            deals = play_deals(rules, (a, b), seed, args.games, jobs, args.think,
                               cluster=cluster)
            try:
                for outcome in deals:
                    with held_interrupts():
                        tally.add(outcome)
                    progress.advance(task)
                with held_interrupts():  # a pair finished is reported, whenever Ctrl-C comes
                    result = tally.json()
                    strength[(a, b)] = tally.relative()
                    played.append({"a": a, "b": b, "relative": result["relative"],
                                   "relative_interval": result["relative_interval"],
                                   "deals": result["deals"], "hands": result["hands"]})
            except KeyboardInterrupt:
                # the pairs finished are reported; a pair half played would not be
                # comparable with them (other deals), so it is left out
                stop(deals)
                if not played:
                    raise
                interrupted = True
                print(f"bones: {stopped()} after {counted(len(played), 'pair')} of "
                      f"{len(matches)}; the results so far:", file=sys.stderr)
                break
    rated = ratings(levels, strength) if not interrupted else None
    out: dict[str, object] = {
        "levels": list(levels), "pairs": played, "ratings": rated, "seed": seed,
        "rules": rules.to_json(), "think": args.think, "games": args.games,
        "rotations": len(rotations(check_lineup(rules, levels[:2]))),
    }
    if interrupted:
        out["interrupted"] = True
    if args.json:
        print(json.dumps(out))
    else:
        _print(out, rules_name(rules), Console())
    return 130 if interrupted else 0


def _pct(x: object) -> str:
    return "-" if not isinstance(x, float) else f"{100 * x:.1f}%"


def _print(out: dict[str, object], rules: str, console: Console) -> None:
    levels = out["levels"]
    played = out["pairs"]
    rated = out["ratings"]
    assert isinstance(levels, list) and isinstance(played, list)
    console.print(f"league, {rules}: {counted(out['games'], 'deal')} per pair, "
                  f"seed {out['seed']}")
    table = Table()
    table.add_column("pair", justify="left", overflow="fold")
    table.add_column("relative strength [95% CI]", justify="right")
    for match in played:
        interval = match["relative_interval"]
        bounds = f" [{_pct(interval[0])}, {_pct(interval[1])}]" \
            if isinstance(interval, list) else ""
        table.add_row(f"{match['a']} over {match['b']}", f"{_pct(match['relative'])}{bounds}")
    print_tables(console, table)
    console.print("relative strength: the first level's share of the two levels' win rates "
                  "per side-hand (50% is even); intervals count each deal as one sample")
    if isinstance(rated, dict):
        ranking = Table()
        ranking.add_column("level", justify="left", overflow="fold")
        ranking.add_column("rating", justify="right")
        for level in sorted(levels, key=lambda name: -rated[name]):
            ranking.add_row(level, f"{rated[level]:+.0f}")
        console.print("\nratings on the Elo scale (400 points: odds of ten to one), mean 0:")
        print_tables(console, ranking)
    elif not out.get("interrupted"):
        lost = [f"{m['a']} over {m['b']}" for m in played if m["relative"] is None]
        console.print(f"no ratings: {', '.join(lost)} had no hand won by either level")
