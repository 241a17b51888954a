"""Invalid records through the real CLI: ``bones replay FILE --json`` exits 1 (2 for input
that is not a record), prints exactly one line to standard error naming the right hand and
move (or the hand, or the rules option), prints nothing else and never a traceback.

Each invalid record is a random valid one with one fault put in by ``generators``, which
knows where it put it; a blind fuzzer adds records whose fault the independent referee
locates."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import generators as gen
import reference as ref
from bones.cli.main import main
from bones.record.reader import MAX_DEPTH, strict_json

BONES = Path(sys.executable).parent / "bones"
KINDS = sorted(gen.MAKERS)


def test_there_are_at_least_thirty_kinds_of_invalid_record():
    assert len(KINDS) >= 30


def _write(tmp_path: Path, m: gen.Mutation, name: str = "bad.json") -> Path:
    path = tmp_path / name
    path.write_text(m.text if m.text is not None else json.dumps(m.doc))
    return path


def _check_message(m: gen.Mutation, err: str) -> None:
    """One line naming the place of the fault that the generator put in."""
    assert err.endswith("\n") and err.count("\n") == 1, err
    line = err.rstrip("\n")
    assert "Traceback" not in line and "internal error" not in line
    assert line.startswith("bones: ")  # as every command's refusals
    text = line.removeprefix("bones: ")
    if m.status == 2:
        return
    if m.move is not None:
        assert re.match(rf"hand {m.hand}, move {m.move}: \S", text), (m.kind, text)
    elif m.hand is not None:
        if m.kind == "unfinished-hand-followed-by-another":
            # the fault lies between two hands: the message names the unfinished one first
            # and also the hand that follows it
            assert re.match(rf"hand {m.hand}: \S", text) and f"hand {m.hand + 1}" in text
        else:
            assert re.match(rf"hand {m.hand}: \S", text), (m.kind, text)
        assert ", move" not in text
    elif m.option is not None:
        assert text.startswith(f'rules: option "{m.option}" '), (m.kind, text)
    else:
        assert not text.startswith("hand "), (m.kind, text)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_invalid_record_is_refused_naming_where_the_fault_is(tmp_path, capsys, kind, seed):
    m = gen.make(kind, seed * 7919)
    if m.text is None and m.doc is not None and isinstance(m.doc, dict) and m.status == 1:
        with pytest.raises(ref.Fault) as fault:  # the referee agrees it is invalid, there
            ref.replay(m.doc)
        assert (fault.value.hand, fault.value.move) == (m.hand, m.move)
    path = _write(tmp_path, m)
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == m.status
    out, err = capsys.readouterr()
    assert out == ""  # a refused record prints no result
    _check_message(m, err)
    assert main(["replay", str(path)]) == m.status  # the text report refuses it alike
    _check_message(m, capsys.readouterr().err)


@pytest.mark.parametrize("kind", ["not-json", "wrong-format-string", "bad-option-value",
                                  "deal-wrong-size", "tile-not-matching-arm", "draw-in-block",
                                  "moves-after-hand-ended", "hand-after-game-won"])
def test_invalid_record_through_the_installed_command(tmp_path, kind):
    m = gen.make(kind, 31)
    path = _write(tmp_path, m)
    proc = subprocess.run([str(BONES), "replay", str(path), "--json"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == m.status
    assert proc.stdout == ""
    _check_message(m, proc.stderr)


def test_valid_record_through_the_installed_command(tmp_path):
    doc = gen.random_record(random.Random(8), max_hands=3)
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(doc))
    proc = subprocess.run([str(BONES), "replay", str(path), "--json"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(proc.stdout) == ref.public(ref.replay(doc))


_RECORD = b'{"format": "bones-record/1", "rules": {}, "players": ["a", "b"], "hands": []'


@pytest.mark.parametrize("content", [b"", b"\xff\xfe{", b"[" * 100000, b"null", b"{}",
                                     b'{"format": "bones-record/1"',
                                     # not JSON values, though Python's reader takes them
                                     _RECORD + b', "x-a": NaN}',
                                     _RECORD.replace(b"{}", b'{"target": Infinity}') + b"}",
                                     _RECORD + b', "x-a": -Infinity}'])
def test_input_that_is_not_a_record_exits_2(tmp_path, capsys, content):
    path = tmp_path / "x.json"
    path.write_bytes(content)
    assert main(["replay", str(path), "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("content", [_RECORD + b', "players": ["a", "b", "c"]}',
                                     _RECORD.replace(b"{}", b'{"set": 6, "set": 9}') + b"}",
                                     _RECORD + b', "x-a": 1, "x-a": 2}'])
def test_a_record_naming_a_member_twice_is_refused_with_status_1(tmp_path, capsys, content):
    """One reader keeps the first, another the last: the file is no one record. It is JSON,
    an object and claims the format, so status 2 is not for it; it is a refused record."""
    path = tmp_path / "x.json"
    path.write_bytes(content)
    assert main(["replay", str(path), "--json"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "twice" in err


def test_a_player_name_the_output_cannot_encode_is_written_escaped(tmp_path, capsys):
    """JSON allows a lone surrogate escape in a name; the text report must still print."""
    path = tmp_path / "x.json"
    path.write_bytes(_RECORD.replace(b'"a"', b'"\\ud800"') + b"}")
    assert main(["replay", str(path)]) == 0
    assert "\\ud800 0, b 0" in capsys.readouterr().out


def test_unreadable_file_exits_2(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "missing.json"), "--json"]) == 2
    assert main(["replay", str(tmp_path), "--json"]) == 2  # a directory
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "Traceback" not in err


def test_a_refusal_stays_one_line_whatever_the_record_quotes(tmp_path, capsys):
    """A message that quotes a field name, a tile or an arm from the record writes its line
    breaks and terminal escapes as escapes, so the refusal is still the one line the record
    format promises."""
    doc = _valid()
    doc["bad\nkey\r\u2028\x1b[31m"] = 1
    status, err = _run(tmp_path, capsys, doc)
    assert status == 1 and err == 'record: unknown field "bad\\nkey\\r\\u2028\\u001b[31m"\n'
    doc = _valid()
    doc["hands"][0]["moves"][1]["end"] = "left\nhand 9, move 1: forged"
    status, err = _run(tmp_path, capsys, doc)
    assert status == 1 and err.startswith("hand 1, move 2: ") and err.count("\n") == 1
    assert "\\nhand 9" in err


@given(st.text(st.sampled_from("a-\u00e9 \n\r\t\x0b\x0c\x1b\x85\u2028\u2029"), min_size=1,
               max_size=8))
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_an_unknown_field_of_any_name_is_refused_in_one_line(tmp_path, capsys, name):
    doc = _valid()
    doc["x" + name] = 1  # an "x-" field when name starts with "-", which is ignored
    status, err = _run(tmp_path, capsys, doc)
    if name.startswith("-"):
        assert status == 0
    else:
        assert status == 1 and len(err.splitlines()) == 1 and err.endswith("\n")
        assert err.startswith("record: unknown field")


def test_a_whole_number_too_long_for_python_is_unreadable_not_malformed(tmp_path, capsys):
    """Python will not convert a number of more than 4,300 digits. Such a record is still
    JSON, so it exits 2 as a file that cannot be read, and says so in plain words rather
    than in Python's."""
    huge = "9" * 5000
    path = tmp_path / "r.json"
    path.write_text(_RECORD.decode() + f', "x-big": -{huge}}}')
    assert main(["replay", str(path), "--json"]) == 2
    err = capsys.readouterr().err
    assert err == f"bones: {path}: cannot read the JSON: a number has more than 4,300 digits\n"
    path.write_text(_RECORD.decode() + f', "x-big": -{huge[:4300]}}}')
    assert main(["replay", str(path), "--json"]) == 0


