"""A folder of records written by a long run (``bones arena --record DIR``): one record file
per hand, named by deal and rotation, and the run's summary beside them.

Each file is a whole ``bones-record/1`` game of one hand, so ``bones replay`` reads any of
them as it is, and two runs of the same seed can be compared deal by deal
(``benchmarks/paired.py``). A folder that already holds a run's files is refused rather than
mixed with a new run's: a shorter second run would otherwise leave the first one's later
deals behind, looking like its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bones.engine.errors import BonesError
from bones.record.model import Record
from bones.record.writer import dump

#: The run's summary (what ``--json`` prints), written when the run ends.
SUMMARY = "arena.json"
#: Every hand's file: ``deal-0042-1.json`` is deal 42 played in the lineup's second rotation.
PATTERN = "deal-*.json"


class RecordFolder:
    """Writes the records of one run into ``path`` (made if missing; refused if it is not a
    folder or already holds a run's files)."""

    def __init__(self, path: str | Path, deals: int) -> None:
        self.path = Path(path)
        #: Deal numbers are zero-padded to one width, so the files sort in deal order.
        self.width = max(4, len(str(max(0, deals - 1))))
        if self.path.exists() and not self.path.is_dir():
            raise BonesError(f"cannot write the records to {self.path}: it is a file, not a "
                             "folder")
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            taken = next(iter(self.path.glob(PATTERN)), None) or (
                self.path / SUMMARY if (self.path / SUMMARY).exists() else None)
        except OSError as exc:
            raise self._fault(exc) from None
        if taken is not None:
            raise BonesError(f"cannot write the records to {self.path}: it already holds "
                             f"{taken.name} from another run; choose a new or empty folder")

    def name(self, deal: int, rotation: int) -> str:
        """The file name of one hand."""
        return f"deal-{deal:0{self.width}d}-{rotation}.json"

    def add(self, deal: int, records: tuple[Record, ...]) -> None:
        """Write one deal's hands, one record per rotation."""
        for rotation, record in enumerate(records):
            self._write(self.name(deal, rotation), dump(record))

    def finish(self, summary: dict[str, Any]) -> None:
        """Write the run's summary."""
        self._write(SUMMARY, json.dumps(summary, indent=1) + "\n")

    def _write(self, name: str, text: str) -> None:
        try:
            (self.path / name).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise self._fault(exc) from None

    def _fault(self, exc: OSError) -> BonesError:
        return BonesError(f"cannot write the records to {self.path}: "
                          f"{exc.strerror or type(exc).__name__}")
