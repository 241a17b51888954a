"""Seeded games give the same records as before the table layer: the terminal game,
``simulate`` and the arena, for every preset, pinned by the SHA-256 of the record each
writes (``tests/pins/seeded_records.json``).

The pins were made by the code before ``bones.table`` existed and are byte for byte what it
wrote, except for the games in which ``undo`` was used: those records now say so
(``"x-undo": 2``), and that field is the whole difference. A change to the engine, a bot,
the deal or bot seeds, or the record writer shows up here as a changed hash; one made on
purpose renews the pin with ``python tests/test_table_pins.py > tests/pins/...``.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bones.engine.rules import PRESETS
from bones.record.writer import dump, record_of
from bones.sim.arena import DealJob, play_deal
from bones.sim.referee import play_game

PINS = json.loads((Path(__file__).parent / "pins" / "seeded_records.json").read_text())
LEVELS = ("basic", "greedy", "random", "greedy")
#: A person's answers: the first play each turn; and one with two plays taken back.
SCRIPTS = ("1\n" * 400, "1\nundo\n2\n1\nundo\n" + "2\n" * 400)


def _rules(name: str):
    rules = PRESETS[name]
    return rules.replace(players=3) if name == "pool" else rules


def _sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def _play(tmp_path: Path, args: list[str], script: str = "") -> str:
    path = tmp_path / "game.json"
    path.unlink(missing_ok=True)
    subprocess.run([sys.executable, "-m", "bones.cli.main", "play", *args, "--record",
                    str(path)], input=script.encode(), stdout=subprocess.DEVNULL, check=True,
                   env=os.environ)
    return _sha(path.read_bytes())


def seeded(name: str, tmp_path: Path) -> dict[str, str]:
    """Every pinned record of preset ``name``, by pin key."""
    rules = _rules(name)
    levels = LEVELS[:rules.players]
    game = play_game(rules, levels, 11, 2)
    deal = play_deal(DealJob(rules, tuple(levels), 11, 3, 0.1, records=True))
    made = {
        f"simulate:{name}": _sha(dump(record_of(game, levels))),
        f"arena:{name}": _sha("".join(dump(r) for r in deal.records)),
        f"play:{name}": _play(tmp_path, ["--rules", name, "--players", str(rules.players),
                                         "--seats", ",".join(levels), "--seed", "5"]),
    }
    for script in SCRIPTS:
        made[f"person:{name}:{len(script)}"] = _play(
            tmp_path, ["--rules", name, "--seed", "3", "--target", "60"], script)
    return made


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_seeded_games_give_the_records_they_gave_before_the_table_layer(name, tmp_path):
    made = seeded(name, tmp_path)
    assert made == {key: PINS[key] for key in made}


if __name__ == "__main__":  # renew the pins (only for a change made on purpose)
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        pins = {k: v for name in sorted(PRESETS) for k, v in seeded(name, Path(folder)).items()}
    print(json.dumps(pins, indent=1, sort_keys=True))
