"""Fast random playouts for simulation: the engine's random game, hundreds of times faster.

A random playout deals with ``rng.shuffle`` and picks every play with ``rng.choice`` among
``legal_moves()``, exactly as ``bones.fast.reference`` does through the checked engine, so
the same seed gives the same game on every path. Two paths play it:

- a C extension (``_playout``), used when it was compiled at install time;
- pure Python (``pure``), used when it was not, when ``BONES_PURE=1``, or when the RNG is a
  subclass of ``random.Random`` (whose numbers only its own methods can give).

Every function takes ``backend="c"`` or ``"python"`` to choose a path explicitly.

Not every rule set the engine plays can be played here: ``supports`` names the option and
value a path cannot play, and callers then play those rules on the engine
(``bones.fast.reference``, the same procedure, so the same games for the same seed).

>>> import random
>>> from bones.engine.rules import PRESETS
>>> totals = play_games(PRESETS["block"], random.Random(1), 10)
>>> totals.games, sum(totals.side_games)
(10, 10)
"""

from __future__ import annotations

import random

from bones.engine.rules import Rules
from bones.fast import pure
from bones.fast.paths import Backend, c_supports, default_backend, extension_built, run
from bones.fast.results import GameTrace, HandTrace, Totals, decode_hand

__all__ = [
    "Backend",
    "GameTrace",
    "HandTrace",
    "Totals",
    "default_backend",
    "extension_built",
    "play_games",
    "play_hands",
    "supports",
    "trace_game",
]


def supports(rules: Rules, backend: Backend | None = None) -> str | None:
    """Why the playouts cannot play ``rules``, in one line naming the option and its value,
    or ``None`` when they can. Without ``backend``: on whichever path a call would take
    (the default path hands rules beyond the C path's limits to the pure one), so ``None``
    means ``play_games`` and the others will play them; with ``"c"`` or ``"python"``, on
    that path. Where it says why not, ``play_games`` and the others raise ``ValueError``
    with the same reason.

    >>> from bones.engine.rules import PRESETS
    >>> supports(PRESETS["pool"]) is None
    True
    """
    if backend == "c":
        return c_supports(rules)
    return pure.supports(rules)


def play_games(rules: Rules, rng: random.Random, games: int, *,
               backend: Backend | None = None) -> Totals:
    """Play ``games`` whole random games one after another and sum up what happened."""
    flat, _ = run(rules, rng, games, "games", False, backend)
    return Totals.from_flat(rules, flat)


def play_hands(rules: Rules, rng: random.Random, hands: int, *,
               backend: Backend | None = None) -> Totals:
    """Play ``hands`` random hands of games one after another (a new game begins when one
    is won, so leads, scores and pools carry from hand to hand as in a real game; the last
    game may be cut short) and sum up what happened."""
    flat, _ = run(rules, rng, hands, "hands", False, backend)
    return Totals.from_flat(rules, flat)


def trace_game(rules: Rules, rng: random.Random, *,
               backend: Backend | None = None) -> GameTrace:
    """One random game with every hand in full: the deal, the leader, the moves and the
    result, to hold a path against the checked engine move by move."""
    flat, raws = run(rules, rng, 1, "games", True, backend)
    return GameTrace(tuple(decode_hand(rules, raw) for raw in raws),
                     Totals.from_flat(rules, flat))
