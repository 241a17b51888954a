"""Rules as a flat tuple of small integers: the one form both playout paths read.

The C extension cannot read a ``Rules`` value cheaply, and the pure-Python path should not
look up strings on every move, so each option is turned into an integer here, once per
call. The codes below are a contract with ``_playout.c``: change both or neither.
"""

from __future__ import annotations

from typing import Final

from bones.engine.rules import Rules

#: ``lead``: who leads the first hand (and every hand with ``next_lead: "same"``).
LEAD: Final = {"lots": 0, "highest-double": 1, "heaviest": 2}
#: ``opening``: which tile the leader must set first.
OPENING: Final = {"any": 0, "highest-double": 1, "top-double": 2}
#: ``no_double``: what happens when a needed double was not dealt.
NO_DOUBLE: Final = {"redeal": 0, "heaviest": 1}
#: ``next_lead``: who leads the later hands.
NEXT_LEAD: Final = {"left": 0, "winner": 1, "same": 2}
#: ``spinner``.
SPINNER: Final = {"none": 0, "first-double": 1}
#: ``score``: the winning side's points.
SCORE: Final = {"others-minus-own": 0, "others": 1}
#: ``pool``: when the pool is paid.
POOL: Final = {"hand": 0, "game": 1}
#: ``pool_tie``: a tied hand's pool.
POOL_TIE: Final = {"split": 0, "carry": 1}

#: The position of each option in the tuple ``params`` returns (and ``_playout.c`` parses).
FIELDS: Final = (
    "set", "players", "dealt", "sides", "partnerships", "draw", "reserve", "call_block",
    "lead", "opening", "no_double", "next_lead", "spinner", "score", "target", "ante",
    "pool", "pool_tie",
)

Params = tuple[int, ...]

#: The largest ``target`` and ``ante`` the C path takes: its totals are 64-bit, and a run of
#: hands must not overflow them. Larger ones (the rules allow any whole number) are played
#: on the pure path, whose integers have no bound (``c_can_play``).
C_MAX_TARGET: Final = 1 << 62
C_MAX_ANTE: Final = (1 << 31) - 1
#: The largest ``reserve``: the tiles of a double-eighteen set (the rules take any reserve
#: in Block, where nothing is drawn).
C_MAX_RESERVE: Final = 190

#: How a hand ended, in raw traces.
OUT: Final = 0
BLOCKED: Final = 1

# A move in a raw trace is one int: ``seat << 16 | tile << 3 | kind``, where ``tile`` is the
# tile's index in ``full_set`` and ``kind`` is the arm index of a play (0 left, 1 right,
# 2 up, 3 down), or one of these:
#: The first tile of a hand (it names no arm).
FIRST: Final = 4
#: A draw from the boneyard (``tile`` is the tile drawn).
DRAW: Final = 5
#: A pass (``tile`` is 0).
PASS: Final = 6


def params(rules: Rules) -> Params:
    """The integer form of ``rules``, in the order of ``FIELDS``, derived options resolved.

    >>> from bones.engine.rules import PRESETS
    >>> params(PRESETS["block"])[:4]
    (6, 2, 7, 2)
    """
    return (
        rules.set,
        rules.players,
        rules.dealt,
        rules.sides,
        int(rules.partnerships),
        int(rules.draw),
        rules.reserve,
        int(rules.call_block),
        LEAD[rules.lead],
        OPENING[rules.opening],
        NO_DOUBLE[rules.no_double],
        NEXT_LEAD[rules.next_lead],
        SPINNER[rules.spinner],
        SCORE[rules.score],
        rules.target_points,
        rules.ante,
        POOL[rules.pool],
        POOL_TIE[rules.pool_tie],
    )


def c_can_play(p: Params) -> bool:
    """Whether the C path takes these rules: every option but ``target``, ``ante`` and
    ``reserve`` (unbounded in Block) is bounded by the set already."""
    return (p[FIELDS.index("target")] <= C_MAX_TARGET and p[FIELDS.index("ante")] <= C_MAX_ANTE
            and p[FIELDS.index("reserve")] <= C_MAX_RESERVE)
