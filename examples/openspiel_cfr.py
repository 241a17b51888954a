"""OpenSpiel's counterfactual regret minimisation (CFR) solves a small game of bones.

The game is Block for two with the double-two set (six tiles), two tiles each and two left
out, lots for the lead: ``bones(set=2,hand_size=2)`` in OpenSpiel, after ``import
bones.research.openspiel``. Small enough to solve whole, large enough to hide tiles: each
player sees its own two tiles, the tiles played and the passes, never the other hand or
the two tiles out of play. OpenSpiel's CFR (``open_spiel.python.algorithms.cfr``) walks
the whole game tree on each iteration, chance included, and its average policy's
exploitability (``open_spiel.python.algorithms.exploitability``: how much a best response
gains against it, in points per hand, averaged over the two seats) falls towards 0, the
value of a Nash equilibrium.

    python examples/openspiel_cfr.py                   # 16 iterations, about 10 seconds
    python examples/openspiel_cfr.py --iterations 64 --set 3
"""

from __future__ import annotations

import argparse
import sys
import time

from open_spiel.python.algorithms import cfr, exploitability

from bones.cli.common import positive
from bones.engine.rules import Rules
from bones.research import openspiel as bones_openspiel


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=positive, default=16)
    parser.add_argument("--set", type=int, choices=(2, 3, 4, 5), default=2,
                        help="the set's top double")
    parser.add_argument("--hand-size", type=positive, default=2)
    args = parser.parse_args(argv)
    game = bones_openspiel.load(Rules(set=args.set, hand_size=args.hand_size))
    print(f"game: {game}")
    solver = cfr.CFRSolver(game)
    started = time.perf_counter()
    print("iteration  exploitability (points per hand)")
    report = 1
    for iteration in range(1, args.iterations + 1):
        solver.evaluate_and_update_policy()
        if iteration == report or iteration == args.iterations:
            value = exploitability.exploitability(game, solver.average_policy())
            print(f"{iteration:>9}  {value:.4f}")
            report *= 2
    print(f"({time.perf_counter() - started:.1f} s, {len(solver.average_policy().state_lookup)} "
          "information states)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
