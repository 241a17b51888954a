"""Who sits at each seat: a person at the keyboard or a bot level, and the names shown.

``--names Ana,Ben`` is read here, so every mistake in it becomes one ``BonesError`` line
naming the flag; ``--seats``, which may name outside programs, is read by the command line
(``bones.cli.seats``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bones.engine.errors import BonesError
from bones.engine.rules import Rules

HUMAN = "human"
#: Longest name accepted, so that score and tile lines of four seats still fit 80 columns.
MAX_NAME = 16
#: The bot that fills seats nobody asked for: it plays sensibly and instantly.
DEFAULT_BOT = "greedy"


@dataclass(frozen=True, slots=True)
class Seating:
    """Each seat's kind (``"human"`` or a bot level) and display name, in seat order."""

    kinds: tuple[str, ...]
    names: tuple[str, ...]

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats played from the keyboard."""
        return tuple(s for s, kind in enumerate(self.kinds) if kind == HUMAN)

    def is_human(self, seat: int) -> bool:
        return self.kinds[seat] == HUMAN

    def side_name(self, rules: Rules, side: int) -> str:
        """A side in words: a name, or both partners' names joined by ``&``."""
        return " & ".join(self.names[s] for s in rules.seats_of(side))


def default_kinds(players: int) -> tuple[str, ...]:
    """One person at seat 0, the default bot everywhere else."""
    return (HUMAN,) + (DEFAULT_BOT,) * (players - 1)


def default_names(kinds: Sequence[str]) -> tuple[str, ...]:
    """"You" for a lone person, else "Player N"; bots by level, numbered by seat (from 1)
    when the level occurs twice, so nobody on the screen shares a name."""
    humans = sum(kind == HUMAN for kind in kinds)
    names = []
    for seat, kind in enumerate(kinds):
        if kind == HUMAN:
            names.append("You" if humans == 1 else f"Player {seat + 1}")
        elif kind.startswith("cmd:"):
            names.append(f"Bot {seat + 1}")
        elif list(kinds).count(kind) > 1:
            names.append(f"{kind.capitalize()} {seat + 1}")
        else:
            names.append(kind.capitalize())
    return tuple(names)


def seating(players: int, kinds: Sequence[str] | None = None,
            names: str | None = None, recorded: Sequence[str] | None = None) -> Seating:
    """The seating for ``players`` seats from the flags (either may be left out); a resumed
    game's ``recorded`` names stand where ``--names`` gives none."""
    chosen = tuple(kinds) if kinds is not None else default_kinds(players)
    if len(chosen) != players:
        listed = f"{len(chosen)} seat" + ("" if len(chosen) == 1 else "s")
        raise BonesError(f"--seats lists {listed}, but the rules have {players} players")
    shown = list(default_names(chosen))
    given = [n.strip() for n in names.split(",")] if names is not None else []
    if len(given) > players:
        raise BonesError(f"--names lists {len(given)} names for {players} seats")
    named = {seat for seat, name in enumerate(given) if name}
    standing = {seat: name for seat, name in enumerate(recorded or ())
                if name and seat not in named}  # --names stands before the record
    for seat, name in standing.items():
        shown[seat] = _shown(name, "--resume: the record's name", "; give --names")
        if list(standing.values()).count(name) > 1:  # a level named twice, as simulate does
            number = f" {seat + 1}"
            shown[seat] = name[:MAX_NAME - len(number)] + number
    for seat in named:
        shown[seat] = _shown(given[seat], "--names:")
    for seat, name in enumerate(shown):
        first = shown.index(name)
        if first != seat:
            if {first, seat} & named:
                raise BonesError(f'--names: "{name}" would name two seats')
            raise BonesError(f'--resume: the record\'s names "{name}" would name two seats; '
                             "give --names")
    return Seating(chosen, tuple(shown))


def _shown(name: str, origin: str, remedy: str = "") -> str:
    """``name`` if a screen can show it whole, else a ``BonesError``."""
    if len(name) > MAX_NAME:
        raise BonesError(f'{origin} "{name[:MAX_NAME]}..." is longer than {MAX_NAME} '
                         f"characters{remedy}")
    if not name.isprintable() or not name.strip():
        raise BonesError(f"{origin} {name!r} holds characters that cannot be shown{remedy}")
    return name
