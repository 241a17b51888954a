"""The replay viewer of the web table (``/replay``, ``POST /api/replay``, ``POST
/api/review``), in process as ``test_server`` drives the server: a finished game replays
move by move exactly as the engine plays its record, an upload is checked as ``bones
replay`` checks a file, the review is ``bones.ai.review``'s, and a game still in play
shows nothing. One check runs the page in Chromium (``tests/browsers.py``).
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from sqlalchemy import func, select

import browsers
from bones.ai.review import REVIEW_NODES, mistake_text, review
from bones.cli.main import main
from bones.engine import game as games
from bones.engine.game import Game
from bones.engine.moves import Play
from bones.engine.state import apply, new_hand
from bones.record.reader import load, parse, read_file
from bones.record.writer import undealt
from bones.server import store
from bones.server.app import create_app
from bones.server.replay import (
    MAX_BODY,
    MAX_RECORD,
    WAITING,
    Busy,
    Viewer,
    node_limit,
    review_json,
    solves,
)
from bones.table.wire import layout_json
from test_server import connect, join, make_table, play_out, serve, settings
from test_server_process import free_port

pytestmark = pytest.mark.timeout(300)

RECORDS = Path(__file__).resolve().parent / "records"


def engine_steps(record_text: str) -> list[dict[str, Any]]:
    """Each hand of a record as the engine's checked path plays it, independently of the
    server: the deal, then after each move the board, every seat's tiles, the boneyard
    left and who is to move; the result and the scores after the hand."""
    record, _ = parse(load(record_text))
    game = games.new_game(record.rules)
    hands = []
    for hand in record.hands:
        game = games.start_hand(game, hand.deal, hand.boneyard, hand.leader)
        steps = []
        for move in hand.moves:
            game = games.play(game, move)
            state = game.hands[-1]
            steps.append({"layout": layout_json(state.layout),
                          "held": [[str(t) for t in h] for h in state.hands],
                          "boneyard_left": len(state.boneyard),
                          "to_move": None if state.is_over else state.to_move})
        hands.append({"deal": [[str(t) for t in h] for h in hand.deal], "steps": steps,
                      "moves": [m for m in json.loads(record_text)["hands"][len(hands)]
                                ["moves"]],
                      "scores": list(game.scores)})
    return hands


def assert_replays(answer: dict[str, Any], record_text: str) -> None:
    """The server's replay is the engine's, move by move."""
    expected = engine_steps(record_text)
    assert len(answer["hands"]) == len(expected)
    for got, want in zip(answer["hands"], expected, strict=True):
        assert got["deal"] == want["deal"]
        assert got["start"]["held"] == want["deal"]
        assert got["start"]["layout"]["first"] is None
        assert len(got["steps"]) == len(want["steps"])
        for number, (step, move) in enumerate(zip(got["steps"], want["moves"], strict=True)):
            assert {k: v for k, v in move.items() if v is not None and k != "end"} \
                == {k: v for k, v in step["move"].items() if k != "end"}, number
            assert {k: step[k] for k in ("layout", "held", "boneyard_left", "to_move")} \
                == want["steps"][number], (got["hand"], number + 1)
        assert got["scores"] == want["scores"]


def finished_game(client: Any, rng: random.Random) -> tuple[dict[str, Any], str]:
    """A person and a bot play a short game of Block to its end: the table and the seat
    token."""
    made = make_table(client, {"preset": "block", "target": 20}, ["human", "greedy"])
    token = join(client, made["invite"], "Ana")
    with connect(client, token) as ana, connect(client, watch=made["watch"]) as watcher:
        # in play: neither the seat nor a spectator may replay (or review) the game
        play_out([ana], [watcher], rng,
                 until=lambda c: c.view is not None and len(c.view["moves"]) >= 2)
        for who in ({"token": token}, {"watch": made["watch"]}):
            for route in ("/api/replay", "/api/review"):
                refused = client.post(route, json={**who, "game": 1, "hand": 1})
                assert refused.status_code == 404, refused.text
                assert "once it is over" in refused.json()["error"]
                assert "deal" not in refused.text
        play_out([ana], [watcher], rng)
    return made, token


def test_a_finished_game_replays_move_by_move_as_the_engine_plays_its_record(tmp_path):
    with serve(tmp_path) as client:
        made, token = finished_game(client, random.Random(5))
        text = client.post("/api/record", json={"token": token, "game": 1}).text
        answer = client.post("/api/replay", json={"token": token, "game": 1})
        assert answer.status_code == 200, answer.text
        replayed = answer.json()
        assert_replays(replayed, text)
        assert replayed["finished"] and replayed["table"]["names"] == ["Ana", "Greedy"]
        assert replayed["hands"][0]["boneyard"] == [
            str(t) for t in undealt(read_record_game(text).hands[0])]
        # a spectator of the table sees the same finished game; a forged token nothing
        watched = client.post("/api/replay", json={"watch": made["watch"], "game": 1})
        assert watched.json() == replayed
        for forged in ({"token": "x" * 43, "game": 1}, {"watch": made["invite"], "game": 1}):
            assert client.post("/api/replay", json=forged).status_code == 404
        assert client.post("/api/replay", json={"token": token, "game": 2}).status_code == 404
        # the upload of the same record is the same replay
        assert client.post("/api/replay", json={"record": text}).json() == replayed


def read_record_game(text: str) -> Game:
    return parse(load(text))[1]


def tampered(text: str) -> str:
    """The record with the first play of its last hand swapped for another seat's tile."""
    doc = json.loads(text)
    hand = doc["hands"][-1]
    first = next(m for m in hand["moves"] if "play" in m)
    other = next(t for s, tiles in enumerate(hand["deal"]) if s != first["seat"]
                 for t in tiles)
    first["play"] = other
    return json.dumps(doc)


