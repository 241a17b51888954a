"""Continue a game from its record (``bones play --resume FILE``).

A record holds everything the table needs: the rules, the names, every deal and move (the
engine replays them, so a record that breaks a rule is refused as ``bones replay`` refuses
it), and, when ``bones play`` wrote it, who sat where (``x-seats``) and the plays it made
for outside bots (``x-played-for``). What it may not hold is the shuffle of the hands still
to come: ``bones play`` writes the seed only once a game is over or left. When the seed is
there and deals the recorded hands, the game goes on with the very deals it would have had;
otherwise the rest is dealt from a fresh seed, and the record no longer names one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bones.engine.errors import BonesError, quoted
from bones.engine.game import Game, deal, new_game, play, start_hand
from bones.record.model import Record
from bones.record.reader import RecordError, read_file

#: Fields of a record that ``bones play`` writes afresh when it saves a resumed game, or
#: leaves out: ``ended`` (the game goes on, so the time it was left is not when it ended).
#: (Fields of single moves, and ``x-`` keys inside the rules, are not kept: the engine's
#: game holds none of them.)
REWRITTEN = ("seed", "ended", "x-seats", "x-played-for", "x-undo")


@dataclass(frozen=True, slots=True)
class Resumed:
    """A game taken up from its record."""

    record: Record
    game: Game
    #: Who sat where (``x-seats``) as the record has it, unchecked: ``--seats`` may stand
    #: in for it, so it is read only when it does not.
    kinds: object
    #: The record's seed and its generator as it stands after dealing the recorded hands,
    #: when that seed dealt them; else ``None`` and ``None``.
    seed: int | None
    deals: random.Random | None
    #: The plays made for outside bots so far (``x-played-for``).
    played_for: list[dict[str, object]]
    #: Times a play was taken back in it (``x-undo``): a practice game stays one.
    undone: int
    #: The record's other optional and ``x-`` fields, kept when it is saved again.
    kept: tuple[tuple[str, Any], ...]


def resume(path: str) -> Resumed:
    """Read the record at ``path`` for play; ``BonesError`` (one line) when it cannot be:
    ``RecordFormatError`` (status 2, naming the file) when it is not a record at all."""
    try:
        record, game = read_file(Path(path))
    except RecordError as exc:
        raise BonesError(f"--resume {path}: {exc}") from None
    if game.finished:
        raise BonesError(f"--resume {path}: that game is over; there is nothing to resume")
    extra = dict(record.extra)
    if extra.get("x-fair") is not None:
        # the seed that deals the hands to come is in the record once the game was left,
        # and lost with the program that kept it secret before: neither goes on fairly
        raise BonesError(f"--resume {path}: that game was dealt fair (x-fair), and a fair "
                         "game cannot go on: its secret seed is revealed or lost; check it "
                         "with bones verify and start a new one")
    seed = extra.get("seed")
    deals = (deals_after(record, seed)
             if isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0 else None)
    return Resumed(
        record=record, game=game, kinds=extra.get("x-seats"),
        seed=seed if deals is not None else None, deals=deals,
        played_for=_played_for(extra.get("x-played-for")),
        undone=_count(extra.get("x-undo")),
        kept=tuple((k, v) for k, v in record.extra if k not in REWRITTEN))


def deals_after(record: Record, seed: int) -> random.Random | None:
    """``Random(seed)`` after dealing every hand of ``record``, as the table deals them, or
    ``None`` if one of its deals is not what the seed deals."""
    rng = random.Random(seed)
    game = new_game(record.rules)
    for hand in record.hands:
        hands, boneyard, leader = deal(game, rng)
        if hands != hand.deal or boneyard != hand.boneyard \
                or (hand.leader is not None and hand.leader != leader):
            return None
        game = start_hand(game, hand.deal, hand.boneyard, hand.leader)
        for move in hand.moves:
            game = play(game, move)
    return rng


def recorded_seats(resumed: Resumed) -> tuple[str, ...] | None:
    """The record's ``x-seats``, if it has them, as ``--seats`` would read them. A seat of
    an outside bot is refused: a record is a file anyone may send, and the program it
    names is not started unless the player names it (``--seats``)."""
    value, players = resumed.kinds, resumed.record.rules.players
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != players \
            or not all(isinstance(kind, str) for kind in value):
        raise BonesError(f"--resume: the record's x-seats is not a list of its {players} "
                         "seats; give --seats")
    for seat, kind in enumerate(value):
        if kind.strip().lower().startswith("cmd:"):
            raise BonesError(f"--resume: the record seats an outside bot at seat {seat} "
                             f"({quoted(kind, 160)}), and a record's program is never "
                             "started; give --seats")
    return tuple(kind.strip().lower() for kind in value)


def _played_for(value: object) -> list[dict[str, object]]:
    if not isinstance(value, list):
        return []
    return [dict(entry) for entry in value if isinstance(entry, dict)]


def _count(value: object) -> int:
    """A whole number of times, 0 for anything else."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0
