"""The pool ledger: antes in, payouts out, per seat; chips that cannot be split stay in."""

from __future__ import annotations

from collections.abc import Sequence

from bones.engine.rules import Rules


def has_pool(rules: Rules) -> bool:
    """Whether the game is played for a pool (``ante`` above 0): only then do chips change
    hands, and only then do screens and reports show them."""
    return rules.ante > 0


def paid_each_hand(rules: Rules) -> bool:
    """Whether the pool goes to each hand's winner (``pool: "hand"``), rather than once, to
    the game's winner (``pool: "game"``). False without a pool."""
    return has_pool(rules) and rules.pool == "hand"


def antes(rules: Rules, hand_index: int) -> tuple[int, ...]:
    """Chips each seat puts in before hand ``hand_index`` (from 0): every hand with
    ``pool: "hand"``, only before the first with ``pool: "game"``."""
    if not has_pool(rules) or (not paid_each_hand(rules) and hand_index > 0):
        return (0,) * rules.players
    return (-rules.ante,) * rules.players


def share(rules: Rules, pool: int, sides: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """Split ``pool`` equally among the players of ``sides``; return each seat's chips and
    what stays in the pool (the indivisible remainder)."""
    seats = [seat for side in sides for seat in rules.seats_of(side)]
    each = pool // len(seats)
    chips = tuple(each if seat in seats else 0 for seat in range(rules.players))
    return chips, pool - each * len(seats)


def settle_hand(rules: Rules, pool: int, winner: int | None,
                tied: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """Pay a finished hand's pool under ``pool: "hand"``: to the winning side, or on a tie by
    ``pool_tie``. Returns the seats' chips and the pool left."""
    if winner is not None:
        return share(rules, pool, (winner,))
    if rules.pool_tie == "split" and tied:
        return share(rules, pool, tied)
    return (0,) * rules.players, pool
