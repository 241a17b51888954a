"""``bones arena``: a duplicate match between bots, with 95% intervals and an optional SPRT."""

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
    nonempty_path,
    positive,
    print_tables,
    progress_bar,
    rules_name,
    stopped,
)
from bones.cli.options import add_rules_arguments, rules_from_args
from bones.engine.errors import BonesError
from bones.engine.rules import Rules
from bones.record.folder import RecordFolder
from bones.sim.arena import check_lineup, play_deals, rotations
from bones.sim.arena_stats import ArenaTally
from bones.sim.parallel import stop
from bones.sim.ray_workers import Cluster
from bones.sim.sprt import Sprt

#: Deals between two looks at the SPRT (and progress updates of the verdict).
SPRT_STEP = 50


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "arena", help="a duplicate match between bots: win rates with 95%% intervals",
        description="Deal hands and play each one once per rotation of the seats, so every "
        "bot holds every seat's tiles and luck cancels. Prints each bot's win rate per hand "
        "with its 95% interval and mean points per hand. The interval counts each deal as "
        "one sample, since its rotations share its luck (--json also gives the interval "
        "that counts hands as independent).",
    )
    p.add_argument("--bots", default="greedy,random", metavar="LEVELS",
                   help=f"the lineup, repeated around the table ({', '.join(LEVELS)}, or "
                   "cmd:PROGRAM); default greedy,random")
    p.add_argument("--games", type=positive, default=200, metavar="N",
                   help="deals to play (each is played once per rotation; default 200)")
    add_match_arguments(p)
    p.add_argument("--sprt", action="store_true",
                   help="stop early once an SPRT (p0 0.5, p1 0.55, alpha = beta = 0.05) on "
                   "the first two bots' relative strength, read deal by deal, reaches a "
                   "verdict")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--record", metavar="DIR", type=nonempty_path,
                   help="save every hand as a game record in DIR (deal-NNNN-R.json: deal "
                   "NNNN in rotation R, each readable by bones replay) and the results as "
                   "DIR/arena.json; DIR must not hold another run's records")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_rules_arguments(p)
    p.set_defaults(run=run, long_run=True)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    levels = tuple(level.strip() for level in args.bots.split(","))
    seed = args.seed if args.seed is not None else fresh_seed()
    order = tuple(dict.fromkeys(levels))
    seats = check_lineup(rules, levels)  # before anything is made, the record folder too
    if args.sprt and len(order) < 2:
        raise BonesError("--sprt compares two levels, and the lineup has one")
    with jobs_and_cluster(args) as (jobs, cluster):  # a cluster's address checked, too
        return _match(args, rules, levels, seed, order, seats, jobs, cluster)


