"""Hints: the expert's move for a seat and the reason for it, as ``hint`` gives them in the
terminal and at the web table. Built from the seat's view alone, so a hint can tell a
player nothing their seat may not see."""

from __future__ import annotations

from collections.abc import Sequence

from bones.ai.expert import ExpertBot
from bones.ai.explain import explain
from bones.engine.moves import Play
from bones.engine.view import SeatView
from bones.table import seeds

#: Seconds the expert thinks for a hint: long enough to play well, short enough to wait for.
HINT_THINK = 0.3


def hint(view: SeatView, seed: int, names: Sequence[str]) -> tuple[Play, str]:
    """The expert's play for ``view`` and why, in words naming the seats by ``names``. The
    same question (seed, moves so far) gets the same answer."""
    advice = ExpertBot(seeds.hint(seed, len(view.moves)), think=HINT_THINK).choose(view)
    return advice, explain(view, advice, names)
