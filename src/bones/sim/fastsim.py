"""Series of random-versus-random play on the fast path (``bones.fast``).

When every seat is the ``random`` bot, the referee's work is exactly the fast path's random
playout, so ``bones simulate`` plays it there: hundreds of times faster, same statistics.
Work is cut into chunks, chunk ``c`` played from ``random.Random("S:fast:c")``, so results
depend on the seed and the count, never on ``--jobs``. Rules no fast path plays
(``bones.fast.supports`` says why) are played by the same procedure on the engine
(``bones.fast.reference``): the same games, only slower.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass

from bones.engine.rules import Rules
from bones.fast import Totals, play_games, play_hands, supports
from bones.fast.reference import random_games, random_hands, tally
from bones.fast.results import zero_totals
from bones.sim.parallel import Workers
from bones.sim.stats import SeatStats, SideStats, Summary, Unit

#: Hands, or games, per chunk: large enough that process start-up is noise.
HANDS_PER_CHUNK = 50_000
GAMES_PER_CHUNK = 2_000


@dataclass(frozen=True, slots=True)
class FastChunk:
    rules: Rules
    seed: int
    index: int
    unit: Unit
    count: int


def play_chunk(chunk: FastChunk) -> Totals:
    """One chunk's totals (top level, so worker processes can run it)."""
    rng = random.Random(f"{chunk.seed}:fast:{chunk.index}")
    if supports(chunk.rules) is not None:  # the same procedure on the engine
        on_engine = random_hands if chunk.unit == "hands" else random_games
        return tally(chunk.rules, on_engine(chunk.rules, rng, chunk.count))
    play = play_hands if chunk.unit == "hands" else play_games
    return play(chunk.rules, rng, chunk.count)


@dataclass(frozen=True, slots=True)
class FastSeries:
    """A fast series' totals, and how many of its games were cut short: in a hands series
    each chunk plays games one after another and stops at its count of hands, so every
    chunk's last game may be left unfinished, not only the series' last."""

    totals: Totals
    cut_short: int
    #: Ctrl-C stopped the series: the totals are those of the chunks finished.
    interrupted: bool = False


def fast_series(rules: Rules, seed: int, unit: Unit, total: int, jobs: int = 1,
                progress: Callable[[int], None] | None = None) -> FastSeries:
    """Play ``total`` random hands or games; ``progress`` hears each chunk's count. Ctrl-C
    (``KeyboardInterrupt``) stops the series: once a chunk is done, the chunks finished are
    returned, marked ``interrupted``; before that, the interrupt goes on up."""
    size = HANDS_PER_CHUNK if unit == "hands" else GAMES_PER_CHUNK
    # made as they are read (a range is lazy), so any count typed costs no memory up front
    chunks = (FastChunk(rules, seed, i, unit, min(size, total - start))
              for i, start in enumerate(range(0, total, size)))
    jobs_for, done = itertools.tee(chunks)  # the workers read ahead of the results
    series = FastSeries(zero_totals(rules), 0)  # of the chunks finished so far
    try:
        with Workers(max(1, min(jobs, -(-total // size)))) as workers:
            for chunk, part in zip(done, workers.map(play_chunk, jobs_for), strict=True):
                # one assignment: an interrupt never finds the totals and the count apart
                series = FastSeries(series.totals + part, series.cut_short
                                    + (part.hands > part.game_hands))  # a game not ended
                if progress is not None:
                    progress(chunk.count)
    except KeyboardInterrupt:
        if series.totals.hands == 0:
            raise
        return FastSeries(series.totals, series.cut_short, interrupted=True)
    return series


def summary_of(series: FastSeries, seed: int, unit: Unit) -> Summary:
    """The simulator's summary of a fast series. Per-game chips need finished games only;
    in a hands series the totals do not separate them, so they are left out there."""
    totals = series.totals
    rules = totals.rules
    games = totals.games
    trials = games if unit == "games" else totals.hands
    wins = totals.side_games if unit == "games" else totals.side_hands
    sides = tuple(
        SideStats(side, rules.seats_of(side), ("random",) * len(rules.seats_of(side)),
                  wins[side], trials, totals.side_points[side], totals.hands)
        for side in range(rules.sides))
    seats = tuple(
        SeatStats(seat, "random", rules.side_of(seat), totals.seat_chips[seat],
                  totals.seat_chips[seat] / games if unit == "games" and games else None)
        for seat in range(rules.players))
    return Summary(rules, seed, unit, games + series.cut_short, games, totals.hands,
                   totals.blocked, totals.tied,
                   totals.game_hands / games if games else None, sides, seats)
