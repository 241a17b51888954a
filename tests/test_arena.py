"""bones arena: duplicate deals, reproducible seeded runs, counts per side, and the SPRT."""

from __future__ import annotations

import io
import json
import os
import sys

import pytest

from bones.cli.arena import SPRT_STEP
from bones.cli.main import main
from bones.engine.moves import Play
from bones.engine.rules import PRESETS
from bones.record import read_file
from bones.sim.arena import lineup, play_deals, rotations
from bones.sim.arena_stats import ArenaTally
from bones.sim.parallel import AHEAD, Workers
from bones.sim.sprt import Sprt


def _arena(capsys, *args: str) -> dict:
    assert main(["arena", "--json", "--quiet", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_lineup_repeats_around_the_table_and_rotations_are_distinct():
    assert lineup(["a", "b"], 3) == ("a", "b", "a")
    assert rotations(("a", "b", "a", "b")) == (("a", "b", "a", "b"), ("b", "a", "b", "a"))
    assert len(rotations(("a", "b", "b"))) == 3
    assert rotations(("a", "a")) == (("a", "a"),)


def test_every_rotation_plays_the_same_deal():
    rules = PRESETS["block"]
    for index in range(10):
        first = next(play_deals(rules, ["greedy", "random"], 4, 1, start=index))
        again = next(play_deals(rules, ["random", "greedy"], 4, 1, start=index))
        assert [s for s, _ in first.plays] == [("greedy", "random"), ("random", "greedy")]
        # The same deal with the same bots in the same seats is the same hand.
        assert first.plays[0] == again.plays[1] and first.plays[1] == again.plays[0]


def test_seeded_arena_runs_reproduce_exactly(capsys):
    a = _arena(capsys, "--bots", "basic,greedy", "--games", "30", "--seed", "5", "--jobs", "1")
    b = _arena(capsys, "--bots", "basic,greedy", "--games", "30", "--seed", "5", "--jobs", "2")
    assert a == b
    c = _arena(capsys, "--bots", "basic,greedy", "--games", "30", "--seed", "6", "--jobs", "1")
    assert c["levels"] != a["levels"]


def test_seeded_arena_runs_of_search_bots_reproduce_exactly(capsys):
    """The search bots budget steps, not seconds: one worker or two, the same hands."""
    args = ("--bots", "expert,ismcts", "--games", "3", "--seed", "8", "--think", "0.005")
    a = _arena(capsys, *args, "--jobs", "1")
    b = _arena(capsys, *args, "--jobs", "2")
    assert a == b


def test_two_player_hands_count_once_per_bot_and_add_up(capsys):
    out = _arena(capsys, "--bots", "greedy,random", "--games", "40", "--seed", "1", "--jobs", "1")
    assert out["hands"] == 80
    greedy, rand = out["levels"]
    assert greedy["hands"] == rand["hands"] == 80
    assert greedy["wins"] + rand["wins"] + greedy["ties"] == 80
    assert out["head_to_head"]["wins"] == greedy["wins"]


def test_a_partnership_is_one_trial_per_hand_not_two(capsys):
    out = _arena(capsys, "--bots", "greedy,random", "--games", "20", "--seed", "2", "--jobs",
                 "1", "--rules", "block", "--players", "4", "--partnerships", "--hand-size", "7")
    assert out["rotations"] == 2 and out["hands"] == 40
    assert [row["hands"] for row in out["levels"]] == [40, 40]


def test_tally_of_three_seats_counts_each_seat_of_a_level():
    rules = PRESETS["draw"].replace(players=3)
    tally = ArenaTally(rules, ("basic", "greedy"))
    for outcome in play_deals(rules, ["basic", "greedy", "greedy"], 3, 5):
        tally.add(outcome)
    assert tally.stats["basic"].hands == 15 and tally.stats["greedy"].hands == 30
    basic, greedy = tally.stats["basic"], tally.stats["greedy"]
    rate_b, rate_g = basic.wins / basic.hands, greedy.wins / greedy.hands
    assert tally.relative() == pytest.approx(rate_b / (rate_b + rate_g))


def test_sprt_accepts_the_stronger_bot_and_rejects_an_equal_one():
    sprt = Sprt()
    assert sprt.verdict(600, 400) == "H1"
    assert sprt.verdict(500, 500) == "H0"
    assert sprt.verdict(5, 4) == "continue"
    with pytest.raises(ValueError):
        Sprt(p0=0.6, p1=0.5)


def test_sprt_stops_a_lopsided_match_early(capsys):
    out = _arena(capsys, "--bots", "greedy,random", "--games", "2000", "--seed", "3", "--sprt",
                 "--jobs", "1")
    assert out["sprt"]["verdict"] == "H1"
    assert out["deals"] < 2000


def test_unknown_bot_is_one_line_and_status_1(capsys):
    assert main(["arena", "--bots", "nobody,greedy", "--quiet"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("bones: unknown bot 'nobody'") and "\n" not in err


def _not_startable(tmp_path, case: str) -> str:
    if case == "missing file":
        return str(tmp_path / "no-such-bot")
    if case == "not executable":
        script = tmp_path / "bot.py"
        script.write_text("print('hi')\n")
        script.chmod(0o644)
        return str(script)
    if case == "script without #!":  # the docs' example bot once had no #! line
        script = tmp_path / "mybot.py"
        script.write_text("import json, sys\nprint('hi')\n")
        script.chmod(0o755)
        return str(script)
    if case in ("missing interpreter", "env finds nothing"):
        script = tmp_path / "bot.sh"
        script.write_text("#!/nonexistent/interp\n" if case == "missing interpreter"
                          else "#!/usr/bin/env no-such-interpreter-anywhere\n")
        script.chmod(0o755)
        return str(script)
    if case == "not on PATH":
        return "no-such-bot-program-anywhere --level x"
    return '"unbalanced quote'


@pytest.mark.parametrize("case", ["missing file", "not executable", "script without #!",
                                  "missing interpreter", "env finds nothing", "not on PATH",
                                  "unbalanced quote"])
@pytest.mark.parametrize("command", ["arena", "simulate"])
def test_an_outside_bot_that_cannot_start_is_refused_before_anything_is_played(
        tmp_path, capsys, case, command):
    """Not a whole run of moves played for a bot that never started: one line, status 1,
    and no record folder made."""
    level = "cmd:" + _not_startable(tmp_path, case)
    record = tmp_path / "records"
    assert main([command, "--bots", f"greedy,{level}", "--games", "2", "--quiet",
                 "--record", str(record)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"bones: bot {level!r} cannot start: ")
    assert not record.exists()


def test_play_refuses_an_outside_bot_seat_that_cannot_start(tmp_path, capsys):
    level = "cmd:" + _not_startable(tmp_path, "missing file")
    assert main(["play", "--seats", f"human,{level}"]) == 1
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "cannot start: no file" in err


def test_an_outside_bot_that_can_start_is_let_through_the_check():
    from bones.protocol.external import cannot_start

    assert cannot_start(f"{sys.executable} -m bones.cli.main bot") is None
    assert cannot_start("python3 -c pass") is None  # found on PATH
    assert cannot_start(sys.executable) is None  # a compiled program


def test_a_script_found_on_path_is_checked_as_its_file(tmp_path, monkeypatch):
    from bones.protocol.external import cannot_start

    script = tmp_path / "nobang"
    script.write_text("import json\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert "no #! line" in (cannot_start("nobang --level x") or "")


def test_a_hash_bang_line_with_windows_line_endings_is_refused(tmp_path):
    from bones.protocol.external import cannot_start

    script = tmp_path / "crlf.py"
    script.write_bytes(b"#!/usr/bin/env python3\r\nimport json\r\n")
    script.chmod(0o755)
    assert "CRLF" in (cannot_start(str(script)) or "")


def test_a_script_with_a_hash_bang_line_is_let_through(tmp_path):
    from bones.protocol.external import cannot_start

    script = tmp_path / "mybot.py"
    script.write_text("#!/usr/bin/env python3\nimport json, sys\n")
    script.chmod(0o755)
    assert cannot_start(str(script)) is None


def test_more_levels_than_seats_are_refused_not_dropped(tmp_path, capsys):
    record = tmp_path / "records"
    assert main(["arena", "--bots", "greedy,random,basic", "--players", "2", "--quiet",
                 "--record", str(record)]) == 1
    err = capsys.readouterr().err
    assert err == ("bones: 3 bots for 2 seats: give at most one level per seat (the lineup "
                   "repeats round the table)\n")
    assert not record.exists()


def test_sprt_with_a_single_level_is_refused_not_ignored(capsys):
    assert main(["arena", "--bots", "greedy", "--sprt", "--games", "2", "--quiet"]) == 1
    assert capsys.readouterr().err == "bones: --sprt compares two levels, and the lineup has one\n"


def test_a_rules_flag_with_a_digit_that_is_not_decimal_is_one_line_and_status_2(capsys):
    """A value no rule set could have is a flag value that cannot be read, as --seed abc."""
    with pytest.raises(SystemExit) as exited:
        main(["arena", "--target", "\u00b2", "--games", "1", "--quiet"])
    assert exited.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("bones arena: argument --target: must be a whole number") \
        and "\n" not in err


@pytest.mark.parametrize(("flag", "value"), [("--games", "0"), ("--games", "-3"),
                                             ("--jobs", "0"), ("--jobs", "-1")])
def test_games_and_jobs_must_be_at_least_one(capsys, flag, value):
    with pytest.raises(SystemExit) as exited:
        main(["arena", flag, value, "--quiet"])
    assert exited.value.code == 2
    assert capsys.readouterr().err == (f"bones arena: argument {flag}: must be at least 1, "
                                       f"not {value} (see bones arena --help)\n")


def test_an_sprt_run_is_the_plain_run_of_as_many_deals_stopped_at_a_look(capsys):
    """The SPRT looks every SPRT_STEP deals and stops there; what it played is exactly
    the plain seeded run of that many deals, whatever the number of workers."""
    args = ("--bots", "basic,greedy", "--seed", "1")
    stopped = _arena(capsys, *args, "--games", "3000", "--sprt", "--jobs", "2")
    assert stopped["sprt"]["verdict"] == "H1"
    deals = stopped["deals"]
    assert deals < 3000 and deals % SPRT_STEP == 0
    plain = _arena(capsys, *args, "--games", str(deals), "--jobs", "1")
    assert plain["levels"] == stopped["levels"] and plain["hands"] == stopped["hands"]


def test_workers_give_results_in_order_and_read_only_a_window_ahead():
    pulled = []

    def items():
        for i in range(100_000):  # handed out all at once, these would all be pulled
            pulled.append(i)
            yield -i

    with Workers(2) as workers:
        results = workers.map(abs, items(), chunksize=3)
        first = [next(results) for _ in range(10)]
    assert first == list(range(10))
    assert len(pulled) <= 10 + 3 * (AHEAD * 2 + 1)


def test_moves_played_for_an_outside_bot_are_counted_in_the_results(capsys, tmp_path):
    """A bot that never answers a move still leaves a finished match, and the results say
    that every one of its moves was the referee's; our own bots are never played for."""
    script = tmp_path / "mute.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'hello', 'name': 'mute'}), flush=True)\n"
        "    else:\n"
        "        print('{}', flush=True)\n")
    out = _arena(capsys, "--bots", f"cmd:{sys.executable} {script},greedy", "--games", "2",
                 "--seed", "3", "--jobs", "1", "--think", "0.05")
    mute, greedy = out["levels"]
    assert mute["moves_asked"] > 0 and mute["moves_played_for"] == mute["moves_asked"]
    assert greedy["moves_asked"] == greedy["moves_played_for"] == 0


def test_records_folder_holds_every_hand_each_a_record_that_replays_to_the_tallied_result(
        capsys, tmp_path):
    """``--record``: one file per deal and rotation, each a record the reader accepts, whose
    replayed results add up to the printed table, and the results themselves beside them."""
    folder = tmp_path / "match"
    out = _arena(capsys, "--bots", "greedy,random,random", "--players", "3", "--rules", "draw",
                 "--games", "5", "--seed", "11", "--jobs", "2", "--record", str(folder))
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["arena.json"] + [f"deal-{d:04d}-{r}.json" for d in range(5)
                                      for r in range(3)]
    assert json.loads((folder / "arena.json").read_text()) == out
    wins = dict.fromkeys(("greedy", "random"), 0)
    for deal in range(5):
        dealt = set()
        for rotation in range(3):
            doc = json.loads((folder / f"deal-{deal:04d}-{rotation}.json").read_text())
            assert doc["x-arena"] == {"seed": 11, "deal": deal, "rotation": rotation,
                                      "think": 0.1}
            record, game = read_file(folder / f"deal-{deal:04d}-{rotation}.json")
            assert record.players == rotations(("greedy", "random", "random"))[rotation]
            hand = record.hands[0]
            dealt.add((hand.deal, hand.boneyard, hand.leader))
            winner = game.results[-1].winner
            if winner is not None:
                wins[record.players[winner]] += 1
        assert len(dealt) == 1  # every rotation plays the same tiles
    assert [(row["level"], row["wins"]) for row in out["levels"]] == list(wins.items())


def test_records_folder_that_holds_a_run_or_is_a_file_is_refused_before_any_play(
        capsys, tmp_path):
    folder = tmp_path / "match"
    _arena(capsys, "--games", "2", "--seed", "1", "--record", str(folder))
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert main(["arena", "--quiet", "--games", "1", "--seed", "2", "--record",
                 str(folder)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already holds" in err and str(folder) in err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    plain = tmp_path / "plain"
    plain.write_text("x")
    assert main(["arena", "--quiet", "--games", "1", "--record", str(plain)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a folder" in err
    assert plain.read_text() == "x"


def _halfway_bot(tmp_path) -> str:
    """An outside bot that answers its odd-numbered move requests legally (its first legal
    tile) and garbles the even-numbered ones."""
    script = tmp_path / "halfway.py"
    script.write_text(
        "import json, sys\n"
        "from bones.protocol.codec import view_of\n"
        "asked = 0\n"
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    if request['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'hello', 'name': 'halfway'}), flush=True)\n"
        "    elif request['type'] == 'move':\n"
        "        asked += 1\n"
        "        if asked % 2 == 0:\n"
        "            print('not json', flush=True)\n"
        "            continue\n"
        "        play = view_of(request).legal[0]\n"
        "        reply = {'id': request['id'], 'play': str(play.tile)}\n"
        "        if play.end is not None:\n"
        "            reply['end'] = play.end\n"
        "        print(json.dumps(reply), flush=True)\n")
    return f"cmd:{sys.executable} {script}"


def test_a_record_names_each_play_made_for_an_outside_bot_and_why(capsys, tmp_path):
    """A bot that answers only its odd-numbered move requests, legally (its first legal
    tile), and garbles the others: the records list exactly the plays the referee made for
    it, by move number and reason, and none of ours."""
    folder = tmp_path / "match"
    bot = _halfway_bot(tmp_path)
    out = _arena(capsys, "--bots", f"{bot},greedy", "--games", "3", "--seed", "3", "--jobs",
                 "1", "--think", "0.2", "--record", str(folder))
    listed = 0
    for path in sorted(folder.glob("deal-*.json")):
        doc = json.loads(path.read_text())
        record, _ = read_file(path)
        seat = record.players.index(bot)
        made = doc["x-arena"].get("played_for", [])
        assert all(m["seat"] == seat and m["why"].startswith("reply is not JSON") for m in made)
        ours = [n for n, move in enumerate(record.hands[0].moves, 1)
                if move.seat == seat and isinstance(move, Play)]
        assert [m["move"] for m in made] == ours[1::2]  # every second play of the bot's
        listed += len(made)
    row = next(r for r in out["levels"] if r["level"] == bot)
    assert listed == row["moves_played_for"] > 0


def _check_played_for(record, made: list[dict], seat: int) -> int:
    """Every listed play is every second play the bot's seat made, hand by hand (the bot
    counts its requests over the whole game, so the parity runs across hands)."""
    ours = [(h, n) for h, hand in enumerate(record.hands, 1)
            for n, move in enumerate(hand.moves, 1) if move.seat == seat and isinstance(move, Play)]
    assert made and all(m["seat"] == seat and m["why"].startswith("reply is not JSON")
                        for m in made)
    assert [(m["hand"], m["move"]) for m in made] == ours[1::2]
    return len(made)


def test_simulate_records_name_each_play_made_for_an_outside_bot(capsys, tmp_path):
    bot = _halfway_bot(tmp_path)
    folder = tmp_path / "games"
    assert main(["simulate", "--bots", f"{bot},greedy", "--games", "2", "--seed", "4",
                 "--jobs", "1", "--think", "0.2", "--quiet", "--target", "20",
                 "--record", str(folder)]) == 0
    for path in sorted(folder.glob("*.json")):
        record, _ = read_file(path)
        assert len(record.hands) > 1  # the bot's faults are placed hand by hand
        _check_played_for(record, json.loads(path.read_text())["x-played-for"],
                          record.players.index(bot))


def test_play_records_name_each_play_made_for_an_outside_bot(capsys, tmp_path, monkeypatch):
    bot = _halfway_bot(tmp_path)
    path = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--seats", f"{bot},greedy", "--seed", "4", "--think", "0.2",
                 "--target", "20", "--record", str(path)]) == 0
    record, game = read_file(path)
    assert game.finished and len(record.hands) > 1
    _check_played_for(record, json.loads(path.read_text())["x-played-for"], 0)


def test_head_to_head_counts_only_sides_that_are_all_one_level(capsys):
    """With partnerships a side counts for a level only when both its seats are that
    level's: here random and basic always share a side, so the head-to-head between greedy
    and random holds greedy's wins only, as the table's rows do."""
    out = _arena(capsys, "--rules", "block", "--players", "4", "--partnerships",
                 "--hand-size", "7", "--bots", "greedy,random,greedy,basic", "--games", "6",
                 "--seed", "1", "--jobs", "1")
    rows = {row["level"]: row for row in out["levels"]}
    assert rows["random"]["hands"] == 0 and rows["basic"]["hands"] == 0
    assert out["head_to_head"]["losses"] == 0
    assert out["head_to_head"]["wins"] == rows["greedy"]["wins"] > 0


def test_a_lineup_that_never_gives_a_side_one_level_is_refused(capsys):
    assert main(["arena", "--rules", "block", "--players", "4", "--partnerships",
                 "--hand-size", "7", "--bots", "greedy,greedy,random,random", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "gives no side a single level" in err


def test_the_text_report_says_deals_and_hands_and_what_its_two_shares_are(capsys):
    """``--games 20`` plays 20 deals in both seatings: the report says so in words, and the
    two figures that read alike (head to head, relative strength) are told apart."""
    assert main(["arena", "--games", "20", "--seed", "1", "--quiet"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    out_json = _arena(capsys, "--games", "20", "--seed", "1")
    h2h = out_json["head_to_head"]
    assert "20 deals, each played in both seatings (rotations): 40 hands, " in out
    assert "Rates count hands; the 95% intervals count deals" in out
    assert f"head to head: greedy won {h2h['wins']} of the {h2h['wins'] + h2h['losses']} " \
           "hands won by either: " in out
    assert "relative strength: " in out and "(greedy's win rate / both rates)" in out
    assert "(the same share as head to head, its interval reckoned another way)" in out
    assert "blocked hands" not in out
