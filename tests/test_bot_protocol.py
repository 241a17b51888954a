"""bones-bot/1: our bot process answers requests; outside bots that misbehave never stall or
crash the table; a move request never carries another seat's tiles."""

from __future__ import annotations

import io
import json
import random
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bones.ai.base import make_bot
from bones.ai.external import ExternalBot
from bones.ai.protocol import request_of, view_of
from bones.ai.server import serve
from bones.engine.game import deal_hand, new_game, play, play_unchecked
from bones.engine.moves import Draw, Play
from bones.engine.rules import PRESETS
from bones.engine.view import observe

BONES_BOT = f"{sys.executable} -m bones.cli.main bot"


def _games(preset: str, seed: int, players: int | None = None):
    """Yield (game, seat) at every moment a seat must choose a play, in random games."""
    rules = PRESETS[preset]
    if players is not None:
        rules = rules.replace(players=players)
    rng = random.Random(seed)
    game = new_game(rules)
    while not game.finished:
        game = deal_hand(game, rng)
        while game.current is not None:
            moves = game.current.legal_moves()
            if isinstance(moves[0], Play):
                yield game, game.current.to_move
            game = play_unchecked(game, rng.choice(moves))


def test_serve_answers_hello_and_move_and_ignores_unknown_types():
    game, seat = next(_games("draw", 3))
    request = request_of(observe(game, seat), 7, 0.1)
    lines = [{"type": "hello", "protocol": "bones-bot/1"}, {"type": "result", "x": 1},
             request, {"type": "quit"}, {"type": "hello"}]
    out = io.StringIO()
    serve("greedy", io.StringIO("".join(json.dumps(x) + "\n" for x in lines)), out,
          io.StringIO(), seed=1)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies[0]["type"] == "hello" and replies[0]["protocol"] == "bones-bot/1"
    assert len(replies) == 2  # nothing for "result", nothing after "quit"
    legal = observe(game, seat).legal
    assert replies[1]["id"] == 7
    assert any(str(p.tile) == replies[1]["play"] and p.end == replies[1].get("end")
               for p in legal) or (game.current.layout.is_empty
                                   and any(str(p.tile) == replies[1]["play"] for p in legal))



@pytest.mark.parametrize(("cap", "asked", "spent"), [
    (None, 0.05, 0.05),    # the request's think time is what the bot spends
    (None, None, 0.1),     # a request without one: the default
    (None, "soon", 0.1),   # or with a malformed one
    (None, -1, 0.1),
    (0.2, 0.5, 0.2),       # --think caps the request's
    (0.2, 0.05, 0.05),
    (0.2, None, 0.2),      # and stands in for a missing one
])
def test_bot_process_thinks_for_the_requests_think_time_at_most_its_flag(
        monkeypatch, cap, asked, spent):
    made = []

    def recording_make_bot(level, rng, think=1.0):
        made.append(think)
        return make_bot(level, rng, think)

    monkeypatch.setattr("bones.ai.server.make_bot", recording_make_bot)
    game, seat = next(_games("block", 5))
    request = request_of(observe(game, seat), 1, 0.1)
    if asked is None:
        del request["think"]
    else:
        request["think"] = asked
    out = io.StringIO()
    serve("greedy", io.StringIO(json.dumps(request) + "\n" + json.dumps(request) + "\n"),
          out, io.StringIO(), seed=1, think=cap)
    assert made == [spent]  # one bot for both requests, built for that time
    assert [json.loads(line)["id"] for line in out.getvalue().splitlines()] == [1, 1]


@pytest.mark.parametrize("command", ["bot", "arena", "simulate", "play"])
@pytest.mark.parametrize("think", ["0", "-1", "nan", "soon"])
def test_think_must_be_a_positive_number_of_seconds(capsys, command, think):
    from bones.cli.main import main

    with pytest.raises(SystemExit) as exited:
        main([command, "--think", think])
    assert exited.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith(f"bones {command}: error: argument --think:")

