"""The replay viewer's data (``/replay``): a finished game, stored at a table or uploaded as
a record, move by move with every hand open, and the review of its costly plays, hand by
hand.

A record is read exactly as ``bones replay`` reads a file (``bones.record.reader.load`` and
``parse``: every move replayed through the engine's checked path), so a record the command
refuses is refused here with the same one line, and nothing is stored. The board after each
move is ``bones.table.wire.layout_json``, the shape the table page draws, so the viewer draws
it with the same code.

The answer holds the board and every seat's tiles after every move: that is what lets the
page step at once, but it grows with the square of a hand's length: measured, 4.4 times a
double-six record's size, 5.9 times a double-nine one's, 14.7 times a double-18 one's. So
an upload is held to ``MAX_RECORD`` (1 MiB), not to the 8 MiB ``bones replay`` reads from
a file: 1 MiB of double-18 Draw is about 15 MB of answer (150 kB gzipped) and 5 s of a
thread (``Viewer``), while a whole double-six game to 100 is 20 to 30 kB of record.

The review is the expert's exact solve of the revealed deal (``bones.ai.review``), which
takes seconds for a double-six hand and grows fast with the set: it is asked for one hand at
a time (the page shows the game at once and fills the review in), run in a thread of its
own, and each request is held to ``REVIEW_BUDGET`` search nodes in all: a hand whose
decisions could need more gets a smaller limit per decision, and the decisions that do not
fit it are counted as not judged, as ``bones replay --review`` counts its too-deep ones.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread

from bones.ai.review import COST_LEGEND, REVIEW_NODES, deep_text, mistake_text, review
from bones.engine.errors import BonesError
from bones.engine.game import Game
from bones.engine.moves import Play
from bones.engine.pool import has_pool
from bones.engine.state import HandState, apply_unchecked, new_hand, reserve_of
from bones.record.model import Record
from bones.record.reader import load, parse
from bones.record.summary import distinct
from bones.record.writer import move_json, undealt
from bones.table.wire import layout_json, result_json, rules_json, tiles_json

T = TypeVar("T")

#: The most bytes (UTF-8) of an uploaded record: see the module's docstring for why it is
#: less than the 8 MiB ``bones replay`` reads from a file.
MAX_RECORD = 2**20
#: The most bytes of a request body that carries a record: its text is a JSON string there,
#: whose quotes and line ends are escaped (two bytes each), so twice the record and a margin.
MAX_BODY = 2 * MAX_RECORD + 4096
#: Search nodes one review request may spend, all seats and decisions of its hand together:
#: 80 times ``REVIEW_NODES``, at most about 25 s of one core (the judge solves about
#: 100,000 nodes a second). Every double-six hand measured (2,733 hands of greedy bots,
#: every preset, 2 to 4 players) needed at most 77 solves, so it is judged at the full
#: limit per decision, as ``bones replay --review`` judges it.
REVIEW_BUDGET = 80 * REVIEW_NODES
#: The least node limit per decision a big hand is cut down to; below it hardly anything is
#: judged, so a hand that needs less is left wholly unjudged rather than solved in vain.
LEAST_NODES = 500
#: Requests that may wait for a viewer thread; past this one is refused (503) instead of
#: queueing, so a flood holds neither memory nor the threads.
WAITING = 4
#: Reviews kept, so a page opened again (or a second viewer) is answered at once.
KEPT_REVIEWS = 256


class Busy(BonesError):
    """Too many replays or reviews are waiting; the request is refused, not queued."""


def read_record(text: str) -> tuple[Record, Game]:
    """A record's text read and checked as ``bones replay`` reads a file:
    ``RecordFormatError`` if it is not a record at all, ``RecordError`` if it breaks a rule,
    each one line. The size is the caller's to check (``MAX_RECORD``), before reading."""
    return parse(load(text))


