"""bones-bot/1: our bot process answers requests; outside bots that misbehave never stall or
crash the table; a move request never carries another seat's tiles."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bones.ai.budget import safety_net
from bones.ai.levels import MAX_THINK, make_bot
from bones.engine.game import deal_hand, new_game, play, play_unchecked
from bones.engine.layout import Layout
from bones.engine.moves import Draw, Play
from bones.engine.rules import PRESETS
from bones.engine.view import observe
from bones.protocol.codec import request_of, view_of
from bones.protocol.external import ExternalBot
from bones.protocol.server import serve
from processes import running

BONES_BOT = f"{sys.executable} -m bones.cli.main bot"


#: A bot that stalls must cost a move, not the run: past this a test has hung and fails.
LIVENESS = pytest.mark.timeout(60)


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
    (None, 1e12, MAX_THINK),     # a think time past any table's patience gets the most
    (None, 1e308, MAX_THINK),    # a bot is ever given (the search budgets stay countable)
    (None, 10**400, MAX_THINK),  # a whole number with no float
    (0.2, 10**400, 0.2),
    (None, True, 0.1),           # JSON true is not a number of seconds
])
def test_bot_process_thinks_for_the_requests_think_time_at_most_its_flag(
        monkeypatch, cap, asked, spent):
    made = []

    def recording_make_bot(level, rng, think=1.0):
        made.append(think)
        return make_bot(level, rng, think)

    monkeypatch.setattr("bones.protocol.server.make_bot", recording_make_bot)
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
@pytest.mark.parametrize("think", ["0", "-1", "nan", "soon", "1e12", "601"])
def test_think_must_be_a_positive_number_of_seconds(capsys, command, think):
    from bones.cli.main import main

    with pytest.raises(SystemExit) as exited:
        main([command, "--think", think])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bones {command}: argument --think:") and err.count("\n") == 1

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


@LIVENESS
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


@LIVENESS
@pytest.mark.parametrize(("reply", "why"), [
    ('"nonsense"', "does not answer"),
    ('{"id": 1, "play": "9-9"}', "9-9 is not a tile the seat may play now"),
    ("not json", "not JSON"), ('{"id": 1, "play": "6-6", "end": "up"}', "illegal reply"),
    ("null", "reply is null"), ('{"id": 1, "error": "confused"}', "names no play: confused")])
def test_wrong_replies_are_recorded_logged_and_played_for(tmp_path, reply, why):
    command = _script(tmp_path, f"""
        import sys
        for line in sys.stdin:
            print({reply!r}, flush=True)
    """)
    log = io.StringIO()
    bot = ExternalBot(command, random.Random(0), think=1, log=log)
    game, _ = _play_game_with(lambda: bot)
    assert game.results and bot.faults >= 1 and why in log.getvalue()
    assert why in bot.played_for_moves[0][1]  # the first request's own fault
    bot.close()


@LIVENESS
def test_bot_that_cannot_start_or_dies_is_played_for(tmp_path):
    log = io.StringIO()
    missing = ExternalBot(str(tmp_path / "no-such-bot"), random.Random(0), log=log)
    game, _ = _play_game_with(lambda: missing)
    assert game.results and "cannot start" in log.getvalue()
    dying = ExternalBot(_script(tmp_path, "import sys; sys.exit(0)"), random.Random(0),
                        think=0.2, log=io.StringIO())
    game, _ = _play_game_with(lambda: dying)
    assert game.results and dying.faults >= 1


@LIVENESS
def test_a_bot_that_crashes_is_given_up_with_its_last_words_on_standard_error(tmp_path):
    """Its standard error is for logs and otherwise dropped, but a crash's traceback ends
    with the reason, which the bot's author needs."""
    log = io.StringIO()
    crashing = ExternalBot(_script(tmp_path, """
        import sys
        print("starting", file=sys.stderr, flush=True)
        raise SystemExit("no model file at ./weights.bin")
    """), random.Random(0), think=0.2, log=log)
    game, _ = _play_game_with(lambda: crashing)
    assert game.results and "no model file at ./weights.bin" in log.getvalue()
    crashing.close()


@LIVENESS
def test_a_bots_standard_error_is_kept_in_bounded_memory(tmp_path):
    """A megabyte with no newline (a progress bar gone wrong) is drained, not held whole,
    and what is told of it is short."""
    log = io.StringIO()
    noisy = ExternalBot(_script(tmp_path, """
        import sys
        sys.stderr.write("x" * (1 << 20))
        sys.stderr.flush()
        raise SystemExit(1)
    """), random.Random(0), think=0.2, log=log)
    game, _ = _play_game_with(lambda: noisy)
    assert game.results and len(noisy._last_words) <= 200 and noisy._last_words
    assert max(len(line) for line in log.getvalue().splitlines()) < 600
    noisy.close()


@LIVENESS
def test_the_last_words_are_the_start_of_the_last_line_however_long(tmp_path):
    """A long last line is told from its start (where a traceback's last line says what
    went wrong), and blank lines after it do not hide it."""
    bot = ExternalBot(_script(tmp_path, """
        import sys
        sys.stderr.write("ValueError: " + "x" * 5000 + "\\n" + "\\n" * 3000)
        sys.stderr.flush()
        raise SystemExit(1)
    """), random.Random(0), think=0.2, log=io.StringIO())
    _play_game_with(lambda: bot)
    assert bot._last_words.startswith("ValueError: xxx") and len(bot._last_words) <= 200
    bot.close()


