"""Many tables of scripted people at once against a real ``bones serve``, over real
WebSockets on loopback: how long a move takes to come back, how many moves a second the
server carries, and how much memory it holds.

    python benchmarks/web_load.py                      # 200 four-seat tables, 30 s
    python benchmarks/web_load.py --tables 50 --duration 10 --think 0.25
    python benchmarks/web_load.py --port 8000 --pid 1234  # a server already running
                                                          # (with --api-rate off)

Unless ``--port`` names a running server, the benchmark starts its own ``bones serve``
(this checkout's) on a free loopback port, with a fresh SQLite file in a temporary folder,
``--pace 0`` and ``--api-rate off`` (one address makes every table and takes every seat,
which the default API limit of 2 requests a second would refuse), and stops it at the end.

Every seat is a person's (a client of this script), so no bot thinks. Each client plays a
random legal play from its view's ``legal`` list on its turn, after a pause of ``--think``
seconds (each pause drawn from half to one and a half times it, so tables do not move in
step), says ``next`` between hands and ``rematch`` when a game is over. A client sends at
most one message per turn and keeps under the socket's own limit (a token bucket of 5 a
second, bursts of 20), so no message is refused.

The **round trip** of a move is from the moment its frame is sent until both the mover's
own ``moved`` event (its acknowledgement: the move was committed) and the frame that makes
it the next person's turn (or ends the hand) have arrived. The thinking pause is not in it.
Measuring starts once every table is seated and every socket has said hello; p50 and p99
are of every move in the run. The server's memory is its resident set (``VmRSS`` of
``/proc/PID/status``), sampled every half second; its CPU time is read from
``/proc/PID/stat``. The clients run in this one process, on the same machine: its own CPU
time is printed too, since on a small machine the clients and the server share the cores.
Its garbage collector is tuned as ``bones serve`` tunes the server's, so that its own
pauses are not counted as the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parent.parent
RUN = "import sys; from bones.cli.main import main; sys.exit(main())"
#: The socket's token bucket as the server keeps it (``Settings.rate``, ``burst``), kept a
#: little under, so a client is never told it floods.
RATE, BURST = 4.5, 18


# -- the server ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_up(port: int, process: subprocess.Popen[bytes] | None, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        if process is not None and process.poll() is not None:
            raise SystemExit(f"bones serve stopped at start (status {process.returncode})")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rules", timeout=2):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if time.monotonic() > deadline:
                raise SystemExit(f"no server answers on port {port}") from None
            time.sleep(0.1)


@contextlib.contextmanager
def own_server(db: str | None, log: Path, src: Path) -> Iterator[tuple[int, int]]:
    """``bones serve`` from the source tree ``src`` on a free port: its port and process
    id."""
    port = free_port()
    folder = tempfile.mkdtemp(prefix="bones-load-")  # removed at the end
    url = db or f"sqlite:///{folder}/bones.db"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(src), *filter(None, [os.environ.get("PYTHONPATH")])])}
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", RUN, "serve", "--host", "127.0.0.1", "--port", str(port),
             "--db", url, "--pace", "0", "--api-rate", "off"],
            stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        wait_up(port, process)
        yield port, process.pid
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(15)
        shutil.rmtree(folder, ignore_errors=True)


def rss_kib(pid: int | None) -> int | None:
    """The process's resident memory in KiB (``VmRSS``), or ``None`` if it cannot be read."""
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def cpu_seconds(pid: int | None) -> float | None:
    """User and system CPU time the process has used."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def mib(kib: int | None) -> str:
    return "?" if kib is None else f"{kib / 1024:.0f} MiB"


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                     data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            doc: dict[str, Any] = json.loads(answer.read())
            return doc
    except urllib.error.HTTPError as exc:
        raise SystemExit(f"{path}: {exc.code} {exc.read().decode()[:200]} (a server of "
                         "your own needs --api-rate off)") from None


# -- the clients ----------------------------------------------------------------------------


@dataclass
class Run:
    """What every client shares: the clock of the run, and what it measured."""

    think: float
    #: What the sockets offer: ``"deflate"`` (as browsers do) or ``None``.
    compression: str | None = "deflate"
    measuring: bool = False
    stopping: bool = False
    trips: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    closed: int = 0

    def enough(self, moves: int | None) -> bool:
        return moves is not None and len(self.trips) >= moves


@dataclass
class Board:
    """One table of the run, as its four clients see it together: the move in flight."""

    run: Run
    #: The move in flight: when it was sent, by which seat, at which sequence number.
    sent: tuple[float, int, int] | None = None
    acked: float | None = None
    following: float | None = None

    def send(self, seat: int, seq: int) -> None:
        self.sent, self.acked, self.following = (time.perf_counter(), seat, seq), None, None

    def ack(self, seat: int, seq: int) -> None:
        if self.sent is not None and self.acked is None and seat == self.sent[1] \
                and seq > self.sent[2]:
            self.acked = time.perf_counter()
            self._done()

    def follow(self, seq: int) -> None:
        """The next person's turn (or the hand's end) arrived at one of the table's
        clients."""
        if self.sent is not None and self.following is None and seq > self.sent[2]:
            self.following = time.perf_counter()
            self._done()

    def _done(self) -> None:
        if self.sent is None or self.acked is None or self.following is None:
            return
        if self.run.measuring:
            self.run.trips.append(max(self.acked, self.following) - self.sent[0])
        self.sent = None


class Bucket:
    """The client's own token bucket, a little under the server's."""

    def __init__(self) -> None:
        self.tokens, self.stamp = float(BURST), time.monotonic()

    async def take(self) -> None:
        while True:
            now = time.monotonic()
            self.tokens = min(float(BURST), self.tokens + (now - self.stamp) * RATE)
            self.stamp = now
            if self.tokens >= 1:
                self.tokens -= 1
                return
            await asyncio.sleep((1 - self.tokens) / RATE)


class Player:
    """One person's socket: it plays a random legal play on its turn after thinking."""

    def __init__(self, board: Board, seat: int, token: str, rng: random.Random) -> None:
        self.board, self.seat, self.token, self.rng = board, seat, token, rng
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.status: dict[str, Any] | None = None
        self.acted = -1
        self.said: set[tuple[str, int, int]] = set()
        self.count = 0
        self.bucket = Bucket()
        self.ws: ClientConnection | None = None
        self.ready = asyncio.Event()
        self.tasks: set[asyncio.Task[None]] = set()

    async def say(self, kind: str, **fields: Any) -> None:
        await self.bucket.take()
        assert self.ws is not None
        self.count += 1
        await self.ws.send(json.dumps({"type": kind, "id": f"m{self.count}", **fields}))

    def later(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def play(self, seq: int) -> None:
        run = self.board.run
        if run.think > 0:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * run.think)
        if run.stopping or self.view is None or self.seq != seq:
            return
        move = self.rng.choice(self.view["legal"])
        await self.bucket.take()
        if run.stopping:
            return
        self.board.send(self.seat, self.seq)
        assert self.ws is not None
        self.count += 1
        await self.ws.send(json.dumps({"type": "move", "id": f"m{self.count}", "move": move}))

    def frame(self, frame: dict[str, Any]) -> None:
        self.seq = max(self.seq, frame["seq"])
        if frame["type"] == "error":
            self.board.run.errors.append(frame["error"])
            return
        if "view" in frame and frame["view"] is not None:
            self.view = frame["view"]
        if frame.get("status") is not None:
            self.status = frame["status"]
        if frame["type"] == "state":
            self.ready.set()
        event = frame.get("event") if frame["type"] == "event" else None
        if event is not None:
            if event["type"] == "moved":
                self.board.ack(event["move"]["seat"], frame["seq"])
            elif event["type"] in ("hand_ended", "game_ended"):
                self.board.follow(frame["seq"])
        view, status = self.view, self.status
        if view is None or status is None or self.board.run.stopping:
            return
        phase = status["phase"]
        if phase == "playing" and view["to_move"] == self.seat and view["legal"] \
                and self.seq > self.acted:
            self.acted = self.seq
            self.board.follow(frame["seq"])
            self.later(self.play(self.seq))
        elif phase == "over" or (phase == "between" and status["hand"] > 0):
            kind = "next" if phase == "between" else "rematch"
            key = (kind, status["game"], status["hand"])
            if key not in self.said:
                self.said.add(key)
                self.later(self.say(kind))

    async def serve(self, url: str) -> None:
        try:
            async with connect(url, max_size=2**20, open_timeout=60,
                               compression=self.board.run.compression) as ws:
                self.ws = ws
                await ws.send(json.dumps({"type": "hello", "id": "h", "token": self.token}))
                async for text in ws:
                    self.frame(json.loads(text))
        except ConnectionClosed:
            pass
        except OSError as exc:
            self.board.run.errors.append(f"socket: {exc}")
        finally:
            self.ready.set()
            if not self.board.run.stopping:
                self.board.run.closed += 1


