"""The expert's settings in one value, ``ExpertConfig``: its step costs, how far it solves
exactly, how it models the other players and how it values a hand.

They were module constants of the expert, read wherever they were needed, so trying another
setting meant patching a module for everyone at once. As one frozen value passed to the bot
(``ExpertBot(rng, config=...)``) and to its search (``Judge(..., config=...)``), a changed
expert is made beside the shipped one, and a test or benchmark says which it uses. The
defaults are the shipped expert; each field's comment says what it was measured against.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from bones.fast.paths import Backend


@dataclass(frozen=True, slots=True)
class Cost:
    """The search-step budget of one backend: steps per second of think time (calibrated
    on a 2-core development machine so the 95th-percentile decision stays within the think
    time), what sampling one candidate deal (in Python on both) costs in its steps, per
    seat at the table (more seats, more hands to draw and plays to read), and what one
    state of counting the deals a view allows costs (``bones.ai.dealing``; about 25 us).
    Both were measured with a double-six set; ``set_scale`` scales them up for larger
    sets."""

    per_second: int
    deal_per_seat: int
    per_state: int


class PlayerKind(NamedTuple):
    """A kind of player another seat may be: its prior chance, how strongly it prefers
    shedding heavier tiles (per pip, log-odds) and its bonus for shedding a double
    (log-odds)."""

    prior: float
    beta: float
    double: float


@dataclass(frozen=True, slots=True, kw_only=True)
class ExpertConfig:
    """Everything the expert's play depends on besides its think time and generator. The
    defaults give the shipped bot."""

    #: A step is a move of a playout or a node of an exact solve; the C search makes them
    #: about a hundred times faster, so work done in Python costs it many more of them.
    python_cost: Cost = Cost(75_000, 6, 2)
    c_cost: Cost = Cost(7_000_000, 150, 175)
    #: Extra steps charged for handing one deal to the C search (packing it, the call).
    c_call_cost: int = 300
    #: The C search solves a deal exactly when the hands hold at most this many tiles, and
    #: keeps doing so for the decision until a solve runs past ``c_node_limit`` nodes.
    c_exact_tiles: int = 16
    c_node_limit: int = 60_000
    #: The Python search solves a sampled deal exactly when the hands hold at most this many
    #: tiles in all ...
    exact_tiles: int = 9
    #: ... and one exact solve may visit this many nodes before it gives up for a playout.
    node_limit: int = 4000
    #: Candidate deals drawn for each deal searched: the searched one is picked in
    #: proportion to how well it explains the other seats' plays (sampling importance
    #: resampling).
    candidates: int = 6
    #: How strongly players are assumed to prefer shedding heavier tiles (per pip,
    #: log-odds), and doubles (log-odds), for a seat whose play has told nothing yet: the
    #: doubles-first kind below, which fits searching players best (against ``ismcts``,
    #: 1,000 deals of 2-player Block, it won 56.9% of hands with this and 55.6% with beta
    #: 0.6 and no bonus).
    beta: float = 0.2
    double: float = 1.5
    #: The kinds of player each other seat may be: one that plays any tile alike, one that
    #: leans to heavy tiles, one that sheds doubles first (as searching players do: fitted
    #: to ``ismcts`` and ``expert`` plays, it explains them far better than pips alone), and
    #: one that nearly always sheds its heaviest (as a beginner's "greedy" habit does; it
    #: must come last: the bot leaves heavier tiles out of its hand in that share of the
    #: deals). A sampled deal is weighed by how well it explains each seat's plays under
    #: this mixture, which is Bayes' rule over deal and kind together; the kind that explains
    #: a seat best is also how the exact search expects it to play.
    kinds: tuple[PlayerKind, ...] = (PlayerKind(0.15, 0.0, 0.0), PlayerKind(0.25, 0.6, 0.0),
                                     PlayerKind(0.3, 0.2, 1.5), PlayerKind(0.3, 4.0, 0.0))
    #: An opponent's play whose weight under its kind is below this share of the heaviest
    #: play's is not searched (it would hardly move the expectation).
    negligible: float = 1e-6
    #: A candidate deal weighing less than this share of its batch's heaviest is not
    #: searched.
    negligible_deal: float = 0.01
    #: Deals sampled to judge each seat's kind before searching.
    prepass: int = 16
    #: In exact solves, model the other sides' choices by that same preference (expectimax)
    #: instead of assuming they see every tile and play perfectly against us (minimax: a
    #: double-dummy solve, which the after-hand review wants).
    model_opponents: bool = True
    #: With two players and the C search, decide the bot's next turns without seeing the
    #: other hand (``NextTurnDeals``) rather than deal by deal.
    information_sets: bool = True
    #: How many of the bot's turns ``NextTurnDeals`` decides by what the bot will have seen
    #: rather than deal by deal: its next two, and every one left once at most
    #: ``all_turns_tiles`` tiles can still be played (in the hands, and in a boneyard that
    #: can still be drawn from), since every later turn of the bot multiplies the walk.
    #: Against ``ismcts``, 1,000 deals of 2-player Block: 55.55% of hands won deciding only
    #: the next turn, 56.30% with this (on 2,000 other deals: 56.0%, both ways).
    turns: int = 2
    all_turns_tiles: int = 10
    #: Weight of the points at stake, per point, beside the +1/-1 of the hand's result.
    points_weight: float = 0.01
    #: Extra value of a hand that wins (or loses) the game.
    game_weight: float = 0.5

    def cost(self, backend: Backend) -> Cost:
        """The step costs of searching on ``backend``."""
        return self.c_cost if backend == "c" else self.python_cost


#: The shipped expert's settings.
DEFAULT_CONFIG = ExpertConfig()
