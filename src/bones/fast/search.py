"""The expert's evaluation of one sampled deal in C (``_search``), when that extension is built.

The expert bot samples deals and, in each, values every candidate play by an exact solve or
a heavy-tile-first playout (``bones.ai.judge.Judge`` on a ``bones.ai.position.Position``).
That work is almost all of its think time, so this module offers the same loop in C, tens of
times faster: ``evaluate`` plays each candidate in turn, solves or plays out the rest, and
returns the values and the search steps spent, as the Python loop of ``PythonDeals``
(``bones.ai.expert_deals``) would (see below and ``_search.c`` for how exactly), and whether
it is still solving. What every deal of a decision shares is made once, as one named value
(``SearchSpec``, ``Candidates``), so each call passes only the deal's hidden part beside it,
not the extension's long positional list. That part is passed as plain arguments, not as
one more named value: the expert makes hundreds of calls a decision, the cheapest take a
few microseconds, and building a value per call cost them 10% to 35%
(``benchmarks/README.md``).

This package sits below ``bones.ai``: it takes plain numbers (a ``Position``'s fields) rather
than importing it. The extension is optional like ``_playout``: without a C compiler it is
not built, ``available()`` is false, and the expert keeps its Python judge. ``SearchSpec``
can be made either way (so callers need no second code path to build one); only
``evaluate`` needs the extension.

It follows ``Judge`` move for move: the same moves in the same order, the same node counts
(its table keeps every entry, as ``Judge``'s dict does, though keyed by a 64-bit hash, and
serves every solve of one call as the expert passes one dict to every solve of a deal), the
same opponent model (one beta per seat, plays under ``1e-6`` of the heaviest's weight left
out) and a failed solve's position put back before the playout. The one difference: playouts
break ties between equally heavy plays with the extension's own generator, seeded by
``seed``, so they match ``Judge.playout`` only where no tie arises.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from bones.engine.layout import has_spinner
from bones.engine.rules import Rules
from bones.engine.scoring import BLOCKED, OUT, PLAYING
from bones.engine.state import calls_block, reserve_of
from bones.fast.params import SCORE, SPINNER, agrees, refusal

try:
    from bones.fast import _search
except ImportError:  # installed where no C compiler worked
    _search = None  # type: ignore[assignment]
if _search is not None and not agrees(_search, "PLAYING", "OUT", "BLOCKED"):
    _search = None  # type: ignore[assignment]  # built from older sources: rebuild it

# PLAYING, OUT and BLOCKED (``Position.status``) are the engine's numbering, which
# ``_search`` shares; they are imported above for this module's callers.
__all__ = ["BLOCKED", "MISSING", "OUT", "PLAYING", "SearchSpec", "available", "evaluate",
           "evaluate_sights", "sights", "supports"]

#: The options the search reads, and those that cannot change a hand once it is dealt (who
#: leads and sets what is in the position given; the pool is not in a hand's value).
_KNOWN = frozenset({"set", "players", "partnerships", "draw", "reserve", "call_block",
                    "spinner", "score", "target", "hand_size", "lead", "opening", "no_double",
                    "next_lead", "ante", "pool", "pool_tie"})

MISSING = ("the C search extension (bones.fast._search) is not built; reinstall with a C "
           "compiler, or search with bones.ai.judge.Judge")


def available() -> bool:
    """Whether the C extension was compiled and imports."""
    return _search is not None


def supports(rules: Rules) -> str | None:
    """Why the C search cannot value hands of ``rules`` (one line naming the option and its
    value), or ``None`` when it can. A caller (the expert) searches such rules with its
    Python judge instead; ``SearchSpec.for_rules`` refuses them with this reason.

    >>> from bones.engine.rules import PRESETS
    >>> supports(PRESETS["pagat-draw"]) is None
    True
    """
    return refusal(rules, {"score": SCORE, "spinner": SPINNER}, _KNOWN,
                   ("the C search", "does", "it", "values"))


@dataclass(frozen=True)
class SearchSpec:
    """Everything about one decision's searches that does not change from deal to deal.

    Made once per decision and checked and laid out for C once (``__post_init__``), so the
    per-deal call passes only the position. ``sides[seat]`` is each seat's side and ``side``
    the bot's; ``scores`` are the sides' game totals before the hand. A finished hand is worth
    ``sign * (1 + points_weight * points)``, plus ``sign * game_weight`` if it takes the
    winner to ``target``, with ``sign`` +1 when ``side`` wins, -1 when another side does, and 0
    for a tie. With ``model_opponents`` the other sides' turns are an expectation over their
    plays, weighted by ``exp(betas[seat] * pips)`` (times ``exp(doubles[seat])`` for a double,
    since players who know the game shed doubles first); without, they minimise. ``node_limit`` is
    the nodes one exact solve may visit before the rest of the deal is played out instead.
    """

    top: int
    sides: tuple[int, ...]
    side: int
    draw: bool
    reserve: int
    call_block: bool
    first_double: bool
    score: str
    scores: tuple[int, ...]
    target: int
    points_weight: float
    game_weight: float
    model_opponents: bool
    betas: tuple[float, ...]
    node_limit: int
    #: Per seat, the log-odds bonus of playing a double (empty: none for any seat).
    doubles: tuple[float, ...] = ()
    #: The C form (``_search.Spec``), or ``None`` without the extension.
    packed: _search.Spec | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.score not in SCORE:
            raise ValueError(f"score must be one of {', '.join(SCORE)}, not {self.score!r}")
        if len(self.betas) != len(self.sides):
            raise ValueError(f"betas needs one preference per seat ({len(self.sides)}), "
                             f"not {len(self.betas)}")
        if not all(math.isfinite(b) and b >= 0 for b in self.betas):
            raise ValueError(f"betas must be finite and at least 0, not {self.betas!r}")
        if not self.doubles:
            object.__setattr__(self, "doubles", (0.0,) * len(self.sides))
        if len(self.doubles) != len(self.sides):
            raise ValueError(f"doubles needs one bonus per seat ({len(self.sides)}), "
                             f"not {len(self.doubles)}")
        if not all(math.isfinite(d) and d >= 0 for d in self.doubles):
            raise ValueError(f"doubles must be finite and at least 0, not {self.doubles!r}")
        packed = None
        if _search is not None:
            packed = _search.Spec(
                self.top, self.sides, self.side, self.draw, self.reserve, self.call_block,
                self.first_double, SCORE[self.score], self.scores, self.target,
                self.points_weight, self.game_weight, self.model_opponents, self.betas,
                self.node_limit, self.doubles)
        object.__setattr__(self, "packed", packed)

    @classmethod
    def for_rules(cls, rules: Rules, seat: int, scores: Sequence[int], *,
                  betas: Sequence[float], model_opponents: bool, node_limit: int,
                  points_weight: float, game_weight: float,
                  doubles: Sequence[float] = ()) -> SearchSpec:
        """The spec of ``seat``'s decisions under ``rules`` (what ``Judge`` derives).

        Only how far each side is from the target matters, and no hand scores more than the
        set's pips, so a side further off than that is passed as just out of reach: the
        same decisions, with sums that fit the search's 64-bit integers whatever whole
        numbers the scores and target are (a bot-protocol request may carry any).
        ``ValueError`` with ``supports``'s reason for rules the search cannot value."""
        reason = supports(rules)
        if reason is not None:
            raise ValueError(reason)
        kept = reserve_of(rules)
        reach = rules.set * (rules.set + 1) * (rules.set + 2) // 2 + 1
        needs = [max(-reach, min(reach, rules.target_points - score)) for score in scores]
        return cls(
            top=rules.set,
            sides=tuple(rules.side_of(s) for s in range(rules.players)),
            side=rules.side_of(seat),
            draw=kept is not None,
            reserve=kept or 0,
            call_block=calls_block(rules),
            first_double=has_spinner(rules),
            score=rules.score,
            scores=tuple(reach - need for need in needs),
            target=reach,
            points_weight=points_weight,
            game_weight=game_weight,
            model_opponents=model_opponents,
            betas=tuple(betas),
            node_limit=node_limit,
            doubles=tuple(doubles),
        )


