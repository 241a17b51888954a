"""The web table (``bones serve``), in process: Starlette's test client drives the JSON API
and the WebSockets as browsers would, through whole games with people, bots and
spectators; and every frame each client receives is kept and checked (no tile another seat
holds before the hand's end, no markup, a sequence number on each).

The server is started and stopped by each test (``serve``); every wait for a frame is
bounded (``Client.receive``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import re
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from bones.cli.main import main
from bones.cli.rules import everything_json
from bones.engine.tiles import Tile
from bones.record.reader import read_file
from bones.server import migrate
from bones.server.app import create_app
from bones.server.frames import FIELDS, Bucket, FrameError, depth, dumps, read_frame
from bones.server.settings import Settings
from bones.server.store import make_engine, metadata

pytestmark = pytest.mark.timeout(300)

TILE = re.compile(r'"(\d+)-(\d+)"')
HOSTILE_NAME = "<script>alert(1)</script>"


# -- the server and its clients ----------------------------------------------------------------


def settings(path: Path, **changes: Any) -> Settings:
    # A test plays far faster than a person: its sockets may send 1,000 frames a second
    # (the hostile-input test sets the real limit).
    base = {"db_url": f"sqlite:///{path / 'bones.db'}", "catalog": everything_json(),
            "pace": 0.0, "workers": 2, "hello_seconds": 5.0, "rate": 1000.0, "burst": 1000}
    return Settings(**{**base, **changes})


@contextlib.contextmanager
def serve(path: Path, **changes: Any) -> Iterator[TestClient]:
    """The server on the database in ``path``, for the length of the block."""
    with TestClient(create_app(settings(path, **changes))) as client:
        yield client


async def _receive(stream: Any, seconds: float) -> Any:
    with anyio.fail_after(seconds):
        return await stream.receive()


@dataclass
class Client:
    """One WebSocket, as a browser tab: every frame it received, kept as text and JSON,
    and the table as its frames left it."""

    session: Any
    seat: int | None = None
    texts: list[str] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    view: dict[str, Any] | None = None
    status: dict[str, Any] | None = None
    seq: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    acted: int = -1
    nexted: set[tuple[int, int]] = field(default_factory=set)
    counter: int = 0

    def send(self, kind: str, **fields: Any) -> str:
        self.counter += 1
        ident = f"m{self.counter}-{random.getrandbits(32):x}"
        self.session.send_text(json.dumps({"type": kind, "id": ident, **fields}))
        return ident

    def receive(self, seconds: float = 20.0) -> dict[str, Any]:
        """The next frame, waiting at most ``seconds`` (``TimeoutError`` after)."""
        message = self.session.portal.call(_receive, self.session._send_rx, seconds)
        if message["type"] == "websocket.close":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message["text"]
        frame = json.loads(text)
        self.texts.append(text)
        self.frames.append(frame)
        assert isinstance(frame.get("seq"), int), frame
        if frame["type"] == "error":
            self.errors.append(frame)
        if "view" in frame:
            self.view = frame["view"]
        if "status" in frame:
            self.status = frame["status"]
        if frame["type"] == "state":
            self.seat = frame["you"]["seat"]
        self.seq = max(self.seq, frame["seq"])
        return frame

    def until(self, test: Callable[[dict[str, Any]], bool],
              seconds: float = 20.0) -> dict[str, Any]:
        """Frames until one passes ``test``; an error frame that does not fails at once."""
        while True:
            try:
                frame = self.receive(seconds)
            except TimeoutError:
                raise AssertionError(f"no such frame within {seconds} s; the last ones: "
                                     f"{self.frames[-4:]}") from None
            if test(frame):
                return frame
            assert frame["type"] != "error", frame

    def drain(self, seconds: float = 0.02) -> None:
        """Every frame that arrives within ``seconds`` of the last."""
        with contextlib.suppress(TimeoutError):
            while True:
                self.receive(seconds)

    def my_turn(self) -> bool:
        view, status = self.view, self.status
        return (view is not None and status is not None and status["phase"] == "playing"
                and self.seat is not None and view["to_move"] == self.seat
                and bool(view["legal"]) and self.seq > self.acted)

    def play(self, rng: random.Random) -> None:
        assert self.view is not None
        self.acted = self.seq
        self.send("move", move=rng.choice(self.view["legal"]))


@contextlib.contextmanager
def connect(client: TestClient, token: str | None = None, watch: str | None = None,
            last: int | None = None, **headers: str) -> Iterator[Client]:
    """A socket that has said hello (and been answered)."""
    with client.websocket_connect("/ws", headers=dict(headers)) as session:
        socket = Client(session)
        hello: dict[str, Any] = {"token": token} if token is not None else {"watch": watch}
        if last is not None:
            hello["last"] = last
        socket.send("hello", **hello)
        socket.receive()
        yield socket


def make_table(client: TestClient, rules: Any, seats: list[str], **options: Any,
               ) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"rules": rules, "seats": seats, **options})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def join(client: TestClient, invite: str, name: str, seat: int | None = None) -> str:
    body: dict[str, Any] = {"invite": invite, "name": name}
    if seat is not None:
        body["seat"] = seat
    answer = client.post("/api/join", json=body)
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def round_of(client: TestClient, table: int = 1) -> Any:
    return client.app.state.hub.rounds[table]  # type: ignore[attr-defined]


def play_out(persons: list[Client], watchers: list[Client], rng: random.Random,
             until: Callable[[Client], bool] | None = None, seconds: float = 120) -> None:
    """Play as the persons (random legal plays, ``next`` between hands) until the game is
    over (or ``until`` says so of the first person); every other socket keeps reading."""
    import time

    deadline = time.monotonic() + seconds
    everyone = persons + watchers
    while True:
        for socket in everyone:
            socket.drain()
        for socket in everyone:
            assert not socket.errors, socket.errors
        first = persons[0]
        if until is not None and until(first):
            return
        if until is None and all(p.status is not None and p.status["phase"] == "over"
                                 for p in everyone):
            return
        for person in persons:
            status = person.status
            if person.my_turn():
                person.play(rng)
            elif status is not None and status["phase"] == "between" \
                    and (status["game"], status["hand"]) not in person.nexted:
                person.nexted.add((status["game"], status["hand"]))
                person.send("next")
        assert time.monotonic() < deadline, "the game did not end in time"


# -- what the frames may show ------------------------------------------------------------------


def tiles_in(doc: object) -> set[Tile]:
    return {Tile(max(int(a), int(b)), min(int(a), int(b)))
            for a, b in TILE.findall(json.dumps(doc))}


def leaks(frames: list[dict[str, Any]], seat: int | None, record: dict[str, Any],
          ) -> list[str]:
    """Every tile a frame shows that ``seat`` (``None``: a spectator) could not see when it
    was sent, judged against the game's record: before a hand's end a seat sees its own
    tiles, the tiles it drew and the tiles played; nobody ever sees the undrawn boneyard."""
    found = []
    for number, frame in enumerate(frames):
        view = frame.get("view")
        status = frame.get("status")
        if view is None or status is None or status["game"] != 1:
            continue
        hand = record["hands"][status["hand"] - 1]
        shown = len(view["moves"])
        seen: set[Tile] = set()
        if seat is not None:
            seen |= {_tile(t) for t in hand["deal"][seat]}
        for move in hand["moves"][:shown]:
            if "play" in move:
                seen.add(_tile(move["play"]))
            elif "draw" in move and move["seat"] == seat:
                seen.add(_tile(move["draw"]))
        public = {k: v for k, v in frame.items() if k not in ("ended",)}
        if frame["type"] == "event" and frame["event"]["type"] == "hand_ended":
            public = {k: v for k, v in public.items() if k != "event"}
            drawn = {_tile(m["draw"]) for m in hand["moves"] if "draw" in m}
            undrawn = {_tile(t) for t in hand["boneyard"]} - drawn
            if tiles_in(frame["event"]) & undrawn:
                found.append(f"frame {number} shows the undrawn boneyard")
        if frame["type"] == "hint":
            continue
        for t in tiles_in(public) - seen:
            found.append(f"frame {number} ({frame['type']}) shows {t} to seat {seat}")
    return found


def _tile(text: str) -> Tile:
    a, b = (int(x) for x in text.split("-"))
    return Tile(max(a, b), min(a, b))


# -- whole games -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules, seats", [
    ({"preset": "draw", "players": 3, "target": 40, "spinner": "first-double"},
     ["human", "human", "greedy"]),
    ({"preset": "pool", "players": 4, "partnerships": True, "target": 40},
     ["human", "basic", "human", "greedy"]),
    ({"preset": "block", "target": 30}, ["human", "human"]),
], ids=["draw-3-spinner", "pool-4-partners", "block-2"])
def test_two_people_join_by_invite_and_play_a_whole_game_that_shows_no_hidden_tile(
        tmp_path, rules, seats):
    with serve(tmp_path) as client:
        made = make_table(client, rules, seats)
        persons = [s for s, kind in enumerate(seats) if kind == "human"]
        tokens = {seat: join(client, made["invite"], f"P{seat}", seat) for seat in persons}
        with contextlib.ExitStack() as stack:
            people = [stack.enter_context(connect(client, tokens[s])) for s in persons]
            spectator = stack.enter_context(connect(client, watch=made["watch"]))
            assert [p.seat for p in people] == persons
            play_out(people, [spectator], random.Random(1))
            ended = [f for f in people[0].frames
                     if f["type"] == "event" and f["event"]["type"] == "game_ended"]
            assert len(ended) == 1
            # every socket saw the same numbered entries, in order, with no gap
            for socket in [*people, spectator]:
                numbered = [f["seq"] for f in socket.frames if f["type"] == "event"]
                assert numbered == sorted(numbered) and len(set(numbered)) == len(numbered)
            answer = client.post("/api/record", json={"token": tokens[persons[0]], "game": 1})
            assert answer.status_code == 200
            record = json.loads(answer.text)
            for person in people:
                assert leaks(person.frames, person.seat, record) == []
                assert all("hand" not in (f.get("view") or {}) or f["view"]["seat"] == person.seat
                           for f in person.frames)
            assert leaks(spectator.frames, None, record) == []
            assert all("hand" not in f["view"] and "legal" not in f["view"]
                       for f in spectator.frames if f.get("view"))
            # the moves told are the record's, every one since the spectator came (the
            # game starts with the last join, before any socket is open)
            told = [f["event"]["move"] for f in spectator.frames
                    if f["type"] == "event" and f["event"]["type"] == "moved"]
            moves = [m for hand in record["hands"] for m in hand["moves"]]
            already = len(spectator.frames[0]["view"]["moves"])
            assert [m.get("play") for m in told] == [m.get("play") for m in moves[already:]]
    path = tmp_path / "game.json"
    path.write_text(answer.text, encoding="utf-8")
    recorded, game = read_file(path)
    assert game.finished
    assert [recorded.players[s] for s in persons] == [f"P{s}" for s in persons]
    assert main(["replay", str(path)]) == 0


def test_a_finished_pool_game_keeps_its_chips_for_the_rematch_and_lists_its_record(tmp_path):
    with serve(tmp_path) as client:
        made = make_table(client, {"preset": "pool", "players": 3, "target": 25},
                          ["human", "human", "greedy"])
        tokens = [join(client, made["invite"], "Ana"), join(client, made["invite"], "Ben")]
        with connect(client, tokens[0]) as ana, connect(client, tokens[1]) as ben:
            play_out([ana, ben], [], random.Random(2))
            over = next(f["event"] for f in ana.frames
                        if f["type"] == "event" and f["event"]["type"] == "game_ended")
            refused = client.post("/api/record", json={"token": tokens[0], "game": 2})
            assert refused.status_code == 404
            ana.send("rematch")
            ana.until(lambda f: f["type"] == "status" and f["status"]["seats"][0]["rematch"])
            ben.send("rematch")
            frame = ana.until(lambda f: f["type"] == "event"
                              and f["event"]["type"] == "hand_dealt")
            assert frame["status"]["game"] == 2
            assert frame["status"]["carried"] == over["chips"]
            assert sum(over["chips"]) == 0 and any(over["chips"])
        listed = client.post("/api/games", json={"tokens": [tokens[1], "forged", 5]}).json()
        assert [(g["token"], g["game"], g["result"] is not None) for g in listed["games"]] \
            == [(0, 1, True), (0, 2, False)]
        assert listed["games"][0]["names"] == ["Ana", "Ben", "Greedy"]


def test_reconnecting_with_the_token_restores_the_seat_and_the_view_even_after_a_restart(
        tmp_path):
    with serve(tmp_path) as client:
        made = make_table(client, "draw", ["human", "greedy"])
        token = join(client, made["invite"], "Ana")
        with connect(client, token) as ana:
            play_out([ana], [], random.Random(3),
                     until=lambda c: c.view is not None and len(c.view["moves"]) >= 4
                     and c.my_turn())
            view, seq = ana.view, ana.seq
        # the same browser, with the last number it has: only what it missed (nothing)
        with connect(client, token, last=seq) as again:
            assert again.frames[-1]["type"] == "status" and again.seq == seq
        # with an older number: the frames it missed, in order
        with connect(client, token, last=seq - 2) as behind:
            behind.drain()
            assert [f["seq"] for f in behind.frames if f["type"] == "event"] == [seq - 1, seq]
            assert behind.view == view
        # another device with the token: the whole table
        with connect(client, token) as other:
            assert other.frames[0]["type"] == "state"
            assert other.view == view and other.seat == 0
            assert other.frames[0]["you"] == {"seat": 0, "name": "Ana"}
    with serve(tmp_path) as client:
        # started again on the same database: the same number, the same table
        with connect(client, token, last=seq) as again:
            assert again.frames[0]["type"] == "status" and again.seq == seq
        with connect(client, token, last=seq - 1) as behind:  # too old for a new server
            assert behind.frames[0]["type"] == "state" and behind.view == view
        with connect(client, token) as restarted:
            assert restarted.frames[0]["type"] == "state"
            assert restarted.view == view and restarted.seq == seq
            play_out([restarted], [], random.Random(4),
                     until=lambda c: c.view is not None
                     and len(c.view["moves"]) > len(view["moves"]))


def test_a_spectator_sees_the_public_table_and_may_not_act(tmp_path):
    with serve(tmp_path) as client:
        made = make_table(client, "draw", ["human", "greedy"])
        token = join(client, made["invite"], "Ana")
        with connect(client, token) as ana, connect(client, watch=made["watch"]) as watcher:
            assert watcher.seat is None and watcher.view is not None
            assert "hand" not in watcher.view and watcher.view["seat"] is None
            assert not tiles_in(watcher.frames[0]) & {_tile(t) for t in ana.view["hand"]}
            watcher.send("move", move={"seat": 0, "play": ana.view["hand"][0]})
            error = watcher.until(lambda f: f["type"] == "error")
            assert error["error"] == "a spectator only watches"
        info = client.post("/api/table", json={"watch": made["watch"]}).json()
        assert "links" not in info and info["status"]["seats"][0]["name"] == "Ana"


# -- hostile input -----------------------------------------------------------------------------


def settle(live: Any, seconds: float = 10.0) -> None:
    """Until the table has nothing left to make in the background (bots, forced moves,
    deals), which it makes after the move that caused them has been answered."""
    deadline = time.monotonic() + seconds
    while live.tasks or live.lock.locked():
        assert time.monotonic() < deadline, "the table is still busy"
        time.sleep(0.01)


def _one_error(socket: Client, send: Callable[[], object]) -> dict[str, Any]:
    before = len(socket.errors)
    send()
    frame = socket.until(lambda f: f["type"] == "error")
    socket.drain(0.1)
    assert len(socket.errors) == before + 1, socket.errors[before:]
    return frame


def test_hostile_frames_each_get_one_error_and_change_nothing(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="bones.server")
    with serve(tmp_path, rate=5.0, burst=20) as client:
        made = make_table(client, "block", ["human", "human"])
        ana_token = join(client, made["invite"], "Ana")
        ben_token = join(client, made["invite"], "Ben")
        live = round_of(client)
        with connect(client, ana_token) as ana, connect(client, ben_token) as ben:
            mover, waiter = (ana, ben) if ana.view["to_move"] == 0 else (ben, ana)
            seq, view = live.seq, mover.view
            held = next(f"{a}-{b}" for a in range(7) for b in range(a + 1)
                        if f"{a}-{b}" not in mover.view["hand"])
            mover_token = ana_token if mover is ana else ben_token
            session = mover.session
            hostile: dict[str, Callable[[], object]] = {
                "malformed": lambda: session.send_text("{not json"),
                "oversized": lambda: session.send_text(json.dumps(
                    {"type": "hint", "id": "big", "pad": "x" * 5000})),
                "too deep": lambda: session.send_text('{"type":"move","id":"d","move":'
                                                      '{"a":[[[[1]]]]}}'),
                "binary": lambda: session.send_bytes(b"\x00\x01"),
                "unknown type": lambda: mover.send("shuffle"),
                "no id": lambda: session.send_text('{"type":"next"}'),
                "extra field": lambda: mover.send("next", seat=1),
                "not a move": lambda: mover.send("move", move="6-6"),
                "illegal tile": lambda: mover.send("move", move={"seat": mover.seat,
                                                                 "play": held}),
                "another's seat": lambda: mover.send("move", move={"seat": waiter.seat,
                                                                   "play": held}),
                "out of turn": lambda: waiter.send("move", move={
                    "seat": waiter.seat, "play": waiter.view["hand"][0]}),
                "no hand to deal": lambda: mover.send("next"),
                "undo at a table of two": lambda: mover.send("undo"),
                "hint where hints are off": lambda: mover.send("hint"),
                "hello twice": lambda: mover.send("hello", token=ana_token),
            }
            for what, act in hostile.items():
                caplog.clear()
                socket = waiter if what == "out of turn" else mover
                frame = _one_error(socket, act)
                assert frame["error"] and "\n" not in frame["error"], what
                assert live.seq == seq, what
                lines = [r for r in caplog.records if r.name == "bones.server"]
                assert len(lines) == 1 and lines[0].exc_info is None, (what, lines)
                assert ana_token not in lines[0].getMessage()
            # a message replayed (its id seen before) is refused, even on another socket
            ident = mover.send("move", move=view["legal"][0])
            mover.until(lambda f: f["type"] == "event")
            settle(live)  # a pass the move forces comes after its event
            seq = live.seq
            replayed = json.dumps({"type": "move", "id": ident, "move": view["legal"][0]})
            frame = _one_error(mover, lambda: mover.session.send_text(replayed))
            assert "seen before" in frame["error"] and live.seq == seq
            with connect(client, mover_token) as twin:
                frame = _one_error(twin, lambda: twin.session.send_text(replayed))
                assert "seen before" in frame["error"] and live.seq == seq
            # a flood: one error frame, the rest dropped, nothing changed
            caplog.clear()
            for n in range(60):
                waiter.session.send_text(json.dumps({"type": "undo", "id": f"flood{n}"}))
            waiter.drain(0.3)
            flood = [e for e in waiter.errors if "too many messages" in e["error"]]
            assert len(flood) == 1 and live.seq == seq
        # forged and stale tokens, and no hello at all
        for token in ("A" * 43, ana_token[:-1], "x" * 5000):
            with client.websocket_connect("/ws") as session:
                socket = Client(session)
                socket.send("hello", token=token)
                assert socket.receive()["type"] == "error"
                assert socket.errors[0]["error"].startswith(
                    ("that seat token is not known here", "a frame may hold at most 4096 "))
        with client.websocket_connect("/ws") as session:
            socket = Client(session)
            socket.send("move", move={"seat": 0, "play": "6-6"})
            assert "say hello first" in socket.receive()["error"]
        assert live.seq == seq


def test_a_socket_from_another_origin_is_refused(tmp_path):
    with serve(tmp_path) as client:
        with pytest.raises((WebSocketDisconnect, WebSocketDenialResponse)), \
                client.websocket_connect("/ws", headers={"origin": "http://evil.example"}):
            pass
        with client.websocket_connect("/ws", headers={"origin": "http://testserver"}):
            pass


def test_a_name_is_text_everywhere_never_markup(tmp_path):
    with serve(tmp_path) as client:
        made = make_table(client, "block", ["human", "human"])
        token = join(client, made["invite"], HOSTILE_NAME)
        answer = client.post("/api/join", json={"invite": made["invite"],
                                                "name": HOSTILE_NAME.upper()})
        assert answer.status_code == 400 and "already has that name" in answer.json()["error"]
        other = join(client, made["invite"], "Ben")
        texts = []
        for path in ("/", "/table", "/games", "/static/js/table.js", "/static/js/dom.js",
                     "/static/js/lobby.js", "/static/js/games.js", "/static/js/api.js",
                     "/static/js/tiles.js", "/static/js/snake.js", "/static/js/board.js",
                     "/static/bones.css"):
            page = client.get(path)
            assert page.status_code == 200
            assert "script-src 'self'" in page.headers["content-security-policy"]
            assert "unsafe-inline" not in page.headers["content-security-policy"]
            texts.append(page.text)
            if path.endswith(".js"):
                assert "innerHTML" not in page.text and "insertAdjacentHTML" not in page.text
                assert "eval(" not in page.text
            if path in ("/", "/table", "/games"):
                # no inline script: every <script> names its file
                assert all('src="/static/js/' in tag
                           for tag in re.findall(r"<script[^>]*>", page.text))
                assert not re.search(r"\son[a-z]+=", page.text)
        info = client.post("/api/table", json={"invite": made["invite"]})
        texts.append(info.text)
        assert info.json()["status"]["seats"][0]["name"] == HOSTILE_NAME
        with connect(client, token) as mine, connect(client, other) as theirs, \
                connect(client, watch=made["watch"]) as watcher:
            mover = mine if mine.view["to_move"] == 0 else theirs
            mover.send("move", move=mover.view["legal"][0])
            for socket in (mine, theirs, watcher):
                socket.until(lambda f: f["type"] == "event")
                socket.drain()
                texts += socket.texts
            assert mine.frames[0]["you"]["name"] == HOSTILE_NAME
        for text in texts:
            assert "<script>alert" not in text and "alert(1)</" not in text
        assert any("\\u003cscript\\u003e" in text for text in texts)


# -- the lobby and the API ---------------------------------------------------------------------


def test_the_lobby_is_built_from_the_rules_catalog_and_a_bad_table_is_not_made(tmp_path):
    with serve(tmp_path) as client:
        catalog = client.get("/api/rules").json()
        assert catalog["catalog"] == everything_json()
        assert "human" not in catalog["levels"] and "greedy" in catalog["levels"]
        refusals = {
            "partnerships with 3": ({"preset": "block", "partnerships": True},
                                    ["human", "greedy", "greedy"],
                                    'rules: option "partnerships" needs exactly 4 players, '
                                    "not 3"),
            "an outside bot": ("block", ["human", "cmd:/bin/sh"], 'seats: "cmd:/bin/sh" is '
                               "not a seat"),
            "no person": ("block", ["greedy", "greedy"], "seats: a table needs at least one "
                          "person"),
            "too few seats": ({"preset": "block", "players": 3}, ["human", "greedy"],
                              "seats: 2 listed, but the rules have 3 players"),
            "unknown option": ({"preset": "block", "colour": "red"}, ["human", "greedy"],
                               'rules: option "colour" is not an option of the rules'),
        }
        for what, (rules, seats, message) in refusals.items():
            answer = client.post("/api/tables", json={"rules": rules, "seats": seats})
            assert answer.status_code == 400, what
            assert answer.json()["error"].startswith(message), (what, answer.json())
        for body in ({"rules": "block", "seats": ["human", "greedy"], "think": 0},
                     {"rules": "block", "seats": ["human", "greedy"], "timer": 2},
                     {"rules": "block", "seats": ["human", "greedy"], "hints": "yes"}):
            assert client.post("/api/tables", json=body).status_code == 400
        assert client.post("/api/tables", content=b"[" * 100).status_code == 400
        assert client.post("/api/tables", content=b"x" * 20000).status_code == 413
        engine = make_engine(settings(tmp_path).db_url)
        with engine.connect() as db:
            assert db.exec_driver_sql("select count(*) from tables").scalar() == 0
        engine.dispose()
        made = make_table(client, {"preset": "block", "players": 4, "partnerships": True},
                          ["human", "greedy", "human", "expert"], think=0.1, timer=30,
                          hints=True)
        assert made["table"]["sides"] == [[0, 2], [1, 3]]
        assert not made["table"]["practice"]
        info = client.post("/api/table", json={"invite": made["invite"]}).json()
        assert info["links"] == made["links"]
        assert [s["open"] for s in info["status"]["seats"]] == [True, False, True, False]
        assert client.post("/api/table", json={"invite": "A" * 43}).status_code == 404
        assert client.post("/api/join", json={"invite": made["invite"], "name": "Ana",
                                              "seat": 1}).status_code == 400
        assert client.post("/api/join", json={"invite": made["invite"],
                                              "name": "x" * 33}).status_code == 400


def test_hints_and_undo_where_the_table_allows_them(tmp_path):
    with serve(tmp_path) as client:
        made = make_table(client, "block", ["human", "greedy"], hints=True)
        assert made["table"]["practice"] and made["table"]["undo"]
        token = join(client, made["invite"], "Ana")
        with connect(client, token) as ana:
            play_out([ana], [], random.Random(5), until=lambda c: c.my_turn()
                     and any(m["seat"] == 0 for m in c.view["moves"]))
            ana.send("hint")
            hinted = ana.until(lambda f: f["type"] == "hint")
            assert hinted["move"] in ana.view["legal"] and hinted["why"]
            moves = len(ana.view["moves"])
            ana.send("undo")
            undone = ana.until(lambda f: f["type"] == "event")
            assert undone["event"]["type"] == "undone" and undone["event"]["seat"] == 0
            assert len(ana.view["moves"]) < moves and ana.my_turn()


def test_a_turn_timer_plays_for_an_absent_person_who_shows_as_away(tmp_path, monkeypatch):
    monkeypatch.setattr("bones.server.spec.TIMER", (1, 3600))
    with serve(tmp_path) as client:
        made = make_table(client, "block", ["human", "greedy"], timer=1)
        token = join(client, made["invite"], "Ana")
        with connect(client, token) as ana:
            ana.until(lambda f: f.get("status") is not None and f["status"]["turn"] is not None
                      and f["status"]["turn"]["seat"] == 0, seconds=10)
            assert ana.status["turn"]["seconds"] == 1
            frame = ana.until(lambda f: f["type"] == "event"
                              and f["event"]["type"] == "moved"
                              and f["event"]["move"]["seat"] == 0, seconds=10)
            assert frame["event"]["by"] == "played-for"
            assert frame["event"]["why"] == "the turn timer ran out"
            assert frame["status"]["seats"][0]["away"]
            ana.send("back")
            ana.until(lambda f: f["type"] == "status" and not f["status"]["seats"][0]["away"])


# -- the pieces ----------------------------------------------------------------------------------


def test_the_migrations_make_the_schema_the_store_writes(tmp_path):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate.upgrade(engine)
    migrate.upgrade(engine)  # a second start changes nothing
    assert migrate.current(engine) == migrate.head()
    with engine.connect() as db:
        assert compare_metadata(MigrationContext.configure(db), metadata) == []
    engine.dispose()


def test_frames_are_read_strictly_and_sent_escaped():
    assert read_frame('{"type":"next","id":"a-1"}').type == "next"
    assert depth('{"a":"[[[[\\"","b":[{"c":[]}]}') == 4
    for text, reason in [
        ("[]", "a frame is a JSON object"),
        ('{"type":"next","id":"a","type":"undo"}', "not JSON: an object names"),
        ('{"type":"next","id":"' + "a" * 65 + '"}', "every frame needs an id"),
        ('{"type":"hello","id":"a"}', "hello names either"),
        ('{"type":"hello","id":"a","token":"t","last":-1}', "last is"),
        ('{"type":"move","id":"a","move":NaN}', "not JSON"),
    ]:
        with pytest.raises(FrameError, match=re.escape(reason)):
            read_frame(text)
    assert dumps({"name": "<b>&é"}) == '{"name":"\\u003cb\\u003e\\u0026\\u00e9"}'
    bucket = Bucket(rate=1.0, burst=2)
    assert [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)] \
        == [True, True, False, True]


def test_the_web_page_names_every_frame_route_and_limit():
    text = (Path(__file__).resolve().parent.parent / "docs" / "web.md").read_text()
    for kind in [*FIELDS, "state", "event", "status", "hint", "error"]:
        assert f"`{kind}`" in text, kind
    for route in ("/api/rules", "/api/tables", "/api/table", "/api/join", "/api/games",
                  "/api/record", "/ws", "/table", "/games"):
        assert f"`{route}`" in text or f"{route}`" in text, route
    for name in ("tables", "seats", "games", "log"):
        assert f"`{name}`" in text


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the page's "
                    "modules outside a browser")
def test_bones_serve_says_in_one_line_what_it_lacks(tmp_path, monkeypatch, capsys):
    assert main(["serve", "--db", "no database at all"]) == 1
    assert capsys.readouterr().err == ("bones: --db: 'no database at all' is not a database "
                                       "URL (sqlite:///bones.db, postgresql://user@host/"
                                       "bones)\n")
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve", "--data", str(tmp_path / "data")]) == 1
    assert capsys.readouterr().err == ("bones: bones serve needs the web packages (uvicorn is "
                                       "missing): pip install 'bones[web]', or make serve\n")
    assert not (tmp_path / "data").exists()
    monkeypatch.delitem(sys.modules, "uvicorn")
    assert main(["serve", "--db", "postgresql+nodriver://nobody@127.0.0.1:1/bones"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("bones: cannot open the database (database postgresql+nodriver://"
                          "nobody@127.0.0.1:1/bones): ") and err.count("\n") == 1
