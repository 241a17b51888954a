"""What the table layer costs: bot games played through ``bones.table.Table`` (deal,
advance, events) against the same games played by a bare loop over the engine, as the
referee played them before the table existed. Same seeds, same bots, so the same games;
the two paths alternate in one run and the ratio is printed.

    python benchmarks/table_paths.py [--seconds 2] [--clock cpu|wall]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bones.ai.levels import make_bot
from bones.cli.common import seconds
from bones.engine.game import Game, deal_hand, new_game, play_unchecked
from bones.engine.moves import Play
from bones.engine.rules import PRESETS, Rules
from bones.engine.view import observe
from bones.sim.referee import bot_seating
from bones.table.table import Table

RULE_SETS: dict[str, Rules] = {
    "2-player Block": PRESETS["block"],
    "3-player Draw": PRESETS["draw"].replace(players=3),
    "6-player Domino Pool": PRESETS["pool"].replace(players=6),
}
LEVEL = "greedy"


def bare_game(rules: Rules, seed: int) -> Game:
    """One game by the loop the referee ran before the table: ask the bot at each play."""
    bots = [make_bot(LEVEL, random.Random(f"{seed}:{s}")) for s in range(rules.players)]
    rng = random.Random(seed)
    game = new_game(rules)
    while not game.finished:
        game = deal_hand(game, rng)
        while (state := game.current) is not None:
            moves = state.legal_moves()
            move = moves[0]
            if isinstance(move, Play):
                move = bots[state.to_move].choose(observe(game, state.to_move))
                if move not in moves:
                    raise AssertionError("illegal bot play")
            game = play_unchecked(game, move)
    return game


def table_game(rules: Rules, seed: int) -> Game:
    """The same game on a table."""
    table = Table(rules, bot_seating((LEVEL,) * rules.players), random.Random(seed),
                  bot=lambda s: make_bot(LEVEL, random.Random(f"{seed}:{s}")))
    with table:
        while not table.finished:
            table.deal()
            table.advance()
    return table.game


def measure(play: Callable[[Rules, int], Game], rules: Rules, budget: float,
            clock: Callable[[], float]) -> float:
    """Hands per second over ``budget`` seconds of ``clock``."""
    hands, seed, start = 0, 0, clock()
    while clock() - start < budget:
        hands += len(play(rules, seed).results)
        seed += 1
    return hands / (clock() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=seconds, default=2.0,
                        help="time per path and rule set, in two halves (default 2)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    assert bare_game(PRESETS["draw"], 3) == table_game(PRESETS["draw"], 3)
    print(f"hands per {args.clock} second, {LEVEL} bots in every seat")
    print(f"{'rules':<22} {'bare loop':>10} {'table':>10} {'table/bare':>11}")
    for name, rules in RULE_SETS.items():
        bare = table = 0.0
        for _ in range(2):  # alternated, so drift on the machine falls on both
            bare += measure(bare_game, rules, args.seconds / 2, clock) / 2
            table += measure(table_game, rules, args.seconds / 2, clock) / 2
        print(f"{name:<22} {bare:>10,.0f} {table:>10,.0f} {table / bare:>11.2f}")


if __name__ == "__main__":
    main()
