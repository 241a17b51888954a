"""``benchmarks/web_load.py`` runs: a few tables of scripted people against a real
``bones serve`` it starts itself, every move acknowledged and no message refused; and it
refuses impossible settings in one argparse line before starting anything."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmark_script import BENCHMARKS

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parent.parent


def test_a_short_load_run_plays_every_table_and_reports_its_figures(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, str(BENCHMARKS / "web_load.py"), "--tables", "2",
                           "--moves", "40", "--think", "0", "--log",
                           str(tmp_path / "server.log")],
                          capture_output=True, text=True, timeout=100, env=env, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "2 tables x 4 persons (block)" in out
    assert re.search(r"round trip .*: p50 [\d.]+ ms, p90 [\d.]+ ms, p99 [\d.]+ ms", out), out
    moves = re.search(r"moves: (\d+), (\d+) a second", out)
    assert moves is not None and int(moves[1]) >= 40, out
    assert re.search(r"server RSS: \d+ MiB at start, \d+ MiB with the tables seated, \d+ MiB "
                     r"at most", out), out
    assert "error frames" not in out and "closed by the server" not in out
    assert "refused" not in (tmp_path / "server.log").read_text()


@pytest.mark.parametrize(("args", "says"), [
    (["--tables", "0"], "--tables: must be at least 1"),
    (["--seats", "9"], "--seats: must be 2 to 8"),
    (["--think", "-1"], "--think: must be 0 seconds or more"),
    (["--duration", "0"], "--duration: must be more than 0 seconds"),
    (["--moves", "10", "--duration", "5"], "not allowed with argument"),
])
def test_the_load_benchmark_refuses_an_impossible_setting_before_starting(args, says):
    done = subprocess.run([sys.executable, str(BENCHMARKS / "web_load.py"), *args],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert says in done.stderr and "Traceback" not in done.stderr
