"""Refusals read alike in every command (issue 25, item 16): each is one line after
``bones`` (``bones replay``'s too), a flag whose value cannot be read exits 2 whatever the
flag, and a refusal says what would do instead."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bones.cli.main import main
from bones.engine.rules import BOOLEANS, OPTION_NAMES, PRESETS

BONES = [sys.executable, "-m", "bones.cli.main"]
COMMANDS = {
    "play": ["play", "--seats", "greedy,greedy"],
    "simulate": ["simulate", "--games", "1", "--quiet"],
    "arena": ["arena", "--games", "1", "--quiet"],
    "league": ["league", "--bots", "greedy,random", "--games", "1", "--quiet"],
    "lab": ["lab", "--hands", "10", "--quiet"],
}


def _status(argv: list[str]) -> int:
    """``main``'s status, or argparse's, which leaves by ``SystemExit``."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.mark.parametrize("name", [n for n in OPTION_NAMES if n not in BOOLEANS])
@pytest.mark.parametrize("command", COMMANDS)
def test_every_rules_flag_value_that_cannot_be_read_exits_2(capsys, command, name):
    flag = "--" + name.replace("_", "-")
    assert _status([*COMMANDS[command], flag, "abc"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"argument {flag}: must be " in err
    assert 'not "abc"' in err and "Traceback" not in err


@pytest.mark.parametrize(("flag", "value", "says"), [
    ("--set", "7", "must be 2, 3, 4, 5, 6, 9, 12, 15 or 18, not 7"),
    ("--players", "1", "must be a whole number of at least 2, not 1"),
    ("--target", "pagat ", 'must be a whole number of at least 1 or "pagat", not "pagat "'),
    ("--lead", "Lots", 'must be "lots", "highest-double" or "heaviest", not "Lots"'),
    ("--seed", "abc", '"abc" is not a whole number'),
])
def test_a_flag_value_no_rules_could_have_says_which_values_it_takes(capsys, flag, value, says):
    assert _status([*COMMANDS["simulate"], flag, value]) == 2
    assert f"argument {flag}: {says}" in capsys.readouterr().err


def test_an_unknown_rules_source_exits_2_listing_the_presets(capsys):
    assert _status([*COMMANDS["simulate"], "--rules", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert '--rules: "nosuch" is neither a preset' in err
    assert all(name in err for name in PRESETS) and "nor a file" in err


def test_a_missing_rules_file_exits_2(capsys, tmp_path):
    missing = tmp_path / "house.json"
    assert _status([*COMMANDS["simulate"], "--rules", str(missing)]) == 2
    assert capsys.readouterr().err == (f"bones: cannot read {missing}: No such file or "
                                       "directory\n")


def test_a_hand_size_too_big_says_which_sizes_fit(capsys):
    assert main([*COMMANDS["simulate"], "--hand-size", "20"]) == 1
    assert capsys.readouterr().err == (
        'bones: rules: option "hand_size" is 20, but 2 players dealt 20 tiles each need 40 of '
        'the 28 tiles of double-6; for 2 players of double-6 give a number from 1 to 14 or '
        '"pool"\n')


@pytest.mark.parametrize(("flags", "says"), [
    (["--players", "9"], 'for 9 players of double-6 give a number from 1 to 3 or "pool"'),
    (["--players", "9", "--draw"], "give a number from 1 to 2"),  # the reserve stays
    (["--set", "9", "--players", "3"], "for 3 players of double-9 give a number from 1 to 18"),
    (["--players", "30"], "no hand size deals 30 players a tile each from the 28 tiles"),
])
def test_players_alone_name_a_hand_size_that_would_work(capsys, flags, says):
    assert main([*COMMANDS["simulate"], *flags]) == 1
    err = capsys.readouterr().err
    assert err.startswith('bones: rules: option "hand_size" is "standard", which is defined '
                          "only for double-six with 2 to 4 players; ") and says in err
    if says.startswith("for 9 players"):  # and that size does work
        assert main([*COMMANDS["simulate"], *flags, "--hand-size", "3"]) == 0


def test_replay_refusals_start_with_bones_as_every_commands_do(tmp_path):
    path = tmp_path / "r.json"
    path.write_text('{"format": "bones-record/1", "rules": "block", "players": ["a"], '
                    '"hands": []}')
    for args, status in ([["replay", str(path)], 1], [["replay", str(tmp_path / "none")], 2]):
        done = subprocess.run([*BONES, *args], capture_output=True, text=True, timeout=60,
                              check=False)
        assert done.returncode == status
        assert done.stderr.startswith("bones: ") and done.stderr.count("\n") == 1
