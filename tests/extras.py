"""The optional extras' libraries in tests (OpenSpiel, PettingZoo, Gymnasium, Ray): a test
that needs one skips where it is not installed, with pip's own reason when ``make test``
tried to install it and pip refused (the Makefile keeps pip's errors in the virtual
environment: ``openspiel.log``, ``environments.log``, ``cluster.log``), so the summary says
why (no wheel for this Python, say) rather than only that it is missing."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import ModuleType

import pytest


def pip_said(log: str) -> str | None:
    """pip's last ``ERROR`` line in ``log`` (a file in this Python's environment), if any."""
    try:
        text = (Path(sys.prefix) / log).read_text(errors="replace")
    except OSError:
        return None
    errors = [line.strip() for line in text.splitlines() if line.startswith("ERROR")]
    return errors[-1] if errors else None


def need(module: str, what: str, install: str, log: str, require: str | None = None
         ) -> ModuleType:
    """``module``, or a skip that says why it is missing: pip's reason from ``log`` where
    ``make test`` left one, and how to install it. With ``require`` naming an environment
    variable that is set to 1, a missing module fails the test instead (CI that must run
    these tests)."""
    try:
        return __import__(module)
    except ImportError as exc:
        said = pip_said(log)
        reason = (f"{what} is not installed ({said or exc}); make test installs it where "
                  f"a wheel exists: {install}")
        if require is not None and os.environ.get(require) == "1":
            pytest.fail(f"{require}=1 but {reason}")
        pytest.skip(reason, allow_module_level=True)