@LIVENESS
def test_a_stopped_run_gives_up_waiting_on_a_bot_and_ends_it(tmp_path, monkeypatch):
    """A worker's bot may think for minutes; once the run is stopped, the wait ends at the
    next look at the stop flag, and the bot is ended, not left to outlive a killed worker."""
    import threading

    import bones.sim.parallel as parallel

    stop = threading.Event()
    monkeypatch.setattr(parallel, "_stop_flag", stop)
    pid_file = tmp_path / "pid"
    # the bot's own child, in its session: only ending the whole session ends it
    command = _script(tmp_path, f"""
        import os, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        open({str(pid_file)!r}, "w").write(str(child.pid))
        time.sleep(60)
    """)
    threading.Timer(1.0, stop.set).start()  # the run is stopped while the bot is silent
    start = time.monotonic()
    with pytest.raises(parallel.Cancelled):
        ExternalBot(command, random.Random(0), think=10, log=io.StringIO(),
                    cancelled=parallel.check_cancelled)
    assert time.monotonic() - start < 4  # not the 5 s hello wait, nor 21 s for a move
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while running(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(child)


@LIVENESS
def test_an_interrupt_while_bots_are_closed_still_closes_every_one(tmp_path):
    """A Ctrl-C during the wait on the first of three bots that ignore ``quit``: every one
    is ended, and the interrupt is raised once they are."""
    import signal
    import threading

    from bones.ai.base import close_bots

    bots = []
    for n in range(3):
        (tmp_path / str(n)).mkdir()
        bots.append(ExternalBot(_script(tmp_path / str(n), """
            import json, sys, time
            for line in sys.stdin:
                if json.loads(line)["type"] == "hello":
                    print(json.dumps({"type": "hello", "protocol": "bones-bot/1",
                                      "name": "deaf"}), flush=True)
            time.sleep(60)
        """), random.Random(0), think=0.2, log=io.StringIO()))
    procs = [bot._proc for bot in bots]
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
    with pytest.raises(KeyboardInterrupt):
        close_bots(bots)
    assert all(proc.poll() is not None for proc in procs)


@LIVENESS
def test_a_second_interrupt_while_a_bot_is_closed_still_ends_it(tmp_path, monkeypatch):
    """Closing waits for the program to exit after ``quit``; an interrupt in that wait
    used to skip the kill, leaving a bot that ignores ``quit`` running."""
    pid_file = tmp_path / "pid"
    bot = ExternalBot(_script(tmp_path, f"""
        import json, os, sys, time
        open({str(pid_file)!r}, "w").write(str(os.getpid()))
        for line in sys.stdin:
            if json.loads(line)["type"] == "hello":
                print(json.dumps({{"type": "hello", "protocol": "bones-bot/1", "name": "x"}}),
                      flush=True)
        time.sleep(60)
    """), random.Random(0), think=0.2, log=io.StringIO())
    proc = bot._proc
    real_wait = proc.wait

    def interrupted(timeout=None):
        if timeout is not None:
            raise KeyboardInterrupt
        return real_wait()

    monkeypatch.setattr(proc, "wait", interrupted)
    with pytest.raises(KeyboardInterrupt):
        bot.close()
    assert proc.poll() is not None


@LIVENESS
def test_blank_lines_before_a_reply_are_skipped_as_bones_bot_skips_them(tmp_path):
    bot = ExternalBot(_script(tmp_path, f"""
        import subprocess, sys
        server = subprocess.Popen({BONES_BOT.split()!r}, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        for line in sys.stdin:
            server.stdin.write(line)
            server.stdin.flush()
            if '"quit"' in line:
                break
            print("", flush=True)
            print("   ", flush=True)
            print(server.stdout.readline(), end="", flush=True)
    """), random.Random(0), think=0.2, log=io.StringIO())
    game, _ = _play_game_with(lambda: bot)
    assert game.results and bot.asked > 0 and bot.faults == 0
    bot.close()


# -- requests from programs we do not control --------------------------------------------------


def _request() -> dict:
    """A 2-player Draw request for seat 1 that uses every kind of move (checked by hand)."""
    return {"type": "move", "id": 5, "rules": {"preset": "draw", "players": 2}, "seat": 1,
            "hand": ["4-3", "3-0", "2-2", "1-0", "3-1", "2-0", "2-1"],
            "dealt": [7, 7], "boneyard": 14, "leader": 0,
            "moves": [{"seat": 0, "play": "6-6"},
                      {"seat": 1, "play": "6-5", "end": "left"},
                      {"seat": 0, "draw": None},
                      {"seat": 0, "play": "5-5", "end": "left"},
                      {"seat": 1, "draw": "2-1"},
                      {"seat": 1, "draw": "5-4"},
                      {"seat": 1, "play": "5-4", "end": "left"},
                      {"seat": 0, "play": "6-4", "end": "right"}],
            "scores": [0, 0], "think": 0.05}


def _changed(**fields) -> dict:
    request = _request()
    request.update(fields)
    return request


def _with_move(index: int, move: dict | None) -> dict:
    request = _request()
    if move is None:
        del request["moves"][index]
    else:
        request["moves"][index] = move
    return request


@pytest.mark.parametrize("think", [0.01, 0.1, 0.5, 1.0, 2.0, 30.0, MAX_THINK])
@pytest.mark.parametrize("slack", [0.05, 0.25])
def test_a_search_bots_clock_stop_comes_before_the_referee_stops_waiting(think, slack):
    """The referee plays for a bot at ``2 * think + 1`` seconds; the wall-clock stop of a
    search bot (for a machine far slower than its calibration) must come well before."""
    stop = safety_net(think, slack)
    assert think < stop <= 2 * think + 0.5
    if think <= 0.25:  # at the usual think times the stop is as it was calibrated
        assert stop == pytest.approx(3 * think + slack)


def test_a_move_request_whose_id_json_cannot_write_back_gets_an_error_under_id_null():
    """An id of 1e400 reads as infinity, which a JSON reply cannot carry (it would print
    ``Infinity``, which is not JSON): the bot answers with an error under ``"id": null``
    (so the referee is not left waiting), says so on its log, and answers on."""
    bad = json.dumps(SPEC_REQUEST).replace('"id": 41', '"id": 1e400')
    out, err = io.StringIO(), io.StringIO()
    status = serve("greedy", io.StringIO(bad + "\n" + json.dumps(SPEC_REQUEST) + "\n"), out,
                   err, seed=1)
    replies = [json.loads(reply) for reply in out.getvalue().splitlines()]
    assert status == 0 and [r["id"] for r in replies] == [None, 41]
    assert '"id" must be a whole number' in replies[0]["error"] and "play" not in replies[0]
    assert len(err.getvalue().splitlines()) == 1 and '"id" must be' in err.getvalue()


#: The move request of ``docs/bot-protocol.md``, as that page writes it.
SPEC_REQUEST = {
    "type": "move", "id": 41, "rules": {"preset": "pagat-draw", "players": 3}, "seat": 1,
    "hand": ["2-1", "1-1", "5-2", "0-0", "4-3"], "dealt": [5, 5, 5], "boneyard": 13,
    "leader": 0,
    "moves": [{"seat": 0, "play": "6-6"}, {"seat": 1, "play": "6-5", "end": "right"},
              {"seat": 2, "play": "6-4", "end": "left"}, {"seat": 0, "draw": None},
              {"seat": 0, "draw": None}, {"seat": 0, "play": "5-3", "end": "right"},
              {"seat": 1, "draw": "4-3"}],
    "scores": [0, 0, 0], "think": 0.1}


@pytest.mark.parametrize("level", ["random", "greedy", "basic", "ismcts", "expert"])
def test_the_specs_example_request_is_answered_with_its_one_legal_tile(level):
    view = view_of(SPEC_REQUEST)
    assert view.held == (5, 5, 4) and view.boneyard_left == 10
    assert {str(p.tile) for p in view.legal} == {"4-3"}
    out = io.StringIO()
    serve(level, io.StringIO(json.dumps(SPEC_REQUEST) + "\n"), out, io.StringIO(), seed=1)
    reply = json.loads(out.getvalue())
    assert reply["id"] == 41 and reply["play"] == "4-3" and reply["end"] in ("left", "right")


@pytest.mark.parametrize("rules", ["pagat-draw", {"preset": "pagat-draw"}])
def test_rules_without_players_take_the_count_from_dealt_as_a_record_takes_its_list(rules):
    """"The full rules as in a record": a record may name only its preset and let its
    players list give the count; a referee copying such rules into a request must not have
    every move of our bot played for it."""
    view = view_of({**SPEC_REQUEST, "rules": rules})
    assert view.rules.players == 3 and {str(p.tile) for p in view.legal} == {"4-3"}
    with pytest.raises(Exception, match='"dealt" must be'):
        view_of({**SPEC_REQUEST, "rules": {"preset": "pagat-draw", "players": 2}})


def test_the_hand_made_request_is_valid():
    view = view_of(_request())
    assert view.held == (5, 7) and view.boneyard_left == 11 and view.to_move == 1
    assert {(str(p.tile), p.end) for p in view.legal} == {("4-3", "left"), ("4-3", "right")}


BAD_REQUESTS = {
    "no moves": ({k: v for k, v in _request().items() if k != "moves"}, 'has no "moves"'),
    "seat out of range": (_changed(seat=2), '"seat" must be a seat number from 0 to 1'),
    "leader not a number": (_changed(leader="0"), '"leader" must be a seat number'),
    "hand tile outside the set": (_changed(hand=["9-9"]), "not in the double-6 set"),
    "hand lists a tile twice": (_changed(hand=["4-3", "4-3"]), "the hand lists a tile twice"),
    "dealt for another table": (_changed(dealt=[7, 7, 7]), '"dealt" must be [7, 7]'),
    "boneyard miscounted": (_changed(boneyard=13), '"boneyard" must be 14'),
    # whole-number floats are refused everywhere, as for seats (Python finds 14.0 == 14)
    "boneyard as a float": (_changed(boneyard=14.0), '"boneyard" must be 14'),
    "dealt as floats": (_changed(dealt=[7.0, 7.0]), '"dealt" must be [7, 7]'),
    "scores for three sides": (_changed(scores=[0, 0, 0]), '"scores" must list 2 whole'),
    "move by a seat not at the table": (_with_move(2, {"seat": 4, "draw": None}),
                                        "move 3: there is no seat 4"),
    "move out of turn": (_with_move(2, {"seat": 1, "draw": "3-2"}),
                         "move 3: it is seat 0's turn, not seat 1's"),
    "tile that fits no arm": (_with_move(3, {"seat": 0, "play": "3-2", "end": "left"}),
                              "move 4: 3-2 does not match the left arm (5)"),
    "tile laid twice": (_with_move(3, {"seat": 0, "play": "6-6", "end": "right"}),
                        "move 4: 6-6 is already on the layout"),
    "tile the seat holds": (_with_move(3, {"seat": 0, "play": "3-0", "end": "left"}),
                            "move 4: 3-0 is still in seat 1's hand"),
    "end that must be named": (_with_move(7, {"seat": 0, "play": "6-4"}),
                               "move 8: 6-4 fits the left arm (4) and the right arm (6); "
                               "the move must name its end"),
    "another seat's drawn tile shown": (_with_move(2, {"seat": 0, "draw": "3-2"}),
                                        "move 3: seat 0's drawn tile is shown"),
    "own draw hidden": (_with_move(4, {"seat": 1, "draw": None}),
                        "move 5: seat 1's own draw must show its tile"),
    "pass with a boneyard to draw from": (_with_move(2, {"seat": 0, "pass": True}),
                                          "move 3: seat 0 may not pass"),
    "draw in a Block game": (_changed(rules={"preset": "block", "players": 2}),
                             "move 3: this is a Block game (draw: false); nobody draws"),
    "not this seat's turn": (_with_move(7, None), "it is seat 0's turn, not seat 1's"),
    "hand of the wrong size": (_changed(hand=["4-3", "3-0"]),
                               "seat 1 holds 7 tiles, but the hand lists 2"),
    "own drawn tile gone": (_changed(hand=["4-3", "3-0", "2-2", "1-0", "3-1", "2-0", "3-2"]),
                            "seat 1 drew 2-1, which is neither in its hand nor played"),
}


@pytest.mark.parametrize("name", list(BAD_REQUESTS))
def test_a_request_no_hand_could_produce_gets_one_error_line_and_the_bot_answers_on(name):
    """A referee's bad request is refused with a reply naming the fault (so it is not left
    waiting), one line on standard error, and no traceback; the next request is answered."""
    bad, message = BAD_REQUESTS[name]
    lines = [bad, _request(), {"type": "quit"}]
    out, err = io.StringIO(), io.StringIO()
    status = serve("expert", io.StringIO("".join(json.dumps(x) + "\n" for x in lines)), out,
                   err, seed=1)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert status == 0 and len(replies) == 2
    assert replies[0]["id"] == 5 and message in replies[0]["error"], replies[0]
    assert err.getvalue().count("\n") == 1 and message in err.getvalue()
    assert replies[1] in ({"id": 5, "play": "4-3", "end": "left"},
                          {"id": 5, "play": "4-3", "end": "right"})


@pytest.mark.parametrize("preset", ["draw", "block", "pool"])
def test_a_play_may_leave_out_its_end_where_it_fits_only_one_arm(preset):
    """As in a record, ``end`` is needed only when the tile fits more than one arm."""
    checked = 0
    for count, (game, seat) in enumerate(_games(preset, 4, players=3)):
        request = request_of(observe(game, seat), 1, 0.1)
        layout = Layout(uses_spinner=game.rules.spinner == "first-double")
        for move, written in zip(game.current.moves, request["moves"], strict=True):
            if isinstance(move, Play):
                if not layout.is_empty and len(layout.arms_for(move.tile)) == 1:
                    del written["end"]
                    checked += 1
                layout = layout.place(move.tile, move.end)
        view, back = observe(game, seat), view_of(request)
        assert back.moves == view.moves and back.layout == view.layout
        assert set(back.legal) == set(view.legal)
        if count > 30:
            break
    assert checked > 20


def test_blind_changes_to_requests_are_answered_or_refused_never_crash():
    """Random requests from every preset, each also changed at random (fields dropped or
    given other values, moves dropped, doubled or rewritten): the valid ones are answered
    with a legal play, and everything else gets an error reply, never an exception."""
    rng = random.Random(2024)
    values = [None, -1, 0, 1, 2, 5, 1.5, True, "x", "6-6", "", [], {}, [1], 10**30]
    refused = answered = 0
    for preset in PRESETS:
        for count, (game, seat) in enumerate(_games(preset, rng.randrange(1000), players=3)):
            if count > 25:
                break
            request = request_of(observe(game, seat), 1, 0.01)
            for _ in range(4):
                changed = json.loads(json.dumps(request))
                key = rng.choice([k for k in changed if k != "type"])
                if isinstance(changed[key], list) and changed[key] and rng.random() < 0.6:
                    at = rng.randrange(len(changed[key]))
                    item = changed[key][at]
                    if isinstance(item, dict) and rng.random() < 0.7:
                        item[rng.choice(list(item))] = rng.choice(
                            [*values, "left", "up", f"{rng.randint(0, 6)}-{rng.randint(0, 6)}"])
                    elif rng.random() < 0.5:
                        del changed[key][at]
                    else:
                        changed[key].append(item)
                elif rng.random() < 0.3:
                    del changed[key]
                else:
                    changed[key] = rng.choice(values)
                out = io.StringIO()
                serve("greedy", io.StringIO(json.dumps(changed) + "\n"), out, io.StringIO(),
                      seed=1)
                reply = json.loads(out.getvalue())
                if "error" in reply:
                    refused += 1
                    continue
                answered += 1
                view = view_of(changed)
                assert any(str(p.tile) == reply["play"] and p.end == reply.get("end")
                           for p in view.legal)
    assert refused > 100 and answered > 20


# -- outside bots that misbehave in the pipes ---------------------------------------------------

#: A script prelude: ``legal(req)`` is a legal reply built with our own protocol code.
_LEGAL = """
    import json, os, sys, time
    from bones.protocol.codec import view_of

    def legal(req):
        play = view_of(req).legal[0]
        reply = {"id": req["id"], "play": str(play.tile)}
        if play.end is not None:
            reply["end"] = play.end
        return reply

    HELLO = json.dumps({"type": "hello", "protocol": "bones-bot/1", "name": "test 1"})
"""


def _bot(tmp_path: Path, body: str, think: float = 0.05) -> tuple[ExternalBot, io.StringIO]:
    log = io.StringIO()
    source = textwrap.dedent(_LEGAL) + textwrap.dedent(body)
    return ExternalBot(_script(tmp_path, source), random.Random(0), think=think, log=log), log


def test_bones_bot_reads_utf_8_whatever_the_locale_says():
    """A byte-order mark, then a request naming a player "Zoë": under a Latin-1 locale the
    mark would read as three letters and the line would not be JSON."""
    request = dict(SPEC_REQUEST, **{"x-name": "Zoë"})
    line = "\ufeff" + json.dumps(request, ensure_ascii=False) + "\n"
    done = subprocess.run([sys.executable, "-m", "bones.cli.main", "bot", "--seed", "1"],
                          input=line.encode("utf-8"), capture_output=True, timeout=60,
                          env={**os.environ, "PYTHONIOENCODING": "latin-1"}, check=False)
    assert done.returncode == 0 and done.stderr == b""
    assert json.loads(done.stdout)["id"] == 41


@pytest.mark.parametrize("encoding", ["latin-1", "utf-8"])
def test_bones_bot_refuses_a_line_that_is_not_utf_8_and_answers_on(encoding):
    line = b"{\xff\xfe\n" + json.dumps(SPEC_REQUEST).encode() + b"\n"
    done = subprocess.run([sys.executable, "-m", "bones.cli.main", "bot", "--seed", "1"],
                          input=line, capture_output=True, timeout=60, check=False,
                          env={**os.environ, "PYTHONIOENCODING": encoding})
    replies = [json.loads(reply) for reply in done.stdout.splitlines()]
    assert done.returncode == 0 and [r["id"] for r in replies] == [None, 41]
    assert replies[0]["error"].startswith("the line is not JSON")
    assert done.stderr.decode(errors="replace").startswith("bones bot: the line is not JSON")


@LIVENESS
@pytest.mark.parametrize("garbage", [
    b'{"id": 1, "play": "\\xff\\xfe"}',     # not UTF-8
    b"[" * 100_000,                           # nested past the parser's depth
    b'{"id": 1' + b"9" * 5000 + b"}",        # a number Python will not convert
    b'{"id": 1, "pad": "' + b"x" * 200_000 + b'"}',  # longer than a reply line may be
])
def test_one_unreadable_reply_is_that_moves_fault_and_the_bot_plays_on(tmp_path, garbage):
    bot, log = _bot(tmp_path, f"""
        n = 0
        for line in sys.stdin:
            req = json.loads(line)
            if req["type"] == "hello":
                print(HELLO, flush=True)
            elif req["type"] == "move":
                n += 1
                if n == 1:
                    sys.stdout.buffer.write({garbage!r} + b"\\n")
                    sys.stdout.flush()
                else:
                    print(json.dumps(legal(req)), flush=True)
    """)
    game, _ = _play_game_with(lambda: bot)
    bot.close()
    assert game.results and bot.faults == 1, log.getvalue()
    assert bot.name == "test 1" and "reply is" in log.getvalue()


@LIVENESS
def test_a_flood_of_stale_replies_cannot_hold_a_move_past_its_deadline(tmp_path):
    bot, log = _bot(tmp_path, """
        print(HELLO, flush=True)
        stale = (json.dumps({"id": 0}) + "\\n") * 20_000  # written faster than it is read
        while True:
            sys.stdout.write(stale)
            sys.stdout.flush()
    """)
    start = time.monotonic()
    game, _ = _play_game_with(lambda: bot)
    bot.close()
    assert game.results and "no reply within" in log.getvalue()
    assert time.monotonic() - start < 60  # a liveness bound, not a speed target


@LIVENESS
def test_a_bot_that_stops_reading_is_given_up_not_waited_on(tmp_path):
    bot, log = _bot(tmp_path, """
        sys.stdin.readline()
        print(HELLO, flush=True)
        time.sleep(600)
    """)
    # A request far larger than any pipe holds: the write cannot finish by the deadline.
    assert bot._ask({"type": "move", "id": 1, "pad": "x" * (1 << 22)}, timeout=0.5) is None
    assert "not reading its input" in log.getvalue()
    start = time.monotonic()
    game, _ = _play_game_with(lambda: bot)  # every move is the fallback's, at once
    bot.close()
    assert game.results and time.monotonic() - start < 30


@LIVENESS
def test_a_bot_whose_output_is_closed_is_given_up_once(tmp_path):
    bot, log = _bot(tmp_path, """
        sys.stdin.readline()
        print(HELLO, flush=True)
        os.close(1)
        time.sleep(600)
    """)
    game, _ = _play_game_with(lambda: bot)
    bot.close()
    assert game.results and log.getvalue().count("closed its output") == 1


@LIVENESS
@pytest.mark.skipif(os.name != "posix", reason="sessions are POSIX")
def test_closing_a_bot_ends_the_processes_it_forked(tmp_path):
    beat = tmp_path / "beat"
    bot, _ = _bot(tmp_path, f"""
        if os.fork() == 0:  # a child that would outlive its parent, beating while it lives
            for n in range(10_000):
                with open({str(beat)!r}, "w") as out:
                    out.write(str(n))
                time.sleep(0.02)
            os._exit(0)
        for line in sys.stdin:
            req = json.loads(line)
            if req["type"] == "hello":
                print(HELLO, flush=True)
            elif req["type"] == "quit":
                break
    """)
    assert bot.name == "test 1"
    bot.close()
    time.sleep(0.2)
    last = beat.read_text()
    time.sleep(0.5)
    assert beat.read_text() == last  # no beat since the bot was closed


def test_a_byte_order_mark_before_a_request_is_skipped():
    """Some Windows tools start a UTF-8 stream with a byte-order mark; RFC 8259 lets a
    reader ignore it, and the request after it is answered."""
    out = io.StringIO()
    serve("greedy", io.StringIO("\ufeff" + json.dumps(SPEC_REQUEST) + "\n"), out,
          io.StringIO(), seed=1)
    assert json.loads(out.getvalue())["id"] == 41


@LIVENESS
def test_a_bot_that_misses_the_hello_deadline_is_given_up_and_not_started_again(
        tmp_path, monkeypatch):
    """A bot silent at ``hello`` used to be asked, and waited on, for every move (a 4-deal
    arena took 103 s): it is given up at once, every move of its seat is played for it, and
    another table of the run seats it without starting it again."""
    monkeypatch.setattr("bones.protocol.external.HELLO_TIMEOUT", 0.3)
    monkeypatch.setattr("bones.protocol.external._SILENT", {})
    started = tmp_path / "started"
    body = f"""
        open({str(started)!r}, "a").write("x")
        for line in sys.stdin:
            req = json.loads(line)
            if req["type"] == "hello":
                time.sleep(0.8)
                print(HELLO, flush=True)
            elif req["type"] == "move":
                print(json.dumps(legal(req)), flush=True)
    """
    bot, log = _bot(tmp_path, body, think=1.0)
    proc = bot._proc
    game, _ = _play_game_with(lambda: bot)
    assert proc.wait(timeout=10) is not None  # ended when it was given up, not at close
    bot.close()
    assert game.results and bot.asked > 0 and bot.played_for == bot.asked, log.getvalue()
    assert log.getvalue().count("\n") == 1
    assert "no reply to hello within 0.3 s; it is not started again" in log.getvalue()
    again, log = _bot(tmp_path, body, think=1.0)
    game, _ = _play_game_with(lambda: again)
    again.close()
    assert again._proc is None and started.read_text() == "x"  # started once in all
    assert game.results and again.played_for == again.asked > 0
    assert all("hello" in why for _, why in again.played_for_moves)
    assert log.getvalue() == ""  # said once, when it was found


@LIVENESS
def test_a_reply_whose_id_is_true_does_not_answer_request_1(tmp_path):
    """JSON true is not the number 1, though Python's ``True == 1``: a legal play under
    that id is a fault, the rest of the bot's legal replies are taken."""
    bot, log = _bot(tmp_path, """
        for line in sys.stdin:
            req = json.loads(line)
            if req["type"] == "hello":
                print(HELLO, flush=True)
            elif req["type"] == "move":
                reply = legal(req)
                if req["id"] == 1:
                    reply["id"] = True
                print(json.dumps(reply), flush=True)
    """)
    game, _ = _play_game_with(lambda: bot)
    bot.close()
    assert game.results and bot.faults == 1, log.getvalue()
    assert "reply does not answer request 1" in log.getvalue()


@pytest.mark.parametrize(("line", "error"), [
    ("[" * 600 + "]" * 600, "cannot read the line: arrays and objects nest deeper than 500 levels"),
    ("[" * 100_000, "the line opens more than 20000 arrays and objects"),
    ('{"type": "move", "id": 1' + "9" * 5000 + "}", "cannot read the line: a number has more"),
    ('{"type": "move", "id": NaN}', "the line is not JSON: NaN is not a JSON value"),
    ("{not json", "the line is not JSON: Expecting property name"),
    ("[1, 2]", "a request must be a JSON object, not [1, 2]"),
    ('"move"', 'a request must be a JSON object, not "move"'),
    ("null", "a request must be a JSON object, not null"),
    ('{"type": "move", "id": true}', '"id" must be a whole number or a string'),
    ('{"type": "move", "id": 1.5}', '"id" must be a whole number or a string'),
    ('{"type": "move", "id": [41]}', '"id" must be a whole number or a string'),
    ('{"type": "move", "id": "' + "x" * 100 + '"}', '"id" must be a whole number or a string'),
    ('{"type": "move", "id": 1' + "0" * 100 + "}", '"id" must be a whole number or a string'),
])
def test_every_line_the_bot_cannot_take_gets_an_error_under_id_null_and_it_answers_on(
        line, error):
    """A line that is not JSON, not an object, or a move request whose id it cannot write
    back as it came: ``{"id": null, "error": ...}`` (a referee waiting on it is not left
    waiting for its deadline), one line on standard error, and the next request answered."""
    out, err = io.StringIO(), io.StringIO()
    status = serve("greedy", io.StringIO(line + "\n\n  \n" + json.dumps(SPEC_REQUEST) + "\n"),
                   out, err, seed=1)
    replies = [json.loads(reply) for reply in out.getvalue().splitlines()]
    assert status == 0 and len(replies) == 2 and replies[1]["play"] == "4-3"  # blanks skipped
    assert replies[0] == {"id": None, "error": replies[0]["error"]}
    assert replies[0]["error"].startswith(error), replies[0]
    assert err.getvalue() == f"bones bot: {replies[0]['error']}\n"


@pytest.mark.parametrize(("request_id", "echoed"), [
    (None, None), (0, 0), (-3, -3), (2**63, 2**63), ("req-7", "req-7"),
    ("9b2f0a8e-3c55-4f0e-8d4e-0c6a1d2b7e11", "9b2f0a8e-3c55-4f0e-8d4e-0c6a1d2b7e11")])
def test_an_id_that_can_be_written_back_as_it_came_is_echoed(request_id, echoed):
    request = dict(SPEC_REQUEST, id=request_id)
    if request_id is None:
        del request["id"]
    out = io.StringIO()
    serve("greedy", io.StringIO(json.dumps(request) + "\n"), out, io.StringIO(), seed=1)
    assert json.loads(out.getvalue()) == {"id": echoed, "play": "4-3",
                                          "end": json.loads(out.getvalue())["end"]}


def test_a_line_past_nan_still_names_its_id_when_the_id_itself_is_good():
    """The request is refused (NaN is not JSON), but its id is one the reply can carry,
    so the referee can tell which request failed."""
    line = json.dumps(SPEC_REQUEST).replace('"think": 0.1', '"think": NaN')
    out = io.StringIO()
    serve("greedy", io.StringIO(line + "\n"), out, io.StringIO(), seed=1)
    assert json.loads(out.getvalue()) == {"id": 41, "error": "the line is not JSON: NaN is "
                                                             "not a JSON value"}


# -- limits: request lines, hostile values ----------------------------------------------------

#: Runs ``bones bot`` and says its peak memory on standard error when it ends.
_MEASURED_BOT = """
import resource, sys
from bones.cli.main import main
try:
    status = main(["bot", "--seed", "1"])
finally:
    print("maxrss", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
sys.exit(status)
"""


def _limit_memory(limit: int):
    """A ``preexec_fn`` giving the child at most ``limit`` bytes of address space: a test
    that fails must not take the machine's memory with it."""
    import resource

    return lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _measured_bot(feed) -> tuple[list[dict], int, str]:
    """``bones bot`` fed by ``feed(stdin)``: its replies, its peak RSS in KiB, its stderr."""
    proc = subprocess.Popen([sys.executable, "-c", _MEASURED_BOT], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_limit_memory(1 << 30))
    try:
        with contextlib.suppress(BrokenPipeError):
            feed(proc.stdin)
            proc.stdin.close()
        proc.wait(timeout=120)  # its replies and log are a few lines: no pipe fills
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err_text = err.decode(errors="replace")
    peak = int(err_text.rsplit("maxrss ", 1)[1].split()[0])
    return [json.loads(line) for line in out.splitlines()], peak, err_text


def test_a_request_line_past_the_limit_is_refused_and_skipped_and_the_next_answered():
    from bones.protocol.server import MAX_REQUEST

    fits = json.dumps(SPEC_REQUEST)
    fits = fits[:-1] + " " * (MAX_REQUEST - len(fits)) + "}"  # exactly the limit
    over = fits[:-1] + " }"
    for kind in (io.BytesIO, io.StringIO):
        lines = [over, fits, "x" * (5 * MAX_REQUEST), json.dumps(SPEC_REQUEST)]
        text = "\n".join(lines) + "\n"
        stdin = io.BytesIO(text.encode()) if kind is io.BytesIO else io.StringIO(text)
        out, err = io.StringIO(), io.StringIO()
        assert serve("greedy", stdin, out, err, seed=1) == 0
        replies = [json.loads(line) for line in out.getvalue().splitlines()]
        refused = {"id": None, "error": f"request line longer than {MAX_REQUEST} bytes"}
        assert [r.get("error") and r for r in replies] == [refused, None, refused, None]
        assert replies[1]["id"] == replies[3]["id"] == 41
    # counted in bytes, not characters, from a text stream too
    wide = fits[:-1].replace(" " * 10, "é" * 10, 1) + "}"
    out = io.StringIO()
    serve("greedy", io.StringIO(wide + "\n"), out, io.StringIO(), seed=1)
    assert json.loads(out.getvalue())["error"].startswith("request line longer")


@pytest.mark.timeout(180)
def test_a_flood_without_newline_is_skipped_in_bounded_memory():
    """64 MiB on one line (``head -c 3G /dev/zero | bones bot`` grew to 2.4 GB in 5 s):
    refused with one reply, skipped without being held, and the next request answered, the
    process's peak memory within a few times the limit of what answering takes alone."""
    from bones.protocol.server import MAX_REQUEST

    request = (json.dumps(SPEC_REQUEST) + "\n").encode()
    replies, alone, _ = _measured_bot(lambda stdin: stdin.write(request))
    assert [r["id"] for r in replies] == [41]

    def flood(stdin) -> None:
        block = b"\0" * (1 << 20)
        for _ in range(64):
            stdin.write(block)
        stdin.write(b"\n" + request)

    replies, flooded, err = _measured_bot(flood)
    assert replies[0] == {"id": None, "error": f"request line longer than {MAX_REQUEST} bytes"}
    assert [r["id"] for r in replies] == [None, 41], err
    assert (flooded - alone) * 1024 < 16 * MAX_REQUEST, (alone, flooded)


@pytest.mark.timeout(180)
@pytest.mark.skipif(not Path("/proc/self/io").is_file() or shutil.which("head") is None,
                    reason="counts the bytes read in /proc")
@pytest.mark.parametrize(("signum", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_bones_bot_hears_ctrl_c_and_sigterm_while_reading_an_endless_line(signum, status):
    """``head -c 3G /dev/zero | bones bot``: the pipe is never empty, so a read never waits
    and is never interrupted, and a signal is heard only between reads; a line read whole
    heard it only at its end (or never: it ran out of memory first). Read a bounded piece
    at a time, it hears it at once."""
    import signal

    feed = subprocess.Popen(["head", "-c", str(4 << 30), "/dev/zero"], stdout=subprocess.PIPE)
    proc = subprocess.Popen([sys.executable, "-m", "bones.cli.main", "bot"], stdin=feed.stdout,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=_limit_memory(512 << 20))
    feed.stdout.close()
    try:
        deadline = time.monotonic() + 60
        while _bytes_read(proc.pid) < 64 << 20 and proc.poll() is None \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(getattr(signal, signum))
        assert proc.wait(timeout=60) == status  # a liveness bound: it hears it at once
        assert b"Traceback" not in proc.stderr.read()
    finally:
        for child in (proc, feed):
            if child.poll() is None:
                child.kill()
            child.wait()


def _bytes_read(pid: int) -> int:
    """The bytes process ``pid`` has read so far (``rchar``), 0 once it is gone."""
    try:
        io_text = Path(f"/proc/{pid}/io").read_text()
    except OSError:
        return 0
    return int(io_text.split("rchar:")[1].split()[0])


#: Values a program we do not control may put anywhere in a request.
HOSTILE = {
    "a huge number": 10**4000, "a negative huge number": -(10**4000),
    "a long list": [5] * 10_000,
    "a long string": "x\"é\\" * 2500,  # no ', so Python would write it in '...'
    "deep nesting": json.loads("[" * 400 + "]" * 400), "true": True, "false": False,
    "null": None, "a fraction": 1.5, "an object": {"a": "b" * 1000, "True": None},
    "an empty string": "",
}


def _hostile_requests():
    """The spec's request with one value replaced by each hostile one, everywhere a value
    can go: a field, a field of the rules, a field of a move."""
    for name, value in HOSTILE.items():
        for field in ("id", "rules", "seat", "hand", "dealt", "boneyard", "leader", "moves",
                      "scores", "type"):
            yield f"{field}: {name}", dict(SPEC_REQUEST, **{field: value})
        for field in ("hand", "dealt", "scores", "moves"):
            changed = json.loads(json.dumps(SPEC_REQUEST))
            changed[field][0] = value
            yield f"{field}[0]: {name}", changed
        for key in ("preset", "players", "draw", "set", "target", name):
            changed = json.loads(json.dumps(SPEC_REQUEST))
            changed["rules"][key] = value
            yield f"rules.{key}: {name}", changed
        for index, key in ((0, "seat"), (0, "play"), (1, "end"), (3, "draw"), (3, "pass"),
                           (1, name)):
            changed = json.loads(json.dumps(SPEC_REQUEST))
            changed["moves"][index][key] = value
            yield f"moves[{index}].{key}: {name}", changed


@LIVENESS
def test_every_reply_to_a_hostile_request_is_one_short_line_in_json_terms():
    """Messages named values as Python writes them (``not True``, ``not None``, ``'x'``)
    and whole (a 4,300-digit seat gave a 4,349-byte message, a 10,000-entry ``dealt`` a
    30 KB reply): every value is now named as JSON writes it and cut, so every reply is one
    line of a few hundred bytes, whatever the request holds."""
    import re

    cases = list(_hostile_requests())
    text = "".join(json.dumps(request) + "\n" for _, request in cases)
    done = subprocess.run([sys.executable, "-m", "bones.cli.main", "bot", "--seed", "1"],
                          input=text.encode(), capture_output=True, timeout=300, check=False)
    assert done.returncode == 0
    replies = done.stdout.decode().splitlines()
    # "type" replaced: a request of a type it does not know gets no reply (the protocol)
    assert len(replies) == len(cases) - len(HOSTILE)
    python = re.compile(r"\b(True|False|None)\b|'[^'\s]*'|\[\d+(, \d+){20}")
    for reply in replies:
        assert len(reply.encode()) < 400, reply
        parsed = json.loads(reply)
        message = parsed.get("error", "")
        assert not python.search(message), message
    assert sum("error" in json.loads(reply) for reply in replies) > len(cases) // 2


def test_quoted_names_values_as_json_and_cuts_them():
    from bones.protocol.quoting import QUOTE_LIMIT, quoted

    assert [quoted(v) for v in (True, False, None, 1.5, "a\"b", [1, "x"], {"k": None})] == \
        ["true", "false", "null", "1.5", '"a\\"b"', '[1, "x"]', '{"k": null}']
    assert quoted(10**4000) == "9" * 0 + "1" + "0" * (QUOTE_LIMIT - 1) + "..."
    assert quoted(-(10**4000)).startswith("-10000") and len(quoted(-(10**4000))) == 43
    assert quoted(json.loads("[" * 400 + "]" * 400)) == "[" * QUOTE_LIMIT + "..."
    assert quoted("x" * 10**6) == '"' + "x" * (QUOTE_LIMIT - 1) + "..."
    assert quoted(float("inf")) == "Infinity"


# -- a bot's processes end with it --------------------------------------------------------------

def _straying_bot(tmp_path: Path, pids: Path, when: str = "start", then: str = "play") -> str:
    """An outside bot that double-forks a child into a session of its own (``setsid``),
    which sleeps with its pid written to ``pids``: at its start, or at its first move
    request; and then plays legally, or closes its output (to be given up)."""
    script = tmp_path / "straying.py"
    script.write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import json, os, sys, time
        from bones.protocol.codec import view_of

        def written():
            return len(open({str(pids)!r}).read().split()) if os.path.exists({str(pids)!r}) \\
                else 0

        def stray():
            before = written()
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    null = os.open(os.devnull, os.O_RDWR)
                    for fd in (0, 1, 2):
                        os.dup2(null, fd)
                    with open({str(pids)!r}, "a") as out:
                        out.write(f"{{os.getpid()}}\\n")
                    time.sleep(120)
                    os._exit(0)
                os._exit(0)
            os.wait()
            deadline = time.monotonic() + 20
            while written() == before and time.monotonic() < deadline:  # it is under way
                time.sleep(0.01)

        if {when!r} == "start":
            stray()
        moves = 0
        for line in sys.stdin:
            req = json.loads(line)
            if req["type"] == "hello":
                print(json.dumps({{"type": "hello", "protocol": "bones-bot/1",
                                  "name": "stray"}}), flush=True)
            elif req["type"] == "move":
                moves += 1
                if moves == 1 and {when!r} == "move":
                    stray()
                if {then!r} == "close":
                    os.close(1)
                    continue
                play = view_of(req).legal[0]
                reply = {{"id": req["id"], "play": str(play.tile)}}
                if play.end is not None:
                    reply["end"] = play.end
                print(json.dumps(reply), flush=True)
            elif req["type"] == "quit":
                break
    """))
    script.chmod(0o755)
    return str(script)


def _gone(pids: Path, least: int = 1) -> list[int]:
    """The pids written to ``pids`` (at least ``least``) once none of them runs, waiting
    a bounded while for them to end."""
    import signal

    deadline = time.monotonic() + 30
    while len(pids.read_text().split() if pids.exists() else ()) < least \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    found = [int(pid) for pid in pids.read_text().split()]
    assert len(found) >= least
    deadline = time.monotonic() + 10
    while any(running(pid) for pid in found) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = [pid for pid in found if running(pid)]
    for pid in alive:  # not left behind even when the test fails
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert not alive, "a process the bot started outlived it"
    return found


_ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(
    [str(Path(__file__).resolve().parent.parent / "src"), os.environ.get("PYTHONPATH", "")])}


@pytest.mark.timeout(180)
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="strays are found in /proc")
def test_a_child_that_left_the_bots_session_does_not_outlive_bones_arena(tmp_path):
    pids = tmp_path / "pids"
    bot = _straying_bot(tmp_path, pids)
    done = subprocess.run([sys.executable, "-m", "bones.cli.main", "arena", "--bots",
                           f"cmd:{bot},random", "--games", "2", "--jobs", "1", "--quiet",
                           "--seed", "1", "--think", "0.05"], env=_ENV,
                          capture_output=True, text=True, timeout=150, check=False)
    assert done.returncode == 0, done.stderr
    assert "played for" not in done.stderr  # it played: nothing but its stray is at fault
    assert len(_gone(pids, 4)) == 4  # 2 deals, 2 rotations: started 4 times, 4 strays


@pytest.mark.timeout(180)
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="strays are found in /proc")
def test_a_child_that_left_the_bots_session_does_not_outlive_bones_play(tmp_path):
    pids = tmp_path / "pids"
    bot = _straying_bot(tmp_path, pids)
    done = subprocess.run([sys.executable, "-m", "bones.cli.main", "play", "--seats",
                           f"cmd:{bot},greedy", "--seed", "4", "--think", "0.05", "--target",
                           "10"], env=_ENV, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=150, check=False)
    assert done.returncode == 0, done.stderr
    _gone(pids)


@LIVENESS
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="strays are found in /proc")
def test_a_bot_given_up_mid_game_is_ended_with_its_strays_at_once(tmp_path):
    """Given up (here: it closed its output at its first move request, after leaving a
    child in a session of its own), the bot's processes end then, not when the table is
    closed: nothing of a bot that no longer plays goes on running."""
    pids = tmp_path / "pids"
    log = io.StringIO()
    bot = ExternalBot(_straying_bot(tmp_path, pids, when="move", then="close"),
                      random.Random(0), think=0.5, log=log)
    proc = bot._proc
    try:
        game, _ = _play_game_with(lambda: bot)
        assert game.results and "closed its output" in log.getvalue()
        _gone(pids)
        assert proc.wait(timeout=10) is not None
    finally:
        bot.close()


@LIVENESS
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="strays are found in /proc")
def test_closing_a_bot_ends_a_child_that_cleared_its_environment_below_a_marked_one(tmp_path):
    """The mark is in the environment; a process started with none (``env -i``) is still
    found while it is below a process that carries it."""
    pids = tmp_path / "pids"
    bare = tmp_path / "bare.py"
    bare.write_text("import os, sys, time\n"
                    "open(sys.argv[1], 'a').write(str(os.getpid()) + '\\n')\n"
                    "time.sleep(120)\n")
    bot, _ = _bot(tmp_path, f"""
        import subprocess
        if os.fork() == 0:
            os.setsid()
            subprocess.Popen(["/usr/bin/env", "-i", {sys.executable!r}, {str(bare)!r},
                              {str(pids)!r}], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(120)
            os._exit(0)
        for line in sys.stdin:
            req = json.loads(line)
            if req["type"] == "hello":
                print(HELLO, flush=True)
            elif req["type"] == "quit":
                break
    """)
    deadline = time.monotonic() + 30
    while not pids.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    bot.close()
    _gone(pids)


@pytest.mark.timeout(120)
def test_a_bot_writing_one_endless_line_is_given_up_in_bounded_memory(tmp_path):
    """Each output line is read up to ``MAX_LINE`` and the rest dropped as it comes; a line
    still going past ``GIVE_UP_LINE`` gives the bot up (its moves played for it at once)
    rather than costing every move its deadline. Measured in a process of its own: the
    referee's peak memory grows by far less than what the bot wrote."""
    bot = _script(tmp_path, """
        import json, sys
        sys.stdin.readline()
        print(json.dumps({"type": "hello", "protocol": "bones-bot/1", "name": "flood"}),
              flush=True)
        sys.stdin.readline()
        block = "x" * (1 << 20)
        for _ in range(256):  # 256 MiB at most: without a bound the referee would hold it
            sys.stdout.write(block)
        sys.stdout.flush()
    """)
    referee = f"""
import io, json, random, resource, sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from test_bot_protocol import _play_game_with
from bones.protocol.external import ExternalBot
log = io.StringIO()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
bot = ExternalBot({bot!r}, random.Random(0), think=5, log=log)
game, _ = _play_game_with(lambda: bot)
bot.close()
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"grew": after - before, "log": log.getvalue(), "asked": bot.asked,
                  "played_for": bot.played_for, "done": bool(game.results)}}))
"""
    done = subprocess.run([sys.executable, "-c", referee], capture_output=True, text=True,
                          timeout=110, check=False, preexec_fn=_limit_memory(2 << 30),
                          env=_ENV)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["done"] and found["asked"] == found["played_for"] > 1
    assert "a line longer than 65536 bytes" in found["log"]
    assert "it wrote a line longer than 1048576 bytes" in found["log"]
    assert found["log"].count("\n") == 2  # that reply's fault, then given up: no deadlines
    assert found["grew"] * 1024 < 16 << 20, found["grew"]


@LIVENESS
def test_a_four_deal_arena_with_a_bot_silent_at_hello_starts_it_once_and_plays_for_it(
        tmp_path, monkeypatch, capsys):
    """Such an arena took 103 s: every table started the bot again and waited for its
    hello, then for every move. Now the program is started once in the run, waited for once,
    and every move of its seat, at every table, is the referee's, recorded as such."""
    import bones.protocol.external as external
    from bones.cli.main import main

    monkeypatch.setattr(external, "HELLO_TIMEOUT", 0.5)
    monkeypatch.setattr(external, "_SILENT", {})
    script = tmp_path / "silent.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    pass\n")
    started = []
    real = external.subprocess.Popen

    def counting(args, *rest, **options):
        if str(script) in args:
            started.append(args)
        return real(args, *rest, **options)

    monkeypatch.setattr(external.subprocess, "Popen", counting)
    asks = []
    real_ask = external.ExternalBot._ask

    def counted_ask(self, request, timeout):
        if self._gone is None:  # a bot given up is not asked: its seat is played for at once
            asks.append(request["type"])
        return real_ask(self, request, timeout)

    monkeypatch.setattr(external.ExternalBot, "_ask", counted_ask)
    bot = f"cmd:{sys.executable} {script}"
    folder = tmp_path / "run"
    assert main(["arena", "--bots", f"{bot},random", "--games", "4", "--jobs", "1", "--quiet",
                 "--json", "--seed", "1", "--think", "0.5", "--record", str(folder)]) == 0
    out, err = capsys.readouterr()
    row = next(r for r in json.loads(out)["levels"] if r["level"] == bot)
    assert len(started) == 1 and asks == ["hello"]  # one start, one wait, in 8 tables
    assert row["moves_asked"] > 0 and row["moves_played_for"] == row["moves_asked"]
    whys = [made["why"] for path in sorted(folder.glob("deal-*.json"))
            for made in json.loads(path.read_text())["x-arena"].get("played_for", [])]
    assert len(whys) == row["moves_played_for"]
    assert all("no reply to hello within 0.5 s" in why for why in whys)
    assert err.count("no reply to hello") == 1