def rows(tmp_path: Path) -> dict[str, int]:
    engine = store.make_engine(settings(tmp_path).db_url)
    try:
        with engine.connect() as db:
            return {t.name: db.execute(select(func.count()).select_from(t)).scalar_one()
                    for t in store.metadata.sorted_tables}
    finally:
        engine.dispose()


def test_an_upload_is_checked_as_bones_replay_checks_a_file_and_a_bad_one_changes_nothing(
        tmp_path, capsys):
    text = (RECORDS / "spinner_up_down.json").read_text(encoding="utf-8")
    with serve(tmp_path) as client:
        answer = client.post("/api/replay", json={"record": text})
        assert answer.status_code == 200, answer.text
        assert_replays(answer.json(), text)
        before = rows(tmp_path)
        bad = tampered(text)
        path = tmp_path / "bad.json"
        path.write_text(bad, encoding="utf-8")
        assert main(["replay", str(path)]) == 1
        said = capsys.readouterr().err
        assert said.startswith("bones: hand ") and said.count("\n") == 1
        for route in ("/api/replay", "/api/review"):
            refused = client.post(route, json={"record": bad, "hand": 1})
            assert refused.status_code == 400
            assert refused.json() == {"error": said.removeprefix("bones: ").rstrip("\n")}
        for body, reason in [
            ({"record": "{"}, "not JSON: "),
            ({"record": '{"format": "bones-record/0"}'}, 'not a record: it lacks "format"'),
            ({"record": {"format": "bones-record/1"}}, "record: the record file's text"),
            ({"record": text, "game": 1}, "name either a record or a stored game"),
            ({}, "no table has that link"),
        ]:
            refused = client.post("/api/replay", json=body)
            assert refused.status_code in (400, 404)
            assert refused.json()["error"].startswith(reason), refused.json()
        assert rows(tmp_path) == before


