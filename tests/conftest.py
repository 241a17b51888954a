"""Shared test setup: the helper modules next to the tests (``scripted``, ``reference``,
``generators``) import by name under any pytest import mode."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
