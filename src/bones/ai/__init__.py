"""Bots. Each decides from a ``SeatView`` only and takes an injected ``random.Random``.

``base`` is the bot interface and the helpers that start and close a table's bots,
``levels`` the registry of bones's own levels by name; outside bots, which speak the bot
protocol, are in ``bones.protocol``, above this package.
"""

from bones.ai.base import Bot
from bones.ai.levels import BOTS, LEVELS, MAX_THINK, make_bot

__all__ = ["BOTS", "LEVELS", "MAX_THINK", "Bot", "make_bot"]
