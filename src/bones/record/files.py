"""Record files on disk: written whole or not at all, and never over someone's file unasked.

A record is saved again after every hand of ``bones play`` and sealed with its seed at the
end of a run, so a write that fails half way (a full disk, a file-size limit) must not leave
a truncated file where the last good record was: each file is written beside its place and
then renamed over it.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any


def reason(exc: OSError) -> str:
    """Why a file could not be written, in the system's words (``No space left on
    device``), for the one-line refusal that names it."""
    return exc.strerror or type(exc).__name__


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (``OSError`` if it cannot be)."""
    if path.is_symlink():  # the file it points to is the record, not the link
        path = Path(os.path.realpath(path))
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):  # one a crashed run left (never followed)
        temporary.unlink()
    try:
        # Made anew (O_EXCL: not through a link planted there) with the mode a plain write
        # would give, the umask applied; then given the replaced file's own mode, if any.
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        if path.exists():
            os.fchmod(fd, path.stat().st_mode & 0o7777)
        with open(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())  # on disk before it takes the record's place
        os.replace(temporary, path)
    except BaseException:  # a failed write, or Ctrl-C in the middle of one
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def rewrite(path: Path, change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Rewrite the record at ``path`` (as ``dump`` wrote it) with ``change`` applied, whole
    or not at all: a record given its seed once a run is over is never left half written.
    ``OSError`` if it cannot be."""
    doc = change(json.loads(path.read_text(encoding="utf-8")))
    write_whole(path, json.dumps(doc, indent=1) + "\n")


def holds_something(path: Path) -> bool:
    """Whether ``path`` is a file with something in it: the record of another game, which a
    typo should not throw away unasked. One that cannot be looked at is left for the write
    to report."""
    try:
        return path.is_file() and path.stat().st_size > 0
    except OSError:
        return False


def probe(folder: Path) -> None:
    """Check, before a long run, that files can be made in ``folder`` (made if missing):
    ``OSError`` if not, so the run is refused instead of losing its work at the end."""
    folder.mkdir(parents=True, exist_ok=True)
    trial = folder / ".bones-probe.tmp"
    trial.write_text("", encoding="utf-8")
    trial.unlink()
