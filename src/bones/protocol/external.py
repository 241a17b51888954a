"""A bot in another process that speaks ``bones-bot/1`` (``--bots cmd:PROGRAM``).

The referee side of ``docs/bot-protocol.md``: it sends the seat's view as a move request and
waits at most twice the think time plus one second. A late, malformed or illegal reply (or a
dead process) is not retried: it is logged and a fallback bot plays for the seat, so an
outside bot can never stall or crash the table.

Nothing the program does may hold the table up or eat its memory, so every channel is
bounded:

- requests are written without blocking, within the reply's deadline: a program that stops
  reading its input is given up for the rest of its life, not waited on for ever;
- its output is read as bytes by a thread, in lines of at most ``MAX_LINE`` bytes (a longer
  one is that reply's fault as soon as it passes the limit, and the rest of it is dropped
  as it streams in; one still going past ``GIVE_UP_LINE`` gives the bot up), with at most
  ``MAX_WAITING`` lines held unread, and each line is decoded and parsed on its own (bad
  UTF-8, deep nesting or a huge number is that reply's fault, nothing more);
- replies to earlier requests are skipped, with the deadline checked on every line;
- a program that does not answer ``hello`` in ``HELLO_TIMEOUT`` is given up at once, and
  not started again in this process (``_SILENT``): its seat is played for without a wait
  at each table it is seated at;
- the program runs in a session of its own and with a mark in its environment
  (``strays``); giving it up or closing it ends the session and every process that carries
  the mark, so children it forked, even ones that left the session, do not outlive it.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import select
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from bones.ai.simple import RandomBot
from bones.engine.moves import Play
from bones.engine.rules import is_int
from bones.engine.tiles import parse_tile
from bones.engine.view import SeatView
from bones.protocol import strays
from bones.protocol.codec import PROTOCOL, request_of
from bones.protocol.quoting import in_json_terms, quoted
from bones.record.reader import strict_json

#: The longest output line read as a reply; a move reply is well under 100 bytes.
MAX_LINE = 1 << 16
#: An output line still without its end past this many bytes gives the bot up: it is not
#: a reply too long, it is a program writing without end (which is read and dropped as it
#: comes, in bounded memory, but costs the reading thread its time for nothing).
GIVE_UP_LINE = 1 << 20
#: Output lines held unread; past this the reading thread waits (and so, in time, does the
#: program writing them).
MAX_WAITING = 256
#: Seconds between looks at the run's stop flag (``cancelled``) while waiting for a reply.
SLICE = 0.25
#: The characters of a bot's last line on standard error told when it is given up.
LAST_WORDS = 200
#: Seconds to wait for the reply to ``hello``.
HELLO_TIMEOUT = 5.0
#: Seconds a program gets to exit after ``quit`` before its session is killed.
QUIT_TIMEOUT = 2.0
POSIX = os.name == "posix"

#: The commands that did not answer ``hello`` in time in this process, each with the reason
#: told: another table of the same run seats such a bot without starting it again (a
#: program that does not answer now would cost every table the same wait for nothing).
_SILENT: dict[str, str] = {}


class _Late:
    """What ``_ask`` returns when no reply came by the deadline (``LATE``)."""


LATE = _Late()


def cannot_start(command: str) -> str | None:
    """Why ``command`` cannot be started as a bot, or ``None`` when it names a program that
    exists and may be run (found on ``PATH`` when it has no ``/``, as ``subprocess`` looks
    it up). Checked before a table is set, so a mistyped ``cmd:`` is one line up front
    rather than a whole run of moves played for a bot that never started."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        return f"it cannot be split into words ({exc})"
    if not argv:
        return "it names no program"
    program = argv[0]
    if os.sep not in program and (os.altsep is None or os.altsep not in program):
        found = shutil.which(program)
        if found is None:
            return f"no program {program!r} on PATH"
        program = found  # checked as a path below: a script there may not run either
    if not os.path.isfile(program):
        return f"no file {program!r}"
    if not os.access(program, os.X_OK):
        return f"{program!r} is not executable"
    return _script_fault(program) if POSIX else None


def _script_fault(program: str) -> str | None:
    """Why the system cannot run the script ``program``: text with no ``#!`` line
    ("Exec format error", where a shell would have run it itself), or a ``#!`` line naming
    an interpreter that is not there (which ``subprocess`` reports as the script itself
    missing). A compiled program (bytes that are not text) is left to the system."""
    try:
        with open(program, "rb") as file:
            head = file.read(512)
    except OSError:
        return None
    if head.startswith(b"#!"):
        first = head[2:].split(b"\n", 1)[0]
        if first.endswith(b"\r"):  # the system looks for "python3\r", and finds nothing
            return (f"{program!r} has Windows line endings (CRLF) on its #! line; convert "
                    "it to LF")
        words = first.decode("utf-8", "replace").split()
        if not words or not os.path.isfile(words[0]) or not os.access(words[0], os.X_OK):
            named = words[0] if words else "nothing"
            return f"{program!r} names {named} on its #! line, which is not a program here"
        if os.path.basename(words[0]) == "env" and len(words) > 1 \
                and not words[1].startswith("-") and shutil.which(words[1]) is None:
            return f"{program!r} asks env for {words[1]} on its #! line, which is not on PATH"
        return None
    if b"\0" in head:
        return None
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 3:  # more than a character cut at the end: not text
            return None
    return (f"{program!r} is a text file with no #! line naming what runs it (add one, "
            f"such as #!/usr/bin/env python3, or write cmd:python3 {program})")


