"""Type stub for the optional C extension ``bones.fast._search`` (see ``_search.c``)."""

from collections.abc import Sequence

#: ``Position.status``: the engine's ``PLAYING``, ``OUT`` and ``BLOCKED``.
PLAYING: int
OUT: int
BLOCKED: int

class Spec:
    def __new__(
        cls,
        top: int,
        sides: Sequence[int],
        side: int,
        draw: bool,
        reserve: int,
        call_block: bool,
        first_double: bool,
        score_kind: int,
        scores: Sequence[int],
        target: int,
        points_weight: float,
        game_weight: float,
        model_opponents: bool,
        betas: Sequence[float],
        node_limit: int,
        doubles: Sequence[float] | None = None,
    ) -> Spec: ...

def evaluate(
    spec: Spec,
    hands: Sequence[int],
    boneyard: Sequence[int],
    drawn: int,
    to_move: int,
    arms: Sequence[int],
    spinner: int,
    waiting: int,
    placed: int,
    opening: int,
    status: int,
    moves: Sequence[int],
    exact: bool,
    seed: int,
    /,
) -> tuple[tuple[float, ...], int, bool]: ...

class Sights:
    def __new__(cls, roots: int) -> Sights: ...
    def __len__(self) -> int: ...
    def totals(self) -> tuple[float, ...]: ...

def evaluate_sights(
    spec: Spec,
    hands: Sequence[int],
    boneyard: Sequence[int],
    drawn: int,
    to_move: int,
    arms: Sequence[int],
    spinner: int,
    waiting: int,
    placed: int,
    opening: int,
    status: int,
    moves: Sequence[int],
    exact: bool,
    seed: int,
    budget: int,
    sights: Sights,
    weight: float,
    depth: int,
    /,
) -> tuple[int, bool]: ...
