"""Collection for the whole repository: ``pytest`` reads the modules under ``src`` for their
doctests, and the research adapters (``bones.research``) import OpenSpiel, PettingZoo or
Gymnasium, optional extras (``pip install 'bones[research]'``) that some Pythons have no
wheel of. Where one is missing its module is left out of that reading (its tests skip and
say why)."""

from __future__ import annotations

import importlib.util

#: Each adapter module and the library it needs.
_NEEDS = {
    "src/bones/research/openspiel.py": "pyspiel",
    "src/bones/research/pettingzoo.py": "pettingzoo",
    "src/bones/research/gym.py": "gymnasium",
}

collect_ignore = [path for path, module in _NEEDS.items()
                  if importlib.util.find_spec(module) is None]
