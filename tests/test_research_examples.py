"""The research examples run, on small budgets: OpenSpiel's CFR on a small Block game
(its exploitability falls), and a policy trained in the PettingZoo environment against a
random player (it wins more of the same evaluation hands after training than before)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

from extras import need

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_cfr_on_a_small_block_game_lowers_its_exploitability(capsys):
    need("pyspiel", "OpenSpiel", "pip install --only-binary open_spiel -e '.[research]'",
         "openspiel.log")
    assert _load("openspiel_cfr").main(["--iterations", "4"]) == 0
    out = capsys.readouterr().out
    values = [float(v) for v in re.findall(r"^\s+\d+\s+([0-9.]+)$", out, re.MULTILINE)]
    assert len(values) == 3 and values[0] > values[1] > values[2] > 0


def test_a_policy_trained_in_pettingzoo_wins_more_against_random(capsys):
    need("pettingzoo", "PettingZoo", "pip install -e '.[environments]'", "environments.log")
    learn = _load("pettingzoo_learn")
    assert learn.main(["--hands", "1000", "--eval", "300", "--reports", "2"]) == 0
    out = capsys.readouterr().out
    rates = [float(v) for v in re.findall(r"^\s+\d+\s+([0-9.]+)%$", out, re.MULTILINE)]
    assert len(rates) == 3 and rates[-1] > rates[0]
