"""The layout: tiles on the table, their open arms, and the optional first-double spinner.

A ``Layout`` is an immutable value; ``place`` returns a new one. The first tile lies high
half on the ``left`` arm, low half on the ``right``. With the spinner rule the first double
becomes the spinner; once tiles touch both its sides along the line, ``up`` and ``down`` open.
"""

from __future__ import annotations

from dataclasses import dataclass

from bones.engine.moves import Arm
from bones.engine.rules import Rules
from bones.engine.tiles import Tile

#: One tile on an arm, oriented from the centre out: (touching half, open half).
Link = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Layout:
    """Tiles on the table. ``ends`` maps each open arm to the number it shows."""

    uses_spinner: bool = False
    first: Tile | None = None
    ends: tuple[tuple[Arm, int], ...] = ()
    chains: tuple[tuple[Arm, tuple[Link, ...]], ...] = ()
    placed: frozenset[Tile] = frozenset()
    spinner: Tile | None = None
    #: Where the spinner lies: ``None`` (first tile) or the line arm and its index on it.
    spinner_at: tuple[Arm, int] | None = None
    #: Line arms that must still receive a tile before ``up`` and ``down`` open.
    spinner_waiting: frozenset[Arm] = frozenset()

    @property
    def is_empty(self) -> bool:
        return self.first is None

    def shows(self, arm: Arm) -> int | None:
        """The number an arm shows, or ``None`` if that arm is not open."""
        for name, number in self.ends:
            if name == arm:
                return number
        return None

    def open_numbers(self) -> frozenset[int]:
        """The numbers a tile must show to be playable now."""
        return frozenset(number for _, number in self.ends)

    def arms_for(self, t: Tile) -> tuple[Arm, ...]:
        """Every open arm ``t`` can be laid on (all arms when the layout is empty is not asked)."""
        return tuple(arm for arm, number in self.ends if t.high == number or t.low == number)

    def chain(self, arm: Arm) -> tuple[Link, ...]:
        for name, links in self.chains:
            if name == arm:
                return links
        return ()

    def is_dead(self, top: int) -> bool:
        """Every tile that matches an open arm is already on the layout (for ``call_block``)."""
        if self.first is None:
            return False
        for number in self.open_numbers():
            for other in range(top + 1):
                t = Tile(number, other) if number >= other else Tile(other, number)
                if t not in self.placed:
                    return False
        return True

    def place(self, t: Tile, arm: Arm | None) -> Layout:
        """Lay ``t`` (already checked to fit) on ``arm``; ``arm`` is ignored for the first tile."""
        if self.first is None:
            is_spinner = self.uses_spinner and t.is_double
            return Layout(
                uses_spinner=self.uses_spinner,
                first=t,
                ends=(("left", t.high), ("right", t.low)),
                chains=(("left", ()), ("right", ())),
                placed=frozenset((t,)),
                spinner=t if is_spinner else None,
                spinner_waiting=frozenset(("left", "right")) if is_spinner else frozenset(),
            )
        assert arm is not None
        number = self.shows(arm)
        assert number is not None and t.matches(number)
        outer = t.other(number)
        ends = tuple((a, outer if a == arm else n) for a, n in self.ends)
        chains = tuple((a, links + ((number, outer),) if a == arm else links)
                       for a, links in self.chains)
        spinner, spinner_at, waiting = self.spinner, self.spinner_at, self.spinner_waiting
        if spinner is not None and arm in waiting:
            waiting = waiting - {arm}
            if not waiting:
                ends += (("up", spinner.high), ("down", spinner.high))
                chains += (("up", ()), ("down", ()))
        elif spinner is None and self.uses_spinner and t.is_double:
            spinner, spinner_at = t, (arm, len(self.chain(arm)))
            waiting = frozenset((arm,))
        return Layout(
            uses_spinner=self.uses_spinner,
            first=self.first,
            ends=ends,
            chains=chains,
            placed=self.placed | {t},
            spinner=spinner,
            spinner_at=spinner_at,
            spinner_waiting=waiting,
        )


def has_spinner(rules: Rules) -> bool:
    """Whether the first double laid becomes the spinner (``spinner: "first-double"``).

    Search positions and listings that track the layout without a ``Layout`` ask this, so a
    new ``spinner`` value changes one place, not every copy of the string comparison."""
    return rules.spinner == "first-double"


def empty_layout(rules: Rules) -> Layout:
    """The layout a hand of these rules starts from: nothing laid, the spinner rule set.

    Everything that replays a hand (the referee, a seat's beliefs, a bot-protocol request)
    starts here, so they all lay tiles by the same rule."""
    return Layout(uses_spinner=has_spinner(rules))
