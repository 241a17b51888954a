"""``bones simulate``: the referee, the statistics and the command, seeded and reproducible."""

import json
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from bones.cli.main import main
from bones.engine.errors import BonesError
from bones.engine.game import deal_hand, new_game
from bones.engine.moves import Play
from bones.engine.rules import PRESETS
from bones.engine.tiles import Tile
from bones.record.reader import read_file
from bones.sim.referee import play_game, play_hand, play_series
from bones.sim.stats import wilson


def simulate(capsys, *args: str) -> dict:
    assert main(["simulate", "--json", "--quiet", *args]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_plays_whole_games_and_every_game_has_a_winner(capsys, preset):
    result = simulate(capsys, "--rules", preset, "--bots", "greedy,random", "--games", "2",
                      "--seed", "3")
    assert result["games"] == result["games_finished"] == 2
    assert sum(side["wins"] for side in result["sides"]) == 2
    assert result["hands"] >= 2 and result["hands_per_game"] == result["hands"] / 2


@pytest.mark.parametrize("preset", ["draw", "pool"])
def test_every_seat_of_a_four_player_partnership_game_is_played(capsys, preset):
    result = simulate(capsys, "--rules", preset, "--players", "4", "--partnerships",
                      "--bots", "greedy,random,greedy,random", "--hands", "12", "--seed", "2")
    assert [side["seats"] for side in result["sides"]] == [[0, 2], [1, 3]]
    assert [side["bots"] for side in result["sides"]] == [["greedy", "greedy"],
                                                          ["random", "random"]]
    assert result["hands"] == 12 and len(result["seats"]) == 4


def test_same_seed_gives_the_same_output_and_another_seed_does_not(capsys):
    args = ("--rules", "draw", "--players", "3", "--bots", "random", "--hands", "40")
    first = simulate(capsys, *args, "--seed", "11")
    assert simulate(capsys, *args, "--seed", "11") == first
    assert simulate(capsys, *args, "--seed", "12") != first
    assert first["seed"] == 11


def test_without_a_seed_one_is_chosen_and_reported(capsys):
    result = simulate(capsys, "--bots", "random", "--hands", "3")
    assert isinstance(result["seed"], int)
    again = simulate(capsys, "--bots", "random", "--hands", "3", "--seed", str(result["seed"]))
    assert again == result


@pytest.mark.parametrize("count", [("--games", "6"), ("--hands", "45")])
def test_two_jobs_give_the_same_results_as_one(capsys, count):
    args = ("--rules", "pool", "--players", "3", "--bots", "greedy,random,random", *count,
            "--seed", "8")
    assert simulate(capsys, *args, "--jobs", "2") == simulate(capsys, *args, "--jobs", "1")


def test_wins_add_up_to_games_played_minus_ties(capsys):
    games = simulate(capsys, "--bots", "greedy,random", "--games", "5", "--seed", "4")
    assert games["ties"] == 0
    assert sum(s["wins"] for s in games["sides"]) == games["games"] - games["ties"]


def test_hands_won_add_up_to_hands_played_minus_tied_hands(capsys):
    # Block with four players leaves 8 tiles out, so blocked hands and ties are common.
    result = simulate(capsys, "--players", "4", "--bots", "random", "--hands", "150",
                      "--seed", "1")
    assert result["unit"] == "hands" and result["hands"] == 150
    assert result["tied_hands"] > 0 and result["ties"] == result["tied_hands"]
    assert sum(s["wins"] for s in result["sides"]) == 150 - result["tied_hands"]
    assert result["blocked_hands"] >= result["tied_hands"]


@pytest.mark.parametrize(("wins", "trials", "low", "high"), [
    (8, 10, 0.4902, 0.9433),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (50, 100, 0.4038, 0.5962),
    (1, 1000, 0.000177, 0.005643),
])
def test_wilson_interval_matches_known_values(wins, trials, low, high):
    places = max(len(str(low)), len(str(high))) - 2
    assert tuple(round(x, places) for x in wilson(wins, trials)) == (low, high)


def test_wilson_interval_of_no_trials_is_everything():
    assert wilson(0, 0) == (0.0, 1.0)


def test_recorded_games_replay_to_the_same_scores_and_chips(capsys, tmp_path):
    out = tmp_path / "games"
    result = simulate(capsys, "--rules", "pool", "--players", "3",
                      "--bots", "greedy,random,greedy", "--games", "3", "--seed", "6",
                      "--record", str(out))
    files = sorted(out.iterdir())
    assert [f.name for f in files] == ["game-0001.json", "game-0002.json", "game-0003.json"]
    games = [read_file(f)[1] for f in files]
    assert all(game.finished for game in games)
    assert sum(len(game.results) for game in games) == result["hands"]
    for side in result["sides"]:
        assert sum(game.scores[side["side"]] for game in games) == side["points"]
    for seat in result["seats"]:
        assert sum(game.chips[seat["seat"]] for game in games) == seat["chips"]


def test_a_hands_run_records_its_last_game_cut_short(capsys, tmp_path):
    out = tmp_path / "hands"
    result = simulate(capsys, "--bots", "random", "--hands", "30", "--seed", "2",
                      "--record", str(out))
    games = [read_file(f)[1] for f in sorted(out.iterdir())]
    assert len(games) == result["games"] > 1
    assert sum(len(game.results) for game in games) == 30
    assert not games[-1].finished and all(game.finished for game in games[:-1])


def test_a_single_game_is_recorded_to_the_json_file_named(capsys, tmp_path):
    path = tmp_path / "one.json"
    result = simulate(capsys, "--rules", "draw", "--bots", "greedy,random", "--games", "1",
                      "--seed", "9", "--record", str(path))
    record, game = read_file(path)
    assert record.players == ("greedy", "random")
    assert list(game.scores) == [side["points"] for side in result["sides"]]


def test_the_table_names_bots_wins_and_interval(capsys):
    assert main(["simulate", "--bots", "greedy,random", "--games", "4", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "seed 1" in out and "greedy" in out and "random" in out
    assert "win rate [95% CI]" in out and "hands per game" in out


@pytest.mark.parametrize("bots", ["greedy,random,greedy", "greedy,perfect"])
def test_bad_bots_are_refused_in_one_line(capsys, bots):
    assert main(["simulate", "--bots", bots, "--games", "1", "--seed", "1"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("bones: ") and err.count("\n") == 1


def test_installed_command_refuses_a_wrong_bot_count_without_a_traceback():
    bones = Path(sys.executable).with_name("bones")
    if not bones.exists():
        pytest.skip("bones is not installed beside this Python")
    done = subprocess.run([str(bones), "simulate", "--players", "3", "--bots", "greedy,random",
                           "--seed", "1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("bones: 2 bots for 3 seats")
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


# -- the referee -----------------------------------------------------------------------------


class Spy:
    """A bot that plays the first legal play and checks it is asked only when it must play."""

    name = "spy"

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.asked = 0

    def choose(self, view):
        assert view.seat == self.seat == view.to_move and view.legal
        self.asked += 1
        return view.legal[0]


def test_bots_are_asked_only_when_their_seat_holds_a_play():
    rules = PRESETS["draw"].replace(players=3)
    spies = [Spy(seat) for seat in range(3)]
    game = new_game(rules)
    for _ in range(5):
        game = play_hand(deal_hand(game, Random(len(game.results))), spies)
    plays = sum(isinstance(m, Play) for hand in game.hands for m in hand.moves)
    assert plays == sum(spy.asked for spy in spies) > 0


def test_a_bot_that_chooses_an_illegal_play_is_refused():
    class Cheat:
        name = "cheat"

        def choose(self, view):
            return Play(view.seat, Tile(9, 9))

    game = deal_hand(new_game(PRESETS["block"]), Random(1))
    with pytest.raises(BonesError, match=r"cheat in seat 0 chose .*, which is not a legal play"):
        play_hand(game, [Cheat(), Cheat()])


def test_a_hands_series_is_the_prefix_of_its_whole_games():
    rules, levels = PRESETS["pool"], ("greedy", "random")
    cut = list(play_series(rules, levels, 5, hands=25))
    assert sum(len(o.results) for o in cut) == 25
    for outcome in cut:
        whole = play_game(rules, levels, 5, outcome.index)
        assert whole.results[:len(outcome.results)] == outcome.results


def test_a_record_folder_that_holds_a_series_or_is_a_file_is_refused_before_any_play(
        capsys, tmp_path):
    out = tmp_path / "games"
    simulate(capsys, "--bots", "greedy,random", "--games", "2", "--seed", "1", "--record",
             str(out))
    before = {f.name: f.read_bytes() for f in out.iterdir()}
    assert main(["simulate", "--quiet", "--bots", "greedy,random", "--games", "1",
                 "--seed", "2", "--record", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already holds game-000" in err
    assert {f.name: f.read_bytes() for f in out.iterdir()} == before
    plain = tmp_path / "plain"
    plain.write_text("x")
    assert main(["simulate", "--quiet", "--games", "2", "--record", str(plain)]) == 1
    assert "not a folder" in capsys.readouterr().err and plain.read_text() == "x"


def test_a_series_that_fails_midway_still_seeds_the_records_it_wrote(capsys, tmp_path,
                                                                    monkeypatch):
    """Records hold no seed while the series goes on; one that stops with an error has no
    game left to deal either, so its records get their seeds as a finished one's do."""
    import bones.cli.simulate as simulate_cli
    from bones.engine.errors import BonesError

    real = simulate_cli.play_series

    def failing(*args, **kwargs):
        for number, outcome in enumerate(real(*args, **kwargs)):
            if number == 3:
                raise BonesError("a game went wrong")
            yield outcome

    monkeypatch.setattr(simulate_cli, "play_series", failing)
    folder = tmp_path / "games"
    assert main(["simulate", "--bots", "greedy", "--games", "6", "--seed", "8", "--record",
                 str(folder), "--jobs", "1", "--quiet"]) == 1
    assert "a game went wrong" in capsys.readouterr().err
    seeds = [json.loads(p.read_text())["seed"] for p in sorted(folder.glob("game-*.json"))]
    assert seeds == ["8:0", "8:1", "8:2"]
    assert not list(folder.glob("*.tmp"))


def test_a_json_record_path_for_several_games_is_refused_before_play(capsys, tmp_path):
    """A ``.json`` path holds one game; ``--games 3`` would make a folder named like a file."""
    path = tmp_path / "out.json"
    assert main(["simulate", "--bots", "greedy", "--games", "3", "--record", str(path),
                 "--quiet", "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "names one game's file" in err and not path.exists()


def test_a_json_record_file_that_holds_a_game_is_refused_before_play(capsys, tmp_path):
    """As a used folder is: a second run would replace the first one's game without a word."""
    path = tmp_path / "out.json"
    simulate(capsys, "--bots", "greedy", "--games", "1", "--seed", "3", "--record", str(path))
    before = path.read_bytes()
    assert main(["simulate", "--bots", "greedy", "--games", "1", "--seed", "4", "--record",
                 str(path), "--quiet", "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already holds something" in err
    assert path.read_bytes() == before
    empty = tmp_path / "empty.json"
    empty.touch()
    simulate(capsys, "--bots", "greedy", "--games", "1", "--seed", "3", "--record", str(empty))
    assert empty.read_bytes() == before


@pytest.mark.parametrize("case", ["hands", "folder-named-json", "under-a-file"])
def test_a_record_path_that_cannot_hold_the_run_is_refused_before_play(capsys, tmp_path,
                                                                       case, monkeypatch):
    """Found only after the games were played, it lost them: a ``.json`` file for a
    ``--hands`` run (its games are several whenever a game ends), a folder named like a
    file, a place where no file can be made."""
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    (tmp_path / "dir.json").mkdir()
    path, count = {"hands": (tmp_path / "x.json", ["--hands", "3"]),
                   "folder-named-json": (tmp_path / "dir.json", ["--games", "1"]),
                   "under-a-file": (blocker / "x.json", ["--games", "1"])}[case]
    import bones.cli.simulate as simulate_cli

    def no_play(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(simulate_cli, "play_series", no_play)
    assert main(["simulate", "--bots", "greedy", *count, "--record", str(path), "--quiet",
                 "--jobs", "1"]) == 1
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("bones: ") and out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.json", "file.txt"]
    assert not list((tmp_path / "dir.json").iterdir())


@pytest.mark.parametrize("command", [["simulate", "--record", ""], ["arena", "--record", " "],
                                     ["play", "--record", ""], ["replay", ""],
                                     ["lab", "--plot", ""]])
def test_an_empty_path_is_refused_in_one_line(capsys, command):
    """It was silently ignored (no record kept) or read as the current folder."""
    with pytest.raises(SystemExit) as exited:
        main(command)
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.count("\n") == 1 and "needs a path" in err


@pytest.mark.parametrize("command", ["simulate", "arena", "lab", "bot"])
def test_a_negative_seed_is_refused_since_it_would_deal_as_its_positive(capsys, command):
    with pytest.raises(SystemExit) as exited:
        main([command, "--seed", "-5"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.count("\n") == 1 and "0 or more" in err


def test_a_stray_argument_is_refused_by_its_command_in_one_line(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["rules", "pool", "draw"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err == ("bones rules: unrecognized arguments: draw "
                                              "(see bones rules --help)\n")
    with pytest.raises(SystemExit):  # before the command: bones's, not the command's
        main(["--bogus", "rules"])
    assert capsys.readouterr().err == ("bones: unrecognized arguments: --bogus "
                                       "(see bones --help)\n")


def test_a_long_game_is_played_out_and_only_a_stalled_one_is_refused(monkeypatch):
    """The safety net is progress, not length: a target of 100,000 takes over 10,000
    hands (it was refused after them, its work lost), while a game whose scores stop
    moving is still stopped rather than run forever."""
    from dataclasses import replace

    import bones.sim.referee as referee
    from bones.engine.errors import BonesError

    monkeypatch.setattr(referee, "MAX_SCORELESS_HANDS", 3)
    rules = PRESETS["block"].replace(target=300)
    job = referee.Job(rules, ("greedy", "greedy"), 5, 0, None, False, must_finish=True)
    outcome = referee.run_job(job)
    assert outcome.winner is not None and len(outcome.results) > 3

    from bones.table.table import Table

    real = Table.advance

    def scoreless(table):  # every hand played as if it scored nothing
        before = table.game.scores
        events = real(table)
        table.game = replace(table.game, scores=before)
        return events

    monkeypatch.setattr(Table, "advance", scoreless)
    with pytest.raises(BonesError, match="stopped after 3 hands: no side scored in the "
                                         "last 3"):
        referee.run_job(job)


@pytest.mark.parametrize("command", ["simulate", "arena", "lab"])
def test_jobs_default_to_the_cores_this_process_may_use_not_the_machines(monkeypatch, command):
    """A container or ``taskset`` may allow 1 CPU of 64: more workers than that only wait.
    (``arena`` and ``lab`` settle the default once they know whether ``--cluster`` was
    given, where it is the cluster's tasks in flight instead.)"""
    import os

    from bones.cli.common import jobs_and_cluster
    from bones.cli.main import build_parser

    monkeypatch.delattr(os, "process_cpu_count", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {5}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    args = build_parser().parse_args([command])
    if command == "simulate":
        assert args.jobs == 1
        return
    with jobs_and_cluster(args) as (jobs, cluster):
        assert (jobs, cluster) == (1, None)