class _Line:
    """One output line, or why it is not one (too long, not UTF-8); ``fatal`` when the
    program is to be given up for it (a line without end)."""

    __slots__ = ("fatal", "fault", "text")

    def __init__(self, text: str | None, fault: str | None = None, fatal: bool = False) -> None:
        self.text = text
        self.fault = fault
        self.fatal = fatal


class ExternalBot:
    """Drives a bot process over JSON lines; falls back to a random legal play on any fault.

    ``cancelled``, when given, is called every ``SLICE`` seconds while a reply is awaited,
    and may raise to give the wait up: a worker of a stopped run (``bones.sim.parallel``
    passes its ``check_cancelled``) then closes the bot itself rather than being killed
    with the bot left running. What it raises goes on to the caller (a bot still starting
    ends its process first: nobody else holds it yet)."""

    def __init__(self, command: str, rng: random.Random, think: float = 1.0,
                 log: IO[str] | None = None,
                 cancelled: Callable[[], None] | None = None) -> None:
        self.command = command
        self.think = think
        self._cancelled = cancelled
        self.fallback = RandomBot(rng)
        self.log = log if log is not None else sys.stderr
        self.faults = 0
        #: Move requests made.
        self.asked = 0
        #: Each move the fallback made instead, as (its number in the hand's moves, from 1;
        #: why), so a record of the hand can say which plays were not the bot's.
        self.played_for_moves: list[tuple[int, str]] = []
        self._last_fault: str | None = None
        self._next_id = 0
        self._lines: queue.Queue[_Line | None] = queue.Queue(MAX_WAITING)
        #: Why the program is given up (it exited, closed its output, stopped reading):
        #: from then on every move is the fallback's, at once.
        self._gone: str | None = None
        self._closed = threading.Event()
        #: The last line the program wrote to standard error (its logs, which are otherwise
        #: dropped), told when it is given up: a crash's traceback ends there.
        self._last_words = ""
        self._stderr_ended = threading.Event()
        self.name = command
        #: The variable in the program's environment, inherited by every process it starts,
        #: by which they are found and ended with it (``strays``).
        self._mark = strays.mark()
        self._proc: subprocess.Popen[bytes] | None = None
        silent = _SILENT.get(command)
        if silent is not None:  # said when it was found; every table after is played for
            self._gone = silent
            return
        try:
            self._proc = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=POSIX,
                env={**os.environ, self._mark: "1"},
            )
        except (OSError, ValueError) as exc:
            self._give_up(f"cannot start {quoted(command, 200)}: {exc}")
            return
        assert self._proc.stdin is not None
        if POSIX:
            os.set_blocking(self._proc.stdin.fileno(), False)
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._keep_last_words, daemon=True).start()
        try:
            hello = self._ask({"type": "hello", "protocol": PROTOCOL}, HELLO_TIMEOUT)
        except BaseException:  # Ctrl-C or SIGTERM while waiting: nobody else can end it
            self.close()
            raise
        if hello is LATE:  # a program silent now is not waited on again at every move
            why = f"no reply to hello within {HELLO_TIMEOUT:g} s"
            _SILENT[command] = f"{why} when it was first started in this run"
            self._give_up(f"{why}; it is not started again in this run")
        elif isinstance(hello, dict) and isinstance(hello.get("name"), str):
            self.name = hello["name"][:80]

    # -- the channels ---------------------------------------------------------------------

    def _pump(self) -> None:
        """Read the program's output into whole lines of at most ``MAX_LINE`` bytes."""
        assert self._proc is not None and self._proc.stdout is not None
        stream = self._proc.stdout  # held here, and closed by this reader alone (below)
        fd = stream.fileno()
        line = bytearray()
        skipped = -1  # the bytes of a line too long dropped so far; -1 while none is
        try:
            while chunk := os.read(fd, 1 << 16):
                *whole, rest = chunk.split(b"\n")
                for part in whole:
                    if skipped < 0 and not self._put(_decode(bytes(line + part))):
                        return
                    line.clear()
                    skipped = -1
                if skipped >= 0:
                    skipped += len(rest)
                    if skipped > GIVE_UP_LINE:  # the pipe is left unread: the bot is ended
                        self._put(_Line(None, f"a line longer than {GIVE_UP_LINE} bytes",
                                        fatal=True))
                        return
                else:
                    line += rest
                    if len(line) > MAX_LINE:  # the reply's fault now, not at its end
                        if not self._put(_Line(None, f"a line longer than {MAX_LINE} bytes")):
                            return
                        skipped = len(line)
                        line.clear()
        except OSError:
            pass
        finally:
            # Closed from elsewhere (or collected with the process) while a read is under
            # way, the number could be reused by the next bot's pipe and read here.
            with contextlib.suppress(OSError):
                stream.close()
        self._put(None)

    def _keep_last_words(self) -> None:
        """Drain the program's standard error (a full pipe would stall it), keeping its
        last non-blank line: in bounded memory, however much it writes without a newline."""
        assert self._proc is not None and self._proc.stderr is not None
        stream = self._proc.stderr  # ``close`` forgets the process; the stream stays ours
        fd = stream.fileno()
        line = b""  # the start of the line being written, at most LAST_WORDS * 4 bytes
        try:
            while chunk := os.read(fd, 1 << 16):
                *ended, rest = chunk.split(b"\n")
                for part in ended:
                    self._keep((line + part[:4 * LAST_WORDS])[:4 * LAST_WORDS])
                    line = b""
                line = (line + rest[:4 * LAST_WORDS])[:4 * LAST_WORDS]
            self._keep(line)
        except (OSError, ValueError):
            pass
        finally:
            # Closed here, by its one reader, once every writer is gone (closing it from
            # ``close`` while a read is under way could have the read take a reused fd).
            with contextlib.suppress(OSError):
                stream.close()
        self._stderr_ended.set()

    def _keep(self, line: bytes) -> None:
        """Keep ``line`` (the start of one line) as the last words, if it says anything."""
        text = line.decode("utf-8", "replace").strip()
        if text:
            self._last_words = text[:LAST_WORDS]

    def _put(self, line: _Line | None) -> bool:
        """Hold a line for ``_ask``, waiting while ``MAX_WAITING`` are held; ``False`` once
        the bot is closed (so a flooding bot's reader does not wait for ever)."""
        while not self._closed.is_set():
            try:
                self._lines.put(line, timeout=0.2)
                return True
            except queue.Full:
                continue
        return False

    def _fault(self, message: str) -> None:
        self.faults += 1
        self._last_fault = message
        print(f"bones: bot {self.command}: {message}", file=self.log)

    def _give_up(self, message: str) -> None:
        proc = self._proc
        if proc is not None:  # a program that is ending says why on its way out
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.2)
            if proc.poll() is not None:  # ended: its last words are read to the end
                self._stderr_ended.wait(0.5)
                if self._last_words:
                    message += (" (its last words on standard error: "
                                f"{quoted(self._last_words, LAST_WORDS)})")
        self._fault(message + "; its moves are played for it from now on")
        self._gone = message
        self._end()  # what it started too: nothing of a bot given up goes on running

    def _send(self, request: dict[str, Any], deadline: float) -> bool:
        """Write one request line by the deadline (a program that does not read its input
        is given up rather than waited on)."""
        if self._proc is None or self._gone is not None:
            return False
        if self._proc.poll() is not None:
            self._give_up("the bot process is not running")
            return False
        data = memoryview((json.dumps(request) + "\n").encode())
        assert self._proc.stdin is not None
        fd = self._proc.stdin.fileno()
        try:
            while data:
                if POSIX:
                    left = deadline - time.monotonic()
                    if left <= 0 or not select.select([], [fd], [], left)[1]:
                        self._give_up("the bot process is not reading its input")
                        return False
                try:
                    data = data[os.write(fd, data):]
                except BlockingIOError:
                    continue
        except OSError:
            self._give_up("the bot process closed its input")
            return False
        return True

    def _ask(self, request: dict[str, Any], timeout: float) -> Any:
        """Send one request and wait for its reply; ``LATE`` when none came by the deadline
        (for the caller to tell), ``None`` on any other failure.

        Replies to earlier requests (late answers, a late hello) are skipped, not taken as
        this one's, and so are blank lines; the deadline is checked on every line, so a
        flood of them cannot hold the table. Any other line is the reply, good or bad (the
        protocol gives one line per request, so a line that is not JSON is this request's
        fault, not skipped).
        """
        deadline = time.monotonic() + timeout
        if not self._send(request, deadline):
            return None
        request_id = request.get("id")
        while True:
            try:
                # In slices: a stopped run's worker gives up here too (``cancelled``), and
                # closes the bot itself, rather than being killed with it left running.
                line = self._lines.get(timeout=max(0.0, min(SLICE,
                                                            deadline - time.monotonic())))
            except queue.Empty:
                if self._cancelled is not None:
                    self._cancelled()
            else:
                if line is None:
                    self._give_up("the bot process closed its output")
                    return None
                if line.text is None:
                    if line.fatal:
                        self._give_up(f"it wrote {line.fault}")
                    else:
                        self._fault(f"reply is {line.fault}")
                    return None
                if line.text.strip():  # a blank line is skipped, as ``bones bot`` skips them
                    try:
                        reply = strict_json(line.text)
                    except ValueError:
                        self._fault(f"reply is not JSON: {quoted(line.text.strip())}")
                        return None
                    if reply is None:  # JSON null: a reply, but none a caller could tell
                        self._fault("reply is null, not an object")
                        return None
                    # A late hello reply (past HELLO_TIMEOUT) answers the hello, not this.
                    stale = isinstance(reply, dict) and (
                        (is_int(reply.get("id")) and is_int(request_id)
                         and reply["id"] < request_id)
                        or (request.get("type") == "move" and reply.get("type") == "hello"))
                    if not stale:
                        return reply
            if time.monotonic() >= deadline:  # whatever came, nothing answered in time
                return LATE

    # -- the bot --------------------------------------------------------------------------

    def choose(self, view: SeatView) -> Play:
        self._next_id += 1
        request_id = self._next_id
        self._last_fault = None
        timeout = 2 * self.think + 1
        reply = self._ask(request_of(view, request_id, self.think), timeout)
        if reply is LATE:
            self._fault(f"no reply within {timeout:g} s")
            reply = None
        move = self._legal(reply, request_id, view)
        self.asked += 1
        if move is None:
            why = self._last_fault or self._gone or "no usable reply"
            self.played_for_moves.append((len(view.moves) + 1, why))
            return self.fallback.choose(view)
        return move

    def _legal(self, reply: Any, request_id: int, view: SeatView) -> Play | None:
        if reply is None:
            return None
        # is_int: JSON true is not the id 1, though Python's True == 1.
        if not isinstance(reply, dict) or not is_int(reply.get("id")) \
                or reply["id"] != request_id:
            self._fault(f"reply does not answer request {request_id}: {quoted(reply)}")
            return None
        if "play" not in reply:
            said = f": {_prose(reply['error'])}" if "error" in reply else ""
            self._fault(f"reply names no play{said}")
            return None
        try:
            tile = parse_tile(reply.get("play"))
        except ValueError as exc:
            self._fault(f"illegal reply: {in_json_terms(str(exc), [reply.get('play')])}")
            return None
        legal = [p for p in view.legal if p.tile == tile]
        if not legal:  # not in the hand, not the tile the opening names, fits no arm
            self._fault(f"illegal reply: {tile} is not a tile the seat may play now")
            return None
        end = reply.get("end")
        if view.layout.is_empty:
            return legal[0]
        matching = [p for p in legal if p.end == end] if end is not None else legal
        arms = {p.end for p in matching}
        if len(arms) == 1:
            return matching[0]
        named = f"with end {quoted(end)}" if end is not None else "without an end"
        self._fault(f"illegal reply: {tile} {named} is not one legal play")
        return None

    @property
    def played_for(self) -> int:
        """How many of the moves asked the fallback made instead."""
        return len(self.played_for_moves)

    def close(self) -> None:
        """Send ``quit``, give the program ``QUIT_TIMEOUT`` seconds to exit, then end its
        whole session and every process it started (``_end``)."""
        proc = self._proc
        if proc is None:
            return
        self._closed.set()  # its output is not read any more: the pump may stop waiting
        try:
            self._send({"type": "quit"}, time.monotonic() + 0.5)
            assert proc.stdin is not None
            with contextlib.suppress(OSError):
                proc.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=QUIT_TIMEOUT)
        finally:  # even when a second Ctrl-C or SIGTERM cuts the wait short
            self._end()
            proc.wait()
            self._proc = None

    def _end(self) -> None:
        """Kill the program, every process that carries its mark or descends from one (its
        children, even those that left its session: ``strays``), and its session (where
        there is no ``/proc`` to find the others, that is all)."""
        proc = self._proc
        if proc is None:
            return
        try:
            strays.end_marked(self._mark)
        finally:
            if POSIX:
                with contextlib.suppress(OSError):  # OSError: the session is already gone
                    os.killpg(proc.pid, signal.SIGKILL)
            if proc.poll() is None:
                proc.kill()


def _prose(said: object) -> str:
    """What a bot said (an ``error`` reply's reason): its text, cut; any other value as
    JSON."""
    if isinstance(said, str):
        return said if len(said) <= 80 else said[:80] + "..."
    return quoted(said)


def _decode(raw: bytes) -> _Line:
    try:
        return _Line(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return _Line(None, "a line that is not UTF-8")

