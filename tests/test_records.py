"""Game records: golden files with hand-checked ``bones replay --json`` output, the writer and
reader round trip, and what a reader accepts."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

import reference as ref
from bones.cli.main import main
from bones.engine.tiles import count, parse_tiles
from bones.record.reader import parse, read_file
from bones.record.summary import summary
from bones.record.writer import dump, record_of, to_json

RECORDS = Path(__file__).parent / "records"
GOLDEN = ["partnership_blocked", "pool_tie_split", "spinner_up_down", "top_double",
          "target_reached"]


def _replay_json(capsys, path: Path) -> dict:
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out)


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_record_replays_to_its_expected_output(capsys, name):
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text())
    assert _replay_json(capsys, RECORDS / f"{name}.json") == expected
    doc = json.loads((RECORDS / f"{name}.json").read_text())
    assert ref.public(ref.replay(doc)) == expected  # the independent referee agrees


def _left(name: str) -> list[list[int]]:
    """Pips each seat holds at the end of each hand, from the record's deal and moves."""
    doc = json.loads((RECORDS / f"{name}.json").read_text())
    out = []
    for hand in doc["hands"]:
        held = [list(parse_tiles(" ".join(h))) for h in hand["deal"]]
        for move in hand["moves"]:
            if "play" in move:
                held[move["seat"]].remove(parse_tiles(move["play"])[0])
            if "draw" in move:
                held[move["seat"]].append(parse_tiles(move["draw"])[0])
        out.append([count(h) for h in held])
    return out


def test_golden_partnership_blocked_hand(capsys):
    # Block, 4 players in partnerships. Caro sets 6-6; after six moves both arms show 5 and
    # nobody holds a 5: blocked right after Dev's 6-5, with no passes after it.
    # Left: Ana 3-0 6-4 6-1 6-3 = 29, Ben 2-2 4-2 4-0 3-3 4-4 = 28, Caro 6-2 4-3 2-0 = 17,
    # Dev 3-2 0-0 1-1 = 7. Side 0 (Ana, Caro) 46, side 1 (Ben, Dev) 35: side 1 has the
    # lower count and scores 46 - 35 = 11 (others-minus-own).
    out = _replay_json(capsys, RECORDS / "partnership_blocked.json")
    assert _left("partnership_blocked") == [[29, 28, 17, 7]]
    assert out["hands"][0]["end"] == "blocked" and out["hands"][0]["winner"] == 1
    assert out["hands"][0]["points"] == [0, (29 + 17) - (28 + 7)] == [0, 11]
    assert out["scores"] == [0, 11] and out["finished"] is False


def test_golden_pool_game_with_a_tied_hand_and_a_split_remainder(capsys):
    # Domino Pool, 3 players, 6 tiles each, lots every hand. Hand 1 blocks with arms 3 and 6:
    # Ana 2-0 = 2, Ben 2-1 = 3, Caro 1-1 = 2. Ana and Caro tie low: nobody scores; the pool
    # of 3 antes splits 1 each to Ana and Caro and 1 chip stays: pool rows 0, -1, 0.
    # Hand 2 blocks with both arms 4: Ana 6-6 6-2 2-2 = 24, Ben 5-3 3-2 3-0 = 16,
    # Caro 5-2 6-1 5-5 = 24. Ben scores 24 + 24 = 48 ("others") and takes the pool:
    # 1 left over + 3 antes = 4, so his row is -1 + 4 = 3. Chips -1, 2, -1; pool empty.
    out = _replay_json(capsys, RECORDS / "pool_tie_split.json")
    assert _left("pool_tie_split") == [[2, 3, 2], [24, 16, 24]]
    assert [h["winner"] for h in out["hands"]] == [None, 1]
    assert out["hands"][0]["points"] == [0, 0, 0]
    assert out["hands"][0]["pool"] == [-1 + 1, -1, -1 + 1]
    assert out["hands"][1]["points"] == [0, 24 + 24, 0]
    assert out["hands"][1]["pool"] == [-1, -1 + (1 + 3), -1]
    assert out["chips"] == [-1, 2, -1] and sum(out["chips"]) == 0


