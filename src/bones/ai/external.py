"""A bot in another process that speaks ``bones-bot/1`` (``--bots cmd:PROGRAM``).

The referee side of ``spec/bot-protocol.md``: it sends the seat's view as a move request and
waits at most twice the think time plus one second. A late, malformed or illegal reply (or a
dead process) is not retried: it is logged and a fallback bot plays for the seat, so an
outside bot can never stall or crash the table.
"""

from __future__ import annotations

import json
import queue
import random
import shlex
import subprocess
import sys
import threading
import time
from typing import IO, Any

from bones.ai.protocol import PROTOCOL, request_of
from bones.ai.simple import RandomBot
from bones.engine.moves import Play
from bones.engine.tiles import parse_tile
from bones.engine.view import SeatView


class ExternalBot:
    """Drives a bot process over JSON lines; falls back to a random legal play on any fault."""

    def __init__(self, command: str, rng: random.Random, think: float = 1.0,
                 log: IO[str] | None = None) -> None:
        self.command = command
        self.think = think
        self.fallback = RandomBot(rng)
        self.log = log if log is not None else sys.stderr
        self.faults = 0
        self._next_id = 0
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.name = command
        try:
            self._proc: subprocess.Popen[str] | None = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, bufsize=1,
            )
        except (OSError, ValueError) as exc:
            self._proc = None
            self._fault(f"cannot start {command!r}: {exc}")
            return
        threading.Thread(target=self._pump, daemon=True).start()
        hello = self._ask({"type": "hello", "protocol": PROTOCOL}, timeout=5.0)
        if isinstance(hello, dict) and isinstance(hello.get("name"), str):
            self.name = hello["name"]

    def _pump(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for line in self._proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _fault(self, message: str) -> None:
        self.faults += 1
        print(f"bones: bot {self.command}: {message}", file=self.log)

    def _send(self, request: dict[str, Any]) -> bool:
        if self._proc is None or self._proc.poll() is not None:
            self._fault("the bot process is not running")
            return False
        try:
            assert self._proc.stdin is not None
            self._proc.stdin.write(json.dumps(request) + "\n")
            self._proc.stdin.flush()
        except (OSError, ValueError):
            self._fault("the bot process closed its input")
            return False
        return True

    def _ask(self, request: dict[str, Any], timeout: float) -> Any:
        """Send one request and wait for its reply; ``None`` on any failure.

        Replies to earlier move requests (late answers) are skipped, not taken as this one's.
        """
        if not self._send(request):
            return None
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self._fault(f"no reply within {timeout:g} s")
                return None
            if line is None:
                self._fault("the bot process exited")
                return None
            try:
                reply = json.loads(line)
            except json.JSONDecodeError:
                self._fault(f"reply is not JSON: {line.strip()[:80]!r}")
                return None
            stale = (isinstance(reply, dict) and isinstance(reply.get("id"), int)
                     and isinstance(request.get("id"), int) and reply["id"] < request["id"])
            if not stale:
                return reply

    def choose(self, view: SeatView) -> Play:
        self._next_id += 1
        request_id = self._next_id
        reply = self._ask(request_of(view, request_id, self.think), timeout=2 * self.think + 1)
        move = self._legal(reply, request_id, view)
        return move if move is not None else self.fallback.choose(view)

    def _legal(self, reply: Any, request_id: int, view: SeatView) -> Play | None:
        if reply is None:
            return None
        if not isinstance(reply, dict) or reply.get("id") != request_id:
            self._fault(f"reply does not answer request {request_id}: {str(reply)[:80]}")
            return None
        try:
            tile = parse_tile(reply.get("play"))
        except ValueError as exc:
            self._fault(f"illegal reply: {exc}")
            return None
        legal = [p for p in view.legal if p.tile == tile]
        end = reply.get("end")
        if view.layout.is_empty and legal:
            return legal[0]
        matching = [p for p in legal if p.end == end] if end is not None else legal
        arms = {p.end for p in matching}
        if len(arms) == 1:
            return matching[0]
        self._fault(f"illegal reply: {reply.get('play')} with end {end!r} is not one legal play")
        return None

    def close(self) -> None:
        """Send ``quit`` and let the process go."""
        if self._proc is None:
            return
        try:
            assert self._proc.stdin is not None
            self._proc.stdin.write(json.dumps({"type": "quit"}) + "\n")
            self._proc.stdin.close()
            self._proc.wait(timeout=2)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            self._proc.kill()
