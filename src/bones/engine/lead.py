"""Who sets the first tile of a hand, and which tile, from ``lead``, ``next_lead``,
``opening`` and ``no_double``: one small function per option value.

``decide`` returns a ``LeadChoice`` (a seat, or ``None`` when lots decide and the seat comes from
outside), or ``None`` when the rules say to shuffle and deal again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bones.engine.rules import Rules
from bones.engine.tiles import Tile, heaviest, highest_double


@dataclass(frozen=True, slots=True)
class LeadChoice:
    """The leader (``None``: by lots, given from outside) and the tile they must set, if any."""

    seat: int | None
    opening: Tile | None = None


@dataclass(frozen=True, slots=True)
class Previous:
    """What later hands' leads depend on: the last hand's leader and its winning seat."""

    leader: int
    winner_seat: int | None


def holder(deal: Sequence[Sequence[Tile]], t: Tile) -> int | None:
    """The seat dealt ``t``, or ``None`` if it was not dealt."""
    for seat, hand in enumerate(deal):
        if t in hand:
            return seat
    return None


def _heaviest_sets(deal: Sequence[Sequence[Tile]]) -> LeadChoice:
    t = heaviest(x for hand in deal for x in hand)
    return LeadChoice(holder(deal, t), t)


def _no_double(rules: Rules, deal: Sequence[Sequence[Tile]], forced: bool) -> LeadChoice | None:
    """A needed double was not dealt: redeal, or the heaviest tile's holder leads (and sets
    that tile when ``opening`` named a tile; under ``opening: "any"`` any tile may be set)."""
    if rules.no_double == "redeal":
        return None
    lead = _heaviest_sets(deal)
    return lead if forced else LeadChoice(lead.seat)


def _opening_highest_double(rules: Rules, deal: Sequence[Sequence[Tile]]) -> LeadChoice | None:
    t = highest_double(x for hand in deal for x in hand)
    if t is None:
        return _no_double(rules, deal, forced=True)
    return LeadChoice(holder(deal, t), t)


def _opening_top_double(rules: Rules, deal: Sequence[Sequence[Tile]]) -> LeadChoice | None:
    t = Tile(rules.set, rules.set)
    seat = holder(deal, t)
    if seat is None:
        return _no_double(rules, deal, forced=True)
    return LeadChoice(seat, t)


_OPENINGS: dict[str, Callable[[Rules, Sequence[Sequence[Tile]]], LeadChoice | None]] = {
    "highest-double": _opening_highest_double,
    "top-double": _opening_top_double,
}


def _lead_lots(rules: Rules, deal: Sequence[Sequence[Tile]]) -> LeadChoice | None:
    return LeadChoice(None)


def _lead_highest_double(rules: Rules, deal: Sequence[Sequence[Tile]]) -> LeadChoice | None:
    t = highest_double(x for hand in deal for x in hand)
    if t is None:
        return _no_double(rules, deal, forced=False)
    return LeadChoice(holder(deal, t))


def _lead_heaviest(rules: Rules, deal: Sequence[Sequence[Tile]]) -> LeadChoice | None:
    return LeadChoice(_heaviest_sets(deal).seat)


_LEADS: dict[str, Callable[[Rules, Sequence[Sequence[Tile]]], LeadChoice | None]] = {
    "lots": _lead_lots,
    "highest-double": _lead_highest_double,
    "heaviest": _lead_heaviest,
}


def opening_named(rules: Rules) -> bool:
    """Whether the rules name the tile that opens every hand (``opening`` other than
    ``"any"``), so that laying it shows no choice of the leader's: what a bot reading the
    others' plays must leave out."""
    return rules.opening in _OPENINGS


def decide(rules: Rules, deal: Sequence[Sequence[Tile]],
           previous: Previous | None) -> LeadChoice | None:
    """The lead of a hand dealt ``deal``; ``previous`` is ``None`` for a game's first hand."""
    if opening_named(rules):
        return _OPENINGS[rules.opening](rules, deal)
    if previous is None or rules.next_lead == "same":
        return _LEADS[rules.lead](rules, deal)
    left = (previous.leader + 1) % rules.players
    if rules.next_lead == "winner" and previous.winner_seat is not None:
        return LeadChoice(previous.winner_seat)
    return LeadChoice(left)