def test_a_record_past_its_limit_is_refused_before_it_is_read(tmp_path):
    text = (RECORDS / "spinner_up_down.json").read_text(encoding="utf-8")
    padded = text.rstrip().removesuffix("}") + ', "x-pad": "' + "a" * MAX_RECORD + '"}'
    with serve(tmp_path) as client:
        refused = client.post("/api/replay", json={"record": padded})
        assert refused.status_code == 413
        assert refused.json()["error"].startswith(f"a record to replay may hold at most "
                                                  f"{MAX_RECORD:,} bytes")
        huge = b'{"record": "' + b"\\n" * (MAX_BODY // 2 + 1) + b'"}'
        refused = client.post("/api/review", content=huge,
                              headers={"content-type": "application/json"})
        assert refused.status_code == 413
        # every other route keeps the API's own 16 KiB
        big = {"tokens": ["a" * 17000]}
        assert client.post("/api/games", json=big).status_code == 413
        # just under the limit is read (and checked) as any record
        fits = text.rstrip().removesuffix("}") + ', "x-pad": "' \
            + "a" * (MAX_RECORD - len(text.encode()) - 20) + '"}'
        assert client.post("/api/replay", json={"record": fits}).status_code == 200


def test_the_review_is_bones_ai_review_hand_by_hand(tmp_path):
    with serve(tmp_path) as client:
        _, token = finished_game(client, random.Random(6))
        text = client.post("/api/record", json={"token": token, "game": 1}).text
        game = read_record_game(text)
        scores = [0] * game.rules.sides
        found = 0
        for number, (hand, result) in enumerate(zip(game.hands, game.results, strict=True),
                                                start=1):
            answer = client.post("/api/review", json={"token": token, "game": 1,
                                                      "hand": number})
            assert answer.status_code == 200, answer.text
            got = answer.json()
            assert got["reviewed"] and got["nodes"] == REVIEW_NODES
            for seat, row in enumerate(got["seats"]):
                mistakes, skipped = review(hand, seat, tuple(scores))
                assert row["skipped"] == skipped
                assert [(m["move"], m["seat"], m["play"], m["best"], m["text"])
                        for m in row["mistakes"]] == [
                    (m.move_number, seat, str(m.played.tile), str(m.best.tile),
                     mistake_text(m)) for m in mistakes]
                # the move numbers are the replay's steps: that move is the seat's play
                for m in row["mistakes"]:
                    assert hand.moves[m["move"] - 1].seat == seat
                found += len(mistakes)
            scores = [s + p for s, p in zip(scores, result.points, strict=True)]
        assert found, "the seeded game should hold at least one costly play"
        again = client.post("/api/review", json={"record": text, "hand": 1})
        assert again.json()["seats"] == client.post("/api/review", json={
            "token": token, "game": 1, "hand": 1}).json()["seats"]
        for wrong in (0, len(game.hands) + 1, "1", True):
            refused = client.post("/api/review", json={"token": token, "game": 1,
                                                       "hand": wrong})
            assert refused.status_code == 400, refused.text


def test_a_review_is_held_to_its_budget():
    """A hand that could need more than the budget is judged with a smaller limit per
    solve, and one that would not fit the least limit is not judged at all: every one of
    its decisions is counted as not judged, none is guessed."""
    _, game = read_file(RECORDS / "spinner_up_down.json")
    number, hand = max(enumerate(game.hands, start=1), key=lambda h: solves(h[1]))
    needed = solves(hand)
    assert needed > 1
    assert node_limit(hand, needed * REVIEW_NODES) == REVIEW_NODES
    assert node_limit(hand, needed * 1000) == 1000
    starved = review_json(game, number, budget=needed)
    assert starved["nodes"] == 0
    assert all(not row["mistakes"] for row in starved["seats"])
    assert [row["skipped"] for row in starved["seats"]] == _choices(game, number)
    full = review_json(game, number)
    assert full["nodes"] == REVIEW_NODES
    assert sum(row["skipped"] for row in full["seats"]) < sum(_choices(game, number))


def _choices(game: Game, number: int) -> list[int]:
    """Per seat, its plays in hand ``number`` that had a choice (what a review judges)."""
    hand = game.hands[number - 1]
    state = new_hand(game.rules, hand.deal, undealt(hand), hand.leader, hand.opening)
    counts = [0] * game.rules.players
    for move in hand.moves:
        if isinstance(move, Play) and sum(
                1 for m in state.legal_moves() if isinstance(m, Play)) > 1:
            counts[move.seat] += 1
        state = apply(state, move)
    return counts


# -- the page in a browser ---------------------------------------------------------------------


@contextlib.contextmanager
def live_server(path: Path) -> Iterator[str]:
    """The server on a real port (uvicorn, in a thread) for a browser to open."""
    uvicorn = pytest.importorskip("uvicorn")
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(settings(path)), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "no server"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


def test_the_page_steps_through_a_game_with_the_arrow_keys_from_an_upload_or_my_games(
        tmp_path):
    browsers.need_browser()
    text = (RECORDS / "spinner_up_down.json").read_text(encoding="utf-8")
    record = json.loads(text)
    moves = record["hands"][0]["moves"]
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    with serve(tmp_path) as client:
        _, token = finished_game(client, random.Random(7))
    with live_server(tmp_path) as url, browsers.chromium() as browser:
        page = browser.new_page(viewport={"width": 375, "height": 800})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}/replay")
        page.set_input_files("#file", str(path))
        page.wait_for_selector("#viewer:not([hidden])", timeout=20000)
        assert "as dealt" in page.text_content("#live")
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        live = page.text_content("#live")
        assert f"move 3 of {len(moves)}: " in live
        current = page.text_content("#moves li[aria-current=step]")
        assert live.split(": ", 1)[1] == current + "."
        assert moves[2].get("play", moves[2].get("draw", "passes")) in current
        page.keyboard.press("ArrowLeft")
        assert f"move 2 of {len(moves)}" in page.text_content("#live")
        page.keyboard.press("End")
        assert f"move {len(moves)} of {len(moves)}" in page.text_content("#live")
        page.keyboard.press("Home")
        assert "as dealt" in page.text_content("#live")
        # every seat's tiles are open: as dealt, all of the deal is on the page
        shown = page.eval_on_selector_all(
            "#seats .held svg", "nodes => nodes.map(n => n.getAttribute('aria-label'))")
        assert sorted(shown) == sorted(t for hand in record["hands"][0]["deal"] for t in hand)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        # a game of this browser's, from "My games": its seat's token is found by key
        page.goto(f"{url}/games")
        page.evaluate("token => localStorage.setItem('bones-seats', JSON.stringify("
                      "[{token, key: 'k1', seat: 0, name: 'Ana'}]))", token)
        page.reload()
        page.click("a[href^='/replay#at=']")
        page.wait_for_selector("#viewer:not([hidden])", timeout=20000)
        assert page.text_content("#seats li span") == "Ana"
        page.keyboard.press("ArrowRight")
        assert "Hand 1, move 1 of " in page.text_content("#live")
        page.wait_for_selector("#review h4", timeout=60000)  # the review, filled in
        assert not errors


