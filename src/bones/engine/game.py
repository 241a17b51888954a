"""A game: hands played one after another until a side reaches the target, with the scores,
the pool and the chips ledger. ``Game`` is a value; every function returns a new one.

The checked entry points (``start_hand``, ``play``) are what records and people go through;
``play_unchecked`` is the fast path for search and simulation.

Every move makes a new ``Game`` that differs from the last only in the hand in play, so the
hands are kept in a ``Chain``, which shares all but that hand with the game before: a move
costs the same in a game's first hand as in its ten-thousandth, and replaying a record
takes time in proportion to its length (``benchmarks/replay_hands.py``). The results and
the ledger grow by one per hand, not per move; as tuples they cost a copy per hand, which
stays a small part of a hand's own cost.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from bones.engine import lead as leads
from bones.engine import pool as pools
from bones.engine.chain import Chain
from bones.engine.errors import DealError, IllegalMove, quoted
from bones.engine.moves import Move
from bones.engine.rules import Rules
from bones.engine.scoring import outcome
from bones.engine.state import HandState, apply, apply_unchecked, new_hand
from bones.engine.tiles import Tile, full_set, heaviest


@dataclass(frozen=True, slots=True)
class HandResult:
    """What ``bones replay --json`` reports for one hand."""

    end: Literal["out", "blocked", "unfinished"]
    winner: int | None
    counts: tuple[int, ...]
    points: tuple[int, ...]
    pool: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Game:
    """A game in progress or finished. ``hands[-1]`` may still be in play."""

    rules: Rules
    scores: tuple[int, ...]
    chips: tuple[int, ...]
    #: Every hand dealt, in order; a ``Chain``, which a move changes at its end only.
    hands: Chain[HandState] = field(default_factory=Chain)
    results: tuple[HandResult, ...] = ()
    #: Chips each seat has won minus put in, per hand (the last may be in play: antes only).
    ledger: Chain[tuple[int, ...]] = field(default_factory=Chain)
    #: Chips in the pool now.
    pool: int = 0
    previous: leads.Previous | None = None

    @property
    def current(self) -> HandState | None:
        """The hand in play, or ``None`` between hands."""
        if self.hands and not self.hands[-1].is_over:
            return self.hands[-1]
        return None

    @property
    def winner(self) -> int | None:
        """The side that reached the target, if any."""
        target = self.rules.target_points
        for side, score in enumerate(self.scores):
            if score >= target:
                return side
        return None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def hand_results(self) -> tuple[HandResult, ...]:
        """A result for every hand, the one in play (if any) reported as ``"unfinished"``."""
        current = self.current
        if current is None:
            return self.results
        counts = tuple(current.count(s) for s in range(self.rules.players))
        live = HandResult("unfinished", None, counts, (0,) * self.rules.sides, self.ledger[-1])
        return self.results + (live,)


def new_game(rules: Rules) -> Game:
    """A game with no hand dealt yet."""
    return Game(rules=rules, scores=(0,) * rules.sides, chips=(0,) * rules.players)


# -- dealing ---------------------------------------------------------------------------------


def deal(game: Game, rng: random.Random) -> tuple[tuple[tuple[Tile, ...], ...],
                                                 tuple[Tile, ...], int]:
    """Shuffle and deal the next hand: ``(deal, boneyard, leader)``.

    Redeals until the rules accept the deal; draws lots when ``lead`` asks for them.
    Uniform: ``rng.shuffle`` is a Fisher-Yates shuffle over the whole set.
    """
    rules = game.rules
    tiles = list(full_set(rules.set))
    size = rules.dealt
    while True:
        rng.shuffle(tiles)
        hands = tuple(tuple(tiles[i * size:(i + 1) * size]) for i in range(rules.players))
        boneyard = tuple(tiles[size * rules.players:])
        decided = leads.decide(rules, hands, game.previous)
        if decided is None:
            continue
        seat = decided.seat if decided.seat is not None else draw_lots(rules, rng)
        return hands, boneyard, seat


def draw_lots(rules: Rules, rng: random.Random) -> int:
    """Each seat in turn draws one tile from the shuffled set; the heavier tile leads.

    Only ``shuffle`` touches the RNG (as in ``deal``), so a compiled fast path can replay the
    exact same calls on the same Mersenne Twister state.
    """
    tiles = list(full_set(rules.set))
    rng.shuffle(tiles)
    drawn = tiles[:rules.players]
    return drawn.index(heaviest(drawn))


def check_deal(game: Game, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile],
               leader: int | None) -> leads.LeadChoice:
    """Check a deal and a leader against the rules; return the lead, with its seat settled."""
    rules = game.rules
    if game.finished:
        raise DealError(f"the game is already won by side {game.winner}; no hand may follow")
    if game.current is not None:
        raise DealError("the previous hand has not ended")
    if len(hands) != rules.players:
        raise DealError(f"the deal has {len(hands)} hands, but there are {rules.players} seats")
    for seat, hand in enumerate(hands):
        if len(hand) != rules.dealt:
            raise DealError(f"seat {seat} is dealt {len(hand)} tiles; the rules deal "
                            f"{rules.dealt}")
    everything = [t for hand in hands for t in hand] + list(boneyard)
    for t in everything:
        if t.high > rules.set:
            raise DealError(f"{t} is not in the double-{rules.set} set")
    repeated = [t for t, k in Counter(everything).items() if k > 1]
    if repeated:
        raise DealError(f"{repeated[0]} appears more than once in the deal and boneyard")
    missing = sorted(set(full_set(rules.set)) - set(everything), reverse=True)
    if missing:
        raise DealError(f"{missing[0]} is in neither the deal nor the boneyard")
    decided = leads.decide(rules, hands, game.previous)
    if decided is None:
        if rules.opening == "top-double":  # other doubles may be dealt: not this one
            raise DealError(f"the rules redeal this deal: {Tile(rules.set, rules.set)}, the "
                            "top double the opening needs, was not dealt "
                            f"(no_double: {rules.no_double})")
        needs = "opening" if rules.opening != "any" else "lead"  # whichever asks for it
        raise DealError(f"the rules redeal this deal: no double was dealt that the {needs} "
                        f"needs (no_double: {rules.no_double})")
    if leader is not None and (not isinstance(leader, int) or isinstance(leader, bool)
                               or not 0 <= leader < rules.players):
        raise DealError(f"leader {quoted(leader)} is not a seat (0 to {rules.players - 1})")
    if decided.seat is None:
        if leader is None:
            raise DealError("the leader is decided by lots, so the hand must name its leader")
        return leads.LeadChoice(leader, decided.opening)
    if leader is not None and leader != decided.seat:
        raise DealError(f"seat {leader} may not lead: the rules give the lead to seat "
                        f"{decided.seat} ({_lead_reason(rules, game)})")
    return decided


def _lead_reason(rules: Rules, game: Game) -> str:
    if rules.opening != "any":
        return f"opening: {rules.opening}"
    if game.previous is None or rules.next_lead == "same":
        return f"lead: {rules.lead}"
    return f"next_lead: {rules.next_lead}"


def start_hand(game: Game, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile],
               leader: int | None = None) -> Game:
    """Begin the next hand with this deal (checked); antes go into the pool."""
    decided = check_deal(game, hands, boneyard, leader)
    assert decided.seat is not None
    state = new_hand(game.rules, hands, boneyard, decided.seat, decided.opening)
    ante = pools.antes(game.rules, len(game.hands))
    return replace(
        game,
        hands=game.hands.append(state),
        ledger=game.ledger.append(ante),
        pool=game.pool - sum(ante),
        chips=_add(game.chips, ante),
    )


def deal_hand(game: Game, rng: random.Random) -> Game:
    """Shuffle, deal and start the next hand."""
    hands, boneyard, leader = deal(game, rng)
    return start_hand(game, hands, boneyard, leader)


# -- moves -----------------------------------------------------------------------------------


def play(game: Game, move: Move) -> Game:
    """The checked path: apply ``move`` to the hand in play (``IllegalMove`` if it may not)."""
    current = game.current
    if current is None:
        if game.hands:  # the last hand has ended: let it say so ("the hand is already over")
            apply(game.hands[-1], move)
        raise IllegalMove("no hand is in play")
    return _advance(game, apply(current, move))


def play_unchecked(game: Game, move: Move) -> Game:
    """The fast path: ``move`` must be one of ``game.current.legal_moves()``."""
    current = game.current
    assert current is not None
    return _advance(game, apply_unchecked(current, move))


def _advance(game: Game, state: HandState) -> Game:
    game = replace(game, hands=game.hands.with_last(state))
    return _settle(game) if state.is_over else game


def _settle(game: Game) -> Game:
    """Score the hand that just ended and pay the pool."""
    rules, state = game.rules, game.hands[-1]
    result = outcome(state)
    scores = _add(game.scores, result.points)
    pool = game.pool
    paid: tuple[int, ...] = (0,) * rules.players
    if pools.paid_each_hand(rules):
        paid, pool = pools.settle_hand(rules, pool, result.winner, result.tied)
    elif pools.has_pool(rules) and result.winner is not None and scores[result.winner] >= \
            rules.target_points:
        paid, pool = pools.share(rules, pool, (result.winner,))
    ledger_row = _add(game.ledger[-1], paid)
    hand_result = HandResult(state.end or "blocked", result.winner, result.counts,
                             result.points, ledger_row)
    return replace(
        game,
        scores=scores,
        pool=pool,
        chips=_add(game.chips, paid),
        ledger=game.ledger.with_last(ledger_row),
        results=game.results + (hand_result,),
        previous=leads.Previous(state.leader, result.winner_seat),
    )


def _add(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))
