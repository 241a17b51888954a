"""The example record of docs/records.md replays as that page describes it."""

import json
from pathlib import Path

from bones.cli.main import main

EXAMPLE = Path(__file__).parent / "records" / "spec_example.json"


def test_spec_example_replays_as_unfinished_hand(capsys):
    assert main(["replay", str(EXAMPLE), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == [{"end": "unfinished", "winner": None, "counts": [24, 12, 23],
                             "points": [0, 0, 0], "pool": [0, 0, 0]}]
    assert out["scores"] == [0, 0, 0] and out["finished"] is False and out["winner"] is None


def test_ambiguous_play_without_end_is_refused_with_hand_and_move(tmp_path, capsys):
    doc = json.loads(EXAMPLE.read_text())
    del doc["hands"][0]["moves"][7]["end"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("bones: hand 1, move 8: 4-3 fits the left arm (4) and the right arm")
    assert "\n" not in err