def test_golden_spinner_game_using_up_and_down(capsys):
    # Block with the first-double spinner. Ben sets 4-0; Ben's 4-4 on the left is the first
    # double and so the spinner; Ana's 4-2 touches its outer side, opening up and down (4).
    # Ana later lays 6-4 down, Ben 4-3 up, and Ben goes out with 6-2 on the down arm.
    # Ana keeps 6-1 = 7: Ben scores 7.
    out = _replay_json(capsys, RECORDS / "spinner_up_down.json")
    doc = json.loads((RECORDS / "spinner_up_down.json").read_text())
    ends = [m.get("end") for m in doc["hands"][0]["moves"]]
    assert "up" in ends and "down" in ends
    assert _left("spinner_up_down") == [[7, 0]]
    assert out["hands"][0] == {"end": "out", "winner": 1, "counts": [7, 0],
                               "points": [0, 7], "pool": [0, 0]}


def test_golden_top_double_game_gives_every_lead_to_the_six_six(capsys):
    # opening "top-double": Ben holds 6-6 in both hands and leads both, although next_lead
    # "left" alone would give hand 2 to Caro. Hand 1: Ana goes out, Ben 2-2 = 4 and Caro
    # 3-1 = 4 are left: Ana scores 8. Hand 2: Caro goes out, Ana 3-1 6-4 = 14, Ben 1-1 = 2:
    # Caro scores 16.
    out = _replay_json(capsys, RECORDS / "top_double.json")
    doc = json.loads((RECORDS / "top_double.json").read_text())
    assert [h["leader"] for h in doc["hands"]] == [1, 1]
    assert _left("top_double") == [[0, 4, 4], [14, 2, 0]]
    assert [h["points"] for h in out["hands"]] == [[8, 0, 0], [0, 0, 16]]
    assert out["scores"] == [8, 0, 16]


def test_golden_top_double_deal_without_six_six_is_refused_as_a_redeal(tmp_path, capsys):
    doc = json.loads((RECORDS / "top_double.json").read_text())
    hand = doc["hands"][1]
    hand["deal"][1][hand["deal"][1].index("6-6")] = hand["boneyard"][0]
    hand["boneyard"][0] = "6-6"
    path = tmp_path / "redeal.json"
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 1
    assert capsys.readouterr().err.startswith("bones: hand 2: the rules redeal this deal")


def test_golden_game_ends_when_the_target_is_reached(capsys):
    # Draw to 40. Hand 1: Ben goes out; Ana drew down to the reserve (4-2, 6-6 stay) and
    # passed, and keeps 3-3 4-3 6-3 = 22. Hand 2 (Ben leads: left of Ana): Ana draws 11
    # tiles before 4-0 fits; Ben goes out and Ana keeps 2-0 6-5 2-1 5-2 1-0 2-2 3-3 = 34.
    # Ben: 22 + 34 = 56 >= 40, so the game is won by Ben after hand 2.
    out = _replay_json(capsys, RECORDS / "target_reached.json")
    assert _left("target_reached") == [[22, 0], [34, 0]]
    assert out["scores"] == [0, 22 + 34] and out["finished"] is True and out["winner"] == 1


def test_golden_game_refuses_a_hand_after_the_target_is_reached(tmp_path, capsys):
    doc = json.loads((RECORDS / "target_reached.json").read_text())
    extra = copy.deepcopy(doc["hands"][0])
    extra["leader"] = 0
    doc["hands"].append(extra)
    path = tmp_path / "after.json"
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 1
    assert capsys.readouterr().err.startswith("bones: hand 3: the game was already won")


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_record_read_and_written_again_is_the_same_record(name):
    record, game = read_file(RECORDS / f"{name}.json")
    again, replayed = parse(json.loads(dump(record)))
    assert again == record and summary(replayed) == summary(game)
    assert to_json(record_of(game, record.players))["hands"] == to_json(record)["hands"]


def test_record_with_no_hands_is_a_game_not_yet_dealt(tmp_path, capsys):
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"format": "bones-record/1", "rules": "pool",
                                "players": ["a", "b", "c"], "hands": []}))
    assert _replay_json(capsys, path) == {"hands": [], "scores": [0, 0, 0],
                                          "finished": False, "winner": None,
                                          "chips": [0, 0, 0]}


def test_reader_accepts_tiles_written_low_half_first(tmp_path, capsys):
    doc = json.loads((RECORDS / "spinner_up_down.json").read_text())
    flip = lambda t: "-".join(reversed(t.split("-")))  # noqa: E731
    for hand in doc["hands"]:
        hand["deal"] = [[flip(t) for t in h] for h in hand["deal"]]
        hand["boneyard"] = [flip(t) for t in hand["boneyard"]]
        for move in hand["moves"]:
            if "play" in move:
                move["play"] = flip(move["play"])
    path = tmp_path / "flipped.json"
    path.write_text(json.dumps(doc))
    expected = json.loads((RECORDS / "spinner_up_down.expected.json").read_text())
    assert _replay_json(capsys, path) == expected


