"""Duplicate matches between bot levels: every deal is played once for each distinct
rotation of the seats, so each level holds each seat's tiles and luck cancels.

A deal is the first hand of a fresh game (scores 0), dealt from an RNG derived from the
series seed and the deal's index; every bot gets its own RNG derived from the deal, its
seat and its level (not the rotation: the same bot in the same seat of a deal chooses the
same way whatever the lineup). So a seeded run gives the same hands in any process and any
order, and with bots whose budget is not wall-clock time, the same results.

On request each hand also comes back as a game record (``bones-record/1``), so a match can
be replayed, reviewed, or compared deal by deal with another run of the same seed
(``benchmarks/paired.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from bones.ai.base import Bot, played_for
from bones.engine.errors import BonesError
from bones.engine.game import HandResult, deal, new_game, start_hand
from bones.engine.rules import Rules
from bones.protocol.bots import make_seat_bot
from bones.record.model import Record
from bones.record.writer import record_of
from bones.sim.parallel import check_cancelled
from bones.sim.ray_workers import Cluster, executor
from bones.sim.referee import bot_seating, check_levels
from bones.table import seeds
from bones.table.table import Table


def lineup(levels: Sequence[str], players: int) -> tuple[str, ...]:
    """The bot of each seat: the ``--bots`` list repeated around the table."""
    return tuple(levels[seat % len(levels)] for seat in range(players))


def check_lineup(rules: Rules, levels: Sequence[str]) -> tuple[str, ...]:
    """The seats ``levels`` fill (``lineup``), or a ``BonesError``: an unknown level, an
    outside bot that cannot start, more levels than seats (which ``lineup`` would drop
    without a word), or a lineup where no side is ever all one level (a partnership of two
    levels in every rotation), which nothing in the results could be counted for."""
    if len(levels) > rules.players:
        raise BonesError(f"{len(levels)} bots for {rules.players} seats: give at most one "
                         "level per seat (the lineup repeats round the table)")
    seats = check_levels(rules, lineup(levels, rules.players))
    if not any(len({turn[s] for s in rules.seats_of(side)}) == 1
               for turn in rotations(seats) for side in range(rules.sides)):
        raise BonesError(f"the lineup {','.join(seats)} gives no side a single level in any "
                         "rotation, so no hand could be counted for a level; with "
                         "partnerships, alternate the levels (e.g. --bots expert,greedy)")
    return seats


def rotations(seats: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Every distinct rotation of a lineup (``A,B,A,B`` has two, ``A,B,B`` three)."""
    found: list[tuple[str, ...]] = []
    for shift in range(len(seats)):
        rotated = tuple(seats[(seat + shift) % len(seats)] for seat in range(len(seats)))
        if rotated not in found:
            found.append(rotated)
    return tuple(found)


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """One deal's hands: for each rotation, the bot of each seat and the hand's result, and
    per seat (moves played for its bot, moves asked of it) (``base.played_for``)."""

    index: int
    plays: tuple[tuple[tuple[str, ...], HandResult], ...]
    played_for: tuple[tuple[tuple[int, int], ...], ...]
    #: Per rotation, the hand as a game record: empty unless asked.
    records: tuple[Record, ...] = ()


@dataclass(frozen=True, slots=True)
class DealJob:
    rules: Rules
    seats: tuple[str, ...]
    seed: int
    index: int
    think: float
    records: bool = False


def play_deal(job: DealJob) -> DealOutcome:
    """Play one deal under every rotation of the lineup."""
    rules = job.rules
    hands, boneyard, leader = deal(new_game(rules), seeds.arena_deal(job.seed, job.index))
    plays = []
    played = []
    records = []
    for rotation, seats in enumerate(rotations(job.seats)):
        table = Table(rules, bot_seating(seats), None, bot=functools.partial(_bot, job, seats),
                      game=start_hand(new_game(rules), hands, boneyard, leader),
                      cancelled=check_cancelled)
        with table:
            table.advance()
        game = table.game
        plays.append((seats, game.results[-1]))
        played.append(tuple(played_for(table.bots[seat]) for seat in range(len(seats))))
        if job.records:
            # No seed: it deals every deal of the run, and the record may be read during
            # it (``RecordFolder.finish`` adds the seed once the run is over).
            where: dict[str, object] = {"deal": job.index, "rotation": rotation,
                                        "think": job.think}
            if table.played_for:  # which plays an outside bot did not make, and why
                where["played_for"] = [{"seat": made["seat"], "move": made["move"],
                                        "why": made["why"]} for made in table.played_for]
            records.append(record_of(game, seats, (("x-arena", where),)))
    return DealOutcome(job.index, tuple(plays), tuple(played), tuple(records))


def _bot(job: DealJob, seats: tuple[str, ...], seat: int) -> Bot:
    """Keyed by seat and level, not by rotation: the same bot in the same seat of the same
    deal makes the same choices, whatever lineup it came from."""
    level = seats[seat]
    return make_seat_bot(level, seeds.arena_bot(job.seed, job.index, seat, level), job.think,
                         cancelled=check_cancelled)


def play_deals(rules: Rules, levels: Sequence[str], seed: int, deals: int, jobs: int = 1,
               think: float = 0.1, start: int = 0, chunk: int | None = None,
               records: bool = False, cluster: Cluster | None = None) -> Iterator[DealOutcome]:
    """Deals ``start`` .. ``start + deals - 1`` in order, over ``jobs`` worker processes
    (with a ``cluster``, its tasks, ``jobs`` chunks in flight), each worker taking
    ``chunk`` deals at a time (by default up to 16, fewer for a short run so every worker
    gets some); with ``records``, each outcome carries its hands' records. A caller may
    stop reading at any point: the deals not yet begun are not played."""
    seats = check_lineup(rules, levels)
    batch = (DealJob(rules, seats, seed, i, think, records)
             for i in range(start, start + deals))
    size = chunk if chunk is not None else min(16, deals // (jobs * 8))
    with executor(jobs, cluster) as workers:
        yield from workers.map(play_deal, batch, max(1, size))
