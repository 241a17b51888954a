"""The three moves of a hand, as small hashable values: play, draw, pass."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bones.engine.tiles import Tile

Arm = Literal["left", "right", "up", "down"]
ARMS: tuple[Arm, ...] = ("left", "right", "up", "down")


@dataclass(frozen=True, slots=True)
class Play:
    """Lay ``tile`` on arm ``end``; ``end`` is ``None`` only for the first tile of a hand."""

    seat: int
    tile: Tile
    end: Arm | None = None

    def __str__(self) -> str:
        where = f" on the {self.end}" if self.end else ""
        return f"seat {self.seat} plays {self.tile}{where}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the next boneyard tile; ``tile`` is ``None`` where the viewer may not see it."""

    seat: int
    tile: Tile | None = None

    def __str__(self) -> str:
        return f"seat {self.seat} draws" + (f" {self.tile}" if self.tile else "")


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass the turn: allowed only when nothing can be played or drawn."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} passes"


Move = Play | Draw | Pass