@pytest.mark.parametrize("preset", list(PRESETS))
def test_request_round_trips_to_the_same_public_view(preset):
    for count, (game, seat) in enumerate(_games(preset, 11)):
        view = observe(game, seat)
        back = view_of(json.loads(json.dumps(request_of(view, 1, 0.1))))
        assert back.hand == view.hand and back.moves == view.moves
        assert back.layout.ends == view.layout.ends
        assert back.held == view.held and back.boneyard_left == view.boneyard_left
        assert back.to_move == seat and set(back.legal) == set(view.legal)
        if count > 40:
            break


@pytest.mark.parametrize("preset", ["draw", "pagat-draw", "pool", "block"])
def test_move_request_never_carries_another_seats_tiles(preset):
    """Every tile in a request is the seat's own, on the layout, or drawn by the seat."""
    for game, seat in _games(preset, 5, players=3 if preset != "pool" else 4):
        state = game.current
        request = request_of(observe(game, seat), 1, 0.1)
        text = json.dumps(request)
        own_draws = {m.tile for m in state.moves if isinstance(m, Draw) and m.seat == seat}
        visible = set(state.hands[seat]) | state.layout.placed | own_draws
        hidden = {t for s, hand in enumerate(state.hands) if s != seat for t in hand}
        hidden |= set(state.boneyard)
        hidden -= visible
        for t in hidden:
            assert f'"{t}"' not in text, f"{t} leaked to seat {seat}"
        for m in request["moves"]:
            if "draw" in m and m["seat"] != seat:
                assert m["draw"] is None


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text(textwrap.dedent(body))
    return f"{sys.executable} {path}"


def _play_game_with(bot_factory, seed: int = 2):
    rules = PRESETS["block"]
    rng = random.Random(seed)
    bots = [bot_factory(), make_bot("greedy", random.Random(1))]
    game = deal_hand(new_game(rules), rng)
    while game.current is not None:
        state = game.current
        moves = state.legal_moves()
        if isinstance(moves[0], Play):
            move = bots[state.to_move].choose(observe(game, state.to_move))
        else:
            move = moves[0]
        game = play(game, move)  # checked: a bad move from any bot would raise here
    return game, bots[0]


def test_our_bot_process_plays_a_whole_hand_through_the_protocol():
    game, bot = _play_game_with(lambda: ExternalBot(BONES_BOT + " --level random",
                                                    random.Random(0), think=2))
    assert game.results and bot.faults == 0
    assert bot.name.startswith("bones-random")
    bot.close()


def test_silent_bot_is_played_for_after_the_deadline(tmp_path):
    command = _script(tmp_path, """
        import sys, json, time
        for line in sys.stdin:
            req = json.loads(line)
            if req.get("type") == "hello":
                print(json.dumps({"type": "hello", "protocol": "bones-bot/1", "name": "slow"}),
                      flush=True)
            else:
                time.sleep(30)
    """)
    log = io.StringIO()
    bot = ExternalBot(command, random.Random(0), think=0.05, log=log)
    start = time.monotonic()
    game, _ = _play_game_with(lambda: bot)
    assert game.results  # the hand finished anyway
    assert bot.faults >= 1 and "no reply" in log.getvalue()
    assert time.monotonic() - start < 60
    bot.close()


@pytest.mark.parametrize("reply", ['"nonsense"', '{"id": 1, "play": "9-9"}', "not json",
                                   '{"id": 1, "play": "6-6", "end": "up"}'])
def test_wrong_replies_are_recorded_and_played_for(tmp_path, reply):
    command = _script(tmp_path, f"""
        import sys
        for line in sys.stdin:
            print({reply!r}, flush=True)
    """)
    log = io.StringIO()
    bot = ExternalBot(command, random.Random(0), think=1, log=log)
    game, _ = _play_game_with(lambda: bot)
    assert game.results and bot.faults >= 1
    bot.close()


def test_bot_that_cannot_start_or_dies_is_played_for(tmp_path):
    log = io.StringIO()
    missing = ExternalBot(str(tmp_path / "no-such-bot"), random.Random(0), log=log)
    game, _ = _play_game_with(lambda: missing)
    assert game.results and "cannot start" in log.getvalue()
    dying = ExternalBot(_script(tmp_path, "import sys; sys.exit(0)"), random.Random(0),
                        think=0.2, log=io.StringIO())
    game, _ = _play_game_with(lambda: dying)
    assert game.results and dying.faults >= 1
