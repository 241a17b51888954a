"""The benchmark scripts refuse impossible settings the way the ``bones`` commands do (an
argparse line, status 2), instead of a traceback after starting to measure."""

from __future__ import annotations

import subprocess
import sys

import pytest

from benchmark_script import BENCHMARKS


@pytest.mark.parametrize(("script", "args", "says"), [
    ("engine_paths", ["--seconds", "0"], "--seconds: must be more than 0 seconds"),
    ("engine_paths", ["--seconds", "nan"], "--seconds: must be a finite number of seconds"),
    ("search_paths", ["--deals", "0"], "--deals: must be at least 1"),
    ("search_paths", ["--seconds", "-1"], "--seconds: must be more than 0 seconds"),
    ("expert_timing", ["--hands", "0"], "--hands: must be at least 1"),
    ("expert_timing", ["--level", "bogus"], "--level: invalid choice: 'bogus'"),
    ("expert_timing", ["--think", "0"], "--think: must be more than 0 seconds"),
    ("replay_hands", ["--hands", "1000,0"], "--hands: must be at least 1"),
    ("replay_hands", ["--hands", "many"], "--hands: 'many' is not a list of whole numbers"),
])
def test_a_benchmark_refuses_an_impossible_setting_before_measuring(script, args, says):
    done = subprocess.run([sys.executable, str(BENCHMARKS / f"{script}.py"), *args],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert says in done.stderr and "Traceback" not in done.stderr
