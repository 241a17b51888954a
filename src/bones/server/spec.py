"""What a table is made of, as its creator chose it in the lobby: the rules, who sits at
each seat (a person, or one of bones's bot levels), how long bots think, the turn timer,
and whether hints are offered. Read from the lobby's request, refused in one line when
the engine or the server would not take it; stored as JSON with the table.

Outside bots (``cmd:PROGRAM``) are never seated here: a browser must not start programs on
the server.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from typing import Any

from bones.ai.levels import LEVELS
from bones.engine.errors import BonesError
from bones.engine.pool import has_pool
from bones.engine.rules import Rules, rules_from_json
from bones.engine.state import reserve_of
from bones.table.seats import HUMAN, default_names
from bones.table.wire import rules_json

#: Seats a web table may have: as many as the page lays out around the line of play.
MAX_PLAYERS = 8
#: A bot's think time per move, in seconds: the least, the most and the lobby's default.
THINK = (0.05, 5.0, 0.5)
#: The turn timer, in seconds, when one is set.
TIMER = (5, 3600)
#: The longest display name (a person's), in characters.
MAX_NAME = 32


class SpecError(BonesError):
    """A table the server will not make; the message is one line for the creator."""


@dataclass(frozen=True, slots=True)
class TableSpec:
    rules: Rules
    #: Each seat's kind: ``"human"`` (a person, whose seat is open until someone joins) or
    #: a bot level.
    kinds: tuple[str, ...]
    think: float = THINK[2]
    #: Seconds a person has for each turn (and between hands), or ``None``: no timer.
    timer: int | None = None
    hints: bool = False

    @property
    def persons(self) -> tuple[int, ...]:
        return tuple(s for s, kind in enumerate(self.kinds) if kind == HUMAN)

    @property
    def practice(self) -> bool:
        """One person against bones's bots: plays may be taken back (``undo``)."""
        return len(self.persons) == 1

    def bot_names(self) -> dict[int, str]:
        """The names shown for the bots' seats ("Greedy", "Expert 3")."""
        names = default_names(self.kinds)
        return {s: names[s] for s, kind in enumerate(self.kinds) if kind != HUMAN}

    def to_json(self) -> dict[str, Any]:
        return {"rules": rules_json(self.rules), "seats": list(self.kinds),
                "think": self.think, "timer": self.timer, "hints": self.hints}

    def public(self) -> dict[str, Any]:
        """The table as every client is told it: the spec, and what follows from it (asked
        of the engine's helpers: the rules are read in the engine only)."""
        rules = self.rules
        sides = [list(rules.seats_of(side)) for side in range(rules.sides)]
        return {**self.to_json(), "players": len(self.kinds), "target": rules.target_points,
                "partnerships": any(len(seats) > 1 for seats in sides),
                "draw": reserve_of(rules) is not None, "pool": has_pool(rules),
                "sides": sides, "practice": self.practice, "undo": self.practice}


def read_spec(doc: object) -> TableSpec:
    """A table from the lobby's request (``POST /api/tables``): ``rules`` (a preset name, or
    an object of a preset and options, as in a record), ``seats`` (``"human"`` or a bot
    level, one per player), and optional ``think``, ``timer`` and ``hints``."""
    if not isinstance(doc, dict):
        raise SpecError("a table is a JSON object with rules and seats")
    unknown = [k for k in doc if k not in ("rules", "seats", "think", "timer", "hints")]
    if unknown:
        raise SpecError(f"a table has no field {unknown[0][:40]!r}")
    seats = doc.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise SpecError('seats: a list naming each seat: "human" or a bot level '
                        f"({', '.join(LEVELS)})")
    raw = doc.get("rules", "block")
    if isinstance(raw, str):
        raw = {"preset": raw}
    if isinstance(raw, dict) and "players" not in raw:
        raw = {**raw, "players": len(seats)}
    rules = rules_from_json(raw)  # the engine's one-line RulesError for a bad combination
    players = rules_json(rules)["players"]  # as every client is told the rules
    if players > MAX_PLAYERS:
        raise SpecError(f"a web table seats at most {MAX_PLAYERS} players, not {players}")
    if len(seats) != players:
        raise SpecError(f"seats: {len(seats)} listed, but the rules have {players} players")
    for kind in seats:
        if kind != HUMAN and kind not in LEVELS:
            raise SpecError(f'seats: "{kind[:40]}" is not a seat (use human or one of '
                            f"{', '.join(LEVELS)}; programs cannot be seated from the web)")
    if HUMAN not in seats:
        raise SpecError("seats: a table needs at least one person")
    return TableSpec(rules, tuple(seats), _think(doc.get("think", THINK[2])),
                     _timer(doc.get("timer")), _flag(doc.get("hints", False), "hints"))


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _think(value: object) -> float:
    number = _number(value)
    if number is None or not THINK[0] <= number <= THINK[1]:
        raise SpecError(f"think: seconds per bot move, from {THINK[0]:g} to {THINK[1]:g}")
    return number


def _timer(value: object) -> int | None:
    if value is None:
        return None
    number = _number(value)
    if number is None or number != int(number) or not TIMER[0] <= number <= TIMER[1]:
        raise SpecError(f"timer: null (no timer) or whole seconds from {TIMER[0]} to "
                        f"{TIMER[1]}")
    return int(number)


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise SpecError(f"{name}: true or false")
    return value


def spec_from_json(doc: dict[str, Any]) -> TableSpec:
    """A stored spec (``TableSpec.to_json``), read back."""
    return TableSpec(rules_from_json(doc["rules"]), tuple(doc["seats"]), float(doc["think"]),
                     doc["timer"], bool(doc["hints"]))


def read_name(value: object) -> str:
    """A person's display name: 1 to ``MAX_NAME`` printable characters, spaces at either end
    dropped. Shown as text everywhere (never markup), so any printable name is safe."""
    if not isinstance(value, str):
        raise SpecError("name: your name, as text")
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        raise SpecError("name: give a name to show at the table")
    if len(name) > MAX_NAME:
        raise SpecError(f"name: at most {MAX_NAME} characters")
    if not name.isprintable():
        raise SpecError("name: only printable characters")
    return name