# -- the run ------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def figures(trips: list[float]) -> str:
    if not trips:
        return "no moves yet"
    return (f"p50 {percentile(trips, 0.5) * 1000:.1f} ms, p99 "
            f"{percentile(trips, 0.99) * 1000:.1f} ms")


async def seat_tables(args: argparse.Namespace, port: int) -> list[list[str]]:
    """Make the tables and take every seat: each table's seat tokens."""
    body = {"rules": {"preset": args.rules, "players": args.seats},
            "seats": ["human"] * args.seats}
    gate = asyncio.Semaphore(8)

    async def one(index: int) -> list[str]:
        async with gate:
            made = await asyncio.to_thread(post, port, "/api/tables", body)
            found = []
            for seat in range(args.seats):
                joined = await asyncio.to_thread(post, port, "/api/join",
                                                 {"invite": made["invite"],
                                                  "name": f"P{index}-{seat}", "seat": seat})
                found.append(joined["token"])
            return found

    return await asyncio.gather(*(one(i) for i in range(args.tables)))


async def bench(args: argparse.Namespace, port: int, pid: int | None) -> int:
    start_rss = rss_kib(pid)
    print(f"server: port {port}, pid {pid or '?'}, RSS at start {mib(start_rss)}; "
          f"load average {load_average()}", flush=True)
    made = time.perf_counter()
    seated = await seat_tables(args, port)
    print(f"{args.tables} tables made and {args.tables * args.seats} seats taken in "
          f"{time.perf_counter() - made:.1f} s", flush=True)
    run = Run(args.think, None if args.compression == "none" else "deflate")
    rng = random.Random(args.seed)
    url = f"ws://127.0.0.1:{port}/ws"
    players = []
    for tokens in seated:
        board = Board(run)
        players += [Player(board, seat, token, random.Random(rng.getrandbits(64)))
                    for seat, token in enumerate(tokens)]
    tasks = []
    for player in players:  # a few at a time: the server's listen backlog is finite
        tasks.append(asyncio.get_running_loop().create_task(player.serve(url)))
        if len(tasks) % 50 == 0:
            await asyncio.gather(*(p.ready.wait() for p in players[:len(tasks)]))
    await asyncio.gather(*(p.ready.wait() for p in players))
    # the clients' own collector pauses would be counted as the server's: what is made
    # so far is frozen out of its walks, and it runs less often (as bones serve does)
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    seated_rss = rss_kib(pid)
    peak = seated_rss or 0
    print(f"{len(players)} sockets connected; server RSS {mib(seated_rss)}", flush=True)

    run.measuring = True
    began = time.perf_counter()
    cpu_began = cpu_seconds(pid)
    own_began = time.process_time()
    shown = began
    last_count = 0
    while True:
        await asyncio.sleep(0.5)
        now = time.perf_counter()
        peak = max(peak, rss_kib(pid) or 0)
        if now - shown >= args.every:
            count = len(run.trips)
            rate = (count - last_count) / (now - shown)
            print(f"  {now - began:5.1f} s: {count} moves ({rate:.0f}/s), {figures(run.trips)}, "
                  f"server RSS {mib(rss_kib(pid))}, load {load_average()}", flush=True)
            shown, last_count = now, count
        if run.enough(args.moves) or (args.moves is None and now - began >= args.duration):
            break
        if run.closed == len(players):
            break
    elapsed = time.perf_counter() - began
    run.stopping = True
    run.measuring = False
    trips = list(run.trips)
    cpu_end = cpu_seconds(pid)
    own = time.process_time() - own_began
    for player in players:
        if player.ws is not None:
            await player.ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)

    print()
    print(f"{args.tables} tables x {args.seats} persons ({args.rules}), think "
          f"{args.think:g} s (x0.5 to x1.5), {elapsed:.1f} s measured")
    if trips:
        print(f"round trip (move sent -> mover's ack and the next person's view): "
              f"p50 {percentile(trips, 0.5) * 1000:.1f} ms, p90 "
              f"{percentile(trips, 0.9) * 1000:.1f} ms, p99 "
              f"{percentile(trips, 0.99) * 1000:.1f} ms, max {max(trips) * 1000:.1f} ms, "
              f"mean {statistics.fmean(trips) * 1000:.1f} ms")
    print(f"moves: {len(trips)}, {len(trips) / elapsed:.0f} a second")
    print(f"server RSS: {mib(start_rss)} at start, {mib(seated_rss)} with the tables "
          f"seated, {mib(peak)} at most")
    if cpu_began is not None and cpu_end is not None:
        used = cpu_end - cpu_began
        per = f", {used / len(trips) * 1000:.2f} ms a move" if trips else ""
        print(f"server CPU: {used:.1f} s in {elapsed:.1f} s ({used / elapsed:.0%} of a "
              f"core{per}); this benchmark's clients: {own:.1f} s ({own / elapsed:.0%})")
    print(f"load average at the end: {load_average()} ({os.cpu_count()} cores)")
    if run.errors:
        print(f"error frames: {len(run.errors)}, the first: {run.errors[0]}")
    if run.closed:
        print(f"sockets closed by the server: {run.closed}")
    return 1 if run.errors or run.closed or not trips else 0


