"""One frozen ``Rules`` value per rule set: every option of ``docs/rules.md``, and the presets.

A variant is data: the engine reads these fields and picks small functions by their values.
All validation lives in ``Rules.__post_init__`` so an undealable rules object cannot exist.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from bones.engine.errors import RulesError, quoted
from bones.engine.tiles import set_size

HandSize = int | Literal["standard", "pool"]
Lead = Literal["lots", "highest-double", "heaviest"]
Opening = Literal["any", "highest-double", "top-double"]
NoDouble = Literal["redeal", "heaviest"]
NextLead = Literal["left", "winner", "same"]
Spinner = Literal["none", "first-double"]
Score = Literal["others-minus-own", "others"]
Target = int | Literal["pagat"]
PoolWhen = Literal["hand", "game"]
PoolTie = Literal["split", "carry"]

#: The sets, by their highest double: the small ones (double-two to double-five) for teaching
#: and for research that solves whole games, then the sets people play with.
SETS = (2, 3, 4, 5, 6, 9, 12, 15, 18)
#: Tiles a pool hand size leaves undealt at the least (seed 000: "at least 8 in the bone yard").
POOL_UNDEALT = 8

_CHOICES: dict[str, tuple[str, ...]] = {
    "lead": get_args(Lead),
    "opening": get_args(Opening),
    "no_double": get_args(NoDouble),
    "next_lead": get_args(NextLead),
    "spinner": get_args(Spinner),
    "score": get_args(Score),
    "pool": get_args(PoolWhen),
    "pool_tie": get_args(PoolTie),
}


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """A complete rule set. Field names and values are those of ``docs/rules.md``."""

    set: int = 6
    players: int = 2
    partnerships: bool = False
    hand_size: HandSize = "standard"
    draw: bool = False
    reserve: int = 2
    call_block: bool = False
    lead: Lead = "lots"
    opening: Opening = "any"
    no_double: NoDouble = "redeal"
    next_lead: NextLead = "left"
    spinner: Spinner = "none"
    score: Score = "others-minus-own"
    target: Target = 100
    ante: int = 0
    pool: PoolWhen = "hand"
    pool_tie: PoolTie = "split"
    #: The preset these rules started from, kept so records can name it; not a rule itself.
    preset: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        _validate(self)

    # -- derived facts ---------------------------------------------------------------

    @property
    def tiles(self) -> int:
        """Tiles in the set."""
        return set_size(self.set)

    @property
    def dealt(self) -> int:
        """Tiles each seat is dealt, with ``"standard"`` and ``"pool"`` resolved."""
        return _resolved_hand_size(self)

    @property
    def undealt(self) -> int:
        """Tiles left in the boneyard after the deal."""
        return self.tiles - self.dealt * self.players

    @property
    def sides(self) -> int:
        """Number of sides: two teams with partnerships, else one per seat."""
        return 2 if self.partnerships else self.players

    @property
    def target_points(self) -> int:
        """The game target with ``"pagat"`` resolved (100 for two sides, 61 for more)."""
        if self.target == "pagat":
            return 100 if self.sides == 2 else 61
        return self.target

    def side_of(self, seat: int) -> int:
        """The side a seat plays for; sides are numbered by their lowest seat."""
        return seat % 2 if self.partnerships else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that make up a side, in seat order."""
        if self.partnerships:
            return (side, side + 2)
        return (side,)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like any other rules)."""
        return dataclasses.replace(self, **changes)

    def options(self) -> dict[str, Any]:
        """Every option as a plain dict, in the order of the spec."""
        return {name: getattr(self, name) for name in OPTION_NAMES}

    def to_json(self) -> str | dict[str, Any]:
        """The record form: a preset name, or a preset plus the options that differ from it."""
        if self.preset is not None and self.preset in PRESETS:
            base = PRESETS[self.preset]
            diff = {k: v for k, v in self.options().items() if getattr(base, k) != v}
            if not diff:
                return self.preset
            return {"preset": self.preset, **diff}
        return self.options()


OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name != "preset"
)


def _fail(option: str, message: str) -> RulesError:
    return RulesError(option, message)


def is_int(value: object) -> bool:
    """A JSON whole number: an ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