class Candidates(NamedTuple):
    """The moves of one decision to value, with everything its deals share: the ``spec``
    and the public part of the position, a ``Position``'s fields as they are (-1 for closed
    ``arms``, no ``spinner`` and any ``opening``, ``placed`` as an int mask of tile
    indices, ``status`` as ``PLAYING``, ``OUT`` or ``BLOCKED``). ``moves`` are its int moves,
    each legal there.

    Made once per decision, like the spec, so what changes from deal to deal (the arguments
    of ``evaluate`` after it) is small: the expert hands the search hundreds of deals a
    decision. A named tuple, so ``evaluate`` takes its fields out in one unpacking rather
    than nine attribute lookups."""

    spec: SearchSpec
    to_move: int
    arms: Sequence[int]
    spinner: int
    waiting: int
    placed: int
    opening: int
    status: int
    moves: Sequence[int]


def evaluate(candidates: Candidates, hands: Sequence[int], boneyard: Sequence[int],
             drawn: int, exact: bool, seed: int) -> tuple[tuple[float, ...], int, bool]:
    """Value each of the ``candidates``' moves in one deal, as ``PythonDeals.values``
    (``bones.ai.expert_deals``) does. The deal's hidden part is ``hands`` (int masks of tile
    indices, one per seat) and the ``boneyard`` (in draw order, its first ``drawn`` tiles
    drawn already); ``exact``: solve while it holds (else play out); ``seed`` seeds the
    extension's generator, which breaks ties in playouts.

    For each move: play it, solve the rest exactly while ``exact`` holds (a solve past
    ``spec.node_limit`` nodes turns ``exact`` off for this and the later moves), else play
    it out; undo. Returns the values for ``spec.side``, the steps spent (every solve's
    nodes, failed ones too, and a playout's moves + 1) and whether ``exact`` still holds at
    the end (false once a solve has run out of nodes, so a caller can stop asking for
    solves). Raises ``ValueError`` or ``TypeError`` for an inconsistent position and
    ``RuntimeError`` without the extension.
    """
    # one unpacking and one call into C: the cheapest searches take about a microsecond
    spec, to_move, arms, spinner, waiting, placed, opening, status, moves = candidates
    packed = spec.packed
    if packed is None:
        raise RuntimeError(MISSING)
    return _search.evaluate(packed, hands, boneyard, drawn, to_move, arms, spinner, waiting,
                            placed, opening, status, moves, exact, seed)


