"""bones writes only regular files, ones it makes or was told to replace: a device, a named
pipe or a symbolic link where a record or a plot would go is refused in one line, before
any game is played, and left as it was (a record is written beside its place and renamed
over it, which would put a regular file in the place of any of them)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pexpect
import pytest

from bones.cli.main import main
from bones.record import files
from bones.record.reader import read_file
from test_play import SAVE, WHERE, _converse, plain, spawn, transcript

KINDS = ("fifo", "symlink", "device")
SAYS = {"fifo": "it is a named pipe", "symlink": "it is a symbolic link",
        "device": "it is a device"}
BOTS = ["--seats", "greedy,random", "--seed", "1"]


def _make(kind: str, path: Path) -> None:
    """Put a ``kind`` at ``path``: a named pipe, a link to a file holding ``kept``, or a
    device node like /dev/null (made only by root)."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink":
        target = path.with_name(path.name + ".target")
        target.write_text("kept")
        path.symlink_to(target)
    else:
        try:
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except PermissionError:
            pytest.skip("making a device node needs root")


def _untouched(kind: str, path: Path) -> bool:
    mode = os.lstat(path).st_mode
    if kind == "fifo":
        return stat.S_ISFIFO(mode)
    if kind == "symlink":
        return stat.S_ISLNK(mode) and path.read_text() == "kept"
    return stat.S_ISCHR(mode)


def _refused(capsys, kind: str, path: Path, status: int, *argv: str) -> str:
    assert main(list(argv)) == status
    out, err = capsys.readouterr()
    assert "Final scores" not in out  # refused before any game
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert _untouched(kind, path)
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]
    return err


@pytest.mark.parametrize("kind", KINDS)
def test_play_refuses_a_record_that_is_not_a_regular_file_before_the_game(
        capsys, tmp_path, kind):
    path = tmp_path / "game.json"
    _make(kind, path)
    err = _refused(capsys, kind, path, 1, "play", *BOTS, "--record", str(path))
    assert f"cannot write the record to {path}: {SAYS[kind]}" in err
    assert "bones writes only regular files" in err


@pytest.mark.parametrize("kind", KINDS)
def test_play_resume_refuses_to_save_over_anything_but_a_regular_file(capsys, tmp_path, kind):
    good = tmp_path / "good.json"
    assert main(["play", *BOTS, "--record", str(good), "--target", "500"]) == 0
    doc = json.loads(good.read_text())
    doc["hands"] = doc["hands"][:1]
    doc["hands"][0]["moves"] = doc["hands"][0]["moves"][:2]
    good.write_text(json.dumps(doc))
    path = tmp_path / "other.json"
    _make(kind, path)
    before = good.read_text()
    capsys.readouterr()
    err = _refused(capsys, kind, path, 1, "play", "--resume", str(good), "--record", str(path))
    assert SAYS[kind] in err and good.read_text() == before


