"""Bots. Each decides from a ``SeatView`` only and takes an injected ``random.Random``."""

from bones.ai.base import BOTS, LEVELS, Bot, make_bot

__all__ = ["BOTS", "LEVELS", "Bot", "make_bot"]