def sights(roots: int) -> _search.Sights:
    """An empty ``Sights`` for ``roots`` root moves, for ``evaluate_sights``: a trie of what
    the bot will have seen after each, with the values of its moves there summed over the
    deals added. ``len()`` is the number of sights held; ``totals()`` is each root move's
    worth: at every sight where the bot chooses, its best move's summed value (one choice
    per sight, since it cannot see the deal), added up over everything it may see."""
    if _search is None:
        raise RuntimeError(MISSING)
    return _search.Sights(roots)


def evaluate_sights(candidates: Candidates, hands: Sequence[int], boneyard: Sequence[int],
                    drawn: int, exact: bool, seed: int, budget: int, into: _search.Sights,
                    weight: float, depth: int) -> tuple[int, bool]:
    """Value the bot's next ``depth`` turns after each of the ``candidates``' moves in one
    deal (given as for ``evaluate``), as what it will have seen then, adding them (times
    ``weight``) to ``into`` (``sights(len(moves))``).

    For each move ``i``: play it, then follow the deal through the next ``depth`` turns on
    which ``spec.side`` plays (forced or chosen): draws and passes as they come, the other
    sides' choices weighed as the exact search weighs them. On each of those turns but the
    last, every legal move is followed in turn; on the last, every legal move is valued as
    ``evaluate`` values a move (solved with every tile known, or played out). Each value,
    times the chance of the way there in this deal, is added under what the bot will have
    seen: the moves on the way, another seat's draw seen only as a draw and the side's own
    draws with their tiles. A hand that ends on the way adds its value where it ended.
    Summed over deals, the best move at each sight is the one the bot can really choose,
    not knowing the deal.

    Returns the steps spent (as for ``evaluate``, plus two per position walked) and whether
    ``exact`` still holds. One call walks many positions, so once it has spent ``budget``
    steps it stops solving and branching: the side's moves are valued where it stands and
    played out, another side's choice is played out (``exact`` then comes back false). A
    caller's budget is so overrun by at most about one solve and one turn. The errors raised
    are as for ``evaluate``; after an error ``into`` may hold part of the deal.
    """
    spec, to_move, arms, spinner, waiting, placed, opening, status, moves = candidates
    packed = spec.packed
    if packed is None:
        raise RuntimeError(MISSING)
    return _search.evaluate_sights(packed, hands, boneyard, drawn, to_move, arms, spinner,
                                   waiting, placed, opening, status, moves, exact, seed,
                                   budget, into, weight, depth)
