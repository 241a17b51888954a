"""Records and rules files are read within a size limit (``MAX_BYTES``) and a number of JSON
values (``MAX_VALUES``): an endless input (``/dev/zero``, a pipe) is refused at once with
status 2 and one line, memory stays within a small multiple of the limit, and Ctrl-C or
SIGTERM is answered while a file is read."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bones.cli.main import main
from bones.record.reader import MAX_BYTES, MAX_VALUES, strict_json

BONES = [sys.executable, "-m", "bones.cli.main"]
#: The address space each command below may take: far more than any of them needs, far
#: less than reading /dev/zero whole would take.
MEMORY = 1 << 30
RECORD = '{"format": "bones-record/1", "rules": {}, "players": ["a", "b"], "hands": []'


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


#: Runs ``bones`` in a child of a fresh interpreter and prints the child's peak resident
#: memory: a child forked from pytest itself would count pytest's memory as its own (Linux
#: keeps a process's peak across ``exec``), but this launcher is small.
LAUNCHER = """
import os, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.execv(sys.executable, [sys.executable, "-m", "bones.cli.main", *sys.argv[2:]])
_, status, usage = os.wait4(pid, 0)
print(usage.ru_maxrss * 1024)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def _bones(*args: str, timeout: float = 60) -> tuple[int, str, int]:
    """Run ``bones ARGS`` under the memory limit: its status, standard error and peak
    resident memory in bytes."""
    done = subprocess.run([sys.executable, "-c", LAUNCHER, str(MEMORY), *args],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=timeout, check=False)
    return done.returncode, done.stderr, int(done.stdout)


def test_the_limits_are_what_the_documentation_says():
    assert MAX_BYTES == 8 * 2**20 and MAX_VALUES == 2**20
    docs = Path(__file__).parent.parent / "docs" / "records.md"
    assert "8 MiB" in docs.read_text() and "1,048,576" in docs.read_text()


@pytest.mark.parametrize("args", [["replay", "/dev/zero"], ["play", "--resume", "/dev/zero"]])
def test_an_endless_record_is_refused_at_once_with_status_2(args):
    status, err, peak = _bones(*args)
    assert status == 2, err
    assert err == "bones: /dev/zero: larger than 8 MiB, the limit for a record\n"
    assert peak < 200 * 2**20


def test_an_endless_rules_file_is_refused_at_once_with_status_2():
    status, err, _ = _bones("simulate", "--games", "1", "--rules", "/dev/zero")
    assert status == 2
    assert err == "bones: /dev/zero: larger than 8 MiB, the limit for a rules file\n"


def test_a_pipe_that_never_ends_is_refused_at_once(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)

    def feed() -> None:
        try:
            with open(pipe, "wb") as out:
                while True:
                    out.write(b" " * 65536)
        except OSError:  # the reader went away
            pass

    threading.Thread(target=feed, daemon=True).start()
    status, err, _ = _bones("replay", str(pipe), timeout=30)
    assert status == 2 and err == f"bones: {pipe}: larger than 8 MiB, the limit for a record\n"


def test_a_pipe_nobody_writes_to_is_refused_at_once_not_waited_on(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    status, err, _ = _bones("replay", str(pipe), timeout=30)
    assert status == 2 and err.startswith(f"bones: {pipe}: not JSON")


def test_a_record_of_exactly_the_limit_is_read_and_one_byte_more_is_not(tmp_path, capsys):
    path = tmp_path / "big.json"
    text = RECORD + "}"
    path.write_text(text + " " * (MAX_BYTES - len(text)))
    assert main(["replay", str(path), "--json"]) == 0
    with open(path, "a") as more:
        more.write(" ")
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 2
    assert capsys.readouterr().err == (f"bones: {path}: larger than 8 MiB, the limit for a "
                                       "record\n")


def test_a_rules_file_past_the_limit_is_refused_with_status_2(tmp_path, capsys):
    path = tmp_path / "rules.json"
    path.write_text('{"preset": "block"}' + " " * MAX_BYTES)
    assert main(["simulate", "--games", "1", "--rules", str(path)]) == 2
    assert capsys.readouterr().err == (f"bones: {path}: larger than 8 MiB, the limit for a "
                                       "rules file\n")


def test_a_record_of_many_small_values_is_refused_before_they_take_the_memory(tmp_path):
    """Eight MiB of ``[],`` would be 2.8 million lists, 200 MB in Python (a 100 MB record of
    them took 5.2 GB): refused before it is read, in a little of the memory."""
    path = tmp_path / "many.json"
    many = (MAX_BYTES - len(RECORD) - 20) // 3
    path.write_text(RECORD + ', "x-many": [' + ",".join(["[]"] * many) + "]}")
    status, err, peak = _bones("replay", str(path))
    assert status == 2
    assert err == (f"bones: {path}: cannot read the JSON: it holds more than 1,048,576 "
                   "values\n")
    assert peak < 120 * 2**20


def test_small_values_up_to_the_limit_are_read_in_a_small_multiple_of_its_memory(tmp_path):
    path = tmp_path / "many.json"
    many = MAX_VALUES // 2 - 10  # an empty list counts twice
    path.write_text(RECORD + ', "x-many": [' + ",".join(["[]"] * many) + "]}")
    status, err, peak = _bones("replay", str(path))
    assert status == 0, err
    assert peak < 16 * MAX_BYTES


def test_values_are_counted_outside_strings_only():
    inside = '"' + "," * (MAX_VALUES + 10) + '"'
    assert strict_json(f"[{inside}]") == [inside[1:-1]]
    with pytest.raises(ValueError, match="more than 1,048,576 values"):
        strict_json("[" + "0," * MAX_VALUES + "0]")


def test_sigterm_is_answered_within_a_second_while_a_record_is_read(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    stop = threading.Event()

    def trickle() -> None:  # a record that comes a byte at a time, never ending
        with open(pipe, "wb", buffering=0) as out:
            out.write(b"[")
            while not stop.wait(0.01):
                try:
                    out.write(b" ")
                except OSError:
                    return

    feeder = threading.Thread(target=trickle, daemon=True)
    feeder.start()
    proc = subprocess.Popen([*BONES, "replay", str(pipe)], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=_limited)
    try:
        time.sleep(1.5)  # well into the reading
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        start = time.monotonic()
        _, err = proc.communicate(timeout=10)
        assert time.monotonic() - start < 1
        assert proc.returncode == 143 and err.decode().strip() == "bones: terminated"
    finally:
        stop.set()
        if proc.poll() is None:
            proc.kill()


def test_an_unreadable_record_names_the_file_and_why(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_bytes(b'{"format": "bones-record/1", "\x98"}')
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == (f"bones: {path}: not UTF-8 text (byte 0x98 at offset "
                                       "30), so not a record\n")


def test_a_resumed_record_that_is_not_one_exits_2_naming_it(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"format": "something else"}))
    assert main(["play", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f'bones: {path}: not a record: it lacks "format": "bones-record/1"\n'
