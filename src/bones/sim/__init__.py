"""Tournaments between bots and their statistics: ``referee`` plays the games (the only code
that sees every hand), ``stats`` turns their results into win rates with confidence intervals.
"""

from bones.sim.referee import GameOutcome, play_game, play_series
from bones.sim.stats import Summary, summarise, wilson

__all__ = ["GameOutcome", "Summary", "play_game", "play_series", "summarise", "wilson"]