def _match(args: argparse.Namespace, rules: Rules, levels: tuple[str, ...], seed: int,
           order: tuple[str, ...], seats: tuple[str, ...], jobs: int,
           cluster: Cluster | None) -> int:
    """Play the match, on this machine or ``cluster``, and print its results."""
    tally = ArenaTally(rules, order)
    sprt = Sprt() if args.sprt else None
    verdict = "continue"
    err = Console(stderr=True)
    # With the SPRT, workers take one deal at a time, so little is played past a verdict
    # (the pool is kept for the whole run: no restart, no wait for stragglers, per look).
    chunk = 1 if sprt is not None else None
    folder = RecordFolder(args.record, args.games) if args.record is not None else None
    interrupted = False
    deals = play_deals(rules, levels, seed, args.games, jobs, args.think, chunk=chunk,
                       records=folder is not None, cluster=cluster)
    try:
        with progress_bar(err, disable=args.quiet or not err.is_terminal) as progress:
            task = progress.add_task("arena deals", total=args.games)
            for outcome in deals:
                with held_interrupts():  # the tally and the records hold the same deals
                    tally.add(outcome)
                    if folder is not None:
                        folder.add(outcome.index, outcome.records)
                progress.advance(task)
                if sprt is not None and (tally.deals % SPRT_STEP == 0
                                         or tally.deals == args.games):
                    verdict = sprt.judge(tally.sprt_llr(sprt))
                    if verdict != "continue":
                        break
    except KeyboardInterrupt:
        # A long match stopped by hand still reports (and saves) the deals it finished.
        stop(deals)  # its workers end now, not after the deals they began
        if tally.deals == 0:
            raise
        interrupted = True
        print(f"bones: {stopped()} after {tally.deals} of {args.games} deals; the results "
              "so far:", file=sys.stderr)
    finally:
        # However the match ended (done, stopped, failed), no deal is left to play: seed
        # the records written, with Ctrl-C dropped (there is nothing left to stop).
        if folder is not None:
            with held_interrupts(then_raise=False):
                folder.seal(seed)
    result = tally.json()
    if interrupted:
        result["interrupted"] = True
    result.update(seed=seed, rules=rules.to_json(), think=args.think,
                  lineup=list(seats), rotations=len(rotations(seats)))
    if sprt is not None:
        result["sprt"] = {"p0": sprt.p0, "p1": sprt.p1, "alpha": sprt.alpha,
                          "beta": sprt.beta, "llr": tally.sprt_llr(sprt),
                          "llr_per_hand": sprt.llr(*tally.head_to_head),
                          "bounds": list(sprt.bounds), "verdict": verdict}
    if folder is not None:
        folder.finish(result)
    if args.json:
        print(json.dumps(result))
    else:
        _print(result, rules_name(rules), Console())
    return 130 if interrupted else 0


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _print(result: dict[str, object], rules: str, out: Console) -> None:
    title = (f"arena, {rules}: {counted(result['deals'], 'deal')} x "
             f"{counted(result['rotations'], 'rotation')} = "
             f"{counted(result['hands'], 'hand')}, seed {result['seed']}")
    table = Table(title=title)
    for name in ("bot", "hands", "wins", "win rate [95% CI]", "points/hand"):
        # a long cmd: name folds rather than being cut: two bots in one folder would
        # otherwise read the same
        table.add_column(name, justify="left" if name == "bot" else "right",
                         overflow="fold" if name == "bot" else "ellipsis")
    levels = result["levels"]
    assert isinstance(levels, list)
    for row in levels:
        low, high = row["interval"]
        pph = row["points_per_hand"]
        table.add_row(row["level"], str(row["hands"]), str(row["wins"]),
                      f"{_pct(row['win_rate'])} [{_pct(low)}, {_pct(high)}]",
                      "-" if pph is None else f"{pph:.2f}")
    print_tables(out, table)
    deals, turns, blocked = result["deals"], result["rotations"], result["blocked"]
    assert isinstance(deals, int) and isinstance(turns, int)
    seatings = {1: "its one seating", 2: "both seatings"}.get(turns, f"all {turns} seatings")
    out.print(f"{counted(deals, 'deal')}, each played in {seatings} (rotations): "
              f"{counted(result['hands'], 'hand')}, {_pct(blocked)} of them blocked. "  # type: ignore[arg-type]
              "Rates count hands; the 95% intervals count deals, since a deal's seatings "
              "share its luck.")
    for row in levels:
        if row["moves_played_for"]:
            out.print(f"{row['level']}: {row['moves_played_for']} of its {row['moves_asked']} "
                      "moves were played for it after a late, missing or illegal reply (a "
                      "random legal tile; the log above says why)")
    h2h = result["head_to_head"]
    assert isinstance(h2h, dict)
    if len(levels) >= 2:
        first = levels[0]["level"]
        low, high = h2h["interval"]
        out.print(f"head to head: {first} won {h2h['wins']} of the "
                  f"{h2h['wins'] + h2h['losses']} hands won by either: "
                  f"{_pct(h2h['share'])} [{_pct(low)}, {_pct(high)}]")
        interval = result["relative_interval"]
        bounds = "" if not isinstance(interval, list) else (
            f" [{_pct(interval[0])}, {_pct(interval[1])}]")
        out.print(f"relative strength: {_pct(result['relative'])}{bounds} "  # type: ignore[arg-type]
                  f"({first}'s win rate / both rates)")
        out.print("(the same share as head to head, its interval reckoned another way)"
                  if levels[0]["hands"] == levels[1]["hands"] else
                  "(unlike head to head, 50% for equal bots that hold unequal numbers of seats)")
    sprt = result.get("sprt")
    if isinstance(sprt, dict):
        meaning = {"H1": f"{levels[0]['level']} is stronger (p >= {sprt['p1']})",
                   "H0": f"{levels[0]['level']} is not stronger by the margin",
                   "continue": "no verdict yet"}[sprt["verdict"]]
        out.print(f"SPRT: llr {sprt['llr']:.2f} in [{sprt['bounds'][0]:.2f}, "
                  f"{sprt['bounds'][1]:.2f}]: {meaning}")
