"""What ``bones replay`` reports: each hand's result, the scores, the chips."""

from __future__ import annotations

from typing import Any

from bones.engine.game import Game, HandResult


def summary(game: Game) -> dict[str, Any]:
    """The ``bones replay --json`` object of ``docs/records.md``."""
    return {
        "hands": [_hand(r) for r in game.hand_results()],
        "scores": list(game.scores),
        "finished": game.finished,
        "winner": game.winner,
        "chips": list(game.chips),
    }


def _hand(r: HandResult) -> dict[str, Any]:
    return {"end": r.end, "winner": r.winner, "counts": list(r.counts),
            "points": list(r.points), "pool": list(r.pool)}


def side_name(game: Game, side: int, players: tuple[str, ...]) -> str:
    """A side in words: a player's name, or both partners' names."""
    seats = game.rules.seats_of(side)
    return " & ".join(players[s] if s < len(players) else f"seat {s}" for s in seats)


def printable(name: str) -> str:
    """A player's name as it may be printed: a record is anyone's file, and a name holding
    control characters (an escape sequence, a newline) would otherwise recolour or retitle
    the terminal, or forge report lines. Those characters are written escaped (``\x1b``)."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in name)


def distinct(players: tuple[str, ...]) -> tuple[str, ...]:
    """The names, printable, with the seat added to any that more than one seat shares
    (records of bot games name seats by level: ``greedy (seat 0)``, ``greedy (seat 2)``),
    so every line of the report says whose it is."""
    return tuple(f"{printable(name)} (seat {seat})" if players.count(name) > 1
                 else printable(name) for seat, name in enumerate(players))


def _plural(subject: str) -> bool:
    """Whether a subject takes the plural verb: "You" (the name ``bones play`` gives a lone
    person) and partners ("Ana & Caro")."""
    return subject == "You" or " & " in subject


def _agree(subject: str, singular: str, plural: str) -> str:
    """``subject`` and its verb agreeing: "Ana wins", "You win", "Ana & Caro win"."""
    return f"{subject} {plural if _plural(subject) else singular}"


def _named(values: list[str], players: tuple[str, ...]) -> str:
    """One value per seat, each after the seat's name: ``You 0, Greedy 10``."""
    return ", ".join(f"{players[s] if s < len(players) else f'seat {s}'} {v}"
                     for s, v in enumerate(values))


def text(game: Game, players: tuple[str, ...]) -> str:
    """A plain-text report: one line per hand, then the game score."""
    players = distinct(players)
    lines = []
    for number, r in enumerate(game.hand_results(), start=1):
        counts = _named([str(c) for c in r.counts], players)
        if r.end == "unfinished":
            lines.append(f"hand {number}: unfinished; counts so far: {counts}")
            continue
        how = "went out" if r.end == "out" else "blocked"
        if r.winner is None:
            who = "blocked, tied: nobody scores"
        else:
            side = side_name(game, r.winner, players)
            who = (f"{_agree(side, 'wins', 'win')} ({how}) and "
                   f"{'score' if _plural(side) else 'scores'} {max(r.points)}")
        chips = "" if not any(r.pool) else \
            "; chips: " + _named([f"{c:+d}" for c in r.pool], players)
        lines.append(f"hand {number}: {who}; counts: {counts}{chips}")
    scores = ", ".join(f"{side_name(game, s, players)} {v}" for s, v in enumerate(game.scores))
    lines.append(f"scores: {scores}")
    if game.winner is not None:
        lines.append(f"game won by {side_name(game, game.winner, players)}")
    else:
        lines.append(f"game not finished (target {game.rules.target_points})")
    if any(game.chips):
        lines.append("chips: " + _named([f"{c:+d}" for c in game.chips], players))
    return "\n".join(lines)
