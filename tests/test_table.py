"""The table (``bones.table``) driven as every front end drives it: ``deal``, ``advance``
and ``submit`` alone, with persons answering from a script, through whole games of every
preset; each event list and each view's JSON checked against the engine; and the hidden
information rule: no seat's JSON, nor a spectator's, ever holds a tile it may not see.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field

import pytest

from bones.ai.levels import make_bot
from bones.engine.errors import IllegalMove
from bones.engine.game import Game
from bones.engine.moves import Draw, Pass, Play
from bones.engine.rules import PRESETS, Rules
from bones.engine.tiles import Tile
from bones.engine.view import PublicView, observe
from bones.table.events import Event, GameEnded, HandDealt, HandEnded, Moved, Undone
from bones.table.seats import Seating
from bones.table.table import Table, TableError
from bones.table.wire import event_json, layout_json, view_json

TILE = re.compile(r'"(\d+)-(\d+)"')

#: Every preset, and a few variations that change what a view shows (spinner arms,
#: partnerships, pools).
RULES = [*(PRESETS[name].replace(players=3) if name == "pool" else PRESETS[name]
           for name in sorted(PRESETS)),
         PRESETS["draw"].replace(spinner="first-double", players=3),
         PRESETS["block"].replace(partnerships=True, players=4),
         PRESETS["pool"].replace(players=4, opening="highest-double", target=40)]


def _table(rules: Rules, persons: int, seed: int, undo: bool = False) -> Table:
    kinds = tuple("human" if s < persons else "greedy" for s in range(rules.players))
    seating = Seating(kinds, tuple(f"P{s}" for s in range(rules.players)))
    return Table(rules, seating, random.Random(seed),
                 bot=lambda seat: make_bot("greedy", random.Random(seat)), undo=undo)


@dataclass
class Watcher:
    """What one seat (or a spectator, ``seat=None``) was sent over a whole game, and the
    tiles it was entitled to see when it was sent."""

    seat: int | None
    leaks: list[str] = field(default_factory=list)

    def check(self, game: Game, doc: object, what: str) -> None:
        """Fail on any tile in ``doc`` that the seat could not see in ``game`` now: a tile
        another seat holds, or a tile still in the boneyard it did not draw."""
        state = game.hands[-1]
        if state.is_over:
            return  # every tile is revealed at a hand's end
        hidden = {t for s, hand in enumerate(state.hands) if s != self.seat for t in hand}
        hidden |= set(state.boneyard)
        for high, low in TILE.findall(json.dumps(doc)):
            t = Tile(max(int(high), int(low)), min(int(high), int(low)))
            if t in hidden:
                self.leaks.append(f"{what} shows {t} to seat {self.seat}")


def _play_out(table: Table, rng: random.Random,
              watchers: list[Watcher]) -> list[Event]:
    """Drive ``table`` to the game's end as a front end would, persons choosing at random
    among the plays their own view offers; check every view and event on the way."""
    events: list[Event] = []

    def seen(batch: list[Event]) -> None:
        for event in batch:
            for w in watchers:
                w.check(table.game, event_json(event, w.seat), type(event).__name__)
        events.extend(batch)

    while not table.finished:
        seen(table.deal())
        seen(table.advance())
        while (seat := table.waiting) is not None:
            for w in watchers:
                w.check(table.game, view_json(table.view(w.seat)), "view")
            view = table.seat_view(seat)
            doc = view_json(view)
            engine = table.game.hands[-1].legal_moves()
            assert [Play(seat, _tile(p["play"]), p.get("end"))
                    for p in doc["legal"]] == list(engine)
            seen(table.submit(seat, rng.choice(view.legal)))
            seen(table.advance())
    return events


def _tile(text: str) -> Tile:
    high, low = (int(x) for x in text.split("-"))
    return Tile(high, low)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.preset}-{r.players}")
def test_whole_games_of_every_preset_through_advance_and_submit_alone(rules):
    for seed in range(3):
        table = _table(rules, persons=2, seed=seed)
        watchers = [Watcher(s) for s in range(rules.players)] + [Watcher(None)]
        events = _play_out(table, random.Random(seed), watchers)
        game = table.game
        assert game.finished
        # numbered in order, with no gap
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        # the moves told are the game's moves, hand by hand, and nothing else
        for number, hand in enumerate(game.hands, 1):
            told = [e for e in events if isinstance(e, Moved) and e.hand == number]
            assert [e.move for e in told] == list(hand.moves)
            assert [e.number for e in told] == list(range(1, len(hand.moves) + 1))
            assert all(e.by == ("person" if e.move.seat < 2 and isinstance(e.move, Play)
                                else "bot" if isinstance(e.move, Play) else "forced")
                       for e in told)
        dealt = [e for e in events if isinstance(e, HandDealt)]
        assert [(e.hand, e.leader) for e in dealt] == [(n, h.leader) for n, h
                                                       in enumerate(game.hands, 1)]
        ended = [e for e in events if isinstance(e, HandEnded)]
        assert [e.result for e in ended] == list(game.results)
        assert [e.deal for e in ended] == [h.deal for h in game.hands]
        assert [e for e in events if isinstance(e, GameEnded)] == [events[-1]]
        assert events[-1].winner == game.winner
        for w in watchers:
            assert w.leaks == []


def test_view_json_is_the_engines_view():
    rules = PRESETS["draw"].replace(spinner="first-double")
    table = _table(rules, persons=1, seed=4)
    table.deal()
    for _ in range(6):
        table.advance()
        seat = table.waiting
        if seat is None:
            break
        view = observe(table.game, seat)
        doc = view_json(table.view(seat))
        state = table.game.hands[-1]
        assert doc["seat"] == seat and doc["hand"] == [str(t) for t in state.hands[seat]]
        assert doc["held"] == [len(h) for h in state.hands]
        assert doc["boneyard_left"] == len(state.boneyard)
        assert doc["to_move"] == state.to_move == seat
        assert {arm: a["open"] for arm, a in doc["layout"]["arms"].items()} \
            == dict(state.layout.ends)
        assert doc["layout"] == layout_json(view.layout)
        assert all(m["draw"] is None for m in doc["moves"]
                   if "draw" in m and m["seat"] != seat)
        table.submit(seat, view.legal[0])


def test_a_spectator_sees_no_tiles_and_no_legal_plays():
    table = _table(PRESETS["draw"], persons=1, seed=2)
    table.deal()
    table.advance()
    public = table.view(None)
    assert isinstance(public, PublicView)
    doc = view_json(public)
    assert doc["seat"] is None and "hand" not in doc and "legal" not in doc
    assert "opening" not in doc


def test_a_refused_move_changes_nothing_and_says_why():
    table = _table(PRESETS["block"], persons=1, seed=1)
    table.deal()
    table.advance()
    seat = table.waiting
    assert seat == 0
    before, view = table.game, table.seat_view(0)
    not_held = next(t for t in table.game.hands[-1].hands[1])
    refusals = [
        (lambda: table.submit(1, Play(1, not_held)), TableError, "not a person's seat"),
        (lambda: table.submit(0, Play(1, not_held)), TableError, "only for itself"),
        (lambda: table.submit(0, Play(0, not_held)), IllegalMove, "does not hold"),
        (lambda: table.submit(0, Pass(0)), IllegalMove, "may not pass"),
        (lambda: table.submit(5, Pass(5)), TableError, "not a person's seat"),
        (lambda: table.deal(), TableError, "a hand is in play"),
        (lambda: table.undo(0), TableError, "undo is for one person"),
    ]
    for attempt, error, words in refusals:
        with pytest.raises(error, match=words):
            attempt()
        assert table.game is before
    events = table.submit(0, view.legal[0])
    assert events[0].seq == 1 + 1  # the deal was 1; refusals took no number


def test_undo_takes_back_a_play_and_the_replies_then_says_why_not():
    rules = PRESETS["block"]
    table = _table(rules, persons=1, seed=3, undo=True)
    table.deal()
    table.advance()
    with pytest.raises(TableError, match="no play of yours to take back"):
        table.undo(0)
    start = table.game
    first = table.seat_view(0).legal[0]
    table.submit(0, first)
    table.advance()
    replied = table.game
    assert table.waiting == 0
    (undone,) = table.undo(0)
    assert isinstance(undone, Undone) and undone.tile == first.tile
    assert table.game is start and table.undone == 1
    table.submit(0, first)
    table.advance()
    assert table.game == replied  # the bots' generators went back too: the same replies


def test_undo_after_a_forced_pass_does_not_blame_a_resume():
    """A new game whose person passed before their first play: nothing to take back, and
    it was never resumed (issue: "Cannot undo: nothing of yours since the game was
    resumed" in a new game)."""
    rules = PRESETS["block"]
    for seed in range(200):
        table = _table(rules, persons=1, seed=seed, undo=True)
        table.deal()
        table.advance()
        moves = table.game.hands[-1].moves
        if table.waiting == 0 and any(isinstance(m, Pass) and m.seat == 0 for m in moves):
            break
    else:
        pytest.skip("no seed below 200 makes seat 0 pass first")  # pragma: no cover
    with pytest.raises(TableError, match="no play of yours to take back this hand"):
        table.undo(0)


def test_another_seats_draw_is_hidden_in_its_event():
    move = Moved(7, 1, 3, Draw(1, Tile(6, 5)), "forced")
    assert event_json(move, 1)["move"] == {"seat": 1, "draw": "6-5"}
    assert event_json(move, 0)["move"] == {"seat": 1, "draw": None}
    assert event_json(move, None)["move"] == {"seat": 1, "draw": None}
