"""The pure-Python playout path: the engine's random playout without the engine's objects.

Tiles are indices into ``full_set``; a hand is a list of them in the engine's order (dealt
order, played tiles removed, drawn tiles appended); the layout is four arm numbers; what a
blocked or dead layout needs is kept as counts per number. Every random number comes from
the same ``rng.shuffle`` and ``rng.choice`` calls, on sequences of the same lengths, that
``bones.fast.reference`` makes through the engine, so a seed gives the same game. This is
also the path the C extension (``_playout.c``) follows step for step; it is used where the
extension is not built or ``BONES_PURE=1``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from bones.engine.rules import Rules
from bones.engine.scoring import BLOCKED, OUT
from bones.engine.tiles import full_set, weight
from bones.fast.params import (
    DRAW,
    FIRST,
    LEAD,
    NEXT_LEAD,
    NO_DOUBLE,
    OPENING,
    PASS,
    SCORE,
    Params,
    unsupported,
)
from bones.fast.results import RawHand

_LOTS, _LEAD_HIGHEST_DOUBLE = LEAD["lots"], LEAD["highest-double"]
_OPEN_ANY, _OPEN_TOP_DOUBLE = OPENING["any"], OPENING["top-double"]
_NO_DOUBLE_REDEAL = NO_DOUBLE["redeal"]
_NEXT_WINNER, _NEXT_SAME = NEXT_LEAD["winner"], NEXT_LEAD["same"]
_SCORE_OTHERS = SCORE["others"]


def supports(rules: Rules) -> str | None:
    """Why this path cannot play ``rules`` (one line naming the option and its value), or
    ``None`` when it can: it plays what ``params`` holds, so what ``params.unsupported``
    names. Callers check this and play such rules on the engine (``bones.fast.reference``,
    the same procedure) rather than meet an error."""
    return unsupported(rules)


#: Scalars at the head of the flat totals, in ``Totals`` field order.
_HANDS, _GAMES, _OUT, _BLOCKED, _TIED, _PLAYS, _DRAWS, _PASSES, _GAME_HANDS, _LONGEST, \
    _POOL = range(11)

#: ``random.Random``'s own ``_randbelow`` (private, so looked up rather than named).
_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)


@dataclass(frozen=True, slots=True)
class Tables:
    """Facts about each tile of one set, by tile index, worked out once per set."""

    high: tuple[int, ...]
    low: tuple[int, ...]
    pips: tuple[int, ...]
    #: ``1 << high | 1 << low``: a tile fits an arm showing ``n`` when bit ``n`` is set.
    bits: tuple[int, ...]
    #: Position in the "heavier" order (higher is heavier); settles lots.
    rank: tuple[int, ...]
    #: Tile indices, heaviest first: the first one dealt is the heaviest tile dealt.
    by_weight: tuple[int, ...]
    #: The doubles' indices, highest first.
    doubles: tuple[int, ...]


@cache
def tables(top: int) -> Tables:
    """The ``Tables`` of double-``top``."""
    tiles = full_set(top)
    by_weight = sorted(range(len(tiles)), key=lambda i: weight(tiles[i]), reverse=True)
    rank = [0] * len(tiles)
    for r, i in enumerate(reversed(by_weight)):
        rank[i] = r
    return Tables(
        high=tuple(t.high for t in tiles),
        low=tuple(t.low for t in tiles),
        pips=tuple(t.pips for t in tiles),
        bits=tuple(1 << t.high | 1 << t.low for t in tiles),
        rank=tuple(rank),
        by_weight=tuple(by_weight),
        doubles=tuple(i for i in reversed(range(len(tiles))) if tiles[i].is_double),
    )


class Draws(NamedTuple):
    """The two ways a playout takes random numbers: ``rng.shuffle`` and ``rng.choice``."""

    shuffle: Callable[[list[int]], None]
    choice: Callable[[Sequence[int]], int]


def draws(rng: random.Random) -> Draws:
    """``rng``'s shuffle and choice, as fast as they can be had without changing a number.

    When ``rng`` uses ``random.Random``'s own ``shuffle``, ``choice`` and ``_randbelow``,
    their Python-level loops are written out here over ``rng.getrandbits``: the same calls
    in the same order, so the same numbers, at a third of the cost. Any other RNG is asked
    through its own methods.
    """
    cls = type(rng)
    if (_RANDBELOW is None or cls.shuffle is not random.Random.shuffle
            or cls.choice is not random.Random.choice
            or getattr(cls, "_randbelow", None) is not _RANDBELOW):
        return Draws(rng.shuffle, rng.choice)
    getrandbits = rng.getrandbits

    def shuffle(x: list[int]) -> None:
        for i in range(len(x) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]

    def choice(seq: Sequence[int]) -> int:
        n = len(seq)
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return seq[r]

    return Draws(shuffle, choice)


class _Game:
    """The running state of the game in play and the totals of the run so far."""

    def __init__(self, p: Params) -> None:
        players, sides = p[1], p[3]
        self.head = [0] * 11
        self.side_hands, self.side_points, self.side_games, self.side_counts = (
            [0] * sides for _ in range(4))
        self.seat_out, self.seat_leads, self.seat_chips = ([0] * players for _ in range(3))
        self.raws: list[RawHand] = []
        self.scores = [0] * sides
        self.pool = 0
        #: Hands already played in this game.
        self.hand_index = 0
        #: The last hand's leader and winning seat (-1: none), or None before a game's first.
        self.previous: tuple[int, int] | None = None

    def flat(self) -> list[int]:
        """The flat totals, the pool of a game cut short counted in."""
        head = self.head[:]
        head[_POOL] += self.pool
        return (head + self.side_hands + self.side_points + self.side_games + self.side_counts
                + self.seat_out + self.seat_leads + self.seat_chips)


def run(p: Params, rng: random.Random, count: int, by_hands: bool,
        trace: bool) -> tuple[list[int], list[RawHand]]:
    """Play random hands until ``count`` games have finished (or, ``by_hands``, ``count``
    hands have been played); return the flat totals and, with ``trace``, every hand's raw
    trace. Consecutive hands belong to one game until a side reaches the target.
    """
    tb = tables(p[0])
    rand = draws(rng)
    game = _Game(p)
    head = game.head
    unit = _HANDS if by_hands else _GAMES
    while head[unit] < count:
        order, leader, opening = _deal(p, tb, rand, game.previous)
        log: list[int] | None = [] if trace else None
        held, end, out_seat, moves = _play(p, tb, rand.choice, order, leader, opening, log)
        counts = [sum([tb.pips[t] for t in hand]) for hand in held]
        _settle(p, game, leader, counts, end, out_seat, moves, order, log)
    return game.flat(), game.raws


def _settle(p: Params, game: _Game, leader: int, counts: list[int], end: int, out_seat: int,
            moves: tuple[int, int, int], order: list[int], log: list[int] | None) -> None:
    """Score a hand (``engine.scoring.outcome``), pay the pool (``engine.pool``), add it
    to the totals and start a new game when a side has reached the target."""
    (_top, players, _dealt, sides, partnerships, _draw, _reserve, _call_block, _lead,
     _opening, _no_double, _next_lead, _spinner, score, target, ante, pool_game,
     pool_carry) = p
    ante_now = ante if ante and (not pool_game or game.hand_index == 0) else 0
    game.pool += ante_now * players
    sc = [counts[0] + counts[2], counts[1] + counts[3]] if partnerships else counts
    winner = winner_seat = -1
    tied: list[int] = []
    if end == OUT:
        winner = out_seat % 2 if partnerships else out_seat
        winner_seat = out_seat
    else:
        low = min(sc)
        tied = [side for side in range(sides) if sc[side] == low]
        if len(tied) == 1:
            winner, tied = tied[0], []
            winner_seat = winner
            if partnerships:
                # the partner with the lower count; on a tie the earlier from the leader
                winner_seat = min((winner, winner + 2),
                                  key=lambda s: (counts[s], (s - leader) % players))
    points = [0] * sides
    scores = game.scores
    if winner >= 0:
        others = sum(sc) - sc[winner]
        points[winner] = others if score == _SCORE_OTHERS else max(0, others - sc[winner])
        scores[winner] += points[winner]
    chips = [-ante_now] * players
    paying: list[int] = []
    if ante and not pool_game:
        paying = [winner] if winner >= 0 else [] if pool_carry else tied
    elif ante and winner >= 0 and scores[winner] >= target:
        paying = [winner]
    if paying:
        seats = [s for side in paying for s in ((side, side + 2) if partnerships else (side,))]
        each = game.pool // len(seats)
        for s in seats:
            chips[s] += each
        game.pool -= each * len(seats)

    head = game.head
    head[_HANDS] += 1
    head[_OUT if end == OUT else _BLOCKED] += 1
    head[_TIED] += bool(tied)
    head[_PLAYS] += moves[0]
    head[_DRAWS] += moves[1]
    head[_PASSES] += moves[2]
    for side in range(sides):
        game.side_counts[side] += sc[side]
        game.side_points[side] += points[side]
    for s in range(players):
        game.seat_chips[s] += chips[s]
    game.seat_leads[leader] += 1
    if end == OUT:
        game.seat_out[out_seat] += 1
    if log is not None:
        game.raws.append((tuple(order), leader, tuple(log), end, winner, tuple(counts),
                          tuple(points), tuple(chips)))
    game.hand_index += 1
    game.previous = (leader, winner_seat)
    if winner < 0:
        return
    game.side_hands[winner] += 1
    if scores[winner] >= target:
        head[_GAMES] += 1
        game.side_games[winner] += 1
        head[_GAME_HANDS] += game.hand_index
        head[_LONGEST] = max(head[_LONGEST], game.hand_index)
        head[_POOL] += game.pool
        game.scores = [0] * sides
        game.pool = game.hand_index = 0
        game.previous = None


def _deal(p: Params, tb: Tables, rand: Draws,
          previous: tuple[int, int] | None) -> tuple[list[int], int, int]:
    """Shuffle and deal as ``engine.game.deal``: the shuffled set, the leader and the tile
    the leader must set (-1: any). A redeal shuffles the same list again, as the engine does;
    lots shuffle a fresh list of the whole set."""
    players = p[1]
    order = list(range(len(tb.high)))
    while True:
        rand.shuffle(order)
        decided = _decide(p, tb, order, previous)
        if decided is not None:
            break
    leader, opening = decided
    if leader < 0:
        lots = list(range(len(tb.high)))
        rand.shuffle(lots)
        leader = max(range(players), key=lambda i: tb.rank[lots[i]])
    return order, leader, opening


def _decide(p: Params, tb: Tables, order: list[int],
            previous: tuple[int, int] | None) -> tuple[int, int] | None:
    """``engine.lead.decide``: ``(leader, opening tile)``, -1 for lots or for any tile;
    ``None`` to redeal. ``previous`` is the last hand's leader and winning seat."""
    players, dealt = p[1], p[2]
    lead, opening, no_double, next_lead = p[8:12]
    if opening != _OPEN_ANY:
        hand_of = _holders(order, players * dealt, dealt)
        wanted = tb.doubles[0] if opening == _OPEN_TOP_DOUBLE else _highest_double(tb, hand_of)
        if wanted in hand_of:
            return hand_of[wanted], wanted
        return _no_double(tb, hand_of, no_double, forced=True)
    if previous is None or next_lead == _NEXT_SAME:
        if lead == _LOTS:
            return -1, -1
        hand_of = _holders(order, players * dealt, dealt)
        if lead == _LEAD_HIGHEST_DOUBLE:
            double = _highest_double(tb, hand_of)
            if double < 0:
                return _no_double(tb, hand_of, no_double, forced=False)
            return hand_of[double], -1
        return hand_of[_heaviest(tb, hand_of)], -1
    if next_lead == _NEXT_WINNER and previous[1] >= 0:
        return previous[1], -1
    return (previous[0] + 1) % players, -1


