"""How long a search bot may think: shared by every bot that budgets in search steps.

A leaf module (it imports nothing of bones), so the bots import it without importing the
registry of levels (``bones.ai.levels``) that in turn imports them.
"""

from __future__ import annotations


def safety_net(think: float, slack: float) -> float:
    """Seconds after which a search bot that budgets in steps stops on the clock anyway:
    ``3 * think + slack`` (only a machine far slower than the calibration reaches it, so
    seeded runs still reproduce), but never past ``2 * think + 0.5``, half a second inside
    the ``2 * think + 1`` at which a bot-protocol referee stops waiting. The second bound
    matters only from a think time of about a second."""
    return min(3 * think + slack, 2 * think + 0.5)
