"""The table page's line of play (``static/js/snake.js``), run in Chromium on long lines of
every arm, with and without a spinner, at a phone's width and a desktop's: no two tiles
overlap, every tile lies inside the board, every tile on the table is drawn once, and the
halves that touch show the same number all the way to each open end.

The module is pure geometry, so the test loads it into a blank page (served from the
package's static folder by Playwright's router, no server) and asks it where each tile lies.
Where there is no browser the test is skipped, saying why, unless browser tests are
required there, as in CI (``tests/browsers.py``).
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import browsers
from bones.ai.levels import make_bot
from bones.engine.game import new_game, play_unchecked, start_hand
from bones.engine.rules import PRESETS
from bones.record.writer import undealt
from bones.table.seats import Seating
from bones.table.table import Table
from bones.table.wire import layout_json

STATIC = Path(__file__).resolve().parents[1] / "src" / "bones" / "server" / "static"
ORIGIN = "http://bones.test"
#: the board's width on a 375 px phone (the page's and the board's padding taken off), a
#: small tablet's and a desktop's
WIDTHS = (343, 600, 1070)
EPS = 0.01


def run_in_chromium(script: str, arg: Any) -> Any:
    """``script`` (an async arrow function of ``arg``) run in a blank page that can import
    ``/static/js/...``."""

    def serve(route: Any) -> None:
        name = route.request.url.removeprefix(ORIGIN)
        if name == "/":
            route.fulfill(status=200, content_type="text/html", body="<!doctype html><p>test")
            return
        file = (STATIC / name.removeprefix("/static/")).resolve()
        if not name.startswith("/static/") or STATIC not in file.parents or not file.is_file():
            route.fulfill(status=404, body="")
            return
        route.fulfill(status=200, content_type="text/javascript", body=file.read_text())

    with browsers.chromium() as browser:
        page = browser.new_page()
        page.route(f"{ORIGIN}/**", serve)
        page.goto(f"{ORIGIN}/")
        return page.evaluate(script, arg)


# -- layouts ---------------------------------------------------------------------------------


def links(start: int, count: int, rng: random.Random, top: int, double_at: int | None = None,
          doubles: float = 0.25) -> list[list[int]]:
    """``count`` tiles going out from ``start``, each ``[touching, open]``; some doubles, and
    one at ``double_at`` if asked."""
    out = []
    near = start
    for i in range(count):
        far = near if i == double_at or rng.random() < doubles else rng.randint(0, top)
        out.append([near, far])
        near = far
    return out


def arm(tiles: list[list[int]], start: int) -> dict[str, Any]:
    return {"open": tiles[-1][1] if tiles else start, "tiles": tiles}


def made_up_layouts(seed: int) -> list[dict[str, Any]]:
    """Long lines of every arm and every shape: no spinner (the lead a double or not), the
    spinner as the lead, and the spinner laid on the left or the right arm. The numbers
    follow on as on a table; which tiles they are does not matter to where they lie."""
    rng = random.Random(seed)
    top = 12
    out = []
    for length in (0, 1, 3, 8, 15, 30):
        other = rng.randint(0, 30)
        for shape in ("plain", "plain-double", "spinner", "spinner-left", "spinner-right"):
            high = rng.randint(0, top)
            low = high if shape != "plain" else rng.randint(0, high)
            if shape == "plain" and low == high:
                low = max(0, high - 1)
            first = f"{high}-{low}"
            sides = [length, other] if rng.random() < 0.5 else [other, length]
            if shape in ("plain", "plain-double"):
                left, right = links(high, sides[0], rng, top), links(low, sides[1], rng, top)
                out.append({"first": first, "arms": {"left": arm(left, high),
                                                     "right": arm(right, low)}, "spinner": None})
                continue
            if shape == "spinner":
                left = links(high, max(1, sides[0]), rng, top)
                right = links(low, max(1, sides[1]), rng, top)
                up = links(high, length, rng, top)
                down = links(high, rng.randint(0, 30), rng, top)
                out.append({"first": first, "arms": {
                    "left": arm(left, high), "right": arm(right, low), "up": arm(up, high),
                    "down": arm(down, high)}, "spinner": {"tile": first, "at": None,
                                                          "waiting": []}})
                continue
            # a spinner laid on a line arm, `index` tiles out, with the arm going on past it
            side = "left" if shape == "spinner-left" else "right"
            index = rng.randint(0, 6)
            start = high if side == "left" else low
            own = links(start, index + 1 + max(1, sides[0]), rng, top, double_at=index)
            spin = own[index][0]
            other_start = low if side == "left" else high
            rest = links(other_start, sides[1], rng, top)
            up = links(spin, length, rng, top)
            down = links(spin, rng.randint(0, 30), rng, top)
            arms = {side: arm(own, start), ("right" if side == "left" else "left"):
                    arm(rest, other_start), "up": arm(up, spin), "down": arm(down, spin)}
            out.append({"first": first, "arms": arms, "spinner": {
                "tile": f"{spin}-{spin}", "at": {"arm": side, "index": index}, "waiting": []}})
    return out


def played_layouts() -> list[dict[str, Any]]:
    """Every layout whole hands went through, with a spinner and without."""
    layouts = []
    for seed, spinner in itertools.product(range(3), ("first-double", "none")):
        rules = PRESETS["draw"].replace(players=3, spinner=spinner)
        table = Table(rules, Seating(("greedy",) * 3, ("A", "B", "C")), random.Random(seed),
                      bot=lambda seat: make_bot("greedy", random.Random(seat)))
        table.deal()
        table.advance()
        state = table.game.hands[-1]
        replayed = start_hand(new_game(rules), state.deal, undealt(state), state.leader)
        for move in state.moves:
            replayed = play_unchecked(replayed, move)
            layout = replayed.hands[-1].layout
            if layout.first is not None:
                layouts.append(layout_json(layout))
    return layouts


# -- checks ----------------------------------------------------------------------------------


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"]) > EPS
            and min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"]) > EPS)


def halves(tile: dict[str, Any]) -> list[tuple[float, float, float, int]]:
    """A placed tile's two halves, each as a square (x, y, side) and its number."""
    x, y, w, h = tile["x"], tile["y"], tile["w"], tile["h"]
    if w > h:
        return [(x, y, h, tile["a"]), (x + h, y, h, tile["b"])]
    return [(x, y, w, tile["a"]), (x, y + w, w, tile["b"])]


