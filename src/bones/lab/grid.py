"""``--vary`` flags into a grid of rule sets: every combination of the varied options' values.

A flag names an option of ``docs/rules.md`` and its values: ``spinner`` alone takes every
value of an option that has a fixed list (the booleans, the enumerations and ``set``);
``players=3..6`` a range of whole numbers; ``target=50,100,pagat`` a list. Values are read
as the rules flags read them (``read_whole``). A value that no rule set could have
(``spinner=wide``, ``players=x``, ``players=1``) is a mistake in the command and refused at
once; a combination that cannot be dealt (seven players from double-six) is a fact about
the rules, so it becomes a skipped grid point carrying the engine's reason, and the rest of
the grid still runs.

>>> [point.label for point in expand(Rules(), [parse_vary("players=2..3")])]
['players 2', 'players 3']
"""

from __future__ import annotations

import itertools
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args, get_origin

from bones.engine.errors import BonesError, RulesError
from bones.engine.rules import LEAST, OPTION_NAMES, SETS, Rules, read_whole

#: An option's value as ``Rules`` holds it.
Value = bool | int | str

#: More rule sets than this is a typing slip (``players=2..2000``), not an experiment.
MAX_POINTS = 500


class VaryError(BonesError):
    """A ``--vary`` flag that names no option, or a value no rule set can have."""

    def __init__(self, text: str, message: str) -> None:
        super().__init__(f"--vary {text}: {message}")


def _kinds() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Each option's kind (``bool``, ``int``, ``words``, ``int|words``) and its words,
    read from ``Rules``' own annotations so a new option value needs no change here."""
    hints = typing.get_type_hints(Rules)
    kinds: dict[str, tuple[str, tuple[str, ...]]] = {}
    for name in OPTION_NAMES:
        hint = hints[name]
        if hint is bool:
            kinds[name] = ("bool", ())
        elif hint is int:
            kinds[name] = ("int", ())
        elif get_origin(hint) is Literal:
            kinds[name] = ("words", tuple(get_args(hint)))
        else:  # int | Literal[...]
            words = tuple(w for arg in get_args(hint) if get_origin(arg) is Literal
                          for w in get_args(arg))
            kinds[name] = ("int|words", words)
    return kinds


_KINDS = _kinds()


@dataclass(frozen=True, slots=True)
class Variation:
    """One ``--vary`` flag: an option and the values it takes, in the order given."""

    option: str
    values: tuple[Value, ...]


@dataclass(frozen=True, slots=True)
class GridPoint:
    """One rule set of the grid: the varied options' values, and the rules they make, or
    the reason they could not be dealt."""

    index: int
    changes: tuple[tuple[str, Value], ...]
    rules: Rules | None
    skipped: str | None = None

    @property
    def label(self) -> str:
        """``spinner first-double, players 4``; the empty string when nothing is varied."""
        return ", ".join(f"{name} {show(value)}" for name, value in self.changes)


def show(value: Value) -> str:
    """A value as the rules flags write it: ``true``, ``4``, ``first-double``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_vary(text: str) -> Variation:
    """Read ``OPTION``, ``OPTION=A..B`` or ``OPTION=a,b,c``; ``VaryError`` on a mistake."""
    name, has_values, spec = text.partition("=")
    option = name.strip().replace("-", "_")
    if option not in _KINDS:
        raise VaryError(text, f'"{name.strip()}" is not an option of the rules '
                        f"(options: {', '.join(OPTION_NAMES)})")
    kind, words = _KINDS[option]
    if not has_values:
        return Variation(option, _every_value(text, option, kind, words))
    spec = spec.strip()
    if ".." in spec:
        values: tuple[Value, ...] = _range(text, option, kind, spec)
    else:
        values = tuple(_one(text, option, kind, words, part.strip())
                       for part in spec.split(","))
    if len(set(values)) != len(values):
        raise VaryError(text, "a value is listed twice")
    return Variation(option, values)


def _every_value(text: str, option: str, kind: str,
                 words: tuple[str, ...]) -> tuple[Value, ...]:
    if option == "set":
        return SETS
    if kind == "bool":
        return (False, True)
    if kind == "words":
        return words
    raise VaryError(text, f"{option} has no fixed list of values: give a range "
                    f"({option}=A..B) or a list ({option}=a,b,c)")


def _range(text: str, option: str, kind: str, spec: str) -> tuple[int, ...]:
    low_text, _, high_text = spec.partition("..")
    if kind not in ("int", "int|words"):
        raise VaryError(text, f"{option} is not a number, so it takes a list, not a range")
    low, high = read_whole(low_text), read_whole(high_text)
    if low is None or high is None:
        raise VaryError(text, f"a range is two whole numbers A..B, not {spec!r}")
    if low > high:
        raise VaryError(text, f"the range {low}..{high} is empty")
    if high - low >= MAX_POINTS:
        raise VaryError(text, f"the range {low}..{high} has more than {MAX_POINTS} values")
    if option != "set":
        _at_least(text, option, low)
        return tuple(range(low, high + 1))
    sets = tuple(s for s in SETS if low <= s <= high)
    if not sets:
        raise VaryError(text, f"no set ({', '.join(map(str, SETS))}) lies in {low}..{high}")
    return sets


def _one(text: str, option: str, kind: str, words: tuple[str, ...], part: str) -> Value:
    """One listed value, checked as far as it can be without the other options."""
    if kind == "bool":
        if part.lower() in ("true", "false"):
            return part.lower() == "true"
        raise VaryError(text, f"{option} is true or false, not {part!r}")
    value = read_whole(part) if kind in ("int", "int|words") else None
    if value is not None:
        if option == "set" and value not in SETS:
            raise VaryError(text, f"set is one of {', '.join(map(str, SETS))}, not {value}")
        _at_least(text, option, value)
        return value
    if part in words:
        return part
    allowed = [*(["a whole number"] if kind != "words" else []), *(f'"{w}"' for w in words)]
    raise VaryError(text, f"{option} is {' or '.join(allowed)}, not {part!r}")


def _at_least(text: str, option: str, value: int) -> None:
    """Refuse a number below the option's least (``players=1``, ``ante=-1``): no rule set
    has it, whatever the other options, so it is a mistake in the command, not a grid point
    to skip."""
    least = LEAST.get(option)
    if least is not None and value < least:
        raise VaryError(text, f"{option} is a whole number of at least {least}, not {value}")


def expand(base: Rules, variations: Sequence[Variation]) -> list[GridPoint]:
    """Every combination of the variations' values applied to ``base``, the first
    variation changing slowest; combinations that cannot be dealt are skipped with the
    engine's reason. No variations: ``base`` alone."""
    options = [v.option for v in variations]
    for option in options:
        if options.count(option) > 1:
            raise VaryError(option, "is varied twice; list all its values in one flag")
    combos = list(itertools.product(*(v.values for v in variations)))
    if len(combos) > MAX_POINTS:
        raise VaryError(" ".join(options), f"makes {len(combos)} rule sets; the lab runs at "
                        f"most {MAX_POINTS}")
    points = []
    for index, combo in enumerate(combos):
        changes = tuple(zip(options, combo, strict=True))
        try:
            rules = base.replace(**dict(changes))
        except RulesError as exc:
            points.append(GridPoint(index, changes, None, str(exc)))
        else:
            points.append(GridPoint(index, changes, rules))
    return points
