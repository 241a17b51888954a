"""Files on disk: written whole or not at all, never over someone's file unasked, never
anything but a regular file; and read within a limit.

A record is saved again after every hand of ``bones play`` and sealed with its seed at the
end of a run, so a write that fails half way (a full disk, a file-size limit) must not leave
a truncated file where the last good record was: each file is written beside its place and
then renamed over it.

A rename puts a regular file in the place of whatever was there: a device (``/dev/null``
given as ``--record``), a named pipe, a socket, a symbolic link (and not the file it points
to). So a place that holds anything but a regular file is refused (``NotRegular``), by
``check_place`` before a run starts and by ``write_whole`` again just before the rename
(what is there may have changed meanwhile): bones writes only regular files, ones it makes
or ones it was told to replace.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any


class NotRegular(OSError):
    """The place of a file to be written holds something that is not a regular file (a
    device, a named pipe, a socket, a symbolic link, a folder); it is left as it is."""


class TooLarge(OSError):
    """A file to be read is longer than the limit it is read within."""


def reason(exc: OSError) -> str:
    """Why a file could not be written, in the system's words (``No space left on
    device``), for the one-line refusal that names it."""
    return exc.strerror or type(exc).__name__


def what_is(mode: int) -> str:
    """What a file of ``mode`` (``st_mode``) is, in a few words: ``a named pipe``."""
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"  # pragma: no cover - a door, a whiteout


def check_place(path: Path) -> os.stat_result | None:
    """What is at ``path`` now, not following a symbolic link: ``None`` if nothing, the
    regular file's status if one; ``NotRegular`` for anything else, ``OSError`` if it
    cannot be looked at. (A missing folder on the way is for the write to report.)"""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISREG(found.st_mode):
        return found
    raise NotRegular(errno.EEXIST,
                     f"it is {what_is(found.st_mode)}, and bones writes only regular files",
                     str(path))


def write_whole(path: Path, text: str | bytes) -> None:
    """Write ``text`` (or bytes) to ``path`` whole or not at all: ``OSError`` if it cannot
    be, ``NotRegular`` if something other than a regular file is there, before or just
    before it would be replaced."""
    before = check_place(path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):  # one a crashed run left (never followed)
        temporary.unlink()
    try:
        # Made anew (O_EXCL: not through a link planted there) with the mode a plain write
        # would give, the umask applied; then given the replaced file's own mode, if any.
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        if before is not None:
            os.fchmod(fd, before.st_mode & 0o7777)
        with open(fd, "wb") as file:
            file.write(text.encode("utf-8") if isinstance(text, str) else text)
            file.flush()
            os.fsync(file.fileno())  # on disk before it takes the record's place
        check_place(path)  # again: what is there may have changed while writing
        os.replace(temporary, path)
    except BaseException:  # a failed write, or Ctrl-C in the middle of one
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def read_limited(path: str | Path, limit: int, chunk: int = 1 << 16) -> bytes:
    """The bytes of the file at ``path``, read in chunks, never more than ``limit`` + 1 of
    them: ``TooLarge`` if there are more (``/dev/zero``, a pipe that never ends), so memory
    stays bounded, and Ctrl-C or SIGTERM is answered between chunks. A named pipe that no
    program writes to reads as empty at once, instead of waiting for one."""
    # Opened without waiting (O_NONBLOCK: a named pipe with no writer would block here),
    # then read waiting as usual: a pipe whose writer is still at work is read whole.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        parts: list[bytes] = []
        size = 0
        while size <= limit:
            part = os.read(fd, min(chunk, limit + 1 - size))
            if not part:
                break
            parts.append(part)
            size += len(part)
    finally:
        os.close(fd)
    if size > limit:
        raise TooLarge(errno.EFBIG, f"larger than {limit:,} bytes", str(path))
    return b"".join(parts)


def rewrite(path: Path, change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Rewrite the record at ``path`` (as ``dump`` wrote it) with ``change`` applied, whole
    or not at all: a record given its seed once a run is over is never left half written.
    ``OSError`` if it cannot be (``NotRegular`` if it is no longer a regular file)."""
    found = check_place(path)  # the run's own file, read only while it is a regular one
    if found is None:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
    doc = change(json.loads(read_limited(path, found.st_size)))
    write_whole(path, json.dumps(doc, indent=1) + "\n")


def holds_something(path: Path) -> bool:
    """Whether ``path`` is a regular file with something in it: the record of another
    game, which a typo should not throw away unasked. Anything else (nothing, an empty
    file, one that cannot be looked at, a link, a device) is left for the write to
    report or refuse."""
    try:
        found = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(found.st_mode) and found.st_size > 0


def probe(folder: Path) -> None:
    """Check, before a long run, that files can be made in ``folder`` (made if missing):
    ``OSError`` if not, so the run is refused instead of losing its work at the end."""
    folder.mkdir(parents=True, exist_ok=True)
    trial = folder / f".bones-probe.{os.getpid()}.tmp"
    with contextlib.suppress(FileNotFoundError):  # one a crashed run left (never followed)
        trial.unlink()
    os.close(os.open(trial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    trial.unlink()
