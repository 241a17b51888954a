"""The expert's per-deal evaluation on each path: the C extension (``bones.fast.search``)
against the Python ``Judge``, side by side, in one run.

For each rule set, deals are made by random play from a fresh deal until a given number of
tiles is left in the hands; each path then runs the body of ``ExpertBot.choose`` on every
deal: each candidate move is solved exactly (falling back to a playout when a solve passes
the expert's node limit, as the expert does) or, for the playout rows, played out. Figures
are candidate moves evaluated per second of the process's CPU time, so other work on the
machine does not count; both paths see the same deals and the same moves.

    python benchmarks/search_paths.py [--seconds 2] [--deals 200]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bones.ai.expert_config import DEFAULT_CONFIG
from bones.ai.judge import Judge, Memo, OutOfNodes
from bones.ai.position import Position
from bones.cli.common import positive, seconds
from bones.engine.game import deal_hand, new_game
from bones.engine.rules import PRESETS, Rules
from bones.engine.state import apply_unchecked
from bones.fast.search import Candidates, SearchSpec, available, evaluate

RULE_SETS: dict[str, Rules] = {
    "2-player Block": PRESETS["block"],
    "4-player partnership Block": PRESETS["block"].replace(players=4, partnerships=True,
                                                           hand_size=7),
    "3-player Draw": PRESETS["draw"].replace(players=3),
}

#: (label, tiles left in the hands, exact): the rows measured for each rule set.
ROWS = [("exact, 9 tiles left", 9, True), ("exact, 12 tiles left", 12, True),
        ("playouts, from the deal", 99, False)]

Deal = tuple[Position, list[int], int]


def deals(rules: Rules, left: int, count: int, rng: random.Random) -> list[Deal]:
    """Positions after random play down to ``left`` tiles in hands (the deal itself when
    ``left`` is more than were dealt), with their moves and the seat to move."""
    out: list[Deal] = []
    while len(out) < count:
        state = deal_hand(new_game(rules), rng).current
        assert state is not None  # a fresh deal is in play
        while state.end is None and sum(len(h) for h in state.hands) > left:
            state = apply_unchecked(state, rng.choice(state.legal_moves()))
        if state.end is None:
            pos = Position.from_state(state)
            out.append((pos, pos.moves(), state.to_move))
    return out


def python_path(rules: Rules, exact: bool, pool: list[Deal]) -> Callable[[int], int]:
    """The loop of ``ExpertBot.choose`` on the Python judge (a failed solve's position put
    back, as the C path does), for the ``i``-th deal of ``pool``; returns the moves
    evaluated."""
    rng = random.Random(1)

    def run(i: int) -> int:
        pos, moves, seat = pool[i]
        judge = Judge(rules, seat, (0,) * rules.sides)
        solving = exact
        table: Memo = {}  # one per deal, as in C
        for move in moves:
            pos.play(move)
            depth = len(pos.stack)
            value = None
            if solving:
                try:
                    value = judge.solve(pos, DEFAULT_CONFIG.node_limit, table)
                except OutOfNodes:
                    solving = False
                    while len(pos.stack) > depth:
                        pos.undo()
            if value is None:
                value = judge.playout(pos, rng)
            pos.undo()
        return len(moves)

    return run


def c_path(rules: Rules, exact: bool, pool: list[Deal]) -> Callable[[int], int]:
    """The same loop in C, called as the expert calls it: what a decision's deals share (the
    spec, made by the judge with the Python path's node limit, and the ``Candidates``) is
    made before the clock starts, once per deal of ``pool`` here as the expert makes it once
    per decision, and each call passes only the deal's hidden part beside it. (Looked up by
    the deal per call instead, a dict keyed by ``id(pos)`` cost the cheapest rows about
    0.2 microseconds a call, a few percent of the figure, which the expert does not pay.)"""
    rng = random.Random(1)
    specs: dict[int, SearchSpec] = {}
    prepared: list[tuple[Candidates, Position, int]] = []
    for pos, moves, seat in pool:
        if seat not in specs:
            specs[seat] = Judge(rules, seat, (0,) * rules.sides).spec(DEFAULT_CONFIG.node_limit)
        prepared.append((Candidates(specs[seat], pos.to_move, pos.arms, pos.spinner,
                                    pos.waiting, pos.placed, pos.opening, pos.status, moves),
                         pos, len(moves)))

    def run(i: int) -> int:
        candidates, pos, count = prepared[i]
        evaluate(candidates, pos.hands, pos.boneyard, pos.drawn, exact, rng.getrandbits(64))
        return count

    return run


def rate(run: Callable[[int], int], count: int, seconds: float) -> float:
    """Moves evaluated per CPU second, going round the ``count`` deals (``run(i)`` runs the
    ``i``-th) until ``seconds`` have passed."""
    done, spent, i = 0, 0.0, 0
    run(0)  # warm up
    while spent < seconds:
        start = time.process_time()
        for _ in range(8):
            done += run(i % count)
            i += 1
        spent += time.process_time() - start
    return done / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=seconds, default=2.0,
                        help="CPU seconds per path and row (default 2)")
    parser.add_argument("--deals", type=positive, default=200, help="deals per row (default 200)")
    args = parser.parse_args()
    if not available():
        raise SystemExit("the C search extension is not built: nothing to compare")
    print(f"moves evaluated per CPU second (node limit {DEFAULT_CONFIG.node_limit}, "
          f"opponents modelled: {DEFAULT_CONFIG.model_opponents})")
    print(f"{'rules':<28}{'row':<26}{'python':>10}{'C':>12}{'ratio':>8}")
    for name, rules in RULE_SETS.items():
        for label, left, exact in ROWS:
            pool = deals(rules, left, args.deals, random.Random(f"{name}-{left}"))
            py = rate(python_path(rules, exact, pool), len(pool), args.seconds)
            c = rate(c_path(rules, exact, pool), len(pool), args.seconds)
            print(f"{name:<28}{label:<26}{py:>10,.0f}{c:>12,.0f}{c / py:>7,.0f}x", flush=True)


if __name__ == "__main__":
    main()