def test_leader_may_be_left_out_where_the_rules_decide_it(tmp_path, capsys):
    doc = json.loads((RECORDS / "top_double.json").read_text())
    for hand in doc["hands"]:
        del hand["leader"]
    path = tmp_path / "noleader.json"
    path.write_text(json.dumps(doc))
    expected = json.loads((RECORDS / "top_double.expected.json").read_text())
    assert _replay_json(capsys, path) == expected


def test_rules_players_may_be_left_to_the_players_list(tmp_path, capsys):
    doc = json.loads((RECORDS / "partnership_blocked.json").read_text())
    del doc["rules"]["players"]
    path = tmp_path / "noplayers.json"
    path.write_text(json.dumps(doc))
    expected = json.loads((RECORDS / "partnership_blocked.expected.json").read_text())
    assert _replay_json(capsys, path) == expected


def test_unfinished_last_hand_is_reported_as_unfinished(tmp_path, capsys):
    doc = json.loads((RECORDS / "pool_tie_split.json").read_text())
    del doc["hands"][1]["moves"][3:]
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(doc))
    out = _replay_json(capsys, path)
    # after 3-1, 6-3, 6-4: Ana 4-4 6-6 6-2 2-2 5-1 = 8 + 12 + 8 + 4 + 6 = 38,
    # Ben 5-3 3-2 4-0 3-0 4-1 = 8 + 5 + 4 + 3 + 5 = 25, Caro 5-2 1-0 5-4 6-1 5-5 =
    # 7 + 1 + 9 + 7 + 10 = 34; the hand's antes are in, nobody is paid yet.
    assert out["hands"][1] == {"end": "unfinished", "winner": None, "counts": [38, 25, 34],
                               "points": [0, 0, 0], "pool": [-1, -1, -1]}
    assert out["chips"] == [-1, -2, -1] and out["finished"] is False


def test_text_report_names_the_seat_where_players_share_a_name(tmp_path, capsys):
    """Bot games name seats by level; the chips line must still say whose chips are whose."""
    doc = json.loads((RECORDS / "pool_tie_split.json").read_text())
    doc["players"] = ["greedy", "greedy", "Caro"]
    path = tmp_path / "bots.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    chips = out.splitlines()[-1]
    assert chips.startswith("chips: greedy (seat 0) ") and ", greedy (seat 1) " in chips
    assert ", Caro " in chips and "Caro (seat" not in out


def test_control_characters_in_player_names_are_printed_escaped(tmp_path, capsys):
    """A record is anyone's file: a name must not recolour or retitle the terminal, nor
    forge a line of the report."""
    doc = json.loads((RECORDS / "pool_tie_split.json").read_text())
    doc["players"] = ["\u001b[31mRED", "\u001b]0;title\u0007", "two\nlines"]
    path = tmp_path / "names.json"
    path.write_text(json.dumps(doc))
    for args in ([], ["--review", "--top", "1"]):
        assert main(["replay", str(path), *args]) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out
        assert "\\x1b[31mRED" in out and "two\\nlines" in out
        assert not any(line.startswith("lines") for line in out.splitlines())


def test_a_record_file_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    """A write that fails (here the rename, as a full disk would fail the write) leaves the
    last good record where it was, and no stray file beside it."""
    import os

    from bones.record import files

    path = tmp_path / "game.json"
    path.write_text("the last good record")

    def failing(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(OSError):
        files.write_whole(path, "the next record")
    assert path.read_text() == "the last good record"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    monkeypatch.undo()
    files.write_whole(path, "the next record")
    assert path.read_text() == "the next record"


def test_a_record_written_whole_keeps_the_files_mode_and_never_writes_through_a_link(tmp_path):
    from bones.record import files

    old_umask = os.umask(0o022)  # takes bits away from a new file, as most do
    try:
        _check_mode_and_link(tmp_path, files)
    finally:
        os.umask(old_umask)


def _check_mode_and_link(tmp_path, files):
    path = tmp_path / "game.json"
    path.write_text("old")
    path.chmod(0o666)
    files.write_whole(path, "new")
    assert path.read_text() == "new" and path.stat().st_mode & 0o777 == 0o666
    target = tmp_path / "kept.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    with pytest.raises(files.NotRegular, match="it is a symbolic link"):
        files.write_whole(link, "new")  # neither the link replaced nor its file written
    assert link.is_symlink() and target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "kept.json",
                                                         "link.json"]