#: The options that are true or false.
BOOLEANS = ("partnerships", "draw", "call_block")
#: The least whole number each numeric option may be (``target`` and ``hand_size`` may
#: also be words); any larger one is a value of the option, dealable or not.
LEAST: dict[str, int] = {"players": 2, "reserve": 0, "ante": 0, "target": 1, "hand_size": 1}


def allowed(name: str) -> tuple[tuple[bool | int | str, ...], int | None]:
    """The values option ``name`` may take, for a program that builds rules: the fixed ones
    (the sets, ``false``/``true``, the named values), and the least whole number from which
    every whole number is allowed too (``None`` where none is).

    >>> allowed("target")
    (('pagat',), 1)
    """
    if name == "set":
        return SETS, None
    if name in _CHOICES:
        return _CHOICES[name], None
    if name in LEAST:
        words = {"hand_size": get_args(get_args(HandSize)[1]),
                 "target": get_args(get_args(Target)[1])}
        return words.get(name, ()), LEAST[name]
    if name in BOOLEANS:
        return (False, True), None
    raise RulesError(name, "is not an option of the rules")


def read_whole(text: str) -> int | None:
    """An option's value written as text (a command-line flag, a ``--vary`` list) as a whole
    number: ASCII digits with an optional sign, spaces around allowed; else ``None``. One
    reading for every command, so none accepts what Python's ``int`` also reads (full-width
    or other scripts' digits, ``1_000``) where another refuses it.

    >>> read_whole(" 3"), read_whole("+2"), read_whole("1_0"), read_whole("\uff13")
    (3, 2, None, None)
    """
    stripped = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", stripped):
        return None
    try:
        return int(stripped)
    except ValueError:  # past Python's limit of digits in a number read from text
        return None


def _validate(r: Rules) -> None:
    """Check types, ranges and dealability; raise ``RulesError`` naming the first bad option."""
    if not is_int(r.set) or r.set not in SETS:
        raise _fail("set", f"must be one of {', '.join(map(str, SETS))}, not {quoted(r.set)}")
    if not is_int(r.players) or r.players < LEAST["players"]:
        raise _fail("players", f"must be a whole number of at least {LEAST['players']}, "
                    f"not {quoted(r.players)}")
    for name in BOOLEANS:
        if not isinstance(getattr(r, name), bool):
            raise _fail(name, f"must be true or false, not {quoted(getattr(r, name))}")
    for name in ("reserve", "ante"):
        value = getattr(r, name)
        if not is_int(value) or value < LEAST[name]:
            raise _fail(name, f"must be a whole number of at least {LEAST[name]}, "
                        f"not {quoted(value)}")
    for name, choices in _CHOICES.items():
        value = getattr(r, name)
        if value not in choices:
            listed = ", ".join(f'"{c}"' for c in choices)
            raise _fail(name, f"must be one of {listed}, not {quoted(value)}")
    if r.target != "pagat" and (not is_int(r.target) or r.target < LEAST["target"]):
        raise _fail("target", 'must be a whole number of at least 1 or "pagat", '
                    f"not {quoted(r.target)}")
    if r.partnerships and r.players != 4:
        raise _fail("partnerships", f"needs exactly 4 players, not {r.players}")
    hand = _resolved_hand_size(r)
    if hand * r.players > r.tiles:
        raise _fail(
            "hand_size",
            f"is {hand}, but {r.players} players dealt {hand} tiles each need "
            f"{hand * r.players} of the {r.tiles} tiles of double-{r.set}; "
            f"{_sizes_that_work(r)}",
        )
    undealt = r.tiles - hand * r.players
    if r.draw and undealt < r.reserve:
        raise _fail(
            "reserve",
            f"is {r.reserve}, but the deal leaves only {undealt} tiles in the boneyard",
        )