def facing(p: tuple[float, float, float, int], q: tuple[float, float, float, int],
           gap: float) -> bool:
    """Two halves side by side, edge to edge across no more than the gap between tiles."""
    (px, py, ps, _), (qx, qy, qs, _) = p, q
    along_x = min(px + ps, qx + qs) - max(px, qx)
    along_y = min(py + ps, qy + qs) - max(py, qy)
    return (along_x > EPS and -gap - EPS <= along_y <= EPS) or \
        (along_y > EPS and -gap - EPS <= along_x <= EPS)


def check(layout: dict[str, Any], board: dict[str, Any]) -> None:
    width, height, gap = board["width"], board["height"], board["gap"]
    tiles, ends = board["tiles"], board["ends"]
    where = json.dumps(layout)
    on_table = 1 + sum(len(a["tiles"]) for a in layout["arms"].values())
    assert len(tiles) == on_table, where
    assert len({(t["arm"], t["index"]) for t in tiles}) == on_table, where
    assert set(ends) == set(layout["arms"]), where
    boxes = tiles + list(ends.values())
    for t in boxes:
        assert t["x"] >= -EPS and t["x"] + t["w"] <= width + EPS, (where, width, t)
        assert t["y"] >= -EPS and t["y"] + t["h"] <= height + EPS, (where, t)
    boxes.sort(key=lambda t: t["x"])  # each box against those starting before it ends
    for i, s in enumerate(boxes):
        for t in boxes[i + 1:]:
            if t["x"] >= s["x"] + s["w"]:
                break
            assert not overlap(s, t), (where, width, s, t)
    middle = tiles[0]
    for run, end in (("W", "left"), ("E", "right"), ("N", "up"), ("S", "down")):
        line = [middle, *(t for t in tiles if t["run"] == run)]
        if end not in layout["arms"]:
            assert len(line) == 1, where
            continue
        outer = None
        for before, after in itertools.pairwise(line):
            ours, theirs = halves(before), halves(after)
            meeting = [(i, j) for i, j in itertools.product(range(2), repeat=2)
                       if facing(ours[i], theirs[j], gap)]
            assert meeting, (where, width, before, after)
            assert all(ours[i][3] == theirs[j][3] for i, j in meeting), (where, width, before,
                                                                          after)
            touching = {j for _, j in meeting}
            outer = [theirs[j] for j in range(2) if j not in touching or after["a"] == after["b"]]
        if outer is not None:
            assert {q[3] for q in outer} == {layout["arms"][end]["open"]}, (where, run)


def test_the_line_of_play_turns_at_the_edges_with_no_tile_overlapping_or_off_the_board():
    layouts = made_up_layouts(1) + made_up_layouts(2) + played_layouts()
    script = """async (arg) => {
        const { layouts, widths } = JSON.parse(arg);
        const { place } = await import('/static/js/snake.js');
        return JSON.stringify(widths.map((w) => layouts.map((l) => place(l, w))));
    }"""
    # one string back: Playwright carries a big object graph far more slowly than its JSON
    boards = json.loads(run_in_chromium(script, json.dumps({"layouts": layouts,
                                                                 "widths": WIDTHS})))
    for width, placed in zip(WIDTHS, boards, strict=True):
        for layout, board in zip(layouts, placed, strict=True):
            assert board["width"] == width
            check(layout, board)
    # a phone's tiles are smaller than a desktop's, but no smaller than the pips need
    assert 14 <= boards[0][0]["unit"] < boards[-1][0]["unit"]
