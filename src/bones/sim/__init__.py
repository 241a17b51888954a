"""Tournaments between bots and their statistics: ``referee`` plays the games (the only code
that sees every hand), ``stats`` turns their results into win rates with confidence intervals.
``arena`` plays duplicate matches and ``arena_stats`` tallies them, with intervals over deals
(``clusters``) and a sequential test (``sprt``); ``fastsim`` is the all-random fast path, and
``parallel`` spreads any of them over worker processes.
"""

from bones.sim.referee import GameOutcome, play_game, play_series
from bones.sim.stats import Summary, summarise, wilson

__all__ = ["GameOutcome", "Summary", "play_game", "play_series", "summarise", "wilson"]