def _holders(order: list[int], nd: int, dealt: int) -> dict[int, int]:
    """The seat holding each dealt tile (the boneyard's tiles are absent)."""
    return {t: i // dealt for i, t in enumerate(order[:nd])}


def _highest_double(tb: Tables, hand_of: dict[int, int]) -> int:
    """The highest double dealt, or -1."""
    return next((d for d in tb.doubles if d in hand_of), -1)


def _heaviest(tb: Tables, hand_of: dict[int, int]) -> int:
    """The heaviest tile dealt."""
    return next(t for t in tb.by_weight if t in hand_of)


def _no_double(tb: Tables, hand_of: dict[int, int], no_double: int,
               forced: bool) -> tuple[int, int] | None:
    """A needed double was not dealt: redeal (``None``), or the heaviest tile's holder leads,
    setting that tile when ``opening`` named one (``forced``)."""
    if no_double == _NO_DOUBLE_REDEAL:
        return None
    heaviest = _heaviest(tb, hand_of)
    return hand_of[heaviest], heaviest if forced else -1


def _play(p: Params, tb: Tables, choice: Callable[[Sequence[int]], int], order: list[int],
          leader: int, opening: int, log: list[int] | None
          ) -> tuple[list[list[int]], int, int, tuple[int, int, int]]:
    """Play one hand of random legal moves as ``reference.random_hand`` does through
    ``HandState.legal_moves`` and ``apply_unchecked``. Returns the hands left, how the hand
    ended, the seat that went out (else -1), and the numbers of plays, draws and passes.

    A play is coded ``index in hand << 2 | arm`` (arms 0-3: left, right, up, down), listed
    tile by tile in hand order and arm by arm, as ``legal_moves`` lists them. ``held[n]``
    counts the tiles in anyone's hand that show ``n``, and ``unlaid[n]`` those not on the
    layout: nobody can play when no open arm's number is held, and the layout is dead
    (``call_block``) when none is unlaid.
    """
    (top, players, dealt, _sides, _pships, draw, reserve, call_block, _lead, _opening,
     _no_double, _next_lead, spinner) = p[:13]
    high, low, bits = tb.high, tb.low, tb.bits
    nd = players * dealt
    hands = [order[s * dealt:(s + 1) * dealt] for s in range(players)]
    boneyard = order[nd:]
    drawable = len(boneyard) - reserve if draw else 0
    drawn = 0
    held = [0] * (top + 1)
    for t in order[:nd]:
        held[high[t]] += 1
        if low[t] != high[t]:
            held[low[t]] += 1
    unlaid = [top + 1] * (top + 1) if draw and call_block else None

    # The first tile: one legal move per tile in hand order, or only the opening tile.
    # ``choice`` draws from the RNG even when there is a single move, as the engine's does.
    hand = hands[leader]
    i = hand.index(choice((opening,))) if opening >= 0 else choice(range(len(hand)))
    t = hand.pop(i)
    h = high[t]
    ends = [h, low[t], h, h]
    arms = 2
    waiting = 3 if spinner and h == low[t] else 0
    spinner_free = bool(spinner) and not waiting
    plays = passes = 0
    seat = leader
    if log is not None:
        log.append(seat << 16 | t << 3 | FIRST)
    while True:
        # ``t`` has just been played by ``seat``: update the counts and look for the end.
        plays += 1
        h, lo = high[t], low[t]
        held[h] -= 1
        if lo != h:
            held[lo] -= 1
        if unlaid is not None:
            unlaid[h] -= 1
            if lo != h:
                unlaid[lo] -= 1
        if not hand:
            return hands, OUT, seat, (plays, drawn, passes)
        e0, e1 = ends[0], ends[1]
        if unlaid is not None and not unlaid[e0] and not unlaid[e1] and (
                arms == 2 or (not unlaid[ends[2]] and not unlaid[ends[3]])):
            return hands, BLOCKED, -1, (plays, drawn, passes)
        if drawn >= drawable and not held[e0] and not held[e1] and (
                arms == 2 or (not held[ends[2]] and not held[ends[3]])):
            return hands, BLOCKED, -1, (plays, drawn, passes)
        seat = seat + 1 if seat + 1 < players else 0
        while True:
            hand = hands[seat]
            fits = []
            if arms == 2:
                m0, m1 = 1 << e0, 1 << e1
                for i, t in enumerate(hand):
                    b = bits[t]
                    if b & m0:
                        fits.append(i << 2)
                    if b & m1:
                        fits.append(i << 2 | 1)
            else:
                for i, t in enumerate(hand):
                    b = bits[t]
                    for a in range(4):
                        if b >> ends[a] & 1:
                            fits.append(i << 2 | a)
            if fits:
                break
            if drawn < drawable:
                t = boneyard[drawn]
                drawn += 1
                hand.append(t)
                held[high[t]] += 1
                if low[t] != high[t]:
                    held[low[t]] += 1
                if log is not None:
                    log.append(seat << 16 | t << 3 | DRAW)
                if drawn >= drawable and not held[e0] and not held[e1] and (
                        arms == 2 or (not held[ends[2]] and not held[ends[3]])):
                    return hands, BLOCKED, -1, (plays, drawn, passes)
                continue
            passes += 1
            if log is not None:
                log.append(seat << 16 | PASS)
            seat = seat + 1 if seat + 1 < players else 0
        move = choice(fits)
        a = move & 3
        t = hand.pop(move >> 2)
        ends[a] = low[t] if high[t] == ends[a] else high[t]
        if waiting:
            if waiting >> a & 1:
                waiting &= ~(1 << a)
                if not waiting:
                    arms = 4
        elif spinner_free and high[t] == low[t]:
            spinner_free = False
            waiting = 1 << a
            ends[2] = ends[3] = high[t]
        if log is not None:
            log.append(seat << 16 | t << 3 | a)