def whole(least: int, most: int | None = None) -> Any:
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least or (most is not None and value > most):
            raise argparse.ArgumentTypeError(
                f"must be at least {least}" if most is None else f"must be {least} to {most}")
        return value
    return read


def seconds(zero: bool) -> Any:
    def read(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
            raise argparse.ArgumentTypeError("must be 0 seconds or more" if zero
                                             else "must be more than 0 seconds")
        return value
    return read


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=whole(1), default=200, help="tables at once (200)")
    parser.add_argument("--seats", type=whole(2, 8), default=4,
                        help="persons at each table (4)")
    parser.add_argument("--rules", default="block",
                        help="the preset played (block; draw, ...), with --seats players")
    parser.add_argument("--think", type=seconds(zero=True), default=1.0,
                        help="seconds a person takes before a move, on average (1.0)")
    stop = parser.add_mutually_exclusive_group()
    stop.add_argument("--duration", type=seconds(zero=False), default=30.0,
                      help="seconds to measure (30)")
    stop.add_argument("--moves", type=whole(1), help="measure this many moves instead")
    parser.add_argument("--compression", choices=("deflate", "none"), default="deflate",
                        help="whether the clients offer permessage-deflate, as browsers do "
                        "(deflate)")
    parser.add_argument("--every", type=seconds(zero=False), default=5.0,
                        help="seconds between progress lines (5)")
    parser.add_argument("--seed", type=int, default=1, help="the clients' random plays")
    parser.add_argument("--port", type=whole(1, 65535),
                        help="a running server's port (started with --api-rate off) "
                        "instead of starting one")
    parser.add_argument("--pid", type=int, help="that server's process id, for its memory")
    parser.add_argument("--db", help="the database URL of the server this starts "
                        "(default: a new SQLite file in a temporary folder)")
    parser.add_argument("--src", type=Path, default=ROOT / "src",
                        help="the source tree of the server this starts (default this "
                        "checkout's), to compare one version with another")
    parser.add_argument("--log", type=Path, default=Path(tempfile.gettempdir())
                        / "bones-load-server.log", help="where the server's log goes")
    args = parser.parse_args()
    if args.port is not None:
        wait_up(args.port, None)
        return asyncio.run(bench(args, args.port, args.pid))
    with own_server(args.db, args.log, args.src) as (port, pid):
        return asyncio.run(bench(args, port, pid))


if __name__ == "__main__":
    sys.exit(main())
