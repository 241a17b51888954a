"""Type stub for the optional C extension ``bones.fast._playout`` (see ``_playout.c``)."""

from bones.fast.results import RawHand

#: How a hand ended in a raw trace: the engine's ``OUT`` and ``BLOCKED``.
OUT: int
BLOCKED: int

def run(
    params: tuple[int, ...],
    state: tuple[int, ...],
    count: int,
    by_hands: bool,
    trace: bool,
    /,
) -> tuple[tuple[int, ...], tuple[int, ...], list[RawHand] | None]: ...
