"""Fair deals at the web table (docs/web.md, docs/fair-deals.md): a game at ``bones serve``
is dealt by the fair derivation from a seed committed to before the first deal, its record
passes ``bones verify``, and the secret seed is found in no frame any client received, no
line of the server's log and no row (nor byte) of the database before the game is over.

In the browser (Playwright's Chromium, where installed): the page's JavaScript passes the
test vectors of docs/fair-deals.md, the "check the deals" page agrees with ``bones verify``
on a record played at the table and on the same record tampered with, and the join form
shows the commitment and sends the person's seed phrase. The browser tests are skipped,
saying why, where Chromium or Playwright is missing, unless required (``tests/browsers.py``).

The server runs as a real process (``bones serve``, as test_server_process starts it), so
its log is what an operator would read; every wait is bounded.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import json
import os
import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

import browsers
import test_server as web
from bones.engine.errors import BonesError
from bones.engine.rules import rules_from_json
from bones.server import fairplay
from bones.server.app import STATIC
from bones.server.fairplay import read_phrase, server_seed
from bones.table.fair import commitment, fair_deal, message
from bones.table.wire import rules_json
from test_fair import DEALS, _resolved, _variants, fenced, section, seeds_of
from test_server_process import post, serving, source_env

pytestmark = pytest.mark.timeout(240)

BONES = [sys.executable, "-c", "import sys; from bones.cli.main import main; sys.exit(main())"]
#: A short game: a person against a bot, Block to 20 points (a few hands).
RULES = {"preset": "block", "target": 20}
PHRASE = "Ana's lucky words ✓"


# -- playing at the table over real sockets ----------------------------------------------------


@dataclass
class Socket:
    """One client: the WebSocket, and every frame it received, as sent."""

    ws: ClientConnection
    texts: list[str] = field(default_factory=list)

    def receive(self, seconds: float) -> dict[str, Any] | None:
        try:
            text = self.ws.recv(timeout=seconds)
        except TimeoutError:
            return None
        assert isinstance(text, str)
        self.texts.append(text)
        frame: dict[str, Any] = json.loads(text)
        assert frame["type"] != "error", frame
        return frame


@contextlib.contextmanager
def socket(port: int, **hello: str) -> Iterator[Socket]:
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, close_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello", "id": f"h{random.getrandbits(40):x}", **hello}))
        yield Socket(ws)


def snapshot(db: Path) -> tuple[bool, list[tuple[str, str, str]], bytes]:
    """The database as it stands: whether any game is over, every value of every row (as
    text, named by its table and column), and the raw bytes of its files (the WAL too)."""
    with contextlib.closing(sqlite3.connect(db, timeout=30)) as con:
        con.execute("BEGIN")
        over = con.execute("SELECT count(*) FROM games WHERE ended IS NOT NULL").fetchone()[0]
        values = []
        for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'"):
            cursor = con.execute(f'SELECT * FROM "{name}"')
            columns = [d[0] for d in cursor.description]
            for row in cursor:
                values += [(name, c, repr(v)) for c, v in zip(columns, row, strict=True)]
        con.rollback()
    raw = b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))
    return over > 0, values, raw


@dataclass
class Played:
    """A whole game at a table: what each client received, the database as it stood after
    each hand, the table's links and the person's seat token."""

    made: dict[str, Any]
    token: str
    sockets: list[Socket]
    snapshots: list[tuple[bool, list[tuple[str, str, str]], bytes]]
    record: str


def play_game(port: int, db: Path, rng: random.Random) -> Played:
    """A person (seed phrase ``PHRASE``) against a greedy bot, with a spectator watching,
    played to the end with random legal plays; the database is read after every hand."""
    made = post(port, "/api/tables", {"rules": RULES, "seats": ["human", "greedy"]})
    before = post(port, "/api/table", {"invite": made["invite"]})["status"]["fair"]
    assert before["game"] == 1 and before["player_seeds"] is None
    token = post(port, "/api/join", {"invite": made["invite"], "name": "Ana",
                                     "seed_phrase": PHRASE})["token"]
    snapshots = [snapshot(db)]
    with socket(port, token=token) as me, socket(port, watch=made["watch"]) as watcher:
        state = me.receive(10)
        assert state is not None and state["type"] == "state"
        fair = state["status"]["fair"]
        # committed before any deal, to the seed the table showed before the join
        assert fair["commitment"] == before["commitment"]
        assert fair["player_seeds"] == [PHRASE, ""] and "server_seed" not in fair
        view, status, seq = state["view"], state["status"], state["seq"]
        asked = nexted = -1
        deadline = time.monotonic() + 120
        sent = 0.0

        def send(frame: dict[str, Any]) -> None:
            # within the server's 5 messages a second
            nonlocal sent
            time.sleep(max(0.0, sent + 0.21 - time.monotonic()))
            sent = time.monotonic()
            me.ws.send(json.dumps(frame))

        while status["phase"] != "over":
            assert time.monotonic() < deadline, "the game did not end in time"
            if status["phase"] == "between" and nexted < status["hand"]:
                nexted = status["hand"]
                snapshots.append(snapshot(db))
                send({"type": "next", "id": f"n{seq}"})
            if status["phase"] == "playing" and view and view["to_move"] == 0 \
                    and view["legal"] and asked < seq:
                asked = seq
                send({"type": "move", "id": f"m{seq}", "move": rng.choice(view["legal"])})
            frame = me.receive(20)
            assert frame is not None, "no frame within 20 s"
            while watcher.receive(0.001) is not None:
                pass
            seq = max(seq, frame["seq"])
            view = frame.get("view") or view
            status = frame.get("status") or status
        while watcher.receive(0.5) is not None or me.receive(0.1) is not None:
            pass
        sockets = [me, watcher]
    snapshots.append(snapshot(db))
    record = post_text(port, "/api/record", {"token": token, "game": 1})
    return Played(made, token, sockets, snapshots, record)


def post_text(port: int, path: str, body: dict[str, Any]) -> str:
    import urllib.request

    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                     data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return str(answer.read().decode("utf-8"))


def forms(secret: bytes) -> list[str]:
    """The ways a secret of bytes could be written: hexadecimal either case, base64 and
    its URL-safe form (padded or not)."""
    b64, url = base64.b64encode(secret).decode(), base64.urlsafe_b64encode(secret).decode()
    return [secret.hex(), secret.hex().upper(), b64, b64.rstrip("="), url, url.rstrip("=")]


def holds(text: str | bytes, secret: bytes) -> bool:
    if isinstance(text, bytes):
        return secret in text or any(f.encode() in text for f in forms(secret))
    return any(f in text for f in forms(secret))


def verify(*paths: Path) -> list[tuple[int, str, str]]:
    """``bones verify`` on each file, each its own process (run side by side): the exit
    status, standard output and standard error of each."""
    running = [subprocess.Popen([*BONES, "verify", str(path)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=source_env())
               for path in paths]
    done = []
    for process in running:
        out, err = process.communicate(timeout=60)
        done.append((process.returncode, out, err))
    return done


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Played, Path, Path, int]]:
    """One server, and one whole fair game played at it (shared by the tests below)."""
    tmp = tmp_path_factory.mktemp("web-fair")
    db, log = tmp / "bones.db", tmp / "serve.log"
    with serving(db, log) as (_, port):
        game = play_game(port, db, random.Random(27))
        yield game, tmp, log, port


# -- the table -------------------------------------------------------------------------------


def test_a_web_game_is_dealt_fair_and_its_record_passes_bones_verify(played):
    game, tmp, _, _ = played
    record = json.loads(game.record)
    fair = record["x-fair"]
    assert fair["player_seeds"] == [PHRASE, ""] and fair["game"] == 1
    assert commitment(bytes.fromhex(fair["server_seed"])) == fair["commitment"]
    assert "seed" not in record  # the deals come from x-fair, not from a replay seed
    # the seed is the one the key file and the table's salt derive
    key = bytes.fromhex((tmp / "fair.key").read_text().strip())
    with contextlib.closing(sqlite3.connect(tmp / "bones.db")) as con:
        spec = json.loads(con.execute("SELECT spec FROM tables").fetchone()[0])
    assert server_seed(key, spec["fair"]["salt"], 1).hex() == fair["server_seed"]
    # every client was told it at the end, in the status of the game's last frames
    shown = [json.loads(t)["status"]["fair"] for t in game.sockets[1].texts
             if "status" in json.loads(t)]
    assert shown[-1]["server_seed"] == fair["server_seed"]
    assert shown[-1]["next_commitment"] == commitment(server_seed(key, spec["fair"]["salt"], 2))
    path = tmp / "game.json"
    path.write_text(game.record, encoding="utf-8")
    [(status, out, err)] = verify(path)
    assert status == 0, err
    assert out.splitlines()[-1].startswith("verified: ")
    assert len(record["hands"]) >= 1


def test_the_seed_is_in_no_frame_log_line_or_database_row_before_the_game_ends(played):
    game, tmp, log, _ = played
    seed = bytes.fromhex(json.loads(game.record)["x-fair"]["server_seed"])
    key = bytes.fromhex((tmp / "fair.key").read_text().strip())
    assert holds(game.record, seed)  # the searches can find it
    for client in game.sockets:
        phases = [(json.loads(t).get("status") or {}).get("phase") for t in client.texts]
        end = phases.index("over")
        assert not any(holds(t, seed) for t in client.texts[:end]), "a frame before the end"
        assert any(holds(t, seed) for t in client.texts[end:]), "the end reveals it"
        assert not any(holds(t, key) for t in client.texts)
    text = log.read_text(encoding="utf-8", errors="replace")
    assert not holds(text, seed) and not holds(text, key)
    befores = [s for s in game.snapshots if not s[0]]
    # before the first deal, and after each hand but the last (a game may be one hand long)
    assert len(befores) == len(json.loads(game.record)["hands"])
    for _, values, raw in befores:
        assert [v for v in values if holds(v[2], seed)] == []
        assert not holds(raw, seed)
    for _, values, raw in game.snapshots:
        assert [v for v in values if holds(v[2], key)] == [] and not holds(raw, key)
    over, values, _ = game.snapshots[-1]
    assert over and {(t, c) for t, c, v in values if holds(v, seed)} == {("games", "record")}


def test_a_seed_phrase_that_cannot_be_is_refused_in_one_line():
    assert read_phrase(None) == "" and read_phrase(" as given ") == " as given "
    for bad, words in [(7, "as text"), ("x" * 101, "at most 100"), ("a\nb", "printable"),
                       ("\ud800", "printable")]:
        with pytest.raises(BonesError, match=words):
            read_phrase(bad)


def test_the_pages_javascript_is_the_docs_derivation():
    (code,) = fenced(section("In JavaScript"), "js")
    page = (STATIC / "js" / "fair.js").read_text(encoding="utf-8")
    lines = page.splitlines(keepends=True)
    body = "".join(lines[next(i for i, line in enumerate(lines) if not line.startswith("//")
                              and line.strip()):])
    assert body == code


# -- in the browser --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tab(played: Any) -> Iterator[Any]:
    with browsers.chromium() as chromium:
        tab = chromium.new_context().new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda e: errors.append(str(e)))
        tab.on("console", lambda m: errors.append(m.text) if m.type == "error"
               and not m.text.startswith("Failed to load resource") else None)
        # every file the pages ask for is there (a browser's own favicon.ico aside)
        tab.on("response", lambda r: errors.append(f"{r.status} {r.url}")
               if r.status >= 400 and not r.url.endswith("/favicon.ico") else None)
        tab.errors = errors
        yield tab


def open_verify(tab: Any, port: int, fragment: str = "") -> None:
    tab.goto("about:blank")  # a page loaded afresh, not the last one's new fragment
    tab.goto(f"http://127.0.0.1:{port}/verify{fragment}")
    tab.wait_for_selector("#load-form")


def test_the_browser_deals_the_docs_test_vectors(tab, played):
    _, _, _, port = played
    open_verify(tab, port)
    cases = [{**v, "rules": _resolved(rules_from_json(v["rules"]))} for v in DEALS]
    stream = next(v for v in [json.loads(b) for b in fenced(section("Test vectors"), "json")]
                  if v["vector"] == "stream")
    got = tab.evaluate("""async ([cases, stream]) => {
      const { fairDeal, commitment, message } = await import("/static/js/fair.js");
      const hex = (s) => Uint8Array.from(s.match(/../g).map((b) => parseInt(b, 16)));
      const out = [];
      for (const c of cases) {
        const seed = hex(c.server_seed);
        out.push({ ...(await fairDeal(c.rules, seed, c.player_seeds, c.game, c.hand)),
                   commitment: await commitment(seed) });
      }
      const data = message(stream.purpose, stream.game, stream.hand, stream.attempt,
                           stream.player_seeds);
      const toHex = (b) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
      const key = await crypto.subtle.importKey("raw", hex(stream.server_seed),
        { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      const block = new Uint8Array(await crypto.subtle.sign("HMAC", key,
        new Uint8Array([...data, 0, 0, 0, 0])));
      return { out, message: toHex(data), block: toHex(block) };
    }""", [cases, stream])
    assert got["message"] == stream["message"] and got["block"] == stream["block_0"]
    for vector, dealt in zip(DEALS, got["out"], strict=True):
        assert dealt["commitment"] == vector["commitment"], vector["vector"]
        assert dealt["deal"] == vector["deal"], vector["vector"]
        assert dealt["boneyard"] == vector["boneyard"], vector["vector"]
        assert dealt["lots"] == vector["lots"], vector["vector"]
        assert dealt["attempts"] == vector["attempts"], vector["vector"]
        python = fair_deal(rules_from_json(vector["rules"]), seeds_of(vector), vector["hand"])
        assert dealt["deal"] == [[str(t) for t in h] for h in python.deal]
    assert message("deal", 1, 1, 0, ["", ""]).hex() == stream["message"]
    # the page resolves a record's rules as the engine does
    variants = [rules_json(r) for r in _variants()]
    resolved = tab.evaluate("""async (variants) => {
      const { resolveRules } = await import("/static/js/verify.js");
      const catalog = (await (await fetch("/api/rules")).json()).catalog;
      return variants.map((r) => resolveRules(r, r.players, catalog));
    }""", variants)
    assert resolved == [_resolved(r) for r in _variants()]
    assert tab.errors == []


def check_in_page(tab: Any, port: int, path: Path) -> dict[str, Any]:
    """The check view's verdict on the record at ``path``, chosen as a file."""
    open_verify(tab, port)
    tab.set_input_files("#record-file", str(path))
    tab.click("#check")
    tab.wait_for_selector("#result:not([hidden])")
    box = tab.locator("#result")
    return {"ok": box.get_attribute("data-ok") == "true",
            "hand": box.get_attribute("data-hand") or None,
            "lines": tab.locator("#lines li").all_inner_texts(),
            "command": tab.inner_text("#command")}


def test_the_check_view_agrees_with_bones_verify_and_both_refuse_a_tampered_record(
        tab, played, tmp_path):
    game, _, _, port = played
    good = tmp_path / "bones-table1-game1.json"
    good.write_text(game.record, encoding="utf-8")
    [(status, out, err)] = verify(good)
    assert status == 0, err
    shown = check_in_page(tab, port, good)
    assert shown["ok"] and shown["command"] == f"bones verify {good.name}"
    printed = out.splitlines()
    hands = len(json.loads(game.record)["hands"])
    assert shown["lines"][:-1] == printed[:1 + hands]
    assert shown["lines"][-1] == printed[-1]

    record = json.loads(game.record)
    last = len(record["hands"])
    tile = copy.deepcopy(record)  # a tile of the last hand's deal swapped with the boneyard's
    dealt = tile["hands"][-1]
    dealt["deal"][1][0], dealt["boneyard"][0] = dealt["boneyard"][0], dealt["deal"][1][0]
    seed = copy.deepcopy(record)  # one bit of the seed, the commitment made to match it
    flipped = bytearray(bytes.fromhex(seed["x-fair"]["server_seed"]))
    flipped[5] ^= 0x10
    seed["x-fair"]["server_seed"] = flipped.hex()
    seed["x-fair"]["commitment"] = commitment(bytes(flipped))
    bare = copy.deepcopy(record)  # one bit of the seed alone: the commitment refuses it
    bare["x-fair"]["server_seed"] = flipped.hex()
    cases = [("tile", tile, last), ("seed", seed, 1), ("bare", bare, None)]
    for name, changed, _ in cases:
        (tmp_path / f"{name}.json").write_text(json.dumps(changed), encoding="utf-8")
    said_all = verify(*(tmp_path / f"{name}.json" for name, _, _ in cases))
    for (name, _, hand), (status, out, err) in zip(cases, said_all, strict=True):
        path = tmp_path / f"{name}.json"
        assert status == 1, (name, out)
        said = err.strip().removeprefix("bones: ")
        shown = check_in_page(tab, port, path)
        assert not shown["ok"], name
        assert shown["lines"][-1] == said, name
        assert shown["hand"] == (str(hand) if hand is not None else None), name
        if hand is not None:
            assert said.startswith(f"hand {hand}: ")
    assert tab.errors == []


def test_the_check_view_opens_a_finished_game_from_its_link(tab, played):
    game, _, _, port = played
    seed = json.loads(game.record)["x-fair"]["server_seed"]
    tab.goto("about:blank")
    tab.goto(f"http://127.0.0.1:{port}/table#watch={game.made['watch']}")
    tab.wait_for_selector("#fair-seed")  # the table page shows the seed once it is over
    assert tab.inner_text("#fair-seed") == seed
    link = tab.get_attribute("#fair-check", "href")
    assert link == f"/verify#watch={game.made['watch']}&game=1"
    open_verify(tab, port, link.removeprefix("/verify"))
    tab.wait_for_selector("#result:not([hidden])")
    assert tab.locator("#result").get_attribute("data-ok") == "true"
    assert tab.inner_text("#command") == "bones verify bones-table1-game1.json"
    assert tab.errors == []


def test_the_join_form_shows_the_commitment_and_sends_the_seed_phrase(tab, played):
    _, _, _, port = played
    made = post(port, "/api/tables", {"rules": RULES, "seats": ["human", "greedy"]})
    promised = post(port, "/api/table", {"invite": made["invite"]})["status"]["fair"]
    tab.goto(f"http://127.0.0.1:{port}/table#join={made['invite']}")
    tab.wait_for_selector("#join-commitment")
    assert tab.inner_text("#join-commitment") == promised["commitment"]
    offered = tab.input_value("#join-phrase")
    assert len(offered) >= 16  # a random one, to keep or to change
    tab.fill("#join-name", "Bea")
    tab.fill("#join-phrase", "Bea's own words")
    tab.click("#join-form button[type=submit]")
    tab.wait_for_selector("#fair-commitment")
    assert tab.inner_text("#fair-commitment") == promised["commitment"]
    tab.wait_for_function(
        "document.getElementById('fair-lines').textContent.includes(\"Bea's own words\")")
    assert tab.errors == []


# -- a restart -------------------------------------------------------------------------------


def test_a_restarted_server_deals_on_from_its_key_and_one_that_lost_it_says_so(
        tmp_path, caplog):
    with web.serve(tmp_path) as client:
        made = web.make_table(client, "draw", ["human", "greedy"])
        token = web.join(client, made["invite"], "Ana")
        with web.connect(client, token) as ana:
            promised = ana.status["fair"]["commitment"]
    key = tmp_path / fairplay.KEY_FILE
    assert key.stat().st_mode & 0o077 == 0  # the server's user only
    fairplay._keys.clear()  # as a new process would start
    with web.serve(tmp_path) as client, web.connect(client, token) as ana:
        assert ana.frames[0]["type"] == "state"
        assert ana.status["fair"]["commitment"] == promised
    key.write_text(os.urandom(32).hex(), encoding="ascii")  # the key file lost, a new one
    fairplay._keys.clear()
    with caplog.at_level("ERROR", logger="bones.server"), web.serve(tmp_path) as client:
        answer = client.post("/api/table", json={"invite": made["invite"]})
        assert answer.status_code == 503
    assert "fair.key lost or replaced" in caplog.text and promised not in caplog.text
