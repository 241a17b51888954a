"""``basic``: how a sensible club player chooses, as a weighted sum of table heuristics.

- play from your longest suit: prefer leaving open a number you still hold many of;
- shed heavy tiles and doubles early (they are hard to place and expensive to be caught with);
- keep open the numbers an opponent has shown it lacks (it must pass or draw on them);
- in a partnership, do not cover the number your partner just left open.
"""

from __future__ import annotations

import random
from collections import Counter

from bones.ai.beliefs import Beliefs, infer
from bones.engine.moves import Play
from bones.engine.view import SeatView

#: Weights of the heuristics, in pips (a double counts as this many extra pips).
SUIT = 3.0
DOUBLE = 4.0
OPPONENT_VOID = 5.0
PARTNER_NUMBER = 6.0


class BasicBot:
    """Scores each legal play by the heuristics above; ties are broken at random."""

    name = "basic"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Play:
        beliefs = infer(view)
        scored = [(self._score(view, beliefs, p), p) for p in view.legal]
        best = max(score for score, _ in scored)
        return self.rng.choice([p for score, p in scored if score >= best - 1e-9])

    def _score(self, view: SeatView, beliefs: Beliefs, play: Play) -> float:
        rest = [t for t in view.hand if t != play.tile]
        suits = Counter(n for t in rest for n in {t.high, t.low})
        score = float(play.tile.pips) + (DOUBLE if play.tile.is_double else 0.0)
        if view.layout.is_empty:
            opened = [play.tile.high, play.tile.low]
            covered: int | None = None
        else:
            assert play.end is not None
            covered = view.layout.shows(play.end)
            assert covered is not None
            opened = [play.tile.other(covered)]
        for number in opened:
            score += SUIT * suits[number]
            score += OPPONENT_VOID * sum(
                1 for seat in range(view.rules.players)
                if view.rules.side_of(seat) != view.rules.side_of(view.seat)
                and number in beliefs.voids[seat]
            )
        if view.rules.partnerships and covered is not None:
            partner = (view.seat + 2) % 4
            if beliefs.last_exposed[partner] == covered and \
                    covered not in beliefs.voids[partner]:
                score -= PARTNER_NUMBER
        return score
