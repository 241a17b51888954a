"""Replay time per hand for records of one hand repeated 1,000, 4,000 and 16,000 times.

A record is checked by replaying every move through the engine, so its reading time should
grow with its length and no faster: the time per hand should come out the same for every
size. Each record is the same hand of 2-player Draw dealt from one seed, repeated, in a
game to a target no hand reaches (``next_lead: "same"`` and ``lead: "lots"``, so every hand
names the same leader and the same moves stay legal). The text is parsed and replayed in
memory (``bones.record.reader.load`` and ``parse``, what ``bones replay`` does after
reading the file), since the bigger records are past the size a record file may have.

Two figures per size: as ``bones replay`` runs, and with Python's cyclic garbage collector
paused. The second is the engine's own cost; the difference is the collector walking a heap
that grows with the record (every object the record and its replay keep), which it does
less often as the heap grows but with more cache misses each time.

    python benchmarks/replay_hands.py [--hands 1000,4000,16000] [--clock cpu|wall]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time
from collections.abc import Callable
from typing import Any

from bones.engine.game import deal_hand, new_game, play_unchecked
from bones.engine.rules import PRESETS
from bones.record.reader import load, parse
from bones.record.writer import record_of, to_json

#: The rules of every record: no hand reaches the target, every hand names its leader.
RULES = PRESETS["draw"].replace(target=10**9, next_lead="same")


def one_hand(seed: int = 1) -> dict[str, Any]:
    """One hand of random legal play, as the record format writes it."""
    rng = random.Random(seed)
    game = deal_hand(new_game(RULES), rng)
    while game.current is not None:
        game = play_unchecked(game, rng.choice(game.current.legal_moves()))
    hand: dict[str, Any] = to_json(record_of(game, ("a", "b")))["hands"][0]
    return hand


def record_text(hand: dict[str, Any], hands: int) -> str:
    """A record of ``hand`` played ``hands`` times, as compact JSON text."""
    doc = {"format": "bones-record/1", "rules": RULES.to_json(), "players": ["a", "b"],
           "hands": [hand] * hands}
    return json.dumps(doc, separators=(",", ":"))


def hand_counts(text: str) -> tuple[int, ...]:
    """``--hands``: a comma-separated list of whole numbers of at least 1."""
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of whole numbers") from None
    if any(count < 1 for count in counts):
        raise argparse.ArgumentTypeError("must be at least 1")
    return counts


def timed(text: str, clock: Callable[[], float], collect: bool = True) -> float:
    """Seconds to parse and replay the record ``text``; without ``collect``, with the
    cyclic garbage collector paused."""
    gc.collect()
    if not collect:
        gc.disable()
    try:
        start = clock()
        _, game = parse(load(text))
        spent = clock() - start
    finally:
        gc.enable()
    assert game.current is None and not game.finished
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=hand_counts, default=(1000, 4000, 16000),
                        help="the record sizes, in hands (default 1000,4000,16000)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="time with this process's CPU time (default) or the wall clock")
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    hand = one_hand()
    print(f"Replay of one 2-player Draw hand ({len(hand['moves'])} moves) repeated, "
          f"{args.clock} time")
    header = (f"{'hands':>8}{'record':>12}{'seconds':>10}{'ms/hand':>10}"
              f"{'gc paused: s':>15}{'ms/hand':>10}")
    print(header)
    print("-" * len(header))
    for hands in args.hands:
        text = record_text(hand, hands)
        spent, paused = timed(text, clock), timed(text, clock, collect=False)
        print(f"{hands:>8,}{len(text) / 2**20:>9.1f} MiB{spent:>10.2f}"
              f"{spent / hands * 1000:>10.3f}{paused:>15.2f}{paused / hands * 1000:>10.3f}",
              flush=True)


if __name__ == "__main__":
    main()
