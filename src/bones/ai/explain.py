"""Why the expert's hint is a good play, in a few words (``explain``), for the ``hint``
command of ``bones play``.

The search itself gives only averages over sampled deals, which no player can check, so the
reason shown is read off the play and the view instead: what it sheds and what it leaves
open. It lives apart from the bot because it is a piece of the table's screen, not of the
search: the bot never calls it, and it can change wording without touching play.
"""

from __future__ import annotations

from collections.abc import Sequence

from bones.ai.beliefs import infer
from bones.engine.moves import Play
from bones.engine.view import SeatView


def explain(view: SeatView, play: Play, names: Sequence[str] = ()) -> str:
    """A short reason for a play, for ``hint``: what it keeps and what it sheds. ``names``
    are the seats as the screen calls them (else ``seat N``)."""
    beliefs = infer(view)
    rest = [t for t in view.hand if t != play.tile]
    reasons = []
    if play.tile.is_double:
        reasons.append("gets a double out of the hand")
    if play.tile.pips >= 9:
        reasons.append(f"sheds {play.tile.pips} pips")
    if play.end is not None and not view.layout.is_empty:
        covered = view.layout.shows(play.end)
        assert covered is not None
        opened = play.tile.other(covered)
        held = sum(1 for t in rest if t.matches(opened))
        if held:
            reasons.append(f"leaves {opened} open, which you hold {held} more of")
        lacking = [s for s in range(view.rules.players)
                   if view.rules.side_of(s) != view.rules.side_of(view.seat)
                   and opened in beliefs.voids[s]]
        if lacking:
            who = " and ".join(names[s] if s < len(names) else f"seat {s}" for s in lacking)
            reasons.append(f"leaves open a number {who} {'have' if len(lacking) > 1 else 'has'} "
                           "shown to lack")
    return "; ".join(reasons) if reasons else "the best result over the deals it sampled"
