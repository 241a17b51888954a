"""Messages quote the values they refuse as JSON (``true``, ``null``, never Python's ``True``
or ``None``) and cut long ones (``quoted``), so a hostile record never makes a long line:
a seat of 4,300 digits used to make a message of 4,349 characters."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest

import generators as gen
from bones.cli.main import main
from bones.engine.errors import quoted

HOSTILE = [True, False, None, "x" * 10_000, int("9" * 4300), -int("9" * 4300), 1.5,
           [[]] * 1000, {"k" * 5000: "v" * 5000}, "6-6" + " " * 5000, "9" * 100 + "-1",
           "1-" + "9" * 4000, "\u2028" * 3000, ""]
#: Words of Python that a message quoting JSON must not show.
PYTHON = re.compile(r"\b(True|False|None)\b")
LONGEST = 300


def _valid() -> dict:
    return gen.random_record(random.Random(11), {"preset": "draw", "players": 2},
                             max_hands=2, vary=False)


def _places(doc: dict) -> list[tuple[str, object]]:
    """Where a value is put: (a name for the test id, a function that puts it)."""
    def at(*keys):
        def put(d, value):
            target = d
            for key in keys[:-1]:
                target = target[key]
            target[keys[-1]] = value
        return put
    return [
        ("leader", at("hands", 0, "leader")),
        ("seat", at("hands", 0, "moves", 0, "seat")),
        ("later seat", at("hands", 0, "moves", 3, "seat")),
        ("end", at("hands", 0, "moves", 2, "end")),
        ("play", at("hands", 0, "moves", 0, "play")),
        ("pass", lambda d, v: d["hands"][0]["moves"].__setitem__(
            2, {"seat": d["hands"][0]["moves"][2]["seat"], "pass": v})),
        ("draw", lambda d, v: d["hands"][0]["moves"].__setitem__(
            2, {"seat": d["hands"][0]["moves"][2]["seat"], "draw": v})),
        ("deal tile", at("hands", 0, "deal", 0, 0)),
        ("boneyard tile", at("hands", 0, "boneyard", 0)),
        ("deal", at("hands", 0, "deal")),
        ("moves", at("hands", 0, "moves")),
        ("players", at("players")),
        ("a player", at("players", 1)),
        ("rules", at("rules")),
        ("preset", at("rules", "preset")),
        ("rules players", at("rules", "players")),
        ("target", at("rules", "target")),
        ("hand_size", at("rules", "hand_size")),
        ("set", at("rules", "set")),
        ("draw option", at("rules", "draw")),
        ("spinner", at("rules", "spinner")),
        ("hands", at("hands")),
        ("a hand", at("hands", 1)),
        ("unknown field of the record", lambda d, v: d.__setitem__(
            v if isinstance(v, str) and v else "field", v)),
        ("unknown field of a hand", lambda d, v: d["hands"][0].__setitem__(
            v if isinstance(v, str) and v else "field", v)),
        ("unknown field of a move", lambda d, v: d["hands"][0]["moves"][1].__setitem__(
            v if isinstance(v, str) and v else "field", v)),
        ("unknown option", lambda d, v: d["rules"].__setitem__(
            v if isinstance(v, str) and v else "option", v)),
    ]


PLACES = [name for name, _ in _places(_valid())]


@pytest.mark.parametrize("place", PLACES)
def test_no_message_about_a_hostile_record_is_long_or_speaks_python(tmp_path, capsys, place):
    base = _valid()
    put = dict(_places(base))[place]
    path = tmp_path / "r.json"
    for value in HOSTILE:
        doc = copy.deepcopy(base)
        if not isinstance(doc["rules"], dict):
            doc["rules"] = {"preset": doc["rules"]}
        put(doc, value)
        path.write_text(json.dumps(doc))
        status = main(["replay", str(path)])
        err = capsys.readouterr().err
        if status == 0:
            continue
        shown = repr(value)[:30]
        assert err.count("\n") == 1, (place, shown, err[:200])
        assert len(err) <= LONGEST + len(str(path)), (place, shown, len(err), err[:200])
        assert not PYTHON.search(err), (place, shown, err)


@pytest.mark.parametrize(("value", "text"), [
    (True, "true"), (None, "null"), (False, "false"), (7, "7"), ("6-6 ", '"6-6 "'),
    ([1, "a"], '[1, "a"]'), ({"a": None}, '{"a": null}'), ("a\nb", '"a\\nb"'),
    ("x" * 50, '"' + "x" * 39 + "..."), (list(range(100)), "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, "
                                                            "10, 11, 1..."),
])
def test_a_value_is_quoted_as_json_and_cut_past_the_limit(value, text):
    assert quoted(value) == text


def test_a_number_too_long_to_write_is_described_not_written():
    assert quoted(10 ** 10_000) == "a number of about 10,001 digits"
    assert quoted(int("9" * 4300), limit=10) == "9999999999..."


def test_the_seat_of_4300_digits_gives_a_short_message(tmp_path, capsys):
    doc = _valid()
    doc["hands"][0]["moves"][0]["seat"] = int("9" * 4300)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert re.fullmatch(r"bones: hand 1, move 1: it is seat [01]'s turn, not seat 9{40}\.\.\.'s\n",
                        err), err


def test_a_leader_of_true_is_said_in_json(tmp_path, capsys):
    doc = _valid()
    doc["hands"][0]["leader"] = True
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().err == "bones: hand 1: leader true is not a seat number\n"
