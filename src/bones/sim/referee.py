"""The referee: plays series of games between bots, each on a table (``bones.table``),
which alone sees every hand.

Bots are asked for a play through their seat's view and only when their seat holds a
playable tile; the table makes forced draws and passes, as the rules leave no choice in them.

Every game has its own RNGs derived from the series seed and the game's index, so a game's
hands do not depend on which process plays it or in what order: that is what lets
``play_series`` spread games over processes and still give the same results as one process.
A game cut short after ``k`` hands is exactly the first ``k`` hands of the whole game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from bones.ai.base import Bot
from bones.ai.levels import LEVELS
from bones.engine.errors import BonesError
from bones.engine.game import Game, HandResult
from bones.engine.rules import Rules
from bones.protocol.bots import is_seat_bot, make_seat_bot
from bones.protocol.external import cannot_start
from bones.record.model import Record
from bones.record.writer import record_of
from bones.sim.parallel import Workers, check_cancelled
from bones.table import seeds
from bones.table.seats import Seating
from bones.table.table import Table

#: A game whose scores have not moved for this many hands in a row is treated as a fault of
#: the rules or bots (nearly every hand that is not tied moves a side towards the target)
#: rather than run forever. Progress, not length: a target of 100,000 takes over 10,000
#: hands, and such a game must still be played out.
MAX_SCORELESS_HANDS = 10_000


def check_levels(rules: Rules, levels: Sequence[str]) -> tuple[str, ...]:
    """One known bot level per seat, every outside bot a program that can be started, or a
    ``BonesError`` saying what is wrong."""
    unknown = [level for level in levels if not is_seat_bot(level)]
    if unknown:
        raise BonesError(f"unknown bot {unknown[0]!r} (known: {', '.join(LEVELS)}, or "
                         "cmd:PROGRAM)")
    for level in levels:
        if level.startswith("cmd:"):
            why = cannot_start(level[4:])
            if why is not None:
                raise BonesError(f"bot {level!r} cannot start: {why}")
    if len(levels) != rules.players:
        raise BonesError(f"{len(levels)} bots for {rules.players} seats: give one bot level "
                         f"per seat, or a single level for every seat")
    return tuple(levels)


def bot_seating(levels: Sequence[str]) -> Seating:
    """Every seat a bot, named by its level."""
    return Seating(tuple(levels), tuple(levels))


def play_hand(game: Game, bots: Sequence[Bot]) -> Game:
    """Deal nothing, only play: move the hand in play to its end on a table of ``bots``
    (which the caller started and will close)."""
    table = Table(game.rules, bot_seating(("bot",) * len(bots)), None,
                  bot=bots.__getitem__, game=game, cancelled=check_cancelled)
    table.advance()
    return table.game


def play_game(rules: Rules, levels: Sequence[str], seed: int, index: int,
              hand_limit: int | None = None, think: float = 0.1,
              played_for: list[dict[str, object]] | None = None) -> Game:
    """Game ``index`` of a series, played until a side wins, ``hand_limit`` hands end, or
    the scores have not moved for ``MAX_SCORELESS_HANDS`` hands.

    ``think`` is the time per move of search bots and outside bots; their games depend on
    the machine's speed, the other bots' do not. ``played_for``, when given, gets one
    ``{"hand", "seat", "move", "why"}`` (hand and move counted from 1) for each play the
    referee made for an outside bot, as the bot protocol asks the referee to record.
    """
    table = Table(rules, bot_seating(levels), seeds.series_deals(seed, index),
                  bot=lambda seat: make_seat_bot(levels[seat],
                                                 seeds.series_bot(seed, index, seat), think,
                                                 cancelled=check_cancelled),
                  cancelled=check_cancelled)
    scoreless = 0
    try:
        while not table.finished and (hand_limit is None
                                      or len(table.game.results) < hand_limit) \
                and scoreless < MAX_SCORELESS_HANDS:
            before = table.game.scores
            table.deal()
            table.advance()
            scoreless = scoreless + 1 if table.game.scores == before else 0
    finally:
        table.close()
        if played_for is not None:
            played_for.extend(table.played_for)
    return table.game


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What a series keeps of one game: its hands' results and, if asked, its record."""

    index: int
    results: tuple[HandResult, ...]
    #: The side that won the game, ``None`` if the game was cut short.
    winner: int | None
    record: Record | None = None

    def first(self, hands: int) -> GameOutcome:
        """The same game cut short after ``hands`` hands."""
        if hands >= len(self.results):
            return self
        record = self.record
        if record is not None:
            record = replace(record, hands=record.hands[:hands])
        return GameOutcome(self.index, self.results[:hands], None, record)


@dataclass(frozen=True, slots=True)
class Job:
    """One game to play, in a form that can be sent to a worker process."""

    rules: Rules
    levels: tuple[str, ...]
    seed: int
    index: int
    #: Hands to play at most (``None``: the whole game).
    hand_limit: int | None
    keep_record: bool
    #: Whether ending without a winner is an error (whole-game series: the game stalled).
    must_finish: bool
    think: float = 0.1


def run_job(job: Job) -> GameOutcome:
    """Play one job's game (top level, so that worker processes can receive it)."""
    made: list[dict[str, object]] = []
    game = play_game(job.rules, job.levels, job.seed, job.index, job.hand_limit, job.think,
                     made)
    if job.must_finish and not game.finished:
        raise BonesError(f"game {job.index + 1} stopped after {len(game.results)} hands: "
                         f"no side scored in the last {MAX_SCORELESS_HANDS}")
    record = None
    if job.keep_record:
        # No seed here: the series seed deals every game, and a record can be read while
        # the series goes on (``seeds.game_seed``; the command adds it once the series is over).
        extra: list[tuple[str, object]] = []
        if made:  # which plays an outside bot did not make, and why
            extra.append(("x-played-for", made))
        record = record_of(game, job.levels, extra)
    return GameOutcome(job.index, game.results, game.winner, record)


Mapper = Callable[[Callable[[Job], GameOutcome], list[Job]], Iterator[GameOutcome]]


def play_series(rules: Rules, levels: Sequence[str], seed: int, *, games: int | None = None,
                hands: int | None = None, jobs: int = 1,
                keep_records: bool = False, think: float = 0.1) -> Iterator[GameOutcome]:
    """Play ``games`` whole games, or games until ``hands`` hands have ended, in game order.

    With ``hands`` the last game is cut short. ``jobs > 1`` plays batches of games in worker
    processes; results are taken in game order, so they equal those of ``jobs == 1``.
    """
    if (games is None) == (hands is None):
        raise ValueError("give exactly one of games and hands")
    levels = check_levels(rules, levels)
    batch = jobs * 4 if jobs > 1 else 1
    with Workers(jobs) as workers:
        yield from _series(rules, levels, seed, games, hands, keep_records, batch, workers.map,
                           think)


def _series(rules: Rules, levels: tuple[str, ...], seed: int, games: int | None,
            hands: int | None, keep_records: bool, batch_size: int,
            mapper: Mapper, think: float) -> Iterator[GameOutcome]:
    index, left = 0, hands
    while (games is None or index < games) and (left is None or left > 0):
        size = batch_size if games is None else min(batch_size, games - index)
        batch = [Job(rules, levels, seed, i, left, keep_records, must_finish=left is None,
                     think=think) for i in range(index, index + size)]
        index += size
        for outcome in mapper(run_job, batch):
            if left is not None:
                outcome = outcome.first(left)
                left -= len(outcome.results)
            yield outcome
            if left == 0:
                return
