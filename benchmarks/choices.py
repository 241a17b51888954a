"""How a bot level chooses its plays, read from game records: a conditional-logit fit.

    bones arena --rules block --bots ismcts,expert --games 500 --seed 5 --record runs/
    .venv/bin/python benchmarks/choices.py runs/ --level ismcts

A bot that models its opponents (``expert`` reads each as a kind of player,
``ExpertConfig.kinds`` in ``bones.ai.expert_config``) is only as good as that model. This
script measures how well simple habits explain a level's real choices. Records hold every
hand, so for each play the level made with more than one legal play, each legal play (one
per tile and arm) gets three features, worked out on the engine's own state:

- ``pips``: the tile's pips (heavy tiles shed early);
- ``double``: 1 for a double;
- ``kept``: how many other tiles of the hand show the number the play leaves open (either
  number, for the first tile of a hand): the club player's "play from your longest suit".

It fits P(play) proportional to exp(w . features) by maximum likelihood (``scipy.optimize``)
for several subsets of the features and prints each model's weights and its mean
log-likelihood per play, beside a uniform choice's. Higher (closer to 0) explains the plays
better; a gain of a few hundredths per play is small, a tenth is large.

Measured this way (``benchmarks/README.md``), ``ismcts`` sheds doubles first and leans a
little to heavy tiles (0.19 per pip, 1.0 for a double: -0.995 per play against -1.094 for
uniform), and keeping its numbers (0.36 per tile) gains 0.02 more; ``basic`` follows its
longest suit; ``greedy`` is almost all pips. An expert that also read its opponents by the
numbers they kept did not win more.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

from bones.engine.errors import BonesError
from bones.engine.layout import Layout
from bones.engine.moves import Move, Play
from bones.engine.state import HandState, apply_unchecked, new_hand
from bones.engine.tiles import Tile
from bones.record import read_file

FEATURES = ("pips", "double", "kept")
MODELS = (("pips, double", (0, 1)), ("kept", (2,)), ("pips, double, kept", (0, 1, 2)))


@dataclass(frozen=True, slots=True)
class Plays:
    """Every choice of one level: the features of each legal play, stacked (one row per
    play), the first row of each choice and how many rows it has, and the row it took."""

    features: np.ndarray
    starts: np.ndarray
    sizes: np.ndarray
    chosen: np.ndarray
    records: int

    @property
    def count(self) -> int:
        return len(self.chosen)


def kept(hand: tuple[Tile, ...], play: Play, layout: Layout) -> int:
    """Other tiles of ``hand`` showing the number ``play`` leaves open."""
    if layout.is_empty:
        numbers = {play.tile.high, play.tile.low}
    else:
        assert play.end is not None
        covered = layout.shows(play.end)
        assert covered is not None
        numbers = {play.tile.other(covered)}
    return sum(1 for t in hand if t != play.tile and (t.high in numbers or t.low in numbers))


def choices(state: HandState, moves: tuple[Move, ...], level: str,
            players: tuple[str, ...]) -> Iterator[tuple[list[list[float]], int]]:
    """Each choice of ``level`` in one hand: the legal plays' features and the one made."""
    for move in moves:
        seat = state.to_move
        if players[seat] == level and isinstance(move, Play):
            legal = [m for m in state.legal_moves() if isinstance(m, Play)]
            if len(legal) > 1:
                rows = [[float(p.tile.pips), float(p.tile.is_double),
                         float(kept(state.hands[seat], p, state.layout))] for p in legal]
                made = next(i for i, p in enumerate(legal)
                            if p.tile == move.tile and p.end == move.end)
                yield rows, made
        state = apply_unchecked(state, move)


def read_plays(folder: Path, level: str) -> Plays:
    """Every choice ``level`` made in the records (``*.json``) of ``folder``."""
    paths = sorted(folder.glob("*.json"))
    rows: list[list[float]] = []
    starts: list[int] = []
    chosen: list[int] = []
    records = 0
    for path in paths:
        if path.name == "arena.json":
            continue
        try:
            record, game = read_file(path)
        except BonesError as exc:
            raise BonesError(f"{path}: {exc}") from None
        if level not in record.players:
            continue
        records += 1
        for hand, played in zip(record.hands, game.hands, strict=True):
            # the replayed hand: its moves carry the arm even where the record left it out
            state = new_hand(record.rules, played.deal, hand.boneyard, played.leader,
                             played.opening)
            for options, made in choices(state, played.moves, level, record.players):
                starts.append(len(rows))
                chosen.append(len(rows) + made)
                rows.extend(options)
    if not records:
        raise BonesError(f"{folder}: no game record with a seat played by {level!r}")
    if not chosen:
        raise BonesError(f"{folder}: {level!r} never had a choice of plays")
    first = np.array(starts)
    return Plays(np.array(rows), first, np.diff(np.append(first, len(rows))),
                 np.array(chosen), records)


def log_likelihood(weights: np.ndarray, plays: Plays, columns: tuple[int, ...],
                   ) -> tuple[float, np.ndarray]:
    """The log-likelihood of every choice with ``weights`` on ``columns``, and its gradient."""
    x = plays.features[:, list(columns)]
    scores = x @ weights
    top = np.maximum.reduceat(scores, plays.starts)
    sizes = plays.sizes
    shifted = np.exp(scores - np.repeat(top, sizes))
    total = np.add.reduceat(shifted, plays.starts)
    value = float(np.sum(scores[plays.chosen] - top - np.log(total)))
    share = shifted / np.repeat(total, sizes)
    expected = np.add.reduceat(x * share[:, None], plays.starts)
    gradient = np.sum(x[plays.chosen] - expected, axis=0)
    return value, gradient


def fit(plays: Plays, columns: tuple[int, ...]) -> tuple[np.ndarray, float]:
    """The maximum-likelihood weights on ``columns`` and the mean log-likelihood per play."""
    def cost(w: np.ndarray) -> tuple[float, np.ndarray]:
        value, gradient = log_likelihood(w, plays, columns)
        return -value, -gradient

    found = minimize(cost, np.zeros(len(columns)), jac=True, method="BFGS")
    return found.x, -float(found.fun) / plays.count


def uniform(plays: Plays) -> float:
    """The mean log-likelihood per play of choosing uniformly among the legal plays."""
    return -float(np.mean(np.log(plays.sizes)))


def report(plays: Plays, level: str) -> Iterator[str]:
    yield f"{level}: {plays.count:,} plays with a choice, in {plays.records:,} records"
    yield f"{'model':<22}{'pips':>8}{'double':>8}{'kept':>8}   log-likelihood per play"
    yield f"{'uniform':<22}{'':>24}   {uniform(plays):.4f}"
    for name, columns in MODELS:
        weights, mean = fit(plays, columns)
        cells = ["" for _ in FEATURES]
        for column, w in zip(columns, weights, strict=True):
            cells[column] = f"{w:.3f}"
        yield f"{name:<22}" + "".join(f"{c:>8}" for c in cells) + f"   {mean:.4f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path,
                        help="a folder of game records (bones arena --record, bones simulate "
                             "--record)")
    parser.add_argument("--level", required=True, help="the bot level whose plays to fit")
    args = parser.parse_args(argv)
    try:
        if not args.folder.is_dir():
            raise BonesError(f"{args.folder}: not a folder")
        plays = read_plays(args.folder, args.level)
    except BonesError as exc:
        print(f"choices: {exc}", file=sys.stderr)
        return 1
    for line in report(plays, args.level):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
