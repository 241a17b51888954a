"""Hidden information is sacred: a seat's view, and so everything a bot or the terminal is
given, holds no tile of another seat's hand or of the boneyard that the seat has not seen."""

from __future__ import annotations

import dataclasses
import json
import random
import sys

import pytest

from bones.engine.game import deal_hand, new_game, play_unchecked
from bones.engine.layout import Layout
from bones.engine.moves import Draw
from bones.engine.rules import PRESETS
from bones.engine.tiles import Tile
from bones.engine.view import observe

VARIANTS = [
    ("block", {}), ("draw", {"players": 3}), ("pagat-draw", {"players": 4}),
    ("pool", {"players": 5, "opening": "highest-double"}),
    ("puerto-rico", {"opening": "top-double", "no_double": "heaviest"}),
    ("draw", {"players": 4, "partnerships": True, "spinner": "first-double"}),
]


def _tiles_in(value: object) -> set[Tile]:
    """Every tile anywhere inside a value (fields, tuples, sets, layouts)."""
    if isinstance(value, Tile):
        return {value}
    if isinstance(value, Layout):
        return set(value.placed) | ({value.first} if value.first else set())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return set().union(*(_tiles_in(getattr(value, f.name))
                             for f in dataclasses.fields(value)))
    if isinstance(value, (tuple, list, set, frozenset)):
        return set().union(*(_tiles_in(v) for v in value)) if value else set()
    return set()


@pytest.mark.parametrize(("preset", "options"), VARIANTS)
def test_a_seat_view_shows_only_its_own_tiles_and_public_ones(preset, options):
    rules = PRESETS[preset].replace(**options)
    rng = random.Random(23)
    for _ in range(15):
        game = deal_hand(new_game(rules), rng)
        while (state := game.current) is not None:
            for seat in range(rules.players):
                own_draws = {m.tile for m in state.moves if isinstance(m, Draw)
                             and m.seat == seat}
                allowed = set(state.hands[seat]) | state.layout.placed | own_draws
                view = observe(game, seat)
                leaked = _tiles_in(dataclasses.replace(view, rules=rules)) - allowed
                assert not leaked, f"seat {seat} sees {sorted(map(str, leaked))}"
            game = play_unchecked(game, rng.choice(state.legal_moves()))


SPY = """\
import json, sys
from pathlib import Path
from bones.protocol.codec import view_of

folder, log = Path(sys.argv[1]), Path(sys.argv[2])
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": "bones-bot/1", "name": "spy"}))
    elif request["type"] == "move":  # look for the run's seed in the records so far
        found = []
        for path in sorted(folder.glob("*.json")):
            try:
                doc = json.loads(path.read_text())
            except ValueError:  # caught mid-write
                continue
            found.append([doc.get("seed"), doc.get("x-arena", {}).get("seed")])
        with log.open("a") as out:
            out.write(json.dumps(found) + "\\n")
        play = view_of(request).legal[0]
        reply = {"id": request["id"], "play": str(play.tile)}
        if play.end is not None:
            reply["end"] = play.end
        print(json.dumps(reply))
    elif request["type"] == "quit":
        break
    sys.stdout.flush()
"""


@pytest.mark.parametrize(("command", "files", "seed_of"), [
    ("simulate", "game-*.json", lambda doc: doc["seed"]),
    ("arena", "deal-*.json", lambda doc: doc["x-arena"]["seed"]),
])
def test_an_outside_bot_finds_no_seed_in_the_records_of_its_own_run(
        tmp_path, command, files, seed_of):
    """The series seed deals every game of a run, and an outside bot runs with the user's
    permissions: a record it could read during the run must not hold the seed (it gets it
    once the run is over)."""
    from bones.cli.main import main

    spy, log, folder = tmp_path / "spy.py", tmp_path / "spy.log", tmp_path / "records"
    spy.write_text(SPY)
    bot = f"cmd:{sys.executable} {spy} {folder} {log}"
    assert main([command, "--bots", f"{bot},greedy", "--games", "4", "--seed", "5",
                 "--record", str(folder), "--jobs", "1", "--quiet", "--think", "0.5"]) == 0
    looks = [json.loads(line) for line in log.read_text().splitlines()]
    seen = [seeds for look in looks for seeds in look]
    assert len(seen) >= 4  # the bot did find records of finished games during the run
    assert all(seeds == [None, None] for seeds in seen), seen
    done = [json.loads(p.read_text()) for p in sorted(folder.glob(files))]
    assert done and all(str(seed_of(doc)).startswith("5") for doc in done)  # added at the end


def test_a_fresh_seed_is_too_many_to_find_by_trying_and_exact_in_json():
    """A run given no seed must not be found by dealing every seed until one deals the hand
    a bot holds: 10**15 at a microsecond a deal is 30 years of one core."""
    from bones.cli.common import SEEDS, fresh_seed

    assert 10**15 <= SEEDS <= 2**53 and 0 <= fresh_seed() < SEEDS
