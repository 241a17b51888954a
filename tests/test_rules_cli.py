"""``bones rules``: every preset and option listed, one preset in full, unknown names refused."""

import argparse
import contextlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bones.cli.main import main
from bones.cli.options import add_rules_arguments, rules_from_args
from bones.cli.rules import MEANINGS
from bones.engine.errors import RulesError
from bones.engine.rules import OPTION_NAMES, PRESET_SOURCES, PRESETS, rules_from_json


def rules(capsys, *args: str) -> str:
    assert main(["rules", *args]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_every_option_of_the_engine_has_a_meaning():
    assert list(MEANINGS) == list(OPTION_NAMES)


#: Rules a value of any one option can be dealt with (each value fits at least one).
_ROOMY = ({}, {"players": 4}, {"set": 18, "hand_size": 2, "players": 4}, {"hand_size": 1})


def _taken(name: str, value: object) -> bool:
    """Whether some roomy rules take ``value`` for ``name``."""
    for base in _ROOMY:
        with contextlib.suppress(RulesError):
            return getattr(rules_from_json({**base, name: value}), name) == value
    return False


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_the_values_rules_json_lists_are_the_values_the_engine_takes(capsys, name):
    """``choices`` and ``least`` are for programs that build rules: every value listed is
    taken, the whole number under ``least`` is refused, and so is a whole number where
    there is no ``least`` and it is not a choice."""
    option = {o["name"]: o for o in json.loads(rules(capsys, "--json"))["options"]}[name]
    assert all(_taken(name, value) for value in option["choices"])
    least = option["least"]
    if least is not None:
        assert _taken(name, least) and _taken(name, least + 1)
        assert not _taken(name, least - 1)
    else:
        assert not _taken(name, max(v for v in [0, *option["choices"]] if type(v) is int) + 1)
    assert option["values"].count(",") + 1 == len(option["choices"]) + (least is not None)


def test_listing_names_every_preset_with_its_source_and_every_option(capsys):
    out = rules(capsys)
    for name in PRESETS:
        assert f"  {name} " in out
        assert PRESET_SOURCES[name] in out
    for name in OPTION_NAMES:
        assert f"  {name}: " in out
    assert 'hand_size "pool", next_lead "same", score "others", ante 1' in out


def test_listing_fits_eighty_columns(capsys):
    for args in ((), ("pool",), ("pagat-draw",)):
        assert max(len(line) for line in rules(capsys, *args).splitlines()) <= 80


def test_pool_preset_shows_ante_one_and_its_source(capsys):
    out = rules(capsys, "pool")
    assert out.startswith("pool: seed 000 (Domino Pool)")
    assert "*ante          1" in out and " pool_tie      \"split\"" in out
    assert "10 tiles each, 8 undealt" in out


def test_pool_preset_as_json_has_every_option(capsys):
    doc = json.loads(rules(capsys, "pool", "--json"))
    assert doc["options"]["ante"] == 1 and list(doc["options"]) == list(OPTION_NAMES)
    assert doc["sets"] == {"hand_size": "pool", "next_lead": "same", "score": "others",
                           "ante": 1}
    assert doc["source"] == PRESET_SOURCES["pool"]


def test_listing_as_json_has_every_preset_and_option(capsys):
    doc = json.loads(rules(capsys, "--json"))
    assert [p["preset"] for p in doc["presets"]] == list(PRESETS)
    assert [o["name"] for o in doc["options"]] == list(OPTION_NAMES)
    assert {o["name"]: o["default"] for o in doc["options"]}["target"] == 100


@pytest.mark.parametrize("name", ["nope", "Block"])
def test_unknown_preset_is_refused_naming_it_and_the_known_ones(capsys, name):
    assert main(["rules", name]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert json.dumps(name) in err and all(known in err for known in PRESETS)


@pytest.mark.parametrize(("content", "reason"), [
    (b"{not json", "is not JSON: Expecting property name"),
    (b"[" * 100_000 + b"]" * 100_000, "cannot be read: arrays and objects nest deeper"),
    (bytes(range(256)), "house.json: not UTF-8 text (byte 0x80 at offset 128), so not a "
                        "rules file"),
    (b'{"target": -Infinity}', "is not JSON: -Infinity is not a JSON value"),
])
def test_a_rules_file_that_is_not_json_is_one_line_and_status_2(tmp_path, capsys, content,
                                                               reason):
    """A file that cannot be read as rules is a flag value that cannot be read: status 2,
    as --seed abc."""
    path = tmp_path / "house.json"
    path.write_bytes(content)
    assert main(["arena", "--rules", str(path), "--games", "1", "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and reason in err and "Traceback" not in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["rules"], ["rules", "block"], ["rules", "--json"]])
def test_output_that_cannot_be_written_is_one_line_and_status_1(args):
    """A full disk (``/dev/full``) is the user's to fix: one line, not an internal error."""
    with open("/dev/full", "w") as full:
        proc = subprocess.run([str(Path(sys.executable).parent / "bones"), *args],
                              stdout=full, stderr=subprocess.PIPE, text=True)
    assert proc.returncode == 1
    assert proc.stderr == "bones: cannot write the output: No space left on device\n"


def _status(argv: list[str]) -> int:
    """``main``'s status, or argparse's, which leaves by ``SystemExit``."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def _rules_of(*flags: str):
    parser = argparse.ArgumentParser()
    add_rules_arguments(parser)
    return rules_from_args(parser.parse_args(list(flags)))


@pytest.mark.parametrize(("flag", "text", "name", "value"), [
    ("--players", " 3", "players", 3),
    ("--target", " 100", "target", 100),
    ("--hand-size", "5 ", "hand_size", 5),
    ("--ante", "+2", "ante", 2),
])
def test_numeric_options_read_whole_numbers_alike_with_spaces_around(flag, text, name, value):
    assert getattr(_rules_of(flag, text), name) == value


@pytest.mark.parametrize(("flag", "text"), [
    ("--players", "\uff13"), ("--target", "\uff13"), ("--players", "1_0"), ("--target", "1_00"),
    ("--hand-size", "²"),
])
def test_numeric_options_refuse_digits_that_are_not_ascii(capsys, flag, text):
    """Python's ``int`` reads full-width digits and underscores; a rules option must not, and
    must refuse them the same way whether the option also takes a word or not: as a flag
    value that cannot be read (status 2, as ``--seed abc``)."""
    assert _status(["simulate", "--games", "1", flag, text]) == 2
    err = capsys.readouterr().err
    assert f"argument {flag}: must be a whole number" in err and err.count("\n") == 1


def test_a_number_past_pythons_digit_limit_is_refused_not_a_crash(capsys):
    for flag in ("--players", "--target", "--ante"):
        assert _status(["simulate", "--games", "1", flag, "1" * 5000]) == 2
        err = capsys.readouterr().err
        assert "must be a whole number" in err and len(err) < 200


def test_rules_json_is_indented_on_a_terminal_and_one_line_in_a_pipe():
    """A person reading ``bones rules --json`` gets it indented; a program reading it from a
    pipe gets one line."""
    import pexpect

    piped = subprocess.run([sys.executable, "-m", "bones.cli.main", "rules", "block", "--json"],
                           capture_output=True, text=True, check=True)
    assert piped.stdout.count("\n") == 1
    shown = pexpect.run(f"{sys.executable} -m bones.cli.main rules block --json",
                        encoding="utf-8", dimensions=(24, 80))
    assert shown.count("\n") > 10 and '\n  "options": {' in shown.replace("\r\n", "\n")
    assert json.loads(shown) == json.loads(piped.stdout)
