"""Rules as a flat tuple of small integers: the one form both playout paths read.

The C extension cannot read a ``Rules`` value cheaply, and the pure-Python path should not
look up strings on every move, so each option is turned into an integer here, once per
call. The codes below are a contract with ``_playout.c``: change both or neither.

Rules the codes cannot hold (an option value added to the engine but not here, a rule that
scores during play) are named by ``unsupported`` in a sentence, never met by a ``KeyError``.
"""

from __future__ import annotations

import dataclasses
from types import ModuleType
from typing import Final

from bones.engine.rules import OPTION_NAMES, Rules
from bones.engine.scoring import BLOCKED, OUT, PLAYING, scores_plays

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
#: on the pure path, whose integers have no bound (``c_limits``).
C_MAX_TARGET: Final = 1 << 62
C_MAX_ANTE: Final = (1 << 31) - 1
#: The largest ``reserve``: the tiles of a double-eighteen set (the rules take any reserve
#: in Block, where nothing is drawn).
C_MAX_RESERVE: Final = 190

# How a hand ended, in raw traces: the engine's ``OUT`` and ``BLOCKED``
# (``bones.engine.scoring``); the C extensions export their copies, checked by ``agrees``.

# A move in a raw trace is one int: ``seat << 16 | tile << 3 | kind``, where ``tile`` is the
# tile's index in ``full_set`` and ``kind`` is the arm index of a play (0 left, 1 right,
# 2 up, 3 down), or one of these:
#: The first tile of a hand (it names no arm).
FIRST: Final = 4
#: A draw from the boneyard (``tile`` is the tile drawn).
DRAW: Final = 5
#: A pass (``tile`` is 0).
PASS: Final = 6


#: The code table of each option whose values are words.
CODES: Final[dict[str, dict[str, int]]] = {
    "lead": LEAD, "opening": OPENING, "no_double": NO_DOUBLE, "next_lead": NEXT_LEAD,
    "spinner": SPINNER, "score": SCORE, "pool": POOL, "pool_tie": POOL_TIE,
}
#: The options ``params`` reads (``hand_size`` through ``dealt``, ``target`` resolved).
_READ: Final = frozenset(FIELDS) | {"hand_size"}


def unsupported(rules: Rules) -> str | None:
    """Why the playouts cannot play ``rules``, in one line naming the option and its value;
    ``None`` when they can. Both playout paths play exactly what ``params`` holds, so this
    is what both support: every value in ``CODES``, any option ``params`` does not read
    left at its default, and no points scored during play (``scoring.play_points``).

    >>> from bones.engine.rules import PRESETS
    >>> unsupported(PRESETS["pool"]) is None
    True
    """
    return refusal(rules, CODES, _READ, ("the fast playouts", "do", "they", "score"))


def refusal(rules: Rules, codes: dict[str, dict[str, int]], read: frozenset[str],
            path: tuple[str, str, str, str]) -> str | None:
    """Why a fast path cannot play ``rules``, or ``None``: a value outside ``codes`` (its
    option's values it knows), an option outside ``read`` changed from its default, or
    points scored during play. ``path`` words the reason: (its name, "do"/"does",
    "they"/"it", what it does with a hand's end), so the playouts and the search say it
    alike."""
    name, does, it, ends = path
    for option, known in codes.items():
        value = getattr(rules, option)
        if value not in known:
            listed = ", ".join(f'"{v}"' for v in known)
            return f"{name} {does} not play {option} {value!r} (only {listed})"
    for f in dataclasses.fields(Rules):
        if f.name in OPTION_NAMES and f.name not in read and getattr(rules, f.name) != f.default:
            plays = "play" if it == "they" else "plays"
            return (f"{name} {does} not read option {f.name}, so {it} {plays} only its "
                    f"default {f.default!r}, not {getattr(rules, f.name)!r}")
    if scores_plays(rules):
        return (f"{name} {ends} only the end of a hand, and score {rules.score!r} "
                "scores plays too")
    return None


def params(rules: Rules) -> Params:
    """The integer form of ``rules``, in the order of ``FIELDS``, derived options resolved;
    ``ValueError`` with the reason when ``unsupported`` names one.

    >>> from bones.engine.rules import PRESETS
    >>> params(PRESETS["block"])[:4]
    (6, 2, 7, 2)
    """
    reason = unsupported(rules)
    if reason is not None:
        raise ValueError(reason)
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


def c_limits(p: Params) -> str | None:
    """Why the C path cannot take these rules (one line naming the option and its value), or
    ``None``: every option but ``target``, ``ante`` and ``reserve`` (unbounded in Block) is
    bounded by the set already."""
    for name, most in (("target", C_MAX_TARGET), ("ante", C_MAX_ANTE),
                       ("reserve", C_MAX_RESERVE)):
        value = p[FIELDS.index(name)]
        if value > most:
            return f"the C playouts take a {name} of at most {most}, not {value}"
    return None


def agrees(extension: ModuleType, *names: str) -> bool:
    """Whether a compiled extension numbers how a hand stands as the engine does: each of
    ``names`` (``"PLAYING"``, ``"OUT"``, ``"BLOCKED"``) it exports equals the engine's. An
    extension built from older sources does not, and is then left unused."""
    engine = {"PLAYING": PLAYING, "OUT": OUT, "BLOCKED": BLOCKED}
    return all(getattr(extension, name, None) == engine[name] for name in names)
