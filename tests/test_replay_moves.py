"""``bones replay --moves``: every hand of a record move by move, numbered as ``--review``
numbers them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bones.cli.main import main
from bones.engine.moves import Draw, Pass, Play
from bones.record import read_file

RECORDS = Path(__file__).parent / "records"


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDS.glob("*.json")
                                        if not p.name.endswith(".expected.json")))
def test_every_move_of_every_hand_is_one_numbered_line_naming_its_tile(capsys, name):
    path = RECORDS / name
    _, game = read_file(path)
    assert main(["replay", str(path)]) == 0
    plain = capsys.readouterr().out
    assert main(["replay", str(path), "--moves"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(plain)  # the report as before, then the listing
    hands = re.split(r"^hand \d+: ", out[len(plain):], flags=re.M)[1:]
    assert len(hands) == len(game.hands)
    for text, hand in zip(hands, game.hands, strict=True):
        lines = [line.strip() for line in text.splitlines() if re.match(r"\s+\d+\. ", line)]
        assert len(lines) == len(hand.moves)
        for number, (line, move) in enumerate(zip(lines, hand.moves, strict=True), start=1):
            assert line.startswith(f"{number}. ")
            if isinstance(move, Play | Draw) and move.tile is not None:
                assert str(move.tile) in line
            kind = ("set" if isinstance(move, Play) and move.end is None
                    else "play" if isinstance(move, Play)
                    else "draw" if isinstance(move, Draw) else "pass")
            assert kind in line
            assert isinstance(move, Play | Draw | Pass)
        flat = re.sub(r"\n {4}", " ", text)  # tile lists wrap at 80 columns
        for tiles in hand.deal:  # who held what
            assert " ".join(str(t) for t in tiles) in flat
        assert all(len(line) <= 80 for line in text.splitlines())
        end = game.hand_results()[game.hands.index(hand)].end
        assert text.rstrip().splitlines()[-1].startswith(
            {"out": "  end: ", "blocked": "  end: blocked", "unfinished": "  end: still"}[end])


def test_reviewed_moves_are_the_listings_lines_of_the_same_number(capsys):
    path = RECORDS / "target_reached.json"
    assert main(["replay", str(path), "--moves"]) == 0
    listing = capsys.readouterr().out.split("\n\n", 1)[1]
    hands = re.split(r"^hand \d+: ", listing, flags=re.M)[1:]
    assert main(["replay", str(path), "--review", "--json"]) == 0
    reviewed = json.loads(capsys.readouterr().out)["review"]
    checked = 0
    for row in reviewed:
        for mistake in row["mistakes"]:
            line = re.search(rf"^\s+{mistake['move']}\. (.*)$", hands[row["hand"] - 1], re.M)
            assert line is not None and mistake["play"] in line[1]
            checked += 1
    assert checked > 0


def test_moves_go_with_the_text_report_not_json(capsys):
    assert main(["replay", str(RECORDS / "target_reached.json"), "--moves", "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("bones: --moves goes with")


def test_a_lone_person_named_you_reads_in_the_second_person(tmp_path, capsys):
    doc = json.loads((RECORDS / "target_reached.json").read_text())
    doc["players"] = ["You", "Greedy"]
    path = tmp_path / "you.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path), "--moves"]) == 0
    out = capsys.readouterr().out
    assert "You hold " in out and "You holds" not in out and "Greedy holds " in out
    assert not re.search(r"You (plays|sets|passes|draws|leads)\b", out)


def test_in_draw_the_reserve_is_apart_from_the_tiles_that_may_be_drawn(tmp_path, capsys):
    """The last ``reserve`` tiles are never drawn: listed with the rest, a seat's pass with
    tiles left would read as illegal."""
    folder = tmp_path / "games"
    assert main(["simulate", "--rules", "draw", "--players", "3", "--games", "1", "--seed", "2",
                 "--bots", "random", "--record", str(folder), "--quiet", "--jobs", "1"]) == 0
    path = next(folder.glob("*.json"))
    record, _ = read_file(path)
    assert main(["replay", str(path), "--moves"]) == 0
    out = re.sub(r"\n {4}", " ", capsys.readouterr().out)
    for hand in record.hands:
        drawable, reserve = hand.boneyard[:-2], hand.boneyard[-2:]
        assert f"reserve, never drawn: {reserve[0]} {reserve[1]}\n" in out
        if drawable:
            assert "boneyard, drawn in this order: " + " ".join(map(str, drawable)) in out


def test_the_first_double_is_marked_as_the_spinner_and_an_empty_game_says_so(tmp_path, capsys):
    assert main(["replay", str(RECORDS / "spinner_up_down.json"), "--moves"]) == 0
    out = capsys.readouterr().out
    assert out.count("(the spinner)") == 1 and "4-4 on the left arm (the spinner)" in out
    doc = json.loads((RECORDS / "spinner_up_down.json").read_text())
    path = tmp_path / "empty.json"
    path.write_text(json.dumps(dict(doc, hands=[])))
    assert main(["replay", str(path), "--moves"]) == 0
    assert capsys.readouterr().out.endswith("\n\nno hand dealt yet\n")


def test_the_report_says_who_won_in_good_grammar_and_names_every_count(tmp_path, capsys):
    """"You win", "Ana wins", "Ben & Dev win", and each count after its seat's name."""
    assert main(["replay", str(RECORDS / "partnership_blocked.json")]) == 0
    out = capsys.readouterr().out
    assert "hand 1: Ben & Dev win (blocked) and score 11; " \
           "counts: Ana 29, Ben 28, Caro 17, Dev 7\n" in out
    doc = json.loads((RECORDS / "pool_tie_split.json").read_text())
    assert main(["replay", str(RECORDS / "pool_tie_split.json")]) == 0
    assert "hand 2: Ben wins (blocked) and scores 48; counts: Ana 24, Ben 16, Caro 24; " \
           "chips: Ana -1, Ben +3, Caro -1\n" in capsys.readouterr().out
    doc["players"] = ["Ana", "You", "Caro"]
    path = tmp_path / "you.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "hand 2: You win (blocked) and score 48; counts: Ana 24, You 16, Caro 24" in out
    assert "undo" not in out
    assert main(["replay", str(RECORDS / "spec_example.json")]) == 0
    assert "hand 1: unfinished; counts so far: Ana 24, Ben 12, Caro 23" in \
        capsys.readouterr().out


def test_a_record_of_a_game_where_undo_was_used_says_so(tmp_path, capsys):
    doc = json.loads((RECORDS / "target_reached.json").read_text())
    for times, said in ((1, "practice game: undo was used 1 time\n"),
                        (3, "practice game: undo was used 3 times\n")):
        path = tmp_path / "undone.json"
        path.write_text(json.dumps(dict(doc, **{"x-undo": times})))
        assert main(["replay", str(path)]) == 0
        assert said in capsys.readouterr().out
