"""Decision times of a bot at its default think time, per rule set: median, 95th percentile
and worst, in CPU time (what the bot itself used) and wall time (what a table waits).

    .venv/bin/python benchmarks/expert_timing.py [--level expert] [--hands 20] [--think 0.1]

Every decision of one seat's bot is timed over ``--hands`` seeded hands per rule set; the
other seats are greedy. CPU time is the honest figure on a shared machine; wall time is
printed beside it.
"""

from __future__ import annotations

import argparse
import random
import time

from bones.ai.levels import LEVELS, make_bot
from bones.cli.common import positive, seconds
from bones.engine.game import deal_hand, new_game, play_unchecked
from bones.engine.moves import Play
from bones.engine.rules import PRESETS, Rules
from bones.engine.view import observe

RULE_SETS: dict[str, Rules] = {
    "2-player Block": PRESETS["block"],
    "2-player Draw": PRESETS["draw"],
    "3-player Draw": PRESETS["draw"].replace(players=3),
    "4-player partnership Block (7 each)": PRESETS["block"].replace(
        players=4, partnerships=True, hand_size=7),
    "6-player Domino Pool": PRESETS["pool"].replace(players=6),
}


def timings(rules: Rules, level: str, hands: int, think: float) -> tuple[list[float], ...]:
    cpu: list[float] = []
    wall: list[float] = []
    rng = random.Random(1)
    for hand in range(hands):
        bots = [make_bot(level if seat == 0 else "greedy", random.Random(f"{hand}:{seat}"),
                         think) for seat in range(rules.players)]
        game = deal_hand(new_game(rules), rng)
        while (state := game.current) is not None:
            moves = state.legal_moves()
            move = moves[0]
            if isinstance(move, Play):
                view = observe(game, state.to_move)
                c0, w0 = time.process_time(), time.perf_counter()
                move = bots[state.to_move].choose(view)
                if state.to_move == 0:
                    cpu.append(time.process_time() - c0)
                    wall.append(time.perf_counter() - w0)
            game = play_unchecked(game, move)
    return cpu, wall


def quantiles(values: list[float]) -> str:
    values = sorted(values)
    n = len(values)
    pick = [values[n // 2], values[min(n - 1, int(0.95 * n))], values[-1]]
    return "  ".join(f"{1000 * v:6.1f}" for v in pick)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--level", default="expert", choices=LEVELS)
    parser.add_argument("--hands", type=positive, default=20)
    parser.add_argument("--think", type=seconds, default=0.1)
    args = parser.parse_args()
    print(f"{args.level} at think {args.think} s: decision times in ms over {args.hands} hands")
    print(f"{'rules':38} {'n':>5}   cpu p50    p95    max   wall p50    p95    max")
    for name, rules in RULE_SETS.items():
        cpu, wall = timings(rules, args.level, args.hands, args.think)
        print(f"{name:38} {len(cpu):5}   {quantiles(cpu)}   {quantiles(wall)}")


if __name__ == "__main__":
    main()
