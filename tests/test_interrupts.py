"""Ctrl-C during a long run with worker processes: one line, status 130, no traceback, no
worker left behind, even when Ctrl-C comes twice (a terminal sends it to every process of
its group, as ``os.killpg`` does here)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

BONES = Path(sys.executable).parent / "bones"


def _children(pid: int) -> int:
    """How many processes ``pid`` has started (Linux's /proc; elsewhere, a guess of 2)."""
    proc = Path("/proc")
    if not proc.is_dir():
        return 2
    count = 0
    for entry in proc.iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            count += stat.rsplit(")", 1)[1].split()[1] == str(pid)  # field 4: the parent
    return count


def _gone(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.skipif(os.name != "posix", reason="process groups and SIGINT are POSIX")
@pytest.mark.timeout(120)
@pytest.mark.parametrize("command", [
    ["lab", "--hands", "20000000", "--seed", "1", "--jobs", "2"],
    ["arena", "--bots", "expert,ismcts", "--games", "400", "--seed", "1", "--jobs", "2"],
])
@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_stops_a_run_with_workers_in_one_line(command, presses):
    proc = subprocess.Popen([str(BONES), *command], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        # the workers are spawned (then given time to start work), however slow the machine
        deadline = time.monotonic() + 60
        while _children(proc.pid) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(2)
        assert proc.poll() is None
        for _ in range(presses):
            os.killpg(proc.pid, signal.SIGINT)
            time.sleep(0.05)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        assert err.strip() == "bones: interrupted", err
        deadline = time.monotonic() + 10
        while not _gone(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _gone(proc.pid), "a worker process outlived the run"
    finally:
        if not _gone(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
