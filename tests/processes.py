"""Looking at processes from tests: whether one still runs, by Linux's /proc."""

from __future__ import annotations

from pathlib import Path


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