def _sizes_that_work(r: Rules) -> str:
    """What ``hand_size`` could be for ``r``'s players and set, for a message that refuses
    another: ``give a number from 1 to 3 or "pool"`` (with ``draw`` the boneyard keeps the
    reserve), or that none could."""
    keep = r.reserve if r.draw and is_int(r.reserve) else 0
    largest = (r.tiles - keep) // r.players
    if largest < 1:
        return (f"no hand size deals {r.players} players a tile each from the {r.tiles} tiles "
                f"of double-{r.set}")
    numbers = "1" if largest == 1 else f"a number from 1 to {largest}"
    pool = ' or "pool"' if (r.tiles - POOL_UNDEALT) // r.players >= 1 else ""
    return f"for {r.players} players of double-{r.set} give {numbers}{pool}"


def _resolved_hand_size(r: Rules) -> int:
    hs = r.hand_size
    if hs == "standard":
        if r.set != 6 or not 2 <= r.players <= 4:
            raise _fail(
                "hand_size",
                'is "standard", which is defined only for double-six with 2 to 4 players; '
                f"{_sizes_that_work(r)}",
            )
        return 7 if r.players == 2 else 5
    if hs == "pool":
        size = (set_size(r.set) - POOL_UNDEALT) // r.players
        if size < 1:
            raise _fail(
                "hand_size",
                f'"pool" leaves no tiles to deal to {r.players} players from double-{r.set}',
            )
        return size
    if not is_int(hs) or hs < LEAST["hand_size"]:
        raise _fail("hand_size", f'must be a whole number of at least 1, "standard" or "pool", '
                    f"not {quoted(hs)}")
    return hs


#: Each seed document as a named rules value (``docs/rules.md``, "Presets").
PRESETS: dict[str, Rules] = {
    "block": Rules(preset="block"),
    "draw": Rules(draw=True, preset="draw"),
    "pagat-block": Rules(target="pagat", preset="pagat-block"),
    "pagat-draw": Rules(draw=True, target="pagat", preset="pagat-draw"),
    "puerto-rico": Rules(score="others", preset="puerto-rico"),
    "pool": Rules(hand_size="pool", score="others", ante=1, next_lead="same", preset="pool"),
}

#: Where each preset comes from, for ``bones rules``.
PRESET_SOURCES: dict[str, str] = {
    "block": "seed 001 (home Block)",
    "draw": "seed 001 (home Draw)",
    "pagat-block": "seed 003 (pagat.com Block)",
    "pagat-draw": "seed 003 (pagat.com Draw)",
    "puerto-rico": "seed 003 (its Puerto Rico note)",
    "pool": "seed 000 (Domino Pool)",
}


def preset(name: str) -> Rules:
    """A preset by name, or ``RulesError`` naming ``preset``."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise _fail("preset", f"is unknown: {quoted(name)} (known: {known})") from None


def rules_from_json(value: object, players: int | None = None) -> Rules:
    """Read the record form of rules: a preset name, or an object of a preset and overrides.

    ``players`` is the length of a record's players list: it fills in ``players`` when the
    rules omit it and must agree when they give it. Keys starting with ``x-`` are ignored.
    """
    if isinstance(value, str):
        data: dict[str, object] = {"preset": value}
    elif isinstance(value, Mapping):
        data = {str(k): v for k, v in value.items() if not str(k).startswith("x-")}
    else:
        raise _fail("preset", f"rules must be a preset name or an object, not {quoted(value)}")
    base = Rules()
    if "preset" in data:  # an explicit null is a bad preset, not a missing one
        name = data.pop("preset")
        if not isinstance(name, str):
            raise _fail("preset", f"must be a preset name, not {quoted(name)}")
        base = preset(name)
    for key in data:
        if key not in OPTION_NAMES:
            raise RulesError(key, "is not an option of the rules")
    if players is not None:
        given = data.get("players")
        if "players" not in data:
            data["players"] = players
        elif given != players or not is_int(given):
            raise _fail("players", f"is {quoted(given)}, but the record lists {players} players")
    return dataclasses.replace(base, preset=base.preset, **data)  # type: ignore[arg-type]
