"""Playing a grid of rule sets: seeded chunks of random hands, over worker processes.

Each rule set's hands are cut into chunks of ``CHUNK`` hands (the last one shorter), and
chunk ``c`` of grid point ``i`` is played from ``random.Random("S:i:c")`` for seed ``S``.
A chunk's hands therefore depend only on the seed, the grid point and the chunk, never on
which process played it or when, and integer sums merge the same in any order: ``--jobs``
cannot change a result. A chunk is a run of ``play_hands``: games one after another, the
last cut short, so a few hands per chunk come from a game that never finishes. Rules no fast
path plays (``bones.fast.supports`` says why) are played by the same procedure on the
engine (``bones.fast.reference``): the same hands, only slower.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from bones.engine.rules import Rules
from bones.fast import supports
from bones.fast.paths import run
from bones.fast.reference import random_hands, tally
from bones.fast.results import RawHand, Totals, encode_hand
from bones.lab.grid import GridPoint
from bones.lab.metrics import Counts, Metrics, check, count_hands
from bones.sim.parallel import stop
from bones.sim.ray_workers import Cluster, executor

#: Hands per chunk: enough that starting a process or a game is noise, few enough that a
#: chunk's traces (every hand's deal and moves) stay a few tens of megabytes.
CHUNK = 20_000


@dataclass(frozen=True, slots=True)
class Chunk:
    """One unit of work: ``hands`` hands of ``rules``, the ``chunk``-th of grid point
    ``point``."""

    rules: Rules
    seed: int
    point: int
    chunk: int
    hands: int


@dataclass(frozen=True, slots=True)
class Row:
    """A grid point and what the lab measured for it (``None`` for a skipped point)."""

    point: GridPoint
    counts: Counts | None
    metrics: Metrics | None


def chunk_rng(seed: int, point: int, chunk: int) -> random.Random:
    """The RNG of one chunk: a string seed, so it is the same on every machine."""
    return random.Random(f"{seed}:{point}:{chunk}")


def chunk_sizes(hands: int, chunk: int = CHUNK) -> Iterator[int]:
    """``hands`` cut into chunks of ``chunk``, the last one shorter; made as they are read,
    so any count a user types costs no memory up front (Ctrl-C stops a run too long).

    >>> list(chunk_sizes(45_000))
    [20000, 20000, 5000]
    """
    full, rest = divmod(hands, chunk)
    for _ in range(full):
        yield chunk
    if rest:
        yield rest


def play_chunk(job: Chunk) -> Counts:
    """Play one chunk with traces (the lab needs each hand's leader and winner) and count it,
    checked against the playout's own totals."""
    rules, rng = job.rules, chunk_rng(job.seed, job.point, job.chunk)
    raws: list[RawHand]
    if supports(rules) is None:
        flat, raws = run(rules, rng, job.hands, "hands", True, None)
        totals = Totals.from_flat(rules, flat)
    else:  # the same procedure on the engine
        games = random_hands(rules, rng, job.hands)
        raws = [encode_hand(rules, state, result) for game in games
                for state, result in zip(game.hands, game.results, strict=True)]
        totals = tally(rules, games)
    counts = count_hands(rules, raws)
    check(counts, totals)
    return counts


#: What an interrupted run says of the rule sets it had not finished.
NOT_FINISHED = "not finished: the run was interrupted"


class LabInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a lab run after at least one rule set was finished: ``rows`` holds
    those, and the others skipped with ``NOT_FINISHED`` (a rule set part played is left
    out, since every row stands for the same number of hands)."""

    def __init__(self, rows: list[Row]) -> None:
        super().__init__()
        self.rows = rows


def run_lab(points: Sequence[GridPoint], hands: int, seed: int, jobs: int = 1, *,
            chunk: int = CHUNK, progress: Callable[[int], None] | None = None,
            cluster: Cluster | None = None) -> list[Row]:
    """Play ``hands`` random hands of every dealable grid point and measure them; rows come
    in grid order, skipped points included. ``progress`` is called with each chunk's hands
    as it is counted. Ctrl-C raises ``LabInterrupted`` with the rule sets finished, once
    there is one (before that, plain ``KeyboardInterrupt``). With a ``cluster`` the chunks
    are its tasks, ``jobs`` of them in flight: the same chunks, the same rows."""
    work = (Chunk(p.rules, seed, p.index, c, size)
            for p in points if p.rules is not None
            for c, size in enumerate(chunk_sizes(hands, chunk)))
    chunks = -(-hands // chunk) * sum(p.rules is not None for p in points)
    jobs_for, done = itertools.tee(work)  # the workers read ahead of the results
    merged: dict[int, Counts] = {}
    played: dict[int, int] = {}  # hands counted per grid point
    results = _played(jobs_for, min(jobs, chunks), cluster)
    try:
        for job, counts in zip(done, results, strict=True):
            # one assignment each: an interrupt never finds a point's counts and hands apart
            merged[job.point] = merged.get(job.point, Counts()) + counts
            played[job.point] = played.get(job.point, 0) + job.hands
            if progress is not None:
                progress(job.hands)
    except KeyboardInterrupt:
        stop(results)  # its workers end now, not after the chunks they began
        finished = [p for p in points if p.rules is not None and played.get(p.index) == hands]
        if not finished:
            raise
        raise LabInterrupted(_rows(points, merged, {p.index for p in finished})) from None
    return _rows(points, merged, {p.index for p in points})


def _rows(points: Sequence[GridPoint], merged: dict[int, Counts],
          finished: set[int]) -> list[Row]:
    """The rows in grid order: measured where ``finished``, else skipped."""
    rows = []
    for p in points:
        if p.rules is None:
            rows.append(Row(p, None, None))
        elif p.index not in finished:
            rows.append(Row(dataclasses.replace(p, rules=None, skipped=NOT_FINISHED), None,
                            None))
        else:
            c = merged.get(p.index, Counts())
            rows.append(Row(p, c, Metrics.from_counts(p.rules, c)))
    return rows


def _played(work: Iterator[Chunk], jobs: int, cluster: Cluster | None) -> Iterator[Counts]:
    """Each chunk's counts, in the order of ``work``, from ``jobs`` processes (spawned, not
    forked: the caller may be running a progress bar's thread) or a cluster's tasks."""
    with executor(max(1, jobs), cluster) as workers:
        yield from workers.map(play_chunk, work)
