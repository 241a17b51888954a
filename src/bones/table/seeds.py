"""Every generator a table uses, derived from a seed in one place.

A game's deals and each bot's choices come from separate generators, so a bot's choices
never shift the tiles dealt, and a seed replays the same game in any process and any order.
Each front end has kept its own derivation since its records were first published; they are
named here, not changed, because a changed derivation would deal every seeded game anew.
"""

from __future__ import annotations

import random


def play_deals(seed: int) -> random.Random:
    """The deals of ``bones play``'s game: ``Random(seed)``, hand after hand."""
    return random.Random(seed)


def play_bot(seed: int, seat: int) -> random.Random:
    """The generator of the bot at ``seat`` in ``bones play`` (a string seed is hashed the
    same way on every machine)."""
    return random.Random(f"bones-bot:{seed}:{seat}")


def hint(seed: int, moves: int) -> random.Random:
    """The generator of the expert asked for a hint after ``moves`` moves of a hand: the
    same question gets the same answer."""
    return random.Random(f"bones-hint:{seed}:{moves}")


def game_seed(seed: int, index: int) -> str:
    """What seeds game ``index`` of a series (a record's ``seed``): ``Random`` of it deals
    the game again."""
    return f"{seed}:{index}"


def series_deals(seed: int, index: int) -> random.Random:
    """The deals of game ``index`` of a ``bones simulate`` series."""
    return random.Random(game_seed(seed, index))


def series_bot(seed: int, index: int, seat: int) -> random.Random:
    """The generator of the bot at ``seat`` in game ``index`` of a series."""
    return random.Random(f"{seed}:{index}:seat {seat}")


def arena_deal(seed: int, index: int) -> random.Random:
    """The shuffle of deal ``index`` of an arena match."""
    return random.Random(f"{seed}:deal:{index}")


def arena_bot(seed: int, index: int, seat: int, level: str) -> random.Random:
    """The generator of the ``level`` bot at ``seat`` of arena deal ``index``: keyed by seat
    and level, not by rotation, so the same bot in the same seat of the same deal chooses
    the same way whatever lineup it came from."""
    return random.Random(f"{seed}:deal:{index}:{seat}:{level}")