def test_play_resume_of_a_link_is_read_but_not_saved_through_the_link(capsys, tmp_path):
    target = tmp_path / "target.json"
    assert main(["play", *BOTS, "--record", str(target)]) == 0
    doc = json.loads(target.read_text())
    doc["hands"] = doc["hands"][:1]
    doc["hands"][0]["moves"] = []
    del doc["seed"]
    target.write_text(json.dumps(doc))
    link = tmp_path / "link.json"
    link.symlink_to(target)
    capsys.readouterr()
    assert main(["play", "--resume", str(link), "--seats", "greedy,random"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "it is a symbolic link" in err
    assert link.is_symlink() and json.loads(target.read_text()) == doc


@pytest.mark.parametrize("kind", KINDS)
def test_simulate_refuses_a_record_file_that_is_not_a_regular_file(capsys, tmp_path, kind):
    path = tmp_path / "game.json"
    _make(kind, path)
    err = _refused(capsys, kind, path, 1, "simulate", "--quiet", "--games", "1",
                   "--record", str(path))
    assert f"cannot write the record to {path}: {SAYS[kind]}" in err


@pytest.mark.parametrize("kind", KINDS)
def test_arena_refuses_a_record_folder_that_is_not_a_folder(capsys, tmp_path, kind):
    path = tmp_path / "match"
    _make(kind, path)
    err = _refused(capsys, kind, path, 1, "arena", "--quiet", "--games", "1", "--bots",
                   "greedy,random", "--record", str(path))
    said = "it is a file" if kind == "symlink" else SAYS[kind]  # a link to a file
    assert f"{said}, not a folder" in err


def test_arena_writes_into_a_folder_reached_through_a_link(capsys, tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    assert main(["arena", "--quiet", "--games", "1", "--bots", "greedy,random", "--seed", "1",
                 "--record", str(link)]) == 0
    assert sorted(p.name for p in real.iterdir()) == ["arena.json", "deal-0000-0.json",
                                                     "deal-0000-1.json"]


@pytest.mark.parametrize("kind", KINDS)
def test_lab_refuses_a_plot_that_is_not_a_regular_file_before_any_hand(capsys, tmp_path, kind):
    folder = tmp_path / "plots"
    folder.mkdir()
    path = folder / "lab-blocked.svg"
    _make(kind, path)
    err = _refused(capsys, kind, path, 1, "lab", "--quiet", "--hands", "10",
                   "--plot", str(folder))
    assert f"cannot write plot {path}: {SAYS[kind]}" in err
    assert not list(folder.glob("lab-*.png"))  # nothing drawn: refused before playing


def test_lab_plots_are_written_whole_as_regular_files(capsys, tmp_path):
    folder = tmp_path / "plots"
    assert main(["lab", "--quiet", "--hands", "20", "--seed", "1", "--plot",
                 str(folder)]) == 0
    png = folder / "lab-blocked.png"
    assert png.read_bytes().startswith(b"\x89PNG")
    assert (folder / "lab-blocked.svg").read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize("kind", KINDS)
def test_what_appears_while_a_file_is_written_is_refused_not_replaced(
        tmp_path, monkeypatch, kind):
    """Checked again just before the rename: the place may have changed meanwhile."""
    path = tmp_path / "game.json"
    real_fsync = os.fsync

    def planting(fd: int) -> None:
        real_fsync(fd)
        _make(kind, path)

    monkeypatch.setattr(files.os, "fsync", planting)
    with pytest.raises(files.NotRegular, match=SAYS[kind]):
        files.write_whole(path, "the record")
    assert _untouched(kind, path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["game.json"] + (["game.json.target"] if kind == "symlink" else []))


def test_a_regular_file_is_replaced_keeping_its_mode(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("old")
    path.chmod(0o640)
    files.write_whole(path, "new")
    assert path.read_text() == "new" and path.stat().st_mode & 0o777 == 0o640


def test_only_a_regular_file_with_content_is_asked_about():
    """The "already exists. Replace it?" question is for another game's record; a link
    to one is refused instead, never asked about and then followed."""
    assert not files.holds_something(Path("/dev/zero"))


def test_a_link_to_a_file_with_content_is_not_asked_about(tmp_path):
    target = tmp_path / "target.json"
    target.write_text("another game")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert files.holds_something(target) and not files.holds_something(link)


@pytest.mark.parametrize("kind", ("fifo", "symlink"))
def test_a_save_on_leaving_refuses_what_is_not_a_regular_file_and_asks_again(
        tmp_path, kind):
    path = tmp_path / "there.json"
    _make(kind, path)
    child = spawn("--rules", "draw", "--seed", "9", cwd=tmp_path)
    child.expect(r"Your move")
    child.sendintr()
    _converse(child, (SAVE, "y"), (WHERE, str(path)), (SAVE, "y"), (WHERE, "kept.json"))
    child.expect(pexpect.EOF)
    child.close()
    text = plain(transcript(child)).replace("\n", " ")
    assert f"{SAYS[kind]}, and bones writes only regular files" in " ".join(text.split())
    assert "Record saved to kept.json" in text and "Traceback" not in text
    assert _untouched(kind, path) and read_file(tmp_path / "kept.json")[0].hands