def test_a_name_in_a_record_comes_back_as_text_and_the_docs_name_the_routes(tmp_path):
    doc = json.loads((RECORDS / "spinner_up_down.json").read_text(encoding="utf-8"))
    doc["players"][0] = "<script>alert(1)</script>"
    with serve(tmp_path) as client:
        answer = client.post("/api/replay", json={"record": json.dumps(doc)})
        assert answer.status_code == 200
        assert "<script>" not in answer.text and "\\u003cscript\\u003e" in answer.text
        assert answer.json()["table"]["names"][0] == doc["players"][0]
        for path in ("/replay", "/static/js/replay.js", "/static/replay.css"):
            page = client.get(path)
            assert page.status_code == 200
            assert "unsafe-inline" not in page.headers["content-security-policy"]
            assert "innerHTML" not in page.text and "eval(" not in page.text
            assert not re.search(r"\son[a-z]+=|<script>|style=", page.text), path
    text = (Path(__file__).resolve().parent.parent / "docs" / "web.md").read_text()
    for name in ("`GET /replay`", "`POST /api/replay`", "`POST /api/review`", "1 MiB",
                 "2,400,000", "503"):
        assert name in text, name


def test_a_viewer_thread_refuses_a_request_past_its_queue_instead_of_holding_it():
    """With one review solving and ``WAITING`` more waiting for the thread, the next is
    refused at once (``Busy``: the route's 503), while replays, on their own thread, go on."""

    async def scenario() -> None:
        viewer = Viewer()
        release = threading.Event()
        async with anyio.create_task_group() as group:
            for _ in range(WAITING + 1):
                group.start_soon(viewer.run, viewer.reviewing, release.wait)
            with anyio.fail_after(30):
                while viewer.reviewing.statistics().tasks_waiting < WAITING:
                    await anyio.sleep(0.01)
            try:
                with pytest.raises(Busy):
                    await viewer.run(viewer.reviewing, release.wait)
                assert await viewer.run(viewer.reading, len, "free") == 4
            finally:
                release.set()

    anyio.run(scenario)
