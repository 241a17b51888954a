"""Random hands per second on each playout path: C extension, pure Python, checked engine.

All three play the same procedure (``bones.fast.reference``: deal, then a random legal play
for every turn, hands of consecutive games), so the figures compare like with like. Each
path plays for a fixed time budget per rule set, in growing batches, timed with the
process's CPU time by default so that other work on the machine does not count against it.

    python benchmarks/engine_paths.py [--seconds 2] [--clock cpu|wall]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bones.cli.common import seconds
from bones.engine.game import new_game
from bones.engine.rules import PRESETS, Rules
from bones.fast import extension_built, play_hands
from bones.fast.reference import random_hand

#: The rule sets measured, as the issue names them.
RULE_SETS: dict[str, Rules] = {
    "2-player Block": PRESETS["block"],
    "3-player Draw": PRESETS["draw"].replace(players=3),
    "4-player partnership Block": PRESETS["block"].replace(players=4, partnerships=True,
                                                           hand_size=7),
    "6-player Domino Pool": PRESETS["pool"].replace(players=6),
}

#: Plays ``hands`` hands on one path, continuing from the state it keeps between batches.
Batch = Callable[[int], None]


def fast_batch(rules: Rules, backend: str) -> Batch:
    rng = random.Random(1)

    def play(hands: int) -> None:
        play_hands(rules, rng, hands, backend="c" if backend == "c" else "python")

    return play


def engine_batch(rules: Rules) -> Batch:
    """The reference procedure through the checked engine's ``legal_moves`` and
    ``play_unchecked``, a new game when one is won (as ``play_hands`` does)."""
    rng = random.Random(1)
    game = new_game(rules)

    def play(hands: int) -> None:
        nonlocal game
        for _ in range(hands):
            if game.finished:
                game = new_game(rules)
            game = random_hand(game, rng)

    return play


def rate(batch: Batch, seconds: float, clock: Callable[[], float]) -> float:
    """Hands per second: batches of doubling size until ``seconds`` have passed."""
    played, size, spent = 0, 1, 0.0
    batch(1)  # warm up: first imports, caches of tile tables
    while spent < seconds:
        start = clock()
        batch(size)
        spent += clock() - start
        played += size
        if spent < seconds / 4:
            size *= 2
    return played / spent


def ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:,.0f}x" if a and b else "-"


def number(x: float | None) -> str:
    return f"{x:,.0f}" if x else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=seconds, default=2.0,
                        help="time budget per path and rule set (default 2)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="time with this process's CPU time (default) or the wall clock")
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    built = extension_built()
    print(f"Random hands per second, {args.clock} time, {args.seconds:g} s per path "
          f"(C extension {'built' if built else 'NOT built: C column empty'})")
    header = (f"{'rules':<28}{'C fast':>12}{'pure fast':>12}{'engine':>10}"
              f"{'C/pure':>9}{'C/engine':>10}{'pure/engine':>13}")
    print(header)
    print("-" * len(header))
    for name, rules in RULE_SETS.items():
        c = rate(fast_batch(rules, "c"), args.seconds, clock) if built else None
        pure = rate(fast_batch(rules, "python"), args.seconds, clock)
        engine = rate(engine_batch(rules), args.seconds, clock)
        print(f"{name:<28}{number(c):>12}{number(pure):>12}{number(engine):>10}"
              f"{ratio(c, pure):>9}{ratio(c, engine):>10}{ratio(pure, engine):>13}",
              flush=True)


if __name__ == "__main__":
    main()