def test_a_byte_order_mark_before_the_record_is_skipped(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_bytes(b"\xef\xbb\xbf" + _RECORD + b"}")
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == [0, 0]


@pytest.mark.parametrize("levels", [MAX_DEPTH, 100_000])
def test_json_nested_past_the_reader_is_unreadable_not_malformed(tmp_path, capsys, levels):
    """The limit is bones's own, so every Python gives the same answer: Python's own reader
    stopped near 1,000 levels in 3.11, past 5,000 in 3.13, past 100,000 in 3.14."""
    path = tmp_path / "r.json"
    # The record's own object is the first level.
    path.write_bytes(_RECORD + b', "x-deep": ' + b"[" * levels + b"]" * levels + b"}")
    assert main(["replay", str(path), "--json"]) == 2
    err = capsys.readouterr().err
    assert err == (f"bones: {path}: cannot read the JSON: arrays and objects nest deeper than "
                   f"{MAX_DEPTH} levels\n")


def test_json_nested_to_the_limit_is_read(tmp_path):
    path = tmp_path / "r.json"
    levels = MAX_DEPTH - 1
    path.write_bytes(_RECORD + b', "x-deep": ' + b"[" * levels + b"]" * levels + b"}")
    assert main(["replay", str(path), "--json"]) == 0


def test_a_cut_off_string_full_of_brackets_is_not_json_rather_than_too_deep(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_bytes(_RECORD + b', "x-note": "' + b"[" * (2 * MAX_DEPTH))
    assert main(["replay", str(path), "--json"]) == 2
    assert capsys.readouterr().err.startswith(f"bones: {path}: not JSON: Unterminated string")


def test_brackets_inside_strings_are_not_nesting():
    inside = '"' + "[" * (2 * MAX_DEPTH) + '\\""'  # a string of brackets ending in \"
    read = strict_json(f'[{inside}, {{"x": {inside}}}]')
    assert read[0] == read[1]["x"] == "[" * (2 * MAX_DEPTH) + '"'


# -- pinned readings where the spec is not explicit ------------------------------------------


def _valid(seed: int = 4, **rules) -> dict:
    given = {"preset": "block", "players": 2, **rules}
    return gen.random_record(random.Random(seed), given, max_hands=1, vary=False)


def _run(tmp_path, capsys, doc) -> tuple[int, str]:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    status = main(["replay", str(path), "--json"])
    err = capsys.readouterr().err
    assert err.startswith("bones: ") or not err
    return status, err.removeprefix("bones: ")


@pytest.mark.parametrize("option", ["players", "preset"])
def test_explicit_null_rules_option_is_refused_not_taken_as_missing(tmp_path, capsys, option):
    doc = _valid()
    doc["rules"] = {"preset": "block", "players": 2, option: None}
    status, err = _run(tmp_path, capsys, doc)
    assert status == 1 and err.startswith(f'rules: option "{option}" ')


@pytest.mark.parametrize("text", [" 6-6", "6-6 ", "6-6\n"])
def test_tile_strings_with_spaces_are_refused(tmp_path, capsys, text):
    doc = _valid()
    doc["hands"][0]["boneyard"][0] = text
    status, err = _run(tmp_path, capsys, doc)
    assert status == 1 and err.startswith("hand 1: ") and err.count("\n") == 1


@pytest.mark.parametrize("end", ["left", "right", "up", "down", "middle", 7, None, ["x"]])
def test_end_on_the_first_tile_is_ignored_whatever_its_value(tmp_path, capsys, end):
    doc = _valid()
    doc["hands"][0]["moves"][0]["end"] = end
    status, err = _run(tmp_path, capsys, doc)
    assert status == 0, err


def test_null_end_on_a_tile_that_fits_one_arm_reads_as_no_end(tmp_path, capsys):
    # Reading chosen: "end": null is taken as a missing end (the spec lets it be left out
    # wherever the tile fits one arm); on a tile that fits two arms it is refused.
    doc = _valid()
    fits_one = fits_two = None
    for mo in gen.moments(doc):
        moves = doc["hands"][mo.hand - 1]["moves"]
        if mo.move > len(moves) or not mo.table.on_table or "play" not in moves[mo.move - 1]:
            continue
        arms = mo.table.fits(ref.read_tile(moves[mo.move - 1]["play"]))
        if len(arms) == 1 and fits_one is None:
            fits_one = mo
        if len(arms) > 1 and fits_two is None:
            fits_two = mo
    assert fits_one is not None
    doc["hands"][0]["moves"][fits_one.move - 1]["end"] = None
    assert _run(tmp_path, capsys, doc)[0] == 0
    if fits_two is not None:
        doc = _valid()
        doc["hands"][0]["moves"][fits_two.move - 1]["end"] = None
        status, err = _run(tmp_path, capsys, doc)
        assert status == 1 and err.startswith(f"hand 1, move {fits_two.move}: ")


def test_null_leader_reads_as_no_leader(tmp_path, capsys):
    doc = _valid()
    doc["hands"][0]["leader"] = None  # lots decide: the leader is required, so refused
    status, err = _run(tmp_path, capsys, doc)
    assert status == 1 and err.startswith("hand 1: ") and "lots" in err


def test_fields_starting_x_and_optional_fields_are_accepted_everywhere(tmp_path, capsys):
    doc = _valid()
    doc.update({"x-club": "home", "seed": 5, "started": "2024-01-01T10:00:00Z",
                "ended": "2024-01-01T11:00:00Z", "comment": "friendly"})
    doc["rules"] = {"preset": "block", "players": 2, "x-house": True}
    doc["hands"][0].update({"x-table": 2, "seed": None, "comment": "first"})
    doc["hands"][0]["moves"][0].update({"x-think-ms": 300, "comment": "opening"})
    status, err = _run(tmp_path, capsys, doc)
    assert status == 0, err


# -- blind fuzzing against the independent referee ----------------------------------------


def _place(message: str) -> tuple[int | None, int | None, str | None]:
    m = re.match(r"hand (\d+), move (\d+): ", message)
    if m:
        return int(m[1]), int(m[2]), None
    m = re.match(r"hand (\d+): ", message)
    if m:
        return int(m[1]), None, None
    m = re.match(r'rules: option "([^"]*)"', message)
    return None, None, m[1] if m else None


def test_blind_fuzzing_engine_and_referee_agree_on_status_and_place(tmp_path, capsys):
    path = tmp_path / "f.json"
    refused = 0
    for seed in range(500):
        rng = random.Random(seed)
        doc = gen.fuzz(rng, gen.random_record(rng, max_hands=rng.randint(1, 3)))
        path.write_text(json.dumps(doc))
        capsys.readouterr()
        status = main(["replay", str(path), "--json"])
        out, err = capsys.readouterr()
        try:
            expected = ref.public(ref.replay(doc))
        except ref.Fault as fault:
            assert status == fault.status, (seed, err, fault)
            assert out == "" and err.count("\n") == 1, (seed, err)
            if fault.status == 1:
                hand, move, option = _place(err.removeprefix("bones: "))
                assert (hand, move) == (fault.hand, fault.move), (seed, err, fault)
                if fault.option is not None:
                    assert option == fault.option, (seed, err, fault)
            refused += 1
        else:
            assert status == 0, (seed, err)
            assert json.loads(out) == expected, seed
    assert refused > 200  # most blind changes break something
