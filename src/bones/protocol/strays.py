"""Every process an outside bot started, found and ended when the bot is closed, however it
left the bot's process session.

A bot runs in a session of its own, and ending that session ends the children that stay in
it. A child that calls ``setsid()`` (a daemon, a double fork) leaves the session and, once
its parent exits, is adopted by the system's init: nothing ties it to the bot any more, and
it would outlive the table. So each bot is started with a mark in its environment
(``mark``), a variable no other process has, which every process it starts inherits
whatever session it moves to; ``end_marked`` ends every process that carries the mark and
every descendant of one (a child that cleared its environment but is still below a marked
process), on Linux by reading ``/proc``, without privileges.

They are stopped (``SIGSTOP``) before they are killed, round after round until a look at
``/proc`` finds no new one, so none can fork a child between a look and the kill. Only
processes of this user can be read, and only those can be signalled anyway. A process that
both clears its environment and leaves the tree of marked processes is not found; nor, where
there is no ``/proc`` (macOS, Windows), is anything but the bot's session, which the caller
ends itself.

Finding them by a mark rather than by making this process a child subreaper
(``PR_SET_CHILD_SUBREAPER``, which would have orphans re-parented here) keeps the process
that runs the bots as it was: a subreaper must reap every orphan it adopts, including ones
that have nothing to do with bots, or keep them as zombies, and it cannot tell which bot an
adopted orphan came from when several bots share a table.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
from pathlib import Path

#: What starts the name of every mark.
PREFIX = "BONES_BOT_MARK_"
#: Rounds of looking at ``/proc`` before the processes found are killed (a round finds the
#: children forked since the last, which then cannot fork any more).
ROUNDS = 50
PROC = Path("/proc")

_count = itertools.count(1)


def mark() -> str:
    """A new mark: the name of an environment variable no other process has."""
    return f"{PREFIX}{os.getpid()}_{next(_count)}_{os.urandom(8).hex()}"


def supported() -> bool:
    """Whether marked processes can be found here (a Linux ``/proc``)."""
    return (PROC / "self" / "environ").is_file()


def end_marked(name: str) -> list[int]:
    """Kill every process that carries the environment variable ``name`` and every
    descendant of one, this process and its ancestors excepted; the pids killed."""
    if not supported():
        return []
    spared = _ancestry()
    needle = name.encode() + b"="
    stopped: list[int] = []
    for _ in range(ROUNDS):
        parents = _parents()
        done = spared | set(stopped)
        found = [pid for pid in parents if pid not in done and _carries(pid, needle)]
        found += [pid for pid in _descendants(parents, [*stopped, *found])
                  if pid not in done and pid not in found]
        if not found:
            break
        for pid in found:
            with contextlib.suppress(OSError):  # gone already, or not ours
                os.kill(pid, signal.SIGSTOP)
        stopped += found
    for pid in stopped:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return stopped


def _parents() -> dict[int, int]:
    """Each running process's parent, from ``/proc/PID/stat`` (zombies left out: they are
    ended already)."""
    found: dict[int, int] = {}
    for entry in os.scandir(PROC):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"{PROC}/{entry.name}/stat", "rb") as file:
                stat = file.read()
        except OSError:
            continue
        fields = stat.rpartition(b")")[2].split()  # the name, in brackets, may hold anything
        if len(fields) > 1 and fields[0] != b"Z":
            found[int(entry.name)] = int(fields[1])
    return found


def _carries(pid: int, needle: bytes) -> bool:
    """Whether process ``pid`` was started with the variable ``needle`` names."""
    try:
        with open(f"{PROC}/{pid}/environ", "rb") as file:
            environ = file.read()
    except OSError:  # another user's, or gone
        return False
    return environ.startswith(needle) or b"\0" + needle in environ


def _descendants(parents: dict[int, int], roots: list[int]) -> list[int]:
    """Every process below ``roots`` in ``parents``."""
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    found: list[int] = []
    todo = list(roots)
    seen = set(roots)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in seen:
                seen.add(child)
                found.append(child)
                todo.append(child)
    return found


def _ancestry() -> set[int]:
    """This process and every ancestor of it: never ended here, whatever they carry (a
    ``bones`` run started by a bot carries that bot's mark)."""
    parents = _parents()
    found = {0, os.getpid()}
    pid = os.getppid()
    while pid not in found:
        found.add(pid)
        pid = parents.get(pid, 0)
    return found


__all__ = ["end_marked", "mark", "supported"]