def digest(text: str) -> str:
    """What tells one record's text from another's, to keep reviews by."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# -- the game move by move -------------------------------------------------------------------


def table_json(record: Record, game: Game) -> dict[str, Any]:
    """The rules and who played, as the table page is told a table (``spec.public``); the
    names as ``bones replay`` prints them (a name that two seats share, as records of bot
    games have, is told apart by its seat). The record names one player per seat: the
    checker reads its rules for that many."""
    rules = game.rules
    sides = [list(rules.seats_of(side)) for side in range(rules.sides)]
    return {"rules": rules_json(rules), "players": len(record.players),
            "names": list(distinct(record.players)),
            "target": rules.target_points, "sides": sides,
            "partnerships": any(len(seats) > 1 for seats in sides),
            "draw": reserve_of(rules) is not None, "pool": has_pool(rules)}


def _moment(state: HandState) -> dict[str, Any]:
    """The hand as it stands: the board, every seat's tiles (all open: the game is over),
    the tiles left to draw, and who moves next (``null`` once the hand is over)."""
    return {"layout": layout_json(state.layout),
            "held": [tiles_json(h) for h in state.hands],
            "boneyard_left": len(state.boneyard),
            "to_move": None if state.is_over else state.to_move}


def _start_of(hand: HandState) -> HandState:
    """The hand as dealt, before its first move."""
    return new_hand(hand.rules, hand.deal, undealt(hand), hand.leader, hand.opening)


def replay_json(record: Record, game: Game) -> dict[str, Any]:
    """Every hand of a checked game: its deal (all seats' tiles and the boneyard in order),
    the hand before the first move (``start``), then each move with the hand after it
    (``steps``), its result and the game scores before and after it."""
    scores = [0] * game.rules.sides
    hands = []
    results = game.hand_results()
    for number, (hand, result) in enumerate(zip(game.hands, results, strict=True), start=1):
        state = _start_of(hand)
        start = _moment(state)
        steps = []
        for move in hand.moves:
            state = apply_unchecked(state, move)
            steps.append({"move": move_json(move), **_moment(state)})
        after = [s + p for s, p in zip(scores, result.points, strict=True)]
        hands.append({"hand": number, "deal": [tiles_json(h) for h in hand.deal],
                      "boneyard": tiles_json(undealt(hand)), "leader": hand.leader,
                      "opening": None if hand.opening is None else str(hand.opening),
                      "start": start, "steps": steps, "result": result_json(result),
                      "scores_before": scores, "scores": after})
        scores = after
    return {"table": table_json(record, game), "hands": hands, "scores": list(game.scores),
            "finished": game.finished, "winner": game.winner, "chips": list(game.chips)}


# -- the review --------------------------------------------------------------------------------


def solves(hand: HandState) -> int:
    """How many exact solves a review of every seat of ``hand`` makes: one per candidate
    play at each play that had more than one (``review`` solves each candidate)."""
    state = _start_of(hand)
    count = 0
    for move in hand.moves:
        if isinstance(move, Play):
            choices = sum(1 for m in state.legal_moves() if isinstance(m, Play))
            if choices > 1:
                count += choices
        state = apply_unchecked(state, move)
    return count


def node_limit(hand: HandState, budget: int = REVIEW_BUDGET) -> int:
    """The node limit per solve that keeps a review of ``hand`` within ``budget`` nodes
    whatever the positions: ``REVIEW_NODES`` (as ``bones replay --review``) when the hand
    is small enough, less for a big one, 0 (judge nothing) when even ``LEAST_NODES`` would
    not fit."""
    limit = min(REVIEW_NODES, budget // max(1, solves(hand)))
    return limit if limit >= LEAST_NODES else 0


def review_json(game: Game, number: int, budget: int = REVIEW_BUDGET) -> dict[str, Any]:
    """The review of hand ``number`` (from 1), every seat: its costly plays, worst first,
    each with its move's number in the hand (from 1, as ``steps``), the play, the better
    one, the cost and its words; and how many of the seat's decisions were not judged."""
    if not 1 <= number <= len(game.hands):
        raise BonesError(f"hand: the record has hands 1 to {len(game.hands)}, not {number}")
    hand = game.hands[number - 1]
    seats = range(len(hand.deal))  # one hand dealt per seat
    if hand.end is None:
        return {"hand": number, "reviewed": False, "legend": COST_LEGEND,
                "why": f"hand {number} was not finished: only a finished hand is reviewed",
                "seats": []}
    scores = [0] * game.rules.sides
    for result in game.results[:number - 1]:
        scores = [s + p for s, p in zip(scores, result.points, strict=True)]
    limit = node_limit(hand, budget)
    rows = []
    for seat in seats:
        if limit:
            mistakes, skipped = review(hand, seat, tuple(scores), limit)
        else:
            mistakes, skipped = [], _decisions(hand, seat)
        rows.append({"seat": seat, "skipped": skipped,
                     "skipped_text": deep_text(skipped) if skipped else None,
                     "mistakes": [{"move": m.move_number, "own_play": m.play_number,
                                   "seat": seat, "play": str(m.played.tile),
                                   "end": m.played.end, "best": str(m.best.tile),
                                   "best_end": m.best.end, "cost": round(m.cost, 6),
                                   "text": mistake_text(m)} for m in mistakes]})
    return {"hand": number, "reviewed": True, "legend": COST_LEGEND, "nodes": limit,
            "seats": rows}


def _decisions(hand: HandState, seat: int) -> int:
    """The plays of ``seat`` that had a choice: what a review would have judged."""
    state = _start_of(hand)
    count = 0
    for move in hand.moves:
        if isinstance(move, Play) and move.seat == seat and sum(
                1 for m in state.legal_moves() if isinstance(m, Play)) > 1:
            count += 1
        state = apply_unchecked(state, move)
    return count


# -- the threads -------------------------------------------------------------------------------


class Viewer:
    """The viewer's two threads, one for reading records and building replays, one for
    reviews (so neither waits on the other, and neither takes the bots' pool), and the
    reviews already made. Made inside the running server."""

    def __init__(self) -> None:
        self.reading = anyio.CapacityLimiter(1)
        self.reviewing = anyio.CapacityLimiter(1)
        self.reviews: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

    async def run(self, limiter: anyio.CapacityLimiter, fn: Callable[..., T],
                  *args: Any) -> T:
        """``fn(*args)`` in ``limiter``'s thread; ``Busy`` if ``WAITING`` requests already
        wait for it."""
        if limiter.statistics().tasks_waiting >= WAITING:
            raise Busy("the server is busy with other replays; try again in a moment")
        return await anyio.to_thread.run_sync(fn, *args, limiter=limiter)

    async def review(self, text: str, number: int) -> dict[str, Any]:
        """The review of hand ``number`` of the record ``text`` (checked again, as every
        request's record is), kept for the next request that asks."""
        key = (digest(text), number)
        kept = self.reviews.get(key)
        if kept is not None:
            self.reviews.move_to_end(key)
            return kept
        made = await self.run(self.reviewing, _review_text, text, number)
        self.reviews[key] = made
        while len(self.reviews) > KEPT_REVIEWS:
            self.reviews.popitem(last=False)
        return made


def _review_text(text: str, number: int) -> dict[str, Any]:
    _, game = read_record(text)
    return review_json(game, number)


def replay_text(text: str) -> dict[str, Any]:
    """The replay of the record ``text``, read and checked first."""
    return replay_json(*read_record(text))
