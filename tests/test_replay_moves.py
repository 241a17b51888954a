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
        for tiles in hand.deal:  # who held what
            assert " ".join(str(t) for t in tiles) in text


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
