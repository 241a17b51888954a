"""``bones play --resume FILE``: a game taken up from its record where it was left."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from bones.cli.main import main
from bones.record.reader import read_file

BOTS = ["--seats", "greedy,greedy", "--think", "0.05"]


def _whole_game(tmp_path: Path, seed: int = 5, *flags: str) -> dict:
    path = tmp_path / "whole.json"
    assert main(["play", *BOTS, "--seed", str(seed), "--record", str(path), *flags]) == 0
    return json.loads(path.read_text())


def _left_at(doc: dict, hands: int, moves: int, path: Path, seed: bool = True) -> Path:
    """The record ``doc`` cut to ``hands`` whole hands and ``moves`` moves of the next."""
    cut = dict(doc, hands=[*doc["hands"][:hands],
                           dict(doc["hands"][hands], moves=doc["hands"][hands]["moves"][:moves])])
    if not seed:
        del cut["seed"]
    path.write_text(json.dumps(cut))
    return path


def _deals(doc: dict) -> list[tuple[object, object]]:
    return [(hand["deal"], hand["boneyard"]) for hand in doc["hands"]]


def test_a_game_left_with_its_seed_goes_on_with_the_deals_it_would_have_had(tmp_path, capsys):
    whole = _whole_game(tmp_path)
    assert len(whole["hands"]) >= 4  # a game long enough to cut
    left = _left_at(whole, 2, 3, tmp_path / "left.json")
    capsys.readouterr()
    assert main(["play", "--resume", str(left), *BOTS]) == 0
    resumed = json.loads(left.read_text())  # saved back where it came from
    assert resumed["hands"][:2] == whole["hands"][:2]
    assert resumed["hands"][2]["moves"][:3] == whole["hands"][2]["moves"][:3]
    shared = min(len(whole["hands"]), len(resumed["hands"]))
    assert _deals(resumed)[:shared] == _deals(whole)[:shared]
    assert resumed["seed"] == whole["seed"] == 5
    assert resumed["x-seats"] == ["greedy", "greedy"]
    read_file(left)  # and it is a valid record of a finished game
    assert "Seed 5 deals this game again" in capsys.readouterr().out


def test_a_game_left_without_its_seed_is_dealt_on_from_another_and_names_none(tmp_path,
                                                                              capsys):
    whole = _whole_game(tmp_path)
    left = _left_at(whole, 1, 0, tmp_path / "left.json", seed=False)
    capsys.readouterr()
    assert main(["play", "--resume", str(left), *BOTS]) == 0
    resumed = json.loads(left.read_text())
    assert resumed["hands"][0] == whole["hands"][0]
    assert "seed" not in resumed  # no one seed deals this game
    _, game = read_file(left)
    assert game.finished
    assert "Seed " not in capsys.readouterr().out


def test_a_seed_that_did_not_deal_the_record_is_not_kept(tmp_path, capsys):
    whole = _whole_game(tmp_path)
    left = _left_at(whole, 1, 2, tmp_path / "left.json")
    doc = json.loads(left.read_text())
    left.write_text(json.dumps(dict(doc, seed=6)))
    assert main(["play", "--resume", str(left), *BOTS]) == 0
    assert "seed" not in json.loads(left.read_text())


def test_the_records_names_comment_and_plays_made_for_bots_are_kept(tmp_path, capsys):
    whole = _whole_game(tmp_path, 5, "--names", "Ana,Ben")
    left = _left_at(whole, 1, 1, tmp_path / "left.json")
    made = [{"hand": 1, "seat": 1, "move": 1, "why": "no reply within 1.1 s"}]
    doc = json.loads(left.read_text())
    left.write_text(json.dumps(dict(doc, comment="Sunday", **{"x-played-for": made})))
    assert main(["play", "--resume", str(left), *BOTS]) == 0
    resumed = json.loads(left.read_text())
    assert resumed["players"] == ["Ana", "Ben"]
    assert resumed["comment"] == "Sunday" and resumed["x-played-for"] == made
    assert main(["play", "--resume", str(_left_at(whole, 1, 1, tmp_path / "again.json")),
                 *BOTS, "--names", ",Cy"]) == 0
    assert json.loads((tmp_path / "again.json").read_text())["players"] == ["Ana", "Cy"]


def test_resuming_to_another_record_file_leaves_the_first_as_it_was(tmp_path, capsys):
    whole = _whole_game(tmp_path)
    left = _left_at(whole, 1, 1, tmp_path / "left.json")
    before = left.read_text()
    out = tmp_path / "on.json"
    assert main(["play", "--resume", str(left), *BOTS, "--record", str(out)]) == 0
    assert left.read_text() == before
    assert read_file(out)[1].finished


@pytest.mark.parametrize("flag", [["--rules", "draw"], ["--target", "50"], ["--seed", "1"],
                                  ["--no-draw"], ["--players", "3"]])
def test_flags_that_would_change_the_rules_or_deals_go_against_resume(tmp_path, capsys, flag):
    left = _left_at(_whole_game(tmp_path), 1, 1, tmp_path / "left.json")
    before = left.read_text()
    capsys.readouterr()
    assert main(["play", "--resume", str(left), *BOTS, *flag]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (f"bones: {flag[0]} goes against --resume: the game keeps "
                                 "its rules and deals\n")
    assert left.read_text() == before


def test_a_finished_game_broken_record_or_bad_seats_is_one_line_and_changes_nothing(
        tmp_path, capsys):
    whole = _whole_game(tmp_path)
    finished = tmp_path / "whole.json"
    broken = tmp_path / "broken.json"
    doc = json.loads(_left_at(whole, 1, 1, broken).read_text())
    doc["hands"][1]["moves"][0]["play"] = "9-9"
    broken.write_text(json.dumps(doc))
    seats = _left_at(whole, 1, 1, tmp_path / "seats.json")
    seats.write_text(json.dumps(dict(json.loads(seats.read_text()), **{"x-seats": ["robot",
                                                                                   "greedy"]})))
    names = _left_at(whole, 1, 1, tmp_path / "names.json")
    names.write_text(json.dumps(dict(json.loads(names.read_text()), players=["A\x1b", "B"])))
    for path, said in [(finished, "that game is over"), (broken, "hand 2, move 1"),
                       (seats, '"robot" is not a seat'),
                       (names, "holds characters that cannot be shown; give --names"),
                       (tmp_path / "none.json", "cannot read")]:
        before = path.read_bytes() if path.exists() else None
        capsys.readouterr()
        assert main(["play", "--resume", str(path)]) in (1, 2), path
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and said in err, err
        assert (path.read_bytes() if path.exists() else None) == before


@pytest.mark.parametrize("preset", ["block", "draw", "pagat-block", "pagat-draw", "puerto-rico",
                                    "pool"])
def test_every_preset_resumes_from_any_point_to_a_valid_finished_game(tmp_path, capsys, preset):
    """Cut a whole game of each preset at a random hand and move (partnerships and a
    pool among them), resume it with bots, and the record that comes back is valid, ends
    the game and starts with every hand and move that was cut."""
    import random

    players = {"block": 2, "draw": 3, "pagat-block": 4, "pagat-draw": 2, "puerto-rico": 2,
               "pool": 4}[preset]
    partners = ["--partnerships"] if preset == "pagat-block" else []
    path = tmp_path / "whole.json"
    seats = ",".join(["greedy"] * players)
    assert main(["play", "--seats", seats, "--rules", preset, *partners, "--seed", "11",
                 "--record", str(path)]) == 0
    whole = json.loads(path.read_text())
    rng = random.Random(preset)
    for trial in range(3):
        hands = rng.randrange(len(whole["hands"]))
        moves = rng.randrange(len(whole["hands"][hands]["moves"]) + 1)
        left = _left_at(whole, hands, moves, tmp_path / f"left{trial}.json")
        assert main(["play", "--resume", str(left), "--seats", seats]) == 0
        resumed = json.loads(left.read_text())
        _, game = read_file(left)
        assert game.finished
        assert resumed["hands"][:hands] == whole["hands"][:hands]
        assert resumed["hands"][hands]["moves"][:moves] == whole["hands"][hands]["moves"][:moves]
        assert resumed.get("seed") == 11


def _with(path: Path, **fields: object) -> Path:
    path.write_text(json.dumps(dict(json.loads(path.read_text()), **fields)))
    return path


def test_a_record_never_starts_the_program_its_seats_name(tmp_path, capsys):
    """A record is a file anyone may send: its ``cmd:`` seat is refused, and started only
    when the player names it with ``--seats``."""
    marker = tmp_path / "ran"
    left = _with(_left_at(_whole_game(tmp_path), 1, 1, tmp_path / "left.json"),
                 **{"x-seats": [f" CMD:touch {marker}", "greedy"]})
    before = left.read_text()
    capsys.readouterr()
    assert main(["play", "--resume", str(left)]) == 1
    err = capsys.readouterr().err
    assert "a record's program is never started; give --seats" in err and err.count("\n") == 1
    assert f'(" CMD:touch {marker}")' in err  # quoted as the record has it
    assert not marker.exists() and left.read_text() == before
    assert main(["play", "--resume", str(left), *BOTS]) == 0  # --seats stands in for it
    assert not marker.exists()


def test_seats_and_names_the_flags_replace_are_not_held_against_the_record(tmp_path, capsys):
    whole = _whole_game(tmp_path)
    bad = _with(_left_at(whole, 1, 1, tmp_path / "bad.json"),
                players=["A\x1b", "greedy"], **{"x-seats": ["greedy"]})
    assert main(["play", "--resume", str(bad), *BOTS, "--names", "Ann"]) == 0
    assert json.loads(bad.read_text())["players"] == ["Ann", "greedy"]
    upper = _with(_left_at(whole, 1, 1, tmp_path / "upper.json"),
                  **{"x-seats": ["Greedy", " RANDOM "]})
    assert main(["play", "--resume", str(upper), "--think", "0.05"]) == 0
    assert json.loads(upper.read_text())["x-seats"] == ["greedy", "random"]
    # a level named twice, as simulate and arena name their seats, is numbered by seat
    twice = _with(_left_at(whole, 1, 1, tmp_path / "twice.json"), players=["Bo", "Bo"])
    assert main(["play", "--resume", str(twice), *BOTS]) == 0
    assert json.loads(twice.read_text())["players"] == ["Bo 1", "Bo 2"]
    clash = _with(_left_at(whole, 1, 1, tmp_path / "clash.json"), players=["Ann", "Ben"])
    capsys.readouterr()
    assert main(["play", "--resume", str(clash), *BOTS, "--names", "Ben"]) == 1
    assert capsys.readouterr().err == 'bones: --names: "Ben" would name two seats\n'


def test_each_hands_own_fields_are_kept_when_the_game_is_saved_again(tmp_path, capsys):
    doc = json.loads(_left_at(_whole_game(tmp_path), 1, 1, tmp_path / "left.json").read_text())
    doc["hands"][0]["comment"] = "a fine lead"
    doc["hands"][1]["x-table"] = 7
    left = tmp_path / "left.json"
    left.write_text(json.dumps(doc))
    assert main(["play", "--resume", str(left), *BOTS]) == 0
    hands = json.loads(left.read_text())["hands"]
    assert hands[0]["comment"] == "a fine lead" and hands[1]["x-table"] == 7
    assert all("comment" not in hand and "x-table" not in hand for hand in hands[2:])


def test_the_same_file_named_another_way_is_resumed_in_place_without_asking(tmp_path,
                                                                           monkeypatch):
    left = _left_at(_whole_game(tmp_path), 1, 1, tmp_path / "left.json")
    monkeypatch.chdir(tmp_path)
    with open(os.devnull) as nothing:  # a question would end the game unplayed
        monkeypatch.setattr("sys.stdin", nothing)
        assert main(["play", "--resume", "left.json", "--record", "./left.json", *BOTS]) == 0
    assert read_file(left)[1].finished


def test_a_resumed_game_killed_at_once_keeps_its_seed(tmp_path):
    """The first save of a game resumed in place keeps the seed the record showed, so a
    crash before the next hand loses nothing."""

    from test_play import MOVE, quit_keeping_the_record, spawn

    path = tmp_path / "g.json"
    child = spawn("--seed", "3", "--record", str(path))
    child.expect(MOVE)
    quit_keeping_the_record(child)
    assert json.loads(path.read_text())["seed"] == 3
    child = spawn("--resume", str(path))
    child.expect(MOVE)
    child.kill(signal.SIGKILL)
    child.close()
    assert json.loads(path.read_text())["seed"] == 3


def test_a_record_path_that_loops_is_not_an_internal_error(tmp_path, capsys):
    """Telling whether --record names the resumed file must not trip on a symlink loop
    (``Path.resolve`` raises on one); the loop, a link, is then refused as any link is."""
    left = _left_at(_whole_game(tmp_path), 1, 1, tmp_path / "left.json")
    before = left.read_text()
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    capsys.readouterr()
    assert main(["play", "--resume", str(left), *BOTS, "--record", str(loop)]) == 1
    err = capsys.readouterr().err
    assert "internal error" not in err and "it is a symbolic link" in err
    assert left.read_text() == before and loop.is_symlink()


def test_a_seed_of_another_program_stays_until_a_hand_is_dealt_here(tmp_path, monkeypatch,
                                                                    capsys):
    """``bones simulate`` writes seeds such as ``"5:0"``: not one this table can deal on
    from, but true of the hands recorded, so a game left again at once keeps it."""
    import io

    whole = _whole_game(tmp_path)
    left = _with(_left_at(whole, 1, 1, tmp_path / "left.json"), seed="5:0")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\ny\n"))
    assert main(["play", "--resume", str(left), "--seats", "human,greedy"]) == 0
    assert json.loads(left.read_text())["seed"] == "5:0"
    assert main(["play", "--resume", str(left), *BOTS]) == 0  # played on: dealt elsewhere
    assert "seed" not in json.loads(left.read_text())


def test_a_long_name_numbered_by_seat_still_fits_the_screens_limit():
    from bones.table.seats import MAX_NAME, seating

    long = "n" * MAX_NAME
    names = seating(2, ("greedy", "greedy"), None, (long, long)).names
    assert names == (long[:-2] + " 1", long[:-2] + " 2")
    assert all(len(name) <= MAX_NAME for name in names)


@pytest.mark.parametrize("path", ["-dash.json", "my game's.json", "plain.json"])
def test_the_command_to_go_on_reads_back_as_the_same_path(path):
    """Said after an unfinished game is saved: whole on one line, and a shell reading it
    gives --resume exactly the path (one that starts with "-" included)."""
    import shlex

    from bones.cli.main import build_parser
    from bones.cli.play import _say_saved
    from bones.engine.game import new_game
    from bones.engine.rules import PRESETS

    said: list[tuple[str, bool]] = []

    class Ear:
        def say(self, text: str, style: str = "", wrap: bool = True) -> None:
            said.append((text, wrap))

    _say_saved(Ear(), path, new_game(PRESETS["block"]))  # type: ignore[arg-type]
    (saved, _), (command, wrapped) = said
    assert saved == f"Record saved to {path}." and not wrapped
    words = shlex.split(command.split(": ", 1)[1])
    assert words[:2] == ["bones", "play"]
    assert build_parser().parse_args(words[1:]).resume == path
