"""``bones serve`` as a real process on a free loopback port, played over a real WebSocket
client: killed with SIGKILL in the middle of a hand and started again on the same SQLite
file, it has every move a client was told of, and the game goes on from there.

Each test stops every process it starts (``serving``), and every wait is bounded.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

pytestmark = pytest.mark.timeout(180)

ROOT = Path(__file__).resolve().parent.parent
RUN = "import sys; from bones.cli.main import main; sys.exit(main())"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                     data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        doc: dict[str, Any] = json.loads(answer.read())
        return doc


def source_env() -> dict[str, str]:
    """This environment with this checkout's ``src`` first on ``PYTHONPATH``: a ``bones``
    started as a process runs the code under test, not an installed copy."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])])}


@contextlib.contextmanager
def serving(db: Path, log: Path, port: int | None = None,
            ) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``bones serve`` on ``db``, on ``port`` (a free one by default), until the block ends
    (or it is killed)."""
    port = port or free_port()
    env = source_env()
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", RUN, "serve", "--host", "127.0.0.1", "--port", str(port),
             "--db", f"sqlite:///{db}", "--pace", "0"],
            stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rules", timeout=2):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        yield process, port
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


@contextlib.contextmanager
def hello(port: int, token: str) -> Iterator[tuple[ClientConnection, dict[str, Any]]]:
    """A socket to the seat, and the ``state`` it was sent first."""
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, close_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello", "id": f"h{random.getrandbits(40):x}",
                            "token": token}))
        first: dict[str, Any] = json.loads(ws.recv(timeout=10))
        assert first["type"] == "state", first
        yield ws, first


def play(ws: ClientConnection, state: dict[str, Any], moves: int, rng: random.Random,
         ) -> tuple[dict[str, Any], dict[str, Any], int]:
    """Play ``moves`` moves as the seat (asking for the next hand whenever one ends), each
    acknowledged by its own event; the view, status and sequence number after the last."""
    seat, view, status = state["you"]["seat"], state["view"], state["status"]
    seq, asked, made, nexted = state["seq"], -1, 0, -1
    while True:
        if status["phase"] == "between" and nexted < status["hand"]:
            nexted = status["hand"]
            ws.send(json.dumps({"type": "next", "id": f"n{seq}"}))
        if status["phase"] == "playing" and view["to_move"] == seat and view["legal"] \
                and asked < seq:
            asked = seq
            ws.send(json.dumps({"type": "move", "id": f"m{seq}-{made}",
                                "move": rng.choice(view["legal"])}))
        frame = json.loads(ws.recv(timeout=20))
        assert frame["type"] != "error", frame
        seq = max(seq, frame["seq"])
        view = frame.get("view") or view
        status = frame.get("status") or status
        if frame["type"] != "event":
            continue
        event = frame["event"]
        if event["type"] == "moved" and event["move"]["seat"] == seat \
                and event["by"] == "person":
            made += 1
            if made == moves:  # acknowledged: stop here, whatever comes next
                return view, status, seq


def test_a_killed_server_keeps_every_move_it_told_of_and_the_game_goes_on(tmp_path):
    db, log = tmp_path / "bones.db", tmp_path / "serve.log"
    rng = random.Random(7)
    with serving(db, log) as (process, port):
        made = post(port, "/api/tables", {"rules": {"preset": "draw", "target": 500},
                                          "seats": ["human", "greedy"]})
        token = post(port, "/api/join", {"invite": made["invite"], "name": "Ana"})["token"]
        with contextlib.ExitStack() as stack:
            ws, state = stack.enter_context(hello(port, token))
            view, status, seq = play(ws, state, 4, rng)
            # killed the moment the fourth move was acknowledged, the bot perhaps thinking
            process.send_signal(signal.SIGKILL)
            process.wait(10)
    with serving(db, log) as (process, port), hello(port, token) as (ws, state):
        again = state["view"]
        assert state["seq"] >= seq
        # every acknowledged move is there (a bot's reply to the last perhaps too)
        assert state["status"]["hand"] == status["hand"]
        assert again["moves"][:len(view["moves"])] == view["moves"]
        # and the game goes on from there
        after, _, _ = play(ws, state, 3, rng)
        assert after["moves"] != again["moves"]
    text = log.read_text()
    assert token not in text and made["invite"] not in text
    assert "Traceback" not in text
