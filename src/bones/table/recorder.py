"""Writing a table's record as the game goes on, with its seed held back.

A record saved during play is a file the players (and any outside bot, which runs with the
user's permissions) can read, and the seed deals every hand still to come: a record names
its seed only once no hand is left to deal with it. That rule lives here, once, for the
single game of ``bones play`` (``Recorder``) and the series of ``bones simulate``
(``SeriesRecorder``).
"""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path
from typing import Any

from bones.engine.errors import BonesError
from bones.engine.game import Game
from bones.record.files import (
    check_place,
    holds_something,
    probe,
    reason,
    rewrite,
    write_whole,
)
from bones.record.folder import refuse_used
from bones.record.model import Record
from bones.record.writer import dump, record_of
from bones.table.fair import FIELD, FairSeeds, fair_json
from bones.table.resume import Resumed
from bones.table.seats import Seating
from bones.table.seeds import game_seed
from bones.table.table import Table


def seed_shown(final: bool, shown_before: bool = False) -> bool:
    """Whether a record saved now may name the seed: once the game (or run) is over, or
    when a record it was taken up from named it already (hiding it again would hide
    nothing)."""
    return final or shown_before


class NotSaved(BonesError):
    """A record could not be written (the file keeps its last good record, if any)."""


class Recorder:
    """Writes the record of one game so far to a path. A resumed record keeps its own other
    fields (a comment, when it started) and each of its hands'."""

    def __init__(self, seats: Seating, seed: int | None, resumed: Resumed | None = None,
                 fair: FairSeeds | None = None) -> None:
        self.seats = seats
        #: The seeds of a game dealt fair: the record carries ``x-fair``, with the server
        #: seed only in a final record (the game over or left).
        self.fair = fair
        #: The seed that deals the whole game, if one does (a game resumed without its
        #: seed had its first hands dealt by another).
        self.seed = seed
        self.seed_shown = resumed is not None and resumed.seed is not None
        #: The table whose plays made for outside bots and plays taken back the record
        #: carries (``follow``); before it, the resumed record's.
        self._table: Table | None = None
        self._played_for = resumed.played_for if resumed is not None else []
        self._undone = resumed.undone if resumed is not None else 0
        self.kept = resumed.kept if resumed is not None else ()
        self.hands_kept = tuple(hand.extra for hand in resumed.record.hands) \
            if resumed is not None else ()
        #: The resumed record's seed, when it is not one that deals its hands here.
        self.old_seed = dict(resumed.record.extra).get("seed") \
            if resumed is not None and resumed.seed is None else None

    def follow(self, table: Table) -> None:
        """Take the plays made for outside bots and the plays taken back from ``table``."""
        self._table = table

    def record(self, game: Game, final: bool) -> Record:
        extra: tuple[tuple[str, object], ...] = (*self.kept,
                                                 ("x-seats", list(self.seats.kinds)))
        table = self._table
        played_for = table.played_for if table is not None else self._played_for
        undone = table.undone if table is not None else self._undone
        if played_for:  # which plays an outside bot did not make, and why
            extra = (*extra, ("x-played-for", list(played_for)))
        if undone:  # practice: plays were taken back and made again
            extra = (*extra, ("x-undo", undone))
        if self.fair is not None:  # the seed deals every hand to come: shown at the end only
            extra = (*extra, (FIELD, fair_json(self.fair, revealed=final)))
        if seed_shown(final, self.seed_shown) and self.seed is not None:
            extra = (("seed", self.seed), *extra)
        elif self.old_seed is not None and len(game.hands) <= len(self.hands_kept):
            # a seed this table cannot use (another program's), true until a hand is dealt
            extra = (("seed", self.old_seed), *extra)
        record = record_of(game, self.seats.names, extra)
        hands = tuple(replace(hand, extra=kept) for hand, kept
                      in zip(record.hands, self.hands_kept, strict=False)) \
            + record.hands[len(self.hands_kept):]
        return replace(record, hands=hands)

    def text(self, game: Game, final: bool) -> str:
        return dump(self.record(game, final))

    def save(self, game: Game, path: str, final: bool = True) -> None:
        try:
            write_whole(Path(path), self.text(game, final))
        except OSError as exc:
            raise NotSaved(f"cannot write the record to {path}: {reason(exc)}") from None


class SeriesRecorder:
    """Writes each game's record of a series as it arrives: to ``path`` itself when it
    names a ``.json`` file (a run of one game), else to ``game-0001.json``, ... in the
    folder ``path``. Records are written without their seed (``game_seed``), and ``close``,
    once no game is left to play, adds it to each."""

    def __init__(self, path: Path, seed: int) -> None:
        self.path = path
        self.seed = seed
        self.count = 0
        #: Each file written so far, and the index of its game in the series.
        self.written: list[tuple[Path, int]] = []
        # Refused before anything is played: a folder that already holds a series' games
        # (a shorter second run would leave the first one's later games behind as its own),
        # a file that holds something (it would be replaced without a word), and a place
        # where no file can be made (the run's work would be lost at its end).
        folder = path.parent if path.suffix == ".json" else path
        if path.suffix != ".json":
            refuse_used(path, ("game-*.json",), " (name a .json file to save a single game)")
        elif path.is_dir() and not path.is_symlink():
            raise BonesError(f"cannot write the record to {path}: it is a folder (name a "
                             "folder without .json for the records of several games)")
        elif holds_something(path):
            raise BonesError(f"cannot write the record to {path}: it already holds "
                             "something; choose a new file or remove it")
        else:
            try:
                check_place(path)  # a device, a pipe, a link: refused, never replaced
            except OSError as exc:
                raise BonesError(f"cannot write the record to {path}: {reason(exc)}") \
                    from None
        try:
            probe(folder)
        except OSError as exc:
            raise BonesError(f"cannot write the records to {folder}: {reason(exc)}") \
                from None

    def add(self, record: Record, index: int) -> None:
        """Write the record of game ``index`` of the series."""
        self.count += 1
        single = self.path.suffix == ".json"
        path = self.path if single else self.path / f"game-{self.count:04d}.json"
        try:
            write_whole(path, dump(record))
        except OSError as exc:
            raise BonesError(f"cannot write record {path}: {reason(exc)}") from None
        self.written.append((path, index))

    def close(self) -> None:
        """Add each record's seed, the series being over (``seed_shown(final=True)``)."""
        for path, index in self.written:
            try:
                rewrite(path, functools.partial(_with_seed, seed=game_seed(self.seed, index)))
            except OSError as exc:
                raise BonesError(f"cannot write record {path}: {reason(exc)}") from None
        self.written.clear()


def _with_seed(doc: dict[str, Any], seed: str) -> dict[str, Any]:
    """A record with its ``seed`` where ``record_of`` puts it: after the hands, before the
    ``x-`` fields, so the file reads as if written with it."""
    items = list(doc.items())
    items.insert(list(doc).index("hands") + 1, ("seed", seed))
    return dict(items)
