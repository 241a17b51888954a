"""The random playout the fast paths reproduce, written with the checked engine only.

This is the definition, not a fast path: every hand is dealt by ``deal_hand`` and every move
is one of ``legal_moves()``, applied by ``play_unchecked``. A seat with plays picks one with
``rng.choice``; a forced draw or pass is applied without touching the RNG. ``bones.fast``
must give the same games for the same seed, which ``tests/test_fast_agreement.py`` checks.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from bones.engine.game import Game, deal_hand, new_game, play_unchecked
from bones.engine.moves import Draw, Pass, Play
from bones.engine.rules import Rules
from bones.fast.results import HandTrace, Totals


def random_hand(game: Game, rng: random.Random) -> Game:
    """Deal and play the next hand of ``game`` with uniformly random plays."""
    game = deal_hand(game, rng)
    while (state := game.current) is not None:
        moves = state.legal_moves()
        move = rng.choice(moves) if isinstance(moves[0], Play) else moves[0]
        game = play_unchecked(game, move)
    return game


def random_game(rules: Rules, rng: random.Random) -> Game:
    """A whole game of random hands, played until a side reaches the target."""
    game = new_game(rules)
    while not game.finished:
        game = random_hand(game, rng)
    return game


def random_games(rules: Rules, rng: random.Random, games: int) -> list[Game]:
    """``games`` games one after another: what ``bones.fast.play_games`` plays."""
    return [random_game(rules, rng) for _ in range(games)]


def random_hands(rules: Rules, rng: random.Random, hands: int) -> list[Game]:
    """``hands`` hands of games played one after another, a new game starting when one is
    won; the last game may be cut short. What ``bones.fast.play_hands`` plays."""
    games: list[Game] = []
    game = new_game(rules)
    for _ in range(hands):
        if game.finished:
            games.append(game)
            game = new_game(rules)
        game = random_hand(game, rng)
    if game.hands:
        games.append(game)
    return games


def trace_of(game: Game) -> tuple[HandTrace, ...]:
    """Every finished hand of ``game`` as a ``HandTrace`` (its boneyard as dealt)."""
    traces = []
    for state, result in zip(game.hands, game.results, strict=False):
        drawn = tuple(m.tile for m in state.moves if isinstance(m, Draw) and m.tile is not None)
        traces.append(HandTrace(state.deal, drawn + state.boneyard, state.leader, state.moves,
                                result))
    return tuple(traces)


def tally(rules: Rules, games: Iterable[Game]) -> Totals:
    """The ``Totals`` of finished hands of ``games``, counted from the engine's own records."""
    hands = won = out = blocked = tied = plays = draws = passes = game_hands = longest = 0
    pool = 0
    side_hands, side_points, side_games, side_counts = ([0] * rules.sides for _ in range(4))
    seat_out, seat_leads, seat_chips = ([0] * rules.players for _ in range(3))
    for game in games:
        pool += game.pool
        for s, chips in enumerate(game.chips):
            seat_chips[s] += chips
        if game.winner is not None:
            won += 1
            side_games[game.winner] += 1
            game_hands += len(game.results)
            longest = max(longest, len(game.results))
        for state, result in zip(game.hands, game.results, strict=True):
            hands += 1
            seat_leads[state.leader] += 1
            plays += sum(isinstance(m, Play) for m in state.moves)
            draws += sum(isinstance(m, Draw) for m in state.moves)
            passes += sum(isinstance(m, Pass) for m in state.moves)
            if result.end == "out":
                out += 1
                seat_out[state.moves[-1].seat] += 1
            else:
                blocked += 1
                tied += result.winner is None
            if result.winner is not None:
                side_hands[result.winner] += 1
            for side in range(rules.sides):
                side_points[side] += result.points[side]
                side_counts[side] += sum(result.counts[s] for s in rules.seats_of(side))
    return Totals(rules, hands, won, out, blocked, tied, plays, draws, passes, game_hands,
                  longest, pool, tuple(side_hands), tuple(side_points), tuple(side_games),
                  tuple(side_counts), tuple(seat_out), tuple(seat_leads), tuple(seat_chips))
