"""A folder of records written by a long run (``bones arena --record DIR``): one record file
per hand, named by deal and rotation, and the run's summary beside them.

Each file is a whole ``bones-record/1`` game of one hand, so ``bones replay`` reads any of
them as it is, and two runs of the same seed can be compared deal by deal
(``benchmarks/paired.py``).

The run's seed deals every one of its deals, and an outside bot in the match runs with the
user's permissions: it could read the folder while the match goes on and deal itself the
hands to come. So the files hold no seed until the run is over; ``finish`` then adds it to
each one (``x-arena.seed``), and a run stopped by a crash leaves files without it.

A folder that already holds a run's files is refused rather than mixed with a new run's: a
shorter second run would otherwise leave the first one's later deals behind, looking like
its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bones.engine.errors import BonesError
from bones.record.files import probe, reason, rewrite, what_is, write_whole
from bones.record.model import Record
from bones.record.writer import dump

#: The run's summary (what ``--json`` prints), written when the run ends.
SUMMARY = "arena.json"
#: Every hand's file: ``deal-0042-1.json`` is deal 42 played in the lineup's second rotation.
PATTERN = "deal-*.json"


def _fault(path: Path, exc: OSError) -> BonesError:
    """The one-line error for a folder the records cannot be written to."""
    return BonesError(f"cannot write the records to {path}: {reason(exc)}")


def refuse_used(path: Path, patterns: tuple[str, ...], hint: str = "") -> None:
    """Refuse, before a run writes anything, a ``path`` that is a file (``hint`` says what
    to do instead) or a folder already holding a file that one of ``patterns`` matches
    (another run's)."""
    try:
        if path.exists() and not path.is_dir():  # a link to a folder is that folder
            raise BonesError(f"cannot write the records to {path}: it is "
                             f"{what_is(path.stat().st_mode)}, not a folder{hint}")
        taken = next((found for pattern in patterns for found in path.glob(pattern)), None)
    except OSError as exc:
        raise _fault(path, exc) from None
    if taken is not None:
        raise BonesError(f"cannot write the records to {path}: it already holds "
                         f"{taken.name} from another run; choose a new or empty folder")


class RecordFolder:
    """Writes the records of one run into ``path`` (made if missing; refused if it is not a
    folder or already holds a run's files)."""

    def __init__(self, path: str | Path, deals: int) -> None:
        self.path = Path(path)
        #: Deal numbers are zero-padded to one width, so the files sort in deal order.
        self.width = max(4, len(str(max(0, deals - 1))))
        #: The files written so far, for ``finish`` to add the seed to.
        self.written: list[str] = []
        refuse_used(self.path, (PATTERN, SUMMARY))
        try:
            probe(self.path)
        except OSError as exc:
            raise _fault(self.path, exc) from None

    def name(self, deal: int, rotation: int) -> str:
        """The file name of one hand."""
        return f"deal-{deal:0{self.width}d}-{rotation}.json"

    def add(self, deal: int, records: tuple[Record, ...]) -> None:
        """Write one deal's hands, one record per rotation."""
        for rotation, record in enumerate(records):
            name = self.name(deal, rotation)
            self._write(name, dump(record))
            self.written.append(name)

    def seal(self, seed: int) -> None:
        """Now that no hand is left to play, add the run's seed to every record written
        (first in ``x-arena``)."""
        for name in self.written:
            try:
                rewrite(self.path / name,
                        lambda doc: {**doc, "x-arena": {"seed": seed, **doc["x-arena"]}})
            except OSError as exc:
                raise _fault(self.path / name, exc) from None
        self.written.clear()

    def finish(self, summary: dict[str, Any]) -> None:
        """Seal the records (``seal``, if not done yet), then write the run's summary."""
        self.seal(summary["seed"])
        self._write(SUMMARY, json.dumps(summary, indent=1) + "\n")

    def _write(self, name: str, text: str) -> None:
        try:
            write_whole(self.path / name, text)
        except OSError as exc:  # the file named: one planted there may be what is refused
            raise _fault(self.path / name, exc) from None
