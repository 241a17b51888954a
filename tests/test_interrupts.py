"""Ctrl-C during a long run with worker processes: one line, status 130, no traceback, no
worker left behind, even when Ctrl-C comes twice (a terminal sends it to every process of
its group, as ``os.killpg`` does here)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from processes import running

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
        # one line: the bare notice, or (an arena with deals done) the notice before its
        # results so far
        assert len([line for line in err.splitlines() if line.strip()]) == 1, err
        assert err.strip() == "bones: interrupted" or (
            command[0] == "arena" and err.startswith("bones: interrupted after ")), err
        deadline = time.monotonic() + 10
        while not _gone(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _gone(proc.pid), "a worker process outlived the run"
    finally:
        if not _gone(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)


def _interrupt_when(proc: subprocess.Popen[str], ready) -> tuple[str, str]:
    """Press Ctrl-C once ``ready()`` holds (or after a minute), and collect the output."""
    try:
        deadline = time.monotonic() + 60
        while not ready() and time.monotonic() < deadline:
            time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)
        return proc.communicate(timeout=60)
    finally:
        if not _gone(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.skipif(os.name != "posix", reason="process groups and SIGINT are POSIX")
@pytest.mark.timeout(120)
@pytest.mark.parametrize(("command", "bots", "total", "unit", "pattern", "files_per_unit"), [
    ("arena", "expert,greedy", 400, "deals", "deal-*.json", 2),
    ("simulate", "greedy", 100_000, "games", "game-*.json", 1),
])
def test_an_interrupted_run_reports_and_saves_what_it_finished(tmp_path, command, bots, total,
                                                               unit, pattern, files_per_unit):
    folder = tmp_path / "records"
    proc = subprocess.Popen([str(BONES), command, "--bots", bots, "--games", str(total),
                             "--seed", "1", "--jobs", "2", "--json", "--record", str(folder)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    out, err = _interrupt_when(proc, lambda: len(list(folder.glob(pattern))) >= 4)
    assert proc.returncode == 130, err
    result = json.loads(out)
    done = result[unit]
    assert result["interrupted"] is True and 2 <= done < total
    assert err == f"bones: interrupted after {done} of {total} {unit}; the results so far:\n"
    assert len(list(folder.glob(pattern))) == files_per_unit * done
    if command == "arena":
        assert json.loads((folder / "arena.json").read_text()) == result


@pytest.mark.skipif(os.name != "posix", reason="process groups and SIGINT are POSIX")
@pytest.mark.timeout(120)
def test_an_interrupted_fast_simulation_reports_the_chunks_it_finished():
    proc = subprocess.Popen([str(BONES), "simulate", "--bots", "random", "--hands", "50000000",
                             "--seed", "1", "--jobs", "2", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    started = time.monotonic()
    out, err = _interrupt_when(proc, lambda: time.monotonic() > started + 6)
    assert proc.returncode == 130, err
    result = json.loads(out)
    hands = result["hands"]
    assert result["interrupted"] is True and 0 < hands < 50_000_000 and hands % 50_000 == 0
    assert err == f"bones: interrupted after {hands} of 50000000 hands; the results so far:\n"


def _patient_sleep(seconds: float) -> None:
    """Sleep, giving up as soon as the run is stopped (as the referee does between moves)."""
    from bones.sim.parallel import check_cancelled

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        check_cancelled()
        time.sleep(0.05)


def _sleepy_series():
    """A generator of results from two workers, each chunk a sleep: the first is instant."""
    from bones.sim.parallel import Workers

    with Workers(2) as workers:
        yield from workers.map(_patient_sleep, [0, 60, 60, 60])


@pytest.mark.timeout(30)
def test_a_ctrl_c_caught_outside_a_series_still_ends_its_workers_at_once():
    """Ctrl-C held over a result's bookkeeping is raised in the caller's loop, outside the
    generator; ``stop`` must end its workers as a Ctrl-C inside it does, not wait for the
    chunks they began (here a minute each; the test's timeout is half that). They stop at
    their next check, not killed (``GRACE`` is for those that do not check)."""
    from bones.sim.parallel import stop

    series = _sleepy_series()
    assert next(series) is None
    stop(series)
    with pytest.raises(StopIteration):
        next(series)


def test_a_dropped_interrupt_is_not_raised_after_the_last_bookkeeping():
    """The seeds are added to a finished run's records with Ctrl-C dropped: stopping there
    would only lose the results; with ``then_raise`` (the default) it comes after."""
    from bones.cli.common import held_interrupts

    with held_interrupts(then_raise=False):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
    with pytest.raises(KeyboardInterrupt), held_interrupts():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)


@pytest.mark.timeout(30)
def test_workers_told_to_stop_exit_cleanly_rather_than_being_killed():
    """A worker killed while writing a result leaves half a message in the pipe the pool
    reads, and the pool then waits for the rest for ever (it hung about one Ctrl-C in ten
    of a fast series). So a Ctrl-C tells the workers to stop, and they exit by themselves."""
    from bones.sim.parallel import Workers

    workers = Workers(2)
    with pytest.raises(KeyboardInterrupt), workers:
        results = workers.map(_patient_sleep, [0, 60, 60, 60])
        assert next(results) is None
        processes = list(workers._pool._processes.values())
        raise KeyboardInterrupt
    for process in processes:
        process.join(timeout=10)
    assert processes and [p.exitcode for p in processes] == [0] * len(processes)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads bot pids from /proc")
@pytest.mark.timeout(120)
@pytest.mark.parametrize("command", [["arena", "--games", "2"], ["simulate", "--games", "1"],
                                     ["play", "--seats", "BOT,greedy"]])
def test_sigterm_ends_the_outside_bots_the_command_started(tmp_path, command):
    """Outside bots run in sessions of their own, out of reach of a signal to the command's
    group: killed with SIGTERM (``timeout``, ``kill``), the command must end them itself,
    as after Ctrl-C, not leave them running for ever."""
    pids = tmp_path / "pids"
    bot = tmp_path / "bot.py"
    bot.write_text(f"#!{sys.executable}\n"
                   "import os, time\n"
                   f"open({str(pids)!r}, 'a').write(f'{{os.getpid()}}\\n')\n"
                   "time.sleep(600)\n")
    bot.chmod(0o755)
    argv = [a.replace("BOT", f"cmd:{bot}") for a in command]
    if command[0] != "play":
        argv += ["--bots", f"cmd:{bot},greedy", "--jobs", "1", "--quiet", "--seed", "1"]
    proc = subprocess.Popen([str(BONES), *argv], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not pids.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert pids.exists(), "the bot never started"
        time.sleep(0.5)
        proc.terminate()
        _, err = proc.communicate(timeout=60)
        assert "Traceback" not in err and proc.returncode == 143, err
        started = [int(line) for line in pids.read_text().split()]
        deadline = time.monotonic() + 10
        while any(running(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(running(pid) for pid in started), "an outside bot outlived the command"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in [int(line) for line in pids.read_text().split()] if pids.exists() else []:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_sigterm_during_bookkeeping_waits_for_it_as_ctrl_c_does(tmp_path, monkeypatch, capsys):
    """Every game tallied has its record, and every record its seed, when SIGTERM lands in
    the middle of one game's bookkeeping (it stopped it half way: 3 tallied, 2 saved)."""
    import bones.cli.simulate as simulate_cli
    from bones.cli.main import main

    real = simulate_cli.Tally.add
    calls = []

    def add(self, outcome):
        calls.append(1)
        if len(calls) == 3:
            os.kill(os.getpid(), signal.SIGTERM)
        real(self, outcome)

    monkeypatch.setattr(simulate_cli.Tally, "add", add)
    folder = tmp_path / "games"
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    status = main(["simulate", "--bots", "greedy", "--games", "6", "--seed", "8", "--record",
                   str(folder), "--jobs", "1", "--quiet", "--json"])
    # both restored: a process that calls main() (this one) passes them on to its children
    assert status == 143
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
    out, err = capsys.readouterr()
    assert err.startswith("bones: terminated after 3 of 6 games")
    doc = json.loads(out)
    saved = sorted(folder.glob("game-*.json"))
    assert doc["games"] == len(saved) == 3
    assert all("seed" in json.loads(p.read_text()) for p in saved)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the bot's signal mask in /proc")
@pytest.mark.timeout(120)
def test_an_outside_bot_started_by_a_worker_still_hears_sigterm(tmp_path):
    """Workers do nothing on SIGTERM, by a handler, not by ignoring it: an ignored signal
    stays ignored across exec, and the bots they start would be deaf to it."""
    masks = tmp_path / "masks"
    bot = tmp_path / "bot.py"
    bot.write_text(f"#!{sys.executable}\n"
                   "status = open('/proc/self/status').read()\n"
                   "line = [l for l in status.splitlines() if l.startswith('SigIgn:')][0]\n"
                   f"open({str(masks)!r}, 'a').write(line.split()[1] + '\\n')\n")
    # it ends at once: given up, its moves are played for it without waiting on it
    bot.chmod(0o755)
    done = subprocess.run([str(BONES), "arena", "--bots", f"cmd:{bot},random", "--games", "2",
                           "--jobs", "2", "--think", "0.05", "--quiet", "--seed", "1"],
                          capture_output=True, text=True, timeout=110, check=False)
    assert done.returncode == 0, done.stderr
    ignored = [int(mask, 16) for mask in masks.read_text().split()]
    assert ignored and not any(mask & (1 << (signal.SIGTERM - 1)) for mask in ignored)


def test_play_refuses_an_unwritable_record_before_starting_any_bot(tmp_path):
    """The record's place is tried before the table is set: a refusal found after the bots
    started left them running."""
    started = tmp_path / "started"
    bot = tmp_path / "bot.py"
    bot.write_text(f"#!{sys.executable}\nopen({str(started)!r}, 'w').write('yes')\n"
                   "import time\ntime.sleep(60)\n")
    bot.chmod(0o755)
    done = subprocess.run([str(BONES), "play", "--seats", f"human,cmd:{bot}", "--record",
                           str(tmp_path / "no" / "such" / "x.json")], input="", text=True,
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 1 and "cannot write the record" in done.stderr
    assert not started.exists()
